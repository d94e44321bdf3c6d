"""ALE statistics (Okoli 2023): how big an effect is, as numbers.

ALED
    ALE deviation: the count-weighted mean of ``|effect|``, the average
    distance of the effect from zero (the centred effect's level), in units
    of the prediction.
ALER
    ALE range: ``(min, max)`` of the effect.
NALED, NALER
    The same after mapping each value through the normaliser ``N`` of the
    response's distribution, so an effect reads as percentiles of the
    response around its median: with ``c = y - median(y)``, ``N(v) = 0`` when
    ``v`` lies between the largest negative and the smallest positive ``c``;
    otherwise ``-100 * ecdf(-c[c <= 0])(-v) / 2`` for ``v < 0`` and
    ``100 * ecdf(c[c >= 0])(v) / 2`` for ``v > 0`` (-50 to 50).

Each statistic is defined once, here (:func:`aled`, :func:`aler`,
:func:`naled`, :func:`naler`), for ``pyale.ale`` and ``pyale.ALE`` alike;
which values and counts they weigh is each front-end's (below for
``pyale.ale``; :mod:`pyale._alepkg.stats` for R's per-replicate tables).

Definitions as R's ``ale`` 0.5.0 implements them (``R/stats.R``:
``calc_stats``, ``calc_stats_2D``, ``create_ale_y_norm_function``).  They
act on centred effects and on the counts used for centring:

* numeric axis: the value of an interval is the mid-value
  ``(f[k-1] + f[k]) / 2`` of its two edges, weighted by the interval's
  count;
* categorical axis: the value at each level with the level's count;
* pairs: mid-values along each numeric axis (a numeric x numeric cell takes
  the mean of its four corners: the mid-value along one axis of the
  mid-values along the other), counts per cell.

All functions are vectorised over leading axes (bootstrap replicates).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._rbase.exact import exact_prefix_sums

__all__ = ["STATISTICS", "DEVIATIONS", "Normaliser", "aled", "aled_sd", "aler", "naled", "naler", "ale_statistics",
           "interval_values"]

#: Row labels of a statistics table, in order.
STATISTICS = ("aled", "aler_min", "aler_max", "naled", "naler_min", "naler_max")


@dataclass(frozen=True)
class Normaliser:
    """``N(v)``: an effect value as half-percentiles of the response around its median.

    Built from the response ``y`` as R's ``ale`` 0.5.0 builds it
    (``create_ale_y_norm_function``): with ``c = y - median(y)``, ``pre`` is
    the largest negative ``c`` (``-inf`` when there is none, 0 when
    ``median(c)`` is ``max(c)``) and ``post`` the smallest positive ``c``
    (``+inf`` when none, 0 when ``median(c)`` is ``min(c)``); ``N(v) = 0`` for
    ``pre <= v <= post``, ``-50 * ecdf(-c[c <= 0])(-v)`` below and
    ``50 * ecdf(c[c >= 0])(v)`` above.  NaN stays NaN.
    """

    lower: np.ndarray  # sorted -c[c <= 0]
    lower_cum: np.ndarray  # cumulative weights of ``lower``, normalised to end at 1
    upper: np.ndarray  # sorted c[c >= 0]
    upper_cum: np.ndarray
    below: float  # pre
    above: float  # post

    @classmethod
    def from_response(cls, y: np.ndarray, weights: np.ndarray | None = None) -> "Normaliser":
        """The normaliser of the response ``y`` (with frequency ``weights``: as if each
        value were repeated that many times; zero weights drop values)."""
        y = np.asarray(y, dtype=float).ravel()
        w = np.ones(y.shape[0]) if weights is None else np.asarray(weights, dtype=float).ravel()
        keep = w > 0
        y, w = y[keep], w[keep]
        order = np.argsort(y, kind="stable")
        y, w = y[order], w[order]
        # Weight sums exact before one rounding (pyale._rbase.exact): the doubles every engine gets.
        running = np.cumsum if weights is None else exact_prefix_sums
        cum = running(w)
        centred = y - _weighted_median(y, cum)
        middle = _weighted_median(centred, cum)  # R: median(centred_y), which need not be 0
        negative, positive = centred[centred < 0], centred[centred > 0]
        if middle != centred[-1]:
            below = float(negative.max()) if negative.size else -np.inf
        else:
            below = 0.0
        if middle != centred[0]:
            above = float(positive.min()) if positive.size else np.inf
        else:
            above = 0.0
        lows, highs = centred <= 0, centred >= 0
        lower, lower_w = -centred[lows][::-1], w[lows][::-1]
        upper, upper_w = centred[highs], w[highs]
        lower_cum, upper_cum = running(lower_w), running(upper_w)
        return cls(
            lower=lower,
            lower_cum=lower_cum / lower_cum[-1] if lower.size else lower,
            upper=upper,
            upper_cum=upper_cum / upper_cum[-1] if upper.size else upper,
            below=below,
            above=above,
        )

    def __call__(self, values: np.ndarray) -> np.ndarray:
        v = np.asarray(values, dtype=float)
        out = np.zeros(v.shape)
        low = v < 0
        high = v > 0
        if self.lower.size:
            out[low] = -_ecdf(self.lower, self.lower_cum, -v[low]) / 2
        if self.upper.size:
            out[high] = _ecdf(self.upper, self.upper_cum, v[high]) / 2
        out[(v >= self.below) & (v <= self.above)] = 0.0
        out = out * 100
        out[np.isnan(v)] = np.nan
        return out


def _weighted_median(sorted_values: np.ndarray, cumulative: np.ndarray) -> float:
    """R's ``median`` of the weighted sample (the mean of the lower and upper medians).

    For unit (integer) weights: the middle value, or the mean of the two
    middle values, of the (repeated) sample; ``(a + b) / 2`` as R computes it.
    """
    half = cumulative[-1] / 2
    a = sorted_values[np.searchsorted(cumulative, half, side="left")]
    b = sorted_values[min(np.searchsorted(cumulative, half, side="right"), sorted_values.shape[0] - 1)]
    return float(a) if a == b else float((a + b) / 2)


def _ecdf(sorted_sample: np.ndarray, cumulative: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Weighted ECDF at ``points`` (R's ``ecdf`` for unit weights: ``#(x <= t) / n``)."""
    position = np.searchsorted(sorted_sample, points, side="right")
    return np.where(position > 0, cumulative[np.maximum(position - 1, 0)], 0.0)


