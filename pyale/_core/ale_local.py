"""The map stage under R's ``ale`` 0.5.0 rules (plans with ``rules="ale"``).

``ale`` gives every feature *bins* and moves each row from a "low" to a
"high" value (docs/ale-package.md, section 4):

* numeric: ceilings ``c`` (the minimum, then ALEPlot's edges); bin 0 holds
  the rows at the minimum, bin ``k`` the rows in ``(c[k-1], c[k]]``; a row of
  bin ``k >= 1`` moves from ``c[k-1]`` to ``c[k]``;
* binary, categorical, ordinal: the levels in ALE order; a row of level
  ``k >= 1`` moves from level ``k - 1`` to its own level (backward
  differences only).

Rows of bin 0 have ``high == low``: their difference is exactly 0 and needs
no model call.  Each row gives one entry: its bin (a cell for two features)
and its difference (second-order for two features), so a group's mean is
ale's local effect and its row count ale's ``.n``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from pandas.api import types as ptypes

from .._rbase import bin_right_closed
from .calls import predict_variants
from .local import Entries, LevelAxis, _per_part
from .shifted import numeric_grid_values

__all__ = ["AleNumericAxis", "AleLevelAxis", "block_entries"]


@dataclass(frozen=True)
class AleNumericAxis:
    """A numeric feature's ceilings; bin 0 holds the rows at the minimum ``ceilings[0]``.

    ``known`` is ``(frame, bins)`` already computed for one in-memory frame.
    """

    name: object
    ceilings: np.ndarray
    known: tuple | None = field(default=None, compare=False, repr=False)
    ale_type: str = "numeric"

    @property
    def n_bins(self) -> int:
        return self.ceilings.shape[0]

    @property
    def edges(self) -> np.ndarray:
        return self.ceilings

    def bins(self, block: pd.DataFrame) -> np.ndarray:
        """ale's bin of each row (-1 outside the ceilings)."""
        if self.known is not None and self.known[0] is block:
            return self.known[1]
        return ale_numeric_bins(block[self.name].to_numpy(dtype=float, na_value=np.nan), self.ceilings)

    def values(self, column: pd.Series):
        """The ceilings in the column's dtype (as a numeric column keeps it when lossless)."""
        return numeric_grid_values(column, self.ceilings)


def ale_numeric_bins(values: np.ndarray, ceilings: np.ndarray) -> np.ndarray:
    """0 at ``ceilings[0]``, ``k`` in ``(ceilings[k-1], ceilings[k]]``, -1 outside."""
    out = np.full(values.shape[0], -1, dtype=np.int64)
    if ceilings.shape[0] == 1:
        out[values == ceilings[0]] = 0
        return out
    interval = bin_right_closed(values, ceilings)
    inside = (interval >= 0) & (interval < ceilings.shape[0] - 1)
    out[inside] = interval[inside] + 1
    out[values == ceilings[0]] = 0
    return out


@dataclass(frozen=True)
class AleLevelAxis(LevelAxis):
    """A binary, categorical or ordinal feature's levels; ``order`` is ale's (ALE) order.

    ``levels`` may be any values of the column (numbers and booleans too, for
    a binary feature).
    """

    ale_type: str = "categorical"

    @property
    def n_bins(self) -> int:
        return self.n_levels

    def bins(self, block: pd.DataFrame) -> np.ndarray:
        return self.ranks(block)

    def column_values(self, column: pd.Series, ranks: np.ndarray):
        dtype = column.dtype
        if isinstance(dtype, np.dtype) and dtype.kind in "biuf":
            values = np.asarray(list(self.levels), dtype=dtype)
            return values[self.order[ranks]]
        if ptypes.is_bool_dtype(dtype) or ptypes.is_numeric_dtype(dtype):
            values = np.empty(len(self.levels), dtype=object)
            values[:] = list(self.levels)
            return pd.array(values[self.order[ranks]], dtype=dtype)
        return super().column_values(column, ranks)


def _side_values(axis, block: pd.DataFrame, bins: np.ndarray):
    """``side(part, high) -> {name: values}`` for the rows ``part`` of the chosen rows."""
    column = block[axis.name]
    if isinstance(axis, AleNumericAxis):
        ceilings = axis.values(column)

        def side(chosen: np.ndarray, high: bool) -> dict:
            return {axis.name: ceilings.take(bins[chosen] if high else bins[chosen] - 1)}
    else:
        def side(chosen: np.ndarray, high: bool) -> dict:
            # a level's "high" value is the row's own level: the column as observed
            return {} if high else {axis.name: axis.column_values(column, bins[chosen] - 1)}
    return side


def _width(caller, block: pd.DataFrame) -> int:
    """The model's number of outputs, asking it about one row if it never answered yet."""
    names = getattr(caller, "output_names", None)
    if names is None:
        return caller(block.iloc[:1], "the model's number of outputs").shape[1]
    return len(names)


def block_entries(plan, block: pd.DataFrame, caller, *, rows_per_call=None) -> dict[str, Entries]:
    """``{"local": Entries}``: each row's bin (or cell) and its local difference."""
    axes = plan.axes
    bins = [axis.bins(block) for axis in axes]
    inside = np.ones(block.shape[0], dtype=bool)
    for b in bins:
        inside &= b >= 0
    moved = inside.copy()
    for b in bins:
        moved &= b >= 1
    rows = np.flatnonzero(moved)
    sides = [_side_values(axis, block, b) for axis, b in zip(axes, bins)]
    if len(axes) == 1:
        variants = [("rows at their bin's upper value", (True,)), ("rows at their bin's lower value", (False,))]
    else:
        variants = [(f"cell corner {key}", choice) for key, choice in
                    (("22", (True, True)), ("21", (True, False)), ("12", (False, True)), ("11", (False, False)))]

    def columns_for(choice):
        def new_columns(part):
            chosen = rows[part]
            out = {}
            for side, high in zip(sides, choice):
                out.update(side(chosen, high))
            return out
        return _per_part(new_columns)

    if rows.shape[0]:
        predictions = predict_variants(
            caller, block, [(f"{plan.purpose} ({label})", columns_for(choice)) for label, choice in variants],
            rows=rows, rows_per_call=rows_per_call)
        if len(axes) == 1:
            differences = np.subtract(predictions[0], predictions[1], out=predictions[0])
        else:
            y22, y21, y12, y11 = predictions
            differences = (y22 - y21) - (y12 - y11)
        width = differences.shape[1]
    else:
        width = _width(caller, block)
        differences = np.empty((0, width))
    values = np.zeros((block.shape[0], width))
    values[rows] = differences
    positions = np.flatnonzero(inside)
    groups = bins[0][positions]
    n_groups = axes[0].n_bins
    for axis, b in zip(axes[1:], bins[1:]):
        groups = groups * axis.n_bins + b[positions]
        n_groups *= axis.n_bins
    return {"local": Entries(groups, positions, n_groups, values[positions])}
