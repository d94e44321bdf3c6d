"""The polars lazy engine: a ``polars.LazyFrame``, blocks from polars' streaming engine.

The global order of the rows is the order ``lf.collect()`` gives.  Every
pass runs the query on polars' streaming engine
(``lf.collect_batches(engine="streaming")``, order maintained), reading only
the columns the pass names (a projection polars pushes down into a Parquet
or CSV scan), and joins its batches into blocks of :func:`block_rows` rows
(the last may be shorter), each converted to pandas as
``lf.collect().to_pandas()`` converts the whole frame.  So the whole frame
is never collected: at most a few blocks and the batches polars buffers are
in memory at once.  Blocks are consecutive, so the offsets are the running
row count, and every block but the last ends on a multiple of the block
size (a multiple of the bootstrap's chunk of 4,096 rows).

A block holds :data:`ROWS_PER_BLOCK` rows (2**20), fewer where its columns
are wide, so that it holds at most about :data:`BYTES_PER_BLOCK` bytes.
Large blocks make few model calls: each call has a fixed cost (the model's
own, converting the shifted rows to a polars frame, the wake-up of the
model's BLAS threads) that blocks of 2**18 rows paid 1,078 times in the
benchmark of ``docs/performance.md`` where blocks of 2**20 pay it 280 times;
much larger blocks cost more again, in the kernel's zeroing of the fresh
pages each block's working arrays take (measured in the same place).

A first pass counts the rows and the missing values of the integer and
boolean columns, which decide their pandas dtypes, as for a whole collected
frame: an integer column with a missing value is float64, a boolean one
object.  A categorical column's blocks carry only their own categories;
the grid stage unites them in row order
(:class:`pyale._core.run.engine_grid.CategoryTyped`), which is the order the
whole frame's conversion gives them (an ``Enum`` keeps its own).  Every
later pass checks the row count (a query whose rows change is an error, not
a wrong number).

Everything runs in this process: polars' threads read and decode, and the
mapped function, with the model inside, runs on each block in a pool of
:func:`pyale._threads.num_threads` threads, as Dask's threaded scheduler
runs it on partitions (at most one block more than threads is held at
once; the results are added in the rows' order).  While the pool runs, the
thread pools of the native libraries the model may use are held to at most
``CPUs // threads`` threads each, as joblib does for its workers and Dask's
distributed workers do (``OPENBLAS_NUM_THREADS=1``): otherwise each of the
pool's model calls wakes a full set of BLAS threads, which spin on the cores
the other calls need (a third of the CPU time of the benchmark's run on 2
cores).  BLAS's setting, one for the process, is lowered for the pass and
restored after it; OpenMP's, each thread's own, is lowered in each of the
pool's threads.  A limit is only ever lowered, never raised.  This needs
threadpoolctl (installed with scikit-learn), without which nothing is
limited.  Limits change no number: the model's answers do not depend on
its thread count (for OpenBLAS, each output is computed by one thread in
the same order), and pyale's sums do not see them.  Nothing is pickled.  polars itself is imported only when such a frame is used.  An
eager ``polars.DataFrame`` is not this engine's: it is converted to pandas
once (:func:`pyale._inputs.frames.as_pandas`).
"""

from __future__ import annotations

import contextlib
import os
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Sequence

import pandas as pd

from .._threads import num_threads
from .base import Engine, add_results
from .base import DataChangedError

__all__ = ["BYTES_PER_BLOCK", "ENGINE", "NAME", "MODULES", "PolarsLazyEngine", "ROWS_PER_BLOCK", "accepts",
           "block_rows", "drop", "owns"]

#: How messages name the data this engine computes on.
NAME = "polars LazyFrame"
#: How the modules of polars' types begin (read off an object's type: nothing is imported).
MODULES = ("polars.",)
#: Rows per block handed to the function, at most (a multiple of the bootstrap's chunk, 4096 rows).
ROWS_PER_BLOCK = 1 << 20
#: Bytes per block, about, at most: wide frames get fewer rows per block (never fewer than 4096).
BYTES_PER_BLOCK = 1 << 27
_CHUNK = 4096
#: Bytes a value of a column of this pandas dtype kind is counted as (strings and objects: a guess).
_OBJECT_BYTES = 64
_INTEGRAL = ("Int8", "Int16", "Int32", "Int64", "Int128", "UInt8", "UInt16", "UInt32", "UInt64")


