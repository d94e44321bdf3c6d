"""The front-ends on Dask and Spark data frames and polars LazyFrames against pandas on the same data.

``pyale.ale``, ``ALEPlot``, ``PDPlot`` and iml's ``Predictor`` /
``FeatureEffect`` are given a Dask or Spark DataFrame and the pandas frame
the engine itself collects (``ddf.compute()``, ``sdf.toPandas()``): grids,
level orders, counts, outputs and every table's discrete columns must be
identical, and every number equal to 1e-12 of the largest value of its
array (block sums are added in another order than one pandas block, so a
value near zero after centring can differ in its last bits relative to
itself, never relative to the effect's scale).  Bootstrap replicates are
identical draws (the same rows), so they agree to the same tolerance.
Partitionings include empty partitions and partitions of one row.

Dask runs on the threaded scheduler (one test on a ``distributed``
LocalCluster), Spark in local mode with one session for the whole run; the
fixtures in ``conftest.py`` skip with the reason when either is missing.
Models shipped to worker processes are closures built inside the tests
(pickled by value).
"""

from __future__ import annotations

import re
import warnings

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal

import pyale
from pyale import FeatureEffect, Predictor

pytestmark = pytest.mark.filterwarnings(
    "ignore:PySpark does not yet fully support pandas:FutureWarning",
    "ignore::DeprecationWarning:pyspark",
)

RTOL = 1e-12


# ----------------------------------------------------------------------------- data and models
def frame(n: int, seed: int) -> pd.DataFrame:
    """Floats, integers with ties, heavy tails, a Categorical with unused categories, strings."""
    rng = np.random.default_rng(seed)
    group = rng.choice(["lo", "mid", "hi"], size=n, p=[0.5, 0.3, 0.2])
    shift = np.select([group == "lo", group == "mid"], [0.0, 1.0], 2.0)
    return pd.DataFrame({
        "x": rng.normal(size=n) + 0.7 * shift,
        "ties": rng.integers(0, 6, size=n) + (shift > 1),
        "heavy": rng.standard_t(1.3, size=n) * 100.0,
        "cat": pd.Categorical(group, categories=["hi", "unused", "lo", "mid"]),
        "s": np.where(rng.random(n) < 0.3 + 0.2 * shift, "b", rng.choice(["a", "é", "Z"], size=n)).astype(object),
    })


def make_model(outputs: int = 1):
    """A model with interactions between every pair asked about (a closure: pickled by value)."""

    def model(d):
        x = d["x"].to_numpy(dtype=float)
        t = d["ties"].to_numpy(dtype=float)
        h = d["heavy"].to_numpy(dtype=float)
        lo = np.asarray(d["cat"].astype(object) == "lo", dtype=float)
        a = np.asarray(d["s"].astype(object) == "a", dtype=float)
        y = x * t + np.sin(x) * lo + 0.001 * h * a + t * lo + 0.01 * x * h + 0.002 * h * lo
        if outputs == 1:
            return y
        return pd.DataFrame({"first": y, "second": np.cos(y) + a})

    return model


FEATURES = ["x", "ties", "heavy", "cat", "s", ("cat", "x"), ("x", "heavy")]


def dask_frame(dd, data: pd.DataFrame, sizes):
    from dask import delayed

    starts = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(int)
    parts = [delayed(data.iloc[s : s + n].reset_index(drop=True)) for s, n in zip(starts, sizes)]
    return dd.from_delayed(parts, meta=data.iloc[:0], verify_meta=False)


def spark_frame(spark, data: pd.DataFrame, n_slices: int):
    """Rows in ``n_slices`` contiguous slices, checkpointed (later passes do not re-read Python rows)."""
    schema = spark.createDataFrame(data.iloc[:1]).schema
    rows = list(data.astype(object).where(data.notna(), None).itertuples(index=False, name=None))
    return spark.createDataFrame(spark.sparkContext.parallelize(rows, n_slices), schema).localCheckpoint()


# ----------------------------------------------------------------------------- comparisons
def close(got, expected, scale=None, what=""):
    got, expected = np.asarray(got, dtype=float), np.asarray(expected, dtype=float)
    assert got.shape == expected.shape, what
    assert_array_equal(np.isnan(got), np.isnan(expected), err_msg=what)
    scale = np.nanmax(np.abs(expected), initial=0.0) if scale is None else scale
    assert_allclose(got, expected, rtol=RTOL, atol=RTOL * max(scale, 1e-300), err_msg=what)


def same_ale(got, expected) -> None:
    """Two ALEResults: discrete fields and counts (weight sums too) identical, numbers to 1e-12 of their scale."""
    for field in ("features", "kind", "outputs", "conventions", "level_order", "ci_level", "bootstrap"):
        assert getattr(got, field) == getattr(expected, field), field
    for axis, (a, b) in enumerate(zip(got.grid, expected.grid)):
        if isinstance(b, tuple):
            assert a == b, f"levels of axis {axis}"
        else:
            assert_array_equal(a, b, err_msg=f"edges of axis {axis}")
    assert_array_equal(got.counts, expected.counts)
    assert got.counts.dtype == expected.counts.dtype
    if expected.empty_cells is not None:
        assert_array_equal(got.empty_cells, expected.empty_cells)
    scale = np.nanmax(np.abs(expected.effects))
    close(got.effects, expected.effects, what=f"effects of {expected.features}")
    for field in ("heterogeneity", "ci_low", "ci_high", "replicates"):
        a, b = getattr(got, field), getattr(expected, field)
        assert (a is None) == (b is None), field
        if b is not None:
            close(a, b, scale=max(scale, np.nanmax(np.abs(b), initial=0.0)), what=field)


def same_list(got, expected, **kwargs) -> None:
    assert len(got) == len(expected)
    for a, b in zip(got, expected):
        same_ale(a, b, **kwargs)


def same_table(got: pd.DataFrame, expected: pd.DataFrame, value_columns=(".value", ".ale")) -> None:
    """iml's tables: same columns and types; discrete columns identical, values close."""
    assert list(got.columns) == list(expected.columns)
    for column in expected.columns:
        if column in value_columns:
            close(got[column], expected[column], what=str(column))
        else:
            pd.testing.assert_series_equal(got[column], expected[column], check_exact=column not in (".left", ".right", ".bottom", ".top"))


def same_statistics(got: pd.DataFrame, expected: pd.DataFrame) -> None:
    assert got.index.equals(expected.index) and list(got.columns) == list(expected.columns)
    close(got.to_numpy(), expected.to_numpy(), what="statistics")


# ----------------------------------------------------------------------------- Dask
SIZES = {
    "one": [240],
    "even": [80, 80, 80],
    "empty-and-one-row": [0, 95, 0, 1, 144, 0],
    "uneven": [239, 1],
}


