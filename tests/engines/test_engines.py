"""Dask, Spark and polars lazy engines against pandas on the same data.

The same data in pandas is what the engine's own collection gives
(``ddf.compute()``, ``sdf.toPandas()``, ``lf.collect().to_pandas()``): every ``map_reduce`` of a function
that depends on each row's global position, and every summary (column
checks, order statistics, type-1 and type-7 quantiles, the level-ordering
counts and the distances they give), must equal the pandas engine's, or a
plain NumPy computation, exactly.  Partitionings include empty partitions
and partitions of one row.  The engines are skipped, with the reason, when
Dask, pyspark or Java is missing (fixtures in ``conftest.py``).

Functions shipped to worker processes are built inside the tests (closures
are pickled by value, so the workers need not import this file).
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_array_equal

from engine_helpers import assert_checks_equal, distances_from, same_values
from pyale import _rbase
from pyale._core.grid.features import read_covariate, read_feature
from pyale._core.grid.levels import level_distances
from pyale._engines import PandasEngine
from pyale._core.exact import column_checks, level_order_summaries, order_statistics, quantiles_type1, quantiles_type7
from pyale._engines.base import DataChangedError
from pyale._engines.shipping import UnpicklableError, WorkerImportError

pytestmark = pytest.mark.filterwarnings(
    "ignore:PySpark does not yet fully support pandas:FutureWarning",
    "ignore::DeprecationWarning:pyspark",
)

TINY = {"gather_budget": 6, "cell_bits": 3}  # every refinement step on small data


def data(n: int, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=n)
    x[rng.random(n) < 0.1] = np.nan
    x[rng.random(n) < 0.03] = np.inf
    s = rng.choice(["b", "a", "é", "Z"], size=n).astype(object)
    s[rng.random(n) < 0.1] = None
    feature = rng.choice(["lo", "mid", "hi"], size=n)
    shift = np.array([["lo", "mid", "hi"].index(v) for v in feature])
    return pd.DataFrame(
        {
            "x": x,
            "ties": (rng.integers(0, 3, size=n) + shift).astype(float),
            "i": rng.integers(-1000, 1000, size=n),
            "s": s,
            "f": feature,
            "flag": rng.random(n) < 0.2 + 0.2 * shift,
        }
    )


def position_function():
    """A function of each row's global position and values, with exact (integer) results."""

    def func(block, offset):
        positions = offset + np.arange(block.shape[0])
        ints = block["i"].to_numpy(dtype=np.int64)
        marked = positions % 7 == 0
        return {
            "rows": block.shape[0],
            "weighted": int((positions * ints).sum()),
            "marked": {
                int(p): (repr(float(x)), None if pd.isna(s) else str(s))
                for p, x, s in zip(positions[marked], block["x"].to_numpy()[marked], block["s"].to_numpy()[marked])
            },
        }

    return func


ALL = ("checks", "tiny", "quantiles", "levels")


def check_engine_against_pandas(engine, frame: pd.DataFrame, parts=ALL) -> None:
    """What an engine answers equals the pandas engine on ``frame`` (its own collection).

    Always the row count, the columns, a position-dependent ``map_reduce``
    and the order statistics of a column with missing and infinite values;
    ``parts`` adds the column checks, order statistics with tiny budgets
    (many passes), quantiles and the level-ordering distances.
    """
    frame = frame.reset_index(drop=True)
    plain = PandasEngine(frame)
    assert engine.n_rows == frame.shape[0]
    assert list(engine.columns) == list(frame.columns)
    func = position_function()
    assert engine.map_reduce(func) == plain.map_reduce(func)

    checks = column_checks(engine)
    if "checks" in parts:
        assert_checks_equal(checks, column_checks(plain))
    x = frame["x"].to_numpy(dtype=float)
    finite = np.sort(x[np.isfinite(x)])
    positions = np.arange(finite.shape[0])
    same_values(order_statistics(engine, "x", positions, checks=checks), finite)
    if "tiny" in parts:
        same_values(order_statistics(engine, "x", positions, checks=checks, **TINY), finite)
        ties = np.sort(frame["ties"].to_numpy())
        same_values(order_statistics(engine, "ties", np.arange(ties.shape[0]), checks=checks, **TINY), ties)
    if "quantiles" in parts:
        probs = _rbase.r_seq(1 / 40, 1.0, 40)
        assert_array_equal(
            quantiles_type1(engine, "i", probs, checks=checks), _rbase.quantile_type1(frame["i"].to_numpy(float), probs)
        )
        probs7 = _rbase.r_seq(0.0, 1.0, 100)
        assert_array_equal(quantiles_type7(engine, "x", probs7, checks=checks), _rbase.quantile_type7(finite, probs7))
    if "levels" in parts:
        summary = level_order_summaries(engine, "f", checks=checks)
        read = read_feature(frame["f"], label="f")
        assert summary.levels == read.levels
        covariates = [read_covariate(frame[c]) for c in frame.columns if c != "f"]
        expected = level_distances(read.codes, len(read.levels), covariates)
        assert_array_equal(distances_from(summary, len(read.levels)), expected)


