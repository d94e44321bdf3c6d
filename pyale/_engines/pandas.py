"""The in-memory engine: a pandas DataFrame, in one block or in blocks of rows."""

from __future__ import annotations

import functools

from typing import Any, Callable, Sequence

import pandas as pd

from .base import Engine, add_results

__all__ = ["PandasEngine"]


class PandasEngine(Engine):
    """A pandas DataFrame as an engine.

    Parameters
    ----------
    frame : pandas.DataFrame
        The data (never modified).
    max_rows_per_block : int, optional
        Split the rows into blocks of at most this many rows (one block by
        default).
    """

    name = "pandas DataFrame"

    def __init__(self, frame: pd.DataFrame, *, max_rows_per_block: int | None = None):
        self.frame = frame
        self.n_rows = frame.shape[0]
        self.columns = frame.columns
        self.max_rows_per_block = max_rows_per_block

    @functools.cached_property
    def dtypes(self) -> pd.Series:
        # Made when first asked for: a Series of dtypes costs more than a small frame's whole ALE pass.
        return self.frame.dtypes

    @property
    def in_memory(self) -> bool:
        return True

    def column(self, name) -> pd.Series:
        return self.frame[name]

    def head(self, n: int) -> pd.DataFrame:
        return self.frame.head(n)

    def blocks(self):
        """``(block, offset)`` pairs in order."""
        n, step = self.n_rows, self.max_rows_per_block
        if step is None or n <= step:
            yield self.frame, 0
            return
        for start in range(0, n, step):
            yield self.frame.iloc[start : start + step], start

    def map_reduce(
        self,
        func: Callable[[pd.DataFrame, int], Any],
        combine: Callable[[Any, Any], Any] = add_results,
        *,
        columns: Sequence | None = None,
    ) -> Any:
        total = None  # ``columns`` is only a hint: the blocks keep every column
        for block, offset in self.blocks():
            part = func(block, offset)
            total = part if total is None else combine(total, part)
        return total
