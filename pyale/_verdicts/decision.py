"""The decision rule of :func:`pyale.check_shape`, on "margins" that must not be negative.

Every expectation becomes a vector of margins ``m`` (increments of the
curve for a monotone expectation, the end-to-start difference for a sign, or
what a user function returns) that the expectation wants ``>= 0``
(non-strict) or ``> 0`` (strict), with the same margins in every bootstrap
replicate.  Two one-sided tests at ``level`` decide:

fail
    when the expectation is violated somewhere beyond doubt: the
    simultaneous one-sided upper band ``m_k + c * se_k`` (``se_k`` the
    replicates' standard deviation, ``c`` the ``1 - level`` quantile of the
    replicates' largest studentised deviation ``max_k (m_k - m*_k) / se_k``)
    lies below zero for some ``k``.  Its p-value is the share of replicates
    whose largest studentised deviation reaches the observed largest
    studentised violation ``T = max_k (-m_k / se_k)``.  Were every margin
    ``>= 0``, the band covers all of them with probability about
    ``1 - level``, so a correct expectation fails with probability at most
    about ``level`` (exactly so when every margin is 0, the least favourable case).
holds
    when every margin is on the right side beyond doubt: for each ``k`` at
    most a share ``level`` of the replicates violate it (an
    intersection-union test: the p-value is the largest of the margins'
    one-sided percentile p-values, with no multiplicity penalty).  A
    violated expectation (some margin ``< 0``) passes with probability at
    most about ``level``.

A margin with no bootstrap spread (every replicate equal, as for a
feature whose local differences are the same on every row, the model
fixed) is known exactly: it is a certain violation or certainly fine.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
from scipy import stats

__all__ = ["MarginTest", "margin_test", "calibrate"]


@dataclass(frozen=True)
class MarginTest:
    """The two tests on a vector of margins (see the module's docstring).

    Attributes
    ----------
    statistic : float
        ``T``, the largest studentised violation ``max_k (-m_k / se_k)``
        (``inf`` for a violation without spread, ``-inf`` when no margin can be judged).
    p_violation : float
        p-value of the test that fails the expectation.
    p_holds : float
        p-value of the test that passes it.
    upper : numpy.ndarray
        Simultaneous one-sided upper bound of each margin at ``1 - level``.
    adjusted : numpy.ndarray
        Per margin: its max-t adjusted p-value (``p_violation`` is the smallest).
    significant : numpy.ndarray
        Per margin: ``adjusted <= level``, a violation beyond doubt (its
        upper bound lies below zero, up to one replicate's rounding of the quantile).
    verdict : str
        ``"fail"`` (``p_violation <= level``), else ``"pass"`` (``p_holds <= level``), else ``"inconclusive"``.
    """

    statistic: float
    p_violation: float
    p_holds: float
    upper: np.ndarray
    adjusted: np.ndarray
    significant: np.ndarray
    verdict: str


def calibrate(z: np.ndarray, df: np.ndarray) -> np.ndarray:
    """A studentised value read as Student's t with ``df`` degrees of freedom, on the normal scale.

    A margin that is a mean of ``n`` rows' local differences, divided by its
    bootstrap spread (which is estimated from the same ``n`` rows), is a t
    statistic with about ``n - 1`` degrees of freedom, while the bootstrap's
    own deviations are close to normal: with 30 rows per interval, the
    largest of 10 such t values exceeds the normal max-t quantile about 1.3
    times as often.  ``norm.isf(t.sf(z, df))`` maps each value to the normal
    deviate with the same tail probability (unchanged for ``df = inf``).
    """
    z = np.asarray(z, dtype=float)
    df = np.broadcast_to(np.asarray(df, dtype=float), z.shape)
    finite = np.isfinite(df) & np.isfinite(z)
    out = z.copy()
    if finite.any():
        upper = z[finite] > 0  # the smaller tail, for precision
        tail = np.where(upper, stats.t.sf(z[finite], df[finite]), stats.t.cdf(z[finite], df[finite]))
        out[finite] = np.where(upper, stats.norm.isf(tail), stats.norm.ppf(tail))
    return out


def _violates(values: np.ndarray, strict: bool) -> np.ndarray:
    return values <= 0 if strict else values < 0


def margin_test(estimate: np.ndarray, replicates: np.ndarray, *, strict: bool, level: float,
                df: np.ndarray | None = None) -> MarginTest:
    """Both tests for margins ``estimate`` (``(M,)``) and their ``replicates`` (``(B, M)``).

    Replicates that are NaN for a margin (undefined in that replicate) are
    left out of that margin's spread and count as neither side; a margin
    whose estimate is NaN, or that no replicate defines, is judged neither
    way (it can neither fail nor let the expectation pass).  ``df``
    (``(M,)``, ``inf`` for none) calibrates margins that are means over few
    rows (see :func:`calibrate`).
    """
    estimate = np.asarray(estimate, dtype=float).ravel()
    replicates = np.asarray(replicates, dtype=float).reshape(-1, estimate.shape[0])
    n_boot = replicates.shape[0]
    with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN margins: judged below as undefined
        spread = np.nanstd(replicates, axis=0, ddof=1) if n_boot > 1 else np.zeros_like(estimate)
        # Relative to the scale of the margins, a spread of rounding noise is none.
        scale = np.nanmax(np.abs(np.concatenate([estimate, replicates.ravel()]))) if estimate.size else 0.0
    spread = np.where(np.isfinite(spread), spread, 0.0)
    scale = scale if np.isfinite(scale) else 0.0
    noisy = spread > 1e-12 * max(scale, np.finfo(float).tiny)
    certain = ~noisy & _violates(estimate, strict)
    df = np.full(estimate.shape, np.inf) if df is None else np.asarray(df, dtype=float).ravel()
    with np.errstate(invalid="ignore", divide="ignore"):
        t_observed = np.where(noisy, calibrate(-estimate / np.where(noisy, spread, 1.0), df), -np.inf)
        deviations = np.where(noisy, (estimate - replicates) / np.where(noisy, spread, 1.0), -np.inf)
    deviations = np.where(np.isnan(deviations), -np.inf, deviations)
    largest = deviations.max(axis=1) if estimate.size else np.full(n_boot, -np.inf)
    # Single-step max-t adjusted p-values: margin k is a violation beyond doubt when few replicates'
    # largest studentised deviation reaches its own studentised violation.
    reached = (largest[:, None] >= t_observed[None, :]).sum(axis=0)
    adjusted = np.where(noisy, (1 + reached) / (n_boot + 1), np.where(certain, 0.0, 1.0))
    adjusted = np.where(np.isfinite(estimate), adjusted, 1.0)
    p_violation = float(adjusted.min()) if estimate.size else 1.0
    statistic = np.inf if certain.any() else (float(np.nanmax(t_observed)) if noisy.any() else -np.inf)
    finite = largest[np.isfinite(largest)]
    critical = float(np.quantile(finite, 1.0 - level, method="higher")) if finite.size else 0.0
    upper = np.where(noisy, estimate + critical * spread, estimate)
    significant = adjusted <= level
    wrong_side = _violates(replicates, strict) & ~np.isnan(replicates)
    per_margin = (1 + wrong_side.sum(axis=0)) / (n_boot + 1)
    per_margin = np.where(noisy, stats.norm.sf(calibrate(stats.norm.isf(per_margin), df)), per_margin)
    per_margin = np.where(_violates(estimate, strict) & ~noisy, 1.0, per_margin)
    # A margin that is undefined (NaN estimate, or no replicate defines it) cannot show that the
    # expectation holds there.
    undefined = ~np.isfinite(estimate) | np.isnan(replicates).all(axis=0)
    per_margin = np.where(undefined, 1.0, per_margin)
    adjusted = np.where(undefined, 1.0, adjusted)
    p_violation = float(adjusted.min()) if estimate.size else 1.0
    significant = adjusted <= level
    p_holds = float(per_margin.max()) if estimate.size else 1.0
    if p_violation <= level:
        verdict = "fail"
    elif p_holds <= level:
        verdict = "pass"
    else:
        verdict = "inconclusive"
    return MarginTest(statistic=float(statistic), p_violation=p_violation, p_holds=p_holds, upper=upper,
                      adjusted=adjusted, significant=significant, verdict=verdict)
