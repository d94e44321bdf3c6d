"""Each region's ALE curve, from the rows' local effects on the common grid (no model call).

Per interval, the mean change of the region's rows (weighted); an interval
without rows of the region takes the slope interpolated linearly over the
interval index from the intervals with rows (constant beyond the first and
last one), as effector fills them; the curve is accumulated from 0 and
centred by ALEPlot's rule with the region's counts (the weighted mean of the
interval mid-values).  With every interval holding rows of the region this
is exactly :func:`pyale.ale` of the region's rows on the same grid.

Bootstrap replicates resample the region's rows with replacement (with
probabilities proportional to their weights) and recompute the same curve,
the grid fixed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._core import accumulate
from .local import LocalEffects

__all__ = ["RegionCurve", "region_curve"]


@dataclass(frozen=True)
class RegionCurve:
    """A region's centred curve ``(K + 1, m)``, counts ``(K,)``, spread ``(K, m)`` and replicates."""

    effects: np.ndarray
    counts: np.ndarray
    local_sd: np.ndarray
    filled: np.ndarray
    replicates: np.ndarray | None = None
    replicate_counts: np.ndarray | None = None


def _curve(local: LocalEffects, bins: np.ndarray, differences: np.ndarray, weight: np.ndarray):
    """Centred curve and counts for rows with the given weights (0 leaves a row out)."""
    k, m = local.n_intervals, differences.shape[1]
    counts = np.bincount(bins, weight, minlength=k)
    totals = np.stack([np.bincount(bins, differences[:, j] * weight, minlength=k) for j in range(m)], axis=1)
    means = accumulate.local_means(totals, counts)
    empty = counts == 0
    if empty.any():
        widths = local.widths
        for j in range(m):
            slope = means[:, j] / widths
            index = np.arange(k)
            slope[empty] = np.interp(index[empty], index[~empty], slope[~empty])
            means[empty, j] = slope[empty] * widths[empty]
    return accumulate.numeric_centre(accumulate.main_curve(means), counts), counts, means


def region_curve(local: LocalEffects, mask: np.ndarray, *, n_bootstrap: int = 0, rng=None) -> RegionCurve:
    """The curve of the rows in ``mask`` (and ``n_bootstrap`` replicates drawn with ``rng``)."""
    rows = np.flatnonzero(mask)
    bins, differences = local.bins[rows], local.differences[rows]
    weight = np.ones(rows.shape[0]) if local.weights is None else local.weights[rows]
    effects, counts, means = _curve(local, bins, differences, weight)
    k = local.n_intervals
    deviations = (differences - means[bins]) ** 2 * weight[:, None]
    spread = np.stack([np.bincount(bins, deviations[:, j], minlength=k) for j in range(differences.shape[1])],
                      axis=1)
    local_sd = np.sqrt(accumulate.local_means(spread, counts))
    replicates = replicate_counts = None
    if n_bootstrap:
        probabilities = weight / weight.sum()
        replicates = np.empty((n_bootstrap,) + effects.shape)
        replicate_counts = np.empty((n_bootstrap, k))
        for b in range(n_bootstrap):
            drawn = np.bincount(rng.choice(rows.shape[0], size=rows.shape[0], p=probabilities),
                                minlength=rows.shape[0]).astype(float)
            replicates[b], replicate_counts[b], _ = _curve(local, bins, differences, drawn)
    return RegionCurve(effects, counts, local_sd, counts == 0, replicates, replicate_counts)
