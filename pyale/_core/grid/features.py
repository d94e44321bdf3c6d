"""How pyale reads a DataFrame column as a feature or as a covariate.

A feature is *numeric* (integer or floating dtypes) or *categorical* (a pandas
``Categorical``, or an object/string column of strings).  Reading never
changes the caller's frame.
"""

from __future__ import annotations

from dataclasses import dataclass

import warnings

import numpy as np
import pandas as pd
from pandas.api import types as ptypes

from ..._rbase import note_range
from ..exact.columns import covariate_kind_error, is_time_dtype, time_ticks
from .levels import Covariate

__all__ = [
    "Feature",
    "column_kind",
    "require_levels",
    "require_intervals",
    "read_feature",
    "read_covariate",
    "factorize_strings",
    "kind_error",
    "missing_error",
    "infinite_error",
    "overflow_error",
    "rounded_integers",
    "warn_rounded",
]


@dataclass(frozen=True)
class Feature:
    """A feature column as the estimator core sees it.

    Attributes
    ----------
    name : str
        Column label.
    categorical : bool
        Whether the feature is categorical.
    values : numpy.ndarray
        float64 values (numeric features only).
    codes : numpy.ndarray
        0-based codes into ``levels`` (categorical features only).
    levels : tuple
        Levels that occur in the data, in the column's level order (unused
        categories are dropped, as R's ``droplevels``).
    ordered : bool
        Whether the column is an ordered categorical.
    integer : bool
        Whether the column has an integer dtype.
    span : tuple or None
        ``(min, max)`` of ``values`` when known (numeric features read by
        :func:`read_feature`).
    """

    name: object
    categorical: bool
    values: np.ndarray | None = None
    codes: np.ndarray | None = None
    levels: tuple = ()
    ordered: bool = False
    integer: bool = False
    span: tuple | None = None


def require_levels(feature: Feature, label: str) -> None:
    """Raise when a categorical feature has fewer than two levels in the data."""
    if len(feature.levels) < 2:
        raise ValueError(
            f"{label} has a single level {feature.levels[0]!r} in the data; "
            "ALE needs at least two levels to measure a change."
        )


def require_intervals(edges: np.ndarray, label: str) -> np.ndarray:
    """Return ``edges``, raising when they span no interval (a constant column)."""
    if edges.shape[0] < 2:
        raise ValueError(
            f"{label} is constant ({float(edges[0])!r}); ALE is undefined for a constant "
            "feature because there is no interval to move it across."
        )
    return edges


def _is_string_column(series: pd.Series) -> bool:
    if ptypes.is_string_dtype(series.dtype) and not ptypes.is_object_dtype(series.dtype):
        return True
    if not ptypes.is_object_dtype(series.dtype):
        return False
    present = series.dropna()
    return all(isinstance(v, str) for v in present.to_numpy())


def column_kind(series: pd.Series) -> str:
    """Classify a column: 'numeric', 'categorical', 'bool', 'datetime' or 'other'."""
    dtype = series.dtype
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
    if _is_string_column(series):
        return "categorical"
    return "other"


def _require_complete(series: pd.Series, label: str) -> None:
    missing = series.isna().to_numpy()
    if missing.any():
        first = series.index[np.flatnonzero(missing)[0]]
        raise missing_error(label, int(missing.sum()), f"index {first!r}")


def factorize_strings(series: pd.Series) -> tuple[np.ndarray, tuple]:
    """Codes and sorted levels of a column of strings, as R's ``factor()`` in the C locale.

    Levels are the distinct strings in Python's (code-point) order; codes are
    int64 indices into them, -1 for a missing value.  The strings are hashed
    where they lie (:func:`pandas.factorize`), never copied into a
    fixed-width array, so memory does not grow with the longest string.
    """
    if series.str.contains("\x00", regex=False, na=False).any():
        # pandas < 3 hashes object strings as C strings, so "a" and "a\x00" would merge.
        position: dict = {}
        values = series.to_numpy(dtype=object, na_value=None)
        codes = np.array([-1 if v is None else position.setdefault(v, len(position)) for v in values],
                         dtype=np.int64)
        uniques = list(position)
    else:
        codes, uniques = pd.factorize(series, sort=False, use_na_sentinel=True)
    uniques = [str(v) for v in uniques]
    order = sorted(range(len(uniques)), key=uniques.__getitem__)
    rank = np.empty(len(uniques) + 1, dtype=np.int64)
    rank[order] = np.arange(len(uniques))
    rank[-1] = -1  # code -1 (missing) stays -1
    return rank[codes], tuple(uniques[i] for i in order)