@pytest.fixture(scope="module")
def dd(dask_dataframe):
    import dask

    with dask.config.set(scheduler="threads"):
        yield dask_dataframe


@pytest.mark.parametrize("sizes", list(SIZES.values()), ids=list(SIZES))
@pytest.mark.parametrize("conventions", ["aleplot", "iml"])
def test_ale_on_dask_equals_pandas(dd, sizes, conventions):
    ddf = dask_frame(dd, frame(sum(sizes), seed=len(sizes)), sizes)
    data = ddf.compute()
    model = make_model()
    same_list(pyale.ale(model, ddf, FEATURES, conventions=conventions),
              pyale.ale(model, data, FEATURES, conventions=conventions))


def test_ale_on_dask_every_value_an_edge_and_user_grids(dd, monkeypatch):
    data = frame(300, seed=3)
    ddf = dask_frame(dd, data, [100, 0, 200])
    model = make_model(outputs=2)
    for kwargs in [{"n_intervals": 10**9}, {"n_intervals": 7, "conventions": "iml"},
                   {"grid": [-1e9, 0, 0.5, 1e9]}, {"level_order": ["mid", "hi", "lo"]}]:
        features = (["x", ("cat", "x")] if "level_order" in kwargs else ["x", "heavy"] if "grid" in kwargs
                    else ["x", "ties", ("x", "ties")])
        same_list(pyale.ale(model, ddf, features, **kwargs), pyale.ale(model, data, features, **kwargs))
    from pyale._core.run import engine_grid

    monkeypatch.setattr(engine_grid, "MAX_EDGES", 50)
    message = ("The 'n_intervals' parameter of ale is 1,000: so many intervals make every distinct value of "
               "column 'x' an edge, and it has more than 50 distinct values on this Dask DataFrame.")
    with pytest.raises(ValueError, match=re.escape(message)):
        pyale.ale(model, ddf, "x", n_intervals=1000)
    with pytest.raises(ValueError, match=re.escape("on a Dask DataFrame pyale computes at most 50")):
        pyale.ale(model, ddf, "x", n_intervals=100)
    same_ale(pyale.ale(model, ddf, "ties", n_intervals=1000), pyale.ale(model, data, "ties", n_intervals=1000))


@pytest.mark.parametrize("weights", ["integer", "dyadic", "random", "tenths"])
def test_weighted_bootstrap_and_statistics_on_dask(dd, weights):
    data = frame(9000, seed=5)  # several bootstrap chunks, cut by partition boundaries
    rng = np.random.default_rng(1)
    w = {"integer": rng.integers(1, 4, size=9000).astype(float),
         "dyadic": rng.integers(1, 8, size=9000) / 4.0,
         "random": rng.uniform(0.5, 2.0, size=9000),
         "tenths": np.full(9000, 0.1)}[weights]  # running sums of 0.1 land on the targets W * p
    ddf = dask_frame(dd, data.assign(w=w), [4000, 0, 1, 4999])
    model = make_model()
    features = ["x", "cat", ("cat", "x"), ("x", "ties")]
    kwargs = {"n_bootstrap": 12, "random_state": 7, "ci_level": 0.8}
    got = pyale.ale(model, ddf, features, sample_weight="w", y="heavy", **kwargs)
    expected = pyale.ale(model, data, features, sample_weight=w, y="heavy", **kwargs)
    same_list(got, expected)  # weight sums per interval are exact: identical counts for any weights
    same_statistics(got.statistics, expected.statistics)
    # statistics from the model's predictions (the passes call the model on every row)
    got = pyale.ale(model, ddf, ["x", "s"], sample_weight="w")
    expected = pyale.ale(model, data, ["x", "s"], sample_weight=w)
    same_statistics(got.statistics, expected.statistics)


@pytest.mark.parametrize("kind", ["pandas", "polars", "pyarrow", "numpy"])
def test_a_weight_column_on_any_frame_is_the_dask_weight_column(dd, kind):
    # sample_weight="w" names the column on every frame; as on Dask it is no feature and never shown to the model.
    data = frame(300, seed=8).drop(columns=["cat", "s"])
    w = np.random.default_rng(2).integers(0, 4, size=300) / 2.0
    weighted = data.assign(w=w)
    seen = set()

    def model(d):
        names = getattr(d, "column_names", None) or list(d.columns)  # a pyarrow Table, else a data frame
        seen.update(names)
        x, ties, heavy = (np.asarray(d[n], dtype=float) for n in ("x", "ties", "heavy"))
        return x * ties + 0.01 * heavy

    if kind == "numpy":  # the model is handed arrays of X's columns less the weight column
        X, options = weighted.to_numpy(), {"feature_names": list(weighted.columns)}
        model_in = lambda d: model(pd.DataFrame(d, columns=list(data.columns)))  # noqa: E731
    else:
        X = {"pandas": weighted, "polars": pl_frame(weighted), "pyarrow": pa_table(weighted)}[kind]
        options, model_in = {}, model
    features = ["x", ("x", "ties")]
    got = pyale.ale(model_in, X, features, sample_weight="w", y="heavy", n_intervals=6, **options)
    assert "w" not in seen
    same_list(got, pyale.ale(model, data, features, sample_weight=w, y="heavy", n_intervals=6))
    same_list(got, pyale.ale(model, dask_frame(dd, weighted, [100, 0, 200]), features, sample_weight="w",
                             y="heavy", n_intervals=6))


def test_auto_intervals_on_dask_equal_pandas(dd):
    data = frame(300, seed=9)
    w = np.where(np.arange(300) % 7 == 0, 0.0, 1.0)  # zero weights: the rows taking part decide the count
    features = ["x", ("x", "heavy"), "cat"]
    got = pyale.ale(make_model(), dask_frame(dd, data.assign(w=w), [120, 180]), features, n_intervals="auto",
                    sample_weight="w")
    expected = pyale.ale(make_model(), data, features, n_intervals="auto", sample_weight=w)
    same_list(got, expected)
    assert [len(r.grid[-1]) - 1 for r in got[:2]] == [12, 5]  # 257 rows: 257 // 20, isqrt(257 // 10)


def pl_frame(data):
    return pytest.importorskip("polars").from_pandas(data)


def pa_table(data):
    return pytest.importorskip("pyarrow").Table.from_pandas(data, preserve_index=False)


