"""pyale.regional: the criterion, the search's invariants, weights, curves, truth and argument checks."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal

import pyale
from pyale._regional.criterion import UNDEFINED, heterogeneity

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import effector_regional_cases as cases  # noqa: E402

SIMULATIONS = int(os.environ.get("PYALE_SIMULATIONS", "400"))


def _frame(kind, n, seed):
    x = cases.make_data(kind, n, seed)
    return pd.DataFrame(x, columns=[f"x{i + 1}" for i in range(x.shape[1])])


def _model(name):
    f = cases.MODELS[name]
    return lambda d: f(np.asarray(d, dtype=float))


def _naive_heterogeneity(slopes, bins, k, scale):
    """effector's ALEBase._heter written as loops."""
    variance = np.full(k, np.nan)
    for j in range(k):
        s = slopes[bins == j]
        if s.size > 1:
            variance[j] = np.mean((s - s.mean()) ** 2)
    ok = ~np.isnan(variance)
    if not ok.any():
        return np.inf
    variance = np.interp(np.arange(k), np.flatnonzero(ok), variance[ok])
    return scale * np.sqrt(np.mean(variance[bins]))


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 60), st.integers(1, 8), st.integers(0, 2**31))
def test_criterion_is_effectors_formula(n, k, seed):
    rng = np.random.default_rng(seed)
    bins = rng.integers(0, k, n)
    slopes = rng.normal(size=n)
    got = heterogeneity(slopes, bins, k, 1.7)
    want = _naive_heterogeneity(slopes, bins, k, 1.7)
    if np.isinf(want):
        assert got == UNDEFINED
    else:
        assert_allclose(got, want, rtol=1e-12, atol=1e-15)


def test_integer_weights_are_repeated_rows():
    X = _frame("uniform3", 200, 11)
    w = np.random.default_rng(3).integers(1, 4, X.shape[0])
    model = _model("conditional_interaction")
    weighted = pyale.regional(model, X, "x1", sample_weight=w, grid="uniform")
    repeated = pyale.regional(model, X.loc[X.index.repeat(w)].reset_index(drop=True), "x1", grid="uniform")
    assert [r.rule for r in weighted.regions] == [r.rule for r in repeated.regions]
    for a, b in zip(weighted.regions, repeated.regions):
        assert a.size == b.size
        assert_allclose(a.heterogeneity, b.heterogeneity, rtol=1e-9, atol=1e-12)
        assert_allclose(a.result.effects, b.result.effects, rtol=1e-9, atol=1e-12)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["node", "level"]), st.integers(0, 3))
def test_leaves_partition_the_rows_and_splits_lower_heterogeneity(seed, search, depth):
    X = _frame("uniform4", 150, seed)
    res = pyale.regional(_model("four_regions"), X, "x1", search=search, max_depth=depth, n_intervals=8)
    cover = np.zeros(X.shape[0], dtype=int)
    for leaf in res.leaves:
        cover += leaf.mask
        assert leaf.depth <= depth
        assert leaf.size >= 10 or leaf.index == 0
    assert_array_equal(cover, 1)
    assert_array_equal(res.region_of(X), sum(leaf.index * leaf.mask for leaf in res.leaves))
    table = res.table
    assert list(table.columns) == ["parent", "depth", "condition", "rule", "size", "share", "heterogeneity",
                                   "decrease", "leaf"]
    assert table["leaf"].sum() == len(res.leaves)
    for r in res.regions[1:]:  # children of a kept split hold the parent's rows
        parent = res.regions[r.parent]
        assert not (r.mask & ~parent.mask).any()
    levels = res.level_heterogeneity().to_numpy()
    if search == "node":  # each kept split lowered its node by at least min_decrease (count-weighted)
        for p in {r.parent for r in res.regions[1:]}:
            kids = [r for r in res.regions if r.parent == p]
            after = sum(k.size * k.heterogeneity for k in kids) / sum(k.size for k in kids)
            assert after <= 0.95 * res.regions[p].heterogeneity + 1e-12
    assert (np.diff(levels) <= 1e-12).all() or search == "level"