def kind_error(kind: str, label: str, dtype, content: str = "") -> TypeError:
    """The error for a feature column of kind 'bool', 'datetime' or 'other' (see :func:`column_kind`)."""
    if kind == "bool":
        return TypeError(
            f"{label} is boolean; ALE needs a numeric or categorical feature. "
            "Convert it with .astype(int) (numeric) or .astype('category') (categorical)."
        )
    if kind == "datetime":
        return TypeError(
            f"{label} has dtype {dtype}; ALE of dates or durations is not supported. "
            "Convert it to numbers (e.g. days since a reference date) first."
        )
    return TypeError(
        f"{label} has dtype {dtype} which is neither numeric nor categorical "
        f"(numbers, pandas Categorical, or strings){content}. Convert it first, "
        "e.g. with pd.to_numeric(...) or .astype(str)."
    )


def missing_error(label: str, count: int, where: str) -> ValueError:
    """Missing values in a feature; ``where`` locates the first (``"index 3"``, ``"row position 3"``)."""
    return ValueError(
        f"{label} has {count} missing value(s) (first at {where}); "
        "ALE needs complete data in the feature. Drop or impute those rows first."
    )


def infinite_error(label: str, count: int, value: float, where: str) -> ValueError:
    """Infinite values in a numeric feature (the first one and where it is)."""
    return ValueError(
        f"{label} has {count} infinite value(s) (first {value!r} at {where}); ALE needs finite values."
    )


def overflow_error(label: str, low: float, high: float) -> ValueError:
    """A numeric feature whose range overflows float64."""
    return ValueError(
        f"{label} spans [{float(low)!r}, {float(high)!r}], a width that overflows float64 "
        "(max - min is infinite), so interval widths and grid steps cannot be computed. "
        "Rescale it first (e.g. divide it by a power of ten)."
    )


def read_feature(series: pd.Series, *, label: str) -> Feature:
    """Read a feature column, raising a clear error for what ALE cannot use.

    Parameters
    ----------
    series : pandas.Series
        The column.
    label : str
        How error messages introduce the column, e.g. ``"Column 'x' (J)"``.

    Returns
    -------
    Feature
    """
    kind = column_kind(series)
    if kind in ("bool", "datetime", "other"):
        raise kind_error(kind, label, series.dtype, _content(series))
    if kind == "numeric":
        values = series.to_numpy(dtype=float, na_value=np.nan)
        low, high = (values.min(), values.max()) if values.shape[0] else (0.0, 0.0)
        with np.errstate(over="ignore", invalid="ignore"):
            span = high - low  # NaN or inf when a value is missing or infinite, or the span overflows
        if not np.isfinite(span):
            _require_finite(series, values, label)
            raise overflow_error(label, low, high)
        _warn_if_rounded(series, values, max(-low, high), label)
        if values.flags.writeable:
            # A read-only view lets pyale._rbase.cells keep work on it for the call; the
            # array itself may be the caller's column (pandas 2.x), whose flags stay as they are.
            values = values.view()
            values.flags.writeable = False
        if values.shape[0]:
            note_range(values, low, high)  # the grid's slot map need not read the column again for them
        return Feature(
            name=series.name,
            categorical=False,
            values=values,
            integer=ptypes.is_integer_dtype(series.dtype),
            span=(float(low), float(high)) if values.shape[0] else None,
        )
    _require_complete(series, label)
    if isinstance(series.dtype, pd.CategoricalDtype):
        cat = series.array
        used = np.flatnonzero(np.bincount(cat.codes, minlength=len(cat.categories)))
        levels = tuple(cat.categories[used].tolist())
        remap = np.full(len(cat.categories), -1, dtype=np.int64)
        remap[used] = np.arange(used.shape[0])
        return Feature(
            name=series.name,
            categorical=True,
            codes=remap[cat.codes],
            levels=levels,
            ordered=bool(series.dtype.ordered),
        )
    codes, levels = factorize_strings(series)
    return Feature(name=series.name, categorical=True, codes=codes, levels=levels)


