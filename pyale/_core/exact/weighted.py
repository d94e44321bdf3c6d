"""Weighted order statistics and quantiles of a column, over any engine (issue 12).

Rows carry non-negative weights (a weight column); a row of weight 0 is
left out.  The weighted order statistic at a cumulative-weight *target*
``t`` is the smallest value of positive weight such that the values at or
below it weigh at least ``t`` (the smallest value of positive weight when
``t <= 0``).  With integer weights this is the order statistic at 1-based
position ``ceil(t)`` of the sample in which every row is repeated as many
times as its weight, so

* :func:`weighted_quantiles_type1` (targets ``W * p``, ``W`` the total
  weight of the finite values counted in rows of the smallest positive
  weight: :func:`pyale._rbase.weighted.type1_targets`) equals R's
  ``quantile(type = 1)`` of the repeated rows when a weight is 1, and does
  not change when every weight is multiplied by a constant;
* :func:`weighted_quantiles_type7_of` takes the targets ``floor`` and
  ``ceiling`` of ``1 + (W - 1) * p`` and interpolates as R's type 7 does,
  equal to R's default quantile of the repeated rows (with ``unit``, the
  smallest positive weight counting as one row: scale-free).

Exactness: every sum of weights (the total, per histogram cell, running
sums) is exact until it is rounded once to a double, by a rule that depends
on the exact value alone (:mod:`pyale._rbase.exact`), so every engine and
partitioning reaches each target at the same value, fractional weights
included.  Integer weights give the plain sums, identical to repeating rows.
"""

from __future__ import annotations

import functools

import numpy as np

from ..._rbase.exact import exact_prefix_sums
from ..._rbase.weighted import rows_of_weight, type1_targets
from ..._engines.base import Engine
from .columns import numeric_values
from .quantiles import _number_check, type7_from_order_statistics
from .selection import select_order_statistics
from .summaries import column_checks

__all__ = ["smallest_positive_weight", "weighted_order_statistics_of", "weighted_quantiles_type1",
           "weighted_quantiles_type7_of"]


def _checks(engine: Engine, columns, weight, checks):
    missing = [c for c in columns if checks is None or c not in checks or checks[c].finite_weight is None]
    if missing:
        checks = {**(checks or {}), **column_checks(engine, missing, weight=weight)}
    return checks


def smallest_positive_weight(engine: Engine, weight, checks: dict | None = None) -> float:
    """The smallest positive weight: the weight that counts as one row (type-1 targets, the level probes)."""
    smallest = checks[weight].minimum if checks is not None and weight in checks else None
    if smallest is not None and smallest > 0:
        return float(smallest)
    return float(engine.map_reduce(functools.partial(_positive_minimum, weight=weight), combine=min,
                                   columns=[weight]))


def _positive_minimum(block, offset, weight) -> float:
    weights = numeric_values(block[weight])
    positive = weights[weights > 0]
    return float(positive.min()) if positive.shape[0] else np.inf


def _in_memory(engine: Engine, column, weight, targets: np.ndarray) -> np.ndarray:
    values = numeric_values(engine.column(column))
    weights = numeric_values(engine.column(weight))
    keep = np.isfinite(values) & (weights > 0)
    order = np.argsort(values[keep], kind="stable")
    values = values[keep][order]
    reached = exact_prefix_sums(weights[keep][order])
    index = np.where(targets > 0, np.searchsorted(reached, targets, side="left"), 0)
    return values[np.minimum(index, values.shape[0] - 1)]


def weighted_order_statistics_of(
    engine: Engine, wanted: dict, weight, *, checks: dict | None = None, **tuning
) -> dict:
    """Weighted order statistics (column -> cumulative-weight targets), sharing the passes.

    Returns column -> float64 values aligned with the targets.
    """
    checks = _checks(engine, wanted, weight, checks)
    targets = {}
    for column, wanted_targets in wanted.items():
        check = checks[column]
        _number_check(check, "weighted_order_statistics")
        if not check.finite_weight > 0:
            raise ValueError(
                f"Column {column!r} has no finite value of positive weight (column {weight!r}) "
                "to take weighted quantiles of."
            )
        targets[column] = np.asarray(wanted_targets, dtype=float).ravel()
    if engine.in_memory:
        return {c: _in_memory(engine, c, weight, t) for c, t in targets.items()}
    bounds = {c: (checks[c].n_finite, checks[c].minimum, checks[c].maximum) for c in targets}
    return select_order_statistics(engine, targets, bounds, weight=weight, **tuning)


def weighted_quantiles_type1(engine: Engine, column, probs, weight, *, checks: dict | None = None) -> np.ndarray:
    """R's ``quantile(type = 1)`` of the weighted sample (rows repeated by integer weights).

    Examples
    --------
    >>> import pandas as pd
    >>> from pyale._engines import PandasEngine
    >>> frame = pd.DataFrame({"x": [3.0, 1.0, 2.0], "w": [1.0, 2.0, 0.0]})
    >>> weighted_quantiles_type1(PandasEngine(frame), "x", [0.0, 0.5, 0.7, 1.0], "w")
    array([1., 1., 3., 3.])
    """
    checks = _checks(engine, [column], weight, checks)
    targets = type1_targets(checks[column].finite_weight, smallest_positive_weight(engine, weight, checks), probs)
    return weighted_order_statistics_of(engine, {column: targets}, weight, checks=checks)[column]


def weighted_quantiles_type7_of(engine: Engine, wanted: dict, weight, *, checks: dict | None = None,
                                unit: float | None = None) -> dict:
    """R's default ``quantile`` (type 7) of weighted samples (column -> probs), sharing passes.

    With ``unit``, a weight of ``unit`` counts as one row, as in
    :func:`pyale._rbase.weighted.weighted_quantile_type7`.
    """
    checks = _checks(engine, wanted, weight, checks)
    plans, targets = {}, {}
    scale = 1.0 if unit is None else float(unit)
    for column, probs in wanted.items():
        total = checks[column].finite_weight
        if unit is not None:
            total = rows_of_weight(total, unit)
        probs = np.clip(np.asarray(probs, dtype=float), 0.0, 1.0)
        index = 1.0 + max(total - 1.0, 0.0) * probs
        lower, upper = np.floor(index), np.ceil(index)
        plans[column] = (index, lower.shape[0])
        targets[column] = np.concatenate((lower, upper)) * scale
    stats = weighted_order_statistics_of(engine, targets, weight, checks=checks)
    out = {}
    for column, (index, n) in plans.items():
        out[column] = type7_from_order_statistics(index, stats[column][:n], stats[column][n:])
    return out