def unpicklable_model():
    import threading

    class LockedModel:
        """A model holding a lock (as models holding connections or handles do)."""

        def __init__(self):
            self.lock = threading.Lock()

        def predict(self, frame):
            return frame["i"].to_numpy() * 2.0

    model = LockedModel()

    def func(block, offset):
        return float(model.predict(block).sum())

    return model, func


UNPICKLABLE = "pyale cannot send the model (a test_engines.unpicklable_model.<locals>.LockedModel object) to {workers}: it cannot be pickled"
#: The end of that message, naming the data the model was used on.
PICKLED_ONCE = "A model used on a {data} is pickled once and unpickled by every worker process"


# --- Dask --------------------------------------------------------------------------------


def dask_frame(dd, frame: pd.DataFrame, sizes):
    from dask import delayed

    starts = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(int)
    parts = [delayed(frame.iloc[s : s + n].copy()) for s, n in zip(starts, sizes)]
    return dd.from_delayed(parts, meta=frame.iloc[:0], verify_meta=False)


@pytest.mark.parametrize(
    "sizes",
    [[60], [20, 20, 20], [0, 25, 0, 1, 34, 0], [1] * 60, [59, 1]],
    ids=["one", "even", "empty-and-one-row", "all-one-row", "uneven"],
)
def test_dask_engine_equals_pandas(dask_dataframe, sizes):
    from pyale._engines.dask import DaskEngine

    frame = data(sum(sizes), seed=len(sizes))
    ddf = dask_frame(dask_dataframe, frame, sizes)
    engine = DaskEngine(ddf, scheduler="threads")
    assert engine.partition_lengths.tolist() == sizes
    computed = ddf.compute()
    check_engine_against_pandas(engine, computed)


def test_dask_engine_from_pandas_partitions(dask_dataframe):
    from pyale._engines.dask import DaskEngine

    frame = data(500, seed=3)
    for npartitions in [1, 4, 9]:
        ddf = dask_dataframe.from_pandas(frame, npartitions=npartitions)
        check_engine_against_pandas(DaskEngine(ddf, scheduler="sync"), ddf.compute())


def test_dask_engine_categorical_with_unknown_categories(dask_dataframe):
    from dask import delayed

    from pyale._engines.dask import DaskEngine

    def part(values, categories, x):
        return pd.DataFrame({"c": pd.Categorical(values, categories=categories), "x": x})

    parts = [
        part([], ["q", "z"], []),
        part(["b", "a", "b"], ["b", "a"], [1.0, 2.0, 3.0]),
        part(["c", "a"], ["c", "a", "unused"], [4.0, 5.0]),
        part(["q"], ["q", "b"], [6.0]),
    ]
    ddf = dask_dataframe.from_delayed([delayed(p) for p in parts], meta=parts[1].iloc[:0], verify_meta=False)
    ddf = ddf.assign(c=ddf["c"].cat.as_unknown())
    assert not ddf["c"].cat.known
    engine = DaskEngine(ddf, scheduler="threads")
    computed = ddf.compute()
    check = column_checks(engine)["c"]
    assert check.categories == tuple(computed["c"].cat.categories)
    assert check.levels == read_feature(computed["c"], label="c").levels == ("b", "a", "c", "q")
    summary = level_order_summaries(engine, "c")
    read = read_feature(computed["c"], label="c")
    expected = level_distances(read.codes, len(read.levels), [read_covariate(computed["x"])])
    assert_array_equal(distances_from(summary, len(read.levels)), expected)



