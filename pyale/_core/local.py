"""The map stage: what one block of rows contributes to an effect.

For each effect (a :class:`Plan`: its axes and options), a block of rows is
shifted across the grid, the model is called on the shifted copies, and the
individual local differences are returned as *entries*: for each entry, its
group (interval, level jump or cell), the block row it comes from and its
difference.  :mod:`pyale._core.estimate` turns entries into group sums
(weighted, and per bootstrap replicate) that blocks add up.

Every computation here is per block, so it runs unchanged on a whole pandas
frame, on row blocks of it, or inside Dask or Spark partitions.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .._rbase import bin_right_closed
from .calls import predict_variants
from .shifted import Gather, categorical_column_values, numeric_grid_values

__all__ = ["NumericAxis", "LevelAxis", "Plan", "Entries", "block_entries"]


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
    """One effect to estimate: its axes (numeric and/or levels) and options.

    Attributes
    ----------
    axes : tuple
        One axis, or two (a categorical axis, if any, first).
    empty_intervals : {"error", "zero"}
        What a numeric interval without rows contributes (see
        :mod:`pyale._core.accumulate`).
    imputation : {"aleplot", "iml"}
        Pairs: the layout of the nearest-non-empty-cell search.
    spread : bool
        Also compute the spread of the individual local differences per
        group (heterogeneity).
    rules : {"aleplot", "ale"}
        ``"aleplot"``: ALEPlot 1.1's formulas (iml 0.11.4 shares them; pairs
        differ by ``imputation``).  ``"ale"``: R's ale 0.5.0 (bins with the
        minimum's own bin, backward differences, its centring; axes from
        :mod:`pyale._core.ale_local`, reduced by :mod:`pyale._core.ale_accumulate`).
    """

    axes: tuple
    empty_intervals: str = "error"
    imputation: str = "aleplot"
    spread: bool = False
    rules: str = "aleplot"

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


def block_entries(plan: Plan, block: pd.DataFrame, caller, *, rows_per_call=None, shared=None) -> dict[str, Entries]:
    """The local differences of one block for one effect.

    Returns ``{"local": Entries}`` and, where centring uses other groups than
    the local effects (categorical axes), ``"centre"`` too.  ``shared`` is a
    ``(ShiftedFrames, last_use)`` pair over all of the block's rows that
    effects predicting every row share (see
    :func:`~pyale._core.calls.predict_variants`).
    """
    if plan.rules == "ale":
        from .ale_local import block_entries as ale_block_entries

        return ale_block_entries(plan, block, caller, rows_per_call=rows_per_call)
    kind = plan.kind
    if kind == "numeric":
        return _numeric(plan, block, caller, rows_per_call, shared)
    if kind == "categorical":
        return _categorical(plan, block, caller, rows_per_call)
    if kind == "numeric x numeric":
        return _numeric_pair(plan, block, caller, rows_per_call, shared)
    return _categorical_numeric_pair(plan, block, caller, rows_per_call)


def shares_rows(plan: Plan) -> bool:
    """Whether the plan's map stage can use a private copy of all rows shared with other effects."""
    return plan.rules != "ale" and plan.kind in ("numeric", "numeric x numeric")


def _inside(bins: np.ndarray) -> np.ndarray | None:
    """Positions of the rows inside the grid, or None when all are."""
    return None if bins.shape[0] == 0 or bins.min() >= 0 else np.flatnonzero(bins >= 0)


def _numeric(plan, block, caller, rows_per_call, shared=None):
    axis = plan.axes[0]
    bins = axis.bins(block)
    rows = _inside(bins)
    kept = bins if rows is None else bins[rows]
    lower, upper = axis.edge_values(block[axis.name])
    y_lower, y_upper = predict_variants(caller, block, [
        (plan.purpose + " (rows at the lower interval edge)", lambda part: {axis.name: Gather(lower, kept[part])}),
        (plan.purpose + " (rows at the upper interval edge)", lambda part: {axis.name: Gather(upper, kept[part])}),
    ], rows=rows, rows_per_call=rows_per_call, shared=shared)
    differences = np.subtract(y_upper, y_lower, out=y_upper)
    counts = axis.counts(block) if rows is None else None
    return {"local": Entries(kept, rows, axis.n_intervals, differences, counts)}