def test_region_curve_is_the_ale_of_its_rows_on_the_common_grid():
    X = _frame("uniform3", 3000, 12)
    model = _model("conditional_interaction")
    res = pyale.regional(model, X, "x1", n_intervals=10, n_bootstrap=0)
    assert len(res.leaves) >= 2
    for leaf in res.leaves:
        assert (leaf.result.counts > 0).all()
        direct = pyale.ale(model, X[leaf.mask], "x1", grid=res.edges)
        assert_allclose(leaf.result.effects, direct.effects, rtol=1e-12, atol=1e-13)
        assert_allclose(leaf.result.heterogeneity[1:], direct.heterogeneity[1:], rtol=1e-10, atol=1e-13)


def test_gradient_and_finite_differences_find_the_same_regions():
    X = _frame("uniform4", 1500, 13)
    fd = pyale.regional(_model("four_regions"), X, "x1", grid="uniform")
    grad = pyale.regional(_model("four_regions"), X, "x1", grid="uniform", method="gradient",
                          jacobian=cases.JACOBIANS["four_regions"])
    assert [r.rule for r in fd.leaves] == [r.rule for r in grad.leaves]
    assert grad.method == "gradient"


@pytest.mark.parametrize("name, kind", [("four_regions", "uniform4"), ("conditional_interaction", "uniform3"),
                                        ("level_gate", "levels4")])
def test_regional_curves_approach_the_true_effects(name, kind):
    """Each leaf's curve nearer the mean of its rows' closed-form effects as n grows (the leaves hold one
    gate setting each up to the rows between the true gate and the nearest candidate threshold)."""
    errors = []
    for n in (1000, 16000):
        X = _frame(kind, n, 14)
        res = pyale.regional(_model(name), X, "x1", grid="uniform", n_intervals=20)
        worst = 0.0
        for leaf in res.leaves:
            rows = X[leaf.mask].to_numpy()
            z = res.edges
            truth = (cases.TRUTH(name, rows, z) - cases.TRUTH(name, rows, z[:1])).mean(axis=0)
            curve = leaf.result.effects[:, 0] - leaf.result.effects[0, 0]
            worst = max(worst, np.abs(curve - truth).max())
        errors.append(worst)
    assert errors[1] < 0.05
    assert errors[1] <= errors[0] + 1e-9


def test_bootstrap_bands_and_seed():
    X = _frame("uniform3", 400, 15)
    model = _model("conditional_interaction")
    a = pyale.regional(model, X, "x1", n_bootstrap=30, random_state=5, n_intervals=8)
    b = pyale.regional(model, X, "x1", n_bootstrap=30, random_state=5, n_intervals=8)
    for ra, rb in zip(a.regions, b.regions):
        assert ra.result.replicates.shape == (30, 9, 1)
        assert_array_equal(ra.result.replicates, rb.result.replicates)
        assert (ra.result.ci_low <= ra.result.ci_high + 1e-12).all()  # percentiles of equal values may differ by an ulp


def _coverage_model(frame):
    x1, x2, g = (frame[c].to_numpy(dtype=float) for c in ("x1", "x2", "g"))
    return np.where(g == 1, x1 ** 2 + x1 * x2, -x1)


