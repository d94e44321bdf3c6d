"""The ALE statistics of R's ``ale`` 0.5.0 (Okoli 2023) as :class:`pyale.ALE` tables them.

ALED, ALER, NALED and NALER themselves are defined once, in
:mod:`pyale._core.reduce.stats`; here are the values and counts R's ``ale`` weighs
with them per replicate (``ale:::calc_stats``, ``ale:::calc_stats_2D``), the
normaliser's R name (``ale:::create_ale_y_norm_function``) and the bootstrap
summary of ``ale:::calc_ale``.  See ``docs/ale-package.md``, section 7.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

from ..._core.reduce.stats import Normaliser, aled, aler, naled, naler
from ..._rbase import quantile_type7
from ..._rbase.summaries import r_mean, r_median

__all__ = [
    "STATISTICS",
    "SUMMARY_COLUMNS",
    "r_median",
    "r_mean",
    "normaliser",
    "ale_statistics_1d",
    "ale_statistics_2d",
    "summarise_statistics",
]

#: The rows of R's ``ale`` statistics tables, in R's order.  R's own list, not pyale's: a statistic
#: added to :data:`pyale._core.reduce.stats.STATISTICS` (served by ``pyale.ale``) joins
#: :class:`pyale.ALE`'s tables only when R's ``ale`` reports it too.
STATISTICS = ("aled", "aler_min", "aler_max", "naled", "naler_min", "naler_max")

SUMMARY_COLUMNS = ("estimate", "conf.low", "mean", "median", "conf.high")


def normaliser(response) -> Callable[[np.ndarray], np.ndarray]:
    """The map N from effect values to half-percentiles of the response (``create_ale_y_norm_function``).

    With ``c = v - median(v)`` for the response values v: ``pre`` is the largest
    negative c (0 when median(c) equals max(c); -Inf when no c is negative),
    ``post`` the smallest positive c (0 when median(c) equals min(c); +Inf when
    none).  N(e) = 0 for pre <= e <= post; -50 * ecdf(-c[c <= 0])(-e) for e < 0;
    50 * ecdf(c[c >= 0])(e) for e > 0.

    Parameters
    ----------
    response : array-like
        The response values (observed y for a numeric response, the model's
        predictions for a binary or categorical one); finite.

    Returns
    -------
    callable
        ``N(values) -> numpy.ndarray`` (NaN stays NaN).

    Examples
    --------
    >>> N = normaliser([1.0, 2.0, 3.0, 4.0, 5.0])
    >>> N(np.array([-2.0, -0.5, 0.0, 1.5, 9.0])).tolist()
    [-50.0, 0.0, 0.0, 33.33333333333333, 50.0]
    """
    return Normaliser.from_response(np.asarray(response, dtype=float).ravel())


def ale_statistics_1d(effects, counts, *, numeric: bool, norm: Callable, deviation: Callable = aled) -> dict[str, float]:
    """ALED, ALER, NALED, NALER of one centred 1-D curve (``ale:::calc_stats``).

    Parameters
    ----------
    effects : array-like
        The centred curve, one value per bin (NaN where a replicate has no value;
        such bins are dropped with their counts).
    counts : array-like
        Rows per bin (``.n``; for a numeric feature the minimum's bin first).
    numeric : bool
        True for a numeric feature: ALED/NALED then use interval mid-values
        ``(y_k + y_{k+1})/2`` with the first bin's count merged into the second.
    norm : callable
        The normaliser of :func:`normaliser`.
    deviation : callable, default :func:`pyale._core.reduce.stats.aled`
        ALED's deviation function (``aled_fun``: one of :data:`pyale._core.reduce.stats.DEVIATIONS`).

    Returns
    -------
    dict
        Keys :data:`STATISTICS`.  ALER and NALER are over the bin values (not the
        mid-values); with no value left they are (+Inf, -Inf) as R's ``min``/``max``.
    """
    y = np.asarray(effects, dtype=float).ravel()
    n = np.asarray(counts, dtype=float).ravel()
    keep = ~np.isnan(y)
    y, n = y[keep], n[keep]
    ranges = [float(bound[0]) for bound in (*aler(y[:, None]), *naler(y[:, None], norm))]
    if numeric:
        if y.size < 2:  # R: the merged count becomes NA, and so do ALED and NALED
            return dict(zip(STATISTICS, (math.nan, *ranges[:2], math.nan, *ranges[2:])))
        mid = (y[:-1] + y[1:]) / 2
        w = n[1:].copy()
        w[0] += n[0]
    else:
        mid, w = y, n
    if deviation is aled:  # ale 0.5.x's ALED: summed as R sums it, so that ties with R's p-value draws are R's
        value = _r_aled_score(mid, w)
        normalised = _r_aled_score(np.asarray(norm(mid[:, None]), dtype=float).ravel(), w)
    else:
        value = float(deviation(mid[:, None], w)[0])
        normalised = float(naled(mid[:, None], w, norm, deviation)[0])
    return dict(zip(STATISTICS, (value, *ranges[:2], normalised, *ranges[2:])))


def _r_aled_score(values: np.ndarray, weights: np.ndarray) -> float:
    """``aled_score``: ``sum(abs(y * n)) / sum(n)`` with R's long-double sums (here: correctly rounded sums),
    so that statistics tie exactly where R's do (p-values count ties)."""
    total = math.fsum(weights.tolist())
    if total == 0:
        return math.nan
    return math.fsum(np.abs(values * weights).tolist()) / total


def ale_statistics_2d(effects, counts, *, numeric: tuple[bool, bool], norm: Callable,
                      deviation: Callable = aled) -> dict[str, float]:
    """ALED, ALER, NALED, NALER of one centred 2-D surface (``ale:::calc_stats_2D``).

    Along a numeric axis each cell is averaged with the previous bin, both axes at
    once: ``E[k, l] = (Y[k, l] + Y[p(k), q(l)]) / 2`` with ``p(k) = k - 1`` (numeric
    axis, k >= 1) or ``k``; the first row (column) of a numeric axis is then dropped
    and its counts added to the second.  The statistics are those of the cells of E
    with their counts, as for a non-numeric 1-D feature (ALER over E itself).

    Parameters
    ----------
    effects, counts : array-like
        (m_a, m_b) arrays: the centred surface and the rows per cell.
    numeric : (bool, bool)
        Whether each axis is numeric.
    norm : callable
        The normaliser of :func:`normaliser`.
    deviation : callable, default :func:`pyale._core.reduce.stats.aled`
        ALED's deviation function, as in :func:`ale_statistics_1d`.
    """
    y = np.asarray(effects, dtype=float)
    n = np.asarray(counts, dtype=float).copy()
    prev = [np.concatenate(([0], np.arange(m - 1))) if is_num else np.arange(m)
            for m, is_num in zip(y.shape, numeric)]
    mid = (y + y[np.ix_(prev[0], prev[1])]) / 2
    if numeric[0]:
        n[1, :] += n[0, :]
        mid, n = mid[1:, :], n[1:, :]
    if numeric[1]:
        n[:, 1] += n[:, 0]
        mid, n = mid[:, 1:], n[:, 1:]
    return ale_statistics_1d(mid.ravel(order="F"), n.ravel(order="F"), numeric=False, norm=norm,
                             deviation=deviation)


def summarise_statistics(per_replicate, *, boot_alpha: float, boot_centre: str) -> dict[str, dict[str, float]]:
    """The statistics table of one term: estimate and interval over the replicates.

    Parameters
    ----------
    per_replicate : sequence of dict
        One dict per bootstrap replicate (keys :data:`STATISTICS`); without a
        bootstrap, the single full-data dict.  R excludes the full-data curve here.
    boot_alpha : float
        ``conf.low`` and ``conf.high`` are type-7 quantiles at ``boot_alpha/2`` and
        ``1 - boot_alpha/2``.
    boot_centre : {"mean", "median"}
        Which of ``mean`` and ``median`` is the ``estimate``.

    Returns
    -------
    dict
        ``{statistic: {"estimate", "conf.low", "mean", "median", "conf.high"}}``;
        NaN values are dropped first (R's ``na.rm = TRUE``; infinities stay).
    """
    out = {}
    for name in STATISTICS:
        values = np.array([float(r[name]) for r in per_replicate])
        values = values[~np.isnan(values)]
        if values.size:
            low, high = quantile_type7(values, np.array([boot_alpha / 2, 1 - boot_alpha / 2]))
        else:
            low = high = math.nan
        mean, median = r_mean(values), r_median(values)
        out[name] = {"estimate": mean if boot_centre == "mean" else median, "conf.low": float(low),
                     "mean": mean, "median": median, "conf.high": float(high)}
    return out
