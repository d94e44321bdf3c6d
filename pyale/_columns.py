"""How pyale reads a DataFrame column, and how it writes shifted copies.

A feature is *numeric* (integer or floating dtypes) or *categorical* (a pandas
``Categorical``, or an object/string column of strings).  Reading never
changes the caller's frame; shifted copies (:class:`ShiftedFrames`) are new
frames with one or two columns replaced, either sharing the untouched
columns or, for all-numeric frames, one private copy of the rows reused
for every shifted version of them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from pandas.api import types as ptypes

from ._levels import Covariate

__all__ = [
    "Feature",
    "require_levels",
    "require_intervals",
    "read_feature",
    "read_covariate",
    "replace_columns",
    "ShiftedFrames",
    "numeric_column_values",
    "numeric_grid_values",
    "categorical_column_values",
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


def numeric_column_values(series: pd.Series, values: np.ndarray):
    """New values for a numeric column, in the column's dtype when that is lossless.

    An integer column keeps its dtype when every new value is a whole number
    (true for ALEPlot's and iml's data-quantile grids); otherwise it becomes
    float64, as R turns an integer column into a double one.
    """
    dtype = series.dtype
    if ptypes.is_integer_dtype(dtype) and np.all(np.mod(values, 1.0) == 0.0):
        if isinstance(dtype, np.dtype):
            return values.astype(dtype)
        return pd.array(values.astype(np.int64), dtype=dtype)
    if isinstance(dtype, np.dtype) and ptypes.is_float_dtype(dtype) and dtype != np.float64:
        narrowed = values.astype(dtype)
        if np.array_equal(narrowed, values):
            return narrowed
    return values


def numeric_grid_values(series: pd.Series, grid: np.ndarray, used: np.ndarray | None = None):
    """Grid values in the column's dtype, for rows to take with ``.take(index)``.

    ``numeric_column_values(series, grid)[index]`` equals
    ``numeric_column_values(series, grid[index])`` (same values, same dtype)
    when ``used`` marks the grid values that ``index`` refers to: only those
    decide whether an integer or float32 column keeps its dtype, and the
    check runs over the grid rather than over every row.
    """
    grid = np.asarray(grid, dtype=float)
    if used is not None and used.any() and not used.all():
        grid = np.where(used, grid, grid[used][0])
    return numeric_column_values(series, grid)


def categorical_column_values(series: pd.Series, feature: Feature, level_index: np.ndarray):
    """New values for a categorical column given 0-based indices into ``feature.levels``.

    A pandas Categorical keeps its full dtype (all categories, ordered or
    not), so a model sees the same categories it was fitted with.
    """
    labels = np.empty(len(feature.levels), dtype=object)
    labels[:] = list(feature.levels)
    if isinstance(series.dtype, pd.CategoricalDtype):
        category_codes = series.dtype.categories.get_indexer(list(feature.levels))
        return pd.Categorical.from_codes(category_codes[level_index], dtype=series.dtype)
    if ptypes.is_object_dtype(series.dtype):
        return labels[level_index]
    return pd.array(labels[level_index], dtype=series.dtype)


def _is_plain_numeric(frame: pd.DataFrame) -> bool:
    """Whether every column has a NumPy numeric, boolean or date-time dtype."""
    return all(isinstance(d, np.dtype) and d.kind in "biufcmM" for d in frame.dtypes)


def _rows_of(frame: pd.DataFrame, rows) -> tuple[pd.DataFrame, bool]:
    """``frame`` restricted to ``rows`` (None, a slice or positions); whether the result owns its data."""
    if rows is None:
        return frame, False
    if isinstance(rows, slice):
        if rows.start in (None, 0) and (rows.stop is None or rows.stop >= frame.shape[0]):
            return frame, False
        return frame.iloc[rows], False
    return frame.take(rows), True


class ShiftedFrames:
    """New frames holding some rows of ``frame`` with some columns replaced.

    Each call returns a new DataFrame with the given columns replaced and
    every other column as in ``frame``; ``frame`` is never modified.

    For a frame whose columns all have NumPy numeric dtypes, the rows are
    copied once into a private frame with the caller's block layout (so a
    model that turns the frame into an array pays what it pays for
    ``frame`` itself), and each call writes the replaced columns into it in
    place (a column passed as the very same array as in the previous call is
    not written again).  Each call returns a shallow copy of the private
    frame, so a model that changes its ``newdata`` in place changes only its
    own copy, and a returned frame that is still referenced when the next
    one is built stays valid: pandas' copy-on-write then copies instead of
    overwriting.  Other frames are shallow copies with the
    replaced columns swapped in, so untouched columns are shared.

    Parameters
    ----------
    frame : pandas.DataFrame
        The caller's data (unique column labels).
    rows : None, slice or numpy.ndarray
        Rows to keep, in this order (``None``: all).
    """

    def __init__(self, frame: pd.DataFrame, rows=None):
        self._frame = frame
        self._rows = rows
        self._plain = _is_plain_numeric(frame)
        self._base = None if self._plain else _rows_of(frame, rows)[0]
        self._private = None
        self._written: dict = {}

    def __call__(self, new_columns: dict) -> pd.DataFrame:
        """A frame with the columns in ``new_columns`` (label -> values for the kept rows) replaced."""
        if not self._plain:
            out = self._base.copy(deep=False)
            for name, values in new_columns.items():
                out.isetitem(out.columns.get_loc(name), _as_column(values, out.index))
            return out
        if self._private is None:
            if not new_columns:
                return _rows_of(self._frame, self._rows)[0].copy(deep=False)
            out, owned = _rows_of(self._frame, self._rows)
            if not owned:
                out = out.copy(deep=True)
        else:
            out = self._private.copy(deep=False)
            self._private = None  # the previous frame dies here unless someone else holds it
        for name in [n for n in self._written if n not in new_columns]:
            self._write(out, name, self._original(name))
            del self._written[name]
        for name, values in new_columns.items():
            if self._written.get(name) is not values:
                self._write(out, name, values)
                self._written[name] = values
        self._private = out
        # The model gets its own (shallow) frame: whatever it does to it in place
        # (copy-on-write) never reaches the private frame the next variant is built from.
        return out.copy(deep=False)

    def _original(self, name) -> np.ndarray:
        values = self._frame[name].to_numpy()
        return values if self._rows is None else values[self._rows]

    @staticmethod
    def _write(out: pd.DataFrame, name, values) -> None:
        position = out.columns.get_loc(name)
        if isinstance(values, np.ndarray) and values.dtype == out.dtypes.iloc[position]:
            out.iloc[:, position] = values
        else:
            out.isetitem(position, _as_column(values, out.index))


def _as_column(values, index: pd.Index):
    """Values ready for ``DataFrame.isetitem``: object arrays stay object (no string inference)."""
    if isinstance(values, np.ndarray) and values.dtype == object:
        return pd.Series(values, index=index, dtype=object, copy=False)
    return values


def replace_columns(frame: pd.DataFrame, rows: np.ndarray | None, new_columns: dict) -> pd.DataFrame:
    """A frame with some rows and some columns replaced, leaving ``frame`` untouched.

    Parameters
    ----------
    frame : pandas.DataFrame
        The caller's data (never modified).
    rows : numpy.ndarray or None
        Positions of the rows to keep (``None``: all rows).
    new_columns : dict
        Column label -> new values for the kept rows.

    Returns
    -------
    pandas.DataFrame
        Columns in the original order and dtypes (see :class:`ShiftedFrames`).
    """
    return ShiftedFrames(frame, rows)(new_columns)
