"""First-order ALE of one feature: the axes read from a pandas frame, and the numbers behind a curve.

:func:`numeric_axis` and :func:`level_axis` build a plan's axis from a
pandas frame's whole column (bins and counts computed once;
:class:`~pyale._core.run.frame_grid.FrameData` asks them);
:class:`MainEffect` holds what the R-shaped front-ends lay out.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..._rbase import bin_right_closed
from ..reduce.estimate import Estimate
from ..grid.features import Feature
from ..map.local import LevelAxis, NumericAxis

__all__ = ["MainEffect", "numeric_axis", "level_axis"]


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
    bins, per_bin = bin_right_closed(feature.values, edges, counts=True)
    k = edges.shape[0] - 1
    counts = per_bin[1 : k + 1]  # per_bin[0]: below the edges, per_bin[k + 1]: above them or NaN
    outside = bool(per_bin[0] or per_bin[k + 1])
    if outside:
        bins[(bins < 0) | (bins >= k)] = -1
    occupied = counts > 0
    return NumericAxis(feature.name, edges, occupied, known=(frame, bins, None if outside else counts))


def level_axis(frame: pd.DataFrame, feature: Feature, level_order: np.ndarray) -> LevelAxis:
    """The axis of a categorical feature read from ``frame``, levels in ``level_order``."""
    return LevelAxis(feature.name, tuple(feature.levels), np.asarray(level_order, dtype=np.int64),
                     known=(frame, feature.codes))
