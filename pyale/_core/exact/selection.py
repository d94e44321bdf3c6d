"""Exact order statistics of columns that live in blocks, by histogram refinement.

The sample of a column is its finite values.  With ``n`` of them and the
keys (:mod:`pyale._core.exact.cellmaps`) of the minimum and maximum known from
the column checks, the passes over the blocks are:

1. *histogram*: count the values per cell of a monotone map of the whole
   range (at most ``2**cell_bits`` cells, equal width in value); the
   cumulative counts say which cell holds each wanted position and how many
   values lie below it, and bisection gives each such cell's exact key range;
2. *gather* the values of the cells that hold wanted positions and sort
   them; a cell holding too many values is histogrammed again instead (its
   range shrinks ``2**cell_bits``-fold per pass), and a range whose values
   share one key needs no gathering at all (heavy ties, integers).

Several columns share every pass.  A sample small enough to gather whole is
gathered in the first pass.  The answer is ``np.sort(x)[positions]``: exactly
the same doubles (a zero may carry either sign where the data hold both,
as with ``np.sort``, whose order among equal values is unspecified).  Each
pass checks that the blocks still hold the counts of the previous one, so a
data source that changes between passes (an unpersisted, non-deterministic
Spark plan) is an error, not a wrong number.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from ..._rbase.exact import ExactSums, exact_group_sums, exact_running_sums
from ..._engines.base import DataChangedError
from .cellmaps import TOP, CellMap, float_keys, float_of_key, key_of
from .columns import numeric_values

__all__ = ["select_order_statistics", "DataChangedError", "GATHER_BUDGET", "CELL_BITS"]

#: Values gathered to the caller per pass, over all columns.
GATHER_BUDGET = 1 << 21
#: Cells per histogram of a range (fewer when many ranges are histogrammed in one pass).
CELL_BITS = 16


@dataclass
class _Answer:
    """One group's answer from any number of blocks (added block by block).

    ``values``/``which``: gathered values and the index (in the group) of the
    range each belongs to; ``counts``: the histograms of the group's
    histogrammed ranges, end to end; ``lows``/``highs``: the smallest and
    largest key seen per range.
    """

    values: list
    which: list
    counts: np.ndarray
    lows: np.ndarray
    highs: np.ndarray
    weights: list | None = None  # weighted: gathered weights, and exact weight sums per cell
    sums: ExactSums | None = None

    def __add__(self, other: "_Answer") -> "_Answer":
        weighted = self.sums is not None
        return _Answer(
            self.values + other.values,
            self.which + other.which,
            self.counts + other.counts,
            np.minimum(self.lows, other.lows),
            np.maximum(self.highs, other.highs),
            self.weights + other.weights if weighted else None,
            self.sums + other.sums if weighted else None,
        )


@dataclass(frozen=True)
class _Group:
    """Ranges of one column that are cells of one parent map (or one whole column).

    Range ``i`` is cell ``cells[i]`` of ``parent`` (``parent`` is None for a
    group of one range holding the whole column).  Range ``i`` is gathered
    when ``maps[i]`` is None, else histogrammed over ``maps[i]``'s cells.
    """

    column: object
    parent: CellMap | None
    parent_whole: bool  # the parent's range holds every finite value of the column
    cells: tuple
    maps: tuple

    def empty_answer(self, weighted: bool = False) -> _Answer:
        n = len(self.cells)
        n_counts = sum(m.n_cells for m in self.maps if m is not None)
        return _Answer(
            [], [], np.zeros(n_counts, np.int64), np.full(n, TOP, np.uint64), np.zeros(n, np.uint64),
            [] if weighted else None, ExactSums.zeros(n_counts) if weighted else None,
        )


class _Sample:
    """The finite values of one column in one block (weights alongside), keys made on demand."""

    def __init__(self, values: np.ndarray, weights: np.ndarray | None, keys: np.ndarray | None = None):
        self.values, self.weights, self._keys = values, weights, keys

    @property
    def keys(self) -> np.ndarray:
        if self._keys is None:
            self._keys = float_keys(self.values)
        return self._keys

    def __len__(self) -> int:
        return self.values.shape[0]

    def subset(self, mask) -> "_Sample":
        return _Sample(
            self.values[mask],
            None if self.weights is None else self.weights[mask],
            None if self._keys is None else self._keys[mask],
        )

    def within(self, low: int, high: int) -> np.ndarray:
        """Mask of the keys in ``[low, high]`` (by value where no zero makes keys and values differ)."""
        a, b = float_of_key(low), float_of_key(high)
        if a == 0 or b == 0:
            return (self.keys >= np.uint64(low)) & (self.keys <= np.uint64(high))
        return (self.values >= a) & (self.values <= b)

    def key_bounds(self) -> tuple[int, int]:
        """Keys at or below the smallest and at or above the largest value (exact unless zeros)."""
        low, high = float(self.values.min()), float(self.values.max())
        return key_of(-0.0) if low == 0 else key_of(low), key_of(0.0) if high == 0 else key_of(high)

    def cells(self, cell_map: CellMap) -> np.ndarray:
        return cell_map.cells(self.values, self.keys if cell_map.shift is not None else None)


def _answer_group(group: _Group, sample: _Sample) -> _Answer:
    answer = group.empty_answer(weighted=sample.weights is not None)
    parent = group.parent
    if parent is None:  # one range: the whole column
        which = None
    else:
        if not group.parent_whole:
            sample = sample.subset(sample.within(parent.low, parent.high))
        table = np.full(parent.n_cells, -1, dtype=np.intp)
        table[list(group.cells)] = np.arange(len(group.cells))
        which = table[sample.cells(parent)]
        wanted = which >= 0
        sample, which = sample.subset(wanted), which[wanted]
    gathered = np.array([m is None for m in group.maps])
    if which is None:
        to_gather = slice(None) if gathered[0] else None
    else:
        to_gather = gathered[which]
        to_gather = to_gather if to_gather.any() else None
    if to_gather is not None:
        answer.values.append(sample.values[to_gather])
        answer.which.append(np.zeros(len(sample), np.int32) if which is None else which[to_gather].astype(np.int32))
        if sample.weights is not None:
            answer.weights.append(sample.weights[to_gather])
    start, sums = 0, []
    for i, cell_map in enumerate(group.maps):
        if cell_map is None:
            continue
        mine = sample if which is None or len(group.maps) == 1 else sample.subset(which == i)
        if len(mine):
            cells = mine.cells(cell_map)
            answer.counts[start : start + cell_map.n_cells] += np.bincount(cells, minlength=cell_map.n_cells)
            if mine.weights is not None:  # exact, so the cells' sums do not depend on the blocks
                sums.append(exact_group_sums(cells, mine.weights, cell_map.n_cells))
            answer.lows[i], answer.highs[i] = mine.key_bounds()
        elif answer.sums is not None:
            sums.append(ExactSums.zeros(cell_map.n_cells))
        start += cell_map.n_cells
    if answer.sums is not None:
        answer.sums = ExactSums.concatenate(sums)
    return answer


def _pass_block(block, offset, groups, weight=None):
    """One block's answer to every group of one pass."""
    samples = {}
    out = []
    row_weights = None if weight is None else numeric_values(block[weight])
    for group in groups:
        if group.column not in samples:
            values = numeric_values(block[group.column])
            finite = np.isfinite(values)
            if finite.all():
                samples[group.column] = _Sample(values, row_weights)
            else:
                samples[group.column] = _Sample(values[finite], None if row_weights is None else row_weights[finite])
        out.append(_answer_group(group, samples[group.column]))
    return out


