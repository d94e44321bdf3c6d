"""Second-order ALE: numeric x numeric and categorical x numeric pairs.

Shared pieces (cell means of the second-order differences, filling empty
cells from the nearest non-empty cell, accumulating over both axes) serve
every front-end; the removal of first-order effects and the centring follow
ALEPlot 1.1 here.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .calls import ModelCaller, predict_variants
from .features import Feature
from .shifted import categorical_column_values, numeric_grid_values
from .._rbase import bin_right_closed

__all__ = [
    "PairEffect",
    "cell_means",
    "fill_empty_cells",
    "accumulate_cells",
    "numeric_pair_effect",
    "categorical_numeric_pair_effect",
]


@dataclass(frozen=True)
class PairEffect:
    """The numbers behind a two-feature ALE surface.

    Attributes
    ----------
    grid1, grid2 : numpy.ndarray or tuple
        Edges (numeric) or level labels in the order used (categorical,
        first feature only).
    effects : numpy.ndarray
        Centred second-order effect at each grid node, ``(len(grid1), len(grid2), n_outputs)``.
    counts : numpy.ndarray
        Rows per cell (rows follow the first feature; for a categorical first
        feature, per level in the order used).
    empty_cells : numpy.ndarray
        Boolean mask of the cells whose local effect had to be borrowed
        from the nearest non-empty cell.
    local_effects : numpy.ndarray
        Mean second-order difference per cell after filling.
    level_order : numpy.ndarray or None
        Indices into the first feature's levels (categorical first feature).
    """

    grid1: object
    grid2: np.ndarray
    effects: np.ndarray
    counts: np.ndarray
    empty_cells: np.ndarray
    local_effects: np.ndarray
    level_order: np.ndarray | None = None


def cell_means(
    index1: np.ndarray, index2: np.ndarray, values: np.ndarray, shape: tuple[int, int]
) -> tuple[np.ndarray, np.ndarray]:
    """Rows per cell and mean of ``values`` per cell (NaN where a cell has no row)."""
    flat = index1 * shape[1] + index2
    size = shape[0] * shape[1]
    counts = np.bincount(flat, minlength=size)
    sums = np.stack(
        [np.bincount(flat, weights=values[:, j], minlength=size) for j in range(values.shape[1])],
        axis=-1,
    )
    with np.errstate(invalid="ignore", divide="ignore"):
        means = sums / counts[:, None]
    return counts.reshape(shape), means.reshape(shape + (values.shape[1],))


def fill_empty_cells(
    means: np.ndarray, coord1: np.ndarray, coord2: np.ndarray, *, row_major: bool = False
) -> np.ndarray:
    """Give each empty cell the value of the nearest non-empty cell.

    Cells are points ``(coord1[i], coord2[j])``; candidates are taken in
    column-major order (R's ``which(arr.ind = TRUE)``) and the nearest one is
    found exactly as ``yaImpute::ann(k = 1)`` finds it, ties included.

    Parameters
    ----------
    means : numpy.ndarray
        ``(n1, n2, n_outputs)`` with NaN in empty cells.
    coord1, coord2 : numpy.ndarray
        Scaled positions of the cells along each axis.
    row_major : bool, default False
        Enumerate candidate cells along the second axis first (iml's
        ``impute_cells`` keys its table by interval 1, then interval 2),
        instead of ALEPlot's column-major order.  It decides exact ties.
    """
    empty = np.isnan(means[:, :, 0])
    if not empty.any():
        return means
    if empty.all():
        raise ValueError("No cell of the pair holds a row; the second-order effect is undefined.")
    if row_major:
        empty_i, empty_j = np.nonzero(empty)
        full_i, full_j = np.nonzero(~empty)
    else:
        # Column-major enumeration, as R's which(arr.ind = TRUE).
        empty_j, empty_i = np.nonzero(empty.T)
        full_j, full_i = np.nonzero(~empty.T)
    from .._rbase.nearest import nearest_reference

    reference = np.column_stack([coord1[full_i], coord2[full_j]])
    query = np.column_stack([coord1[empty_i], coord2[empty_j]])
    nearest = nearest_reference(reference, query)
    filled = means.copy()
    filled[empty_i, empty_j] = means[full_i[nearest], full_j[nearest]]
    return filled


def accumulate_cells(local: np.ndarray) -> np.ndarray:
    """Cumulative sums over both axes with a leading row and column of zeros."""
    n1, n2, m = local.shape
    out = np.zeros((n1 + 1, n2 + 1, m))
    out[1:, 1:] = np.cumsum(np.cumsum(local, axis=1), axis=0)
    return out


def _mid_scaled(edges: np.ndarray) -> np.ndarray:
    """Cell mid-points divided by the range, evaluated as R does: ((a + b) / 2) / range."""
    return (edges[:-1] + edges[1:]) / 2 / (edges[-1] - edges[0])


def _mid_scaled_iml(edges: np.ndarray) -> np.ndarray:
    """Cell mid-points over the range as iml 0.11.4's ``impute_cells``: (a + b) / (2 * range)."""
    return (edges[:-1] + edges[1:]) / (2 * (edges[-1] - edges[0]))


def _imputation_layout(conventions: str):
    """(mid-point scaling, row-major candidates) for ALEPlot's or iml's nearest-cell search."""
    if conventions == "iml":
        return _mid_scaled_iml, True
    return _mid_scaled, False


def _edge_takers(column: pd.Series, edges: np.ndarray, bins: np.ndarray, n_intervals: int) -> dict:
    """Functions giving a block of rows' lower ("1") and upper ("2") interval edges in the column's dtype."""
    occupied = np.bincount(bins, minlength=n_intervals) > 0
    lower = numeric_grid_values(column, edges[:-1], occupied)
    upper = numeric_grid_values(column, edges[1:], occupied)
    return {"1": lambda part: lower.take(bins[part]), "2": lambda part: upper.take(bins[part])}


def _per_part(compute):
    """Memoise ``compute(part)`` for the latest block of rows (the variants of a block share it)."""
    last = {}

    def cached(part):
        key = (part.start, part.stop)
        if key not in last:
            last.clear()
            last[key] = compute(part)
        return last[key]

    return cached


def _weighted_sum(weights: np.ndarray, values: np.ndarray, axis: int) -> np.ndarray:
    return (weights[..., None] * values).sum(axis=axis)


def numeric_pair_effect(
    frame: pd.DataFrame,
    first: Feature,
    second: Feature,
    edges1: np.ndarray,
    edges2: np.ndarray,
    caller: ModelCaller,
    *,
    conventions: str = "aleplot",
    rows_per_call: int | None = None,
) -> PairEffect:
    """Second-order ALE of two numeric features, centred as ALEPlot 1.1 (and iml 0.11.4).

    Every row is moved to the four corners of its cell; the second-order
    difference is averaged per cell, empty cells borrow the nearest
    non-empty cell's mean, the means are accumulated over both axes, and the
    count-weighted first-order effects and a count-weighted constant are
    removed.

    Parameters
    ----------
    rows_per_call : int, optional
        At most this many rows per model call (default: ``caller.max_rows``
        when the caller has one); the four shifted copies are built per block
        of rows, which caps memory.
    """
    k1, k2 = edges1.shape[0] - 1, edges2.shape[0] - 1
    bins1 = bin_right_closed(first.values, edges1)
    bins2 = bin_right_closed(second.values, edges2)
    at_edges = {
        "1": _edge_takers(frame[first.name], edges1, bins1, k1),
        "2": _edge_takers(frame[second.name], edges2, bins2, k2),
    }
    purpose = f"ALE of ({first.name!r}, {second.name!r})"
    corner_values = _per_part(lambda part: {
        (axis, side): take(part) for axis, takers in at_edges.items() for side, take in takers.items()
    })

    def corner(key):
        return lambda part: {
            first.name: corner_values(part)[("1", key[0])],
            second.name: corner_values(part)[("2", key[1])],
        }

    keys = ("11", "12", "21", "22")
    predictions = predict_variants(
        caller, frame, [(f"{purpose} (cell corner {key})", corner(key)) for key in keys],
        rows_per_call=rows_per_call,
    )
    corners = dict(zip(keys, predictions))
    second_order = (corners["22"] - corners["21"]) - (corners["12"] - corners["11"])
    counts, means = cell_means(bins1, bins2, second_order, (k1, k2))
    empty = counts == 0
    scaled, row_major = _imputation_layout(conventions)
    local = fill_empty_cells(means, scaled(edges1), scaled(edges2), row_major=row_major)
    surface = accumulate_cells(local)

    # First-order effect of feature 1: differences across feature 1, averaged over
    # the two adjacent nodes of feature 2, weighted by cell counts.
    step1 = surface[1:, :] - surface[:-1, :]
    mean_step1 = _weighted_sum(counts, (step1[:, :-1] + step1[:, 1:]) / 2, axis=1) / counts.sum(axis=1)[:, None]
    main1 = np.vstack([np.zeros((1, mean_step1.shape[1])), np.cumsum(mean_step1, axis=0)])
    step2 = surface[:, 1:] - surface[:, :-1]
    mean_step2 = _weighted_sum(counts, (step2[:-1, :] + step2[1:, :]) / 2, axis=0) / counts.sum(axis=0)[:, None]
    main2 = np.vstack([np.zeros((1, mean_step2.shape[1])), np.cumsum(mean_step2, axis=0)])
    surface = surface - main1[:, None, :] - main2[None, :, :]
    corners_mean = (surface[:-1, :-1] + surface[:-1, 1:] + surface[1:, :-1] + surface[1:, 1:]) / 4
    constant = _weighted_sum(counts, corners_mean, axis=(0, 1)) / counts.sum()
    return PairEffect(
        grid1=edges1,
        grid2=edges2,
        effects=surface - constant,
        counts=counts,
        empty_cells=empty,
        local_effects=local,
    )


def categorical_numeric_pair_effect(
    frame: pd.DataFrame,
    first: Feature,
    level_order: np.ndarray,
    second: Feature,
    edges2: np.ndarray,
    caller: ModelCaller,
    *,
    conventions: str = "aleplot",
    rows_per_call: int | None = None,
) -> PairEffect:
    """Second-order ALE of a categorical (first) and a numeric (second) feature, as ALEPlot 1.1.

    iml 0.11.4 removes the same first-order effects and constant; with
    ``conventions="iml"`` only the nearest-cell search follows iml's layout.

    Rows below the highest level jump one level up, rows above the lowest
    jump one level down; each jump is crossed with the row's numeric
    interval, both directions are averaged per (jump, interval) cell, empty
    cells borrow from the nearest non-empty cell (level axis scaled by the
    number of jumps), and the surface over (level, edge) nodes is
    accumulated and centred with level-averaged counts.

    Parameters
    ----------
    rows_per_call : int, optional
        As for :func:`numeric_pair_effect`.
    """
    n_levels = len(first.levels)
    k2 = edges2.shape[0] - 1
    rank_of_level = np.empty(n_levels, dtype=np.int64)
    rank_of_level[level_order] = np.arange(n_levels)
    rank = rank_of_level[first.codes]
    bins2 = bin_right_closed(second.values, edges2)
    col1, col2 = frame[first.name], frame[second.name]
    purpose = f"ALE of ({first.name!r}, {second.name!r})"

    at_edges = _edge_takers(col2, edges2, bins2, k2)

    def second_order(rows, low_step, high_step, label):
        def values(part):
            chosen = rows[part]
            moved = {
                step: categorical_column_values(col1, first, level_order[rank[chosen] + step])
                for step in (low_step, high_step) if step
            }
            return {
                side: at_edges[side](chosen) for side in ("1", "2")
            } | {("level", step): v for step, v in moved.items()}

        values = _per_part(values)

        def corner(level_step, side):
            def new_columns(part):
                current = values(part)
                out = {first.name: current[("level", level_step)]} if level_step else {}
                out[second.name] = current[side]
                return out
            return new_columns

        keys = {"11": (low_step, "1"), "12": (low_step, "2"), "21": (high_step, "1"), "22": (high_step, "2")}
        y = dict(zip(keys, predict_variants(
            caller, frame,
            [(f"{purpose} ({label}, cell corner {key})", corner(*spec)) for key, spec in keys.items()],
            rows=rows, rows_per_call=rows_per_call,
        )))
        return (y["22"] - y["21"]) - (y["12"] - y["11"])

    up_rows = np.flatnonzero(rank < n_levels - 1)
    down_rows = np.flatnonzero(rank > 0)
    d_up = second_order(up_rows, 0, 1, "rows moved one level up")
    d_down = second_order(down_rows, -1, 0, "rows moved one level down")
    jumps = np.concatenate([rank[up_rows], rank[down_rows] - 1])
    cells2 = np.concatenate([bins2[up_rows], bins2[down_rows]])
    jump_counts, means = cell_means(jumps, cells2, np.vstack([d_up, d_down]), (n_levels - 1, k2))
    empty = jump_counts == 0
    level_coord = np.arange(1, n_levels) / (n_levels - 1)
    scaled, row_major = _imputation_layout(conventions)
    local = fill_empty_cells(means, level_coord, scaled(edges2), row_major=row_major)
    surface = accumulate_cells(local)  # (n_levels, k2 + 1, m)

    counts = np.bincount(rank * k2 + bins2, minlength=n_levels * k2).reshape(n_levels, k2)
    step2 = surface[:, 1:] - surface[:, :-1]
    main2_steps = _weighted_sum(counts, step2, axis=0) / counts.sum(axis=0)[:, None]
    main2 = np.vstack([np.zeros((1, main2_steps.shape[1])), np.cumsum(main2_steps, axis=0)])
    pair_counts = (counts[:-1] + counts[1:]) / 2
    step1 = surface[1:, :] - surface[:-1, :]
    main1_steps = _weighted_sum(pair_counts, (step1[:, :-1] + step1[:, 1:]) / 2, axis=1) / pair_counts.sum(axis=1)[:, None]
    main1 = np.vstack([np.zeros((1, main1_steps.shape[1])), np.cumsum(main1_steps, axis=0)])
    surface = surface - main1[:, None, :] - main2[None, :, :]
    constant = _weighted_sum(counts, (surface[:, :-1] + surface[:, 1:]) / 2, axis=(0, 1)) / counts.sum()
    return PairEffect(
        grid1=tuple(first.levels[i] for i in level_order),
        grid2=edges2,
        effects=surface - constant,
        counts=counts,
        empty_cells=empty,
        local_effects=local,
        level_order=level_order,
    )
