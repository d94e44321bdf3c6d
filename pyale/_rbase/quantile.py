"""R-exact quantiles, sequences, binning and counts.

Each function mirrors one base-R computation closely enough that, given the
same doubles, it returns the same doubles (or the same integers) as R 4.2.2.
Pure NumPy: no pandas, no model calls, no validation beyond what the callers
inside pyale guarantee.  The R function mirrored is named in each docstring.
"""

from __future__ import annotations

import numpy as np

from .cells import MIN_SIZE, bins_right_closed

__all__ = [
    "r_seq",
    "quantile_type1",
    "quantile_type1_positions",
    "quantile_type7",
    "bin_right_closed",
    "ecdf_at",
    "level_counts",
    "stable_order",
]


def r_seq(start: float, stop: float, length_out: int) -> np.ndarray:
    """Evenly spaced values, as R's ``seq(from, to, length.out = n)``.

    R builds ``c(from, from + (1:(n-2)) * by, to)`` with
    ``by = (to - from) / (n - 1)``: interior points are ``from + i * by`` (not
    a cumulative sum) and the last point is exactly ``to``.  ``n == 1`` gives
    ``from`` and ``n == 2`` gives ``c(from, to)``.

    Parameters
    ----------
    start, stop : float
        R's ``from`` and ``to``.
    length_out : int
        R's ``length.out`` (>= 1).

    Returns
    -------
    numpy.ndarray
        ``length_out`` float64 values.

    Examples
    --------
    >>> r_seq(0.0, 1.0, 5)
    array([0.  , 0.25, 0.5 , 0.75, 1.  ])
    """
    start = float(start)
    stop = float(stop)
    if length_out == 1:
        return np.array([start])
    if length_out == 2 or start == stop:
        return np.array([start, stop]) if length_out == 2 else np.full(length_out, start)
    n1 = length_out - 1
    by = (stop - start) / n1
    interior = start + np.arange(1, n1, dtype=float) * by
    return np.concatenate(([start], interior, [stop]))


def _sorted_finite(x: np.ndarray) -> np.ndarray:
    return np.sort(np.asarray(x, dtype=float), kind="stable")


def quantile_type1(x: np.ndarray, probs: np.ndarray, *, presorted: bool = False) -> np.ndarray:
    """Sample quantiles by the inverse of the empirical CDF, as R's ``quantile(type = 1)``.

    With ``n * p`` computed in floating point and ``j = floor(n * p)``, the
    answer is the ``j``-th order statistic when ``n * p == j`` exactly and the
    ``(j + 1)``-th otherwise (the 0-th is the 1st).  There is no tolerance, as
    in R 4.2 to 4.4 (R 4.5 added ``fuzz``): floating-point noise in ``p`` can
    move the answer by one data point, so callers must build ``probs`` exactly
    as R does.

    Parameters
    ----------
    x : numpy.ndarray
        Finite sample (not empty).
    probs : numpy.ndarray
        Probabilities in [0, 1].
    presorted : bool, default False
        Set when ``x`` is already sorted ascending.

    Returns
    -------
    numpy.ndarray
        One order statistic per probability.

    Examples
    --------
    >>> quantile_type1(np.array([3.0, 1.0, 2.0, 4.0]), np.array([0.0, 0.5, 0.6, 1.0]))
    array([1., 2., 3., 4.])
    """
    xs = np.asarray(x, dtype=float) if presorted else _sorted_finite(x)
    return xs[quantile_type1_positions(xs.shape[0], probs)]


def quantile_type1_positions(n: int, probs: np.ndarray) -> np.ndarray:
    """0-based positions in the sorted sample of :func:`quantile_type1`'s answers.

    Examples
    --------
    >>> quantile_type1_positions(4, np.array([0.0, 0.5, 0.6, 1.0]))
    array([0, 1, 2, 3])
    """
    probs = np.clip(np.asarray(probs, dtype=float), 0.0, 1.0)
    nppm = n * probs
    j = np.floor(nppm)
    rank = j + (nppm > j)  # 1-based rank; 0 means the first order statistic
    return np.clip(rank.astype(np.int64) - 1, 0, n - 1)


