"""Where a region may be split: the conditioning columns and their candidate conditions.

As effector 0.6.0 proposes them (``proposers.ContinuousThreshold`` and
``proposers.CategoricalOneVsRest``, its defaults):

* a numeric column is cut at the interior points of ``n_positions`` equal
  segments of its range over *all* rows (``n_positions - 1`` thresholds
  ``t``), each a binary split ``x < t`` / ``x >= t``;
* a column of levels (categorical, string or bool, or a numeric column of
  integers with fewer than ``level_limit`` distinct values, which effector
  calls ordinal) is split one level against the rest: ``x == v`` /
  ``x != v`` for every level ``v`` in ascending order.

Candidates come from the whole data and never from the region being split,
so one candidate applies to every node (what the level-wise search needs).
They are listed column by column in the order given, each column's in
ascending order; ties in the search go to the first listed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import pandas.api.types as ptypes

from .._core.features import column_kind, factorize_strings

__all__ = ["Condition", "Split", "ConditioningColumn", "read_conditioning", "candidate_splits", "split_conditions",
           "unsplittable", "missing_values", "infinite_values", "numeric_levels"]


@dataclass(frozen=True)
class Condition:
    """One side of a split: ``column < threshold``, ``column >= threshold``, ``column == level`` or ``!=``."""

    column: object
    operator: str  # "<", ">=", "==", "!="
    value: object

    def text(self) -> str:
        """The condition as a reader writes it (``x3 < 0.25``, ``colour == 'red'``)."""
        value = f"{self.value:.6g}" if self.operator in ("<", ">=") else repr(self.value)
        return f"{self.column} {self.operator} {value}"

    __str__ = text

    def contains(self, X: pd.DataFrame) -> np.ndarray:
        """Which rows of a pandas frame holding the column meet the condition."""
        column = X[self.column]
        if self.operator == "<":
            return column.to_numpy(dtype=float) < self.value
        if self.operator == ">=":
            return column.to_numpy(dtype=float) >= self.value
        equal = (column == self.value).to_numpy(dtype=bool)
        return equal if self.operator == "==" else ~equal


@dataclass(frozen=True)
class Split:
    """A candidate split: its two conditions and their row masks over the whole data."""

    conditions: tuple
    masks: tuple


@dataclass(frozen=True)
class ConditioningColumn:
    """A column regions may be split on: thresholds (numeric) or levels (with each row's level code)."""

    name: object
    values: np.ndarray | None = None  # numeric: float values
    codes: np.ndarray | None = None  # levels: index into ``levels`` per row
    levels: tuple = ()

    @property
    def by_levels(self) -> bool:
        return self.codes is not None


def unsplittable(name, dtype, caller: str) -> TypeError:
    return TypeError(f"Column {name!r} of X cannot be split on in {caller}: it is neither numeric nor "
                     f"categorical (dtype {dtype}). Leave it out of 'conditioning'.")


def missing_values(name, missing: int, caller: str) -> ValueError:
    return ValueError(f"Column {name!r} of X (a candidate for splitting in {caller}) has {missing} missing "
                      "value(s); regions need every row's value. Fill them, or leave the column out of 'conditioning'.")


def infinite_values(name, caller: str) -> ValueError:
    return ValueError(f"Column {name!r} of X (a candidate for splitting in {caller}) has infinite values; regions "
                      "need finite values.")


def numeric_levels(distinct: np.ndarray, dtype, level_limit: int) -> tuple | None:
    """The levels of a numeric column split by levels (integers, fewer than ``level_limit``), else None."""
    if distinct.size < level_limit and np.all(np.mod(distinct, 1) == 0):
        return tuple(int(v) if ptypes.is_integer_dtype(dtype) else float(v) for v in distinct)
    return None


def _refuse_missing(series: pd.Series, caller: str) -> None:
    missing = int(series.isna().sum())
    if missing:
        raise missing_values(series.name, missing, caller)


def read_conditioning(series: pd.Series, *, level_limit: int, caller: str) -> ConditioningColumn:
    """How a column is split (see the module docstring), refusing what cannot be split on."""
    kind = column_kind(series)
    if kind in ("datetime", "other"):
        raise unsplittable(series.name, series.dtype, caller)
    _refuse_missing(series, caller)
    if kind == "numeric":
        values = series.to_numpy(dtype=float)
        if not np.isfinite(values).all():
            raise infinite_values(series.name, caller)
        distinct = np.unique(values)
        levels = numeric_levels(distinct, series.dtype, level_limit)
        if levels is not None:
            return ConditioningColumn(series.name, values=values, codes=np.searchsorted(distinct, values),
                                      levels=levels)
        return ConditioningColumn(series.name, values=values)
    if kind == "bool":
        values = series.to_numpy(dtype=bool)
        present = np.unique(values)
        return ConditioningColumn(series.name, codes=np.searchsorted(present, values),
                                  levels=tuple(bool(v) for v in present))
    if isinstance(series.dtype, pd.CategoricalDtype):
        cat = series.array
        used = np.flatnonzero(np.bincount(cat.codes, minlength=len(cat.categories)))
        remap = np.full(len(cat.categories), -1, dtype=np.int64)
        remap[used] = np.arange(used.shape[0])
        return ConditioningColumn(series.name, codes=remap[np.asarray(cat.codes)],
                                  levels=tuple(cat.categories[used].tolist()))
    codes, levels = factorize_strings(series)
    return ConditioningColumn(series.name, codes=np.asarray(codes), levels=tuple(levels))


def split_conditions(name, *, levels: tuple = (), low: float | None = None, high: float | None = None,
                     n_positions: int = 20) -> list[tuple]:
    """The candidate splits of one column as pairs of conditions: one per level, or per inner threshold."""
    if levels:
        return [(Condition(name, "==", level), Condition(name, "!=", level)) for level in levels]
    thresholds = np.linspace(low, high, n_positions + 1)[1:-1]
    return [(Condition(name, "<", float(t)), Condition(name, ">=", float(t))) for t in thresholds]


def candidate_splits(column: ConditioningColumn, n_positions: int) -> list[Split]:
    """The candidate splits of one column, in ascending order."""
    if column.by_levels:
        out = []
        for code, level in enumerate(column.levels):
            inside = column.codes == code
            out.append(Split((Condition(column.name, "==", level), Condition(column.name, "!=", level)),
                             (inside, ~inside)))
        return out
    values = column.values
    thresholds = np.linspace(values.min(), values.max(), n_positions + 1)[1:-1]
    out = []
    for t in thresholds:
        below = values < t
        out.append(Split((Condition(column.name, "<", float(t)), Condition(column.name, ">=", float(t))),
                         (below, ~below)))
    return out
