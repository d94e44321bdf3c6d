"""R's ``ale`` 0.5.0 rules (``conventions="ale"`` and :class:`pyale.ALE`).

``ale`` gives every feature *bins* and moves each row from a "low" to a
"high" value (docs/ale-package.md, sections 4-6):

* grid: ceilings ``c`` (the minimum, then ALEPlot's edges); bin 0 holds the
  rows at the minimum, bin ``k`` the rows in ``(c[k-1], c[k]]``;
* map: a numeric row of bin ``k >= 1`` moves from ``c[k-1]`` to ``c[k]``; a
  binary, categorical or ordinal row of level ``k >= 1`` (levels in ALE
  order) from level ``k - 1`` to its own level (backward differences only).
  Rows of bin 0 have ``high == low``: their difference is exactly 0 and needs
  no model call.  Each row gives one entry: its bin (a cell for two
  features) and its difference (second-order for two features), so a
  group's mean is ale's local effect and its row count ale's ``.n``;
* reduce: local effect of a bin = mean difference of its rows, NaN where it
  has none; a numeric feature's bin 0 (the minimum) is exactly 0;
  accumulation by cumulative sum (numeric, categorical, ordinal; a NaN bin
  makes it and every later bin NaN), none for binary features; two
  features: empty cells filled by ale's *intrapolation*, the rest with 0,
  then a cumulative sum over both axes;
* centring with the full data's constant (replicates are not re-centred):
  numeric, the interval-count-weighted mean of the interval mid-values (the
  minimum's rows counted in the first interval); other types, the
  level-count-weighted mean; two features, the row and column parts and a
  constant of section 5.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import math
from typing import Callable

import numpy as np
import pandas as pd
from pandas.api import types as ptypes

from ..._rbase import bin_right_closed, stable_order
from ..reduce.accumulate import local_means
from ..map.calls import predict_variants
from ..reduce.estimate import Estimate, require_finite_effects
from ..map.local import Entries, LevelAxis, Plan, _per_part
from ..map.shifted import numeric_grid_values
from ..reduce.stats import DEVIATIONS
from .aleplot import ALEPlotGrid
from .base import Convention

__all__ = [
    "AlePackageConvention",
    "ALE_PACKAGE",
    "FCT_ORDERS",
    "response_level_order",
    "AleNumericAxis",
    "AleLevelAxis",
    "AleEstimate",
    "ale_numeric_bins",
    "intrapolate",
    "pair_parts_split",
    "interval_counts",
]


#: R's ``fct_order`` values (``ale`` development version, ``R/ALE.R``).
FCT_ORDERS = ("levels", "y_col", "ksd")


class AlePackageConvention(ALEPlotGrid, Convention):
    """R's ale 0.5.0: bins with the minimum's own bin, backward differences, ale's centring.

    The grid is ALEPlot's (:class:`~pyale._core.conventions.aleplot.ALEPlotGrid`):
    ale's bin ceilings are ALEPlot's edges.

    Its plans' axes are :class:`AleNumericAxis` and :class:`AleLevelAxis`
    (built by :mod:`pyale._frontends.alepkg.axes`); its estimates are
    :class:`AleEstimate`.
    """

    name = "ale"
    label = "ale 0.5.0"
    default_intervals = 9
    empty_user_intervals = "error"
    no_derivatives = "R's ale package has neither derivatives nor heterogeneity-aware bins"
    no_comparison = (
        "R's ale package centres on the response's median and gives the minimum its own bin, so its segments "
        "would be compared on a grid of pyale's making (see the Notes of pyale.compare)"
    )
    rules = {
        "grid": (
            "ceilings c(min(x), quantile(x, seq(1/K, 1, length.out = K), type = 1)), repeats removed, "
            "K = max_num_bins - 1; bins: the minimum's rows alone, then (c[k-1], c[k]]"
        ),
        "default K": "9 (max_num_bins = 10)",
        "intervals": "the minimum's own bin (local effect 0), then right-closed (c[k-1], c[k]]",
        "numeric local effect": "mean over the bin's rows of f(c[k]) - f(c[k-1]), other columns held",
        "accumulation": "cumulative sum from 0 at the minimum; a feature with two values (binary) is not accumulated",
        "centring (numeric)": (
            "subtract the mean of the interval mid-values weighted by interval counts (the minimum's rows "
            "in the first interval)"
        ),
        "categorical level order": (
            "ALEPlot's MDS order (logical and date columns by frequency tables), with R's eigenvector sign "
            "on reference LAPACK; an ordered categorical keeps its order; binary: sorted values "
            "(pyale.ALE(fct_order=): 'ksd' this order, the default; 'levels' and 'y_col' of ale's development "
            "version)"
        ),
        "categorical local effect": "backward differences only: rows moved from the previous level to their own",
        "centring (categorical)": "subtract the level-frequency-weighted mean",
        "pairs": (
            "second-order differences on the cell corners, mean per cell; ale's row and column parts and a "
            "count-weighted constant removed"
        ),
        "empty pair cells": (
            "intrapolation: mean of the linear interpolations along the cell's row, column and both "
            "diagonals between filled cells; the rest 0"
        ),
        "pairs accepted": "any two features (numeric, binary, categorical, ordinal) in either order",
        "bootstrap replicates": (
            "rows resampled (pyale.ALE: R's own resamples for seed), full-data bins and centring constant; "
            "an empty bin makes it and every later bin NaN"
        ),
    }


    #: ``ALE(aled_fun=)``: ALED's deviation function (``DEVIATIONS``), by R's name; 0.5.x: "mad".
    aled_funs = tuple(DEVIATIONS)
    default_aled_fun = "mad"
    #: ``ALE(fct_order=)`` (development version): how an unordered categorical's levels are ordered.
    fct_orders = FCT_ORDERS
    default_fct_order = "ksd"  # 0.5.x's only order (the development version's default is "levels")

    # -- options of the development version
    def deviation(self, aled_fun: str) -> Callable:
        """ALED's deviation function for R's ``aled_fun`` name (:data:`~pyale._core.reduce.stats.DEVIATIONS`)."""
        return DEVIATIONS[aled_fun]

    def level_order(self, fct_order: str, codes: np.ndarray, n_levels: int, *, response: np.ndarray | None = None,
                    similarity: Callable[[], np.ndarray | None] | None = None) -> np.ndarray | None:
        """An unordered categorical's level order (indices into its levels, ALE order) under ``fct_order``.

        ``"levels"``: the levels as given (a Categorical's categories, text
        sorted); ``"y_col"``: :func:`response_level_order` of the first output
        of ``response``; ``"ksd"``: ALEPlot's similarity order, computed by
        ``similarity()`` (None when the levels cannot be told apart).
        """
        if fct_order == "levels":
            return np.arange(n_levels, dtype=np.int64)
        if fct_order == "y_col":
            return response_level_order(codes, n_levels, np.asarray(response, dtype=float)[:, 0])
        return similarity()

    # -- map
    def block_entries(self, plan: Plan, block: pd.DataFrame, caller, *, rows_per_call=None,
                      shared=None) -> dict[str, Entries]:
        """``{"local": Entries}``: each row's bin (or cell) and its local difference."""
        axes = plan.axes
        bins = [axis.bins(block) for axis in axes]
        inside = np.ones(block.shape[0], dtype=bool)
        for b in bins:
            inside &= b >= 0
        moved = inside.copy()
        code_one = [plan.replicate_r_bugs and _binary_numbers(axis, block) for axis in axes]
        for axis, b in zip(axes, bins):
            # R moves every row of a non-numeric feature, the first level's from that level (or, for a binary
            # feature stored as numbers, from the number 1) to its own value: a difference of 0 unless the
            # row's bin is not its own (R's bootstrap pairing) or the low value is 1.  Kept on request only.
            if not (plan.replicate_r_bugs and isinstance(axis, AleLevelAxis)):
                moved &= b >= 1
        rows = np.flatnonzero(moved)
        sides = [_side_values(axis, block, b, from_code_one) for axis, b, from_code_one in zip(axes, bins, code_one)]
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

    # -- reduce
    def finish(self, plan: Plan, sums: dict) -> "AleEstimate":
        """The centred curve (and replicates) of one plan: ``effects`` per bin (cell)."""
        local_sums = sums["local"]
        axes = plan.axes
        shape = tuple(axis.n_bins for axis in axes)
        numeric = tuple(axis.ale_type == "numeric" for axis in axes)
        width = local_sums.total.shape[-1]
        local = local_means(local_sums.total, local_sums.weight).reshape(shape + (width,))
        bin_counts = local_sums.rows.reshape(shape).astype(np.int64)
        sd = None
        if local_sums.spread is not None:
            with np.errstate(invalid="ignore", divide="ignore"):
                w = local_sums.weight[:, None]
                sd = np.where(w > 0, np.sqrt(np.maximum(local_sums.spread, 0.0) / np.where(w > 0, w, 1.0)), np.nan)
            sd = sd.reshape(shape + (width,))
        replicates = rep_counts = rep_bins = None
        rep_local = None
        if local_sums.replicate_total is not None:
            b = local_sums.replicate_total.shape[0]
            rep_local = local_means(local_sums.replicate_total, local_sums.replicate_weight)
            rep_local = rep_local.reshape((b,) + shape + (width,))
            rep_bins = local_sums.replicate_weight.reshape((b,) + shape)
            rep_counts = interval_counts(rep_bins, numeric)
        empty = None
        if len(axes) == 1:
            ale_type = axes[0].ale_type
            curve = _curve(local, ale_type)
            if plan.empty_intervals == "nan":  # a refit's ALE on its resample: R's na.rm centring
                shift = _shift_1d_na_rm(curve, bin_counts, ale_type, _level_weights(axes[0], plan, bin_counts))
            else:
                shift = _shift_1d(curve, bin_counts, ale_type)
            effects = curve - shift
            filled = local
            if rep_local is not None:
                replicates = _curve(rep_local, ale_type) - shift
        else:
            empty = bin_counts == 0
            filled = intrapolate(local)
            curve = _cumulate(filled)
            parts = _pair_parts(curve, bin_counts)
            effects = curve - parts
            if rep_local is not None:
                replicates = _cumulate(intrapolate(rep_local)) - parts
        require_finite_effects(effects[~np.isnan(effects)] if plan.empty_intervals == "nan" else effects,
                               plan.purpose)
        return AleEstimate(plan, effects, interval_counts(bin_counts, numeric), filled, sd, empty, replicates,
                           rep_counts, bin_counts=bin_counts, replicate_bin_counts=rep_bins)