def interval_values(effects: np.ndarray, numeric: tuple[bool, ...]) -> np.ndarray:
    """The values the statistics weight by counts, as R's ``ale`` forms them.

    ``effects`` has the grid axes right after any leading replicate axes and
    one trailing output axis: ``(..., n1[, n2], n_outputs)``.  One feature:
    a numeric axis of ``K + 1`` edges gives the ``K`` interval mid-values
    ``(f[k-1] + f[k]) / 2``; a categorical axis its level values.  A pair
    (``calc_stats_2D``): every node is averaged with its predecessor along
    the numeric axes at once, ``(Y[i, j] + Y[i - 1, j - 1]) / 2`` for two
    numeric axes (the previous row only, for a categorical first axis), and
    the first row or column of a numeric axis is dropped.
    """
    n_grid = len(numeric)
    first = effects.ndim - 1 - n_grid
    later = effects
    earlier = effects
    for axis, is_numeric in enumerate(numeric):
        if not is_numeric:
            continue
        position = first + axis
        size = effects.shape[position]
        later = np.take(later, np.arange(1, size), axis=position)
        earlier = np.take(earlier, np.arange(size - 1), axis=position)
    return (later + earlier) / 2


def aled(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """ALED: the ``weights``-weighted mean of ``|values|`` over the groups.

    ``values`` is ``(..., G, m)`` (groups, then outputs) and ``weights``
    ``(..., G)``; returns ``(..., m)``, NaN where the weights sum to 0.
    """
    w = np.asarray(weights, dtype=float)[..., None]
    with np.errstate(invalid="ignore", divide="ignore"):
        return (np.abs(values) * w).sum(axis=-2) / w.sum(axis=-2)


def aled_sd(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """ALED as a standard deviation from zero: the square root of the ``weights``-weighted mean of ``values**2``.

    R's ``ale`` development version (``aled_fun = "sd"``, ``R/stats.R``:
    ``sqrt(sum(y^2 * n) / sum(n))``); the centred effect's level is 0, so this
    is the root mean square of the effect.  Shapes as :func:`aled`.
    """
    w = np.asarray(weights, dtype=float)[..., None]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.sqrt((np.square(values) * w).sum(axis=-2) / w.sum(axis=-2))


#: The deviation functions ALED may be defined by, under R's names (``aled_fun``): the mean
#: absolute deviation (``ale`` 0.5.x, the default) and the standard deviation (development version).
DEVIATIONS = {"mad": aled, "sd": aled_sd}


def aler(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """ALER: ``(min, max)`` of ``(..., G, m)`` values over the groups; ``(+inf, -inf)`` without a
    group (R's ``min`` and ``max`` of nothing)."""
    return values.min(axis=-2, initial=np.inf), values.max(axis=-2, initial=-np.inf)


def naled(values: np.ndarray, weights: np.ndarray, normaliser, deviation=aled) -> np.ndarray:
    """NALED: ALED (``deviation``, :func:`aled` by default) of the normalised values."""
    return deviation(normaliser(values), weights)


def naler(values: np.ndarray, normaliser) -> tuple[np.ndarray, np.ndarray]:
    """NALER: the normalised :func:`aler` (the normaliser is monotone, so these are also the
    range of the normalised values); ``(+inf, -inf)`` without a group, as :func:`aler`."""
    low, high = aler(values)
    if values.shape[-2] == 0:
        return low, high
    return normaliser(low), normaliser(high)


def ale_statistics(
    effects: np.ndarray, counts: np.ndarray, numeric: tuple[bool, ...], normaliser: Normaliser,
    deviation=aled,
) -> np.ndarray:
    """ALED, ALER, NALED and NALER of centred effects.

    Parameters
    ----------
    effects : numpy.ndarray
        ``(..., *grid_shape, n_outputs)`` centred effects (leading axes, e.g.
        bootstrap replicates, are kept).
    counts : numpy.ndarray
        Counts (or weights) per interval, level or cell: the grid shape with
        numeric axes one shorter, optionally with the same leading axes.
    numeric : tuple of bool
        Whether each grid axis is numeric (edges) or categorical (levels).
    normaliser : Normaliser
        Built from the response.
    deviation : callable, default :func:`aled`
        The deviation function of ALED and NALED (one of :data:`DEVIATIONS`).

    Returns
    -------
    numpy.ndarray
        ``(..., 6, n_outputs)``: the rows of :data:`STATISTICS`.  ALER is the
        range of the effect (one feature) or of the averaged cells (pairs), as
        in R's ``ale``.
    """
    n_grid = len(numeric)
    effects = np.asarray(effects, dtype=float)
    values = _groups(interval_values(effects, numeric), n_grid)
    counts = np.asarray(counts, dtype=float)
    weights = counts.reshape(counts.shape[: counts.ndim - n_grid] + (-1,))
    ranged = _groups(effects, n_grid) if n_grid == 1 else values
    low, high = aler(ranged)
    normalised = naled(values, weights, normaliser, deviation)
    deviation = deviation(values, weights)
    return np.stack([deviation, low, high, normalised, *naler(ranged, normaliser)], axis=-2)


def _groups(values: np.ndarray, n_grid: int) -> np.ndarray:
    """``(..., *grid, m)`` as ``(..., G, m)``: the grid's cells in C order."""
    return values.reshape(values.shape[: values.ndim - 1 - n_grid] + (-1, values.shape[-1]))