@pytest.mark.parametrize("sizes", [[30], [7, 0, 23], [1] * 30])
def test_fractional_weights_give_the_pandas_level_order_on_dask(dd, sizes):
    """Weight sums that differ in the last bit flip the sign of the MDS eigenvector (a reversed
    level order) or swap two levels that look alike: the sums are exact on both sides."""
    rng = np.random.default_rng(28)
    base = pd.DataFrame({"x": rng.normal(size=10), "k": rng.integers(0, 4, 10), "w": rng.uniform(0.1, 3.0, 10)})
    twins = pd.concat([base.assign(g="a"), base.assign(g="b").iloc[::-1],  # two levels alike, weights too
                       pd.DataFrame({"x": rng.normal(size=10) + 1, "k": rng.integers(0, 4, 10),
                                     "w": rng.uniform(0.1, 3.0, 10), "g": "c"})])
    data = twins.sample(frac=1, random_state=3).reset_index(drop=True)
    data["g"] = pd.Categorical(data["g"])

    def model(d):
        return d["x"].to_numpy() * (1 + d["g"].cat.codes.to_numpy()) + d["k"].to_numpy()

    ddf = dask_frame(dd, data, sizes)
    for conventions in ("aleplot", "iml"):
        got = pyale.ale(model, ddf, ["g", ("g", "x")], sample_weight="w", conventions=conventions)
        expected = pyale.ale(model, data.drop(columns="w"), ["g", ("g", "x")], sample_weight=data["w"].to_numpy(),
                             conventions=conventions)
        same_list(got, expected)
    shuffled = data.sample(frac=1, random_state=9).reset_index(drop=True)  # and in any row order
    assert pyale.ale(model, shuffled.drop(columns="w"), "g", sample_weight=shuffled["w"].to_numpy()).level_order \
        == expected[0].level_order


def test_heterogeneity_on_dask_equals_pandas_at_any_level(dd):
    """Blocks' spreads are added around one reference: equal differences give exactly 0 on every
    partitioning, and a large common level of the differences costs no digits."""
    rng = np.random.default_rng(14)
    data = pd.DataFrame({"x": rng.normal(size=3000), "z": rng.uniform(size=3000),
                         "w": rng.choice([1e-8, 0.3, 1e8], size=3000)})
    ddf = dask_frame(dd, data, [1000, 7, 1993])
    plain = data.drop(columns="w")

    def product(d):  # a pair's second-order differences are all equal within a cell
        return d["x"].to_numpy() * d["z"].to_numpy()

    for weights in (None, "w"):
        got = pyale.ale(product, ddf, ("x", "z"), n_intervals=5, sample_weight=weights)
        expected = pyale.ale(product, plain, ("x", "z"), n_intervals=5,
                             sample_weight=None if weights is None else data["w"].to_numpy())
        assert np.nanmax(got.heterogeneity) == np.nanmax(expected.heterogeneity) == 0.0

    def levelled(d):
        return 1e6 * d["x"].to_numpy() + d["x"].to_numpy() * d["z"].to_numpy()

    for weights in (None, "w"):
        got = pyale.ale(levelled, ddf, "x", sample_weight=weights)
        expected = pyale.ale(levelled, plain, "x", sample_weight=None if weights is None else data["w"].to_numpy())
        same_ale(got, expected)  # heterogeneity to 1e-12 of its scale


def test_unweighted_bootstrap_statistics_and_zero_weights_on_dask(dd):
    data = frame(5000, seed=6)
    ddf = dask_frame(dd, data, [1234, 3766])
    model = make_model(outputs=2)
    kwargs = {"n_bootstrap": 8, "random_state": np.random.SeedSequence(3)}
    got = pyale.ale(model, ddf, ["ties", ("x", "heavy")], **kwargs)
    expected = pyale.ale(model, data, ["ties", ("x", "heavy")], **kwargs)
    same_list(got, expected)
    same_statistics(got.statistics, expected.statistics)
    # rows of weight 0 take no part (their missing values neither), as pandas drops them
    w = np.where(np.arange(5000) % 7 == 0, 0.0, 1.0 + np.arange(5000) % 3)
    holes = data.assign(x=np.where(w == 0, np.nan, data["x"]), w=w)
    ddf = dask_frame(dd, holes, [1234, 3766])
    got = pyale.ale(model, ddf, ["x", "cat"], sample_weight="w")
    kept = w > 0
    expected = pyale.ale(model, holes.drop(columns="w")[kept].reset_index(drop=True), ["x", "cat"],
                         sample_weight=w[kept])
    same_list(got, expected)
    same_statistics(got.statistics, expected.statistics)


def test_unknown_categories_and_ordered_categories_on_dask(dd):
    data = frame(400, seed=8)
    data["o"] = pd.Categorical(data["s"], categories=["Z", "a", "b", "é"], ordered=True)
    ddf = dask_frame(dd, data, [150, 0, 250])
    ddf = ddf.assign(cat=ddf["cat"].cat.as_unknown())
    assert not ddf["cat"].cat.known
    model = make_model()
    computed = ddf.compute()
    same_list(pyale.ale(model, ddf, ["cat", "o", ("o", "x")]), pyale.ale(model, computed, ["cat", "o", ("o", "x")]))


@pytest.mark.parametrize("meta", ["unknown", "first partition's"])
def test_partitions_with_their_own_categories_on_dask(dd, meta):
    """Each partition a Categorical of its own categories (read_csv with dtype='category', or metadata
    that does not match): compute() unites them, and so does pyale, also in the blocks the model sees
    (a row moved to a level its partition lacks is that level, not a missing value)."""
    from dask import delayed

    rng = np.random.default_rng(12)
    parts = []
    for i, cats in enumerate([["p", "q"], ["r", "s", "q"], ["z", "p", "s"]]):
        parts.append(pd.DataFrame({"a": rng.normal(size=200), "b": rng.uniform(size=200),
                                   "g": pd.Categorical(rng.choice(cats, 200), categories=cats)},
                                  index=pd.RangeIndex(200 * i, 200 * (i + 1))))
    ddf = dd.from_delayed([delayed(p) for p in parts], meta=parts[0].iloc[:0], verify_meta=False)
    if meta == "unknown":
        ddf = ddf.assign(g=ddf["g"].cat.as_unknown())
    computed = ddf.compute()
    assert computed["g"].cat.categories.tolist() == ["p", "q", "r", "s", "z"]

    def model(d):  # codes and labels both matter: the dtype must be the computed frame's
        g = d["g"]
        assert not g.isna().any(), "a row moved to a level its partition lacks became missing"
        return d["a"] * d["b"] + g.cat.codes.to_numpy() * d["b"] + (g == "r").to_numpy()

    same_list(pyale.ale(model, ddf, ["g", ("g", "a")]), pyale.ale(model, computed, ["g", ("g", "a")]))
    got = pyale.PDPlot(ddf, None, lambda m, d: model(d), "g", 5, plot=False)
    expected = pyale.PDPlot(computed, None, lambda m, d: model(d), "g", 5, plot=False)
    assert list(got.x_values) == list(expected.x_values)
    close(got.f_values, expected.f_values)
    same_table(FeatureEffect(Predictor(predict_function=model, data=ddf), "g").results,
               FeatureEffect(Predictor(predict_function=model, data=computed), "g").results)