ALE_PACKAGE = AlePackageConvention()


# -- axes and map


def response_level_order(codes: np.ndarray, n_levels: int, response: np.ndarray) -> np.ndarray:
    """Levels by increasing mean response (``fct_order = "y_col"``), ties in order of first appearance.

    R: ``summarize(.by = .fct, mean(y))`` (groups in order of first
    appearance) then ``arrange`` (a stable sort); levels without rows come
    last, in their own order.  Means are summed accurately (``math.fsum``).
    """
    codes = np.asarray(codes, dtype=np.int64)
    positions = np.arange(codes.shape[0])
    first = np.full(n_levels, codes.shape[0], dtype=np.int64)
    np.minimum.at(first, codes, positions)
    present = [k for k in np.argsort(first, kind="stable") if first[k] < codes.shape[0]]
    by_level = np.argsort(codes, kind="stable")
    bounds = np.searchsorted(codes[by_level], np.arange(n_levels + 1))
    means = np.array([math.fsum(response[by_level[bounds[k]:bounds[k + 1]]].tolist()) / (bounds[k + 1] - bounds[k])
                      for k in present])
    order = [present[i] for i in stable_order(means)]
    absent = [k for k in range(n_levels) if first[k] == codes.shape[0]]
    return np.asarray(order + absent, dtype=np.int64)


