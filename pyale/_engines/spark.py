"""The Spark engine: a ``pyspark.sql.DataFrame``, blocks by Arrow batches.

The global order of the rows is the order ``df.toPandas()`` gives:
partition after partition, rows in order within each.  A first pass counts the rows of every partition, which gives each
partition its global offset, and the missing values of the integer and
boolean columns, which decide their pandas dtypes.  That pass runs
``mapInPandas`` on the DataFrame as every later pass does: a different plan
(an aggregate over ``spark_partition_id()``) can see other partitions.  A
pass reads only the columns it needs when the plan has no shuffle (so the
projection cannot change the partitions), else every column.

``map_reduce`` runs ``df.mapInPandas``: each partition's Arrow batches are
joined into blocks of about ``rows_per_block`` rows, each block gets the
dtypes ``toPandas()`` would give and its global offset, the function's
results are added within the partition, and the partition returns one row
holding its pickled result and its row count.  The driver collects those
rows, checks every partition still holds the rows it held in the first pass
(a non-deterministic plan that changes between passes is an error: persist
it first), and adds the results.  An exception raised by the function is
re-raised on the driver as itself.

The function, and with it the model, is pickled once on the driver; each
Python worker process unpickles it once.  Every worker needs pyale (and what
the model needs) installed: a worker that cannot import a module (Spark
starts ``python3`` from the PATH unless ``PYSPARK_PYTHON`` or
``spark.pyspark.python`` says otherwise, not the driver's interpreter) is
reported as :class:`~pyale._engines.shipping.WorkerImportError`, naming the
module, the workers' interpreter and the driver's.

Dtypes are those ``toPandas()`` gives: doubles float64, floats float32,
integers int64/int32/int16/int8 (float64 when the column has a missing
value), booleans bool (object when one is missing), strings the pandas
string dtype (object before pandas 3), timestamps datetime64; decimals and
dates stay Python objects, which pyale refuses as features and level-order
covariates with a clear error (cast them to double in Spark first).
"""

from __future__ import annotations

import functools
import pickle
import re
import sys
import uuid
from typing import Any, Callable, Sequence

import numpy as np
import pandas as pd

from .base import Engine, add_results
from .base import DataChangedError
from .shipping import WorkerImportError, pickled, unpickled

__all__ = ["SparkEngine", "ROWS_PER_BLOCK", "ENGINE", "NAME", "MODULES", "accepts", "drop", "owns"]

#: How messages name the data this engine computes on.
NAME = "Spark DataFrame"
#: How the modules of Spark's types begin (read off an object's type: nothing is imported).
MODULES = ("pyspark",)

#: Rows per block handed to the function (Arrow batches are joined up to this).
ROWS_PER_BLOCK = 1 << 18
#: Blocks inside a partition end at global positions that are multiples of this (the bootstrap's chunk).
ALIGN = 4096
_INTEGRAL = ("ByteType", "ShortType", "IntegerType", "LongType")
#: How a worker's failed import reads in the Python traceback Spark hands back.
_NO_MODULE = re.compile(r"ModuleNotFoundError: No module named '([^']+)'")


def _as_dtype(series: pd.Series, dtype) -> pd.Series:
    """A block's column with the dtype ``toPandas()`` gives the whole column."""
    if dtype == object:
        values = series.astype(object)
        return values.where(series.notna(), None)
    if pd.api.types.is_float_dtype(dtype) and not pd.api.types.is_float_dtype(series.dtype):
        return pd.Series(series.to_numpy(dtype=dtype, na_value=np.nan), index=series.index, name=series.name)
    return series.astype(dtype)


