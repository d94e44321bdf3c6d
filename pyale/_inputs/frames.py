"""Any data frame in, pandas inside, the model's own type out.

pyale computes on pandas.  At the public boundary :func:`as_pandas` turns
a polars or pyarrow table (through narwhals), or a 2-D NumPy array with
``feature_names=``, into a pandas DataFrame once, and returns a
:class:`Native` that remembers what the user passed, so that a plain
callable can be handed frames of the type it was written for
(:meth:`Native.to_native`, once per model call).  Which models get what is
decided in :mod:`pyale._core.map.adapters` (:func:`~pyale._core.map.adapters.feeder`).

Dask, Spark and polars lazy frames are left alone (their engines read them blockwise);
anything else that is not a table is refused with a message naming the
supported types.  The caller's object is never modified.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, NamedTuple, Sequence

import numpy as np
import pandas as pd

from .._engines import engine_name, is_engine_frame, is_engine_object

__all__ = ["Native", "Converted", "PANDAS", "as_pandas"]


@dataclass(frozen=True)
class Native:
    """What the user passed, and how to turn an internal pandas frame back into it.

    Attributes
    ----------
    kind : str
        ``"pandas"``, ``"polars"``, ``"pyarrow"`` or ``"numpy"``.
    convert : callable or None
        ``convert(frame) -> object`` of that type; None for pandas.
    """

    kind: str
    convert: Callable[[pd.DataFrame], object] | None = field(default=None, compare=False)

    def to_native(self, frame: pd.DataFrame) -> object:
        """``frame`` as the type the user passed (``frame`` itself for pandas)."""
        return frame if self.convert is None else self.convert(frame)


PANDAS = Native("pandas")


class Converted(NamedTuple):
    """A frame already converted by :func:`as_pandas`, with its origin (passed on internally)."""

    frame: pd.DataFrame
    native: Native


_SUPPORTED = "a pandas or polars DataFrame, a pyarrow Table, or a 2-D NumPy array (with feature_names=)"


def _check_names(names: object, width: int, *, caller: str) -> list:
    if isinstance(names, (str, bytes)) or not isinstance(names, (Sequence, np.ndarray, pd.Index)):
        raise TypeError(
            f"The 'feature_names' parameter of {caller} must be a sequence of column names. "
            f"Got {names!r} instead."
        )
    names = list(names)
    if len(names) != width:
        raise ValueError(
            f"The 'feature_names' parameter of {caller} must name each of X's {width} columns. "
            f"Got {len(names)} names instead."
        )
    seen = set()
    dupes = [n for n in names if n in seen or seen.add(n)]
    if dupes:
        raise ValueError(
            f"The 'feature_names' parameter of {caller} must hold unique names. Got duplicates "
            f"{dupes!r} instead."
        )
    return names


def _from_numpy(X: np.ndarray, feature_names, *, param: str, caller: str) -> Converted:
    if X.ndim != 2:
        raise ValueError(
            f"The {param!r} parameter of {caller} must be a 2-D array (rows x features). "
            f"Got an array of shape {X.shape} instead."
        )
    if feature_names is None:
        names = [f"x{i}" for i in range(X.shape[1])]  # scikit-learn's default names
    else:
        names = _check_names(feature_names, X.shape[1], caller=caller)
    frame = pd.DataFrame(X, columns=names, copy=True)
    if X.dtype == object:
        frame = frame.infer_objects()
    dtype = X.dtype

    def convert(part: pd.DataFrame) -> np.ndarray:
        out = part.to_numpy()
        if not out.flags.writeable:  # copy-on-write's read-only view: the model may write to its input
            out = out.copy()
        # A shifted integer column may hold a float edge; keep float then.
        return out.astype(dtype, copy=False) if out.dtype == object and dtype != object else out

    return Converted(frame, Native("numpy", convert))


def _converter(kind: str, schema) -> Callable[[pd.DataFrame], object]:
    """Internal pandas frame -> the user's polars DataFrame or pyarrow Table.

    Categorical and string columns get their original types back (a polars
    ``Enum``, a pyarrow dictionary); numeric columns keep what the shifted
    frame holds (a partial dependence grid puts floats into an integer column).
    """
    if kind == "polars":
        import polars as pl

        restore = {name: dtype for name, dtype in schema.items() if not dtype.is_numeric()}

        def convert(part: pd.DataFrame) -> object:
            out = pl.from_pandas(part)
            differ = {name: dtype for name, dtype in restore.items() if out.schema[name] != dtype}
            return out.cast(differ) if differ else out

        return convert
    import pyarrow as pa

    restore = {field.name: field.type for field in schema
               if not (pa.types.is_integer(field.type) or pa.types.is_floating(field.type))}

    def convert(part: pd.DataFrame) -> object:
        out = pa.Table.from_pandas(part, preserve_index=False)
        for name, dtype in restore.items():
            position = out.schema.get_field_index(name)
            if out.schema.field(position).type != dtype:
                out = out.set_column(position, name, out.column(position).cast(dtype))
        return out

    return convert


def as_pandas(X: object, *, param: str, caller: str, feature_names: Sequence | None = None):
    """Return ``(frame, native)``: X as a pandas DataFrame and what it was.

    Parameters
    ----------
    X : object
        A pandas or polars DataFrame, a pyarrow Table, a 2-D NumPy array,
        or a :class:`Converted`.
    param, caller : str
        For error messages.
    feature_names : sequence, optional
        Column names of a NumPy array (``x0``, ``x1``, ... by default, as
        scikit-learn's displays).

    Returns
    -------
    frame : pandas.DataFrame
        X itself when it is pandas (never copied), else a new frame.  Dask
        and Spark frames are returned unchanged.
    native : Native

    Notes
    -----
    Conversion is narwhals' ``to_pandas``.  A polars ``Enum`` becomes an
    *ordered* pandas Categorical (its level order is kept, as for any
    ordered categorical); a polars ``Categorical`` an unordered one, its
    levels in the order polars reports them; a pyarrow dictionary column a
    Categorical with its categories and ``ordered`` flag.  Strings stay
    strings, so their levels are sorted as for pandas strings.
    """
    if isinstance(X, Converted):
        return X.frame, X.native
    if isinstance(X, pd.DataFrame):
        if feature_names is not None and list(feature_names) != list(X.columns):
            raise ValueError(
                f"The 'feature_names' parameter of {caller} applies to a NumPy array X; X is a "
                "pandas DataFrame with its own column names. Rename its columns instead."
            )
        return X, PANDAS
    if isinstance(X, np.ndarray):
        return _from_numpy(X, feature_names, param=param, caller=caller)
    kind = type(X).__module__.split(".")[0]
    if is_engine_frame(X):  # Dask, Spark, a polars LazyFrame: left to the engine that reads it
        # a LazyFrame's blocks reach the model as polars DataFrames, as an eager polars frame's rows do
        return X, (Native(kind, _converter(kind, dict(X.collect_schema()))) if kind == "polars" else PANDAS)
    if kind not in ("polars", "pyarrow") or type(X).__name__ not in ("DataFrame", "Table"):
        shown = type(X).__name__ if kind == "builtins" else f"{kind.replace('dask_expr', 'dask')}.{type(X).__name__}"
        hint = ""
        if is_engine_object(X):  # a Dask Series or Array, a Spark Column
            hint = (f" A {engine_name(X)} is computed on where it is, but not a "
                    f"{type(X).__name__}: pass a DataFrame (e.g. a Dask Series' .to_frame(), or the Spark "
                    "DataFrame the column belongs to).")
        raise TypeError(f"The {param!r} parameter of {caller} must be {_SUPPORTED}. Got {shown} instead.{hint}")
    try:
        import narwhals as nw
    except ImportError as exc:  # an extra, not a core dependency
        raise ImportError(
            f"The {param!r} parameter of {caller} is a {kind} {type(X).__name__}; reading it needs narwhals: "
            "pip install \"pyale-r[frames]\" (or pip install narwhals), or pass X.to_pandas()."
        ) from exc

    frame = nw.from_native(X, eager_only=True, pass_through=True)
    if not isinstance(frame, nw.DataFrame):
        raise TypeError(
            f"The {param!r} parameter of {caller} must be {_SUPPORTED}. "
            f"Got {kind}.{type(X).__name__} instead."
        )
    if feature_names is not None and list(feature_names) != list(frame.columns):
        raise ValueError(
            f"The 'feature_names' parameter of {caller} applies to a NumPy array X; X is a "
            f"{kind} {type(X).__name__} with its own column names."
        )
    schema = dict(X.schema) if kind == "polars" else X.schema
    pandas_frame = frame.to_pandas()
    if not isinstance(pandas_frame.index, pd.RangeIndex):
        pandas_frame = pandas_frame.reset_index(drop=True)
    return pandas_frame, Native(kind, _converter(kind, schema))