def _categorical(plan, block, caller, rows_per_call):
    axis = plan.axes[0]
    n_levels = axis.n_levels
    rank = axis.ranks(block)
    column = block[axis.name]
    up_rows = np.flatnonzero((rank >= 0) & (rank < n_levels - 1))
    down_rows = np.flatnonzero(rank > 0)
    present = np.flatnonzero(rank >= 0)

    def moved(rows, step):
        return lambda part: {axis.name: axis.column_values(column, rank[rows[part]] + step)}

    all_rows = None if present.shape[0] == block.shape[0] else present
    (y_all,) = predict_variants(caller, block, [(plan.purpose + " (rows as observed)", lambda part: {})],
                                rows=all_rows, rows_per_call=rows_per_call)
    if all_rows is not None:
        full = np.full((block.shape[0], y_all.shape[1]), np.nan)
        full[present] = y_all
        y_all = full
    (y_up,) = predict_variants(caller, block, [(plan.purpose + " (rows moved one level up)", moved(up_rows, 1))],
                               rows=up_rows, rows_per_call=rows_per_call)
    (y_down,) = predict_variants(caller, block, [(plan.purpose + " (rows moved one level down)", moved(down_rows, -1))],
                                 rows=down_rows, rows_per_call=rows_per_call)
    local = Entries(
        groups=np.concatenate([rank[up_rows], rank[down_rows] - 1]),
        rows=np.concatenate([up_rows, down_rows]),
        n_groups=n_levels - 1,
        values=np.vstack([y_up - y_all[up_rows], y_all[down_rows] - y_down]),
    )
    centre = Entries(groups=rank[present], rows=present, n_groups=n_levels)
    return {"local": local, "centre": centre}


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


def _numeric_pair(plan, block, caller, rows_per_call, shared=None):
    first, second = plan.axes
    bins1, bins2 = first.bins(block), second.bins(block)
    rows = _inside(np.where(bins2 < 0, -1, bins1))
    kept1 = bins1 if rows is None else bins1[rows]
    kept2 = bins2 if rows is None else bins2[rows]
    edges = {"1": first.edge_values(block[first.name]), "2": second.edge_values(block[second.name])}
    corner_values = _per_part(lambda part: {
        ("1", side): Gather(edges["1"][side], kept1[part]) for side in (0, 1)
    } | {("2", side): Gather(edges["2"][side], kept2[part]) for side in (0, 1)})

    def corner(side1, side2):
        return lambda part: {
            first.name: corner_values(part)[("1", side1)],
            second.name: corner_values(part)[("2", side2)],
        }

    keys = {"11": (0, 0), "12": (0, 1), "21": (1, 0), "22": (1, 1)}
    y = dict(zip(keys, predict_variants(
        caller, block, [(f"{plan.purpose} (cell corner {key})", corner(*sides)) for key, sides in keys.items()],
        rows=rows, rows_per_call=rows_per_call, shared=shared,
    )))
    # In place (the variants are this function's own arrays, as in _numeric): no full-length temporaries.
    second_order = np.subtract(y["22"], y["21"], out=y["22"])
    second_order -= np.subtract(y["12"], y["11"], out=y["12"])
    cells = np.multiply(kept1, second.n_intervals)
    cells += kept2
    return {"local": Entries(cells, rows, first.n_intervals * second.n_intervals, second_order)}


def _categorical_numeric_pair(plan, block, caller, rows_per_call):
    levels, numeric = plan.axes
    n_levels, k2 = levels.n_levels, numeric.n_intervals
    rank = levels.ranks(block)
    bins2 = numeric.bins(block)
    usable = (rank >= 0) & (bins2 >= 0)
    col1 = block[levels.name]
    lower, upper = numeric.edge_values(block[numeric.name])
    purpose = plan.purpose

    def second_order(rows, low_step, high_step, label):
        def values(part):
            chosen = rows[part]
            out = {"1": Gather(lower, bins2[chosen]), "2": Gather(upper, bins2[chosen])}
            for step in (low_step, high_step):
                if step:
                    out[("level", step)] = levels.column_values(col1, rank[chosen] + step)
            return out

        values = _per_part(values)

        def corner(level_step, side):
            def new_columns(part):
                current = values(part)
                out = {levels.name: current[("level", level_step)]} if level_step else {}
                out[numeric.name] = current[side]
                return out
            return new_columns

        keys = {"11": (low_step, "1"), "12": (low_step, "2"), "21": (high_step, "1"), "22": (high_step, "2")}
        y = dict(zip(keys, predict_variants(
            caller, block,
            [(f"{purpose} ({label}, cell corner {key})", corner(*spec)) for key, spec in keys.items()],
            rows=rows, rows_per_call=rows_per_call,
        )))
        return (y["22"] - y["21"]) - (y["12"] - y["11"])

    up_rows = np.flatnonzero(usable & (rank < n_levels - 1))
    down_rows = np.flatnonzero(usable & (rank > 0))
    d_up = second_order(up_rows, 0, 1, "rows moved one level up")
    d_down = second_order(down_rows, -1, 0, "rows moved one level down")
    jumps = np.concatenate([rank[up_rows], rank[down_rows] - 1])
    cells2 = np.concatenate([bins2[up_rows], bins2[down_rows]])
    local = Entries(
        groups=jumps * k2 + cells2,
        rows=np.concatenate([up_rows, down_rows]),
        n_groups=(n_levels - 1) * k2,
        values=np.vstack([d_up, d_down]),
    )
    present = np.flatnonzero(usable)
    centre = Entries(groups=rank[present] * k2 + bins2[present], rows=present, n_groups=n_levels * k2)
    return {"local": local, "centre": centre}
