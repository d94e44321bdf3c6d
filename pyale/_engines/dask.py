"""The Dask engine: a ``dask.dataframe.DataFrame``, one block per partition.

The global order of the rows is the order ``ddf.compute()`` gives:
partition after partition, rows in order within each (the index and the
divisions play no part).  The partitions' lengths are computed once, in
one pass, and give each partition its global offset; every later pass
checks them (a partition whose rows changed is an error, not a wrong
number).

``map_reduce`` builds one task per partition that applies the function to
the partition's pandas frame (read with only the columns the function names,
when it names them), and adds the small results in a tree of tasks
(at most :data:`FAN_IN` results per task), so only those results travel and
the client receives one.  With a scheduler whose workers are other
processes (``distributed``, or ``scheduler="processes"``), the function,
and with it the model, is pickled once on the client, sent as one piece of
data in the task graph and unpickled once per worker process; a function
that cannot be pickled is refused before any work starts
(:class:`~pyale._engines.shipping.UnpicklableError`).  The threaded and
synchronous schedulers run everything in this process: nothing is pickled.

A categorical column whose categories Dask does not know
(``cat.as_unknown()``, or a CSV read with ``dtype="category"``), or whose
partitions hold categories its metadata lacks, is read partition by
partition; the summaries unite the categories of all partitions in
partition order, the order ``ddf.compute()`` gives them, and every block
is cast to that dtype before the model sees it
(:class:`pyale._core.run.engine_grid.CategoryTyped`).
"""

from __future__ import annotations

import uuid
from typing import Any, Callable, Sequence

import numpy as np
import pandas as pd

from .base import Engine, add_results
from .base import DataChangedError
from .shipping import pickled, unpickled

__all__ = ["DaskEngine", "FAN_IN", "ENGINE", "NAME", "MODULES", "accepts", "drop", "owns"]

#: How messages name the data this engine computes on.
NAME = "Dask DataFrame"
#: How the modules of Dask's types begin (``dask``, ``dask_expr``; read off an object's type: nothing is imported).
MODULES = ("dask",)

#: Results added per reduction task.
FAN_IN = 8


def _checked(block: pd.DataFrame, rows: int, index: int) -> pd.DataFrame:
    if block.shape[0] != rows:
        raise DataChangedError(
            f"Partition {index} of the Dask DataFrame held {rows} rows in the first pass over it and "
            f"{block.shape[0]} now: its computation is not deterministic. Persist it (ddf.persist()) "
            "or write it out first."
        )
    return block


def _apply(func, block: pd.DataFrame, offset: int, rows: int, index: int):
    return func(_checked(block, rows, index), offset)


def _apply_shipped(token: str, payload: bytes, block: pd.DataFrame, offset: int, rows: int, index: int):
    return unpickled(token, payload)(_checked(block, rows, index), offset)


def _fold(combine, *parts):
    total = parts[0]
    for part in parts[1:]:
        total = combine(total, part)
    return total


def _length(block: pd.DataFrame) -> int:
    return block.shape[0]


def owns(obj) -> bool:
    """Whether ``obj`` (of one of :data:`MODULES`) is any Dask object: a frame, Series or Array."""
    return True


def accepts(data) -> bool:
    """Whether ``data`` (of one of :data:`MODULES`) is a Dask DataFrame, which this engine computes on."""
    return type(data).__name__ == "DataFrame"


def drop(data, column):
    """``data`` without ``column``."""
    return data.drop(columns=[column])


class DaskEngine(Engine):
    """A Dask DataFrame as an engine.

    Parameters
    ----------
    ddf : dask.dataframe.DataFrame
        The data (never modified).
    scheduler : str or callable, optional
        Passed to ``dask.compute`` (the default: Dask's current scheduler,
        e.g. an active ``distributed.Client``).
    """

    name = NAME
    collect = "X.compute()"
    keep_positive_hint = "ddf[ddf[{column!r}] > 0]"

    def __init__(self, ddf, *, scheduler=None):
        self.ddf = ddf
        self.scheduler = scheduler
        self.columns = ddf.columns
        self.dtypes = ddf.dtypes
        self._lengths: np.ndarray | None = None

    @property
    def partition_lengths(self) -> np.ndarray:
        """Rows per partition (computed once)."""
        if self._lengths is None:
            import dask

            parts = [dask.delayed(_length)(part) for part in self._projected(self.columns[:1]).to_delayed()]
            (lengths,) = dask.compute(parts, scheduler=self.scheduler)
            self._lengths = np.asarray(lengths, dtype=np.int64)
        return self._lengths

    def _projected(self, columns):
        """The data with only ``columns`` (same partitions, same rows)."""
        if columns is None or len(columns) == 0 or len(columns) == len(self.columns):
            return self.ddf
        wanted = set(columns)
        return self.ddf[[c for c in self.columns if c in wanted]]

    @property
    def n_rows(self) -> int:
        return int(self.partition_lengths.sum())

    def head(self, n: int) -> pd.DataFrame | None:
        """The first rows of the first partition that has any (None when none has)."""
        nonempty = np.flatnonzero(self.partition_lengths)
        if not nonempty.shape[0]:
            return None
        part = self.ddf.partitions[int(nonempty[0])]
        return part.head(n, npartitions=1, compute=False).compute(scheduler=self.scheduler)

    def ships_to_processes(self) -> bool:
        """Whether the scheduler runs tasks in other processes (so they are pickled)."""
        import dask.local
        import dask.threaded
        from dask.base import get_scheduler

        scheduler = get_scheduler(scheduler=self.scheduler, collections=[self.ddf])
        return scheduler not in (dask.threaded.get, dask.local.get_sync)

    def map_reduce(
        self,
        func: Callable[[pd.DataFrame, int], Any],
        combine: Callable[[Any, Any], Any] = add_results,
        *,
        columns: Sequence | None = None,
    ) -> Any:
        import dask

        offsets = np.concatenate(([0], np.cumsum(self.partition_lengths)[:-1])).tolist()
        token = uuid.uuid4().hex
        if self.ships_to_processes():
            payload = dask.delayed(pickled(func, workers="Dask's worker processes", data=NAME),
                                   name=f"pyale-func-{token}")
            apply, head = _apply_shipped, (token, payload)
        else:
            apply, head = _apply, (func,)
        apply_task = dask.delayed(apply, pure=False)
        lengths = self.partition_lengths.tolist()
        parts = [
            apply_task(*head, part, int(offset), lengths[i], i, dask_key_name=f"pyale-block-{token}-{i}")
            for i, (part, offset) in enumerate(zip(self._projected(columns).to_delayed(), offsets))
        ]
        if not parts:
            return None
        fold = dask.delayed(_fold, pure=False)
        level = 0
        while len(parts) > 1:
            parts = [
                fold(combine, *parts[i : i + FAN_IN], dask_key_name=f"pyale-sum-{token}-{level}-{i}")
                for i in range(0, len(parts), FAN_IN)
            ]
            level += 1
        (total,) = dask.compute(parts[0], scheduler=self.scheduler)
        return total


#: The engine the registry (:mod:`pyale._engines.registry`) opens an accepted data frame with.
ENGINE = DaskEngine
