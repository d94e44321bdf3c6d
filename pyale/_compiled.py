"""Compiled row loops for pyale's own passes (numba, optional: ``pip install "pyale-r[fast]"``).

Each function here is one loop over rows that the NumPy path does as
several whole-array operations; it does the same floating-point
operations in the same order, so the numbers are identical bit for bit
(``tests/core/test_compiled.py`` runs both paths).  No fast-math: every
product and sum is rounded as NumPy rounds it.  The loops release the GIL,
so pyale's threads (:mod:`pyale._threads`) share them by rows as they share
the NumPy passes.

Without numba, or with ``PYALE_COMPILED=0`` in the environment,
:func:`enabled` is False and the callers keep their NumPy path.  The first
call of each loop compiles it (numba caches the machine code on disk).

Like :mod:`pyale._threads`, this module imports nothing from pyale.
"""

from __future__ import annotations

import os

import numpy as np

try:  # the optional extra
    import numba
except ImportError:  # pragma: no cover - exercised where numba is missing
    numba = None

__all__ = ["enabled", "take_clip", "slot_fill", "select_slots", "select_and_bin", "bins_from_table", "group_totals",
           "spread_sums", "spread_sums_weighted", "sums_and_spread"]


def enabled() -> bool:
    """Whether the compiled loops are used: numba is installed and ``PYALE_COMPILED`` is not ``0``."""
    value = os.environ.get("PYALE_COMPILED", "").strip()
    if value not in ("", "0", "1"):
        raise ValueError(f"The environment variable PYALE_COMPILED must be 0 or 1. Got {value!r} instead.")
    return numba is not None and value != "0"


def _jit(fn):
    if numba is None:
        return fn
    try:
        return numba.njit(nogil=True, cache=True)(fn)
    except RuntimeError:  # numba finds no writable cache directory (read-only install, no home): compile per process
        return numba.njit(nogil=True)(fn)


@_jit
def take_clip(source, index, out, start, stop):  # pragma: no cover - compiled
    """``np.take(source, index, mode="clip")`` for rows ``start .. stop - 1``, written to ``out``.

    Positions below 0 read ``source[0]`` and positions past the end its last
    value, as NumPy's ``clip`` mode (no write outside ``source``, whatever
    the index holds).
    """
    last = source.shape[0] - 1
    for i in range(start, stop):
        j = index[i]
        if j < 0:
            j = 0
        elif j > last:
            j = last
        out[i] = source[j]


@_jit
def slot_fill(x, low, scale, slots, counts, start, stop):  # pragma: no cover - compiled
    """``slots[i] = trunc((x[i] - low) * scale + 1)`` and ``counts[slot] += 1`` for rows ``start .. stop - 1``.

    The values lie in ``[low, high]``, so no clipping is needed (see
    :class:`pyale._rbase.cells._SlotMap`, whose NumPy loop this is).  ``counts``
    has one entry per uint16 value, so that values changed since ``low`` and
    ``high`` were read (by another thread) land in its tail, which the caller
    checks, instead of outside it (numba does not check bounds).
    """
    for i in range(start, stop):
        position = (x[i] - low) * scale
        position = position + 1.0
        slot = np.uint16(position)
        slots[i] = slot
        counts[slot] += 1


@_jit
def select_slots(x, slots, keep, out):  # pragma: no cover - compiled
    """The values whose slot is kept, in row order, written to ``out``; returns how many."""
    found = 0
    for i in range(x.shape[0]):
        if keep[slots[i]]:
            out[found] = x[i]
            found += 1
    return found


@_jit
def select_and_bin(x, slots, gap, wanted, found, selected, rows):  # pragma: no cover - compiled
    """:func:`select_slots` and, in the same pass, ``found[i] = gap[slots[i]]`` for every row.

    A slot with ``gap[slot] == wanted`` is kept: its values go to
    ``selected`` and their positions to ``rows``, in row order; returns how
    many.  Every other slot's value is the interval its rows will have once
    the edges are known (see :func:`pyale._rbase.cells.order_statistics`).
    """
    k = 0
    for i in range(x.shape[0]):
        code = gap[slots[i]]
        found[i] = code
        if code == wanted:
            selected[k] = x[i]
            rows[k] = i
            k += 1
    return k


