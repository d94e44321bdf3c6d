"""Exact order statistics and right-closed bins of large samples without sorting.

Both rest on one map from values to equal-width cells spanning the sample,
``slot(x) = trunc(clip((x - low) * scale, -1, n_cells) + 1)``.  Every step
(correctly rounded subtraction and multiplication, clipping, truncation) is
non-decreasing in ``x``, so ``slot`` is too: a value in a lower slot is
strictly smaller than a value in a higher slot, whatever the rounding.  That
is all the exactness needs:

* the sorted sample is the concatenation of each slot's sorted values, so an
  order statistic is found by counting values per slot and sorting only the
  slots that hold a wanted position (:func:`order_statistics`);
* in a slot holding no interval edge every value lies strictly between the
  same two edges, and in a slot holding one edge one comparison with it
  decides, so two small tables per slot give every value's interval; slots
  holding several edges (and NaN) are answered by binary search
  (:func:`bins_right_closed`).

The results are identical to ``np.sort(x)[positions]`` and to the plain
``searchsorted`` rule; the tests check ties, integers, heavy tails and edges
beyond the data.  The slots of a read-only sample (``read_feature`` makes
feature values read-only) are kept while that array lives, so a column's
interval edges and its bins share one pass over the data.  Values are
processed in blocks so that temporaries stay in cache, and the passes over
the sample run in threads (:mod:`pyale._threads`: slices of rows, results
the same for any split).  NumPy, or with numba installed the same loops
compiled (:mod:`pyale._compiled`; identical results).
"""

from __future__ import annotations

import threading
import weakref

import numpy as np

from .. import _compiled as compiled
from .. import _scratch as scratch
from .. import _threads as threads

__all__ = ["order_statistics", "bins_right_closed", "MIN_SIZE"]

#: Below this many values plain sorting / binary search is used.
MIN_SIZE = 50_000
_N_CELLS = 1 << 14  # slots fit in uint16
_SAMPLE_SIZE = 2048
_BLOCK = 1 << 16
_MEMO_SIZE = 4
_SEARCH = -2  # table answer: use binary search
_ONE_EDGE = -3  # table answer -3 - i: the slot holds edges[i] only


_CHANGED = ("The values of a feature changed while pyale was reading them (another thread wrote to the data "
            "during the call); no answer can be given from them.")


def _blocks(n: int, start: int = 0):
    """Slices of at most ``_BLOCK`` rows covering ``start .. n - 1``."""
    return (slice(first, min(n, first + _BLOCK)) for first in range(start, n, _BLOCK))


class _SlotMap:
    """The slot of every value of one sample, and the number of values per slot."""

    def __init__(self, x: np.ndarray, low: float, scale: float):
        self.low, self.scale = low, scale
        self.n_slots = _N_CELLS + 2
        n = x.shape[0]
        self.slots = scratch.empty(n, np.uint16)
        use_compiled = compiled.enabled()

        def fill(rows: slice) -> np.ndarray:  # scratch of its own: one thread per slice of rows
            if use_compiled:  # the same loop, compiled: one pass instead of five
                counts = np.zeros(1 << 16, dtype=np.int64)  # any uint16 slot stays inside (see slot_fill)
                compiled.slot_fill(x, low, scale, self.slots, counts, rows.start, rows.stop)
                return counts
            counts = np.zeros(self.n_slots, dtype=np.int64)
            position = np.empty(min(rows.stop - rows.start, _BLOCK))
            for block in _blocks(rows.stop, rows.start):
                # slot_of without its clipping: every value lies in [low, high], so
                # (x - low) * scale lies in [0, n_cells * (1 + 4 eps)] and truncating it + 1
                # gives the same slot as clipping first (n_cells + 1 at the top).
                m = block.stop - block.start
                np.subtract(x[block], low, out=position[:m])
                np.multiply(position[:m], scale, out=position[:m])
                np.add(position[:m], 1.0, out=position[:m])
                found = self.slots[block]
                found[...] = position[:m]  # truncation, i.e. floor of a non-negative number
                per_slot = np.bincount(found, minlength=self.n_slots)
                if per_slot.shape[0] > self.n_slots:
                    raise RuntimeError(_CHANGED)
                counts += per_slot
            return counts

        counts = sum(threads.run(fill, threads.row_slices(n)))  # integer counts: any split gives the same
        if counts.shape[0] > self.n_slots and counts[self.n_slots:].any():
            raise RuntimeError(_CHANGED)
        self.counts = counts[: self.n_slots]

    def slot_of(self, values: np.ndarray) -> np.ndarray:
        """Slots of values: 0 below ``low`` (and NaN), ``c + 1`` for cell ``c``,
        ``n_cells + 1`` at or above the top (a new array: a kept map may serve
        several threads)."""
        m = values.shape[0]
        return _slots(values, self.low, self.scale, np.empty(m), np.empty(m, dtype=np.intp))