def _blocks(batches, dtypes: dict, rows_per_block: int, offset: int = 0):
    """Blocks of about ``rows_per_block`` rows (the last may be shorter) with the declared dtypes.

    Blocks end at global positions that are multiples of :data:`ALIGN`
    (except at the partition's end), whatever the sizes of the Arrow
    batches, so only partition boundaries cut a bootstrap chunk
    (``pyale._core.map.bootstrap.CHUNK``) in two.
    """
    pending, size, start = [], 0, offset
    for batch in batches:
        if batch.shape[0] == 0:
            continue
        pending.append(batch)
        size += batch.shape[0]
        if size >= rows_per_block:
            cut = (start + size) // ALIGN * ALIGN - start
            joined = _joined(pending, dtypes)
            if cut <= 0 or cut >= size:
                yield joined
                pending, size, start = [], 0, start + size
            else:
                yield joined.iloc[:cut]
                pending, size, start = [joined.iloc[cut:]], size - cut, start + cut
    if pending:
        yield _joined(pending, dtypes)


def _named(batches, rename: dict | None):
    """Arrow batches with the DataFrame's own column names (``SparkEngine`` may read them renamed)."""
    return batches if rename is None else (batch.rename(columns=rename) for batch in batches)


def _joined(batches, dtypes: dict) -> pd.DataFrame:
    block = batches[0] if len(batches) == 1 else pd.concat(batches, ignore_index=True)
    for name, dtype in dtypes.items():
        if block[name].dtype != dtype:
            block[name] = _as_dtype(block[name], dtype)
    return block


