"""pyale.regional on polars lazy, Dask and Spark frames against pandas on the same rows.

On an engine the search is a reduction over blocks (``pyale._regional.engine``):
per region and interval, the weight, mean and M2 of the slopes, merged across
blocks with Chan et al.'s update.  The regions (rules, sizes) must be the same
as in memory, and the heterogeneities and curves equal to 1e-12 of their scale.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose

import pyale

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import effector_regional_cases as cases  # noqa: E402
from test_engine_frontends import dask_frame, spark_frame  # noqa: E402

RTOL = 1e-12


def _four(n, seed):
    x = cases.make_data("uniform4", n, seed)
    return pd.DataFrame(x, columns=["x1", "x2", "x3", "x4"])


def _four_model(d):
    return cases.four_regions(np.asarray(d[["x1", "x2", "x3", "x4"]], dtype=float))


def _mixed(n, seed):
    """A numeric feature with numeric, integer-level, string, categorical and bool columns to split on."""
    rng = np.random.default_rng(seed)
    return pd.DataFrame({
        "x": rng.uniform(-1, 1, n), "t": rng.uniform(0, 5, n), "k": rng.integers(0, 4, n),
        "s": rng.choice(["lo", "mid", "hi"], n), "c": pd.Categorical(rng.choice(["p", "q", "r"], n),
                                                                      categories=["r", "q", "p", "unused"]),
        "b": rng.random(n) < 0.4,
    })


def _mixed_model(d):
    x = d["x"].to_numpy(dtype=float)
    slope = np.where(d["s"].astype(object) == "hi", 3.0, -1.0) * np.where(d["k"].to_numpy() == 2, 2.0, 1.0)
    slope = slope + np.where(d["b"].to_numpy(dtype=bool), 0.5, 0.0) + 0.3 * (d["c"].astype(object) == "q")
    return slope * x ** 2 + d["t"].to_numpy(dtype=float) * x + np.sin(d["t"].to_numpy(dtype=float))


def same_regions(got: pyale.RegionalResult, expected: pyale.RegionalResult) -> None:
    assert [r.rule for r in got.regions] == [r.rule for r in expected.regions]
    assert [(r.parent, r.depth) for r in got.regions] == [(r.parent, r.depth) for r in expected.regions]
    assert_allclose([r.size for r in got.regions], [r.size for r in expected.regions], rtol=1e-14)
    scale = expected.regions[0].heterogeneity
    assert_allclose([r.heterogeneity for r in got.regions], [r.heterogeneity for r in expected.regions],
                    rtol=RTOL, atol=RTOL * scale)
    assert_allclose(got.scale, expected.scale, rtol=1e-13)
    if expected.edges is None:  # a categorical feature: the same levels in the same order
        assert got.edges is None
    else:
        assert_allclose(got.edges, expected.edges, rtol=0, atol=0)
    for a, b in zip(got.regions, expected.regions):
        assert a.result.kind == b.result.kind and list(a.result.grid[0]) == list(b.result.grid[0])
        curve_scale = np.abs(b.result.effects).max()
        assert_allclose(a.result.effects, b.result.effects, rtol=RTOL, atol=RTOL * curve_scale)
        assert_allclose(a.result.counts, b.result.counts, rtol=1e-14)
        assert_allclose(a.result.heterogeneity, b.result.heterogeneity, rtol=1e-10, atol=RTOL * curve_scale)
        assert a.mask is None
    assert_allclose(got.level_heterogeneity(), expected.level_heterogeneity(), rtol=RTOL, atol=RTOL * scale)


@pytest.mark.parametrize("options", [{"grid": "uniform"}, {}, {"search": "level", "max_depth": 3}],
                         ids=["uniform", "quantile-grid", "level-wise"])
def test_polars_lazy_equals_pandas(options):
    pl = pytest.importorskip("polars")
    X = _four(800, 3)
    expected = pyale.regional(_four_model, X, "x1", **options)
    got = pyale.regional(_four_model, pl.from_pandas(X).lazy(), "x1", **options)
    assert len(expected.leaves) == 4
    same_regions(got, expected)
    assert_allclose(got.region_of(X), expected.region_of(X), rtol=0)


@pytest.fixture(scope="module")
def dd(dask_dataframe):
    import dask

    with dask.config.set(scheduler="threads"):
        yield dask_dataframe


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
def test_dask_equals_pandas_with_every_kind_of_column(dd, weighted):
    X = _mixed(700, 11)
    w = None
    if weighted:  # some zero weights, on rows with an extreme t: they must not move t's candidate thresholds
        w = np.random.default_rng(12).uniform(0.2, 3.0, X.shape[0]) * (np.arange(X.shape[0]) % 9 != 0)
        X.loc[w == 0, "t"] = 50.0
    expected = pyale.regional(_mixed_model, X, "x", sample_weight=w, max_depth=3, min_samples_leaf=15)
    frame = X if w is None else X.assign(w=w)
    got = pyale.regional(_mixed_model, dask_frame(dd, frame, [250, 0, 1, 449]), "x",
                         sample_weight=None if w is None else "w", max_depth=3, min_samples_leaf=15)
    assert {c.column for r in expected.regions for c in r.conditions} >= {"s", "k"}
    same_regions(got, expected)


def test_dask_user_grid_and_level_wise(dd):
    X = _four(500, 5)
    edges = np.r_[-1.0, np.linspace(-0.8, 0.8, 9), 1.0]
    expected = pyale.regional(_four_model, X, "x1", grid=edges, search="level")
    got = pyale.regional(_four_model, dask_frame(dd, X, [1] * 7 + [493]), "x1", grid=edges, search="level")
    same_regions(got, expected)


def _shippable_four_model():
    """effector's four-region model as a closure of NumPy only (Spark's workers unpickle it by value)."""
    def model(d):
        x = np.asarray(d[["x1", "x2", "x3", "x4"]], dtype=float)
        sign = np.where(x[:, 2] < 0, -1.0, 1.0)
        return sign * np.where(x[:, 1] < 0, x[:, 0] ** 2, x[:, 0] ** 4) + np.exp(x[:, 3])

    return model


@pytest.mark.skipif(os.environ.get("PYALE_SPARK_REGIONAL") != "1",
                    reason="Spark's regional search takes about 2 minutes here (a JVM and one Spark job per pass); "
                           "set PYALE_SPARK_REGIONAL=1 to run it. Dask and polars lazy check the same reduction.")
def test_spark_equals_pandas(spark):
    X = _four(300, 7)
    model = _shippable_four_model()
    expected = pyale.regional(model, X, "x1", grid="uniform")
    got = pyale.regional(model, spark_frame(spark, X, 3), "x1", grid="uniform")
    same_regions(got, expected)


REFUSALS = [
    ({"binning": "dp", "method": "gradient", "jacobian": lambda a: a}, "The 'binning' parameter of regional must be "
     "None on a polars LazyFrame"),
    ({"n_bootstrap": 5}, "The 'n_bootstrap' parameter of regional must be 0 on a polars LazyFrame"),
]


@pytest.mark.parametrize("options, message", REFUSALS, ids=[r[1].split("'")[1] for r in REFUSALS])
def test_refusals(options, message):
    pl = pytest.importorskip("polars")
    lazy = pl.from_pandas(_four(50, 1)).lazy()
    with pytest.raises(ValueError, match=re.escape(message)):
        pyale.regional(_four_model, lazy, "x1", **options)
    with pytest.raises(ValueError, match=re.escape("The 'grid' parameter of regional applies to a numeric feature; "
                                                   "'g' is categorical.")):
        pyale.regional(_four_model, pl.from_pandas(_four(50, 1).assign(g=["a", "b"] * 25)).lazy(), "g",
                       grid="uniform")


def test_engine_result_draws_and_assigns_rows():
    """Without row masks the result still plots, tabulates and assigns new rows to its leaves."""
    pl = pytest.importorskip("polars")
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    X = _four(400, 1)
    got = pyale.regional(_four_model, pl.from_pandas(X).lazy(), "x1")
    expected = pyale.regional(_four_model, X, "x1")
    display = got.plot()
    assert len(display.axes_.ravel()) >= len(got.leaves)
    pd.testing.assert_frame_equal(got.to_frame(), expected.to_frame(), rtol=RTOL, atol=RTOL)
    region = got.region_of(X)
    for leaf in expected.leaves:
        assert (region[leaf.mask] == leaf.index).all()


TABLE = {"a": 0.0, "b": 2.0, "c": -1.0, "d": 3.0}


def _levels_data(n, seed):
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"g": rng.choice(list("abcd"), n), "x2": rng.uniform(-1, 1, n), "x3": rng.uniform(-1, 1, n),
                         "k": rng.integers(0, 3, n)})


def _levels_model(d):
    value = d["g"].astype(object).map(TABLE).astype(float).to_numpy()
    gain = np.where(d["x2"].to_numpy() < 0, -1.0, 1.0) * np.where(d["k"].to_numpy() == 1, 2.0, 1.0)
    return gain * value * (1 + d["x3"].to_numpy() ** 2) + d["x3"].to_numpy()


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize("kind", ["nominal", "ordered", "ordinal-level-wise"])
def test_dask_categorical_feature_equals_pandas(dd, kind, weighted):
    """A categorical feature: per-jump (ordinal) or per-pair (nominal) moments and level weights per region."""
    X = _levels_data(600, 4)
    options = {}
    if kind == "ordered":
        X["g"] = pd.Categorical(X["g"], categories=list("abcd"), ordered=True)
    elif kind == "ordinal-level-wise":
        options = {"feature_type": "ordinal", "search": "level", "max_depth": 3}
    w = np.random.default_rng(5).uniform(0.3, 2.0, X.shape[0]) if weighted else None
    expected = pyale.regional(_levels_model, X, "g", sample_weight=w, **options)
    got = pyale.regional(_levels_model, dask_frame(dd, X if w is None else X.assign(w=w), [100, 0, 1, 499]), "g",
                         sample_weight=None if w is None else "w", **options)
    assert len(expected.regions) >= 7
    assert (expected.scale == 1.0) == (kind == "nominal")
    same_regions(got, expected)


@pytest.mark.parametrize("options", [{"grid": "uniform"}, {}], ids=["uniform", "quantile-grid"])
def test_gradient_on_engines_equals_pandas(dd, options):
    """method='gradient' on a fixed grid: each block's Jacobian, the same reduction (polars lazy, weighted Dask)."""
    pl = pytest.importorskip("polars")
    X = _four(600, 9)

    def jacobian(a):
        return cases.four_regions_jacobian(np.asarray(a, dtype=float))

    expected = pyale.regional(_four_model, X, "x1", method="gradient", jacobian=jacobian, **options)
    got = pyale.regional(_four_model, pl.from_pandas(X).lazy(), "x1", method="gradient", jacobian=jacobian, **options)
    same_regions(got, expected)
    w = np.random.default_rng(10).uniform(0.5, 2.0, X.shape[0])
    expected = pyale.regional(_four_model, X, "x1", method="gradient", jacobian=jacobian, sample_weight=w, **options)
    got = pyale.regional(_four_model, dask_frame(dd, X.assign(w=w), [300, 0, 300]), "x1", method="gradient",
                         jacobian=jacobian, sample_weight="w", **options)
    same_regions(got, expected)