def test_dask_engine_ordered_categories_that_differ_between_partitions_are_refused(dask_dataframe):
    """No order of all the levels follows from partitions that each order only their own (ddf.compute() refuses
    them too); the same categories in every partition are fine."""
    from dask import delayed

    from pyale._engines.dask import DaskEngine

    def part(values, categories):
        return pd.DataFrame({"g": pd.Categorical(values, categories=categories, ordered=True),
                             "x": np.arange(len(values), dtype=float)})

    import pyale

    order = ["high", "mid", "low"]
    parts = [part(["mid", "low", "mid"], ["mid", "low"]), part(["high", "low"], order)]
    message = re.escape("Column 'g' is an ordered Categorical whose partitions list different categories (['mid', "
                        "'low'] in the partition from row position 0, ['high', 'mid', 'low'] in the one from row "
                        "position 3)")

    def model(d):
        return d["x"].to_numpy() + (d["g"].astype(object) == "high").to_numpy() * 2.0

    for unknown in (False, True):
        ddf = dask_dataframe.from_delayed([delayed(p) for p in parts], meta=parts[0].iloc[:0], verify_meta=False)
        if unknown:
            ddf = ddf.assign(g=ddf["g"].cat.as_unknown())
        assert re.match(message, column_checks(DaskEngine(ddf, scheduler="threads"))["g"].ordered_conflict)
        with pytest.raises(ValueError, match=message):
            pyale.ale(model, ddf, "g")
        with pytest.raises(ValueError, match=message):
            pyale.ale(model, ddf, ("g", "x"))
        # Another feature of the same frame: the column is only cast to one dtype for the model.
        assert pyale.ale(model, ddf, "x", n_intervals=2).counts.sum() == 5
    same = [part(["mid", "low", "mid"], order), part(["high", "low"], order)]
    ddf = dask_dataframe.from_delayed([delayed(p) for p in same], meta=same[0].iloc[:0], verify_meta=False)
    check = column_checks(DaskEngine(ddf, scheduler="threads"))["g"]
    assert check.ordered and check.levels == ("high", "mid", "low")


def test_dask_engine_reads_integer_columns_off_the_partitions_not_the_metadata(dask_dataframe):
    """Metadata that says int64 over a partition of floats: ddf.compute() gives float64, so the column is not an
    integer column and iml's grid is not rounded (it was, to edges beyond the data)."""
    import pyale
    from dask import delayed

    rng = np.random.default_rng(24)
    first = pd.DataFrame({"x": rng.normal(size=200), "t": rng.integers(0, 50, size=200)})
    second = pd.DataFrame({"x": rng.normal(size=200), "t": rng.integers(0, 50, size=200) + 0.5})
    ddf = dask_dataframe.from_delayed([delayed(first), delayed(second)], meta=first.iloc[:0], verify_meta=False)
    assert ddf.dtypes["t"] == np.int64
    computed = ddf.compute()
    assert computed.dtypes["t"] == np.float64

    def model(frame):
        return frame["x"].to_numpy() * frame["t"].to_numpy(float) / 10

    got = pyale.ale(model, ddf, "t", conventions="iml", n_intervals=7)
    expected = pyale.ale(model, computed, "t", conventions="iml", n_intervals=7)
    assert_array_equal(got.grid[0], expected.grid[0])
    assert got.grid[0][-1] == 49.5
    assert_array_equal(got.counts, expected.counts)
    np.testing.assert_allclose(got.effects, expected.effects, rtol=0, atol=1e-12)
    # The reverse: metadata that says float64 over integer partitions; ddf.compute() gives int64.
    floats = dask_dataframe.from_delayed([delayed(first), delayed(first.iloc[::-1])],
                                         meta=first.iloc[:0].astype({"t": float}), verify_meta=False)
    assert floats.dtypes["t"] == np.float64 and floats.compute().dtypes["t"] == np.int64
    assert_array_equal(pyale.ale(model, floats, "t", conventions="iml", n_intervals=7).grid[0],
                       pyale.ale(model, floats.compute(), "t", conventions="iml", n_intervals=7).grid[0])
    whole = pd.concat([first, first.iloc[:0]])  # every partition integer: still an integer column
    ints = dask_dataframe.from_pandas(whole, npartitions=2)
    assert_array_equal(pyale.ale(model, ints, "t", conventions="iml", n_intervals=7).grid[0],
                       pyale.ale(model, whole, "t", conventions="iml", n_intervals=7).grid[0])

def test_dask_engine_on_a_local_cluster(dask_cluster, dask_dataframe):
    from pyale._engines.dask import DaskEngine

    frame = data(300, seed=9)
    ddf = dask_frame(dask_dataframe, frame, [100, 0, 1, 199])
    engine = DaskEngine(ddf, scheduler=dask_cluster)
    assert engine.ships_to_processes()
    check_engine_against_pandas(engine, ddf.compute())


def test_dask_refuses_an_unpicklable_model_on_a_local_cluster(dask_cluster, dask_dataframe):
    from pyale._engines.dask import DaskEngine

    frame = data(50, seed=1)
    ddf = dask_dataframe.from_pandas(frame, npartitions=3)
    model, func = unpicklable_model()
    engine = DaskEngine(ddf, scheduler=dask_cluster)
    message = UNPICKLABLE.format(workers="Dask's worker processes")
    with pytest.raises(UnpicklableError, match=re.escape(message)) as info:
        engine.map_reduce(func)
    assert "it holds a _thread.lock object" in str(info.value)
    assert PICKLED_ONCE.format(data="Dask DataFrame") in str(info.value)
    # The threaded scheduler runs in this process: nothing is pickled, the model works.
    threaded = DaskEngine(ddf, scheduler="threads")
    assert threaded.map_reduce(func) == pytest.approx(float(frame["i"].sum() * 2.0))


