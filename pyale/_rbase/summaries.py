"""R's ``sum``, ``mean`` and ``var`` of a double vector, to the last bit.

R adds doubles in C's ``long double`` (80-bit extended precision on x86-64,
where R is built with ``--enable-long-double``, the default), one element
after another, and rounds to double only at the end:

- ``sum`` (``rsum`` in ``src/main/summary.c``): one running long double sum.
- ``mean`` (``real_mean`` in ``summary.c``): the long double sum divided by
  ``n``, then refined by the long double mean of the residuals.
- ``var`` (``cov_complete1`` in ``src/library/stats/src/cov.c``): the mean as
  above (rounded to double), then the long double sum of squared deviations
  divided by ``n - 1``.

``math.fsum`` rounds correctly, which R does not, so optimiser paths that
start from ``mean(x)`` and ``sqrt(var(x))`` (the fGarch fits) need these.
NumPy's ``longdouble`` is the same 80-bit type on x86-64 Linux, and
``cumsum`` adds sequentially, as R's loops do.  Where ``longdouble`` is plain
double (some platforms), the results are R's on such a platform.
"""

from __future__ import annotations

import numpy as np

__all__ = ["r_sum", "r_mean", "r_median", "r_var"]


def _running_total(values: np.ndarray) -> np.longdouble:
    if values.shape[0] == 0:
        return np.longdouble(0.0)
    return np.cumsum(values)[-1]


def r_sum(x) -> float:
    """R's ``sum(x)`` for a double vector without missing values."""
    x = np.asarray(x, dtype=float).ravel()
    return float(_running_total(x.astype(np.longdouble)))


def _long_mean(x: np.ndarray) -> np.longdouble:
    n = np.longdouble(x.shape[0])
    wide = x.astype(np.longdouble)
    mean = _running_total(wide) / n
    if np.isfinite(mean):
        mean = mean + _running_total(wide - mean) / n
    return mean


def r_mean(x) -> float:
    """R's ``mean(x)`` for a double vector without missing values (NaN when empty)."""
    x = np.asarray(x, dtype=float).ravel()
    if x.shape[0] == 0:
        return float("nan")
    return float(_long_mean(x))


def r_median(x) -> float:
    """R's ``median(x)`` for a double vector without missing values: the middle value, or ``mean()`` of the
    middle two (``median.default``); NaN when empty."""
    x = np.sort(np.asarray(x, dtype=float).ravel())
    n = x.shape[0]
    if n == 0:
        return float("nan")
    half = (n + 1) // 2
    if n % 2 == 1:
        return float(x[half - 1])
    return r_mean(x[half - 1:half + 1])


def r_var(x) -> float:
    """R's ``var(x)`` for a double vector (at least two values, none missing)."""
    x = np.asarray(x, dtype=float).ravel()
    centre = np.longdouble(float(_long_mean(x)))
    deviations = x.astype(np.longdouble) - centre
    return float(_running_total(deviations * deviations) / np.longdouble(x.shape[0] - 1))
