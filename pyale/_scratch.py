"""Memory for pyale's own large temporaries, kept for the next call.

Fresh memory costs a page fault and the kernel's zeroing of every page on
first touch: measured here at n = 1e6 (five columns), filling a new private
copy of X took 3.6 ms against 2.1 ms for the same copy into memory used
before, and an 8 MB gather 1.6 ms against 1.05 ms.  A model pays that for its
own arrays on every call; pyale need not pay it for the arrays it makes
itself on every call of the same size (the private copy of the rows and,
from about 4.2 million rows, 32 MiB of int64, the interval of every row;
from about 16.8 million rows also the slot map behind the grid).

:func:`empty` is ``np.empty`` whose memory may come from an earlier call.
A buffer is handed out again only when nothing views the array made from
it any more: the array is a view of a handle (``np.frombuffer``) that every
view of it references, and the pool keeps only a weak reference to the
handle.  An array a model, a result or a memo still holds is therefore
never written over; the pool then takes fresh memory, as ``np.empty``
does.

The pool keeps at most ``PYALE_SCRATCH_MB`` megabytes (MiB) of buffers, in
use or free; by default 1/16 of the machine's memory, at most 2048.
``PYALE_SCRATCH_MB=0`` turns it off (plain ``np.empty``); a budget lowered
while buffers are kept gives back, at pyale's next large array, the free
buffers it no longer allows.  Arrays under
:data:`MIN_BYTES` (32 MiB) are plain ``np.empty``: the allocator reuses
those by itself.  :func:`release` gives the kept buffers back.  The buffers are
NumPy arrays, so ``tracemalloc`` counts a buffer when it is made, not when
a later call reuses it (``benchmarks/bench_ale.py`` releases them before it
measures a call's peak memory).

Like :mod:`pyale._threads`, this module imports nothing from pyale.
"""

from __future__ import annotations

import functools
import math
import os
import threading
import weakref

import numpy as np

__all__ = ["MIN_BYTES", "budget", "empty", "release", "kept_bytes"]

#: Smaller arrays are plain ``np.empty``.  glibc serves an allocation above its threshold from a
#: fresh mapping and raises the threshold to the size of what is freed, but never above 32 MiB:
#: larger arrays always get fresh memory, smaller ones are reused by malloc once pyale's (and
#: the model's) frees have raised it.  Keeping the smaller ones here as well changed that for the
#: model's own calls in the same process (measured at n = 1e6: bare predictions 0.13 to 0.28 s
#: from repeat to repeat, against a steady 0.13 to 0.16 s when only larger arrays are kept).
MIN_BYTES = 32 << 20
_DEFAULT_CAP_MB = 2048

_lock = threading.Lock()
_buffers: list["_Buffer"] = []


class _Buffer:
    __slots__ = ("raw", "handle")

    def __init__(self, nbytes: int):
        self.raw = _memory(nbytes)
        self.handle = None  # weak reference to the array last made from raw

    @property
    def nbytes(self) -> int:
        return len(self.raw)

    def free(self) -> bool:
        return self.handle is None or self.handle() is None


def _memory(nbytes: int) -> memoryview:
    """NumPy's memory (so that ``tracemalloc`` and NumPy's own accounting see it, and NumPy asks for
    huge pages as for any large array), as a buffer that views of it cannot see through to an array."""
    return memoryview(np.empty(nbytes, dtype=np.uint8))


@functools.lru_cache(maxsize=1)
def _physical_mb() -> int | None:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // (1 << 20)
    except (AttributeError, ValueError, OSError):  # not POSIX
        return None


def budget() -> int:
    """Bytes the pool may keep (``PYALE_SCRATCH_MB``; 0: off)."""
    value = os.environ.get("PYALE_SCRATCH_MB", "").strip()
    if value:
        try:
            mb = int(value)
        except ValueError:
            mb = -1
        if mb < 0:
            raise ValueError(
                f"The environment variable PYALE_SCRATCH_MB must be a non-negative integer. Got {value!r} instead."
            )
        return mb << 20
    physical = _physical_mb()
    return (min(_DEFAULT_CAP_MB, physical // 16) if physical else 256) << 20


def kept_bytes() -> int:
    """Bytes the pool holds now (in use or free)."""
    with _lock:
        return sum(b.nbytes for b in _buffers)


def release() -> None:
    """Give back every kept buffer that nothing uses (arrays in use stay valid)."""
    with _lock:
        _buffers[:] = [b for b in _buffers if not b.free()]


def _fit(nbytes: int, limit: int) -> bool:
    """Drop free buffers, largest first, until ``nbytes`` more fit within ``limit``; whether they do
    (call with the lock held)."""
    held = sum(b.nbytes for b in _buffers)
    for b in sorted((b for b in _buffers if b.free()), key=lambda b: -b.nbytes):
        if held + nbytes <= limit:
            break
        _buffers.remove(b)
        held -= b.nbytes
    return held + nbytes <= limit


def empty(shape, dtype=float, order: str = "C") -> np.ndarray:
    """``np.empty(shape, dtype, order)``, in memory an earlier call may have used (see the module)."""
    dtype = np.dtype(dtype)
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(int(s) for s in shape)
    count = math.prod(shape)
    nbytes = count * dtype.itemsize
    if nbytes < MIN_BYTES or dtype.hasobject:
        return np.empty(shape, dtype=dtype, order=order)
    limit = budget()
    with _lock:
        if nbytes > limit:
            _fit(0, limit)  # a budget lowered since (0: off) gives back what it no longer allows
            return np.empty(shape, dtype=dtype, order=order)
        free = [b for b in _buffers if b.free() and b.nbytes >= nbytes]
        chosen = min(free, key=lambda b: b.nbytes) if free else None
        if chosen is None:
            if not _fit(nbytes, limit):
                return np.empty(shape, dtype=dtype, order=order)
            chosen = _Buffer(nbytes)
            _buffers.append(chosen)
        handle = np.frombuffer(chosen.raw, dtype=dtype, count=count)
        chosen.handle = weakref.ref(handle)  # every view of the result references handle
    return handle.reshape(shape, order=order)