def test_aleplot_and_pdplot_on_dask(dd):
    data = frame(300, seed=9)
    ddf = dask_frame(dd, data, [0, 120, 1, 179])
    model = make_model()

    def pred_fun(X_model, newdata):
        return X_model(newdata)

    for J in ["x", "ties", "cat", ("cat", "heavy"), ("x", "ties")]:
        for fn, kwargs in [(pyale.ALEPlot, {"K": 9}), (pyale.PDPlot, {"K": 6}), (pyale.PDPlot, {"K": 1})]:
            got = fn(ddf, model, pred_fun, J, plot=False, **kwargs)
            expected = fn(data, model, pred_fun, J, plot=False, **kwargs)
            assert got.kind == expected.kind and got.feature == expected.feature
            assert got.column_number == expected.column_number
            if isinstance(expected.x_values, tuple):
                for a, b in zip(got.x_values, expected.x_values):
                    assert_array_equal(np.asarray(a, dtype=object), np.asarray(b, dtype=object))
            else:
                assert_array_equal(np.asarray(got.x_values, dtype=object), np.asarray(expected.x_values, dtype=object))
            assert_array_equal(got.counts, expected.counts)
            close(got.f_values, expected.f_values, what=f"{fn.__name__} {J}")
            assert getattr(got, "K", None) == getattr(expected, "K", None)


def test_iml_label_answers_on_dask(dd):
    """A predict_function answering booleans: always the classes False and True, whatever a partition
    (or the few probe rows) holds.  String labels without classes_ are read per call: a partition
    missing a class is refused with what to do."""
    data = frame(300, seed=11).sort_values("x", ignore_index=True)  # the first partition: all False

    def decide(d):
        return d["x"].to_numpy() > 1.0

    ddf = dask_frame(dd, data, [100, 0, 200])
    got = FeatureEffect(Predictor(predict_function=decide, data=ddf), "x").results
    expected = FeatureEffect(Predictor(predict_function=decide, data=data), "x").results
    same_table(got, expected)
    assert list(expected[".class"].cat.categories) == ["False", "True"]
    small = FeatureEffect(Predictor(predict_function=decide, data=data.iloc[:50]), "x").results  # all False
    assert list(small[".class"].cat.categories) == ["False", "True"]

    def words(d):
        return np.where(d["x"].to_numpy() > 1.0, "high", "low")

    with pytest.raises(pyale.PredictionError, match=re.escape(
            "changed its outputs between calls: first ['low'], now ['high', 'low']. It answers class labels")):
        FeatureEffect(Predictor(predict_function=words, data=ddf), "x")


def test_iml_on_dask(dd):
    data = frame(300, seed=10)
    data["target"] = np.arange(300.0)
    ddf = dask_frame(dd, data, [100, 100, 0, 100])
    model = make_model(outputs=2)
    got_p = Predictor(predict_function=model, data=ddf, y="target")
    expected_p = Predictor(predict_function=model, data=data, y="target")
    assert got_p.feature_types == expected_p.feature_types and got_p.feature_names == expected_p.feature_names
    cases = [
        ("x", {}), ("ties", {"grid_size": 4}), ("cat", {}), ("s", {}), (["cat", "x"], {}), (["x", "cat"], {}),
        (["x", "heavy"], {}), ("x", {"grid_points": [-1.0, 0.0, 1.0, 2.0]}),
        (["x", "ties"], {"grid_points": [[-1.0, 0.0, 1.5], [1, 3, 4]]}), (["cat", "x"], {"grid_points": [None, [0.0, 1.0]]}),
        ("x", {"method": "pdp"}), ("cat", {"method": "pdp"}), ("x", {"method": "pdp", "center_at": 0.25}),
        ("s", {"method": "pdp", "center_at": "a"}), (["x", "cat"], {"method": "pdp", "grid_size": [4, 3]}),
        ("ties", {"method": "pdp", "grid_points": [0, 3, 5]}),
    ]
    for feature, kwargs in cases:
        with warnings.catch_warnings(record=True) as got_warnings:
            warnings.simplefilter("always")
            got = FeatureEffect(got_p, feature, **kwargs)
        with warnings.catch_warnings(record=True) as expected_warnings:
            warnings.simplefilter("always")
            expected = FeatureEffect(expected_p, feature, **kwargs)
        assert [str(w.message) for w in got_warnings] == [str(w.message) for w in expected_warnings]
        same_table(got.results, expected.results)
    got = pyale.FeatureEffects(got_p, ["x", "cat"], method="pdp")
    expected = pyale.FeatureEffects(expected_p, ["x", "cat"], method="pdp")
    for name in ["x", "cat"]:
        same_table(got.results[name], expected.results[name])
    message = ("The 'method' parameter of FeatureEffect is 'ice': ICE gives one curve per row, as large as the "
               "data, so pyale does not compute it on a Dask DataFrame.")
    with pytest.raises(ValueError, match=re.escape(message)):
        FeatureEffect(got_p, "x", method="ice")


