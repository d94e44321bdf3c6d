"""Partial dependence: the model's predictions with features fixed at grid points.

R's ``PDPlot`` (and iml's PDP/ICE) evaluate the model once per grid point on
the whole data.  Here several grid points share one model call, as long as
the stacked frame stays within a row bound, and the per-point means are
computed from the stacked answer: fewer, larger calls, the same numbers.

A stacked frame repeats the data's index labels (once per grid point), so a
model that returns a pandas answer in another row order (see
:func:`~pyale._core.calls.rows_in_order`) cannot be matched on it; such a
call is asked again one grid point at a time, as R asks, where the labels
are the data's own.

:func:`pd_sums` is the one pass of partial dependence over any rows (a
pandas frame's or an engine's blocks): per grid point, the sum over rows of
the predictions with the feature(s) set to that point, and the rows per
grid cell.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable

import numpy as np
import pandas as pd

from .._engines.columns import level_codes, numeric_values
from .._rbase import bin_right_closed
from .calls import ModelCaller, RowOrderError
from .estimate import require_finite_effects
from .features import Feature
from .shifted import ShiftedFrames, categorical_column_values, numeric_column_values

__all__ = ["grid_predictions", "DEFAULT_ROWS_PER_CALL", "PDAxis", "pd_sums"]

#: Default bound on rows per model call when grid points are stacked.
DEFAULT_ROWS_PER_CALL = 100_000


def grid_predictions(
    frame: pd.DataFrame,
    setters: dict[object, Callable[[np.ndarray], object]],
    n_points: int,
    caller: ModelCaller,
    *,
    rows_per_call: int | None,
    purpose: str,
    average: bool = True,
) -> np.ndarray:
    """Predictions of every row with the feature(s) set to each grid point.

    Parameters
    ----------
    frame : pandas.DataFrame
        The data (never modified).
    setters : dict
        Column label -> function mapping an array of grid-point indices (one
        per stacked row) to that column's new values.
    n_points : int
        Number of grid points.
    caller : ModelCaller
        The model.
    rows_per_call : int or None
        Stack grid points while the stacked frame has at most this many rows
        (at least one point per call); ``None`` stacks all of them.
    purpose : str
        What the predictions are for (error messages).
    average : bool, default True
        Return the mean over rows per grid point, ``(n_points, n_outputs)``;
        otherwise every prediction, ``(n_points, n_rows, n_outputs)``.
    """
    n = frame.shape[0]
    per_call = n_points if rows_per_call is None else max(1, rows_per_call // n)
    pieces = []
    start = 0
    while start < n_points:
        points = np.arange(start, min(n_points, start + per_call))
        try:
            y = _predict_points(frame, setters, points, n_points, caller, purpose)
        except RowOrderError:
            if points.shape[0] == 1:
                raise
            per_call = 1  # one grid point per call from here on: the data's own labels
            continue
        pieces.append(y.mean(axis=1) if average else y)
        start = points[-1] + 1
    if not average:  # predictions, each finite (the caller checks): no copy when there is one piece
        return pieces[0] if len(pieces) == 1 else np.concatenate(pieces, axis=0)
    return require_finite_effects(np.concatenate(pieces, axis=0), f"mean prediction for {purpose}")


def _predict_points(frame, setters, points, n_points, caller, purpose) -> np.ndarray:
    """Predictions ``(len(points), n_rows, n_outputs)`` from one stacked frame."""
    n = frame.shape[0]
    point_of_row = np.repeat(points, n)
    rows = None if points.shape[0] == 1 else np.tile(np.arange(n), points.shape[0])
    stacked, private = ShiftedFrames(frame, rows).frame(
        {name: setter(point_of_row) for name, setter in setters.items()}, last=True
    )
    label = f"{purpose} (grid points {points[0] + 1}..{points[-1] + 1} of {n_points})"
    return caller(stacked, label, private=private).reshape(points.shape[0], n, -1)


# ----------------------------------------------------------------------------- partial dependence
@dataclass(frozen=True)
class PDAxis:
    """One feature of a partial dependence grid.

    ``values`` are the grid values (numeric) or level labels; ``points``
    maps every grid point to its index in ``values`` (pairs: each feature's
    index); ``levels`` (categorical) are the feature's levels, for the
    dtype-preserving column values.  ``breaks`` (optional) are the interval
    breaks whose row counts are wanted (``bin_right_closed``).
    """

    name: object
    values: object
    points: np.ndarray
    categorical: bool = False
    levels: tuple = ()
    breaks: np.ndarray | None = None


def _setter(block: pd.DataFrame, axis: PDAxis, start: int):
    """The column's values at grid points ``start + points``: one gather from the values per point."""
    column = block[axis.name]
    if axis.categorical:
        feature = Feature(name=axis.name, categorical=True, levels=axis.levels)
        at_point = np.asarray(axis.values)[axis.points][start:]  # indices into levels
        return lambda points: categorical_column_values(column, feature, at_point[points])
    at_point = np.asarray(axis.values, dtype=float)[axis.points][start:]
    return lambda points: numeric_column_values(column, at_point[points])


