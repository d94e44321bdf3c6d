"""Hypothesis strategies for random data frames, and a snapshot of everything about X.

A frame is built from a few drawn decisions (rows, columns, each column's
dtype, value style and missing values, the index) and a drawn seed for the
values themselves, so that Hypothesis shrinks the structure (fewer rows,
fewer columns, simpler dtypes) while the values stay varied.

Column kinds cover what users pass: NumPy floats and integers of every
width, pandas' nullable ``Int64``/``Float64``/``boolean``, categoricals
(unused and non-string categories, ordered ones), object and pandas string
columns, booleans, naive and tz-aware datetimes and timedeltas.  Each
column records what it is (:class:`ColumnInfo`), so the tests can tell in
advance which inputs pyale must accept.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from hypothesis import strategies as st

NUMERIC_DTYPES = ["float64", "float32", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                  "uint64", "Int64", "Float64"]
CATEGORICAL_DTYPES = ["category", "ordered", "object", "string"]
OTHER_DTYPES = ["bool", "boolean", "datetime", "datetime_tz", "timedelta"]
ALL_DTYPES = NUMERIC_DTYPES + CATEGORICAL_DTYPES + OTHER_DTYPES

# Level names chosen to trip string handling: NUL, empty, unicode, look-alike numbers,
# names of result columns.
LEVELS = ["a", "b", "c", "d", "A", "a\x00", "", " ", "é", "10", "2", "NaN", "None", "x y", "ß", "😀",
          "a,b", "output", ".value", "ale", "level"]
# Column names, including ones that are names of result-table columns.
NAMES = ["x", "z", "w", "g", "s", "k", "output", "ale", ".value", ".type", ".class", ".id", "yhat", "pd",
         "x 1", "x_1", ".borders", ".feature", "feature_ale", "0"]


@dataclass(frozen=True)
class ColumnInfo:
    """What a generated column is.

    Attributes
    ----------
    name : object
        Its label.
    dtype : str
        One of :data:`ALL_DTYPES`.
    kind : str
        ``"numeric"``, ``"categorical"`` or ``"other"`` (booleans, date-times).
    missing : bool
        Whether it holds missing values.
    """

    name: object
    dtype: str
    kind: str
    missing: bool


@dataclass(frozen=True)
class FrameCase:
    """A generated frame and what each column is."""

    X: pd.DataFrame
    columns: tuple

    def info(self, name) -> ColumnInfo:
        return next(c for c in self.columns if c.name == name)

    def __repr__(self) -> str:  # what Hypothesis prints for a failing example
        with pd.option_context("display.max_columns", 20, "display.width", 200, "display.max_rows", 200):
            return (f"FrameCase(columns={list(self.columns)!r},\n index={self.X.index!r},\n"
                    f"X=\n{self.X!r})")


def _kind(dtype: str) -> str:
    if dtype in NUMERIC_DTYPES:
        return "numeric"
    if dtype in CATEGORICAL_DTYPES:
        return "categorical"
    return "other"


def _numeric(rng, n, dtype, style):
    """Values of a numeric column as float64 or int Python objects (the dtype is applied later)."""
    if dtype in ("float64", "Float64", "float32"):
        if style == "ties":
            return rng.integers(-3, 4, n).astype(float) * 0.5
        if style == "extreme":
            exponent = 30 if dtype == "float32" else rng.choice([-300, -8, 150, 300])
            return rng.normal(size=n) * 10.0 ** exponent
        if style == "spread":
            return np.sign(rng.normal(size=n)) * 10.0 ** rng.uniform(-6, 6, n)
        return rng.normal(size=n) * 10.0 ** rng.integers(-3, 4)
    numpy_dtype = np.dtype("int64" if dtype == "Int64" else dtype)
    info = np.iinfo(numpy_dtype)
    if style == "extreme":
        # Near the top or the bottom of the dtype (uint64 near 2**64, int64 near -2**63).
        width = min(int(rng.integers(1, 1000)), int(info.max) - int(info.min))
        if rng.random() < 0.5:
            low, high = int(info.max) - width, int(info.max)
        else:
            low, high = int(info.min), int(info.min) + width
        return [int(v) for v in rng.integers(low, high, n, endpoint=True, dtype=numpy_dtype)]
    low, high = (0, 6) if style == "ties" else (max(int(info.min), -1000), min(int(info.max), 1000))
    return [int(v) for v in rng.integers(low, high, n, endpoint=True)]


def _column(rng, n, dtype, style, missing):
    """A pandas Series (default index) of the given dtype, with missing values where ``missing``."""
    if dtype in NUMERIC_DTYPES:
        values = _numeric(rng, n, dtype, style)
        if dtype in ("Int64", "Float64"):
            data = pd.array(values, dtype=dtype)
            if missing is not None:
                data[missing] = pd.NA
            return pd.Series(data)
        if missing is not None and dtype in ("float64", "float32"):
            values = np.asarray(values, dtype=float)
            values[missing] = np.nan
        return pd.Series(np.asarray(values).astype(dtype) if dtype.startswith(("float", "int"))
                         else np.array(values, dtype=dtype))
    if dtype in CATEGORICAL_DTYPES:
        # Indices, not rng.choice(LEVELS): NumPy's fixed-width strings drop the NUL of "a\x00".
        pool = [LEVELS[i] for i in rng.choice(len(LEVELS), size=int(rng.integers(1, 7)), replace=False)]
        used = pool[: max(1, int(rng.integers(1, len(pool) + 1)))]
        values = np.empty(n, dtype=object)
        values[:] = [used[i] for i in rng.integers(0, len(used), n)]
        if missing is not None:
            values[missing] = None
        if dtype in ("category", "ordered"):
            categories = pool if style != "ints" else list(range(len(pool)))
            if style == "ints":
                values = np.array([None if v is None else pool.index(v) for v in values], dtype=object)
            rng.shuffle(categories)
            return pd.Series(pd.Categorical(values, categories=categories, ordered=dtype == "ordered"))
        if dtype == "string":
            return pd.Series(values, dtype="string")
        if missing is not None and style == "nan":
            values[missing] = np.nan
        return pd.Series(values, dtype=object)
    if dtype == "bool":
        return pd.Series(rng.random(n) < 0.5)
    if dtype == "boolean":
        data = pd.array(rng.random(n) < 0.5, dtype="boolean")
        if missing is not None:
            data[missing] = pd.NA
        return pd.Series(data)
    ticks = rng.integers(0, 10**6, n) * 10**9 * int(rng.choice([1, 60, 86400]))
    if dtype == "timedelta":
        series = pd.Series(pd.to_timedelta(ticks, unit="ns"))
    else:
        series = pd.Series(pd.to_datetime(ticks + 1_500_000_000 * 10**9, unit="ns"))
        if dtype == "datetime_tz":
            series = series.dt.tz_localize("UTC").dt.tz_convert("Europe/Paris")
    if missing is not None:
        series = series.copy()
        series[missing] = pd.NaT
    return series


def _index(rng, n, style):
    if style == "range":
        return pd.RangeIndex(n)
    if style == "offset":
        return pd.RangeIndex(100, 100 + n)
    if style == "permuted":  # the labels 0..n-1 in another order
        return pd.Index(rng.permutation(n))
    if style == "ints":
        return pd.Index(rng.choice(10 * n + 10, n, replace=False) - 5 * n)
    if style == "strings":
        return pd.Index([f"r{i}" for i in rng.permutation(n)], dtype=object)
    if style == "dates":
        return pd.date_range("2020-01-01", periods=n, freq="D")
    if style == "floats":
        return pd.Index(rng.permutation(n) + 0.5)
    return pd.Index(rng.integers(0, max(1, n // 2), n))  # "repeated" labels


INDEX_STYLES = ["range", "range", "offset", "permuted", "ints", "strings", "dates", "floats", "repeated"]


@st.composite
def frames(draw, *, min_rows=1, max_rows=40, max_columns=5, dtypes=ALL_DTYPES, need=(),
           missing=True, index_styles=INDEX_STYLES) -> FrameCase:
    """A random DataFrame.

    Parameters
    ----------
    need : sequence of str
        Dtype kinds that must be present ("numeric", "categorical"), each a
        complete column with at least two distinct values, so that most
        examples reach the computation.
    """
    n = draw(st.one_of(st.integers(min_rows, min(max_rows, 12)), st.integers(min_rows, max_rows)))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    n_extra = draw(st.integers(0 if need else 1, max_columns))
    specs = []
    for kind in need:
        pool = [d for d in dtypes if _kind(d) == kind] or [d for d in ALL_DTYPES if _kind(d) == kind]
        specs.append((draw(st.sampled_from(pool)), "good"))
    for _ in range(n_extra):
        specs.append((draw(st.sampled_from(dtypes)), None))
    names = draw(st.lists(st.sampled_from(NAMES), min_size=len(specs), max_size=len(specs), unique=True))
    if draw(st.integers(0, 9)) == 0 and len(specs) > 1:
        names[0] = 0 if names[1] != 0 else 1  # an integer label among string ones
    series, infos = [], []
    for (dtype, role), name in zip(specs, names):
        style = draw(st.sampled_from(["plain", "ties", "extreme", "spread", "ints", "nan"]))
        holes = None
        if role != "good" and missing and dtype not in ("bool",) and not dtype.startswith(("int", "uint")):
            if draw(st.integers(0, 4)) == 0:
                holes = rng.random(n) < draw(st.sampled_from([0.1, 0.5, 1.0]))
                holes = holes if holes.any() else None
        s = _column(rng, n, dtype, style, holes)
        if role == "good":
            s = _two_values(s, dtype, rng)
        series.append(s)
        infos.append(ColumnInfo(name, dtype, _kind(dtype), holes is not None))
    X = pd.concat(series, axis=1, ignore_index=True)
    X.columns = pd.Index(names, dtype=object)
    X.index = _index(rng, n, draw(st.sampled_from(index_styles)))
    return FrameCase(X, tuple(infos))


def _two_values(s: pd.Series, dtype: str, rng) -> pd.Series:
    """``s`` with at least two distinct values (a numeric or categorical feature ALE can use)."""
    if s.shape[0] < 2 or s.nunique(dropna=True) >= 2:
        return s
    s = s.copy()
    if isinstance(s.dtype, pd.CategoricalDtype):
        categories = list(s.cat.categories)
        if len(categories) < 2:
            s = s.cat.add_categories(["zz" if "zz" not in categories else "zy"])
        other = [c for c in s.cat.categories if c != s.iloc[0]][0]
        s.iloc[-1] = other
        return s
    if dtype in ("object", "string"):
        s.iloc[-1] = "other" if s.iloc[0] != "other" else "another"
        return s
    first = s.iloc[0]
    if dtype.startswith(("uint", "int", "Int")):
        info = np.iinfo(np.dtype("int64" if dtype == "Int64" else dtype))
        s.iloc[-1] = int(first) - 1 if int(first) > int(info.min) else int(first) + 1
    else:
        s.iloc[-1] = float(first) + 1.0 if abs(float(first)) < 1e15 else float(first) * 0.5
    return s


