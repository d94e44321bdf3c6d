"""The map stage's vocabulary: axes, plans and the entries a block of rows gives.

For each effect (a :class:`Plan`: its axes, its convention and options), a
block of rows is shifted across the grid, the model is called on the shifted
copies, and the individual local differences are returned as *entries*: for
each entry, its group (interval, level jump or cell), the block row it comes
from and its difference.  Where rows move is the plan's convention's rule
(:meth:`pyale._core.conventions.base.Convention.block_entries`);
:mod:`pyale._core.reduce.estimate` turns entries into group sums (weighted, and per
bootstrap replicate) that blocks add up.

Every computation is per block, so it runs unchanged on a whole pandas
frame, on row blocks of it, or inside Dask or Spark partitions.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..._rbase import bin_right_closed
from .shifted import categorical_column_values, numeric_grid_values

__all__ = ["NumericAxis", "LevelAxis", "Plan", "Entries"]


@dataclass(frozen=True)
class NumericAxis:
    """A numeric feature's intervals ``(edges[k], edges[k + 1]]`` (the lowest edge in the first).

    ``occupied`` marks the intervals holding rows in the whole data: only
    their edges decide whether an integer (or float32) column keeps its
    dtype in the shifted copies, the same in every block.
    """

    name: object
    edges: np.ndarray
    occupied: np.ndarray
    #: ``(frame, bins, counts)`` already computed for one in-memory frame (not sent to workers):
    #: ``counts`` are the rows per interval, or None when some rows lie outside the edges.
    known: tuple | None = field(default=None, compare=False, repr=False)

    @property
    def n_intervals(self) -> int:
        return self.edges.shape[0] - 1

    def counts(self, block: pd.DataFrame) -> np.ndarray | None:
        """Rows per interval when already known and every row of the block lies inside the edges."""
        return self.known[2] if self.known is not None and self.known[0] is block else None

    def bins(self, block: pd.DataFrame) -> np.ndarray:
        """Interval of each row of the block; -1 for rows outside the edges."""
        if self.known is not None and self.known[0] is block:
            return self.known[1]
        values = block[self.name].to_numpy(dtype=float, na_value=np.nan)
        bins = bin_right_closed(values, self.edges)
        bins[bins >= self.n_intervals] = -1
        return bins

    def edge_values(self, column: pd.Series) -> tuple:
        """The lower and upper edges in the column's dtype, for rows to ``take`` by interval."""
        return (
            numeric_grid_values(column, self.edges[:-1], self.occupied),
            numeric_grid_values(column, self.edges[1:], self.occupied),
        )


@dataclass(frozen=True)
class LevelAxis:
    """A categorical feature's levels (as they occur in the data) and their order.

    ``levels`` are the labels in the column's own level order (the codes'
    reference); ``order`` lists indices into ``levels`` from lowest to
    highest.
    """

    name: object
    levels: tuple
    order: np.ndarray
    #: ``(frame, codes)`` already computed for one in-memory frame (not sent to workers).
    known: tuple | None = field(default=None, compare=False, repr=False)
    rank_of_level: np.ndarray = field(init=False, repr=False)

    def __post_init__(self):
        rank = np.empty(len(self.levels), dtype=np.int64)
        rank[self.order] = np.arange(len(self.levels))
        object.__setattr__(self, "rank_of_level", rank)

    @property
    def n_levels(self) -> int:
        return len(self.levels)

    def codes(self, column: pd.Series) -> np.ndarray:
        """Index into ``levels`` of each row (-1 for a value that is not a level)."""
        index = pd.Index(list(self.levels), dtype=object)
        if isinstance(column.dtype, pd.CategoricalDtype):
            lookup = np.append(index.get_indexer(column.cat.categories.astype(object)), -1)
            return lookup[np.asarray(column.cat.codes)].astype(np.int64)
        return index.get_indexer(column.to_numpy(dtype=object)).astype(np.int64)

    def ranks(self, block: pd.DataFrame) -> np.ndarray:
        """Rank (position in ``order``) of each row's level; -1 for rows without a level."""
        if self.known is not None and self.known[0] is block:
            codes = self.known[1]
        else:
            codes = self.codes(block[self.name])
        return np.where(codes >= 0, self.rank_of_level[np.maximum(codes, 0)], -1)

    def column_values(self, column: pd.Series, ranks: np.ndarray):
        """Values for the column with each row set to the level of the given rank."""
        return categorical_column_values(column, self, self.order[ranks])


@dataclass(frozen=True)
class Plan:
    """One effect to estimate: its axes, whose rules estimate it, and options.

    Attributes
    ----------
    axes : tuple
        One axis, or two (a categorical axis, if any, first; any order
        under the ``ale`` package's rules).
    convention : Convention
        The reference package's rules (:mod:`pyale._core.conventions`): where
        rows move (map) and how local effects are accumulated and centred
        (reduce).
    empty_intervals : {"error", "zero", "nan"}
        What a numeric interval without rows contributes (see
        :mod:`pyale._core.reduce.accumulate`); "nan" (the ``ale`` package's rules
        only): NaN from that bin on, left out of the centring as R's
        ``na.rm = TRUE`` leaves it out (a ``ModelBoot`` refit's ALE on its
        resample, with the full data's bins).
    spread : bool
        Also compute the spread of the individual local differences per
        group (heterogeneity).
    replicate_r_bugs : bool
        Where the reference package is knowingly wrong, compute its number
        anyway (``pyale.ALE(..., replicate_r_bugs=True)``); see
        ``docs/deviations.md``.
    """

    axes: tuple
    convention: object
    empty_intervals: str = "error"
    spread: bool = False
    replicate_r_bugs: bool = False

    @property
    def kind(self) -> str:
        kinds = ["categorical" if isinstance(a, LevelAxis) else "numeric" for a in self.axes]
        return " x ".join(kinds)

    @property
    def purpose(self) -> str:
        names = [repr(a.name) for a in self.axes]
        return f"ALE of {names[0]}" if len(names) == 1 else f"ALE of ({', '.join(names)})"


@dataclass(frozen=True)
class Entries:
    """Individual contributions of a block's rows to a set of groups.

    ``groups[i]`` is the group of entry ``i``, ``rows[i]`` the block row it
    comes from (``rows`` None: entry ``i`` is row ``i``, every row once),
    ``values[i]`` its local difference (``None`` for sets that only count
    rows, such as the centring weights of a categorical axis).
    """

    groups: np.ndarray
    rows: np.ndarray | None
    n_groups: int
    values: np.ndarray | None = None
    #: Entries per group when known beforehand (no group is then negative).
    counts: np.ndarray | None = None

    def row_positions(self) -> np.ndarray:
        """``rows``, or ``0 .. n - 1`` when every row enters once in order."""
        return np.arange(self.groups.shape[0]) if self.rows is None else self.rows


def _per_part(compute):
    """Memoise ``compute(part)`` for the latest block of rows (the variants of a block share it)."""
    last = {}

    def cached(part):
        key = (part.start, part.stop)
        if key not in last:
            last.clear()
            last[key] = compute(part)
        return last[key]

    return cached
