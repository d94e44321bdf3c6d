"""First-order ALE: one numeric or one categorical feature.

One implementation serves every front-end.  The front-end decides the grid
(edges or level order) and hands over a :class:`~pyale._calls.ModelCaller`;
these functions shift the feature, call the model, average the local effects
per interval or level jump, accumulate them and centre the curve.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .calls import ModelCaller, predict_variants
from .features import Feature
from .shifted import categorical_column_values, numeric_grid_values
from .._rbase import bin_right_closed

__all__ = ["MainEffect", "numeric_main_effect", "categorical_main_effect", "group_means"]


@dataclass(frozen=True)
class MainEffect:
    """The numbers behind a one-feature ALE curve.

    Attributes
    ----------
    grid : numpy.ndarray or tuple
        Interval edges (numeric, ``K + 1`` values) or level labels in the
        order used (categorical, ``K`` labels).
    effects : numpy.ndarray
        Centred ALE at each grid point, shape ``(len(grid), n_outputs)``.
    counts : numpy.ndarray
        Rows per interval (numeric, ``K``) or per level in the order used.
    local_effects : numpy.ndarray
        Mean local effect per interval or per level jump, ``(K or K - 1, n_outputs)``.
    level_order : numpy.ndarray or None
        For a categorical feature, indices into the feature's levels in the
        order used.
    """

    grid: object
    effects: np.ndarray
    counts: np.ndarray
    local_effects: np.ndarray
    level_order: np.ndarray | None = None


def group_means(
    groups: np.ndarray, values: np.ndarray, n_groups: int, counts: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Per-group counts and column means (NaN for a group without rows).

    Sums run over the rows in order (``np.bincount``).  ``counts`` may be
    given when already known.
    """
    if counts is None:
        counts = np.bincount(groups, minlength=n_groups)
    sums = np.column_stack(
        [np.bincount(groups, weights=values[:, j], minlength=n_groups) for j in range(values.shape[1])]
    )
    with np.errstate(invalid="ignore", divide="ignore"):
        means = sums / counts[:, None]
    return counts, means


def _accumulate(local: np.ndarray) -> np.ndarray:
    return np.vstack([np.zeros((1, local.shape[1])), np.cumsum(local, axis=0)])


def numeric_main_effect(
    frame: pd.DataFrame,
    feature: Feature,
    edges: np.ndarray,
    caller: ModelCaller,
    *,
    empty_intervals: str = "error",
    rows_per_call: int | None = None,
) -> MainEffect:
    """ALE of a numeric feature over the given interval edges.

    Each row is moved to the lower and to the upper edge of its interval
    (right-closed, the minimum in the first interval); the mean difference of
    the two predictions per interval is accumulated from 0 and centred by
    the count-weighted mean of the interval mid-values.

    Every row must lie within ``[edges[0], edges[-1]]``; front-ends drop or
    reject rows outside.

    Parameters
    ----------
    empty_intervals : {"error", "zero"}, default "error"
        What an interval without rows contributes.  ``"error"``: raise
        ``ValueError`` (data-quantile grids never leave one empty).
        ``"zero"``: a local effect of 0, so the curve is flat across it and
        its zero count leaves the centring unchanged (what iml 0.11.4 means
        to do for user grids with ``cumsum_na``).
    rows_per_call : int, optional
        At most this many rows per model call (default: ``caller.max_rows``
        when the caller has one); shifted copies are built per block of
        rows, which caps memory.
    """
    n_intervals = edges.shape[0] - 1
    bins = bin_right_closed(feature.values, edges)
    counts = np.bincount(bins, minlength=n_intervals)
    column = frame[feature.name]
    occupied = counts > 0
    lower_edges = numeric_grid_values(column, edges[:-1], occupied)
    upper_edges = numeric_grid_values(column, edges[1:], occupied)
    purpose = f"ALE of {feature.name!r}"
    y_lower, y_upper = predict_variants(caller, frame, [
        (purpose + " (rows at the lower interval edge)", lambda part: {feature.name: lower_edges.take(bins[part])}),
        (purpose + " (rows at the upper interval edge)", lambda part: {feature.name: upper_edges.take(bins[part])}),
    ], rows_per_call=rows_per_call)
    differences = np.subtract(y_upper, y_lower, out=y_upper)
    counts, local = group_means(bins, differences, n_intervals, counts)
    empty = counts == 0
    if empty.any():
        if empty_intervals != "zero":
            k = int(np.flatnonzero(empty)[0])
            raise ValueError(
                f"Interval ({float(edges[k])!r}, {float(edges[k + 1])!r}] of column "
                f"{feature.name!r} holds no row; ALE needs at least one row per interval."
            )
        local = np.where(empty[:, None], 0.0, local)
    curve = _accumulate(local)
    mids = (curve[:-1] + curve[1:]) / 2
    centre = (mids * counts[:, None]).sum(axis=0) / counts.sum()
    return MainEffect(grid=edges, effects=curve - centre, counts=counts, local_effects=local)


def categorical_main_effect(
    frame: pd.DataFrame,
    feature: Feature,
    level_order: np.ndarray,
    caller: ModelCaller,
    *,
    rows_per_call: int | None = None,
) -> MainEffect:
    """ALE of a categorical feature with its levels in ``level_order``.

    Rows not at the highest level are moved one level up and rows not at the
    lowest level one level down; both kinds of difference are averaged per
    jump between neighbouring levels, accumulated from 0 and centred by the
    level frequencies.

    Parameters
    ----------
    level_order : numpy.ndarray
        Indices into ``feature.levels``, lowest first (at least two levels).
    rows_per_call : int, optional
        As for :func:`numeric_main_effect`.
    """
    n_levels = len(feature.levels)
    rank_of_level = np.empty(n_levels, dtype=np.int64)
    rank_of_level[level_order] = np.arange(n_levels)
    rank = rank_of_level[feature.codes]
    column = frame[feature.name]
    purpose = f"ALE of {feature.name!r}"

    up_rows = np.flatnonzero(rank < n_levels - 1)
    down_rows = np.flatnonzero(rank > 0)

    def moved(rows, step):
        return lambda part: {
            feature.name: categorical_column_values(column, feature, level_order[rank[rows[part]] + step])
        }

    (y_all,) = predict_variants(
        caller, frame, [(purpose + " (rows as observed)", lambda part: {})], rows_per_call=rows_per_call
    )
    (y_up,) = predict_variants(
        caller, frame, [(purpose + " (rows moved one level up)", moved(up_rows, 1))],
        rows=up_rows, rows_per_call=rows_per_call,
    )
    (y_down,) = predict_variants(
        caller, frame, [(purpose + " (rows moved one level down)", moved(down_rows, -1))],
        rows=down_rows, rows_per_call=rows_per_call,
    )

    jumps = np.concatenate([rank[up_rows], rank[down_rows] - 1])
    differences = np.vstack([y_up - y_all[up_rows], y_all[down_rows] - y_down])
    _, local = group_means(jumps, differences, n_levels - 1)
    curve = _accumulate(local)
    counts = np.bincount(rank, minlength=n_levels)
    shares = counts / counts.sum()
    centred = curve - (curve * shares[:, None]).sum(axis=0)
    labels = tuple(feature.levels[i] for i in level_order)
    return MainEffect(
        grid=labels, effects=centred, counts=counts, local_effects=local, level_order=level_order
    )
