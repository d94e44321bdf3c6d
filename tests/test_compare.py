"""pyale.compare: segment curves, differences, bands, permutation p-values, engines, refusals.

The size simulation runs ``PYALE_SIMULATIONS`` data sets (200 by default, a
few seconds); set it larger for a tighter check (the docs' table used 2000).
"""

from __future__ import annotations

import os
import re

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy.stats import binomtest

import pyale
from pyale._core.accumulate import level_centre, numeric_centre

SIMULATIONS = int(os.environ.get("PYALE_SIMULATIONS", "200"))


def _model(d):
    return d["x"] * d["z"] + np.sin(3 * d["x"]) + (d["g"] == "b") * d["x"]


def _data(n=400, seed=0):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"x": rng.uniform(size=n), "z": rng.uniform(size=n),
                      "g": pd.Categorical(rng.choice(["a", "b", "c"], size=n))})
    X["region"] = rng.choice(["north", "south", "west"], size=n)
    return X


def _recentred(result, weights, numeric):
    curve = result.effects - result.effects[:1]
    return (numeric_centre if numeric else level_centre)(curve, weights)


@pytest.mark.parametrize("feature", ["x", "g"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("conventions", ["aleplot", "iml"])
def test_segment_curve_is_the_ale_of_its_rows_on_the_pooled_grid(feature, weighted, conventions):
    X = _data()
    w = np.random.default_rng(1).integers(1, 4, size=X.shape[0]).astype(float) if weighted else None
    res = pyale.compare(_model, X, feature, by="region", conventions=conventions, sample_weight=w,
                        n_intervals=6, n_bootstrap=0, n_permutations=0)
    assert res.segments == ("north", "south", "west")
    pooled = pyale.ale(_model, X, feature, conventions=conventions, sample_weight=w, n_intervals=6)
    assert_allclose(res.pooled, pooled.effects, rtol=1e-12, atol=1e-12)
    numeric = feature == "x"
    for s, label in enumerate(res.segments):
        rows = (X["region"] == label).to_numpy()
        kwargs = {"grid": res.grid} if numeric else {"level_order": list(res.grid)}
        alone = pyale.ale(_model, X[rows], feature, conventions=conventions,
                          sample_weight=None if w is None else w[rows], **kwargs)
        assert_allclose(res.effects[s], _recentred(alone, res.pooled_counts, numeric), rtol=1e-10, atol=1e-12)
        assert res.segment_counts[s].sum() == pytest.approx(rows.sum() if w is None else w[rows].sum())
    # the pooled curve is the segments' curves weighted by their rows, interval by interval
    assert_allclose(res.pooled_counts, res.segment_counts.sum(axis=0), rtol=1e-12)


def test_two_data_sets_equal_one_frame_with_a_column():
    X = _data(300)
    first, second = X.iloc[:180].drop(columns="region"), X.iloc[180:].drop(columns="region")
    by_sets = pyale.compare(_model, {"dev": first, "oot": second}, "x", n_bootstrap=20, n_permutations=49,
                            random_state=3)
    labels = np.array(["dev"] * 180 + ["oot"] * 120)
    by_labels = pyale.compare(_model, pd.concat([first, second]), "x", by=labels, n_bootstrap=20,
                              n_permutations=49, random_state=3)
    assert by_sets.segments == ("dev", "oot")
    for name in ("effects", "differences", "difference_low", "aled", "naled", "p_value"):
        assert_array_equal(getattr(by_sets, name), getattr(by_labels, name))


def test_same_seed_same_numbers_and_tables():
    X = _data(300)
    a = pyale.compare(_model, X, "x", by="region", n_bootstrap=30, n_permutations=49, random_state=7)
    b = pyale.compare(_model, X, "x", by="region", n_bootstrap=30, n_permutations=49, random_state=7)
    pd.testing.assert_frame_equal(a.table, b.table)
    pd.testing.assert_frame_equal(a.difference_table(), b.difference_table())
    c = pyale.compare(_model, X, "x", by="region", n_bootstrap=30, n_permutations=49, random_state=8)
    assert not np.array_equal(a.difference_low, c.difference_low)
    assert a.table.shape[0] == 3  # three pairs of three segments
    assert set(a.table.columns) >= {"segment_a", "segment_b", "aled", "naled", "p_value", "p_adjusted"}
    assert (a.table["p_adjusted"] >= a.table["p_value"]).all()
    assert a.p_global[0] == pytest.approx(a.table["p_adjusted"].min())


def test_identical_segments_differ_by_nothing():
    """Two copies of the same rows: every difference is exactly 0 and p is 1."""
    X = _data(200).drop(columns="region")
    res = pyale.compare(_model, {"one": X, "two": X.copy()}, "x", n_bootstrap=0, n_permutations=19, random_state=0)
    assert_allclose(res.differences, 0.0, atol=1e-12)
    assert res.aled[0, 0] == pytest.approx(0.0, abs=1e-12)


def _drifted(n, shift, seed):
    """Segment 1's z is shifted: the effect of x (through x * z) drifts by ``shift`` per unit of x."""
    rng = np.random.default_rng(seed)
    by = rng.integers(0, 2, size=n)
    X = pd.DataFrame({"x": rng.uniform(size=n), "z": rng.uniform(size=n) + shift * by})
    return X, by


def _plain(d):
    return d["x"] * d["z"] + np.sin(3 * d["x"])


def test_permutation_size_when_segments_are_exchangeable():
    """Under exchangeable segments the p-value is uniform: rejections at 5% and 10% near nominal."""
    p = []
    for sim in range(SIMULATIONS):
        X, by = _drifted(150, 0.0, 10_000 + sim)
        res = pyale.compare(_plain, X, "x", by=by, n_intervals=8, n_bootstrap=0, n_permutations=19,
                            random_state=sim)
        p.append(res.p_value[0, 0])
    p = np.array(p)
    for level in (0.05, 0.1):
        rejections = int((p <= level).sum())
        # size at most nominal: a one-sided binomial test at 1% would flag a level above it
        assert binomtest(rejections, SIMULATIONS, level, alternative="greater").pvalue > 0.01, (level, rejections)
    assert (p <= 0.5).mean() == pytest.approx(0.5, abs=0.12)  # not conservative to uselessness


def test_planted_drift_is_detected_and_banded():
    X, by = _drifted(1000, 0.6, 5)
    res = pyale.compare(_plain, X, "x", by=by, n_bootstrap=100, n_permutations=99, random_state=0)
    assert res.p_value[0, 0] <= 0.01
    assert bool(res.table["band_excludes_zero"].iloc[0])
    # the true difference of the effects of x: f_0 - f_1 = -0.6 * x, centred
    truth = -0.6 * np.asarray(res.grid)
    truth = numeric_centre(truth[:, None], res.pooled_counts)[:, 0]
    assert np.abs(res.differences[0, :, 0] - truth).max() < 0.05
    inside = (res.difference_low[0, :, 0] <= truth) & (truth <= res.difference_high[0, :, 0])
    assert inside.all()


def test_band_is_simultaneous_and_wider_than_pointwise():
    X, by = _drifted(400, 0.0, 9)
    res = pyale.compare(_plain, X, "x", by=by, n_intervals=10, n_bootstrap=200, n_permutations=0, random_state=1)
    width = res.difference_high - res.difference_low
    assert (width[0, 1:, 0] > 0).all()
    assert res.p_value is None and np.isnan(res.table["p_value"]).all()


@pytest.mark.parametrize("engine", ["polars", "dask", "spark"])
def test_engines_give_the_pandas_numbers(engine, request):
    X = _data(600)
    X["w"] = np.random.default_rng(2).integers(1, 3, size=X.shape[0]).astype(float)
    expected = pyale.compare(_model, X.drop(columns="w"), "x", by="region",
                             sample_weight=X["w"].to_numpy(), n_intervals=7, n_bootstrap=10,
                             n_permutations=19, random_state=4)
    if engine == "polars":
        pl = pytest.importorskip("polars")
        frame = pl.from_pandas(X).lazy()
        model = _polars_model
    elif engine == "dask":
        dd = pytest.importorskip("dask.dataframe")
        frame = dd.from_pandas(X, npartitions=3)
        model = _model
    else:
        spark = request.getfixturevalue("spark")  # skips with the reason when Java or pyspark is missing
        rows = [tuple(r) for r in X.astype({"g": object}).itertuples(index=False, name=None)]
        schema = spark.createDataFrame(X.astype({"g": object}).iloc[:1]).schema
        frame = spark.createDataFrame(spark.sparkContext.parallelize(rows, 3), schema).localCheckpoint()
        model = _closure()  # pickled by value: Spark's workers cannot import this test module
    got = pyale.compare(model, frame, "x", by="region", sample_weight="w", n_intervals=7, n_bootstrap=10,
                        n_permutations=19, random_state=4)
    assert got.segments == expected.segments
    assert_allclose(got.grid, expected.grid, rtol=0, atol=0)
    assert_allclose(got.effects, expected.effects, rtol=1e-10, atol=1e-12)
    assert_allclose(got.difference_low, expected.difference_low, rtol=1e-9, atol=1e-12)
    assert_array_equal(got.p_value, expected.p_value)


def _closure():
    def model(d):
        return d["x"] * d["z"] + np.sin(3 * d["x"]) + (d["g"].astype(object) == "b") * d["x"]

    return model


def _polars_model(d):
    return _model(d.to_pandas() if hasattr(d, "to_pandas") else d)


@pytest.mark.parametrize("kwargs, error, message", [
    ({"by": None}, ValueError, "The 'by' parameter of compare must name the segment column of X"),
    ({"by": "nope"}, ValueError, "'nope'"),
    ({"by": ["a"] * 3}, ValueError, "The 'by' parameter of compare must give one segment label per row of X (40)."
                                    " Got 3 labels instead."),
    ({"by": ["a"] * 40}, ValueError, "The 'by' parameter of compare must give at least two segments. Got only ['a']."),
    ({"by": [None] + ["a", "b"] * 19 + ["a"]}, ValueError, "Row 0 has a missing label."),
    ({"by": "region", "conventions": "ale"}, ValueError, "must be 'aleplot' or 'iml'. Got 'ale' instead"),
    ({"by": "region", "n_bootstrap": 1}, ValueError, "must be 0 or at least 2. Got 1 instead."),
    ({"by": "region", "n_permutations": -1}, ValueError, "n_permutations"),
    ({"by": "region", "feature": ("x", "z")}, ValueError, "must be one column label"),
])
def test_refusals(kwargs, error, message):
    X = _data(40)
    feature = kwargs.pop("feature", "x")
    with pytest.raises(error, match=re.escape(message)):
        pyale.compare(_model, X, feature, **kwargs)


def test_mapping_refusals():
    X = _data(40)
    with pytest.raises(ValueError, match=re.escape("must be None when X is a mapping")):
        pyale.compare(_model, {"a": X, "b": X}, "x", by="region")
    with pytest.raises(ValueError, match=re.escape("must hold data sets with the same columns")):
        pyale.compare(_model, {"a": X, "b": X.drop(columns="z")}, "x")
    with pytest.raises(ValueError, match=re.escape("at least two names")):
        pyale.compare(_model, {"a": X}, "x")


def test_caller_data_untouched_and_plot():
    X = _data(200)
    before = X.copy()
    res = pyale.compare(_model, X, "g", by="region", n_bootstrap=20, n_permutations=9, random_state=0)
    pd.testing.assert_frame_equal(X, before)
    from matplotlib.figure import Figure

    display = res.plot(figure=Figure())
    assert len(display.axes_) == 2
    assert set(res.segments) <= set(display.lines_)
    assert "Comparison" in repr(res) and "<table>" in res._repr_html_()
    assert res.curve_table().shape[0] == (len(res.segments) + 1) * len(res.grid)
    assert res.count_table()["weight"].sum() == pytest.approx(2 * X.shape[0])
