"""The split criterion of regional effects: the heterogeneity of a feature's local effects in a region.

The criterion is effector's (``ALEBase._heter``, effector 0.6.0, the quantity
its region finders minimise), written for any fixed grid:

1. each row's local effect is a *slope*: its change across its interval
   divided by the interval's width (a finite difference, or a derivative);
2. within the region, per interval, the spread of those slopes is their
   (weighted) variance around the interval's mean slope, undefined (NaN) in
   an interval holding fewer than two rows;
3. undefined variances are interpolated linearly across the interval index
   from the defined ones (held constant beyond the first and last defined
   one); a region where no interval holds two rows has no heterogeneity
   (:data:`UNDEFINED`);
4. the heterogeneity is ``scale * sqrt(mean over the region's rows of the
   variance of their interval)``, ``scale`` being the standard deviation of
   the feature over *all* rows (fixed for every region, so that a smaller
   heterogeneity means slopes that agree more, not a narrower range).

It is in the units of the prediction: roughly how far a typical row's
effect strays from the region's mean effect.  Every step is a sum over the
rows of the region (per interval: weight, weighted slopes, weighted squared
deviations), which is why the search is a reduction.
"""

from __future__ import annotations

import numpy as np

__all__ = ["UNDEFINED", "interval_moments", "fill_undefined", "heterogeneity", "level_heterogeneity",
           "pair_heterogeneity", "feature_scale"]

#: The heterogeneity of a region without any interval holding two rows (and the score of a refused child).
UNDEFINED = np.inf


def interval_moments(slopes: np.ndarray, bins: np.ndarray, n_intervals: int, weights: np.ndarray | None = None):
    """``(weight, mean, variance)`` of the slopes per interval (two passes, as effector computes them).

    ``weight`` is the number of rows (or the sum of their weights) per
    interval; ``mean`` is NaN where it is 0, ``variance`` where it is not
    above 1 (fewer than two rows).
    """
    if weights is None:
        weight = np.bincount(bins, minlength=n_intervals).astype(float)
        total = np.bincount(bins, slopes, minlength=n_intervals)
    else:
        weight = np.bincount(bins, weights, minlength=n_intervals)
        total = np.bincount(bins, slopes * weights, minlength=n_intervals)
    mean = np.divide(total, weight, out=np.full(n_intervals, np.nan), where=weight != 0)
    squares = (slopes - mean[bins]) ** 2
    if weights is not None:
        squares = squares * weights
    spread = np.bincount(bins, squares, minlength=n_intervals)
    variance = np.divide(spread, weight, out=np.full(n_intervals, np.nan), where=weight > 1)
    return weight, mean, variance


def fill_undefined(values: np.ndarray) -> np.ndarray | None:
    """NaNs replaced by linear interpolation over the index (constant at the ends); None if all are NaN."""
    missing = np.isnan(values)
    if missing.all():
        return None
    if not missing.any():
        return values
    index = np.arange(values.shape[0])
    out = values.copy()
    out[missing] = np.interp(index[missing], index[~missing], values[~missing])
    return out


def feature_scale(values: np.ndarray, weights: np.ndarray | None = None) -> float:
    """Standard deviation of the feature over all rows (divisor n, or the sum of the weights)."""
    if weights is None:
        return float(np.std(values))
    mean = np.average(values, weights=weights)
    return float(np.sqrt(np.average((values - mean) ** 2, weights=weights)))


def heterogeneity(slopes: np.ndarray, bins: np.ndarray, n_intervals: int, scale: float,
                  weights: np.ndarray | None = None) -> float:
    """The criterion for the rows given (a region's): see the module docstring.

    Returns :data:`UNDEFINED` when no interval holds two rows.
    """
    _, _, variance = interval_moments(slopes, bins, n_intervals, weights)
    variance = fill_undefined(variance)
    if variance is None:
        return UNDEFINED
    per_row = variance[bins]
    mean = np.mean(per_row) if weights is None else np.average(per_row, weights=weights)
    return float(np.sqrt(mean)) * scale


def level_heterogeneity(differences: np.ndarray, jumps: np.ndarray, n_jumps: int, ranks: np.ndarray, scale: float,
                        entry_weights: np.ndarray | None = None, row_weights: np.ndarray | None = None) -> float:
    """The criterion for a categorical feature (effector's ordinal ``_heter``), for a region's entries and rows.

    Per jump, the variance of the region's differences across it (filled as
    for intervals); each row of the region takes the variance of the jump
    *into* its level (the first level takes the first jump's); the
    heterogeneity is ``scale * sqrt(mean over the rows)``, ``scale`` being
    the standard deviation of the level ranks over all rows.
    """
    _, _, variance = interval_moments(differences, jumps, n_jumps, entry_weights)
    variance = fill_undefined(variance)
    if variance is None:
        return UNDEFINED
    per_row = variance[np.maximum(ranks, 1) - 1]
    mean = np.mean(per_row) if row_weights is None else np.average(per_row, weights=row_weights)
    return float(np.sqrt(mean)) * scale


def pair_heterogeneity(at_levels: np.ndarray, ranks: np.ndarray, row_weights: np.ndarray | None = None) -> float:
    """The criterion for a nominal feature (effector's ``_heter_nominal_pairs``), for a region's rows.

    ``at_levels[i, k]`` is row i predicted at level k, ``ranks[i]`` its own
    level.  For every pair of levels ``a < b``, the rows of the region at
    ``a`` or ``b`` each give the difference ``at_levels[i, b] - at_levels[i,
    a]``; with ``w_k`` the share of the region's rows at level k,

    ``H = sqrt(sum over a < b of w_a w_b Var(differences of the pair))``,

    the variance around the pair's mean with divisor n (the sum of the
    weights).  No level order and no scale factor enter: the differences
    are already in units of the prediction, and ``H`` is 0 when the region
    holds one level only.
    """
    n_levels = at_levels.shape[1]
    level_weight = np.bincount(ranks, row_weights, minlength=n_levels).astype(float)
    share = level_weight / level_weight.sum()
    total = 0.0
    for a in range(n_levels):
        for b in range(a + 1, n_levels):
            product = share[a] * share[b]
            if product > 0:
                rows = (ranks == a) | (ranks == b)
                differences = at_levels[rows, b] - at_levels[rows, a]
                if row_weights is None:
                    spread = np.var(differences)
                else:
                    w = row_weights[rows]
                    spread = np.average((differences - np.average(differences, weights=w)) ** 2, weights=w)
                total += product * spread
    return float(np.sqrt(total))
