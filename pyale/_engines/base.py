"""The engine interface: blocks of rows, mapped and reduced."""

from __future__ import annotations

from typing import Any, Callable, Sequence

import pandas as pd

__all__ = ["Engine", "DataChangedError", "add_results"]


class DataChangedError(RuntimeError):
    """The blocks answered a later pass with counts that contradict an earlier one."""


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
    name : str
        How messages name the data (e.g. ``"Dask DataFrame"``).
    collect : str
        How a user brings the rows into memory as a frame pyale reads there
        (e.g. ``"X.compute()"``), for messages that suggest it.
    keep_positive_hint : str
        How a user keeps the rows of positive weight, ``{column!r}`` the
        weight column (see :meth:`keep_positive`).
    """

    n_rows: int
    columns: pd.Index
    dtypes: pd.Series
    name: str = "data frame"
    collect: str = "a pandas DataFrame of its rows"
    keep_positive_hint: str = "keep only the rows where {column!r} > 0"

    def _speaks_as(self, engine: "Engine") -> None:
        """Messages name this engine's data as ``engine``'s (for engines that wrap another)."""
        self.name, self.collect, self.keep_positive_hint = engine.name, engine.collect, engine.keep_positive_hint

    def keep_positive(self, column) -> str:
        """How to keep the rows where ``column`` is positive, in the words of this engine's library."""
        return self.keep_positive_hint.format(column=column)

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

    def head(self, n: int) -> pd.DataFrame | None:
        """Some ``n`` rows with the dtypes blocks carry, read cheaply (for a model probe); None if not cheap."""
        return None

    @property
    def in_memory(self) -> bool:
        """Whether :meth:`column` and :meth:`frame` are available."""
        return False

