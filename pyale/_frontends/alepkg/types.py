"""Variable types and numeric bins as R's ``ale`` 0.5.0 decides them.

``ale_var_type`` mirrors ``ale:::var_type`` and ``numeric_bins`` the numeric
part of ``ale:::prep_var_for_ale`` (ceilings, the minimum's own bin, the
counts).  Categorical level order is ALEPlot's and lives in ``pyale._core``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from pandas.api import types as ptypes

from ..._core.grid.edges import every_value_is_an_edge
from ..._rbase import bin_right_closed, quantile_type1, r_seq

__all__ = ["ale_var_type", "binary_levels", "NumericBins", "numeric_bins"]

VAR_TYPES = ("binary", "numeric", "categorical", "ordinal")


def _distinct_present(column: pd.Series) -> int:
    values = column.dropna()
    if isinstance(column.dtype, pd.CategoricalDtype):
        return int(np.unique(values.cat.codes.to_numpy()).size)
    return int(values.nunique())


def ale_var_type(column: pd.Series) -> str:
    """The type ``ale`` gives a column: "binary", "numeric", "categorical" or "ordinal".

    Mirrors ``ale:::var_type`` on the column after R's ``droplevels``: a boolean
    column is binary; any column with exactly two distinct non-missing values is
    binary; other numbers (integers, floats, dates) are numeric; an unordered
    ``Categorical`` or strings are categorical; an ordered ``Categorical`` is
    ordinal.

    Parameters
    ----------
    column : pandas.Series

    Returns
    -------
    str

    Raises
    ------
    TypeError
        For a dtype ``ale`` has no type for (complex numbers, mixed objects).

    Examples
    --------
    >>> ale_var_type(pd.Series([0.0, 1.0, 1.0]))
    'binary'
    >>> ale_var_type(pd.Series([1, 2, 3]))
    'numeric'
    """
    dtype = column.dtype
    if ptypes.is_bool_dtype(dtype):
        return "binary"
    if _distinct_present(column) == 2:
        return "binary"
    if isinstance(dtype, pd.CategoricalDtype):
        return "ordinal" if dtype.ordered else "categorical"
    if ptypes.is_complex_dtype(dtype):
        raise TypeError(f"Column {column.name!r} has dtype {dtype}, which ale does not handle.")
    if ptypes.is_numeric_dtype(dtype) or ptypes.is_datetime64_any_dtype(dtype):
        return "numeric"
    if ptypes.is_string_dtype(dtype) or ptypes.is_object_dtype(dtype):
        values = column.dropna()
        if all(isinstance(v, str) for v in values):
            return "categorical"
    raise TypeError(
        f"Column {column.name!r} has dtype {dtype}, which ale does not handle "
        "(numbers, booleans, strings and Categorical only)."
    )


def binary_levels(column: pd.Series) -> list:
    """The two values of a binary column in ``ale``'s order (``sort(unique(x))``).

    Numbers ascending, False before True, a ``Categorical`` in category order,
    strings by code point.  R sorts strings in the session's collation locale
    (in R 4.2.2's ``C.UTF-8``, ``"a" < "A" < "b"``), so for mixed-case strings
    R may take the other order; use a ``Categorical`` to fix it.
    """
    values = column.dropna()
    if isinstance(column.dtype, pd.CategoricalDtype):
        present = set(values.cat.codes.tolist())
        return [c for i, c in enumerate(column.dtype.categories) if i in present]
    return sorted(pd.unique(values).tolist())


@dataclass(frozen=True, eq=False)
class NumericBins:
    """``ale``'s bins of one numeric feature.

    Attributes
    ----------
    ceilings : numpy.ndarray
        m distinct values: the minimum, then R's type-1 quantiles at
        ``seq(1/(B-1), 1, length.out = B-1)`` (ALEPlot's edges with K = B - 1).
    bin_of_row : numpy.ndarray
        0-based bin of each row: 0 for the rows at the minimum, k for
        ``ceilings[k-1] < x <= ceilings[k]``.
    counts : numpy.ndarray
        Rows per bin (``.n``): the minimum's rows first.
    interval_counts : numpy.ndarray
        m - 1 counts of ``cut(x, ceilings, include.lowest = TRUE)``: the minimum's
        rows merged into the first interval (used for centring and statistics).
    """

    ceilings: np.ndarray
    bin_of_row: np.ndarray
    counts: np.ndarray
    interval_counts: np.ndarray


def numeric_bins(x: np.ndarray, max_num_bins: int) -> NumericBins:
    """Ceilings, row bins and counts of a numeric feature, as ``ale`` 0.5.0 makes them.

    Parameters
    ----------
    x : numpy.ndarray
        The feature's finite values.
    max_num_bins : int
        ``ALE()``'s ``max_num_bins`` (B >= 2).

    Returns
    -------
    NumericBins

    Examples
    --------
    >>> b = numeric_bins(np.array([1.0, 1.0, 2.0, 3.0, 4.0]), 3)
    >>> b.ceilings.tolist(), b.counts.tolist(), b.interval_counts.tolist()
    ([1.0, 2.0, 4.0], [2, 1, 2], [3, 2])
    """
    x = np.asarray(x, dtype=float)
    k = int(max_num_bins) - 1
    if every_value_is_an_edge(x.shape[0], k, "aleplot"):  # ALEPlot's probabilities: nothing of size k
        ceilings = np.unique(x)
    else:
        probs = r_seq(1.0 / k, 1.0, k)
        edges = np.concatenate(([x.min()], quantile_type1(x, probs)))
        ceilings = edges[np.concatenate(([True], np.diff(edges) != 0))]  # unique() of a sorted vector
    m = ceilings.shape[0]
    if m == 1:
        bin_of_row = np.zeros(x.shape[0], dtype=np.int64)
        return NumericBins(ceilings, bin_of_row, np.array([x.shape[0]]), np.zeros(0, dtype=np.int64))
    interval = bin_right_closed(x, ceilings)  # 0-based interval, the minimum in the first
    bin_of_row = np.where(x == ceilings[0], 0, interval + 1)
    counts = np.bincount(bin_of_row, minlength=m)
    interval_counts = np.bincount(interval, minlength=m - 1)
    return NumericBins(ceilings, bin_of_row.astype(np.int64), counts, interval_counts)
