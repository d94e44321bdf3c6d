"""pyale's own passes over large arrays, split by rows across a few threads.

Only pyale's NumPy work runs here (the private copy of the rows, the
shifted columns written into it, the slot maps and bins behind the interval
edges): element-wise work and integer counts, whose results do not depend
on how the rows are split, so every thread count gives identical numbers.
NumPy releases the GIL inside these operations.  The model is never called
from these threads.

``PYALE_NUM_THREADS`` sets the number of threads (``1``: everything in the
calling thread); by default the CPUs this process may use, at most 8
(these passes are bound by memory bandwidth, which a few cores saturate).

This module imports nothing from pyale, so every layer may use it.
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, Sequence

__all__ = ["MIN_ROWS", "num_threads", "row_slices", "run"]

#: Below this many rows per thread, splitting costs more than it saves.  A pass over fewer rows
#: takes a millisecond or two, and right after a model call the other cores are usually still
#: held by the model's own threads (OpenBLAS and OpenMP workers spin for a while before they
#: sleep): measured with a BLAS-using model on 2 cores, splitting made pyale's passes slower at
#: 1e6 rows, broke even at 3e6 and saved 10% at 1e7 (docs/performance.md).
MIN_ROWS = 1 << 20
_MAX_DEFAULT = 8

_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None
_pool_size = 0
_local = threading.local()


def num_threads() -> int:
    """Threads pyale's own passes may use (``PYALE_NUM_THREADS``, else the usable CPUs, at most 8)."""
    value = os.environ.get("PYALE_NUM_THREADS", "").strip()
    if value:
        try:
            count = int(value)
        except ValueError:
            count = 0
        if count < 1:
            raise ValueError(
                f"The environment variable PYALE_NUM_THREADS must be a positive integer. Got {value!r} instead."
            )
        return count
    try:
        usable = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        usable = os.cpu_count() or 1
    return max(1, min(usable, _MAX_DEFAULT))


def row_slices(n: int, *, min_rows: int | None = None) -> list[slice]:
    """``0 .. n`` cut into at most :func:`num_threads` contiguous slices of at least ``min_rows``
    (default :data:`MIN_ROWS`) rows."""
    parts = max(1, min(num_threads(), n // max(MIN_ROWS if min_rows is None else min_rows, 1)))
    bounds = [n * i // parts for i in range(parts + 1)]
    return [slice(bounds[i], bounds[i + 1]) for i in range(parts)]


def _pool_for(workers: int) -> ThreadPoolExecutor:
    global _pool, _pool_size
    with _lock:
        if _pool is None or _pool_size < workers:
            old = _pool
            _pool, _pool_size = ThreadPoolExecutor(workers, thread_name_prefix="pyale"), workers
            if old is not None:
                old.shutdown(wait=False)
        return _pool


def _in_worker(fn: Callable, part):
    _local.worker = True
    return fn(part)


def run(fn: Callable, parts: Sequence) -> list:
    """``[fn(part) for part in parts]``, the parts after the first in worker threads.

    Every part has finished (or failed) when this returns or raises, so no
    thread still writes into the caller's arrays; the first exception is
    raised.  Inside a worker, with one part, or with ``PYALE_NUM_THREADS=1``,
    everything runs in the calling thread (no nested waiting on the same
    pool; callers may hand more parts than threads, such as work beside the
    row slices).
    """
    if len(parts) <= 1 or getattr(_local, "worker", False) or num_threads() == 1:
        return [fn(part) for part in parts]
    pool = _pool_for(len(parts) - 1)
    futures = [pool.submit(_in_worker, fn, part) for part in parts[1:]]
    error = None
    try:
        first = fn(parts[0])
    except BaseException as exc:  # noqa: BLE001 - re-raised below, after the workers finish
        error, first = exc, None
    results = [first]
    for future in futures:
        try:
            results.append(future.result())
        except BaseException as exc:  # noqa: BLE001
            error = error or exc
    if error is not None:
        raise error
    return results


def _forget_pool() -> None:
    """A forked child has none of the parent's threads: start a new pool there when needed."""
    global _pool, _pool_size, _lock
    _pool, _pool_size, _lock = None, 0, threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool)
