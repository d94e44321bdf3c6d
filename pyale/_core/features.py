"""How pyale reads a DataFrame column as a feature or as a covariate.

A feature is *numeric* (integer or floating dtypes) or *categorical* (a pandas
``Categorical``, or an object/string column of strings).  Reading never
changes the caller's frame.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from pandas.api import types as ptypes

from .levels import Covariate

__all__ = [
    "Feature",
    "column_kind",
    "require_levels",
    "require_intervals",
    "read_feature",
    "read_covariate",
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
    """

    name: object
    categorical: bool
    values: np.ndarray | None = None
    codes: np.ndarray | None = None
    levels: tuple = ()
    ordered: bool = False
    integer: bool = False


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
    if ptypes.is_datetime64_any_dtype(dtype) or ptypes.is_timedelta64_dtype(dtype):
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
        raise ValueError(
            f"{label} has {int(missing.sum())} missing value(s) (first at index {first!r}); "
            "ALE needs complete data in the feature. Drop or impute those rows first."
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
    if kind == "bool":
        raise TypeError(
            f"{label} is boolean; ALE needs a numeric or categorical feature. "
            "Convert it with .astype(int) (numeric) or .astype('category') (categorical)."
        )
    if kind == "datetime":
        raise TypeError(
            f"{label} has dtype {series.dtype}; ALE of dates or durations is not supported. "
            "Convert it to numbers (e.g. days since a reference date) first."
        )
    if kind == "other":
        raise TypeError(
            f"{label} has dtype {series.dtype} which is neither numeric nor categorical "
            "(numbers, pandas Categorical, or strings)."
        )
    if kind == "numeric":
        values = series.to_numpy(dtype=float, na_value=np.nan)
        if not np.isfinite(values).all():  # one pass when all is well
            _require_complete(series, label)
            bad = ~np.isfinite(values)
            position = int(np.flatnonzero(bad)[0])
            raise ValueError(
                f"{label} has {int(bad.sum())} infinite value(s) (first {float(values[position])!r} "
                f"at index {series.index[position]!r}); ALE needs finite values."
            )
        if values.flags.writeable:
            values.flags.writeable = False  # lets pyale._cells keep work on it for the call
        return Feature(
            name=series.name,
            categorical=False,
            values=values,
            integer=ptypes.is_integer_dtype(series.dtype),
        )
    _require_complete(series, label)
    if isinstance(series.dtype, pd.CategoricalDtype):
        cat = series.array
        used = np.unique(cat.codes)
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
    values = series.to_numpy(dtype=object)
    levels, codes = np.unique(values.astype(str), return_inverse=True)
    return Feature(
        name=series.name,
        categorical=True,
        codes=codes.astype(np.int64).ravel(),
        levels=tuple(str(v) for v in levels),
    )


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
        present = series.notna().to_numpy()
        codes = np.full(series.shape[0], -1, dtype=np.int64)
        levels, inverse = np.unique(series.to_numpy(dtype=object)[present].astype(str), return_inverse=True)
        codes[present] = inverse.ravel()
        return Covariate(series.name, True, codes, len(levels))
    if kind in ("numeric", "bool"):
        values = series.to_numpy(dtype=float, na_value=np.nan)
        return Covariate(series.name, False, np.where(np.isfinite(values), values, np.nan))
    if kind == "datetime":
        raw = series.to_numpy()
        values = raw.view("int64").astype(float)
        values[pd.isna(raw)] = np.nan
        return Covariate(series.name, False, values)
    raise TypeError(
        f"Column {series.name!r} has dtype {series.dtype}; the categorical level ordering "
        "can use numeric, boolean, date-time, categorical or string columns only."
    )
