"""The engine interface: blocks of rows, mapped and reduced."""

from __future__ import annotations

from typing import Any, Callable, Sequence

import pandas as pd

__all__ = ["Engine", "add_results", "as_engine"]


def add_results(a: Any, b: Any) -> Any:
    """Add two block results of the same structure: arrays, numbers, dicts, tuples/lists of those.

    ``None`` is the neutral element.  Dicts are added key by key (a key present
    on one side only is kept as is).
    """
    if a is None:
        return b
    if b is None:
        return a
    if isinstance(a, dict):
        out = dict(a)
        for key, value in b.items():
            out[key] = add_results(out.get(key), value)
        return out
    if isinstance(a, (tuple, list)):
        return type(a)(add_results(x, y) for x, y in zip(a, b, strict=True))
    return a + b


class Engine:
    """Rows in a fixed global order, processed as blocks of consecutive rows.

    Attributes
    ----------
    n_rows : int
        Number of rows.
    columns : pandas.Index
        Column labels, in order.
    dtypes : pandas.Series
        The pandas dtype of each column as the blocks carry it.
    """

    n_rows: int
    columns: pd.Index
    dtypes: pd.Series

    def map_reduce(
        self,
        func: Callable[[pd.DataFrame, int], Any],
        combine: Callable[[Any, Any], Any] = add_results,
        *,
        columns: Sequence | None = None,
    ) -> Any:
        """``combine`` over every block of ``func(block, offset)``.

        ``block`` is a pandas DataFrame of consecutive rows (never modified
        by the engine's caller: treat it as read-only), ``offset`` the global
        0-based position of its first row.  ``combine`` must be associative;
        results are combined in an unspecified order.  ``columns``, when
        given, names every column ``func`` reads: an engine may then hand it
        blocks holding only those (Dask reads only them from Parquet); the
        rows and their order do not change.
        """
        raise NotImplementedError

    def column(self, name) -> pd.Series:
        """The whole column as a pandas Series (in-memory engines only)."""
        raise NotImplementedError

    @property
    def in_memory(self) -> bool:
        """Whether :meth:`column` and :meth:`frame` are available."""
        return False


def as_engine(data, *, max_rows_per_block: int | None = None) -> Engine:
    """The engine for ``data``: a pandas DataFrame, a Dask or a Spark DataFrame."""
    if isinstance(data, Engine):
        return data
    if isinstance(data, pd.DataFrame):
        from .pandas import PandasEngine

        return PandasEngine(data, max_rows_per_block=max_rows_per_block)
    module = type(data).__module__
    if module.startswith("dask"):
        from .dask import DaskEngine

        return DaskEngine(data)
    if module.startswith("pyspark"):
        from .spark import SparkEngine

        return SparkEngine(data)
    raise TypeError(f"pyale cannot compute on a {module}.{type(data).__name__}.")