def owns(obj) -> bool:
    """Whether ``obj`` (of one of :data:`MODULES`) is lazy: a LazyFrame (an eager frame or Series is not)."""
    return type(obj).__name__ == "LazyFrame"


def accepts(data) -> bool:
    """Whether ``data`` (of one of :data:`MODULES`) is a polars LazyFrame, which this engine computes on."""
    return type(data).__name__ == "LazyFrame"


def drop(data, column):
    """``data`` without ``column``."""
    return data.drop(column)


def block_rows(dtypes) -> int:
    """Rows per block for columns of these pandas ``dtypes``: :data:`ROWS_PER_BLOCK`, fewer for wide rows.

    The rows are cut to about :data:`BYTES_PER_BLOCK` bytes, in whole chunks
    of 4096 rows (at least one); a smaller :data:`ROWS_PER_BLOCK` always wins.
    """
    row_bytes = sum(_OBJECT_BYTES if dtype == object else getattr(dtype, "itemsize", _OBJECT_BYTES)
                    for dtype in dtypes)
    by_bytes = max(_CHUNK, BYTES_PER_BLOCK // max(row_bytes, 1) // _CHUNK * _CHUNK)
    return min(ROWS_PER_BLOCK, by_bytes)


def _limited(limit: int, user_api: str):
    """A limiter of this thread's native pools of ``user_api`` that run more than ``limit`` threads, or None.

    Each library is chosen by its file, so only those above ``limit`` are
    touched: a limit is never raised.
    """
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:  # optional: nothing is limited
        return None
    controller = ThreadpoolController()
    above = [library["filepath"] for library in controller.info()
             if library["user_api"] == user_api and library["num_threads"] > limit]
    return controller.select(filepath=above).limit(limits=limit) if above else None


@contextlib.contextmanager
def _blas_threads_at_most(limit: int):
    """The BLAS thread pools of this process (one setting for all threads) at ``limit`` threads at most, inside."""
    limiter = _limited(limit, "blas")
    try:
        yield
    finally:
        if limiter is not None:
            limiter.restore_original_limits()


def _openmp_threads_at_most(limit: int) -> None:
    """This thread's OpenMP teams at ``limit`` threads at most (OpenMP's setting is the calling thread's own).

    Run once in each of the pool's threads, which end with the pass, so
    nothing needs restoring.
    """
    _limited(limit, "openmp")


def _usable_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1


def _typed(block: pd.DataFrame, dtypes: dict) -> pd.DataFrame:
    """A block's integer and boolean columns with the dtypes the whole frame's conversion gives them."""
    for name, dtype in dtypes.items():
        series = block[name]
        if series.dtype == dtype or isinstance(dtype, pd.CategoricalDtype):
            continue
        block[name] = series.astype(object).where(series.notna(), None) if dtype == object else series.astype(dtype)
    return block


def _added(total, part, combine):
    return part if total is None else combine(total, part)


def _blocks(batches, dtypes: dict, rows_per_block: int):
    """pandas blocks of ``rows_per_block`` rows (the last may be shorter) from polars batches, in order."""
    import polars as pl

    pending, size = [], 0
    for batch in batches:
        if batch.height == 0:
            continue
        pending.append(batch)
        size += batch.height
        while size >= rows_per_block:
            joined = pending[0] if len(pending) == 1 else pl.concat(pending, rechunk=False)
            yield _typed(joined.slice(0, rows_per_block).to_pandas(), dtypes)
            size -= rows_per_block
            pending = [joined.slice(rows_per_block)] if size else []
    if size:
        joined = pending[0] if len(pending) == 1 else pl.concat(pending, rechunk=False)
        yield _typed(joined.to_pandas(), dtypes)


class PolarsLazyEngine(Engine):
    """A polars LazyFrame as an engine.

    Parameters
    ----------
    lf : polars.LazyFrame
        The data (never modified).  Its query must give the same rows in the
        same order every time.
    rows_per_block : int, optional
        Rows per block handed to the mapped function (by default
        :func:`block_rows` of the columns each pass reads).
    """

    name = NAME
    collect = "X.collect()"
    keep_positive_hint = "lf.filter(pl.col({column!r}) > 0)"

    def __init__(self, lf, *, rows_per_block: int | None = None):
        self.lf = lf
        self.rows_per_block = rows_per_block
        self.schema = lf.collect_schema()
        self.columns = pd.Index(list(self.schema.names()))
        self._n_rows: int | None = None
        self._dtypes: pd.Series | None = None

    def _first_pass(self) -> None:
        import polars as pl

        names = list(self.columns)
        nullable = [i for i, name in enumerate(names)
                    if str(self.schema[name]) in _INTEGRAL or self.schema[name] == pl.Boolean]
        counts = self.lf.select(
            pl.len().cast(pl.Int64).alias("rows"),
            *[pl.nth(i).null_count().cast(pl.Int64).alias(f"missing_{i}") for i in nullable],
        ).collect(engine="streaming").row(0)
        self._n_rows = int(counts[0])
        dtypes = self.lf.limit(0).collect().to_pandas().dtypes
        dtypes.index = self.columns
        for i, missing in zip(nullable, counts[1:]):
            if missing:
                dtypes.iloc[i] = pd.api.types.pandas_dtype(object if self.schema[names[i]] == pl.Boolean else float)
        self._dtypes = dtypes

    @property
    def n_rows(self) -> int:
        if self._n_rows is None:
            self._first_pass()
        return self._n_rows

    @property
    def dtypes(self) -> pd.Series:
        if self._dtypes is None:
            self._first_pass()
        return self._dtypes

    def _projected(self, columns):
        """The query with only ``columns`` (selected by position: names are never read as patterns)."""
        if columns is None or len(columns) == len(self.columns):
            return self.lf, list(self.columns)
        import polars as pl

        wanted = set(columns)
        positions = [i for i, name in enumerate(self.columns) if name in wanted]
        return self.lf.select(pl.nth(*positions)), [self.columns[i] for i in positions]

    def head(self, n: int) -> pd.DataFrame:
        """The first ``n`` rows (``lf.head(n)``, which polars reads without the rest)."""
        return _typed(self.lf.head(n).collect(engine="streaming").to_pandas(), dict(self.dtypes))

    def map_reduce(
        self,
        func: Callable[[pd.DataFrame, int], Any],
        combine: Callable[[Any, Any], Any] = add_results,
        *,
        columns: Sequence | None = None,
    ) -> Any:
        query, names = self._projected(columns)
        dtypes = {name: self.dtypes[name] for name in names}
        rows = block_rows(dtypes.values()) if self.rows_per_block is None else self.rows_per_block
        batches = query.collect_batches(chunk_size=rows, maintain_order=True, engine="streaming")
        workers = num_threads()
        inner = max(1, _usable_cpus() // workers)  # native threads per model call
        total, seen, pending = None, 0, deque()
        pool = ThreadPoolExecutor(workers, thread_name_prefix="pyale-polars", initializer=_openmp_threads_at_most,
                                  initargs=(inner,))
        try:
            with _blas_threads_at_most(inner):
                for block in _blocks(batches, dtypes, rows):
                    pending.append(pool.submit(func, block, seen))
                    seen += block.shape[0]
                    while len(pending) > workers:  # at most workers + 1 blocks in memory
                        total = _added(total, pending.popleft().result(), combine)
                while pending:  # combined in the rows' order: the same numbers on every run
                    total = _added(total, pending.popleft().result(), combine)
        finally:
            pool.shutdown(cancel_futures=True)
        if seen != self.n_rows:
            raise DataChangedError(
                f"The polars LazyFrame gave {self.n_rows} rows in the first pass over it and {seen} now: its "
                "query is not deterministic. Write it out first (lf.sink_parquet(...)) and scan the files."
            )
        if total is None:
            return func(pd.DataFrame({name: pd.Series(dtype=dtypes[name]) for name in names}), 0)
        return total


#: The engine the registry (:mod:`pyale._engines.registry`) opens an accepted data frame with.
ENGINE = PolarsLazyEngine
