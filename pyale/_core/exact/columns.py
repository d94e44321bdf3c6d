"""Reading one column of one block: its kind, its numbers, its level codes.

The summaries of :mod:`pyale._core.exact.summaries` see a column one block at
a time, so everything here works on a block's pandas Series and never needs
the rest of the column.  The rules are those the estimator core applies to a
whole pandas column (``pyale._core.grid.features``):

* a column is *numeric* (integer or floating dtypes), *bool*, *datetime*
  (dates and durations), *categorical* (a pandas ``Categorical``, a string
  dtype, or an ``object`` column whose present values are all ``str``) or
  *other* (datetime includes timedeltas and periods);
* numeric, bool and datetime columns are read as float64 with NaN for a
  missing value (datetimes by their integer ticks: only their order matters);
* categorical values are mapped to 0-based codes into a list of levels,
  -1 for a missing value or a value not in the list.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from pandas.api import types as ptypes

__all__ = ["NUMBER_KINDS", "dtype_kind", "block_kind", "numeric_values", "level_codes", "factorize",
           "covariate_kind_error"]

#: Kinds whose values are read as numbers.
NUMBER_KINDS = ("numeric", "bool", "datetime")


def covariate_kind_error(name, dtype, content: str = "", *, pandas: bool = True) -> TypeError:
    """The error for a column the categorical level ordering cannot use (in memory and on every engine).

    ``content`` says what an ``object`` column holds (``"; it holds bool values"``), where known;
    ``pandas``: whether the frame is pandas, whose conversions the advice then names.
    """
    how = "e.g. pd.to_datetime, pd.to_numeric or .astype(str)" if pandas else (
        "cast it to numbers, date-times or strings where the frame lives")
    return TypeError(
        f"Column {name!r} has dtype {dtype}; the categorical level ordering can use numeric, boolean, "
        f"date-time, categorical or string columns only{content}. Convert it first ({how}), or leave it out of X."
    )


def dtype_kind(dtype) -> str | None:
    """The kind a dtype implies, or ``None`` for ``object`` (decided by the values).

    Examples
    --------
    >>> dtype_kind(np.dtype("int32")), dtype_kind(pd.CategoricalDtype(["a"])), dtype_kind(np.dtype("O"))
    ('numeric', 'categorical', None)
    """
    if isinstance(dtype, pd.CategoricalDtype):
        return "categorical"
    if ptypes.is_bool_dtype(dtype):
        return "bool"
    if is_time_dtype(dtype):
        return "datetime"
    if ptypes.is_complex_dtype(dtype):
        return "other"
    if ptypes.is_numeric_dtype(dtype):
        return "numeric"
    if ptypes.is_object_dtype(dtype):
        return None
    if ptypes.is_string_dtype(dtype):
        return "categorical"
    return "other"


def is_time_dtype(dtype) -> bool:
    """Whether ``dtype`` holds date-times, dates, time spans or periods (NumPy, pandas or Arrow-backed)."""
    return (
        ptypes.is_datetime64_any_dtype(dtype)
        or ptypes.is_timedelta64_dtype(dtype)
        or isinstance(dtype, pd.PeriodDtype)
        or isinstance(dtype, pd.ArrowDtype) and dtype.kind in "mM"  # Arrow timestamp, date32/64, duration
    )


def time_ticks(series: pd.Series) -> np.ndarray:
    """int64 ticks of a date-time column, in its order (the value at a missing entry is arbitrary).

    A datetime64 or timedelta64 column gives its ``asi8`` (instants in UTC for
    tz-aware columns), a period column its ordinals, an Arrow timestamp, date
    or duration column its stored integers (UTC instants, days or
    milliseconds since the epoch, spans in its unit).

    Examples
    --------
    >>> time_ticks(pd.Series(pd.to_datetime(["1970-01-02", "1970-01-01"])).astype("datetime64[s]")).tolist()
    [86400, 0]
    """
    dtype = series.dtype
    if isinstance(dtype, pd.ArrowDtype):
        integers = series.astype(f"int{dtype.pyarrow_dtype.bit_width}[pyarrow]")
        return integers.to_numpy(dtype=np.int64, na_value=0)
    return np.asarray(series.array.asi8, dtype=np.int64)


def block_kind(series: pd.Series) -> str:
    """The kind of one block's column (an ``object`` column by its present values)."""
    kind = dtype_kind(series.dtype)
    if kind is not None:
        return kind
    inferred = ptypes.infer_dtype(series, skipna=True)
    return "categorical" if inferred in ("string", "empty") else "other"


def numeric_values(series: pd.Series) -> np.ndarray:
    """float64 values of a numeric, bool or datetime column, NaN where missing.

    Infinite values are kept.  A datetime is read as its integer ticks.

    Examples
    --------
    >>> numeric_values(pd.Series([1, None, 3], dtype="Int64"))
    array([ 1., nan,  3.])
    """
    if dtype_kind(series.dtype) == "datetime":
        values = time_ticks(series).astype(float)
        values[series.isna().to_numpy()] = np.nan
        return values
    return series.to_numpy(dtype=float, na_value=np.nan)


def level_codes(series: pd.Series, levels: pd.Index) -> np.ndarray:
    """0-based position of each value in ``levels`` (-1: missing or not a level).

    Examples
    --------
    >>> level_codes(pd.Series(["b", None, "a", "z"]), pd.Index(["a", "b"]))
    array([ 1, -1,  0, -1])
    """
    if isinstance(series.dtype, pd.CategoricalDtype):
        codes = np.asarray(series.array.codes, dtype=np.int64)
        where = np.append(levels.get_indexer(series.dtype.categories), -1).astype(np.int64)
        return where[codes]  # code -1 (missing) takes the appended -1
    values = series.to_numpy(dtype=object)
    if _has_nul(series):  # pandas < 3 hashes object strings as C strings ("a" == "a\x00")
        position = {level: i for i, level in enumerate(levels)}
        return np.array([position.get(v, -1) if isinstance(v, str) else -1 for v in values], dtype=np.int64)
    return np.asarray(levels.get_indexer(values), dtype=np.int64)


def _has_nul(series: pd.Series) -> bool:
    return bool(series.astype(object).str.contains("\x00", regex=False, na=False).any())


def factorize(series: pd.Series) -> tuple[np.ndarray, list]:
    """Codes (-1 where missing) and the distinct values, in order of appearance, of a string column.

    Strings holding NUL are hashed by a dict: pandas < 3 hashes object
    strings as C strings and would merge "a" with "a\x00".

    Examples
    --------
    >>> factorize(pd.Series(["b", None, "a", "b"], dtype=object))
    (array([ 0, -1,  1,  0]), ['b', 'a'])
    """
    if _has_nul(series):
        position: dict = {}
        values = series.to_numpy(dtype=object, na_value=None)
        codes = [-1 if v is None else position.setdefault(v, len(position)) for v in values]
        return np.array(codes, dtype=np.int64), list(position)
    codes, uniques = pd.factorize(series, use_na_sentinel=True)
    return np.asarray(codes, dtype=np.int64), list(uniques)
