"""Exact order statistics of columns that live in blocks, by histogram refinement.

The sample of a column is its finite values.  Each value is mapped to an
integer *key*, its IEEE-754 bit pattern made order-preserving (flip every
bit of a negative number, only the sign bit of a positive one).  Distinct
floats get distinct keys, a smaller float a smaller key (-0.0 just below
+0.0), and every step is integer arithmetic: nothing can round, overflow
(``max - min`` near 1.8e308) or lose resolution (subnormals).

With ``n`` finite values, ``lo``/``hi`` the keys of the minimum and maximum
(known from the column checks), the passes over the blocks are:

1. *histogram*: count the values per cell ``(key - lo) >> shift`` (at most
   ``2**cell_bits`` cells); the cumulative counts say which cell holds each
   wanted position and how many values lie below it;
2. *gather* the values of the cells that hold wanted positions and sort
   them; a cell holding too many values is histogrammed again instead (its
   key range shrinks by ``2**cell_bits`` per pass, so a 64-bit key range
   needs at most five passes), and a cell whose values share one key needs
   no gathering at all (heavy ties, integers).

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
from dataclasses import dataclass, field

import numpy as np

from .columns import numeric_values

__all__ = ["float_keys", "key_of", "float_of_key", "select_order_statistics", "DataChangedError"]

_SIGN = np.uint64(1 << 63)
_TOP = (1 << 64) - 1
#: Values gathered to the caller per pass, over all columns.
GATHER_BUDGET = 1 << 20
#: Cells per histogram pass, over all ranges being refined.
CELL_BITS = 16


class DataChangedError(RuntimeError):
    """The blocks answered a later pass with counts that contradict an earlier one."""


def float_keys(values: np.ndarray) -> np.ndarray:
    """Order-preserving uint64 keys of float64 values (NaN must be removed first).

    Examples
    --------
    >>> keys = float_keys(np.array([-np.inf, -1.0, -0.0, 0.0, 5e-324, 1.0, np.inf]))
    >>> bool(np.all(np.diff(keys.astype(object)) > 0))
    True
    """
    values = np.ascontiguousarray(values, dtype=np.float64)
    mask = (values.view(np.int64) >> np.int64(63)).view(np.uint64)
    mask |= _SIGN
    return values.view(np.uint64) ^ mask


def key_of(value: float) -> int:
    """The key of one float, as a Python int."""
    return int(float_keys(np.array([value]))[0])


def float_of_key(key: int) -> float:
    """The float whose key is ``key``."""
    bits = key ^ (1 << 63) if key >= (1 << 63) else key ^ _TOP
    return float(np.array([bits], dtype=np.uint64).view(np.float64)[0])


@dataclass
class _Histogram:
    """Counts per cell of one key range, and the smallest and largest key seen."""

    counts: np.ndarray
    low: int = _TOP
    high: int = -1

    def __add__(self, other: "_Histogram") -> "_Histogram":
        return _Histogram(self.counts + other.counts, min(self.low, other.low), max(self.high, other.high))


@dataclass
class _Gathered:
    """Values of one key range, from any number of blocks (order unspecified)."""

    parts: list = field(default_factory=list)

    def __add__(self, other: "_Gathered") -> "_Gathered":
        return _Gathered(self.parts + other.parts)


@dataclass(frozen=True)
class _Request:
    column: object
    low: int
    high: int
    shift: int | None  # None: gather the values
    whole: bool  # the range holds every finite value of the column

    @property
    def n_cells(self) -> int:
        return ((self.high - self.low) >> self.shift) + 1


def _pass_block(block, offset, requests):
    """One block's answer to every request of one pass."""
    keys_of = {}
    out = []
    for request in requests:
        if request.column not in keys_of:
            values = numeric_values(block[request.column])
            values = values[np.isfinite(values)]
            keys_of[request.column] = (values, float_keys(values))
        values, keys = keys_of[request.column]
        if not request.whole:
            inside = (keys >= np.uint64(request.low)) & (keys <= np.uint64(request.high))
            values, keys = values[inside], keys[inside]
        if request.shift is None:
            out.append(_Gathered([values.copy()]))
            continue
        cells = (keys - np.uint64(request.low)) >> np.uint64(request.shift)
        counts = np.bincount(cells.astype(np.intp), minlength=request.n_cells).astype(np.int64)
        if keys.shape[0]:
            out.append(_Histogram(counts, int(keys.min()), int(keys.max())))
        else:
            out.append(_Histogram(counts))
    return out