@dataclass
class _Range:
    """Wanted positions whose values lie in a key range of one column.

    The range is cell ``cell`` of the map ``parent`` (None for a whole column).
    """

    column: object
    low: int
    high: int
    below: int  # values of the column with a smaller key
    count: int  # values with a key in [low, high]
    positions: np.ndarray  # unweighted: positions; weighted: cumulative-weight targets
    below_weight: object = 0.0  # weighted: the exact weight (ExactSums) of the values with a smaller key
    parent: CellMap | None = None
    cell: int = 0
    whole: bool = False  # the range holds every finite value of the column
    parent_whole: bool = False  # the parent's range did


def _check(found: int, expected: int, column) -> None:
    if found != expected:
        raise DataChangedError(
            f"Column {column!r} held {expected} values in a key range in one pass over the data "
            f"and {found} in the next: the data changed between passes. Persist or checkpoint a "
            "data frame whose computation is not deterministic (e.g. Spark's df.persist()) first."
        )


def select_order_statistics(
    engine,
    wanted: dict,
    bounds: dict,
    *,
    weight=None,
    gather_budget: int = GATHER_BUDGET,
    cell_bits: int = CELL_BITS,
) -> dict:
    """Finite order statistics of several columns over ``engine.map_reduce``.

    Parameters
    ----------
    engine : Engine
        Where the rows live.
    wanted : dict
        Column -> 0-based positions in the column's sorted finite values
        (validated by the caller); with ``weight``, cumulative-weight
        targets ``t``: the answer is the smallest value of positive weight
        whose values at or below it weigh at least ``t`` (the smallest value
        of positive weight for ``t <= 0``).
    bounds : dict
        Column -> ``(n_finite, minimum, maximum)`` of its finite values.
    weight : label, optional
        A column of non-negative row weights.
    gather_budget, cell_bits : int
        Values gathered per pass; log2 of the cells per histogram pass
        (small values make tests exercise every refinement).

    Returns
    -------
    dict
        Column -> float64 array aligned with ``wanted[column]``.
    """
    kind = np.int64 if weight is None else np.float64
    ranges = []
    for column, positions in wanted.items():
        positions = np.asarray(positions, dtype=kind)
        if positions.shape[0] == 0:
            continue
        n, minimum, maximum = bounds[column]
        low = key_of(-0.0) if minimum == 0 else key_of(minimum)
        high = key_of(0.0) if maximum == 0 else key_of(maximum)
        ranges.append(_Range(column, low, high, 0, n, np.unique(positions), whole=True))
    value_at: dict = {column: {} for column in wanted}
    while ranges:
        ranges = _settle_single_keys(ranges, value_at)
        if not ranges:
            break
        groups, members = _plan(ranges, gather_budget, cell_bits)
        columns = list(dict.fromkeys(g.column for g in groups))
        results = engine.map_reduce(
            functools.partial(_pass_block, groups=groups, weight=weight),
            columns=columns if weight is None else [*columns, weight],
        )
        if results is None:  # an engine without blocks
            results = [g.empty_answer(weighted=weight is not None) for g in groups]
        ranges = []
        for group, items, answer in zip(groups, members, results):
            ranges.extend(_use_answer(group, items, answer, value_at))
    found = {}
    for column, positions in wanted.items():
        lookup = value_at[column]
        found[column] = np.array([lookup[p] for p in np.asarray(positions, dtype=kind).tolist()], dtype=float)
    return found