@dataclass(frozen=True)
class AleNumericAxis:
    """A numeric feature's ceilings; bin 0 holds the rows at the minimum ``ceilings[0]``.

    ``known`` is ``(frame, bins)`` already computed for one in-memory frame.
    ``centring_counts``, when given, are the interval counts the centring
    weighs by instead of those merged from the bins' rows (R's rounded
    ceilings in a ``ModelBoot`` refit, where the two differ).
    """

    name: object
    ceilings: np.ndarray
    known: tuple | None = field(default=None, compare=False, repr=False)
    ale_type: str = "numeric"
    centring_counts: np.ndarray | None = field(default=None, compare=False, repr=False)

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


def _binary_numbers(axis, block: pd.DataFrame) -> bool:
    """A binary feature stored as numbers (R's ``ale`` moves its rows from the level code 1: its bug)."""
    if getattr(axis, "ale_type", None) != "binary":
        return False
    dtype = block[axis.name].dtype
    return ptypes.is_numeric_dtype(dtype) and not ptypes.is_bool_dtype(dtype)


def _side_values(axis, block: pd.DataFrame, bins: np.ndarray, from_code_one: bool = False):
    """``side(part, high) -> {name: values}`` for the rows ``part`` of the chosen rows.

    ``from_code_one``: every row's low value is the number 1 (``ale``'s
    ``methods::as(<ordered factor>, "numeric")`` of the first level, kept on
    request: ``replicate_r_bugs``).
    """
    column = block[axis.name]
    if from_code_one:
        one = pd.Series([1], dtype=column.dtype).to_numpy()

        def side_one(chosen: np.ndarray, high: bool) -> dict:
            return {} if high else {axis.name: np.repeat(one, chosen.shape[0])}
        return side_one
    if isinstance(axis, AleNumericAxis):
        ceilings = axis.values(column)

        def side(chosen: np.ndarray, high: bool) -> dict:
            return {axis.name: ceilings.take(bins[chosen] if high else bins[chosen] - 1)}
    else:
        def side(chosen: np.ndarray, high: bool) -> dict:
            # a level's "high" value is the row's own level: the column as observed
            return {} if high else {axis.name: axis.column_values(column, np.maximum(bins[chosen] - 1, 0))}
    return side