@_jit
def bins_from_table(x, slots, base, edges, found, counts, count, start, stop):  # pragma: no cover - compiled
    """Right-closed bins of rows ``start .. stop - 1`` from a slot table (see ``bins_right_closed``),
    and with ``count`` also ``counts[bin + 1] += 1`` for each row the table does not answer alone
    (``counts`` has ``len(edges) + 1`` entries).

    ``base[slot]`` is the interval (>= -1), ``-3 - i`` when the slot holds
    ``edges[i]`` only (one comparison decides), or ``-2`` (binary search:
    ``searchsorted(edges, x, "left") - 1``, the lowest edge in interval 0).
    Rows answered by the table alone are not counted here: every row of a
    slot gets the same interval, so the caller counts them from the slots'
    counts (a counter per row would make the loop wait on its own stores).
    ``base`` may be any signed integer type (int16 keeps it in the fastest cache).
    """
    last = edges.shape[0] - 1
    for i in range(start, stop):
        code = base[slots[i]]
        if code >= -1:
            found[i] = code
            continue
        value = x[i]
        if code <= -3:
            edge = -3 - code
            b = edge - 1 + (1 if value > edges[edge] else 0)
        elif value != value:
            b = last
        elif value == edges[0]:
            b = 0
        else:
            lo, hi = 0, last + 1  # the first edge >= value
            while lo < hi:
                mid = (lo + hi) // 2
                if edges[mid] < value:
                    lo = mid + 1
                else:
                    hi = mid
            b = lo - 1
        found[i] = b
        if count:
            counts[b + 1] += 1


@_jit
def group_totals(groups, values, column, total):  # pragma: no cover - compiled
    """``total[g] += values[i, column]`` over the rows in row order: ``bincount(groups, weights=d)``."""
    for i in range(groups.shape[0]):
        total[groups[i]] += values[i, column]


@_jit
def spread_sums(groups, values, column, reference, centred, squares):  # pragma: no cover - compiled
    """``centred[g] += d - r[g]`` and ``squares[g] += (d - r[g])**2`` over the rows, in row order.

    ``d`` is ``values[:, column]``; the NumPy path is ``take``, ``subtract``
    and two ``bincount`` (see :func:`pyale._core.map.sums.group_sums`).
    """
    for i in range(groups.shape[0]):
        g = groups[i]
        shifted = values[i, column] - reference[g]
        centred[g] += shifted
        squared = shifted * shifted
        squares[g] += squared


@_jit
def spread_sums_weighted(groups, values, column, reference, weights, centred, squares):  # pragma: no cover
    """:func:`spread_sums` with row weights: ``w (d - r)`` and ``w (d - r) (d - r)``."""
    for i in range(groups.shape[0]):
        g = groups[i]
        shifted = values[i, column] - reference[g]
        weighted = shifted * weights[i]
        centred[g] += weighted
        squared = weighted * shifted
        squares[g] += squared


@_jit
def sums_and_spread(groups, values, column, reference, piece, total, around):  # pragma: no cover - compiled
    """:func:`spread_sums` per piece of ``piece`` rows and, in the same pass, ``total[g] += d`` over all rows.

    ``around[p, 0]`` and ``around[p, 1]`` are piece ``p``'s sums of ``d - r[g]``
    and ``(d - r[g])**2`` (rows ``p * piece .. (p + 1) * piece - 1``);
    ``total`` is ``bincount(groups, weights=d)``: one sum per group in row
    order over the whole block.  The NumPy path makes the same sums in two
    passes (see :func:`pyale._core.map.sums.group_sums`).  A group's three
    sums and its reference sit side by side (one cache line), each sum still
    added in row order.
    """
    n = groups.shape[0]
    size = total.shape[0]
    sums = np.zeros((size, 4))  # per group: total, centred, squares and the reference, in 32 bytes
    for g in range(size):
        sums[g, 0] = total[g]
        sums[g, 3] = reference[g]
    for p in range(around.shape[0]):
        for g in range(size):
            sums[g, 1] = around[p, 0, g]
            sums[g, 2] = around[p, 1, g]
        for i in range(p * piece, min(n, (p + 1) * piece)):
            g = groups[i]
            d = values[i, column]
            sums[g, 0] += d
            shifted = d - sums[g, 3]
            sums[g, 1] += shifted
            squared = shifted * shifted
            sums[g, 2] += squared
        for g in range(size):
            around[p, 0, g] = sums[g, 1]
            around[p, 1, g] = sums[g, 2]
    for g in range(size):
        total[g] = sums[g, 0]