@dataclass
class _Range:
    """Wanted positions whose values lie in a key range of one column."""

    column: object
    low: int
    high: int
    below: int  # values of the column with a smaller key
    count: int  # values with a key in [low, high]
    positions: np.ndarray
    whole: bool = False


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
        (validated by the caller).
    bounds : dict
        Column -> ``(n_finite, minimum, maximum)`` of its finite values.
    gather_budget, cell_bits : int
        Values gathered per pass; log2 of the cells per histogram pass
        (small values make tests exercise every refinement).

    Returns
    -------
    dict
        Column -> float64 array aligned with ``wanted[column]``.
    """
    found = {}
    ranges = []
    for column, positions in wanted.items():
        positions = np.asarray(positions, dtype=np.int64)
        found[column] = np.empty(positions.shape[0])
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
        requests, gathered = _plan(ranges, gather_budget, cell_bits)
        results = engine.map_reduce(functools.partial(_pass_block, requests=requests))
        if results is None:  # an engine without blocks
            results = [_Gathered() if r.shift is None else _Histogram(np.zeros(r.n_cells, np.int64)) for r in requests]
        next_ranges = []
        for index, (item, request, result) in enumerate(zip(ranges, requests, results)):
            if index in gathered:
                values = np.sort(np.concatenate(result.parts)) if result.parts else np.empty(0)
                _check(values.shape[0], item.count, item.column)
                picked = values[item.positions - item.below]
                value_at[item.column].update(zip(item.positions.tolist(), picked.tolist()))
            else:
                next_ranges.extend(_split(item, request, result))
        ranges = next_ranges
    for column, positions in wanted.items():
        lookup = value_at[column]
        found[column][:] = [lookup[int(p)] for p in np.asarray(positions, dtype=np.int64)]
    return found


def _settle_single_keys(ranges, value_at):
    """Answer ranges that hold one key only; return the rest."""
    rest = []
    for item in ranges:
        if item.low == item.high:
            value = float_of_key(item.low)
            value_at[item.column].update((int(p), value) for p in item.positions)
        else:
            rest.append(item)
    return rest


def _plan(ranges, gather_budget, cell_bits):
    """One request per range: gather the smallest ranges within the budget, histogram the rest."""
    gathered = set()
    spent = 0
    for index in sorted(range(len(ranges)), key=lambda i: ranges[i].count):
        if spent + ranges[index].count > gather_budget:
            break
        spent += ranges[index].count
        gathered.add(index)
    n_histograms = len(ranges) - len(gathered)
    bits = max(2, min(cell_bits, cell_bits - max(0, n_histograms - 1).bit_length()))
    requests = []
    for index, item in enumerate(ranges):
        if index in gathered:
            requests.append(_Request(item.column, item.low, item.high, None, item.whole))
        else:
            shift = max(0, (item.high - item.low).bit_length() - bits)
            requests.append(_Request(item.column, item.low, item.high, shift, item.whole))
    return requests, gathered


def _split(item: _Range, request: _Request, result: _Histogram):
    """The sub-ranges (one per cell holding wanted positions) after a histogram pass."""
    counts = result.counts
    _check(int(counts.sum()), item.count, item.column)
    if result.low == result.high:  # every value in the range is the same
        return [_Range(item.column, result.low, result.low, item.below, item.count, item.positions)]
    ends = np.cumsum(counts) + item.below
    cells = np.searchsorted(ends, item.positions, side="right")
    out = []
    for cell in np.unique(cells):
        cell = int(cell)
        low = max(item.low + (cell << request.shift), result.low)
        high = min(item.low + ((cell + 1) << request.shift) - 1, result.high, item.high)
        count = int(counts[cell])
        out.append(
            _Range(item.column, low, high, int(ends[cell]) - count, count, item.positions[cells == cell])
        )
    return out