def _width(caller, block: pd.DataFrame) -> int:
    """The model's number of outputs, asking it about one row if it never answered yet."""
    names = getattr(caller, "output_names", None)
    if names is None:
        return caller(block.iloc[:1], "the model's number of outputs").shape[1]
    return len(names)


# -- reduce


@dataclass(frozen=True)
class AleEstimate(Estimate):
    """:class:`~pyale._core.reduce.estimate.Estimate` with ale's bins.

    ``effects`` has one value per bin (cell); ``counts`` and
    ``replicate_counts`` are per interval along numeric axes (the minimum's
    bin merged into the next, as ale weights its statistics), per level
    otherwise.

    Attributes
    ----------
    bin_counts : numpy.ndarray
        Rows per bin (cell): ale's ``.n``.
    replicate_bin_counts : numpy.ndarray or None
        ``(B,) + bin_counts.shape``: the rows of each replicate per bin.
    """

    bin_counts: np.ndarray | None = None
    replicate_bin_counts: np.ndarray | None = None

    @property
    def heterogeneity(self) -> np.ndarray | None:
        """``local_sd`` per bin, NaN in the first bin of each axis (where rows do not move)."""
        if self.local_sd is None:
            return None
        out = np.array(self.local_sd, dtype=float, copy=True)
        out[0] = np.nan
        if out.ndim == 3:
            out[:, 0] = np.nan
        return out


def interval_counts(counts: np.ndarray, numeric: tuple[bool, ...]) -> np.ndarray:
    """Merge the first bin of every numeric axis into the second (ALEPlot's interval counts).

    ``counts`` has the bins' shape, optionally after leading axes.
    """
    out = np.asarray(counts)
    first = out.ndim - len(numeric)
    for axis, is_numeric in enumerate(numeric):
        if not is_numeric or out.shape[first + axis] < 2:
            continue
        position = first + axis
        head = np.take(out, [0], axis=position) + np.take(out, [1], axis=position)
        out = np.concatenate([head, np.take(out, np.arange(2, out.shape[position]), axis=position)], axis=position)
    return out


