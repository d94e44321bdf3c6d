"""R's quantile and ECDF rules extended to frequency weights.

Each function equals its unweighted R counterpart applied to the sample in
which every value is repeated as often as its (integer) weight says; zero
weights drop values.  General non-negative weights extend the same formulas
through cumulative weights: the ``j``-th order statistic of the weighted
sample is the smallest value whose cumulative weight reaches ``j``.
"""

from __future__ import annotations

import numpy as np

from .exact import exact_prefix_sums

__all__ = [
    "weighted_sample",
    "weighted_type1_positions",
    "weighted_order_statistics",
    "weighted_quantile_type7",
    "weighted_ecdf_at",
    "rows_of_weight",
    "type1_targets",
]


def weighted_sample(x: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Values with positive weight sorted ascending (stable), and their cumulative weights.

    Each cumulative weight is the exact running sum rounded once
    (:func:`~pyale._rbase.exact.exact_prefix_sums`), so it does not depend
    on how the rows were ordered or split.
    """
    x = np.asarray(x, dtype=float)
    w = np.asarray(weights, dtype=float)
    keep = w > 0
    x, w = x[keep], w[keep]
    order = np.argsort(x, kind="stable")
    return x[order], exact_prefix_sums(w[order])


def _positions(cumulative: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """0-based positions of the smallest values whose cumulative weight reaches each target."""
    positions = np.searchsorted(cumulative, targets, side="left")
    return np.clip(positions, 0, cumulative.shape[0] - 1)


#: Relative distance within which a count of rows is read as the integer it rounds to.
_INTEGER_BAND = 1e-12


def type1_targets(total: float, unit: float, probs: np.ndarray) -> np.ndarray:
    """Cumulative-weight targets of R's type-1 quantiles, a weight of ``unit`` counting as one row.

    R's rule on ``n`` rows: ``j = floor(n * p)``; the answer is the ``j``-th
    order statistic when ``n * p == j`` and the ``(j + 1)``-th otherwise.
    Here ``n`` is :func:`rows_of_weight` (``total`` in units of ``unit``, the
    smallest positive weight) and ``n * p`` the same double R computes for
    that many rows; the answer is the smallest value whose cumulative weight
    reaches the target.  Where ``n * p`` lies within rounding of an integer
    ``j`` (R's tie and the products that miss it by an ulp), the target is
    ``j`` rows less (``n * p <= j``) or more (``n * p > j``) a relative
    1e-12, so that cumulative weights rounded once per weight still count
    as the whole rows they stand for.  Hence: unit weights, and integer
    weights with a weight of 1, give R's answer for the rows repeated; the
    targets scale with the weights, so weights multiplied by any positive
    constant (all ``1 / n``, integers times 0.1) give the same quantiles.
    """
    rows = rows_of_weight(total, unit)
    at = rows * np.clip(np.asarray(probs, dtype=float), 0.0, 1.0)
    whole = np.round(at)
    near = np.abs(at - whole) <= _INTEGER_BAND * whole
    below, above = whole * (1.0 - _INTEGER_BAND), whole * (1.0 + _INTEGER_BAND)
    return np.where(near, np.where(at > whole, above, below), at) * float(unit)


def weighted_type1_positions(cumulative: np.ndarray, probs: np.ndarray, unit: float) -> np.ndarray:
    """Positions in the sorted positive-weight values of R's type-1 quantiles (see :func:`type1_targets`).

    ``unit`` is the smallest positive weight (one row).  The first value for
    ``p = 0``.
    """
    return _positions(cumulative, type1_targets(cumulative[-1], unit, probs))


def weighted_order_statistics(sorted_values: np.ndarray, cumulative: np.ndarray, ranks: np.ndarray) -> np.ndarray:
    """The ``rank``-th smallest values (1-based, possibly fractional ranks rounded up) of the weighted sample."""
    return sorted_values[_positions(cumulative, np.asarray(ranks, dtype=float))]


def rows_of_weight(total: float, unit: float) -> float:
    """How many rows the weight ``total`` stands for when a weight of ``unit`` is one row.

    ``unit`` is the smallest positive weight, so scaling every weight by a
    constant gives the same count, and integer weights with a weight of 1
    give their total (the rows repeated).  A count within 1e-12 (relative)
    of an integer is that integer: weights that are one constant times
    integers (all ``1 / n``, say) then count exactly as the integers do,
    whatever the rounding of each weight.
    """
    count = float(total) / float(unit)
    nearest = float(np.round(count))
    return nearest if abs(count - nearest) <= 1e-12 * count else count


def weighted_quantile_type7(sorted_values: np.ndarray, cumulative: np.ndarray, probs: np.ndarray,
                            unit: float | None = None) -> np.ndarray:
    """R's type-7 quantiles of the weighted sample (see :func:`pyale._rbase.quantile_type7`).

    ``index = 1 + (N - 1) * p`` with ``N`` the total weight; the order
    statistics at ``floor(index)`` and ``ceil(index)`` are interpolated with
    R's arithmetic.  With ``unit``, a weight of ``unit`` counts as one row:
    ``N`` is :func:`rows_of_weight` and the order statistics are read at
    ``floor(index) * unit`` and ``ceil(index) * unit`` of cumulative weight,
    so the quantiles do not change when every weight is scaled by a
    constant (``unit=1``: the plain rule).
    """
    total = cumulative[-1] if unit is None else rows_of_weight(cumulative[-1], unit)
    probs = np.clip(np.asarray(probs, dtype=float), 0.0, 1.0)
    index = 1.0 + max(total - 1.0, 0.0) * probs
    lo = np.floor(index)
    hi = np.ceil(index)
    scale = 1.0 if unit is None else float(unit)
    qs = weighted_order_statistics(sorted_values, cumulative, lo * scale).copy()
    upper = weighted_order_statistics(sorted_values, cumulative, hi * scale)
    interpolate = (index > lo) & (upper != qs)
    h = (index - lo)[interpolate]
    qs[interpolate] = (1.0 - h) * qs[interpolate] + h * upper[interpolate]
    return qs


def weighted_ecdf_at(sorted_values: np.ndarray, cumulative: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Weighted ECDF at ``points``: the weight of values ``<= t`` over the total weight."""
    position = np.searchsorted(sorted_values, np.asarray(points, dtype=float), side="right")
    below = np.where(position > 0, cumulative[np.maximum(position - 1, 0)], 0.0)
    return below / cumulative[-1]
