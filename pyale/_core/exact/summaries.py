"""Exact global summaries of data that live in blocks, over any engine.

Everything here is built on :meth:`Engine.map_reduce` alone, so it gives
the same numbers on pandas, Dask, Spark and polars lazy frames; in-memory engines take faster
paths through :mod:`pyale._rbase` where one exists (identical results).

* :func:`column_checks` (here): per column, in one pass over all requested
  columns, the counts of missing and infinite values with the global
  position of the first of each, the minimum and maximum of the finite
  values, and for a categorical column the levels with their counts;
* :func:`~pyale._core.exact.quantiles.order_statistics`,
  :func:`~pyale._core.exact.quantiles.quantiles_type1`,
  :func:`~pyale._core.exact.quantiles.quantiles_type7`: exact order statistics
  (:mod:`pyale._core.exact.selection`), never approximate quantiles;
* :func:`~pyale._core.exact.level_summaries.level_order_summaries`: what
  ordering the levels of a categorical feature needs.

Counts become weight sums when a weight column is named.  Weight sums are
exact until they are rounded once to doubles (:mod:`pyale._rbase.exact`),
so they do not depend on the engine or its partitions.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace
from typing import Sequence

import numpy as np
import pandas as pd

from ..._rbase.exact import as_doubles, exact_group_sums, exact_total
from ..._engines.base import Engine
from .columns import NUMBER_KINDS, dtype_kind, factorize, numeric_values

__all__ = ["ColumnCheck", "column_checks"]


@dataclass(frozen=True, eq=False)
class ColumnCheck:
    """What one pass over the data says about one column.

    Attributes
    ----------
    name : object
        Column label.
    kind : str
        'numeric', 'bool', 'datetime', 'categorical' or 'other'
        (see :mod:`pyale._core.exact.columns`).
    dtype : object
        The column's pandas dtype as the engine reports it.
    n_rows, n_missing : int
        Rows, and rows with a missing value (NaN, None, NaT, pd.NA).
    first_missing : int or None
        Global 0-based position of the first missing value.
    n_finite : int
        Non-missing finite values (numbers-like kinds; 0 otherwise).
    n_negative_infinite, n_positive_infinite : int
        Values -inf and +inf.
    first_infinite : int or None
        Global position of the first infinite value.
    first_infinite_value : float or None
        That value (-inf or inf).
    minimum, maximum : float or None
        Of the finite values (None when there is none).
    categories : tuple or None
        Categorical kind: a pandas Categorical's categories in their order
        (all of them, used or not); the distinct strings of a string column
        in code-point order (R's ``factor()`` in the C locale).
    category_counts : numpy.ndarray or None
        Rows per category (int64).
    ordered : bool
        Whether the column is an ordered Categorical.
    finite_weight : float or None
        Sum of the weights of the finite values (weighted checks only).
    category_weights : numpy.ndarray or None
        Sum of the weights per category (weighted checks only).
    integer_blocks : bool
        Whether every block that holds rows carried the column with an
        integer dtype (Dask metadata may say int64 while a partition holds
        floats, which ``ddf.compute()`` makes float64, or float64 over integer
        partitions, which it makes int64).
    ordered_conflict : str
        For an ordered Categorical whose blocks list different categories:
        why no order of all its levels follows from them (empty otherwise).
        ``categories`` are then united in block order, so that every block
        can carry one dtype, but the column cannot be a feature.
    """

    name: object
    kind: str
    dtype: object
    n_rows: int
    n_missing: int
    first_missing: int | None
    n_finite: int = 0
    n_negative_infinite: int = 0
    n_positive_infinite: int = 0
    first_infinite: int | None = None
    first_infinite_value: float | None = None
    minimum: float | None = None
    maximum: float | None = None
    categories: tuple | None = None
    category_counts: np.ndarray | None = None
    ordered: bool = False
    finite_weight: float | None = None
    category_weights: np.ndarray | None = None
    integer_blocks: bool = True
    ordered_conflict: str = ""

    @property
    def n_infinite(self) -> int:
        return self.n_negative_infinite + self.n_positive_infinite

    @property
    def integer(self) -> bool:
        """Whether the column is an integer column, as ``compute()`` would type it: every block that held rows
        carried an integer dtype (the declared dtype where no block held rows)."""
        return self.integer_blocks if self.n_rows else pd.api.types.is_integer_dtype(self.dtype)

    @property
    def levels(self) -> tuple:
        """The categories that occur, in category order (R's ``droplevels``)."""
        if self.categories is None:
            return ()
        return tuple(c for c, n in zip(self.categories, self.category_counts) if n > 0)

    @property
    def level_counts(self) -> np.ndarray:
        """Rows per level of :attr:`levels`."""
        if self.category_counts is None:
            return np.zeros(0, dtype=np.int64)
        return self.category_counts[self.category_counts > 0]

    @property
    def level_weights(self) -> np.ndarray | None:
        """Weight per level of :attr:`levels` (weighted checks only)."""
        if self.category_weights is None:
            return None
        return self.category_weights[self.category_counts > 0]

    @property
    def categorical_dtype(self) -> pd.CategoricalDtype | None:
        """The full dtype of the categories (categorical kind only)."""
        if self.categories is None:
            return None
        return pd.CategoricalDtype(pd.Index(list(self.categories)), ordered=self.ordered)


def _first(a, b):
    """The earlier of two ``(position, value)`` pairs, ``None`` being none."""
    if a is None:
        return b
    if b is None:
        return a
    return a if a[0] <= b[0] else b


@dataclass
class _Tally:
    """One column's additive partial check (one block, or several added)."""

    kind: str | None  # None: an object column whose kind is not yet decided
    n_rows: int = 0
    n_missing: int = 0
    first_missing: tuple | None = None
    n_finite: int = 0
    n_negative_infinite: int = 0
    n_positive_infinite: int = 0
    first_infinite: tuple | None = None
    minimum: float = np.inf
    maximum: float = -np.inf
    finite_weight: float = 0.0
    all_strings: bool = True
    categories: dict = field(default_factory=dict)  # offset -> categories of a Categorical block
    counts: dict = field(default_factory=dict)  # level -> rows
    weights: dict = field(default_factory=dict)  # level -> weight
    integer_blocks: bool = True  # every block with rows had an integer dtype

    def __add__(self, other: "_Tally") -> "_Tally":
        categories = dict(self.categories)
        for offset, cats in other.categories.items():
            categories[offset] = cats
        return _Tally(
            kind=self.kind if self.kind == other.kind else "other",
            n_rows=self.n_rows + other.n_rows,
            n_missing=self.n_missing + other.n_missing,
            first_missing=_first(self.first_missing, other.first_missing),
            n_finite=self.n_finite + other.n_finite,
            n_negative_infinite=self.n_negative_infinite + other.n_negative_infinite,
            n_positive_infinite=self.n_positive_infinite + other.n_positive_infinite,
            first_infinite=_first(self.first_infinite, other.first_infinite),
            minimum=min(self.minimum, other.minimum),
            maximum=max(self.maximum, other.maximum),
            finite_weight=self.finite_weight + other.finite_weight,
            all_strings=self.all_strings and other.all_strings,
            categories=categories,
            counts=_add_dicts(self.counts, other.counts),
            weights=_add_dicts(self.weights, other.weights),
            integer_blocks=self.integer_blocks and other.integer_blocks,
        )


def _add_dicts(a: dict, b: dict) -> dict:
    if not b:
        return a
    if not a:
        return b
    out = dict(a)
    for key, value in b.items():
        out[key] = out.get(key, 0) + value
    return out


def _tally_numbers(tally: _Tally, series: pd.Series, offset: int, weights) -> None:
    values = numeric_values(series)
    finite = np.isfinite(values)
    if finite.all():
        tally.n_finite = values.shape[0]
        if values.shape[0]:
            tally.minimum, tally.maximum = float(values.min()), float(values.max())
        if weights is not None:
            tally.finite_weight = exact_total(weights)
        return
    missing = np.isnan(values)
    tally.n_missing = int(missing.sum())
    if tally.n_missing:
        tally.first_missing = (offset + int(np.argmax(missing)), None)
    infinite = ~finite & ~missing
    if infinite.any():
        first = int(np.argmax(infinite))
        tally.first_infinite = (offset + first, float(values[first]))
        positive = int((values[infinite] > 0).sum())
        tally.n_positive_infinite = positive
        tally.n_negative_infinite = int(infinite.sum()) - positive
    tally.n_finite = int(finite.sum())
    if tally.n_finite:
        kept = values[finite]
        tally.minimum, tally.maximum = float(kept.min()), float(kept.max())
        if weights is not None:
            tally.finite_weight = exact_total(weights[finite])


def _tally_levels(tally: _Tally, series: pd.Series, offset: int, weights) -> None:
    missing = series.isna().to_numpy()
    tally.n_missing = int(missing.sum())
    if tally.n_missing:
        tally.first_missing = (offset + int(np.argmax(missing)), None)
    if isinstance(series.dtype, pd.CategoricalDtype):
        categories = tuple(series.dtype.categories.tolist())
        if series.shape[0]:  # concatenating partitions skips empty ones (and their categories)
            tally.categories = {offset: categories}
        codes = np.asarray(series.array.codes, dtype=np.int64)
        present = codes >= 0
        counts = np.bincount(codes[present], minlength=len(categories))
        tally.counts = {c: int(n) for c, n in zip(categories, counts) if n}
        if weights is not None:
            sums = exact_group_sums(codes[present], weights[present], len(categories))
            tally.weights = {c: sums[i] for i, (c, n) in enumerate(zip(categories, counts)) if n}
        return
    if tally.kind is None and pd.api.types.infer_dtype(series, skipna=True) not in ("string", "empty"):
        tally.all_strings = False
        return
    codes, uniques = factorize(series)
    present = codes >= 0
    counts = np.bincount(codes[present], minlength=len(uniques))
    tally.counts = dict(zip(uniques, counts.tolist()))
    if weights is not None:
        sums = exact_group_sums(codes[present], weights[present], len(uniques))
        tally.weights = {u: sums[i] for i, u in enumerate(uniques)}


def _checks_block(block: pd.DataFrame, offset: int, columns, weight):
    weights = None if weight is None else numeric_values(block[weight])
    out = {}
    for column in columns:
        series = block[column]
        kind = dtype_kind(series.dtype)
        tally = _Tally(kind=kind, n_rows=series.shape[0])
        if series.shape[0] and not pd.api.types.is_integer_dtype(series.dtype):
            tally.integer_blocks = False
        if kind in NUMBER_KINDS:
            _tally_numbers(tally, series, offset, weights)
        elif kind in ("categorical", None):
            _tally_levels(tally, series, offset, weights)
        else:
            missing = series.isna().to_numpy()
            tally.n_missing = int(missing.sum())
            if tally.n_missing:
                tally.first_missing = (offset + int(np.argmax(missing)), None)
        out[column] = tally
    return out


def _finish(name, dtype, tally: _Tally | None, weighted: bool) -> ColumnCheck:
    if tally is None:
        tally = _Tally(kind=dtype_kind(dtype))
    kind = tally.kind
    if kind is None:
        kind = "categorical" if tally.all_strings else "other"
    check = ColumnCheck(
        name=name,
        kind=kind,
        dtype=dtype,
        n_rows=tally.n_rows,
        n_missing=tally.n_missing,
        first_missing=None if tally.first_missing is None else tally.first_missing[0],
        integer_blocks=tally.integer_blocks,
    )
    if kind in NUMBER_KINDS:
        first = tally.first_infinite
        return replace(
            check,
            n_finite=tally.n_finite,
            n_negative_infinite=tally.n_negative_infinite,
            n_positive_infinite=tally.n_positive_infinite,
            first_infinite=None if first is None else first[0],
            first_infinite_value=None if first is None else first[1],
            minimum=tally.minimum if tally.n_finite else None,
            maximum=tally.maximum if tally.n_finite else None,
            finite_weight=float(as_doubles(tally.finite_weight)) if weighted else None,
        )
    if kind != "categorical":
        return check
    ordered = bool(getattr(dtype, "ordered", False))
    conflict = ""
    if isinstance(dtype, pd.CategoricalDtype):
        categories, conflict = _categories_in_order(dtype, tally, name)
    else:
        categories = tuple(sorted(tally.counts))  # Python str order: code points
    counts = np.array([tally.counts.get(c, 0) for c in categories], dtype=np.int64)
    weights = None
    if weighted:
        weights = np.array([float(as_doubles(tally.weights.get(c, 0.0))) for c in categories], dtype=float)
    return replace(
        check, categories=categories, category_counts=counts, ordered=ordered, category_weights=weights,
        ordered_conflict=conflict,
    )


def _categories_in_order(dtype: pd.CategoricalDtype, tally: _Tally, name=None) -> tuple[tuple, str]:
    """Known categories as the dtype has them; unknown ones (Dask) united in block order; and, for ordered
    categories that differ between blocks, why the column cannot be a feature (empty otherwise).

    The union is the one ``ddf.compute()`` makes: categories of non-empty
    partitions in partition order, each new one appended where first seen.
    It is used too when a block holds categories its declared dtype lacks
    (Dask metadata that does not match the partitions): ``compute()`` unites
    them, and so must pyale rather than drop those rows.  Ordered categories
    that differ between blocks have no such union (their order would be
    made up), so such a column is refused as a feature, as ``compute()``
    refuses it; as another column of X it is only cast to the union, so that
    the model sees one dtype in every block.
    """
    if not _unknown_categories(dtype):
        known = tuple(dtype.categories.tolist())
        declared = set(known)
        if all(c in declared for cats in tally.categories.values() for c in cats):
            return known, ""
    conflict = ""
    if dtype.ordered and len(set(tally.categories.values())) > 1:
        shown = {}
        for offset in sorted(tally.categories):
            shown.setdefault(tally.categories[offset], offset)
        (first, at_first), (other, at_other) = list(shown.items())[:2]
        conflict = (
            f"Column {name!r} is an ordered Categorical whose partitions list different categories "
            f"({list(first)!r} in the partition from row position {at_first}, {list(other)!r} in the one from "
            f"row position {at_other}): no order of all its levels follows from them (ddf.compute() refuses "
            "them too). Give every partition the same ordered categories first (e.g. "
            f"ddf[{name!r}].cat.set_categories([...], ordered=True))."
        )
    seen: dict = {}
    for offset in sorted(tally.categories):
        for category in tally.categories[offset]:
            seen.setdefault(category, None)
    return tuple(seen), conflict


def _unknown_categories(dtype: pd.CategoricalDtype) -> bool:
    """Dask marks categories it has not computed with a placeholder."""
    categories = dtype.categories
    return categories is None or "__UNKNOWN_CATEGORIES__" in set(map(str, categories))


def column_checks(
    engine: Engine, columns: Sequence | None = None, *, weight=None
) -> dict:
    """Check columns in one pass over the data.

    Parameters
    ----------
    engine : Engine
        Where the rows live.
    columns : sequence, optional
        Column labels (all columns by default).
    weight : label, optional
        A column of non-negative row weights (validated by the caller).

    Returns
    -------
    dict
        Column label -> :class:`ColumnCheck`, in the order asked.

    Examples
    --------
    >>> from pyale._engines import PandasEngine
    >>> frame = pd.DataFrame({"x": [2.0, np.nan, -np.inf, 1.0], "s": ["b", "a", None, "b"]})
    >>> checks = column_checks(PandasEngine(frame))
    >>> checks["x"].n_missing, checks["x"].first_infinite, checks["x"].minimum
    (1, 2, 1.0)
    >>> checks["s"].levels, checks["s"].level_counts.tolist()
    (('a', 'b'), [1, 2])
    """
    columns = list(engine.columns if columns is None else columns)
    result = engine.map_reduce(
        functools.partial(_checks_block, columns=columns, weight=weight),
        columns=columns if weight is None else [*columns, weight],
    )
    result = result or {}
    return {
        column: _finish(column, engine.dtypes[column], result.get(column), weight is not None)
        for column in columns
    }