def _errors():
    """(label, pandas frame change, call, expected exception type) for the message table."""
    def column(name, values):
        return lambda d: d.assign(**{name: values(d)})

    nan_at_7 = column("x", lambda d: np.where(np.arange(len(d)) == 7, np.nan, d["x"]))
    inf_at_9 = column("heavy", lambda d: np.where(np.arange(len(d)) == 9, -np.inf, d["heavy"]))
    return [
        ("missing", nan_at_7, lambda X, m: pyale.ale(m, X, "x"), ValueError),
        ("missing-categorical", column("cat", lambda d: d["cat"].where(np.arange(len(d)) != 11)),
         lambda X, m: pyale.ale(m, X, "cat"), ValueError),
        ("infinite", inf_at_9, lambda X, m: pyale.ale(m, X, ["x", "heavy"]), ValueError),
        ("boolean", column("flag", lambda d: d["x"] > 0), lambda X, m: pyale.ale(m, X, "flag"), TypeError),
        ("datetime", column("when", lambda d: pd.Timestamp("2020-01-01") + pd.to_timedelta(d["ties"], unit="D")),
         lambda X, m: pyale.ale(m, X, "when"), TypeError),
        ("mixed-objects", column("mixed", lambda d: pd.Series([1, "a"] * (len(d) // 2), dtype=object)),
         lambda X, m: pyale.ale(m, X, "mixed"), TypeError),
        ("constant", column("c", lambda d: np.full(len(d), 2.5)), lambda X, m: pyale.ale(m, X, "c"), ValueError),
        ("single-level", column("one", lambda d: pd.Categorical(["q"] * len(d), categories=["q", "r"])),
         lambda X, m: pyale.ale(m, X, "one"), ValueError),
        ("overflow", column("big", lambda d: np.where(d["x"] > 0, 1.7e308, -1.7e308)),
         lambda X, m: pyale.ale(m, X, "big"), ValueError),
        ("level-order-numeric", None, lambda X, m: pyale.ale(m, X, "x", level_order=["a"]), ValueError),
        ("grid-categorical", None, lambda X, m: pyale.ale(m, X, "cat", grid=[0, 1]), ValueError),
        ("grid-not-covering", None, lambda X, m: pyale.ale(m, X, "x", grid=[0, 1]), ValueError),
        ("grid-empty-interval", None, lambda X, m: pyale.ale(m, X, "ties", grid=[0, 2.5, 2.6, 7]), ValueError),
        ("two-categorical", None, lambda X, m: pyale.ale(m, X, [("cat", "s")]), ValueError),
        ("categorical-second", None, lambda X, m: pyale.ale(m, X, [("x", "cat")]), ValueError),
        ("unknown-column", None, lambda X, m: pyale.ale(m, X, "nope"), ValueError),
        ("bad-level-order", None, lambda X, m: pyale.ale(m, X, "cat", level_order=["lo", "mid"]), ValueError),
        ("aleplot-missing", nan_at_7, lambda X, m: pyale.ALEPlot(X, m, lambda a, d: a(d), "x", plot=False),
         ValueError),
        ("aleplot-categorical-second", None,
         lambda X, m: pyale.ALEPlot(X, m, lambda a, d: a(d), ("x", "s"), plot=False), ValueError),
        ("pdplot-constant", column("c", lambda d: np.full(len(d), 2.5)),
         lambda X, m: pyale.PDPlot(X, m, lambda a, d: a(d), "c", K=5, plot=False), ValueError),
        ("pdplot-mean-overflows", None,
         lambda X, m: pyale.PDPlot(X, m, lambda a, d: np.full(len(d), 1.7e308), "x", K=5, plot=False),
         pyale.PredictionError),
        ("pdplot-pair-mean-overflows", None,
         lambda X, m: pyale.PDPlot(X, m, lambda a, d: np.full(len(d), -1.7e308), ["cat", "x"], K=3, plot=False),
         pyale.PredictionError),
        ("iml-missing", inf_at_9, lambda X, m: FeatureEffect(Predictor(predict_function=m, data=X), "heavy"),
         ValueError),
        ("model-raises-at-once", None, lambda X, m: pyale.ale(lambda d: d["nope"], X, "x"), pyale.PredictionError),
        ("y-missing", column("target", lambda d: np.where(np.arange(len(d)) == 3, np.nan, 1.0)),
         lambda X, m: pyale.ale(m, X, "x", y="target"), ValueError),
    ]


@pytest.mark.parametrize("label, change, call, kind", _errors(), ids=[e[0] for e in _errors()])
def test_dask_errors_are_pandas_errors(dd, label, change, call, kind):
    import dask

    data = frame(60, seed=11)
    if change is not None:
        data = change(data)
    model = make_model()
    with pytest.raises(kind) as expected:
        call(data, model)
    with dask.config.set({"dataframe.convert-string": False}):  # an object column stays one
        ddf = dask_frame(dd, data, [20, 0, 40])
        with pytest.raises(kind) as got:
            call(ddf, model)
    assert _normalised(str(got.value)) == _normalised(str(expected.value), pandas=True)


def _normalised(message: str, pandas: bool = False) -> str:
    """The message with what an engine cannot say as pandas does made alike.

    An engine locates a value by row position (the test frames' index is
    their positions), does not list an object column's value types, and
    its first model call is the probe of a few rows.
    """
    if pandas:
        message = re.sub(r"at index (\d+)", r"at row position \1", message)
        message = re.sub(r"; it holds [^.]* values", "", message)
    return re.sub(r"while predicting \d+ row\(s\) for .*?: ", "while predicting N row(s) for ...: ", message)


def test_weight_and_engine_refusals_on_dask(dd):
    data = frame(60, seed=12)
    model = make_model()
    w = np.ones(60)
    for bad, message in [
        (np.where(np.arange(60) == 5, -1.0, 1.0), "must hold non-negative finite numbers. Got -1.0 at position 5 (1 bad value(s))."),
        (np.where(np.arange(60) == 8, np.nan, 1.0), "must hold non-negative finite numbers. Got nan at position 8 (1 bad value(s))."),
        (np.zeros(60), "must give at least one row a positive weight."),
    ]:
        with pytest.raises(ValueError, match=re.escape(message)):
            pyale.ale(model, data, "x", sample_weight=bad)
        with pytest.raises(ValueError, match=re.escape(message)):
            pyale.ale(model, dask_frame(dd, data.assign(w=bad), [30, 30]), "x", sample_weight="w")
    ddf = dask_frame(dd, data.assign(w=w), [30, 30])
    cases = [
        (TypeError, "The 'sample_weight' parameter of ale must be the name of a column of X when X is a Dask "
                    "DataFrame (an array", lambda: pyale.ale(model, ddf, "x", sample_weight=w)),
        (ValueError, "The 'sample_weight' parameter of ale must name a column of X. Got 'v'",
         lambda: pyale.ale(model, ddf, "x", sample_weight="v")),
        (ValueError, "The 'sample_weight' parameter of ale must be one weight per row of X or name a column of X. "
                     "Got 'v'; the columns are ['x', 'ties', 'heavy', 'cat', 's', 'w'].",
         lambda: pyale.ale(model, data.assign(w=w), "x", sample_weight="v")),
        (ValueError, "The 'features' parameter of ale names 'w', the sample_weight column: it weighs the rows and is no feature",
         lambda: pyale.ale(model, data.assign(w=w), "w", sample_weight="w")),
        (ValueError, "The 'features' parameter of ale names 'w', the sample_weight column: it weighs the rows and is no feature",
         lambda: pyale.ale(model, ddf, "w", sample_weight="w")),
        (TypeError, "The 'y' parameter of ale must be the name of a column of X when X is a Dask DataFrame.",
         lambda: pyale.ale(model, ddf, "x", y=np.ones(60))),
        (TypeError, "The 'X' parameter of model_bootstrap is a Dask DataFrame",
         lambda: pyale.model_bootstrap(lambda a, b: model, ddf, np.ones(60), "x", n_bootstrap=2)),
        (TypeError, "The 'y' parameter of Predictor must be a column name when data is a Dask DataFrame (values",
         lambda: Predictor(predict_function=model, data=ddf, y=np.ones(60))),
        (ValueError, "The 'conventions' parameter of ale cannot be 'ale' (R's ale package) for a Dask DataFrame: "
                     "those rules run in memory only.", lambda: pyale.ale(model, ddf, "x", conventions="ale")),
        (ValueError, "The 'X' parameter of ale must have at least one row and one column. Got shape (0, 6)",
         lambda: pyale.ale(model, dask_frame(dd, data.assign(w=w).iloc[:0], [0, 0]), "x")),
        # A Dask Series or Array where a frame belongs: refused as a pandas Series is, with a hint.
        (TypeError, "The 'X' parameter of ale must be a pandas or polars DataFrame, a pyarrow Table, or a 2-D "
                    "NumPy array (with feature_names=). Got dask.Series instead. A Dask DataFrame is computed on "
                    "where it is, but not a Series",
         lambda: pyale.ale(model, ddf["x"], "x")),
        (TypeError, "Got dask.Array instead.", lambda: pyale.ale(model, ddf.to_dask_array(lengths=True), 0)),
        (TypeError, "The 'X' parameter of ALEPlot must be", lambda: pyale.ALEPlot(ddf["x"], None, lambda m, d: model(d), J="x")),
        (TypeError, "The 'data' parameter of Predictor must be", lambda: Predictor(predict_function=model, data=ddf["x"])),
        (TypeError, "The 'sample_weight' parameter of ale must be the name of a column of X when X is a Dask "
                    "DataFrame (an array", lambda: pyale.ale(model, ddf, "x", sample_weight=ddf["w"])),
    ]
    for kind, message, call in cases:
        with pytest.raises(kind, match=re.escape(message)):
            call()
    zeros = dask_frame(dd, data.assign(w=np.where(np.arange(60) < 3, 0.0, 1.0)), [30, 30])
    with pytest.raises(ValueError, match=re.escape("The 'n_bootstrap' parameter of ale needs every row of a Dask "
                                                   "DataFrame to take part")):
        pyale.ale(model, zeros, "x", sample_weight="w", n_bootstrap=3)


def test_model_failures_inside_the_partitions_reach_the_user(dd):
    data = frame(200, seed=13)
    ddf = dask_frame(dd, data, [50, 150])
    base = make_model()

    def raises_late(d):
        if (d["x"].to_numpy() > 2.5).any():
            raise ValueError("boom on a large x")
        return base(d)

    def nan_late(d):
        y = base(d)
        return np.where(d["ties"].to_numpy() == 6, np.nan, y)

    for model, message in [(raises_late, "model raised ValueError while predicting"),
                           (nan_late, "non-finite prediction(s)")]:
        with pytest.raises(pyale.PredictionError, match=re.escape(message)) as info:
            pyale.ale(model, ddf, ["x", "ties"])
        with pytest.raises(pyale.PredictionError) as expected:
            pyale.ale(model, data, ["x", "ties"])
        assert str(info.value).split(" while ")[0] == str(expected.value).split(" while ")[0] or \
            "non-finite" in str(info.value)


def test_ale_on_a_local_cluster(dask_cluster, dask_dataframe):
    import dask
    import threading

    data = frame(500, seed=14)
    ddf = dask_frame(dask_dataframe, data, [200, 0, 1, 299])
    model = make_model(outputs=2)
    with dask.config.set(scheduler=dask_cluster.get):
        got = pyale.ale(model, ddf, ["x", "cat", ("cat", "x")], n_bootstrap=5, random_state=2)
        lock = threading.Lock()

        def locked(d):
            with lock:
                return model(d)

        with pytest.raises(pyale._engines.shipping.UnpicklableError, match=re.escape("(a _thread.lock object)")):
            pyale.ale(locked, ddf, "x")
    same_list(got, pyale.ale(model, data, ["x", "cat", ("cat", "x")], n_bootstrap=5, random_state=2))


# ----------------------------------------------------------------------------- polars LazyFrame
# The same data in pandas is the eager frame the LazyFrame collects (lf.collect(), which pyale
# converts to pandas once); the model gets polars frames on both paths (pandas_in reads them).
BLOCKS = {"one": 1 << 18, "uneven": 37, "one-row": 1}


def polars_lazy(data: pd.DataFrame, monkeypatch, rows_per_block: int):
    """``(LazyFrame, its collected eager frame)`` read in blocks of ``rows_per_block`` rows."""
    pl = pytest.importorskip("polars")
    from pyale._engines import polars as polars_engine

    monkeypatch.setattr(polars_engine, "ROWS_PER_BLOCK", rows_per_block)
    lf = pl.from_pandas(data).lazy()
    return lf, lf.collect()


def pandas_in(model):
    """``model`` on the pandas form of the polars frame pyale hands it."""

    def on_polars(d):
        assert type(d).__module__.startswith("polars") and type(d).__name__ == "DataFrame"
        return model(d.to_pandas())

    return on_polars


@pytest.mark.parametrize("rows_per_block", list(BLOCKS.values()), ids=list(BLOCKS))
@pytest.mark.parametrize("conventions", ["aleplot", "iml"])
def test_ale_on_polars_lazy_equals_pandas(monkeypatch, rows_per_block, conventions):
    lf, eager = polars_lazy(frame(240, seed=rows_per_block), monkeypatch, rows_per_block)
    model = pandas_in(make_model())
    same_list(pyale.ale(model, lf, FEATURES, conventions=conventions),
              pyale.ale(model, eager, FEATURES, conventions=conventions))


@pytest.mark.parametrize("weights", ["integer", "random"])
def test_weighted_bootstrap_and_statistics_on_polars_lazy(monkeypatch, weights):
    rng = np.random.default_rng(1)
    w = {"integer": rng.integers(1, 4, size=9000).astype(float), "random": rng.uniform(0.5, 2.0, size=9000)}[weights]
    lf, eager = polars_lazy(frame(9000, seed=5).assign(w=w), monkeypatch, 1000)  # blocks cut bootstrap chunks
    model = pandas_in(make_model())
    features = ["x", "cat", ("cat", "x"), ("x", "ties")]
    kwargs = {"n_bootstrap": 12, "random_state": 7, "ci_level": 0.8}
    got = pyale.ale(model, lf, features, sample_weight="w", y="heavy", **kwargs)
    expected = pyale.ale(model, eager, features, sample_weight="w", y="heavy", **kwargs)
    same_list(got, expected)
    same_statistics(got.statistics, expected.statistics)


def test_unweighted_bootstrap_and_zero_weights_on_polars_lazy(monkeypatch):
    data = frame(5000, seed=6)
    w = np.where(np.arange(5000) % 7 == 0, 0.0, 1.0 + np.arange(5000) % 3)
    lf, eager = polars_lazy(data.assign(w=w), monkeypatch, 1234)
    model = pandas_in(make_model(outputs=2))
    kwargs = {"n_bootstrap": 8, "random_state": np.random.SeedSequence(3)}
    unweighted = lf.drop("w")
    same_list(pyale.ale(model, unweighted, ["ties", ("x", "heavy")], **kwargs),
              pyale.ale(model, unweighted.collect(), ["ties", ("x", "heavy")], **kwargs))
    got = pyale.ale(model, lf, ["x", "cat"], sample_weight="w")  # rows of weight 0 take no part
    expected = pyale.ale(model, eager, ["x", "cat"], sample_weight="w")
    same_list(got, expected)
    same_statistics(got.statistics, expected.statistics)


def test_ale_on_scanned_parquet_files_equals_pandas(tmp_path, monkeypatch):
    lf, _ = polars_lazy(frame(3000, seed=12), monkeypatch, 4096)
    for i in range(3):
        lf.slice(i * 1000, 1000).collect().write_parquet(tmp_path / f"part-{i}.parquet", row_group_size=300)
    import polars as pl

    scanned = pl.scan_parquet(tmp_path / "*.parquet")
    model = pandas_in(make_model())
    same_list(pyale.ale(model, scanned, FEATURES, n_bootstrap=3, random_state=1),
              pyale.ale(model, scanned.collect(), FEATURES, n_bootstrap=3, random_state=1))


def test_aleplot_and_pdplot_on_polars_lazy(monkeypatch):
    lf, eager = polars_lazy(frame(300, seed=9), monkeypatch, 37)
    model = pandas_in(make_model())

    def pred_fun(X_model, newdata):
        return X_model(newdata)

    for J in ["x", "cat", ("cat", "heavy"), ("x", "ties")]:
        for fn, kwargs in [(pyale.ALEPlot, {"K": 9}), (pyale.PDPlot, {"K": 6})]:
            got = fn(lf, model, pred_fun, J, plot=False, **kwargs)
            expected = fn(eager, model, pred_fun, J, plot=False, **kwargs)
            assert got.kind == expected.kind and got.feature == expected.feature
            if isinstance(expected.x_values, tuple):
                for a, b in zip(got.x_values, expected.x_values):
                    assert_array_equal(np.asarray(a, dtype=object), np.asarray(b, dtype=object))
            else:
                assert_array_equal(np.asarray(got.x_values, dtype=object), np.asarray(expected.x_values, dtype=object))
            assert_array_equal(got.counts, expected.counts)
            close(got.f_values, expected.f_values, what=f"{fn.__name__} {J}")


#: Rows of the message table polars cannot hold as pandas does (pl.from_pandas refuses an object column of ints and strings).
NOT_POLARS = {"mixed-objects"}


@pytest.mark.parametrize("label, change, call, kind", [e for e in _errors() if e[0] not in NOT_POLARS],
                         ids=[e[0] for e in _errors() if e[0] not in NOT_POLARS])
def test_polars_lazy_errors_are_eager_polars_errors(monkeypatch, label, change, call, kind):
    data = frame(60, seed=11)
    if change is not None:
        data = change(data)
    lf, eager = polars_lazy(data, monkeypatch, 25)
    model = pandas_in(make_model())
    with pytest.raises(kind) as expected:
        call(eager, model)
    with pytest.raises(kind) as got:
        call(lf, model)
    assert _normalised(str(got.value)) == _normalised(str(expected.value), pandas=True)


def _text(value):
    """A polars expression: the same text in every row."""
    pl = pytest.importorskip("polars")
    return pl.lit(value)


def _list_column():
    """A polars expression: a list in every row (a column no ALE can read)."""
    pl = pytest.importorskip("polars")
    return pl.concat_list([pl.col("x"), pl.col("x")])


def _zero_weights_first():
    """A polars expression: weight 0 for the first three rows, 1 after."""
    pl = pytest.importorskip("polars")
    return pl.when(pl.int_range(pl.len()) < 3).then(0.0).otherwise(1.0)


@pytest.mark.parametrize("call, kind, message", [
    (lambda lf, m: pyale.ale(m, lf, "x", conventions="ale"), ValueError,
     "The 'conventions' parameter of ale cannot be 'ale' (R's ale package) for a polars LazyFrame: those rules run "
     "in memory only. Use 'aleplot' or 'iml', or collect the rows into memory first (X.collect())."),
    (lambda lf, m: pyale.model_bootstrap(lambda a, b: m, lf, np.ones(60), "x", n_bootstrap=2), TypeError,
     "The 'X' parameter of model_bootstrap is a polars LazyFrame: model_bootstrap refits the model on resamples of "
     "X, which it hands to fit as pandas frames, so X must fit in memory. Pass X.collect(), or use "
     "pyale.ale(..., n_bootstrap=) for the data bootstrap."),
    (lambda lf, m: pyale.ale(m, lf.head(0), "x"), ValueError,
     "The 'X' parameter of ale must have at least one row and one column. Got shape (0, 6)"),
    (lambda lf, m: pyale.ale(m, lf, "w", sample_weight="w"), ValueError,
     "The 'features' parameter of ale names 'w', the sample_weight column: it weighs the rows and is no feature"),
    (lambda lf, m: pyale.ale(m, lf.with_columns(w=-1.0), "x", sample_weight="w"), ValueError,
     "must hold non-negative finite numbers. Got -1.0 at position 0"),
    (lambda lf, m: pyale.ale(m, lf, "x", sample_weight=np.ones(60)), TypeError,
     "The 'sample_weight' parameter of ale must be the name of a column of X when X is a polars LazyFrame (an array "
     "cannot be aligned with its partitions). Got numpy.ndarray instead."),
    (lambda lf, m: pyale.ale(m, lf, "x", y=np.ones(60)), TypeError,
     "The 'y' parameter of ale must be the name of a column of X when X is a polars LazyFrame. Got numpy.ndarray "
     "instead."),
    (lambda lf, m: Predictor(predict_function=m, data=lf, y=np.ones(60)), TypeError,
     "The 'y' parameter of Predictor must be a column name when data is a polars LazyFrame (values cannot be "
     "aligned with its partitions). Got ndarray instead."),
    (lambda lf, m: FeatureEffect(Predictor(predict_function=m, data=lf), "x", method="ice"), ValueError,
     "The 'method' parameter of FeatureEffect is 'ice': ICE gives one curve per row, as large as the data, so pyale "
     "does not compute it on a polars LazyFrame. Use method='pdp' or 'ale', or collect the rows you want curves of "
     "into memory (a sample of them, then X.collect())."),
    (lambda lf, m: pyale.ale(m, lf.with_columns(w=_zero_weights_first()), "x", sample_weight="w", n_bootstrap=3),
     ValueError, "The 'n_bootstrap' parameter of ale needs every row of a polars LazyFrame to take part, and column "
     "'w' (sample_weight) holds zeros. Drop those rows first (e.g. lf.filter(pl.col('w') > 0))."),
    (lambda lf, m: pyale.ale(m, lf.with_columns(w=_text("1")), "x", sample_weight="w"), TypeError,
     "instead; it holds text: convert it to numbers first."),
    (lambda lf, m: pyale.ale(m, lf.with_columns(w=_text("b")), "x", y="w"), TypeError,
     "instead; it holds text: convert it to numbers first."),
    (lambda lf, m: pyale.ale(m, lf.with_columns(w=_list_column()), "cat"), TypeError,
     "the categorical level ordering can use numeric, boolean, date-time, categorical or string columns only. "
     "Convert it first (cast it to numbers, date-times or strings where the frame lives), or leave it out of X."),
])
def test_refusals_on_polars_lazy(monkeypatch, call, kind, message):
    lf, _ = polars_lazy(frame(60, seed=12).assign(w=1.0), monkeypatch, 25)
    with pytest.raises(kind, match=re.escape(message)):
        call(lf, pandas_in(make_model()))


def test_edge_limits_on_polars_lazy_name_it(monkeypatch):
    lf, eager = polars_lazy(frame(300, seed=3), monkeypatch, 37)
    model = pandas_in(make_model())
    from pyale._core.run import engine_grid

    monkeypatch.setattr(engine_grid, "MAX_EDGES", 50)
    message = ("The 'n_intervals' parameter of ale is 1,000: so many intervals make every distinct value of "
               "column 'x' an edge, and it has more than 50 distinct values on this polars LazyFrame.")
    with pytest.raises(ValueError, match=re.escape(message)):
        pyale.ale(model, lf, "x", n_intervals=1000)
    message = ("The 'n_intervals' parameter of ale asks for 100 intervals of column 'x'; on a polars LazyFrame "
               "pyale computes at most 50 quantile edges per feature (the data has 300 rows).")
    with pytest.raises(ValueError, match=re.escape(message)):
        pyale.ale(model, lf, "x", n_intervals=100)
    same_ale(pyale.ale(model, lf, "ties", n_intervals=1000), pyale.ale(model, eager, "ties", n_intervals=1000))


def test_iml_on_polars_lazy(monkeypatch):
    data = frame(300, seed=10)
    data["target"] = np.arange(300.0)
    lf, eager = polars_lazy(data, monkeypatch, 37)
    model = pandas_in(make_model(outputs=2))
    got_p = Predictor(predict_function=model, data=lf, y="target")
    expected_p = Predictor(predict_function=model, data=eager, y="target")
    assert got_p.feature_types == expected_p.feature_types and got_p.feature_names == expected_p.feature_names
    for feature, kwargs in [("x", {}), ("cat", {}), (["cat", "x"], {}), ("x", {"method": "pdp"}),
                            (["x", "cat"], {"method": "pdp", "grid_size": [4, 3]})]:
        same_table(FeatureEffect(got_p, feature, **kwargs).results, FeatureEffect(expected_p, feature, **kwargs).results)


# ----------------------------------------------------------------------------- Spark
def test_spark_front_ends_equal_pandas(spark):
    """One Spark session, several partitionings, every front-end once (each Spark job costs ~0.3 s here)."""
    data = frame(400, seed=20)
    model = make_model()
    sdf = spark.createDataFrame(data)  # Spark's own split
    same_list(pyale.ale(model, sdf, FEATURES), pyale.ale(model, sdf.toPandas(), FEATURES))
    tiny = spark_frame(spark, data.iloc[:6], 7)  # one-row and empty partitions
    same_list(pyale.ale(model, tiny, ["x", "cat", ("cat", "x")], conventions="iml"),
              pyale.ale(model, tiny.toPandas(), ["x", "cat", ("cat", "x")], conventions="iml"))

    w = np.random.default_rng(3).integers(1, 4, size=400) / 2.0
    sdf = spark_frame(spark, data.assign(w=w), 3)
    collected = sdf.toPandas()
    kwargs = {"n_bootstrap": 6, "random_state": 4}
    features = ["x", "s", ("cat", "heavy")]
    got = pyale.ale(model, sdf, features, sample_weight="w", y="heavy", **kwargs)
    expected = pyale.ale(model, collected.drop(columns="w"), features, sample_weight=collected["w"].to_numpy(),
                         y="heavy", **kwargs)
    same_list(got, expected)
    same_statistics(got.statistics, expected.statistics)

    def pred_fun(X_model, newdata):
        return X_model(newdata)

    got = pyale.PDPlot(sdf, model, pred_fun, "x", K=5, plot=False)
    expected = pyale.PDPlot(collected, model, pred_fun, "x", K=5, plot=False)
    assert_array_equal(got.counts, expected.counts)
    close(got.f_values, expected.f_values)
    predictors = [Predictor(predict_function=model, data=d, y="w") for d in (sdf, collected)]
    same_table(*(FeatureEffect(p, ["x", "cat"]).results for p in predictors))

    def raises_late(d):
        if (d["x"].to_numpy() > 2.5).any():
            raise ValueError("boom on a large x")
        return model(d)

    with pytest.raises(pyale.PredictionError, match=re.escape("model raised ValueError while predicting")):
        pyale.ale(raises_late, sdf, "x")


def test_spark_names_it_cannot_select_by(spark):
    """A dot or a backtick in a name (pyspark's own mapInPandas trips over them) and names equal
    but for case (ambiguous under Spark's case-insensitive resolution): read by position."""
    rng = np.random.default_rng(21)
    data = pd.DataFrame({"x": rng.normal(size=120), "X": rng.normal(size=120), "a.b": rng.normal(size=120),
                         "e`f": rng.integers(0, 3, 120)})

    def model(d):
        return d["x"].to_numpy() * 2 + d["X"].to_numpy() ** 2 + d["a.b"].to_numpy() * d["e`f"].to_numpy()

    sdf = spark_frame(spark, data, 3)
    features = ["x", "a.b", "e`f", ("X", "a.b")]
    same_list(pyale.ale(model, sdf, features, sample_weight=None), pyale.ale(model, sdf.toPandas(), features))
    assert list(sdf.columns) == ["x", "X", "a.b", "e`f"]  # the caller's frame keeps its names
    with pytest.raises(TypeError, match=re.escape("Got pyspark.Column instead. A Spark DataFrame is computed on where")):
        pyale.ale(model, spark.createDataFrame(data[["x"]])["x"], "x")
    with pytest.raises(ValueError, match=re.escape("The 'conventions' parameter of ale cannot be 'ale' (R's ale "
                                                   "package) for a Spark DataFrame: those rules run in memory")):
        pyale.ale(model, sdf, "x", conventions="ale")
