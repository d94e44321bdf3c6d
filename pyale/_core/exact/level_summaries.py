"""What ordering the levels of a categorical feature needs, over any engine.

ALEPlot 1.1 and iml 0.11.4 order the levels of an unordered factor by how
alike the other columns are distributed within them (see
``pyale._core.grid.levels``).  That distance needs, per other column:

* numeric (also bool, read as numbers, and date-times, read as the dense
  ranks of their ticks; infinite values count as missing, as
  ``read_covariate`` has them): its 100 type-7 quantiles over
  the whole column (the probes), and per level of the feature the number of
  present values ``<= probe`` for every probe and the number of present
  values (R's ``ecdf`` of the column within the level is their ratio);
* categorical: the (feature level x column category) frequency table of
  the rows where the column is present, with the rows per feature level.

:func:`level_order_summaries` computes them in few passes over the blocks
(one for the column checks, those of the exact order statistics for the
probes, one for the counts), with integer counts, so every engine gives the
same numbers.  A weight column turns the counts into weight sums and the
probes into weighted quantiles (:mod:`pyale._core.exact.weighted`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import pandas as pd

from ..._rbase import r_seq
from ..._rbase.exact import ExactSums, as_doubles, exact_group_sums
from ..._engines.base import Engine
from .columns import NUMBER_KINDS, covariate_kind_error, level_codes, numeric_values, time_ticks
from .quantiles import quantiles_type7_of
from .summaries import column_checks
from .weighted import smallest_positive_weight, weighted_quantiles_type7_of

__all__ = [
    "PROBE_PROBS",
    "NumericCovariateSummary",
    "CategoricalCovariateSummary",
    "LevelOrderSummary",
    "level_order_summaries",
]

#: The probabilities of the 100 probes: R's ``seq(0, 1, length.out = 100)``.
PROBE_PROBS = r_seq(0.0, 1.0, 100)


@dataclass(frozen=True, eq=False)
class NumericCovariateSummary:
    """A numeric other column.

    Attributes
    ----------
    name : object
    probes : numpy.ndarray or None
        Type-7 quantiles of the column's finite values at :data:`PROBE_PROBS`
        (``None`` when the column has no finite value).
    at_or_below : numpy.ndarray
        ``(n_levels, n_probes)``: finite values ``<= probe`` within each level
        (int64; weight sums when weighted).
    present : numpy.ndarray
        ``(n_levels,)``: finite values within each level.
    """

    name: object
    probes: np.ndarray | None
    at_or_below: np.ndarray
    present: np.ndarray

    @property
    def ecdfs(self) -> np.ndarray:
        """R's ``ecdf(level's values)(probes)`` per level (NaN for a level without values)."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return self.at_or_below / self.present[:, None]


@dataclass(frozen=True, eq=False)
class CategoricalCovariateSummary:
    """A categorical other column.

    Attributes
    ----------
    name : object
    categories : tuple
        The column's categories (see :class:`~pyale._core.exact.summaries.ColumnCheck`).
    table : numpy.ndarray
        ``(n_levels, n_categories)``: rows per (feature level, category).
    """

    name: object
    categories: tuple
    table: np.ndarray


@dataclass(frozen=True, eq=False)
class LevelOrderSummary:
    """Everything the level-ordering distance needs for one categorical feature.

    Attributes
    ----------
    feature : object
    levels : tuple
        The feature's levels that occur, in the column's level order.
    level_sizes : numpy.ndarray
        Rows per level (weight sums when weighted).
    covariates : list
        :class:`NumericCovariateSummary` / :class:`CategoricalCovariateSummary`
        per other column, in the order asked.
    """

    feature: object
    levels: tuple
    level_sizes: np.ndarray
    covariates: list


def _finite_values(series: pd.Series) -> np.ndarray:
    values = numeric_values(series)
    return np.where(np.isfinite(values), values, np.nan)