def _slots(values: np.ndarray, low: float, scale: float, position: np.ndarray, slot: np.ndarray) -> np.ndarray:
    """The slots of ``values`` (see :meth:`_SlotMap.slot_of`), computed in the given scratch arrays."""
    m = values.shape[0]
    position, slot = position[:m], slot[:m]
    np.subtract(values, low, out=position)
    np.multiply(position, scale, out=position)
    np.fmax(position, -1.0, out=position)
    np.fmin(position, float(_N_CELLS), out=position)
    np.add(position, 1.0, out=position)
    slot[...] = position  # truncation, i.e. floor of a non-negative number
    return slot


_memo: dict[int, tuple[weakref.ref, _SlotMap]] = {}
_memo_lock = threading.RLock()  # callers' threads may share the kept maps (a weakref callback may run inside)


_ranges: dict[int, tuple[weakref.ref, tuple[float, float]]] = {}


def _forget(key: int) -> None:
    with _memo_lock:
        _memo.pop(key, None)
        _ranges.pop(key, None)
        _provisional.pop(key, None)


def note_range(x: np.ndarray, low: float, high: float) -> None:
    """Record ``x.min()`` and ``x.max()`` of a read-only ``x`` that the caller has computed anyway, so
    that its slot map does not read ``x`` again for them (kept while ``x`` lives; ignored for a
    writable ``x``, whose values may change)."""
    if x.flags.writeable:
        return
    key = id(x)
    with _memo_lock:
        if len(_ranges) >= _MEMO_SIZE:
            _ranges.pop(next(iter(_ranges)))
        _ranges[key] = (weakref.ref(x, lambda _, key=key: _forget(key)), (float(low), float(high)))


def _range(x: np.ndarray) -> tuple[float, float]:
    """``(min, max)`` of ``x``, NaN where a value is NaN (from :func:`note_range` when recorded)."""
    with _memo_lock:
        entry = _ranges.get(id(x))
    if entry is not None and entry[0]() is x:
        return entry[1]
    ranges = threads.run(lambda rows: (np.min(x[rows]), np.max(x[rows])), threads.row_slices(x.shape[0]))
    return float(np.min([r[0] for r in ranges])), float(np.max([r[1] for r in ranges]))  # NaN wins