def _pd_block(block, offset, *, axes, n_points, caller, rows_per_call, purpose, anchor, count_axes, weight):
    if weight is not None:
        block = block.drop(columns=[weight])
    n = block.shape[0]
    out = {"sums": None, "rows": n}
    per_call = n_points if rows_per_call is None else max(1, rows_per_call // max(n, 1))
    starts = list(range(0, n_points, per_call)) if n else []
    if anchor is not None:  # the anchor's chunk first: every chunk subtracts the anchor's predictions
        starts.sort(key=lambda start: not start <= anchor < start + per_call)
    sums, y_anchor = {}, None
    for start in starts:
        size = min(per_call, n_points - start)
        setters = {a.name: _setter(block, a, start) for a in axes}
        y = grid_predictions(block, setters, size, caller, rows_per_call=rows_per_call, purpose=purpose,
                             average=False)
        if anchor is not None:
            if y_anchor is None:
                y_anchor = y[anchor - start].copy()
            y = y - y_anchor[None, :, :]
        sums[start] = y.sum(axis=1)
    if sums:
        out["sums"] = np.concatenate([sums[start] for start in sorted(sums)], axis=0)
    if count_axes:
        bins, sizes = [], []
        for a in count_axes:
            if a.categorical:
                bins.append(level_codes(block[a.name], pd.Index(list(a.levels), dtype=object)))
                sizes.append(len(a.levels))
            else:
                bins.append(bin_right_closed(numeric_values(block[a.name]), a.breaks))
                sizes.append(a.breaks.shape[0] - 1)
        cells = bins[0] if len(bins) == 1 else bins[0] * sizes[1] + bins[1]
        out["counts"] = np.bincount(cells, minlength=int(np.prod(sizes))).astype(np.int64)
    return out


def _pd_combine(a, b):
    out = {"rows": a["rows"] + b["rows"]}
    out["sums"] = b["sums"] if a["sums"] is None else a["sums"] if b["sums"] is None else a["sums"] + b["sums"]
    if "counts" in a:
        out["counts"] = a["counts"] + b["counts"]
    return out


def pd_sums(data, axes: list, n_points: int, caller, *, rows_per_call, purpose: str, anchor: int | None = None,
            count_axes: list | None = None) -> dict:
    """Per grid point, the sum over rows of the predictions (minus each row's prediction at ``anchor``).

    Returns ``{"sums": (n_points, n_outputs), "rows": n, "counts": ...}``;
    ``counts`` are the rows per cell of ``count_axes``' breaks (flattened,
    the first axis major) when asked.
    """
    func = functools.partial(_pd_block, axes=axes, n_points=n_points, caller=caller, rows_per_call=rows_per_call,
                             purpose=purpose, anchor=anchor, count_axes=count_axes or [], weight=data.weight)
    return data.rows.map_reduce(func, _pd_combine)