def _curve(local: np.ndarray, ale_type: str) -> np.ndarray:
    """Accumulate ``(..., bins, m)`` local effects along the bin axis."""
    local = np.array(local, copy=True)
    if ale_type == "numeric":
        local[..., 0, :] = 0.0
    if ale_type == "binary":
        return local
    return np.cumsum(local, axis=-2)


def _shift_1d(curve: np.ndarray, counts: np.ndarray, ale_type: str) -> np.ndarray:
    """The full data's centring constant per output: ``(m,)``."""
    n = counts.astype(float)
    if ale_type == "numeric":
        w = interval_counts(n, (True,))
        mids = (curve[:-1] + curve[1:]) / 2
        return (mids * w[:, None]).sum(axis=0) / w.sum()
    return (curve * n[:, None]).sum(axis=0) / n.sum()


def _shift_1d_na_rm(curve: np.ndarray, counts: np.ndarray, ale_type: str, level_weights) -> np.ndarray:
    """:func:`_shift_1d` as R's ``calc_ale`` computes it on data where a bin may be empty (``sum(na.rm = TRUE)``).

    A NaN mid-value (or level value) is left out of the sum but its rows stay in
    the total.  ``level_weights`` are the level frequencies R multiplies the
    curve by (see :func:`_level_weights`).
    """
    n = counts.astype(float)
    if ale_type == "numeric":
        w = interval_counts(n, (True,)) if level_weights is None else level_weights
        mids = (curve[:-1] + curve[1:]) / 2
        return np.nansum(mids * w[:, None], axis=0) / w.sum()
    return np.nansum(curve * level_weights[:, None], axis=0)


def _level_weights(axis, plan: Plan, counts: np.ndarray) -> np.ndarray | None:
    """The level frequencies (ALE order) that weight a non-numeric curve in its centring.

    R's ``ale`` 0.5.x, given the full data's bins (a ``ModelBoot`` refit), takes
    the frequencies in the column's own level order and multiplies the curve in
    ALE order by them (``x_int_probs[1:n_bins]``): with ``plan.replicate_r_bugs``
    that pairing is kept; otherwise each level's own frequency.
    """
    if axis.ale_type == "numeric":
        return None if axis.centring_counts is None else np.asarray(axis.centring_counts, dtype=float)
    n = counts.astype(float)
    if plan.replicate_r_bugs and axis.ale_type == "categorical":
        in_level_order = np.zeros(n.shape[0])
        in_level_order[np.asarray(axis.order)] = n  # n is in ALE order: rank r holds level order[r]
        present = in_level_order[in_level_order > 0]  # R's droplevels: absent levels leave the table
        weights = np.full(n.shape[0], np.nan)
        weights[:present.shape[0]] = present / n.sum()
        return weights
    return n / n.sum()


def _lines(shape: tuple[int, int]) -> list[list[tuple[int, int]]]:
    """Every row, column, NW-SE and SW-NE diagonal of a grid, as lists of cells."""
    m, n = shape
    out = [[(i, j) for j in range(n)] for i in range(m)]
    out += [[(i, j) for i in range(m)] for j in range(n)]
    out += [[(i, i - d) for i in range(m) if 0 <= i - d < n] for d in range(-(n - 1), m)]
    out += [[(i, s - i) for i in range(m - 1, -1, -1) if 0 <= s - i < n] for s in range(m + n - 1)]
    return [cells for cells in out if len(cells) >= 3]


def _segments(empty: np.ndarray):
    """For one pattern of empty cells: (target, start, end, step, steps) of every interpolation."""
    target, start, end, step, steps = [], [], [], [], []
    for cells in _lines(empty.shape):
        known = [t for t, c in enumerate(cells) if not empty[c]]
        for a, b in zip(known[:-1], known[1:]):
            for t in range(a + 1, b):
                target.append(cells[t])
                start.append(cells[a])
                end.append(cells[b])
                step.append(t - a)
                steps.append(b - a)
    return target, start, end, np.asarray(step, dtype=float), np.asarray(steps, dtype=float)