def _slot_map(x: np.ndarray) -> _SlotMap | None:
    """The slot map of ``x`` (None when its range is empty or not finite), kept for read-only arrays."""
    key = id(x)
    with _memo_lock:
        entry = _memo.get(key)
    if entry is not None and entry[0]() is x:
        return entry[1]
    low, high = _range(x)
    if not (np.isfinite(low) and np.isfinite(high) and high > low):
        return None
    scale = _N_CELLS / (high - low)
    if not (np.isfinite(scale) and scale > 0):
        return None
    sample = x[:: max(1, x.shape[0] // _SAMPLE_SIZE)]
    if np.bincount(_SlotMap(sample, low, scale).slots).max() > sample.shape[0] // 4:
        return None  # most values in one cell (very skewed data): no gain over sorting
    found = _SlotMap(x, low, scale)
    if not x.flags.writeable:
        with _memo_lock:
            if len(_memo) >= _MEMO_SIZE:
                _memo.pop(next(iter(_memo)))
            _memo[key] = (weakref.ref(x, lambda _, key=key: _forget(key)), found)
    return found


def order_statistics(x: np.ndarray, positions: np.ndarray, *, bins_next: bool = False) -> np.ndarray:
    """``np.sort(x)[positions]`` for finite ``x``, sorting only a few cells' values.

    Parameters
    ----------
    x : numpy.ndarray
        Finite float sample.
    positions : numpy.ndarray
        0-based positions in the sorted sample.
    bins_next : bool, default False
        The caller bins ``x`` by edges made of these order statistics next
        (an ALE grid): for a read-only ``x`` the selection pass then also
        bins every row it can, which :func:`bins_right_closed` picks up
        (see ``_Provisional``; the same answers either way).

    Returns
    -------
    numpy.ndarray
        The values at those positions (identical to sorting).
    """
    x = np.asarray(x, dtype=float)
    positions = np.asarray(positions, dtype=np.intp)
    n = x.shape[0]
    cells = None if n < MIN_SIZE else _slot_map(x)
    if cells is None:
        return np.sort(x)[positions]
    counts = cells.counts
    ends = np.cumsum(counts)  # values in this slot or a lower one
    slot_of = np.searchsorted(ends, positions, side="right")
    wanted = np.unique(slot_of)
    if counts[wanted].sum() > n // 4:  # few distinct values or very skewed: sort it all
        return np.sort(x)[positions]
    keep = np.zeros(cells.n_slots, dtype=bool)
    keep[wanted] = True
    if bins_next and compiled.enabled() and not x.flags.writeable and _room_for_provisional(x):
        # The same values in the same order, and in the same pass the bins of every row outside
        # the wanted slots, kept for bins_right_closed (see _Provisional).
        selected = np.empty(int(counts[wanted].sum()))
        _keep_provisional(x, cells, wanted, selected)
        selected.sort()
    elif compiled.enabled():  # the same values in the same order, in one compiled pass
        selected = np.empty(int(counts[wanted].sum()))
        compiled.select_slots(x, cells.slots, keep, selected)
        selected.sort()
    else:
        # Slots lie in 0 .. n_slots - 1 by construction: mode="clip" skips take's bounds checks.
        parts = [x[block][keep.take(cells.slots[block], mode="clip")] for block in _blocks(n)]
        selected = np.sort(np.concatenate(parts))
    start_in_selected = np.cumsum(counts[wanted]) - counts[wanted]
    start_in_sorted = ends[wanted] - counts[wanted]
    which = np.searchsorted(wanted, slot_of)
    return selected[start_in_selected[which] + positions - start_in_sorted[which]]


class _Provisional:
    """The bins of a read-only sample's rows, made while its order statistics were selected.

    A row in a slot that holds no wanted order statistic lies strictly
    between the wanted slots around it: once the edges are those order
    statistics, one per wanted slot (the usual grid), its interval is the
    number of wanted slots below it, less one, whatever the exact edges are.
    :func:`order_statistics` writes that number for every such row in the
    pass that selects the wanted slots' values (marking those rows), and
    :func:`bins_right_closed` then only places the marked rows by binary
    search: the pass over the sample for the bins is saved.  When the edges
    are not one per wanted slot (repeated values, another grid), the
    ordinary pass runs and this is dropped.
    """

    def __init__(self, x: np.ndarray, cells: _SlotMap, wanted: np.ndarray, selected: np.ndarray):
        self.low, self.scale, self.wanted = cells.low, cells.scale, wanted
        n_slots = cells.n_slots  # 16,386: every code (-1 .. n_slots - 1) and the mark fit in int16
        below = np.searchsorted(wanted, np.arange(n_slots), side="left") - 1  # wanted slots below, less one
        self.mark = -32768  # never a code: codes are >= -1
        gap = below.astype(np.int16)  # a 32 KiB table: the fastest cache
        gap[wanted] = self.mark
        self.found = scratch.empty(x.shape[0], np.int64)
        self.rows = np.empty(selected.shape[0], dtype=np.intp)
        compiled.select_and_bin(x, cells.slots, gap, self.mark, self.found, selected, self.rows)
        # Rows per slot-table interval + 1, the marked slots left out (their rows are placed later).
        direct = np.ones(n_slots, dtype=bool)
        direct[wanted] = False
        self.direct_counts = _counts_by_slot(below, direct, cells.counts, wanted.shape[0] + 1)

    def bins(self, x: np.ndarray, edges: np.ndarray, counts: bool):
        """``(bins, counts or None)`` when ``edges`` are one per wanted slot, else None."""
        if edges.shape[0] != self.wanted.shape[0]:
            return None
        slots = _slots(edges, self.low, self.scale, np.empty(edges.shape[0]), np.empty(edges.shape[0], np.intp))
        if not np.array_equal(slots, self.wanted):
            return None
        found = self.found
        values = x[self.rows]
        placed = _bins_by_search(values, edges)
        found[self.rows] = placed
        if not counts:
            return found, None
        per_bin = self.direct_counts + np.bincount(placed + 1, minlength=edges.shape[0] + 1)
        return found, per_bin


_provisional: dict[int, tuple[weakref.ref, _Provisional]] = {}
#: Bins of at most as many columns are kept between their grid and their axis (a call reads every
#: feature's grid before it bins them); further columns take the ordinary bins pass, so no bins
#: are made that are never used.
_PROVISIONAL_SIZE = 8


def _room_for_provisional(x: np.ndarray) -> bool:
    with _memo_lock:
        return id(x) in _provisional or len(_provisional) < _PROVISIONAL_SIZE


def _keep_provisional(x: np.ndarray, cells: _SlotMap, wanted: np.ndarray, selected: np.ndarray) -> None:
    found = _Provisional(x, cells, wanted, selected)
    key = id(x)
    with _memo_lock:
        _provisional[key] = (weakref.ref(x, lambda _, key=key: _forget(key)), found)


def _take_provisional(x: np.ndarray) -> _Provisional | None:
    """The provisional bins of ``x``, handed over once (the bins array becomes the caller's)."""
    with _memo_lock:
        entry = _provisional.pop(id(x), None)
    return entry[1] if entry is not None and entry[0]() is x else None


def _counts_by_slot(codes: np.ndarray, direct: np.ndarray, slot_counts: np.ndarray, size: int) -> np.ndarray:
    """Values per interval + 1 (``size`` integers) of the slots whose rows all share the interval
    ``codes[slot]`` (``direct``), from the slots' counts."""
    return np.bincount(codes[direct] + 1, weights=slot_counts[direct],
                       minlength=size).astype(np.int64)  # integers below 2**53: exact


def _bins_by_search(x: np.ndarray, edges: np.ndarray) -> np.ndarray:
    index = np.searchsorted(edges, x, side="left") - 1
    index[x == edges[0]] = 0
    return index.astype(np.int64, copy=False)


def _bin_counts(found: np.ndarray, n_edges: int) -> np.ndarray:
    """Values per ``bin + 1`` (``n_edges + 1`` entries: below, each interval, above or NaN), in threads."""
    return sum(threads.run(lambda rows: np.bincount(found[rows] + 1, minlength=n_edges + 1),
                           threads.row_slices(found.shape[0])))


def bins_right_closed(x: np.ndarray, edges: np.ndarray, *, counts: bool = False):
    """Right-closed interval of each value (see :func:`pyale._rbase.bin_right_closed`).

    Interval ``k`` is ``(edges[k], edges[k + 1]]``, the lowest edge falls
    into interval 0, values below get -1, values above and NaN get
    ``len(edges) - 1``: the same integers as binary search.

    With ``counts=True`` also the number of values per interval, returned
    second: ``len(edges) + 1`` integers, those below ``edges[0]`` first,
    then each interval's, then those above ``edges[-1]`` or NaN (counted in
    the same compiled pass as the bins where it runs).

    A table per slot gives the answer.  In a slot without an edge every
    value exceeds exactly the edges of lower slots.  In a slot holding one
    edge ``edges[i]``, a value is in interval ``i - 1`` when ``<= edges[i]``
    and in interval ``i`` otherwise (one comparison, made for every value
    when many values share slots with edges); the slot
    of ``edges[0]`` is all interval 0 when ``edges[0]`` is the sample's
    minimum.  Slots holding several edges, the slot of ``edges[0]`` otherwise,
    and slot 0 (below the sample, NaN) are answered by binary search.
    """
    x = np.asarray(x, dtype=float)
    edges = np.asarray(edges, dtype=float)
    found, per_bin = _bins_right_closed(x, edges, counts)
    if not counts:
        return found
    return found, (_bin_counts(found, edges.shape[0]) if per_bin is None else per_bin)


def _bins_right_closed(x: np.ndarray, edges: np.ndarray, counts: bool) -> tuple[np.ndarray, np.ndarray | None]:
    """The bins, and (asked for with ``counts``) their counts where the compiled pass made them, else None."""
    n = x.shape[0]
    provisional = _take_provisional(x)  # handed over (or dropped) whatever happens next
    if x.flags.writeable:
        provisional = None  # values that may have changed since: the ordinary pass
    if provisional is not None and edges.shape[0] >= 2 and np.all(np.diff(edges) > 0):
        found = provisional.bins(x, edges, counts)
        if found is not None:
            return found
    cells = None if n < MIN_SIZE or edges.shape[0] < 2 else _slot_map(x)
    if cells is None:
        return _bins_by_search(x, edges), None
    edge_slots = cells.slot_of(edges).copy() if edges.shape[0] <= _BLOCK else None
    if edge_slots is None or np.any(np.diff(edges) <= 0):
        return _bins_by_search(x, edges), None
    base = np.searchsorted(edge_slots, np.arange(cells.n_slots), side="left") - 1
    slot, first, count = np.unique(edge_slots, return_index=True, return_counts=True)
    single = (count == 1) & (first > 0)
    base[slot] = np.where(single, _ONE_EDGE - first, _SEARCH)
    if edges[0] == cells.low and count[0] == 1:  # no value below edges[0] shares its slot
        base[slot[0]] = 0
    base[0] = _SEARCH
    to_search = cells.counts[base == _SEARCH].sum()
    # Very skewed data put most values into slots holding several edges; plain
    # binary search is then faster.
    if to_search > n // 4:
        return _bins_by_search(x, edges), None
    found = scratch.empty(n, np.int64)
    if compiled.enabled():  # table, one comparison or binary search per value: one pass
        # Codes run from _ONE_EDGE - (len(edges) - 1) to len(edges) - 2: int16 holds them for any
        # usual grid, and a 32 KiB table stays in the fastest cache.
        table = base.astype(np.int16) if edges.shape[0] < 32_000 else base

        def look_up(rows: slice) -> np.ndarray:
            per_bin = np.zeros(edges.shape[0] + 1, dtype=np.int64)  # one per thread: integer sums, any split
            compiled.bins_from_table(x, cells.slots, table, edges, found, per_bin, counts, rows.start, rows.stop)
            return per_bin

        per_bin = sum(threads.run(look_up, threads.row_slices(n)))
        if not counts:
            return found, None
        # The loop counted the rows it compared or searched; every row of a slot the table
        # answers alone lies in that slot's interval, so the slots' counts give the rest.
        per_bin += _counts_by_slot(base, base >= -1, cells.counts, edges.shape[0] + 1)
        return found, per_bin
    if cells.counts[base <= _ONE_EDGE].sum() > n // 16:
        # Many values share a slot with an edge (ties, integers): compare them all
        # block by block, base + (x > threshold), instead of one by one below.
        threshold = np.full(cells.n_slots, np.inf)
        threshold[slot[single]] = edges[first[single]]
        base[slot[single]] = first[single] - 1

        def compare(rows: slice) -> None:  # scratch of its own: one thread per slice of rows
            size = min(rows.stop - rows.start, _BLOCK)
            above, limit = np.empty(size, dtype=bool), np.empty(size)
            for block in _blocks(rows.stop, rows.start):
                values, out, where = x[block], found[block], cells.slots[block]
                m = values.shape[0]
                np.take(base, where, out=out, mode="clip")  # slots are valid: no bounds checks
                np.take(threshold, where, out=limit[:m], mode="clip")
                np.greater(values, limit[:m], out=above[:m])
                out += above[:m]

        threads.run(compare, threads.row_slices(n))
    else:
        def look_up(rows: slice) -> None:
            for block in _blocks(rows.stop, rows.start):
                np.take(base, cells.slots[block], out=found[block], mode="clip")  # valid slots

        threads.run(look_up, threads.row_slices(n))
    marked = np.concatenate(threads.run(lambda rows: np.flatnonzero(found[rows] < -1) + rows.start,
                                        threads.row_slices(n)))
    if marked.shape[0]:
        codes, values = found[marked], x[marked]
        one_edge = codes <= _ONE_EDGE
        edge = _ONE_EDGE - codes[one_edge]
        codes[one_edge] = edge - 1 + (values[one_edge] > edges[edge])
        search = ~one_edge
        if search.any():
            codes[search] = _bins_by_search(values[search], edges)
        found[marked] = codes
    return found, None