def _settle_single_keys(ranges, value_at):
    """Answer ranges that hold one key only; return the rest."""
    rest = []
    for item in ranges:
        if item.low == item.high:
            value = float_of_key(item.low)
            value_at[item.column].update((p, value) for p in item.positions.tolist())
        else:
            rest.append(item)
    return rest


def _plan(ranges, gather_budget, cell_bits):
    """Group the ranges by parent; gather the smallest within the budget, histogram the rest."""
    gathered = set()
    spent = 0
    for index in sorted(range(len(ranges)), key=lambda i: ranges[i].count):
        if spent + ranges[index].count > gather_budget:
            break
        spent += ranges[index].count
        gathered.add(index)
    n_histograms = len(ranges) - len(gathered)
    # Up to eight ranges (a first pass over several columns) get every cell; more share.
    bits = max(2, min(cell_bits, cell_bits + 3 - max(0, n_histograms - 1).bit_length()))
    by_parent: dict = {}
    for index, item in enumerate(ranges):
        key = (item.column, item.parent, None if item.parent is not None else index)
        by_parent.setdefault(key, []).append(index)
    groups, members = [], []
    for (column, parent, _), indices in by_parent.items():
        items = [ranges[i] for i in indices]
        maps = tuple(None if i in gathered else CellMap.over(ranges[i].low, ranges[i].high, bits) for i in indices)
        parent_whole = parent is not None and items[0].parent_whole
        groups.append(_Group(column, parent, parent_whole, tuple(it.cell for it in items), maps))
        members.append(items)
    return groups, members


