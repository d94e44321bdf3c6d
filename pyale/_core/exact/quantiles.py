"""Exact order statistics and R's type-1 and type-7 quantiles of a column, over any engine.

The sample is a column's finite values (missing values never count; the
infinite ones only with ``include_infinite=True``).  In-memory engines
select with :func:`pyale._rbase.order_statistics` on the whole column; the
others by histogram refinement over their blocks
(:mod:`pyale._core.exact.selection`).  Both give ``np.sort(x)[positions]``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd  # noqa: F401  (used by the examples)

from ..._rbase import order_statistics as in_memory_order_statistics
from ..._rbase import quantile_type1_positions
from ..._engines.base import Engine
from .columns import NUMBER_KINDS, numeric_values
from .selection import select_order_statistics
from .summaries import ColumnCheck, column_checks

__all__ = [
    "order_statistics",
    "order_statistics_of",
    "quantiles_type1",
    "quantiles_type7",
    "quantiles_type7_of",
    "type7_positions",
    "type7_from_order_statistics",
]


def _number_check(check: ColumnCheck, caller: str) -> None:
    if check.kind not in NUMBER_KINDS:
        raise TypeError(
            f"{caller} needs a numeric column; column {check.name!r} is {check.kind} "
            f"(dtype {check.dtype})."
        )


def order_statistics(
    engine: Engine,
    column,
    positions,
    *,
    checks: dict | None = None,
    include_infinite: bool = False,
    **tuning,
) -> np.ndarray:
    """``np.sort(values)[positions]`` for a column of any engine, exactly.

    ``values`` are the column's finite values (``include_infinite=True``
    keeps -inf and inf, which sort first and last); missing values never
    count.

    Parameters
    ----------
    engine : Engine
    column : label
        A numeric, bool or datetime column.
    positions : array-like of int
        0-based positions in the sorted values.
    checks : dict, optional
        :func:`column_checks` already made for ``column`` (saves a pass).
    include_infinite : bool, default False

    Returns
    -------
    numpy.ndarray
        float64 values.

    Examples
    --------
    >>> from pyale._engines import PandasEngine
    >>> frame = pd.DataFrame({"x": [3.0, np.nan, 1.0, 2.0, 2.0]})
    >>> order_statistics(PandasEngine(frame), "x", [0, 3])
    array([1., 3.])
    """
    return order_statistics_of(
        engine, {column: positions}, checks=checks, include_infinite=include_infinite, **tuning
    )[column]


def order_statistics_of(
    engine: Engine,
    wanted: dict,
    *,
    checks: dict | None = None,
    include_infinite: bool = False,
    **tuning,
) -> dict:
    """:func:`order_statistics` of several columns, sharing the passes over the data.

    ``wanted`` maps column -> positions; returns column -> values.
    """
    missing = [c for c in wanted if checks is None or c not in checks]
    if missing:
        checks = {**(checks or {}), **column_checks(engine, missing)}
    finite_positions = {}
    result = {}
    for column, positions in wanted.items():
        check = checks[column]
        _number_check(check, "order_statistics")
        positions = np.asarray(positions, dtype=np.int64).ravel()
        below, n = (check.n_negative_infinite, check.n_finite) if include_infinite else (0, check.n_finite)
        total = n + (check.n_infinite if include_infinite else 0)
        if positions.shape[0] and (positions.min() < 0 or positions.max() >= total):
            raise ValueError(
                f"Order statistics of column {column!r} must be at positions 0 to {total - 1} "
                f"(it has {total} values). Got {positions.tolist()!r} instead."
            )
        out = np.empty(positions.shape[0])
        out[positions < below] = -np.inf
        out[positions >= below + n] = np.inf
        inside = (positions >= below) & (positions < below + n)
        result[column] = (out, inside)
        finite_positions[column] = positions[inside] - below
    if engine.in_memory:
        found = {
            column: _in_memory(engine, column, positions)
            for column, positions in finite_positions.items()
        }
    else:
        bounds = {c: (checks[c].n_finite, checks[c].minimum, checks[c].maximum) for c in wanted}
        found = select_order_statistics(engine, finite_positions, bounds, **tuning)
    for column, (out, inside) in result.items():
        out[inside] = found[column]
    return {column: out for column, (out, _) in result.items()}


def _in_memory(engine: Engine, column, positions: np.ndarray) -> np.ndarray:
    if positions.shape[0] == 0:
        return np.empty(0)
    values = numeric_values(engine.column(column))
    return in_memory_order_statistics(values[np.isfinite(values)], positions)


def quantiles_type1(engine: Engine, column, probs, *, checks: dict | None = None) -> np.ndarray:
    """R's ``quantile(x, probs, type = 1)`` of a column's finite values, exactly.

    See :func:`pyale._rbase.quantile_type1` for R's rule.
    """
    checks = checks if checks is not None and column in checks else column_checks(engine, [column])
    n = checks[column].n_finite
    if n == 0:
        raise ValueError(f"Column {column!r} has no finite value to take quantiles of.")
    return order_statistics(engine, column, quantile_type1_positions(n, probs), checks=checks)


def type7_positions(n: int, probs) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """0-based positions of the order statistics below and above each type-7 quantile, and the index.

    R 4.2: ``index = 1 + (n - 1) * p``, ``lo = floor(index)``, ``hi = ceiling(index)``.
    """
    probs = np.clip(np.asarray(probs, dtype=float), 0.0, 1.0)
    index = 1.0 + max(n - 1, 0) * probs
    return np.floor(index).astype(np.int64) - 1, np.ceil(index).astype(np.int64) - 1, index


def type7_from_order_statistics(index: np.ndarray, lower: np.ndarray, upper: np.ndarray) -> np.ndarray:
    """R's type-7 interpolation between the two order statistics, with R's arithmetic.

    The same expression as :func:`pyale._rbase.quantile_type7`, so the doubles agree.
    """
    lo = np.floor(index)
    qs = np.array(lower, dtype=float, copy=True)
    upper = np.asarray(upper, dtype=float)
    interpolate = (index > lo) & (upper != qs)
    h = (index - lo)[interpolate]
    qs[interpolate] = (1.0 - h) * qs[interpolate] + h * upper[interpolate]
    return qs


def quantiles_type7(engine: Engine, column, probs, *, checks: dict | None = None) -> np.ndarray:
    """R's default ``quantile(x, probs)`` (type 7) of a column's finite values, exactly.

    Examples
    --------
    >>> from pyale._engines import PandasEngine
    >>> quantiles_type7(PandasEngine(pd.DataFrame({"x": [1.0, 2.0, 4.0]})), "x", [0.25, 0.75])
    array([1.5, 3. ])
    """
    return quantiles_type7_of(engine, {column: probs}, checks=checks)[column]


def quantiles_type7_of(engine: Engine, wanted: dict, *, checks: dict | None = None) -> dict:
    """:func:`quantiles_type7` of several columns (column -> probs), sharing passes."""
    missing = [c for c in wanted if checks is None or c not in checks]
    if missing:
        checks = {**(checks or {}), **column_checks(engine, missing)}
    plans = {}
    for column, probs in wanted.items():
        n = checks[column].n_finite
        if n == 0:
            raise ValueError(f"Column {column!r} has no finite value to take quantiles of.")
        lower, upper, index = type7_positions(n, probs)
        plans[column] = (lower, upper, index)
    stats = order_statistics_of(
        engine, {c: np.concatenate(p[:2]) for c, p in plans.items()}, checks=checks
    )
    out = {}
    for column, (lower, upper, index) in plans.items():
        values = stats[column]
        out[column] = type7_from_order_statistics(index, values[: lower.shape[0]], values[lower.shape[0] :])
    return out
