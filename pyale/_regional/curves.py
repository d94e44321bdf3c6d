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

from .._core.reduce import accumulate
from .local import LocalEffects

__all__ = ["RegionCurve", "region_curve", "level_curve"]


@dataclass(frozen=True)
class RegionCurve:
    """A region's centred curve ``(K + 1, m)``, counts ``(K,)``, spread ``(K, m)`` and replicates."""

    effects: np.ndarray
    counts: np.ndarray
    local_sd: np.ndarray
    filled: np.ndarray
    replicates: np.ndarray | None = None
    replicate_counts: np.ndarray | None = None


def _fill_empty(means: np.ndarray, counts: np.ndarray, widths: np.ndarray) -> np.ndarray:
    """Intervals without rows (``counts == 0``) take the slope interpolated from the others (in place)."""
    empty = counts == 0
    if empty.any():
        index = np.arange(counts.shape[0])
        for j in range(means.shape[1]):
            slope = means[:, j] / widths
            means[empty, j] = np.interp(index[empty], index[~empty], slope[~empty]) * widths[empty]
    return means


def _curves(local: LocalEffects, bins: np.ndarray, differences: np.ndarray, weight: np.ndarray):
    """Centred curves and counts for rows with the given weights ``(..., n)`` (0 leaves a row out)."""
    k, m = local.n_intervals, differences.shape[1]
    indicator = np.zeros((bins.shape[0], k))
    indicator[np.arange(bins.shape[0]), bins] = 1.0
    counts = weight @ indicator
    totals = np.stack([(weight * differences[:, j]) @ indicator for j in range(m)], axis=-1)
    means = accumulate.local_means(totals, counts)
    if counts.ndim == 1:
        _fill_empty(means, counts, local.widths)
    else:
        for b in np.flatnonzero((counts == 0).any(axis=1)):
            _fill_empty(means[b], counts[b], local.widths)
    return accumulate.numeric_centre(accumulate.main_curve(means), counts), counts, means


#: Bootstrap replicates drawn and summed at a time (bounds the memory of the draws).
REPLICATES_PER_BATCH = 64


def region_curve(local: LocalEffects, mask: np.ndarray, *, n_bootstrap: int = 0, rng=None) -> RegionCurve:
    """The curve of the rows in ``mask`` (and ``n_bootstrap`` replicates drawn with ``rng``)."""
    rows = np.flatnonzero(mask)
    bins, differences = local.bins[rows], local.differences[rows]
    weight = np.ones(rows.shape[0]) if local.weights is None else local.weights[rows]
    k = local.n_intervals
    counts = np.bincount(bins, weight, minlength=k)
    totals = np.stack([np.bincount(bins, differences[:, j] * weight, minlength=k)
                       for j in range(differences.shape[1])], axis=1)
    means = _fill_empty(accumulate.local_means(totals, counts), counts, local.widths)
    effects = accumulate.numeric_centre(accumulate.main_curve(means), counts)
    deviations = (differences - means[bins]) ** 2 * weight[:, None]
    spread = np.stack([np.bincount(bins, deviations[:, j], minlength=k) for j in range(differences.shape[1])],
                      axis=1)
    local_sd = np.sqrt(accumulate.local_means(spread, counts))
    replicates = replicate_counts = None
    if n_bootstrap:
        probabilities = weight / weight.sum()
        parts = []
        for start in range(0, n_bootstrap, REPLICATES_PER_BATCH):
            size = min(REPLICATES_PER_BATCH, n_bootstrap - start)
            drawn = rng.multinomial(rows.shape[0], probabilities, size=size).astype(float)
            parts.append(_curves(local, bins, differences, drawn))
        replicates = np.concatenate([p[0] for p in parts])
        replicate_counts = np.concatenate([p[1] for p in parts])
    return RegionCurve(effects, counts, local_sd, counts == 0, replicates, replicate_counts)


def _level_curves(n_jumps: int, jumps: np.ndarray, differences: np.ndarray, entry_weight: np.ndarray,
                  ranks: np.ndarray, row_weight: np.ndarray):
    """Centred level curves and level counts; weights may carry a leading replicate axis."""
    m = differences.shape[1]
    indicator = np.zeros((jumps.shape[0], n_jumps))
    indicator[np.arange(jumps.shape[0]), jumps] = 1.0
    jump_weight = entry_weight @ indicator
    totals = np.stack([(entry_weight * differences[:, j]) @ indicator for j in range(m)], axis=-1)
    means = accumulate.local_means(totals, jump_weight)
    ones = np.ones(n_jumps)
    if jump_weight.ndim == 1:
        _fill_empty(means, jump_weight, ones)
    else:
        for b in np.flatnonzero((jump_weight == 0).any(axis=1)):
            _fill_empty(means[b], jump_weight[b], ones)
    levels = np.zeros((ranks.shape[0], n_jumps + 1))
    levels[np.arange(ranks.shape[0]), ranks] = 1.0
    counts = row_weight @ levels
    return accumulate.level_centre(accumulate.main_curve(means), counts), counts, means, jump_weight


def level_curve(local, mask: np.ndarray, *, n_bootstrap: int = 0, rng=None) -> RegionCurve:
    """A categorical feature's curve for the rows in ``mask`` (levels in ``local.levels``' order)."""
    rows = np.flatnonzero(mask)
    position = np.full(mask.shape[0], -1)
    position[rows] = np.arange(rows.shape[0])
    keep = mask[local.rows]
    jumps, differences = local.jumps[keep], local.differences[keep]
    entry_rows = position[local.rows[keep]]
    row_weight = np.ones(rows.shape[0]) if local.weights is None else local.weights[rows]
    ranks = local.ranks[rows]
    effects, counts, means, jump_weight = _level_curves(local.n_jumps, jumps, differences, row_weight[entry_rows],
                                                        ranks, row_weight)
    deviations = (differences - means[jumps]) ** 2 * row_weight[entry_rows][:, None]
    spread = np.stack([np.bincount(jumps, deviations[:, j], minlength=local.n_jumps)
                       for j in range(differences.shape[1])], axis=1)
    local_sd = np.sqrt(accumulate.local_means(spread, jump_weight))
    replicates = replicate_counts = None
    if n_bootstrap:
        probabilities = row_weight / row_weight.sum()
        parts = []
        for start in range(0, n_bootstrap, REPLICATES_PER_BATCH):
            size = min(REPLICATES_PER_BATCH, n_bootstrap - start)
            drawn = rng.multinomial(rows.shape[0], probabilities, size=size).astype(float)
            parts.append(_level_curves(local.n_jumps, jumps, differences, drawn[:, entry_rows], ranks, drawn))
        replicates = np.concatenate([p[0] for p in parts])
        replicate_counts = np.concatenate([p[1] for p in parts])
    return RegionCurve(effects, counts, local_sd, jump_weight == 0, replicates, replicate_counts)