def test_region_bands_cover_the_regions_true_difference():
    """Given the regions (split on a 0/1 column, so exactly the true ones), the band of the difference
    between two grid points of the g == 1 region covers z_b^2 - z_a^2 at about the nominal rate."""
    rng = np.random.default_rng(20261125)
    level, runs, covered = 0.9, max(SIMULATIONS // 8, 50), 0
    for _ in range(runs):
        n = 400
        X = pd.DataFrame({"x1": rng.uniform(size=n), "x2": rng.normal(size=n), "g": rng.integers(0, 2, n)})
        res = pyale.regional(_coverage_model, X, "x1", conditioning=["g"], n_intervals=6, n_bootstrap=200,
                             random_state=rng, ci_level=level, max_depth=1)
        (leaf,) = [r for r in res.leaves if (X["g"][r.mask] == 1).all()]
        z = res.edges
        d = leaf.result.replicates[:, 5, 0] - leaf.result.replicates[:, 1, 0]
        low, high = np.quantile(d, [(1 - level) / 2, (1 + level) / 2])
        covered += low <= z[5] ** 2 - z[1] ** 2 <= high
    rate, se = covered / runs, np.sqrt(level * (1 - level) / runs)
    assert level - 4 * se - 0.01 <= rate <= level + 3 * se, rate


def test_categorical_conditioning_and_labels():
    rng = np.random.default_rng(16)
    n = 600
    X = pd.DataFrame({"x1": rng.uniform(-1, 1, n), "colour": rng.choice(["red", "green", "blue"], n),
                      "flag": rng.integers(0, 2, n).astype(bool), "x2": rng.normal(size=n)})

    def model(d):
        return np.where(d["colour"] == "red", 2.0, -1.0) * d["x1"] + d["x2"]

    res = pyale.regional(model, X, "x1")
    assert [leaf.rule for leaf in res.leaves] == ["colour == 'red'", "colour != 'red'"]
    assert res.table.loc[1, "condition"] == "colour == 'red'"
    assert "RegionalResult(feature='x1'" in repr(res)
    assert "<table" in res._repr_html_()
    frame = res.to_frame()
    assert set(frame["region"]) == {1, 2} and "rule" in frame.columns


def test_no_split_when_homogeneous():
    X = _frame("uniform3", 300, 17)
    res = pyale.regional(lambda d: 2 * d["x1"] + d["x2"] ** 2, X, "x1")
    assert len(res.regions) == 1 and res.leaves[0].rule == "all rows"


def test_input_is_not_modified():
    X = _frame("uniform3", 200, 18)
    before = X.copy()
    pyale.regional(_model("conditional_interaction"), X, "x1", n_bootstrap=3, random_state=1)
    pd.testing.assert_frame_equal(X, before)


ERRORS = [
    ({"search": "tree"}, ValueError, "The 'search' parameter of regional must be one of ['node', 'level']. "
                                     "Got 'tree' instead."),
    ({"max_depth": -1}, ValueError, "The 'max_depth' parameter of regional must be an int >= 0. Got -1 instead."),
    ({"min_samples_leaf": 0}, ValueError, "The 'min_samples_leaf' parameter of regional must be a number > 0. "
                                          "Got 0 instead."),
    ({"n_positions": 1}, ValueError, "The 'n_positions' parameter of regional must be an int >= 2. Got 1 instead."),
    ({"grid": "quantile"}, ValueError, "The 'grid' parameter of regional must be None, 'uniform' or a sequence of "
                                       "edges. Got 'quantile' instead."),
    ({"grid": [0.5, 0.9]}, ValueError, "The 'grid' parameter of regional must cover column 'x1'"),
    ({"grid": [0.0, 0.0, 1.0]}, ValueError, "The 'grid' parameter of regional must be at least two finite, "
                                            "strictly increasing edges."),
    ({"conditioning": ["x1"]}, ValueError, "The 'conditioning' parameter of regional lists 'x1', the feature "
                                           "itself"),
    ({"conditioning": ["nope"]}, ValueError, "The 'conditioning' parameter of regional must name a column of X. "
                                             "Got 'nope'"),
    ({"binning": "dp"}, ValueError, "The 'binning' parameter of regional re-bins each region's derivatives; it "
                                    "needs method='gradient'. Got method='finite_difference'."),
    ({"method": "exact"}, ValueError, "The 'method' parameter of regional must be one of ['finite_difference', "
                                      "'gradient']. Got 'exact' instead."),
]


@pytest.mark.parametrize("options, error, message", ERRORS, ids=[str(e[0]) for e in ERRORS])
def test_errors(options, error, message):
    X = _frame("uniform3", 60, 19)
    with pytest.raises(error, match=re.escape(message)):
        pyale.regional(_model("linear_gate"), X, "x1", **options)


def test_categorical_feature_regions_and_curves():
    """A categorical feature of interest: its jumps' differences split on x2; each leaf's curve is its ALE."""
    rng = np.random.default_rng(23)
    n = 600
    X = pd.DataFrame({"g": pd.Categorical(rng.choice(["lo", "mid", "hi"], n), categories=["lo", "mid", "hi"],
                                          ordered=True), "x2": rng.uniform(-1, 1, n), "x3": rng.uniform(-1, 1, n)})
    value = {"lo": 0.0, "mid": 1.0, "hi": 3.0}

    def model(d):
        return np.where(d["x2"] < 0, -1.0, 1.0) * d["g"].map(value).astype(float).to_numpy() + d["x3"]

    res = pyale.regional(model, X, "g", n_bootstrap=10, random_state=0)
    assert res.edges is None and len(res.leaves) >= 2
    assert {c.column for leaf in res.leaves for c in leaf.conditions} == {"x2"}
    for leaf in res.leaves:
        direct = pyale.ale(model, X[leaf.mask], "g", level_order=["lo", "mid", "hi"])
        assert leaf.result.kind == "categorical" and leaf.result.grid[0] == ("lo", "mid", "hi")
        assert_allclose(leaf.result.effects, direct.effects, rtol=1e-12, atol=1e-12)
        assert leaf.result.replicates.shape == (10, 3, 1)
    with pytest.raises(ValueError, match=re.escape("The 'method' parameter of regional applies to a numeric "
                                                   "feature; 'g' is categorical.")):
        pyale.regional(model, X, "g", method="gradient", jacobian=lambda a: a)


def test_multi_output_and_missing_are_refused():
    X = pd.DataFrame({"x1": np.linspace(0, 1, 40), "g": list("ab") * 20, "x2": np.r_[np.nan, np.ones(39)]})
    with pytest.raises(ValueError, match=re.escape("Column 'x2' of X (a candidate for splitting in regional) has "
                                                   "1 missing value(s)")):
        pyale.regional(lambda d: d["x1"], X, "x1")
    with pytest.raises(ValueError, match=re.escape("Regions are found for one model output; the model has 2")):
        pyale.regional(lambda d: np.c_[d["x1"], d["x1"]], X.drop(columns="x2"), "x1")


def test_classifier_needs_one_class_and_names_it():
    from sklearn.tree import DecisionTreeClassifier

    rng = np.random.default_rng(22)
    X = pd.DataFrame(rng.uniform(-1, 1, (400, 3)), columns=["a", "b", "c"])
    y = np.where(X["c"] > 0, X["a"] > 0, X["a"] < 0).astype(int)
    model = DecisionTreeClassifier(max_depth=4, random_state=0).fit(X, y)
    with pytest.raises(ValueError, match=re.escape("the model has 2 (['0', '1']). Pick one with the 'response'")):
        pyale.regional(model, X, "a")
    res = pyale.regional(model, X, "a", response=1)
    assert res.leaves[0].result.outputs == ("1",)
    assert {c.column for leaf in res.leaves for c in leaf.conditions} == {"c"}


def test_numpy_and_polars_input_and_lazy_frames():
    polars = pytest.importorskip("polars")
    x = cases.make_data("uniform3", 300, 24)
    res = pyale.regional(lambda a: cases.linear_gate(np.asarray(a, dtype=float)), x, 0)
    assert res.feature == "x0" and [leaf.conditions[0].column for leaf in res.leaves] == ["x2", "x2"]
    frame = polars.DataFrame(x, schema=["x1", "x2", "x3"])
    res = pyale.regional(lambda d: cases.linear_gate(d.to_numpy()), frame, "x1")
    assert {leaf.conditions[0].column for leaf in res.leaves} == {"x3"}
    lazy = pyale.regional(lambda d: cases.linear_gate(d.to_numpy()), frame.lazy(), "x1")  # tests/test_regional_engines.py
    assert [leaf.rule for leaf in lazy.leaves] == [leaf.rule for leaf in res.leaves]