def _run_partition(batches, *, token, payload, offsets, dtypes, rows_per_block, rename=None):
    """mapInPandas body: one output row (partition, rows, pickled result) per partition."""
    from pyspark import TaskContext

    partition = TaskContext.get().partitionId()
    offset = offsets.get(partition, 0)
    seen, total = 0, None
    try:
        func, combine = unpickled(token, payload)
        for block in _blocks(_named(batches, rename), dtypes, rows_per_block, offset):
            part = func(block, offset + seen)
            total = part if total is None else combine(total, part)
            seen += block.shape[0]
        result = pickle.dumps(total, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as exc:  # noqa: BLE001 - re-raised on the driver
        try:
            result = pickle.dumps(exc, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:  # noqa: BLE001 - an exception that cannot be pickled
            result = pickle.dumps(RuntimeError(repr(exc)))
        yield pd.DataFrame({"partition": [partition], "rows": [-1], "result": [result]})
        return
    if seen:
        yield pd.DataFrame({"partition": [partition], "rows": [seen], "result": [result]})


def _count_partition(batches, *, nullable, rename=None):
    """mapInPandas body of the first pass: rows, and missing values of integer/boolean columns."""
    from pyspark import TaskContext

    partition = TaskContext.get().partitionId()
    rows, missing = 0, np.zeros(len(nullable), dtype=np.int64)
    for batch in _named(batches, rename):
        rows += batch.shape[0]
        missing += np.array([int(batch[name].isna().sum()) for name in nullable], dtype=np.int64)
    if rows:
        yield pd.DataFrame({"partition": [partition], "rows": [rows], "missing": [pickle.dumps(missing)]})


def owns(obj) -> bool:
    """Whether ``obj`` (of one of :data:`MODULES`) is any Spark object: a DataFrame or a Column."""
    return True


def accepts(data) -> bool:
    """Whether ``data`` (of one of :data:`MODULES`) is a Spark DataFrame, which this engine computes on."""
    return type(data).__name__ == "DataFrame"


def drop(data, column):
    """``data`` without ``column``."""
    return data.drop(column)


def _worker_python(session) -> str | None:
    """The interpreter Spark starts for its Python workers (None when it cannot be read)."""
    try:
        context = session.sparkContext
        return context.getConf().get("spark.pyspark.python") or context.pythonExec
    except Exception:  # noqa: BLE001 - e.g. Spark Connect: no SparkContext on the client
        return None


def _missing_module(module: str, session) -> WorkerImportError:
    """The error for workers that cannot import ``module``, with the interpreter to use instead."""
    python = _worker_python(session)
    runs = "" if python is None else f" They run {python!r}"
    if python is not None and python != sys.executable:
        runs += f", not this Python ({sys.executable!r})."
        advice = (
            f"Set the environment variable PYSPARK_PYTHON to an interpreter that has pyale and its dependencies "
            f"(pandas, pyarrow, the model's libraries), e.g. PYSPARK_PYTHON={sys.executable} for a local session "
            "(or the Spark setting spark.pyspark.python), before the SparkSession starts."
        )
    else:
        runs += "." if python is not None else ""
        advice = (
            f"Install {module} (with pyale, pandas, pyarrow and the model's libraries) for the workers' Python on "
            "every machine that runs them, or point PYSPARK_PYTHON (spark.pyspark.python) at an interpreter that "
            "has them, before the SparkSession starts."
        )
    return WorkerImportError(
        f"Spark's Python workers cannot import {module!r}, which pyale needs there (to run the model on the "
        f"partitions).{runs} {advice}",
        name=module,
    )


def _collected(frame, session) -> list:
    """``frame.collect()``; a worker's failed import becomes a :class:`WorkerImportError`."""
    try:
        return frame.collect()
    except Exception as exc:  # noqa: BLE001 - pyspark wraps the worker's traceback in its own types
        found = _NO_MODULE.search(str(exc))
        if found is None:
            raise
        raise _missing_module(found.group(1), session) from exc


class SparkEngine(Engine):
    """A Spark DataFrame as an engine.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
        The data (never modified).  Its computation must give the same rows
        in the same partitions every time (persist it otherwise).
    rows_per_block : int, optional
        Rows per block handed to the mapped function.
    """

    name = NAME
    collect = "X.toPandas()"
    keep_positive_hint = "df.filter(df[{column!r}] > 0)"

    def __init__(self, df, *, rows_per_block: int = ROWS_PER_BLOCK):
        self.df = df
        self.rows_per_block = rows_per_block
        self.columns = pd.Index(list(df.columns))
        # Names Spark cannot select by (a dot or a backtick, which pyspark's own mapInPandas
        # trips over, or two names equal but for case, ambiguous under Spark's default
        # case-insensitive resolution): every pass reads the columns renamed by position
        # (toDF, a projection that keeps the partitions) and blocks get the names back.
        names = [str(c) for c in self.columns]
        if any("." in n or "`" in n for n in names) or len({n.casefold() for n in names}) < len(names):
            aliases = [f"_pyale_column_{i}" for i in range(len(names))]
            self._source = df.toDF(*aliases)
            self._alias = dict(zip(self.columns, aliases))
            self._rename = dict(zip(aliases, self.columns))
        else:
            self._source, self._alias, self._rename = df, None, None
        self._counts: dict | None = None
        self._dtypes: pd.Series | None = None
        self._plain: bool | None = None

    def _first_pass(self) -> None:
        # The same plan shape as every later pass (mapInPandas on df): an aggregate
        # such as groupBy(spark_partition_id()) may see other partitions (seen with
        # a local relation: one partition there, two under mapInPandas).
        fields = {name: type(field.dataType).__name__ for name, field in zip(self.columns, self.df.schema.fields)}
        nullable = [name for name, kind in fields.items() if kind in _INTEGRAL or kind == "BooleanType"]
        rows = _collected(self._projected(nullable or self.columns[:1]).mapInPandas(
            functools.partial(_count_partition, nullable=nullable, rename=self._rename),
            "partition long, rows long, missing binary",
        ), self.df.sparkSession)
        self._counts = {int(row["partition"]): int(row["rows"]) for row in rows}
        missing = np.zeros(len(nullable), dtype=np.int64)
        for row in rows:
            missing += pickle.loads(row["missing"])
        dtypes = self._source.limit(0).toPandas().dtypes
        dtypes.index = self.columns
        for name, count in zip(nullable, missing):
            if count:
                dtypes[name] = np.dtype(float) if fields[name] in _INTEGRAL else np.dtype(object)
        self._dtypes = dtypes

    def head(self, n: int) -> pd.DataFrame:
        """Some ``n`` rows (``df.limit(n)``) with the dtypes blocks carry, for a model probe on the driver."""
        rows = self._source.limit(n).toPandas()
        rows.columns = self.columns
        return _joined([rows], dict(self.dtypes)) if rows.shape[0] else rows

    def _plain_plan(self) -> bool:
        """Whether the physical plan has no exchange (shuffle), so projecting cannot move rows.

        Scans split files by their sizes and local data by row counts, and
        narrow operations keep partitions, whatever columns are read.  After
        a shuffle, adaptive execution may coalesce partitions by the bytes a
        projection changes: such plans are always read whole.
        """
        if self._plain is None:
            try:
                plan = self._source._jdf.queryExecution().executedPlan().toString()
            except Exception:  # noqa: BLE001 - e.g. Spark Connect: no JVM handle
                plan = "Exchange"
            self._plain = "Exchange" not in plan
        return self._plain

    def _projected(self, columns):
        """The DataFrame with only ``columns`` where that cannot change its partitions."""
        if columns is None or len(columns) == len(self.columns) or not self._plain_plan():
            return self._source
        wanted = set(columns)
        from pyspark.sql import functions as F

        names = [c if self._alias is None else self._alias[c] for c in self.columns if c in wanted]
        return self._source.select(*[F.col("`" + c.replace("`", "``") + "`") for c in names])

    @property
    def partition_rows(self) -> dict:
        """Rows per partition index (partitions without rows are left out)."""
        if self._counts is None:
            self._first_pass()
        return self._counts

    @property
    def dtypes(self) -> pd.Series:
        if self._dtypes is None:
            self._first_pass()
        return self._dtypes

    @property
    def n_rows(self) -> int:
        return sum(self.partition_rows.values())

    def _empty(self) -> pd.DataFrame:
        return pd.DataFrame({name: pd.Series(dtype=dtype) for name, dtype in self.dtypes.items()})

    def map_reduce(
        self,
        func: Callable[[pd.DataFrame, int], Any],
        combine: Callable[[Any, Any], Any] = add_results,
        *,
        columns: Sequence | None = None,
    ) -> Any:
        counts = self.partition_rows
        offsets, start = {}, 0
        for partition in sorted(counts):
            offsets[partition] = start
            start += counts[partition]
        run = functools.partial(
            _run_partition,
            token=uuid.uuid4().hex,
            payload=pickled((func, combine), workers="Spark's Python workers", data=NAME, spark=True),
            offsets=offsets,
            dtypes={c: t for c, t in self.dtypes.items() if columns is None or c in set(columns)},
            rows_per_block=self.rows_per_block,
            rename=self._rename,
        )
        rows = _collected(self._projected(columns).mapInPandas(run, "partition long, rows long, result binary"),
                          self.df.sparkSession)
        for row in rows:
            if row["rows"] == -1:
                error = pickle.loads(row["result"])
                if type(error) is ModuleNotFoundError and error.name:  # e.g. the model's library, unpickling it
                    raise _missing_module(error.name, self.df.sparkSession) from error
                raise error
        found = {int(row["partition"]): int(row["rows"]) for row in rows}
        if found != counts:
            raise DataChangedError(
                "The Spark DataFrame's partitions held other rows than in the first pass over it "
                f"(rows per partition {counts} then {found}): its computation is not deterministic. "
                "Persist or checkpoint it (df.persist(), df.localCheckpoint()) before computing ALE."
            )
        if not rows:
            return func(self._empty(), 0)
        total = None
        for row in sorted(rows, key=lambda r: r["partition"]):
            part = pickle.loads(row["result"])
            total = part if total is None else combine(total, part)
        return total


#: The engine the registry (:mod:`pyale._engines.registry`) opens an accepted data frame with.
ENGINE = SparkEngine