def _time_ranks(engine: Engine, feature, names) -> dict:
    """Dense ranks (NaN where missing) of date-time columns, which need the whole column.

    ``pyale._core.grid.features.read_covariate`` reads a date-time covariate as
    the dense ranks of its integer ticks (float64 cannot hold nanosecond
    counts exactly, and the distance depends only on order); ranks need
    every value at once, so only in-memory engines have them.
    """
    if names and not engine.in_memory:
        raise TypeError(
            f"Column {names[0]!r} holds date-times (dtype {engine.dtypes[names[0]]}); pyale orders the "
            f"levels of {feature!r} by the ranks of date-time columns, which need the whole column in "
            f"memory, so it cannot use it on a {engine.name}. Convert it to numbers first "
            "(e.g. days since a reference date) or leave it out of the data."
        )
    out = {}
    for name in names:
        series = engine.column(name)
        integers = time_ticks(series)
        present = ~np.asarray(series.isna())
        values = np.full(integers.shape[0], np.nan)
        values[present] = np.unique(integers[present], return_inverse=True)[1].ravel()
        out[name] = values
    return out


def _probes(engine: Engine, names, checks, weight, probe_probs, unit=None) -> dict:
    if weight is None:
        return quantiles_type7_of(engine, {n: probe_probs for n in names}, checks=checks)
    return weighted_quantiles_type7_of(engine, {n: probe_probs for n in names}, weight, checks=checks, unit=unit)


def _probes_of_ranks(engine: Engine, ranks: dict, weight, probe_probs, unit=None) -> dict:
    """Probes of in-memory rank columns, by the same functions on a frame of the ranks."""
    if not ranks:
        return {}
    from ..._engines.pandas import PandasEngine

    frame = pd.DataFrame(ranks)
    if weight is not None:
        frame["__weight__"] = numeric_values(engine.column(weight))
    return _probes(PandasEngine(frame), list(ranks), None, None if weight is None else "__weight__", probe_probs,
                   unit)


def _counts_block(block, offset, feature, levels, numeric, categorical, weight, ranks):
    """Per-level counts of one block (see :func:`level_order_summaries`)."""
    n_levels = len(levels)
    codes = level_codes(block[feature], levels)
    keep = codes >= 0
    weights = None if weight is None else numeric_values(block[weight])

    def count(index, size, where):
        if weights is not None:  # exact weight sums: the same doubles on every engine (pyale._rbase.exact)
            return exact_group_sums(index, weights[where], size)
        return np.bincount(index, minlength=size).astype(np.int64)

    out = {"sizes": count(codes[keep], n_levels, keep)}
    for name, sorted_probes in numeric:
        if name in ranks:  # in memory: the ranks of the whole column
            values = ranks[name][offset : offset + block.shape[0]]
        else:
            values = _finite_values(block[name])
        where = keep & ~np.isnan(values)
        above = np.searchsorted(sorted_probes, values[where], side="left")  # probes < value
        width = sorted_probes.shape[0] + 1
        out[("numeric", name)] = count(codes[where] * width + above, n_levels * width, where)
    for name, categories in categorical:
        other = level_codes(block[name], categories)
        where = keep & (other >= 0)
        width = len(categories)
        out[("categorical", name)] = count(codes[where] * width + other[where], n_levels * width, where)
    return out