def quantile_type7(x: np.ndarray, probs: np.ndarray, *, presorted: bool = False) -> np.ndarray:
    """Linearly interpolated sample quantiles, as R's default ``quantile(type = 7)``.

    R 4.2 computes ``index = 1 + (n - 1) * p``, ``lo = floor(index)``,
    ``hi = ceiling(index)`` and, where ``index > lo`` and the two order
    statistics differ, ``(1 - h) * x[lo] + h * x[hi]`` with ``h = index - lo``.
    The same expression is evaluated here so the doubles agree.

    Parameters
    ----------
    x : numpy.ndarray
        Finite sample (not empty).
    probs : numpy.ndarray
        Probabilities in [0, 1].
    presorted : bool, default False
        Set when ``x`` is already sorted ascending.

    Returns
    -------
    numpy.ndarray

    Examples
    --------
    >>> quantile_type7(np.array([1.0, 2.0, 4.0]), np.array([0.25, 0.75]))
    array([1.5, 3. ])
    """
    xs = np.asarray(x, dtype=float) if presorted else _sorted_finite(x)
    n = xs.shape[0]
    probs = np.clip(np.asarray(probs, dtype=float), 0.0, 1.0)
    index = 1.0 + max(n - 1, 0) * probs
    lo = np.floor(index)
    hi = np.ceil(index)
    lo_i = lo.astype(np.int64) - 1
    hi_i = hi.astype(np.int64) - 1
    qs = xs[lo_i].copy()
    upper = xs[hi_i]
    interpolate = (index > lo) & (upper != qs)
    h = (index - lo)[interpolate]
    qs[interpolate] = (1.0 - h) * qs[interpolate] + h * upper[interpolate]
    return qs


def bin_right_closed(x: np.ndarray, edges: np.ndarray, *, counts: bool = False):
    """0-based interval index of each value for right-closed intervals.

    Interval ``k`` is ``(edges[k], edges[k + 1]]`` and the lowest edge itself
    falls into interval 0, as R's ``cut(x, edges, include.lowest = TRUE)`` and
    iml's ``findInterval(x, edges, left.open = TRUE)`` with 0 mapped to 1.
    Values below the lowest edge get -1, values above the highest edge get
    ``len(edges) - 1``; callers decide what those mean.

    Parameters
    ----------
    x : numpy.ndarray
        Values to bin.
    edges : numpy.ndarray
        Strictly increasing interval edges (at least two).
    counts : bool, default False
        Also return the number of values per index + 1 (``len(edges) + 1``
        integers: below the lowest edge, each interval, above the highest).

    Returns
    -------
    numpy.ndarray
        int64 interval indices (and the counts, with ``counts=True``).

    Examples
    --------
    >>> bin_right_closed(np.array([0.0, 0.5, 1.0, 1.5, 2.0]), np.array([0.0, 1.0, 2.0]))
    array([0, 0, 0, 1, 1])
    """
    edges = np.asarray(edges, dtype=float)
    x = np.asarray(x, dtype=float)
    if x.shape[0] >= MIN_SIZE:
        return bins_right_closed(x, edges, counts=counts)  # same integers, without binary search per value
    index = np.searchsorted(edges, x, side="left") - 1
    index[x == edges[0]] = 0
    index[x < edges[0]] = -1
    index = index.astype(np.int64, copy=False)
    return (index, np.bincount(index + 1, minlength=edges.shape[0] + 1)) if counts else index


def ecdf_at(sample: np.ndarray, points: np.ndarray, *, presorted: bool = False) -> np.ndarray:
    """Empirical CDF of ``sample`` evaluated at ``points``, as R's ``ecdf(sample)(points)``.

    The value at ``t`` is ``#(sample <= t) / n`` computed as one division, as
    R's step function stores it.

    Parameters
    ----------
    sample : numpy.ndarray
        Non-empty sample without missing values.
    points : numpy.ndarray
        Where to evaluate.
    presorted : bool, default False
        Set when ``sample`` is already sorted ascending.

    Returns
    -------
    numpy.ndarray

    Examples
    --------
    >>> ecdf_at(np.array([1.0, 2.0, 2.0, 3.0]), np.array([0.0, 2.0, 5.0]))
    array([0.  , 0.75, 1.  ])
    """
    xs = np.asarray(sample, dtype=float) if presorted else np.sort(np.asarray(sample, dtype=float))
    counts = np.searchsorted(xs, np.asarray(points, dtype=float), side="right")
    return counts / xs.shape[0]


def level_counts(codes: np.ndarray, n_levels: int) -> np.ndarray:
    """Rows per level, as R's ``as.numeric(table(factor))``.

    Parameters
    ----------
    codes : numpy.ndarray
        0-based level codes (no missing values).
    n_levels : int
        Number of levels, including any without rows.

    Returns
    -------
    numpy.ndarray
        int64 counts of length ``n_levels``.

    Examples
    --------
    >>> level_counts(np.array([0, 2, 2]), 4)
    array([1, 0, 2, 0])
    """
    return np.bincount(np.asarray(codes, dtype=np.int64), minlength=n_levels).astype(np.int64)


def stable_order(values: np.ndarray) -> np.ndarray:
    """0-based permutation sorting ``values`` ascending, ties in original order.

    Mirrors ``sort(x, index.return = TRUE)$ix`` (R's radix sort is stable).

    Examples
    --------
    >>> stable_order(np.array([1.0, 0.0, 1.0, 0.0]))
    array([1, 3, 0, 2])
    """
    return np.argsort(np.asarray(values), kind="stable")