def _use_answer(group: _Group, items, answer: _Answer, value_at) -> list:
    """Record gathered values; return the sub-ranges of histogrammed ranges."""
    weighted = answer.sums is not None
    values, weights = np.empty(0), np.empty(0)
    bounds = np.zeros(len(items) + 1, dtype=np.intp)
    if answer.values:
        which = np.concatenate(answer.which)
        order = np.argsort(which, kind="stable")
        values, which = np.concatenate(answer.values)[order], which[order]
        weights = np.concatenate(answer.weights)[order] if weighted else None
        bounds = np.searchsorted(which, np.arange(len(items) + 1))
    out = []
    start = 0
    for i, (item, cell_map) in enumerate(zip(items, group.maps)):
        if cell_map is None:
            mine = slice(bounds[i], bounds[i + 1])
            _check(bounds[i + 1] - bounds[i], item.count, item.column)
            if weighted:
                picked = _by_weight(values[mine], weights[mine], item)
            else:
                picked = np.sort(values[mine])[item.positions - item.below]
            value_at[item.column].update(zip(item.positions.tolist(), picked.tolist()))
            continue
        counts = answer.counts[start : start + cell_map.n_cells]
        sums = answer.sums[start : start + cell_map.n_cells] if weighted else None
        start += cell_map.n_cells
        out.extend(_split(item, cell_map, counts, sums, int(answer.lows[i]), int(answer.highs[i])))
    return out


def _by_weight(values: np.ndarray, weights: np.ndarray, item: _Range) -> np.ndarray:
    """Smallest value of positive weight reaching each cumulative-weight target."""
    positive = weights > 0
    order = np.argsort(values[positive], kind="stable")
    values = values[positive][order]
    reached = (item.below_weight + exact_running_sums(weights[positive][order])).rounded()  # as in memory
    index = np.where(item.positions > 0, np.searchsorted(reached, item.positions, side="left"), 0)
    return values[np.minimum(index, values.shape[0] - 1)]  # past the end only by rounding


def _split(item: _Range, cell_map: CellMap, counts: np.ndarray, sums, seen_low: int, seen_high: int):
    """The sub-ranges (one per cell holding wanted positions) after a histogram pass."""
    _check(int(counts.sum()), item.count, item.column)
    if seen_low == seen_high:  # every value in the range is the same
        return [_Range(item.column, seen_low, seen_low, item.below, item.count, item.positions)]
    ends = np.cumsum(counts) + item.below
    if sums is None:
        cells = np.searchsorted(ends, item.positions, side="right")
    else:
        # Exact running weights, rounded once: the in-memory running sums of the same values.
        reached = (item.below_weight + sums.cumsum(0)).rounded()
        positive = np.flatnonzero(sums.positive())
        cells = np.where(item.positions > 0, np.searchsorted(reached, item.positions, side="left"), positive[0])
        cells = np.minimum(cells, positive[-1])  # targets never pass the total; kept as a guard
        before = item.below_weight + sums.exclusive_cumsum()
    wanted = np.unique(cells)
    starts = cell_map.first_keys(wanted)
    stops = cell_map.first_keys(wanted + 1)
    out = []
    for cell, first, after in zip(wanted.tolist(), starts, stops):
        count = int(counts[cell])
        out.append(
            _Range(item.column, max(int(first), seen_low), min(int(after) - 1, seen_high), int(ends[cell]) - count,
                   count, item.positions[cells == cell], 0.0 if sums is None else before[cell],
                   parent=cell_map, cell=cell, parent_whole=item.whole)
        )
    return out