def test_dask_engine_re_raises_the_function_error(dask_dataframe):
    from pyale._engines.dask import DaskEngine

    ddf = dask_dataframe.from_pandas(data(20, seed=2), npartitions=2)

    def fails(block, offset):
        raise ValueError(f"model failed at {offset}")

    with pytest.raises(ValueError, match="model failed at"):
        DaskEngine(ddf, scheduler="threads").map_reduce(fails)


# --- Spark -------------------------------------------------------------------------------


def spark_frame(spark, frame: pd.DataFrame, n_slices: int | None):
    """A Spark DataFrame of ``frame``'s rows in contiguous slices (or Spark's default split)."""
    if n_slices is None:
        return spark.createDataFrame(frame)
    schema = spark.createDataFrame(frame.iloc[:1]).schema
    rows = list(frame.astype(object).where(frame.notna(), None).itertuples(index=False, name=None))
    return spark.createDataFrame(spark.sparkContext.parallelize(rows, n_slices), schema)


@pytest.mark.parametrize(
    "n_rows, n_slices", [(40, None), (40, 3), (8, 8), (8, 11)], ids=["default", "three", "one-row", "empty"]
)
def test_spark_engine_equals_pandas(spark, n_rows, n_slices):
    from pyale._engines.spark import SparkEngine

    frame = data(n_rows, seed=n_slices or 0)
    sdf = spark_frame(spark, frame, n_slices)
    engine = SparkEngine(sdf, rows_per_block=7)
    counts = engine.partition_rows
    assert sum(counts.values()) == n_rows
    if n_slices == 8:
        assert set(counts.values()) == {1}
    if n_slices == 11:
        assert len(counts) < 11  # partitions without rows
    computed = sdf.toPandas()
    assert dict(engine.dtypes) == dict(computed.dtypes)
    assert engine._plain_plan()  # no shuffle: passes read only the columns they need
    check_engine_against_pandas(engine, computed, ALL if n_slices in (None, 3) else ("checks",))


def test_spark_engine_after_a_shuffle(spark):
    from pyale._engines.spark import SparkEngine

    frame = data(400, seed=5)
    sdf = spark.createDataFrame(frame).repartition(6).persist()
    try:
        engine = SparkEngine(sdf)
        assert not engine._plain_plan()  # after a shuffle every pass reads every column
        check_engine_against_pandas(engine, sdf.toPandas(), ())
    finally:
        sdf.unpersist()


def test_spark_dtypes_are_those_of_to_pandas(spark):
    from pyale._engines.spark import SparkEngine

    sdf = spark.sql(
        "SELECT * FROM VALUES (1, CAST(1 AS BIGINT), CAST(NULL AS INT), true, CAST(NULL AS BOOLEAN), 'a', 1.5D, CAST(2.5 AS FLOAT)),"
        " (2, CAST(2 AS BIGINT), 3, false, true, NULL, NULL, NULL) AS t(a, b, c, d, e, f, g, h)"
    ).repartition(2)
    engine = SparkEngine(sdf, rows_per_block=1)
    computed = sdf.toPandas()
    assert dict(engine.dtypes) == dict(computed.dtypes)
    assert engine.dtypes["c"] == np.float64 and engine.dtypes["e"] == object

    def dtypes(block, offset):
        return {name: {str(dtype)} for name, dtype in block.dtypes.items()}

    seen = engine.map_reduce(dtypes, combine=lambda a, b: {k: a[k] | b[k] for k in a})
    assert seen == {name: {str(dtype)} for name, dtype in computed.dtypes.items()}
    doubles = SparkEngine(sdf.select("g"))  # no integer or boolean column
    assert doubles.n_rows == 2 and doubles.dtypes["g"] == np.float64


def test_spark_refuses_an_unpicklable_model(spark):
    from pyale._engines.spark import SparkEngine

    engine = SparkEngine(spark.createDataFrame(data(30, seed=4)))
    _, func = unpicklable_model()
    message = UNPICKLABLE.format(workers="Spark's Python workers")
    with pytest.raises(UnpicklableError, match=re.escape(message)) as info:
        engine.map_reduce(func)
    assert PICKLED_ONCE.format(data="Spark DataFrame") in str(info.value)


def test_spark_engine_re_raises_the_function_error(spark):
    from pyale._engines.spark import SparkEngine

    engine = SparkEngine(spark.createDataFrame(data(30, seed=4)))

    def fails(block, offset):
        raise ValueError(f"model failed at {offset}")

    with pytest.raises(ValueError, match="model failed at"):
        engine.map_reduce(fails)


