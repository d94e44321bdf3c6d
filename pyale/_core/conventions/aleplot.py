"""ALEPlot 1.1's rules (``conventions="aleplot"``), the default convention.

* grid: ``c(min(x), quantile(x, seq(1/K, 1, length.out = K), type = 1))``,
  repeats removed (:func:`pyale._core.grid.edges.aleplot_edges`);
* map: a numeric row moves to the lower and upper edge of its interval; a
  categorical row one level up and one level down; a pair's rows to the four
  corners of their cell (the level moves crossed with the numeric edges);
* reduce: mean local effect per interval, level jump or cell, empty pair
  cells borrowed from the nearest non-empty cell, accumulated from 0 and
  centred with the count-weighted mean (:mod:`pyale._core.reduce.accumulate`).

iml 0.11.4 shares these formulas (:mod:`.iml` changes the grid and the
nearest-cell layout).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..._rbase import r_seq
from ..reduce import accumulate
from ..map.calls import predict_variants
from ..reduce.estimate import Estimate, require_finite_effects
from ..grid.edges import aleplot_edges, every_value_is_an_edge
from ..map.local import Entries, LevelAxis, Plan, _per_part
from ..map.shifted import Gather
from ..map.sums import GroupSums
from .base import COMMON_RULES, Convention

__all__ = ["ALEPlotGrid", "ALEPlotConvention", "ALEPLOT"]


class ALEPlotGrid:
    """ALEPlot's grid: ``c(min(x), quantile(x, seq(1/K, 1, length.out = K), type = 1))``, made unique.

    Shared by the conventions whose edges are ALEPlot's (ALEPlot itself, and
    R's ``ale``, whose bin ceilings are these edges).
    """

    def edges(self, values: np.ndarray, n_intervals: int, integer: bool = False) -> np.ndarray:
        return aleplot_edges(values, n_intervals)

    def probabilities(self, n_intervals: int) -> tuple[np.ndarray, bool]:
        return r_seq(1.0 / n_intervals, 1.0, n_intervals), True

    def every_value_is_an_edge(self, n_values: int, n_intervals: int) -> bool:
        return every_value_is_an_edge(n_values, n_intervals, "aleplot")


class ALEPlotConvention(ALEPlotGrid, Convention):
    """ALEPlot 1.1: the grid, the row moves and the centring of ``ALEPlot()``."""

    name = "aleplot"
    label = "ALEPlot 1.1"
    default_intervals = 40
    empty_user_intervals = "error"
    #: Pairs: empty cells' candidates along the second axis first (iml), or column-major (ALEPlot).
    row_major = False
    rules = {
        "grid": "c(min(x), quantile(x, seq(1/K, 1, length.out = K), type = 1)), repeats removed",
        "default K": "40",
        **COMMON_RULES,
        "empty pair cells": (
            "nearest non-empty cell (yaImpute::ann, exact, ties as ANN's kd-tree), cell mid-points "
            "scaled as ((a + b) / 2) / range, candidates in column-major order"
        ),
        "pairs accepted": "numeric x numeric, categorical x numeric (categorical first)",
    }


    def mid_scaled(self, edges: np.ndarray) -> np.ndarray:
        """Cell mid-points divided by the range, as ALEPlot's nearest-cell search measures them:
        ``((a + b) / 2) / range`` (the doubles decide ties)."""
        return (edges[:-1] + edges[1:]) / 2 / (edges[-1] - edges[0])

    # -- map
    def block_entries(self, plan: Plan, block: pd.DataFrame, caller, *, rows_per_call=None,
                      shared=None) -> dict[str, Entries]:
        kind = plan.kind
        if kind == "numeric":
            return _numeric(plan, block, caller, rows_per_call, shared)
        if kind == "categorical":
            return _categorical(plan, block, caller, rows_per_call)
        if kind == "numeric x numeric":
            return _numeric_pair(plan, block, caller, rows_per_call, shared)
        return _categorical_numeric_pair(plan, block, caller, rows_per_call)

    def shares_rows(self, plan: Plan) -> bool:
        return plan.kind in ("numeric", "numeric x numeric")

    def model_rows(self, plan: Plan, frame: pd.DataFrame) -> int:
        """Numeric: 2 per row inside the grid; categorical: the rows as observed plus those that can
        move one level up plus those that can move one level down; numeric x numeric: 4 per row
        inside both grids; categorical x numeric: 4 per row and direction."""
        return _model_rows(plan, frame)

    # -- reduce
    def finish(self, plan: Plan, sums: dict) -> Estimate:
        local_sums = sums["local"]
        kind = plan.kind
        local = accumulate.local_means(local_sums.total, local_sums.weight)
        sd = _sd(local_sums)
        replicates = replicate_counts = None
        if kind in ("numeric", "categorical"):
            empty = local_sums.weight == 0
            if empty.any():
                if kind == "numeric" and plan.empty_intervals == "error":
                    raise _empty_interval_error(plan, int(np.flatnonzero(empty)[0]))
                local = np.where(empty[:, None], 0.0, local)
            curve = accumulate.main_curve(local)
            centre_sums = local_sums if kind == "numeric" else sums["centre"]
            centre = accumulate.numeric_centre if kind == "numeric" else accumulate.level_centre
            effects = centre(curve, centre_sums.weight)
            rep_local = _replicate_local(local_sums, local)
            if rep_local is not None:
                replicate_counts = centre_sums.replicate_weight
                replicates = centre(accumulate.main_curve(rep_local), replicate_counts)
            require_finite_effects(effects, plan.purpose)
            return Estimate(plan, effects, _counts(centre_sums), local, sd, None, replicates, replicate_counts)

        first, second = plan.axes
        row_major = self.row_major
        coord2 = self.mid_scaled(second.edges)
        if isinstance(first, LevelAxis):
            shape = (first.n_levels - 1, second.n_intervals)
            coord1 = np.arange(1, first.n_levels) / (first.n_levels - 1)
            centre_sums = sums["centre"]
            centre_shape = (first.n_levels, second.n_intervals)
            surface = accumulate.categorical_pair_surface
        else:
            shape = (first.n_intervals, second.n_intervals)
            coord1 = self.mid_scaled(first.edges)
            centre_sums = local_sums
            centre_shape = shape
            surface = accumulate.pair_surface
        m = local.shape[-1]
        means = local.reshape(shape + (m,))
        empty = (local_sums.weight == 0).reshape(shape)
        filled = accumulate.fill(means, (coord1, coord2), row_major)
        effects = surface(filled, centre_sums.weight.reshape(centre_shape))
        if local_sums.replicate_total is not None:
            B = local_sums.replicate_total.shape[0]
            rep_means = accumulate.local_means(local_sums.replicate_total, local_sums.replicate_weight)
            rep_filled = accumulate.fill(rep_means.reshape((B,) + shape + (m,)), (coord1, coord2), row_major)
            replicate_counts = centre_sums.replicate_weight.reshape((B,) + centre_shape)
            weights = _replicate_weights(replicate_counts, centre_sums.weight.reshape(centre_shape))
            replicates = surface(rep_filled, weights)
        counts = _counts(centre_sums).reshape(centre_shape)
        sd = None if sd is None else sd.reshape(shape + (m,))
        require_finite_effects(effects, plan.purpose)
        return Estimate(plan, effects, counts, filled, sd, empty, replicates, replicate_counts)


ALEPLOT = ALEPlotConvention()


# -- map: where rows move

def _inside(bins: np.ndarray) -> np.ndarray | None:
    """Positions of the rows inside the grid, or None when all are."""
    return None if bins.shape[0] == 0 or bins.min() >= 0 else np.flatnonzero(bins >= 0)


def _numeric(plan, block, caller, rows_per_call, shared=None):
    axis = plan.axes[0]
    bins = axis.bins(block)
    counts = axis.counts(block)  # known only when every row lies inside the edges
    rows = None if counts is not None else _inside(bins)
    kept = bins if rows is None else bins[rows]
    lower, upper = axis.edge_values(block[axis.name])
    y_lower, y_upper = predict_variants(caller, block, [
        (plan.purpose + " (rows at the lower interval edge)", lambda part: {axis.name: Gather(lower, kept[part])}),
        (plan.purpose + " (rows at the upper interval edge)", lambda part: {axis.name: Gather(upper, kept[part])}),
    ], rows=rows, rows_per_call=rows_per_call, shared=shared)
    differences = np.subtract(y_upper, y_lower, out=y_upper)
    return {"local": Entries(kept, rows, axis.n_intervals, differences, counts)}


def _categorical(plan, block, caller, rows_per_call):
    axis = plan.axes[0]
    n_levels = axis.n_levels
    rank = axis.ranks(block)
    column = block[axis.name]
    up_rows = np.flatnonzero((rank >= 0) & (rank < n_levels - 1))
    down_rows = np.flatnonzero(rank > 0)
    present = np.flatnonzero(rank >= 0)

    def moved(rows, step):
        return lambda part: {axis.name: axis.column_values(column, rank[rows[part]] + step)}

    all_rows = None if present.shape[0] == block.shape[0] else present
    (y_all,) = predict_variants(caller, block, [(plan.purpose + " (rows as observed)", lambda part: {})],
                                rows=all_rows, rows_per_call=rows_per_call)
    if all_rows is not None:
        full = np.full((block.shape[0], y_all.shape[1]), np.nan)
        full[present] = y_all
        y_all = full
    (y_up,) = predict_variants(caller, block, [(plan.purpose + " (rows moved one level up)", moved(up_rows, 1))],
                               rows=up_rows, rows_per_call=rows_per_call)
    (y_down,) = predict_variants(caller, block, [(plan.purpose + " (rows moved one level down)", moved(down_rows, -1))],
                                 rows=down_rows, rows_per_call=rows_per_call)
    local = Entries(
        groups=np.concatenate([rank[up_rows], rank[down_rows] - 1]),
        rows=np.concatenate([up_rows, down_rows]),
        n_groups=n_levels - 1,
        values=np.vstack([y_up - y_all[up_rows], y_all[down_rows] - y_down]),
    )
    centre = Entries(groups=rank[present], rows=present, n_groups=n_levels)
    return {"local": local, "centre": centre}


def _numeric_pair(plan, block, caller, rows_per_call, shared=None):
    first, second = plan.axes
    bins1, bins2 = first.bins(block), second.bins(block)
    rows = _inside(np.where(bins2 < 0, -1, bins1))
    kept1 = bins1 if rows is None else bins1[rows]
    kept2 = bins2 if rows is None else bins2[rows]
    edges = {"1": first.edge_values(block[first.name]), "2": second.edge_values(block[second.name])}
    corner_values = _per_part(lambda part: {
        ("1", side): Gather(edges["1"][side], kept1[part]) for side in (0, 1)
    } | {("2", side): Gather(edges["2"][side], kept2[part]) for side in (0, 1)})

    def corner(side1, side2):
        return lambda part: {
            first.name: corner_values(part)[("1", side1)],
            second.name: corner_values(part)[("2", side2)],
        }

    keys = {"11": (0, 0), "12": (0, 1), "21": (1, 0), "22": (1, 1)}
    y = dict(zip(keys, predict_variants(
        caller, block, [(f"{plan.purpose} (cell corner {key})", corner(*sides)) for key, sides in keys.items()],
        rows=rows, rows_per_call=rows_per_call, shared=shared,
    )))
    # In place (the variants are this function's own arrays, as in _numeric): no full-length temporaries.
    second_order = np.subtract(y["22"], y["21"], out=y["22"])
    second_order -= np.subtract(y["12"], y["11"], out=y["12"])
    cells = np.multiply(kept1, second.n_intervals)
    cells += kept2
    return {"local": Entries(cells, rows, first.n_intervals * second.n_intervals, second_order)}


def _categorical_numeric_pair(plan, block, caller, rows_per_call):
    levels, numeric = plan.axes
    n_levels, k2 = levels.n_levels, numeric.n_intervals
    rank = levels.ranks(block)
    bins2 = numeric.bins(block)
    usable = (rank >= 0) & (bins2 >= 0)
    col1 = block[levels.name]
    lower, upper = numeric.edge_values(block[numeric.name])
    purpose = plan.purpose

    def second_order(rows, low_step, high_step, label):
        def values(part):
            chosen = rows[part]
            out = {"1": Gather(lower, bins2[chosen]), "2": Gather(upper, bins2[chosen])}
            for step in (low_step, high_step):
                if step:
                    out[("level", step)] = levels.column_values(col1, rank[chosen] + step)
            return out

        values = _per_part(values)

        def corner(level_step, side):
            def new_columns(part):
                current = values(part)
                out = {levels.name: current[("level", level_step)]} if level_step else {}
                out[numeric.name] = current[side]
                return out
            return new_columns

        keys = {"11": (low_step, "1"), "12": (low_step, "2"), "21": (high_step, "1"), "22": (high_step, "2")}
        y = dict(zip(keys, predict_variants(
            caller, block,
            [(f"{purpose} ({label}, cell corner {key})", corner(*spec)) for key, spec in keys.items()],
            rows=rows, rows_per_call=rows_per_call,
        )))
        return (y["22"] - y["21"]) - (y["12"] - y["11"])

    up_rows = np.flatnonzero(usable & (rank < n_levels - 1))
    down_rows = np.flatnonzero(usable & (rank > 0))
    d_up = second_order(up_rows, 0, 1, "rows moved one level up")
    d_down = second_order(down_rows, -1, 0, "rows moved one level down")
    jumps = np.concatenate([rank[up_rows], rank[down_rows] - 1])
    cells2 = np.concatenate([bins2[up_rows], bins2[down_rows]])
    local = Entries(
        groups=jumps * k2 + cells2,
        rows=np.concatenate([up_rows, down_rows]),
        n_groups=(n_levels - 1) * k2,
        values=np.vstack([d_up, d_down]),
    )
    present = np.flatnonzero(usable)
    centre = Entries(groups=rank[present] * k2 + bins2[present], rows=present, n_groups=n_levels * k2)
    return {"local": local, "centre": centre}


def _model_rows(plan, frame) -> int:
    n = frame.shape[0]
    axes = plan.axes
    if len(axes) == 1:
        axis = axes[0]
        if not isinstance(axis, LevelAxis):
            return 2 * int(np.count_nonzero(axis.bins(frame) >= 0))
        rank = axis.ranks(frame)
        present = int(np.count_nonzero(rank >= 0))
        return present + int(np.count_nonzero((rank >= 0) & (rank < axis.n_levels - 1))) + int(
            np.count_nonzero(rank > 0))
    first, second = axes
    inside = second.bins(frame) >= 0
    if not isinstance(first, LevelAxis):
        return 4 * int(np.count_nonzero(inside & (first.bins(frame) >= 0)))
    rank = first.ranks(frame)
    usable = inside & (rank >= 0)
    return 4 * (int(np.count_nonzero(usable & (rank < first.n_levels - 1)))
                + int(np.count_nonzero(usable & (rank > 0))))


# -- reduce

def _empty_interval_error(plan: Plan, k: int) -> ValueError:
    axis = plan.axes[0]
    return ValueError(
        f"Interval ({float(axis.edges[k])!r}, {float(axis.edges[k + 1])!r}] of column {axis.name!r} "
        "holds no row; ALE needs at least one row per interval."
    )


def _sd(sums: GroupSums) -> np.ndarray | None:
    if sums.spread is None or sums.total is None:
        return None
    with np.errstate(invalid="ignore", divide="ignore"):
        w = sums.weight[:, None]
        return np.where(w > 0, np.sqrt(np.maximum(sums.spread, 0.0) / np.where(w > 0, w, 1.0)), np.nan)


def _replicate_local(sums: GroupSums, full: np.ndarray) -> np.ndarray | None:
    """Replicates' local means; a group no drawn row falls into keeps the full data's mean."""
    if sums.replicate_total is None:
        return None
    local = accumulate.local_means(sums.replicate_total, sums.replicate_weight)
    return np.where(np.isnan(local), full, local)


def _replicate_weights(replicate: np.ndarray, full: np.ndarray) -> np.ndarray:
    """Replicates' cell weights for centring a pair, a row or column without any drawn row
    taking the full data's weights (its first-order step is otherwise undefined)."""
    out = np.array(replicate, copy=True)
    empty_rows = out.sum(axis=-1) == 0  # (B, n1)
    if empty_rows.any():
        b, i = np.nonzero(empty_rows)
        out[b, i, :] = full[i, :]
    empty_columns = out.sum(axis=-2) == 0  # (B, n2)
    if empty_columns.any():
        b, j = np.nonzero(empty_columns)
        out[b, :, j] = full[:, j].T
    return out


def _counts(sums: GroupSums) -> np.ndarray:
    """Rows per group (integers) without weights, the weight sums otherwise."""
    if np.array_equal(sums.weight, sums.rows):
        return sums.rows.astype(np.int64)
    return sums.weight
