"""First-order ALE of one in-memory frame: one numeric or one categorical feature.

Thin entry points for the front-ends that hold a pandas frame and a
:class:`~pyale._core.features.Feature`: they build the plan (the grid the
front-end chose) and run the one estimator (:func:`pyale._core.estimate.estimate`)
on the frame as a single block.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._engines.pandas import PandasEngine
from .. import _threads as threads
from .._rbase import bin_right_closed
from .conventions import ALEPLOT, Convention
from .estimate import Estimate, estimate
from .features import Feature
from .local import LevelAxis, NumericAxis, Plan

__all__ = ["MainEffect", "numeric_axis", "level_axis", "numeric_main_effect", "categorical_main_effect"]


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
    estimate : Estimate or None
        Everything the estimator computed (spread, replicates).
    """

    grid: object
    effects: np.ndarray
    counts: np.ndarray
    local_effects: np.ndarray
    level_order: np.ndarray | None = None
    estimate: Estimate | None = None


def numeric_axis(frame: pd.DataFrame, feature: Feature, edges: np.ndarray) -> NumericAxis:
    """The axis of a numeric feature read from ``frame`` (its bins and counts computed once here)."""
    bins = bin_right_closed(feature.values, edges)
    k = edges.shape[0] - 1
    span = feature.span
    if span is not None and edges[0] <= span[0] and span[1] <= edges[-1]:
        outside = False  # every value lies within the edges (always so for data-quantile grids)
    else:
        ranges = threads.run(lambda rows: (bins[rows].min(), bins[rows].max()) if rows.stop > rows.start else (0, 0),
                             threads.row_slices(bins.shape[0]))
        outside = bool(bins.shape[0]) and (min(r[0] for r in ranges) < 0 or max(r[1] for r in ranges) >= k)
    if outside:
        bins[(bins < 0) | (bins >= k)] = -1
        counts = np.bincount(bins + 1, minlength=k + 1)[1:]
    else:
        counts = sum(threads.run(lambda rows: np.bincount(bins[rows], minlength=k), threads.row_slices(bins.shape[0])))
    occupied = counts > 0
    return NumericAxis(feature.name, edges, occupied, known=(frame, bins, None if outside else counts))


def level_axis(frame: pd.DataFrame, feature: Feature, level_order: np.ndarray) -> LevelAxis:
    """The axis of a categorical feature read from ``frame``, levels in ``level_order``."""
    return LevelAxis(feature.name, tuple(feature.levels), np.asarray(level_order, dtype=np.int64),
                     known=(frame, feature.codes))


def numeric_main_effect(
    frame: pd.DataFrame,
    feature: Feature,
    edges: np.ndarray,
    caller,
    *,
    empty_intervals: str = "error",
    convention: Convention = ALEPLOT,
    rows_per_call: int | None = None,
) -> MainEffect:
    """ALE of a numeric feature over the given interval edges.

    Each row is moved to the lower and to the upper edge of its interval
    (right-closed, the minimum in the first interval); the mean difference of
    the two predictions per interval is accumulated from 0 and centred by
    the count-weighted mean of the interval mid-values.  Rows outside the
    edges are left out.

    Parameters
    ----------
    empty_intervals : {"error", "zero"}, default "error"
        What an interval without rows contributes.  ``"error"``: raise
        ``ValueError`` (data-quantile grids never leave one empty).
        ``"zero"``: a local effect of 0, so the curve is flat across it and
        its zero count leaves the centring unchanged (what iml 0.11.4 means
        to do for user grids with ``cumsum_na``).
    convention : Convention, default ALEPLOT
        Whose rules move the rows and centre the curve
        (:mod:`pyale._core.conventions`).
    rows_per_call : int, optional
        At most this many rows per model call (default: ``caller.max_rows``
        when the caller has one); shifted copies are built per block of
        rows, which caps memory.
    """
    plan = Plan((numeric_axis(frame, feature, edges),), convention, empty_intervals=empty_intervals)
    (result,) = estimate(PandasEngine(frame), [plan], caller, rows_per_call=rows_per_call)
    return MainEffect(grid=edges, effects=result.effects, counts=result.counts,
                      local_effects=result.local_effects, estimate=result)


def categorical_main_effect(
    frame: pd.DataFrame,
    feature: Feature,
    level_order: np.ndarray,
    caller,
    *,
    convention: Convention = ALEPLOT,
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
    convention, rows_per_call
        As for :func:`numeric_main_effect`.
    """
    plan = Plan((level_axis(frame, feature, level_order),), convention)
    (result,) = estimate(PandasEngine(frame), [plan], caller, rows_per_call=rows_per_call)
    labels = tuple(feature.levels[i] for i in level_order)
    return MainEffect(grid=labels, effects=result.effects, counts=result.counts,
                      local_effects=result.local_effects, level_order=level_order, estimate=result)