_BARE_WORKERS = """
import json, sys
import numpy as np, pandas as pd
from pyspark.sql import SparkSession
import pyale

session = SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false").config(
    "spark.ui.showConsoleProgress", "false").getOrCreate()
session.sparkContext.setLogLevel("OFF")
sdf = session.createDataFrame(pd.DataFrame({"x": np.arange(30.0)}))
try:
    pyale.ale(lambda d: 2 * d["x"], sdf, "x", n_intervals=3)
except Exception as exc:
    print(json.dumps([type(exc).__name__, isinstance(exc, ImportError), str(exc)]))
"""


def test_spark_workers_without_pyale_are_named(spark, tmp_path, child_environment):
    # Spark's workers run PYSPARK_PYTHON (python3 from the PATH by default), not the
    # driver's interpreter: one without pyale's dependencies is named, with the fix.
    import json
    import os
    import subprocess
    import sys
    import venv

    from subprocess_env import child_env

    bare = tmp_path / "bare"
    venv.create(bare, with_pip=False)  # no site-packages: neither numpy nor pandas nor pyale
    worker = str(bare / "bin" / "python")
    env = child_env() | {"PYSPARK_PYTHON": worker, "PYSPARK_DRIVER_PYTHON": sys.executable}
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    done = subprocess.run([sys.executable, "-c", _BARE_WORKERS], cwd=root, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    name, is_import_error, message = json.loads(done.stdout.strip().splitlines()[-1])
    assert (name, is_import_error) == ("WorkerImportError", True)
    assert re.match(r"Spark's Python workers cannot import '(numpy|pandas|pyale)', which pyale needs there", message)
    assert f"They run {worker!r}, not this Python ({sys.executable!r})." in message
    assert f"PYSPARK_PYTHON={sys.executable} for a local session" in message


def test_spark_worker_missing_a_model_module_is_named(spark):
    from pyale._engines.spark import SparkEngine

    engine = SparkEngine(spark.createDataFrame(data(30, seed=4)))

    def needs_a_module(block, offset):
        raise ModuleNotFoundError("No module named 'not_on_the_workers'", name="not_on_the_workers")

    message = (
        "Spark's Python workers cannot import 'not_on_the_workers', which pyale needs there (to run the model on "
        f"the partitions). They run {spark.sparkContext.pythonExec!r}. Install not_on_the_workers (with pyale"
    )
    with pytest.raises(WorkerImportError, match=re.escape(message)):
        engine.map_reduce(needs_a_module)


def test_spark_engine_refuses_data_that_change_between_passes(spark):
    import random

    from pyspark.sql import functions as F
    from pyspark.sql.types import DoubleType

    from pyale._engines.spark import SparkEngine

    coin = F.udf(lambda: random.random(), DoubleType()).asNondeterministic()
    sdf = spark.range(0, 200, numPartitions=2).withColumn("u", coin()).filter("u < 0.5")
    engine = SparkEngine(sdf)
    with pytest.raises(DataChangedError, match="its computation is not deterministic"):
        for _ in range(5):  # the chance that 200 coins land alike five times is nil
            engine.map_reduce(lambda block, offset: block.shape[0])


def test_spark_engine_on_an_empty_frame(spark):
    from pyale._engines.spark import SparkEngine

    sdf = spark.createDataFrame(data(10, seed=1)).limit(0)
    engine = SparkEngine(sdf)
    assert engine.n_rows == 0
    assert engine.map_reduce(lambda block, offset: (block.shape[0], offset)) == (0, 0)


# --- polars LazyFrame ---------------------------------------------------------------------


@pytest.mark.parametrize("rows_per_block", [1 << 18, 20, 7, 1], ids=["one", "even", "uneven", "all-one-row"])
@pytest.mark.parametrize("parts", [[60], [25, 0, 1, 34]], ids=["one-frame", "concatenated"])
def test_polars_lazy_engine_equals_pandas(rows_per_block, parts):
    pl = pytest.importorskip("polars")
    from pyale._engines.polars import PolarsLazyEngine

    frame = data(sum(parts), seed=len(parts) + rows_per_block)
    starts = np.concatenate(([0], np.cumsum(parts)[:-1])).astype(int)
    lf = pl.concat([pl.from_pandas(frame.iloc[s : s + n]).lazy() for s, n in zip(starts, parts)])
    engine = PolarsLazyEngine(lf, rows_per_block=rows_per_block)
    sizes = engine.map_reduce(lambda block, offset: [(offset, block.shape[0])], lambda a, b: a + b)
    assert [n for _, n in sizes] == [min(rows_per_block, 60 - o) for o in range(0, 60, rows_per_block)]
    check_engine_against_pandas(engine, lf.collect().to_pandas())


def test_polars_lazy_engine_reads_parquet_files_in_order(tmp_path):
    pl = pytest.importorskip("polars")
    from pyale._engines.polars import PolarsLazyEngine

    frame = data(500, seed=4)
    for i, start in enumerate(range(0, 500, 130)):  # file names sort in row order
        pl.from_pandas(frame.iloc[start : start + 130]).write_parquet(tmp_path / f"part-{i:02}.parquet",
                                                                       row_group_size=50)
    lf = pl.scan_parquet(tmp_path / "*.parquet")
    collected = lf.collect().to_pandas()
    assert_array_equal(collected["i"], frame["i"])
    check_engine_against_pandas(PolarsLazyEngine(lf, rows_per_block=64), collected)


def test_polars_lazy_engine_dtypes_are_those_of_collect():
    pl = pytest.importorskip("polars")
    from pyale._engines.polars import PolarsLazyEngine

    lf = pl.LazyFrame({
        "i": [1, 2, None, 4, 5, 6], "j": [1, 2, 3, 4, 5, 6], "b": [True, False, True, None, True, True],
        "c": pl.Series(["z", "b", "z", "a", "q", "b"], dtype=pl.Categorical),
        "e": pl.Series(["x", "y", "x", "y", "x", "y"], dtype=pl.Enum(["y", "x", "w"])),
    })
    collected = lf.collect().to_pandas()
    engine = PolarsLazyEngine(lf, rows_per_block=2)
    assert engine.dtypes.to_dict() == {**collected.dtypes.to_dict(), "c": engine.dtypes["c"]}
    for block in engine.map_reduce(lambda block, offset: [block], lambda a, b: a + b):
        assert block[["i", "j", "b", "e"]].dtypes.to_dict() == collected[["i", "j", "b", "e"]].dtypes.to_dict()
    # each block holds its own categories; the grid stage unites them in row order, as collect() does
    checks = column_checks(engine, ["c"])
    assert checks["c"].categorical_dtype == collected["c"].dtype
    assert engine.head(3).equals(collected.head(3).astype({"c": engine.head(3)["c"].dtype}))


def test_polars_lazy_engine_re_raises_and_refuses_data_that_change():
    pl = pytest.importorskip("polars")
    from pyale._engines.polars import PolarsLazyEngine

    engine = PolarsLazyEngine(pl.from_pandas(data(20, seed=2)).lazy(), rows_per_block=8)

    def fails(block, offset):
        raise ValueError(f"model failed at {offset}")

    with pytest.raises(ValueError, match="model failed at 0"):
        engine.map_reduce(fails)
    assert engine.n_rows == 20
    engine.lf = engine.lf.head(19)  # a query that gives other rows than in the first pass
    with pytest.raises(DataChangedError, match=re.escape("The polars LazyFrame gave 20 rows in the first pass over "
                                                         "it and 19 now")):
        engine.map_reduce(lambda block, offset: block.shape[0])


def test_polars_lazy_engine_on_an_empty_frame():
    pl = pytest.importorskip("polars")
    from pyale._engines.polars import PolarsLazyEngine

    engine = PolarsLazyEngine(pl.from_pandas(data(10, seed=1)).lazy().head(0))
    assert engine.n_rows == 0
    assert engine.map_reduce(lambda block, offset: (block.shape[0], offset)) == (0, 0)


def test_polars_lazy_engine_block_rows_follow_the_width_of_the_columns_read(monkeypatch):
    pl = pytest.importorskip("polars")
    from pyale._engines import polars as polars_engine

    f8, i4, obj = np.dtype("float64"), np.dtype("int32"), np.dtype(object)
    assert polars_engine.block_rows([f8] * 10) == polars_engine.ROWS_PER_BLOCK == 1 << 20
    assert polars_engine.block_rows([f8] * 200) == (1 << 27) // 1600 // 4096 * 4096  # 81,920 rows of 1,600 bytes
    assert polars_engine.block_rows([obj] * 100) == (1 << 27) // 6400 // 4096 * 4096  # objects: 64 bytes each
    assert polars_engine.block_rows([f8] * 100_000) == 4096  # never below one bootstrap chunk
    monkeypatch.setattr(polars_engine, "ROWS_PER_BLOCK", 37)  # a smaller maximum wins
    assert polars_engine.block_rows([i4]) == 37

    # each pass cuts its blocks by the width of the columns it reads
    monkeypatch.setattr(polars_engine, "ROWS_PER_BLOCK", 1 << 20)
    monkeypatch.setattr(polars_engine, "BYTES_PER_BLOCK", 3 * 4096 * 8)  # 3 chunks of one float64 column
    frame = pd.DataFrame({"a": np.arange(20_000.0), "b": np.arange(20_000.0), "c": np.arange(20_000.0)})
    engine = polars_engine.PolarsLazyEngine(pl.from_pandas(frame).lazy())

    def sizes(columns):
        found = engine.map_reduce(lambda block, offset: [(offset, block.shape[0])], lambda a, b: a + b,
                                  columns=columns)
        assert [o for o, _ in found] == list(np.cumsum([0] + [n for _, n in found])[:-1])
        return [n for _, n in found]

    assert sizes(["a"]) == [3 * 4096] + [20_000 - 3 * 4096]
    assert sizes(["a", "c"]) == [4096] * 4 + [20_000 - 4 * 4096]  # 16 bytes a row: 1.5 chunks, rounded down
    assert sizes(None) == [4096] * 4 + [20_000 - 4 * 4096]


def test_polars_lazy_engine_holds_native_thread_pools_while_it_maps(monkeypatch):
    pl = pytest.importorskip("polars")
    threadpoolctl = pytest.importorskip("threadpoolctl")
    from pyale._engines import polars as polars_engine

    np.ones((64, 64)) @ np.ones((64, 64))  # BLAS loaded

    def threads():
        return {lib["filepath"]: lib["num_threads"] for lib in threadpoolctl.threadpool_info()}

    before = threads()
    if not before:
        pytest.skip("no native thread pool (BLAS, OpenMP) is loaded")
    monkeypatch.setenv("PYALE_NUM_THREADS", "2")
    monkeypatch.setattr(polars_engine, "_usable_cpus", lambda: 2)  # 2 workers on 2 CPUs: 1 native thread each
    engine = polars_engine.PolarsLazyEngine(pl.from_pandas(pd.DataFrame({"x": np.arange(40.0)})).lazy(),
                                            rows_per_block=8)

    def inside(block, offset):  # BLAS's setting is the process's, OpenMP's this worker thread's
        return [threads()]

    for seen in engine.map_reduce(inside, lambda a, b: a + b):
        assert seen == {path: 1 for path in before}
    assert threads() == before  # restored

    monkeypatch.setattr(polars_engine, "_usable_cpus", lambda: 64)  # 32 each: a limit is never raised
    for seen in engine.map_reduce(inside, lambda a, b: a + b):
        assert seen == before
    assert threads() == before

    monkeypatch.setattr(polars_engine, "_usable_cpus", lambda: 2)
    monkeypatch.setitem(__import__("sys").modules, "threadpoolctl", None)  # not installed: nothing is limited
    assert engine.map_reduce(lambda block, offset: block.shape[0]) == 40


# --- the registry ------------------------------------------------------------------------


def _typed_as(module: str, name: str):
    return type(name, (), {"__module__": module})()


@pytest.mark.parametrize("obj, frame, engine_object, name", [
    (_typed_as("dask.dataframe.core", "DataFrame"), True, True, "Dask DataFrame"),
    (_typed_as("dask_expr._collection", "DataFrame"), True, True, "Dask DataFrame"),
    (_typed_as("dask_expr._collection", "Series"), False, True, "Dask DataFrame"),  # the frame a message names
    (_typed_as("pyspark.sql.dataframe", "DataFrame"), True, True, "Spark DataFrame"),
    (_typed_as("pyspark.sql.column", "Column"), False, True, "Spark DataFrame"),
    (_typed_as("polars.lazyframe.frame", "LazyFrame"), True, True, "polars LazyFrame"),
    (_typed_as("polars.dataframe.frame", "DataFrame"), False, False, None),
    (_typed_as("polars.series.series", "Series"), False, False, None),
    (pd.DataFrame({"x": [1.0]}), False, False, None),
    (np.zeros((2, 2)), False, False, None),
])
def test_the_registry_recognises_each_engine_by_its_type_alone(obj, frame, engine_object, name):
    from pyale._engines import engine_name, is_engine_frame, is_engine_object

    assert is_engine_frame(obj) is frame
    assert is_engine_object(obj) is engine_object
    if name is None:
        with pytest.raises(TypeError, match=re.escape("pyale cannot compute on a")):
            engine_name(obj)
    else:
        assert engine_name(obj) == name


def test_each_engine_carries_the_name_its_messages_use(dask_dataframe):
    from pyale._engines import PandasEngine, as_engine

    frame = data(20, seed=2)
    assert PandasEngine(frame).name == "pandas DataFrame"
    assert as_engine(dask_dataframe.from_pandas(frame, npartitions=2)).name == "Dask DataFrame"
    pl = pytest.importorskip("polars")
    assert as_engine(pl.from_pandas(frame).lazy()).name == "polars LazyFrame"


def test_importing_pyale_imports_no_engine_library(child_environment):
    import subprocess
    import sys

    code = ("import sys, pyale, pyale._engines.registry as r; "
            "frame = type('LazyFrame', (), {'__module__': 'polars.lazyframe.frame'})(); "
            "assert r.is_engine_frame(frame); "
            "print(sorted(m for m in ('dask', 'pyspark', 'polars') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=child_environment,
                         check=True)
    assert out.stdout.strip() == "[]"


# --- the out-of-core benchmark -----------------------------------------------------------


def test_engine_benchmark_runs_small(dask_dataframe, tmp_path, capsys, child_environment):
    """benchmarks/bench_engines.py end to end on a small data set (Dask, polars and pandas agree exactly)."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    import bench_engines

    out = tmp_path / "result.json"
    assert bench_engines.main(
        ["--rows", "30000", "--rows-per-file", "7000", "--row-group", "3000", "--engines", "dask,pandas,polars",
         "--dir", str(tmp_path), "--json", str(out)]
    ) == 0
    printed = capsys.readouterr().out
    assert "edges and counts identical" in printed  # effects: sums added in another order
    assert not (tmp_path / "data").exists()  # cleaned up
    import json

    dask, pandas, polars = json.loads(out.read_text())["results"]
    assert dask["rows"] == pandas["rows"] == polars["rows"] == 30000
    assert polars["edges"] == pandas["edges"] and polars["counts"] == pandas["counts"]
    for name, effects in pandas["effects"].items():
        np.testing.assert_allclose(dask["effects"][name], effects, rtol=0, atol=1e-12)
        np.testing.assert_allclose(polars["effects"][name], effects, rtol=0, atol=1e-12)


def test_engine_profile_names_each_pass_and_its_time(tmp_path, capsys, child_environment):
    """benchmarks/profile_engines.py on a small data set: the four passes of pyale.ale on a polars LazyFrame."""
    pytest.importorskip("polars")
    import json
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    import profile_engines

    out = tmp_path / "profile.json"
    assert profile_engines.main(["--dir", str(tmp_path), "--rows", "20000", "--engines", "polars",
                                 "--json", str(out)]) == 0
    (result,) = json.loads(out.read_text())
    askers = [p["asker"].rsplit(".", 1)[-1] for p in result["passes"]]
    assert askers[0] == "column_checks" and askers[-1] == "estimate"  # the edges' passes between: fewer when small
    assert set(askers[1:-1]) == {"select_order_statistics"}
    estimate = result["passes"][-1]
    assert estimate["calls"] == 14 * estimate["blocks"]  # 5 features x 2 edges and a pair's 4 corners per block
    assert 0 < estimate["model"] <= estimate["func"] and estimate["func"] <= estimate["cpu"] * 1.5
    assert f"| all {len(askers)} passes |" in capsys.readouterr().out


def test_dask_engine_refuses_data_that_change_between_passes(dask_dataframe):
    from dask import delayed

    from pyale._engines.dask import DaskEngine

    draws = iter(range(1, 100))

    def part():
        return pd.DataFrame({"x": np.zeros(next(draws))})  # one more row every time it is computed

    ddf = dask_dataframe.from_delayed([delayed(part, pure=False)()], meta=pd.DataFrame({"x": np.zeros(0)}))
    engine = DaskEngine(ddf, scheduler="sync")
    assert engine.n_rows == 1
    with pytest.raises(DataChangedError, match=re.escape("Partition 0 of the Dask DataFrame held 1 rows in the first pass over it and 2 now")):
        engine.map_reduce(lambda block, offset: block.shape[0])


@pytest.mark.parametrize("module", ["dask", "spark", "polars"])
def test_each_engine_says_in_its_own_words_how_to_collect_and_filter(module):
    """Messages quote the engine's own hints (the core names no library): each engine module declares them, its
    class carries them, and the wrappers the core puts around an engine pass them on."""
    import importlib

    from pyale._core.run.engine_grid import CategoryTyped, FilteredEngine
    from pyale._engines.base import Engine
    from pyale._engines.registry import ENGINES

    engine = importlib.import_module(f"pyale._engines.{module}")
    assert engine in ENGINES
    declared = engine.ENGINE
    assert declared.collect != Engine.collect and declared.collect.startswith("X.")
    assert declared.keep_positive_hint != Engine.keep_positive_hint
    shown = declared.keep_positive_hint.format(column="w")
    assert "'w'" in shown and "> 0" in shown

    inner = PandasEngine(pd.DataFrame({"w": [1.0]}))
    inner.name, inner.collect, inner.keep_positive_hint = declared.name, declared.collect, declared.keep_positive_hint
    for wrapped in (CategoryTyped(inner, {}), FilteredEngine(inner, lambda b: b["w"] > 0, ["w"])):
        assert wrapped.name == declared.name
        assert wrapped.collect == declared.collect and wrapped.keep_positive("w") == shown


def test_collect_hint_names_the_engine_of_a_frame():
    pl = pytest.importorskip("polars")
    from pyale._engines import collect_hint

    assert collect_hint(pl.DataFrame({"a": [1.0]}).lazy()) == "X.collect()"
    with pytest.raises(TypeError, match="pyale cannot compute on a"):
        collect_hint([1, 2])