def level_order_summaries(
    engine: Engine,
    feature,
    covariates: Sequence | None = None,
    *,
    checks: dict | None = None,
    weight=None,
    probe_probs: np.ndarray = PROBE_PROBS,
) -> LevelOrderSummary:
    """Summaries for ordering the levels of ``feature`` by similarity.

    Parameters
    ----------
    engine : Engine
    feature : label
        A categorical column (rows where it is missing are left out).
    covariates : sequence, optional
        The other columns (all but ``feature`` and ``weight`` by default).
    checks : dict, optional
        :func:`~pyale._core.exact.summaries.column_checks` already made (those
        missing are made in one pass).
    weight : label, optional
        A column of non-negative row weights: counts become weight sums and
        the probes the weighted type-7 quantiles, the smallest positive
        weight counting as one row (scaling every weight changes nothing;
        integer weights with a weight of 1 give exactly the summaries of
        the rows repeated that many times).
    probe_probs : numpy.ndarray
        Probabilities of the probes (R's 100 by default).

    Returns
    -------
    LevelOrderSummary

    Examples
    --------
    >>> from pyale._engines import PandasEngine
    >>> frame = pd.DataFrame({"f": ["a", "b", "a", "b"], "x": [1.0, 2.0, 3.0, 4.0]})
    >>> summary = level_order_summaries(PandasEngine(frame), "f", probe_probs=np.array([0.0, 0.5, 1.0]))
    >>> summary.covariates[0].probes, summary.covariates[0].at_or_below.tolist()
    (array([1. , 2.5, 4. ]), [[1, 1, 2], [0, 1, 2]])
    """
    if covariates is None:
        covariates = [c for c in engine.columns if c != feature and c != weight]
    covariates = list(covariates)
    wanted = [c for c in [feature, *covariates] if checks is None or c not in checks]
    if wanted:
        checks = {**(checks or {}), **column_checks(engine, wanted, weight=weight)}
    feature_check = checks[feature]
    if feature_check.kind != "categorical":
        raise TypeError(
            f"Column {feature!r} is {feature_check.kind} (dtype {feature_check.dtype}); "
            "only a categorical feature has levels to order."
        )
    levels = feature_check.levels
    numeric_names, categorical = [], []
    for name in covariates:
        kind = checks[name].kind
        if kind in NUMBER_KINDS:
            numeric_names.append(name)
        elif kind == "categorical":
            categorical.append((name, pd.Index(list(checks[name].categories), dtype=object)))
        else:
            raise covariate_kind_error(name, checks[name].dtype, pandas=engine.in_memory)
    ranks = _time_ranks(engine, feature, [n for n in numeric_names if checks[n].kind == "datetime"])
    if weight is None:
        with_values = [n for n in numeric_names if checks[n].n_finite > 0]
    else:
        with_values = [n for n in numeric_names if checks[n].finite_weight > 0]
    unit = None if weight is None else smallest_positive_weight(engine, weight, checks)
    probes = _probes(engine, [n for n in with_values if n not in ranks], checks, weight, probe_probs, unit)
    probes.update(_probes_of_ranks(engine, {n: r for n, r in ranks.items() if n in with_values}, weight, probe_probs,
                                   unit))
    numeric = [(n, np.unique(probes[n])) for n in with_values]
    level_index = pd.Index(list(levels), dtype=object)
    counts = engine.map_reduce(
        functools.partial(
            _counts_block,
            feature=feature,
            levels=level_index,
            numeric=numeric,
            categorical=categorical,
            weight=weight,
            ranks=ranks,
        ),
        columns=[feature, *numeric_names, *(name for name, _ in categorical)]
        + ([] if weight is None else [weight]),
    )
    n_levels = len(levels)
    zero = np.zeros if weight is not None else functools.partial(np.zeros, dtype=np.int64)
    counts = counts or {}

    def table_of(key, width):
        """Counts (int64) or exact weight sums (ExactSums) as a (level x width) table."""
        found = counts.get(key)
        if found is None:
            return zero((n_levels, width)) if weight is None else ExactSums.zeros(n_levels * width).reshape(n_levels, width)
        return found.reshape(n_levels, width)
    summaries = {}
    for name in numeric_names:
        if name not in probes:
            summaries[name] = NumericCovariateSummary(name, None, zero((n_levels, 0)), zero(n_levels))
            continue
        sorted_probes = dict(numeric)[name]
        width = sorted_probes.shape[0] + 1
        table = table_of(("numeric", name), width)
        at_or_below = as_doubles(table[:, :-1].cumsum(axis=1))  # weight sums: rounded once, every block in
        where = np.searchsorted(sorted_probes, probes[name])
        summaries[name] = NumericCovariateSummary(
            name, probes[name], at_or_below[:, where], as_doubles(table.sum(axis=1))
        )
    for name, categories in categorical:
        width = len(categories)
        summaries[name] = CategoricalCovariateSummary(name, tuple(categories), as_doubles(table_of(("categorical", name), width)))
    return LevelOrderSummary(
        feature=feature,
        levels=levels,
        level_sizes=as_doubles(table_of("sizes", 1)).reshape(n_levels),
        covariates=[summaries[name] for name in covariates],
    )