def read_covariate(series: pd.Series) -> Covariate:
    """Reduce another column to what the level distance needs.

    Categorical and string columns use frequency tables; numeric, boolean
    and date-time columns use their numeric values (the Kolmogorov-Smirnov
    distance only depends on their order).
    """
    kind = column_kind(series)
    if kind == "categorical":
        if isinstance(series.dtype, pd.CategoricalDtype):
            codes = np.asarray(series.array.codes, dtype=np.int64)
            return Covariate(series.name, True, codes, len(series.dtype.categories))
        codes, levels = factorize_strings(series)
        return Covariate(series.name, True, codes, len(levels))
    if kind in ("numeric", "bool"):
        values = series.to_numpy(dtype=float, na_value=np.nan)
        return Covariate(series.name, False, np.where(np.isfinite(values), values, np.nan))
    if kind == "datetime":
        return Covariate(series.name, False, _time_ranks(series))
    raise covariate_kind_error(series.name, series.dtype, _content(series))


def _time_ranks(series: pd.Series) -> np.ndarray:
    """Dense ranks (float, NaN where missing) of a datetime, timedelta or period column.

    The level distance depends on a covariate only through the order of its
    values (Kolmogorov-Smirnov distances at type-7 quantiles are unchanged by
    any strictly increasing transform), so the ranks of the underlying
    integers (:func:`~pyale._core.exact.columns.time_ticks`: instants in UTC for
    tz-aware columns, period ordinals, an Arrow column's stored integers)
    give the exact answer without rounding nanosecond counts to float64.
    """
    integers = time_ticks(series)
    present = ~np.asarray(series.isna())
    values = np.full(integers.shape[0], np.nan)
    values[present] = np.unique(integers[present], return_inverse=True)[1].ravel()
    return values


def _content(series: pd.Series) -> str:
    """``; it holds int and str values`` for an object column (empty otherwise)."""
    if not ptypes.is_object_dtype(series.dtype):
        return ""
    kinds = sorted({_type_label(v) for v in series.dropna().to_numpy()[:1000]})
    if not kinds:
        return "; all its values are missing"
    return f"; it holds {' and '.join(kinds[:4])} values"


def _type_label(value: object) -> str:
    module = type(value).__module__.split(".")[0]
    name = type(value).__qualname__
    return name if module == "builtins" else f"{module}.{name}"


def _require_finite(series: pd.Series, values: np.ndarray, label: str) -> None:
    """Raise for missing or infinite values of a numeric column read as ``values``."""
    _require_complete(series, label)
    bad = ~np.isfinite(values)
    if bad.any():
        position = int(np.flatnonzero(bad)[0])
        raise infinite_error(label, int(bad.sum()), float(values[position]), f"index {series.index[position]!r}")


def _warn_if_rounded(series: pd.Series, values: np.ndarray, largest: float, label: str) -> None:
    """Warn when an integer column holds values that float64 cannot represent exactly.

    Features are read as float64, as R reads an integer column as double;
    beyond 2**53 that rounds some values (e.g. 2**53 + 1 to 2**53).
    """
    dtype = series.dtype
    if not ptypes.is_integer_dtype(dtype) or largest <= 2.0**53:  # every integer up to 2**53 is a float64
        return
    rounded, exact = rounded_integers(series, values)
    if rounded.any():
        first = int(np.flatnonzero(rounded)[0])
        warn_rounded(label, int(rounded.sum()), int(exact[first]), float(values[first]),
                     f"index {series.index[first]!r}", stacklevel=5)


def rounded_integers(series: pd.Series, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Which values of an integer column float64 rounds (``values``: the column as float64), and the exact integers."""
    dtype = series.dtype
    exact = series.to_numpy(dtype=getattr(dtype, "numpy_dtype", dtype), na_value=0)
    safe = values < 2.0**64 if dtype.kind == "u" else (values >= -(2.0**63)) & (values < 2.0**63)
    back = np.zeros_like(exact)
    back[safe] = values[safe].astype(exact.dtype)
    return ~safe | (back != exact), exact


def warn_rounded(label: str, count: int, exact: int, value: float, where: str, *, stacklevel: int) -> None:
    """The warning about integers that float64 rounds (the first one, exact and as read, and where)."""
    warnings.warn(
        f"{label} holds {count} integer(s) that float64 cannot represent exactly "
        f"(first {exact} at {where}, read as {value!r}); pyale reads integer features as float64, "
        "as R reads them as double, so its grid and bins use the rounded values.",
        UserWarning,
        stacklevel=stacklevel,
    )