def intrapolate(local: np.ndarray) -> np.ndarray:
    """ale's filling of empty cells (NaN) of ``(..., m_a, m_b, m)`` cell means.

    Where a cell outside the first row and column is empty, every empty cell
    takes the mean of the linear interpolations (R's ``seq(from, to,
    length.out)``) between the nearest filled cells on both sides along its
    row, its column and its two diagonals; cells still empty, and all empty
    cells otherwise, become 0.  Leading axes (replicates) are filled one
    pattern of empty cells at a time.
    """
    out = np.array(local, dtype=float, copy=True)
    shape = out.shape
    flat = out.reshape((-1,) + shape[-3:])
    empty = np.isnan(flat[..., 0])
    patterns: dict[bytes, list[int]] = {}
    for r in range(flat.shape[0]):
        if empty[r, 1:, 1:].any():
            patterns.setdefault(empty[r].tobytes(), []).append(r)
    for members in patterns.values():
        target, start, end, step, steps = _segments(empty[members[0]])
        if not target:
            continue
        reps = np.asarray(members)
        ti, tj = np.array(target).T
        si, sj = np.array(start).T
        ei, ej = np.array(end).T
        origin = flat[reps][:, si, sj, :]
        finish = flat[reps][:, ei, ej, :]
        by = (finish - origin) / steps[None, :, None]
        values = np.where(origin == finish, origin, origin + step[None, :, None] * by)
        sums = np.zeros((reps.shape[0],) + shape[-3:])
        hits = np.zeros(shape[-3:-1])
        np.add.at(sums, (slice(None), ti, tj), values)
        np.add.at(hits, (ti, tj), 1.0)
        filled = hits > 0
        block = flat[reps]
        block[:, filled, :] = sums[:, filled, :] / hits[filled][None, :, None]
        flat[reps] = block
    flat[np.isnan(flat)] = 0.0
    return flat.reshape(shape)


def _cumulate(filled: np.ndarray) -> np.ndarray:
    return np.cumsum(np.cumsum(filled, axis=-3), axis=-2)


def _pair_parts(curve: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """ale's 2-D centring: row part + column part + constant, ``(m_a, m_b, m)`` (section 5)."""
    lower_order, constant = pair_parts_split(curve, counts)
    return lower_order + constant


def pair_parts_split(curve: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """ale's 2-D centring as ``(row part + column part, constant)``: ``(m_a, m_b, m)`` and ``(m,)``.

    ``curve - row part - column part`` is ale's "distinct" effect; R's
    ``boot_data`` shows ``curve - constant`` as ``.y_composite``.
    """
    n = counts.astype(float)[..., None]
    m_a, m_b = counts.shape
    pa = np.r_[0, np.arange(m_a - 1)]
    pb = np.r_[0, np.arange(m_b - 1)]
    down = curve[1:] - curve[:-1]  # (m_a - 1, m_b, m)
    rows = np.concatenate([np.zeros((1, curve.shape[-1])),
                           np.cumsum((n[1:] * (down[:, pb] + down) / 2).sum(axis=1) / n[1:].sum(axis=1), axis=0)])
    across = curve[:, 1:] - curve[:, :-1]  # (m_a, m_b - 1, m)
    columns = np.concatenate([np.zeros((1, curve.shape[-1])),
                              np.cumsum((n[:, 1:] * (across[pa] + across) / 2).sum(axis=0)
                                        / n[:, 1:].sum(axis=0), axis=0)])
    distinct = curve - rows[:, None, :] - columns[None, :, :]
    corners = (distinct[np.ix_(pa, pb)] + distinct[pa] + distinct[:, pb] + distinct) / 4
    constant = (n * corners).sum(axis=(0, 1)) / n.sum()
    return rows[:, None, :] + columns[None, :, :], constant
