"""Heterogeneity-aware bins (RHALE) and gradient ALE (DALE): invariants, weights, bootstrap, errors, truth.

The comparison with effector's numbers is in test_effector_fixtures.py
(replayed) and test_effector_live.py (effector run now).
"""

from __future__ import annotations

import re
import sys

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st
from numpy.testing import assert_allclose, assert_array_equal

import pyale
from pyale._core.grid.binning import BIG_M, NoBinningError, bin_cost_matrix, find_edges
from effector_replay import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import effector_cases  # noqa: E402


def _frame(n, seed, kind="uniform3"):
    X = effector_cases.make_data(kind, n, seed)
    return pd.DataFrame(X, columns=["x1", "x2", "x3"])


def _model(name):
    predict = effector_cases.model_predict(name)
    return lambda d: predict(np.asarray(d, dtype=float))


def _partition_cost(cost, index):
    return sum(cost[a, b] for a, b in zip(index[:-1], index[1:]))


# -- the bin search


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(4, 300), k=st.integers(1, 30),
       min_rows=st.integers(2, 6), discount=st.sampled_from([0.0, 0.3, 0.9]),
       search=st.sampled_from(["dp", "agglomerative"]))
def test_edges_are_candidate_points_covering_the_data(seed, n, k, min_rows, discount, search):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=n)
    y = np.where(x > 0, 3 * x, rng.normal(size=n))
    binning = pyale.HeterogeneityBinning(search, k, min_rows, discount)
    if n < min_rows:  # no binning exists (effector returns False)
        with pytest.raises(NoBinningError, match=f"fewer than min_rows={min_rows}"):
            find_edges(x, y, binning)
        return
    edges = find_edges(x, y, binning)
    assert edges[0] == x.min() and edges[-1] == x.max()
    assert np.all(np.diff(edges) > 0)
    assert edges.shape[0] - 1 <= k
    candidates = binning.candidate_edges(x.min(), x.max())
    assert np.isin(edges[:-1], candidates).all()


@pytest.mark.parametrize("search", ["dp", "agglomerative"])
def test_search_weighs_each_interval_with_the_rows_it_holds(search):
    """A row on a candidate edge up to rounding: 0.7 lies below -1 + 17 * 0.1 = 0.7000000000000002, but
    floor((0.7 + 1) / 0.1) = 17 (effector 0.6.0's cell) counted it above, so the agglomerative search chose
    an interval [0.7000000000000002, 0.9000000000000001) without rows and ALE refused it."""
    x = np.repeat([-1.0, 0.7, 1.0], 5)
    X = pd.DataFrame({"x1": x, "x2": np.linspace(0, 1, 15)})
    slopes = np.repeat([0.0, 1.0, 3.0], 5)
    res = pyale.ale(lambda d: np.zeros(len(d)), X, "x1", method="gradient", binning=search,
                    jacobian=lambda a: np.column_stack([slopes, np.zeros(len(a))]))
    assert_array_equal(res.counts, [5, 5, 5])  # each group of equal slopes alone in its interval
    assert_allclose(np.diff(res.effects[:, 0]) / np.diff(res.grid[0]), [0.0, 1.0, 3.0])


def test_regions_rebinned_on_a_rounded_feature_hold_the_rows_they_were_weighed_with():
    """pyale.regional(..., binning="dp") re-finds each region's intervals; on a feature rounded to 0.1
    effector's cells left intervals without rows in every region below the root (docs/deviations.md)."""
    rng = np.random.default_rng(63)
    x = rng.uniform(-1, 1, (1000, 3))
    x[:, 0] = np.round(x[:, 0], 1)
    X = pd.DataFrame(x, columns=["x1", "x2", "x3"])
    sign = np.where(X["x3"] < 0, -1.0, 1.0)
    jac = lambda a: np.column_stack([np.where(a[:, 2] < 0, -2.0, 2.0) * a[:, 0] * (1 + (a[:, 1] >= 0)),  # noqa: E731
                                     np.zeros(len(a)), np.zeros(len(a))])
    model = lambda d: sign * d["x1"] ** 2  # noqa: E731  (unused by the gradient search)
    res = pyale.regional(model, X, "x1", method="gradient", jacobian=jac, binning="dp")
    assert len(res.regions) > 1
    for region in res.regions:
        assert region.result.counts.min() >= 2, (region.rule, region.result.counts)


def test_edges_moved_down_an_ulp_give_effectors_left_closed_intervals():
    """docs/rhale.md's recipe for a feature on the grid's edges: rows on an inner edge join the interval above."""
    rng = np.random.default_rng(3)
    X = pd.DataFrame({"x1": rng.integers(0, 5, 200).astype(float), "x2": rng.uniform(-1, 1, 200)})
    grid = np.linspace(0.0, 4.0, 5)
    slopes = 1 + X["x1"].to_numpy() ** 2 * X["x2"].to_numpy()
    jac = lambda a: np.column_stack([1 + a[:, 0] ** 2 * a[:, 1], np.zeros(len(a))])  # noqa: E731
    nudged = grid.copy()
    nudged[1:-1] = np.nextafter(grid[1:-1], -np.inf)
    res = pyale.ale(lambda d: np.zeros(len(d)), X, "x1", method="gradient", jacobian=jac, grid=nudged)
    left_closed = np.clip(np.digitize(X["x1"], grid) - 1, 0, 3)  # effector's bins
    assert_array_equal(res.counts, np.bincount(left_closed, minlength=4))
    means = [slopes[left_closed == k].mean() for k in range(4)]
    assert_allclose(np.diff(res.effects[:, 0]) / np.diff(grid), means, rtol=1e-12)
    plain = pyale.ale(lambda d: np.zeros(len(d)), X, "x1", method="gradient", jacobian=jac, grid=grid)
    assert not np.array_equal(plain.counts, res.counts)  # right-closed: the rows on edges join the interval below


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(4, 200), k=st.integers(1, 25),
       min_rows=st.integers(2, 5), search=st.sampled_from(["dp", "agglomerative"]))
def test_every_interval_holds_the_rows_the_search_counted_on_rounded_values(seed, n, k, min_rows, search):
    """On a feature rounded to one decimal (values on candidate edges up to rounding) every chosen
    interval holds at least min_rows rows, as the search required."""
    rng = np.random.default_rng(seed)
    x = np.round(rng.uniform(-1, 1, n), 1)
    if x.min() == x.max() or n < 2 * min_rows:
        return
    y = np.sin(3 * x) * rng.normal(size=n)
    edges = find_edges(x, y, pyale.HeterogeneityBinning(search, k, min_rows))
    held = np.bincount(np.clip(np.searchsorted(edges, x, side="right") - 1, 0, edges.shape[0] - 2),
                       minlength=edges.shape[0] - 1)
    assert held.min() >= min_rows


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(10, 200), k=st.integers(2, 25))
def test_dp_is_never_worse_than_agglomerative(seed, n, k):
    """DP minimises the total cost over unions of cells; the greedy merge cannot beat it."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(size=n)
    y = np.sin(8 * x) + rng.normal(scale=0.3, size=n)
    cost = bin_cost_matrix(x, y, x.min(), x.max(), k)
    index = {}
    for search in ("dp", "agglomerative"):
        edges = find_edges(x, y, pyale.HeterogeneityBinning(search, k))
        dx = (x.max() - x.min()) / k
        index[search] = np.rint((edges - x.min()) / dx).astype(int)
    agglomerative = _partition_cost(cost, index["agglomerative"])
    assert _partition_cost(cost, index["dp"]) <= agglomerative * (1 + 1e-12) + 1e-12


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(150, 400), k=st.integers(2, 12))
def test_integer_weights_choose_the_edges_of_repeated_rows(seed, n, k):
    """Dense cells (about 20 rows or more): with sparse ones, partitions holding intervals of cost BIG_M
    (1e8) tie to the last bits, and the weighted and repeated sums may round the tie either way."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(size=n)
    y = np.where(x > 0.4, rng.normal(2, 1, n), 0.1 * rng.normal(size=n))
    w = rng.integers(0, 4, n)
    w[0] = 1
    binning = pyale.HeterogeneityBinning("dp", k)
    weighted = find_edges(x, y, binning, weights=w.astype(float))
    repeated = find_edges(np.repeat(x, w), np.repeat(y, w), binning)
    assert_allclose(weighted, repeated, rtol=1e-12)
    assert_allclose(find_edges(x, y, binning, weights=w * 0.25), weighted, rtol=1e-12)  # any scale (exact here)


def test_cost_of_a_small_interval_is_big_m():
    x = np.array([0.0, 0.1, 0.5, 0.9, 1.0])
    cost = bin_cost_matrix(x, x**2, 0.0, 1.0, 4, min_rows=2)
    assert cost[1, 2] == BIG_M  # no row in [0.25, 0.5)
    assert cost[0, 1] < BIG_M  # two rows in [0, 0.25)
    assert np.all(np.diag(cost) == 0)


def test_binning_finds_the_kink():
    """The derivative's mean changes at x1 = 0.3: the DP edges put one near there."""
    X = _frame(4000, 0)
    jac = effector_cases.model_jacobian("kinked")
    res = pyale.ale(_model("kinked"), X, "x1", method="gradient", jacobian=jac, binning="dp")
    inner = res.grid[0][1:-1]
    assert inner.shape[0] >= 1 and np.min(np.abs(inner - 0.3)) < 0.1


# -- gradient ALE


def test_gradient_equals_finite_differences_for_a_model_linear_in_the_feature():
    X = _frame(500, 1)
    model = lambda d: 2.5 * d["x1"] + d["x2"] * d["x3"] + np.sin(d["x3"])  # noqa: E731

    def jac(a):
        return np.column_stack([np.full(a.shape[0], 2.5), a[:, 2], a[:, 1] + np.cos(a[:, 2])])

    for feature, conventions in (("x1", "aleplot"), ("x2", "aleplot"), ("x1", "iml")):
        fd = pyale.ale(model, X, feature, n_intervals=12, conventions=conventions)
        gr = pyale.ale(model, X, feature, n_intervals=12, method="gradient", jacobian=jac, conventions=conventions)
        assert_array_equal(gr.grid[0], fd.grid[0])
        assert_allclose(gr.effects, fd.effects, rtol=1e-10, atol=1e-12)
        assert_allclose(gr.heterogeneity[1:], fd.heterogeneity[1:], rtol=1e-8, atol=1e-12)


def test_one_jacobian_serves_every_feature():
    X = _frame(300, 2)
    calls = []
    jac = effector_cases.model_jacobian("product")

    def counted(a):
        calls.append(a.shape)
        return jac(a)

    res = pyale.ale(_model("product"), X, ["x1", "x2", "x3"], method="gradient", jacobian=counted, binning="dp")
    assert len(res) == 3 and calls == [(300, 3)]


def test_max_rows_per_call_splits_the_jacobian():
    X = _frame(250, 3)
    calls = []
    jac = effector_cases.model_jacobian("product")
    whole = pyale.ale(_model("product"), X, "x1", method="gradient", jacobian=jac)
    split = pyale.ale(_model("product"), X, "x1", method="gradient", max_rows_per_call=100,
                      jacobian=lambda a: calls.append(a.shape[0]) or jac(a))
    assert calls == [100, 100, 50]
    assert_allclose(split.effects, whole.effects, rtol=1e-12)


@pytest.mark.parametrize("binning", [None, "dp"])
def test_integer_weights_are_repeated_rows(binning):
    X = _frame(200, 4)
    w = np.random.default_rng(4).integers(0, 3, 200)
    jac = effector_cases.model_jacobian("kinked")
    weighted = pyale.ale(_model("kinked"), X, "x1", method="gradient", jacobian=jac, binning=binning,
                         sample_weight=w, n_intervals=10)
    repeated = pyale.ale(_model("kinked"), X.loc[X.index.repeat(w)].reset_index(drop=True), "x1",
                         method="gradient", jacobian=jac, binning=binning, n_intervals=10)
    assert_allclose(weighted.grid[0], repeated.grid[0], rtol=1e-12)
    assert_allclose(weighted.effects, repeated.effects, rtol=1e-9, atol=1e-12)
    assert_allclose(weighted.counts, repeated.counts)


def test_bootstrap_keeps_the_full_data_bins():
    X = _frame(600, 5)
    jac = effector_cases.model_jacobian("kinked")
    res = pyale.ale(_model("kinked"), X, "x1", method="gradient", jacobian=jac, binning="dp", n_bootstrap=40,
                    random_state=0)
    plain = pyale.ale(_model("kinked"), X, "x1", method="gradient", jacobian=jac, binning="dp")
    assert_array_equal(res.grid[0], plain.grid[0])
    assert res.replicates.shape[0] == 40
    assert np.all(res.ci_low <= res.effects + 1e-12) and np.all(res.effects <= res.ci_high + 1e-12)
    assert np.any(res.ci_high > res.ci_low)


def test_finite_difference_binning_uses_secants():
    """Without derivatives the search reads secants across the candidate cells, then estimates as usual."""
    X = _frame(3000, 6)
    fd = pyale.ale(_model("kinked"), X, "x1", binning="dp")
    gr = pyale.ale(_model("kinked"), X, "x1", binning="dp", method="gradient",
                   jacobian=effector_cases.model_jacobian("kinked"))
    assert fd.grid[0].shape[0] >= 3
    # f is piecewise linear in x1: secants and derivatives agree except in the cell holding the kink
    assert_allclose(fd.effects, pyale.ale(_model("kinked"), X, "x1", grid=fd.grid[0]).effects)
    assert np.max(np.abs(fd.effects[:, 0] - np.interp(fd.grid[0], gr.grid[0], gr.effects[:, 0]))) < 0.1


@pytest.mark.parametrize("search", ["dp", "agglomerative"])
@pytest.mark.parametrize("case", [("product", "correlated", 0), ("kinked", "uniform3", 0),
                                  ("conditional_interaction", "uniform3", 2)])
def test_gradient_ale_converges_to_the_closed_form(case, search):
    """The uncentred curve at the edges approaches the truth as n grows (here 400 -> 40000 rows)."""
    model, data, feature = case
    truth = effector_cases.TRUTHS[case]
    errors = []
    for n in (400, 40000):
        X = pd.DataFrame(effector_cases.make_data(data, n, 11), columns=["x1", "x2", "x3"])
        res = pyale.ale(_model(model), X, X.columns[feature], method="gradient",
                        jacobian=effector_cases.model_jacobian(model),
                        binning=pyale.HeterogeneityBinning(search, max_intervals=40))
        edges, curve = res.grid[0], res.effects[:, 0]
        errors.append(np.max(np.abs((curve - curve[0]) - (truth(edges) - truth(edges[0])))))
    assert errors[1] < errors[0]
    assert errors[1] < 0.02


# -- errors


def _plain(d):
    return np.asarray(d, dtype=float)[:, 0]


_X = pd.DataFrame({"a": [0.0, 1.0, 2.0, 3.0, 4.0], "b": [1.0, 0.0, 1.0, 0.0, 2.0]})
_J = lambda a: np.ones_like(a)  # noqa: E731

ERRORS = [
    (dict(method="exact"), ValueError, "The 'method' parameter of ale must be"),
    (dict(jacobian=_J), ValueError, "The 'jacobian' parameter of ale is used with method='gradient' only"),
    (dict(method="gradient"), TypeError, "method='gradient' of ale needs the model's derivatives"),
    (dict(method="gradient", jacobian=3), TypeError,
     "The 'jacobian' parameter of ale must be a callable, 'torch' or 'jax'. Got 3 instead."),
    (dict(method="gradient", jacobian="torch"), TypeError, "The 'jacobian' parameter of ale is 'torch'"),
    (dict(method="gradient", jacobian=lambda a: np.ones((a.shape[0], 1))), ValueError,
     "The jacobian of ale must return one derivative per row and column, shape (5, 2); it returned shape (5, 1)"),
    (dict(method="gradient", jacobian=lambda a: np.full(a.shape, np.nan)), ValueError,
     "The jacobian of ale returned nan for column 'a'; derivatives must be finite."),
    (dict(binning="optimal"), ValueError, "The 'binning' parameter of ale must be None, one of"),
    (dict(binning="dp", grid=[0, 2, 4]), ValueError, "it cannot be combined with a user 'grid'"),
    (dict(binning=pyale.HeterogeneityBinning(), n_intervals=5), ValueError,
     "The 'n_intervals' parameter of ale cannot be combined with binning="),
    (dict(binning="dp", conventions="ale"), ValueError, "cannot follow conventions='ale'"),
    (dict(binning="dp", n_intervals=5000), ValueError,
     "The 'n_intervals' parameter of ale must be <= 1000 with binning='dp' (the candidate grid of the bin "
     "search). Got 5000 instead."),
]


@pytest.mark.parametrize("kwargs,error,message", ERRORS, ids=[m[:40] for _, _, m in ERRORS])
def test_errors(kwargs, error, message):
    with pytest.raises(error, match=re.escape(message)):
        pyale.ale(_plain, _X, "a", **kwargs)


def test_error_non_numeric_column():
    X = _X.assign(g=list("xyxyx"))
    with pytest.raises(ValueError, match=re.escape("column 'g' is not numeric")):
        pyale.ale(_plain, X, "a", method="gradient", jacobian=_J)


def test_error_constant_column_for_binning():
    X = _X.assign(c=1.0)
    with pytest.raises(ValueError, match="constant"):
        pyale.ale(_plain, X, "c", binning="dp")


@pytest.mark.parametrize("kwargs,error,message", [
    (dict(search="best"), ValueError, "The 'search' parameter of HeterogeneityBinning must be one of"),
    (dict(max_intervals=0), ValueError, "The 'max_intervals' parameter of HeterogeneityBinning must be an int >= 1. Got 0"),
    (dict(max_intervals=10**6), ValueError,
     "The 'max_intervals' parameter of HeterogeneityBinning must be an int <= 1000 (the search holds a (K + 1) x "
     "(K + 1) cost matrix and takes about K^3 steps). Got 1000000 instead."),
    (dict(max_intervals=2.5), TypeError, "The 'max_intervals' parameter of HeterogeneityBinning must be an int"),
    (dict(min_rows=1), ValueError, "The 'min_rows' parameter of HeterogeneityBinning must be an int >= 2. Got 1"),
    (dict(discount=float("nan")), TypeError, "The 'discount' parameter of HeterogeneityBinning must be a finite"),
])
def test_binning_parameter_errors(kwargs, error, message):
    with pytest.raises(error, match=re.escape(message)):
        pyale.HeterogeneityBinning(**kwargs)


def test_n_intervals_is_the_candidate_grid():
    X = _frame(400, 10)
    jac = effector_cases.model_jacobian("product")
    a = pyale.ale(_model("product"), X, "x3", method="gradient", jacobian=jac, binning="dp", n_intervals=7.0)
    b = pyale.ale(_model("product"), X, "x3", method="gradient", jacobian=jac,
                  binning=pyale.HeterogeneityBinning("dp", max_intervals=7))
    assert_array_equal(a.grid[0], b.grid[0])
    assert a.grid[0].shape[0] <= 8


def test_caller_data_unchanged():
    X = _frame(100, 8)
    before = X.copy()
    pyale.ale(_model("product"), X, ["x1", "x3"], method="gradient", binning="dp",
              jacobian=effector_cases.model_jacobian("product"))
    pyale.ale(_model("product"), X, "x1", binning="agglomerative")
    pd.testing.assert_frame_equal(X, before)


# -- display


def test_slopes_panel_draws_the_interval_slopes_and_spread():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    X = _frame(2000, 9)
    jac = effector_cases.model_jacobian("kinked")
    res = pyale.ale(_model("kinked"), X, ["x1", "x3"], method="gradient", jacobian=jac, binning="dp")
    display = res.plot(slopes=True)
    line = display.lines_[0, 0][0]
    x1 = res[0]
    widths = np.diff(x1.grid[0])
    assert_allclose(line.get_xdata(), x1.grid[0])
    assert_allclose(line.get_ydata()[:-1], np.diff(x1.effects[:, 0]) / widths)
    # the mean derivative per interval, as effector's bin_effect: 1 left of the kink, about 5 right of it
    assert line.get_ydata()[0] == pytest.approx(1.0)
    band = display.bands_[0, 0][0]
    assert band is not None
    with pytest.raises(TypeError, match=re.escape("The 'slopes' parameter of ALEDisplay.plot must be a bool")):
        res.plot(slopes="yes")
    plt.close("all")


def test_gradient_on_engine_frames_gives_the_pandas_numbers(dask_dataframe):
    """The Jacobian is taken block by block where the rows live (polars lazy batches, Dask partitions)."""
    pl = pytest.importorskip("polars", reason="polars is not installed")
    X = _frame(3000, 12)
    jac = effector_cases.model_jacobian("kinked")
    want = pyale.ale(_model("kinked"), X, ["x1", "x3"], method="gradient", jacobian=jac, n_bootstrap=20,
                     random_state=3)
    for frame in (pl.from_pandas(X).lazy(), dask_dataframe.from_pandas(X, npartitions=3)):
        got = pyale.ale(_model("kinked"), frame, ["x1", "x3"], method="gradient", jacobian=jac, n_bootstrap=20,
                        random_state=3)
        for g, w in zip(got, want):
            assert_array_equal(g.grid[0], w.grid[0])
            assert_allclose(g.effects, w.effects, rtol=1e-12, atol=1e-14)
            assert_allclose(g.replicates, w.replicates, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("search", ["dp", "agglomerative"])
def test_heterogeneity_bins_on_engine_frames_give_the_pandas_edges(dask_dataframe, search):
    """With gradients the bin search is a reduction: per-cell sums of the derivatives, added over blocks."""
    pl = pytest.importorskip("polars", reason="polars is not installed")
    X = _frame(3000, 13)
    w = np.random.default_rng(13).integers(0, 3, 3000).astype(float)
    jac = effector_cases.model_jacobian("kinked")
    binning = pyale.HeterogeneityBinning(search)
    want = pyale.ale(_model("kinked"), X, ["x1", "x3"], method="gradient", jacobian=jac, binning=binning,
                     sample_weight=w)
    Xw = X.assign(w=w)
    for frame in (pl.from_pandas(Xw).lazy(), dask_dataframe.from_pandas(Xw, npartitions=3)):
        got = pyale.ale(_model("kinked"), frame, ["x1", "x3"], method="gradient", jacobian=jac, binning=binning,
                        sample_weight="w")
        for g, e in zip(got, want):
            assert_array_equal(g.grid[0], e.grid[0])
            assert_allclose(g.effects, e.effects, rtol=1e-12, atol=1e-13)
            assert_allclose(g.counts, e.counts)


def test_engine_frames_are_refused_by_name():
    pl = pytest.importorskip("polars", reason="polars is not installed (the engine refusal is tested on a LazyFrame)")
    lazy = pl.LazyFrame({"a": [0.0, 1.0, 2.0, 3.0], "b": [1.0, 0.0, 1.0, 2.0]})
    with pytest.raises(ValueError, match=re.escape("The binning option of ale chooses intervals from secants on "
                                                   "in-memory frames only; on this frame use it with method='gradient'")):
        pyale.ale(lambda d: d["a"], lazy, "a", binning="dp")


# -- bootstrap bands of gradient ALE: coverage by simulation


def test_gradient_bootstrap_covers_the_difference_at_the_nominal_rate():
    """f = x1^2 + x1 x2 (x1 ~ U(0, 1), x2 ~ N(0, 1) independent) on the fixed grid 0, 1/6, ..., 1.

    Gradient ALE between edges a and b is ``sum_k width_k * mean_k(2 x1 + x2)``, whose expectation is
    ``z_b^2 - z_a^2`` exactly (x1 is uniform inside each interval).  The data bootstrap (model fixed)
    should cover it in about ``ci_level`` of the data sets (``PYALE_SIMULATIONS`` sets how many: 200 by
    default, a standard error of about 0.021 at 0.9; 2000 gives about 0.0067).
    """
    import os

    simulations = int(os.environ.get("PYALE_SIMULATIONS", "200"))
    rng = np.random.default_rng(20261126)
    level, a, b = 0.9, 1, 5
    grid = np.linspace(0.0, 1.0, 7)
    grid[0], grid[-1] = -1e-9, 1.0 + 1e-9  # cover every draw; the truth uses these edges
    covered = 0

    def jac(values):
        return np.column_stack([2 * values[:, 0] + values[:, 1], values[:, 0]])

    for _ in range(simulations):
        X = pd.DataFrame({"x1": rng.uniform(size=300), "x2": rng.normal(size=300)})
        res = pyale.ale(lambda d: d["x1"] ** 2 + d["x1"] * d["x2"], X, "x1", grid=grid, method="gradient",
                        jacobian=jac, n_bootstrap=200, random_state=rng, ci_level=level)
        z = res.grid[0]
        truth = z[b] ** 2 - z[a] ** 2
        differences = res.replicates[:, b, 0] - res.replicates[:, a, 0]
        low, high = np.quantile(differences, [(1 - level) / 2, (1 + level) / 2])
        covered += low <= truth <= high
    rate = covered / simulations
    standard_error = np.sqrt(level * (1 - level) / simulations)
    assert level - 4 * standard_error - 0.01 <= rate <= level + 3 * standard_error, rate


def test_gradient_and_bins_on_spark_give_the_pandas_numbers(spark):
    X = _frame(1500, 14)

    def model(d):  # closures: pickled by value for Spark's workers
        a = np.asarray(d, dtype=float)
        return a[:, 0] + 4 * np.maximum(a[:, 0] - 0.3, 0) * (1 + a[:, 1]) + a[:, 2] ** 2

    def jac(a):
        return np.column_stack([1 + 4 * (a[:, 0] > 0.3) * (1 + a[:, 1]), 4 * np.maximum(a[:, 0] - 0.3, 0),
                                2 * a[:, 2]])

    want = pyale.ale(model, X, ["x1", "x3"], method="gradient", jacobian=jac, binning="dp")
    got = pyale.ale(model, spark.createDataFrame(X), ["x1", "x3"], method="gradient", jacobian=jac, binning="dp")
    for g, e in zip(got, want):
        assert_array_equal(g.grid[0], e.grid[0])
        assert_allclose(g.effects, e.effects, rtol=1e-12, atol=1e-13)


def test_result_records_method_and_binning():
    """repr and to_frame().attrs say how the local effects and the intervals were made (kept by a bootstrap)."""
    rng = np.random.default_rng(5)
    X = pd.DataFrame({"a": rng.uniform(size=300), "b": rng.uniform(size=300), "c": np.tile(["u", "v", "w"], 100)})
    model = lambda d: d["a"] ** 2 * d["b"] + (d["c"] == "v")  # noqa: E731
    binned, level = pyale.ale(model, X, ["a", "c"], binning="dp", n_bootstrap=3, random_state=0)
    assert binned.method == "finite_difference" and binned.binning == repr(pyale.HeterogeneityBinning("dp"))
    assert "binning=HeterogeneityBinning(search='dp'" in repr(binned) and "method=" not in repr(binned)
    assert binned.to_frame().attrs == {"conventions": "aleplot", "method": "finite_difference",
                                       "binning": binned.binning}
    assert level.method == "finite_difference" and level.binning is None and "binning" not in repr(level)
    jac = lambda z: np.column_stack([2 * z[:, 0] * z[:, 1], z[:, 0] ** 2])  # noqa: E731
    grad = pyale.ale(lambda d: d["a"] ** 2 * d["b"], X[["a", "b"]], "a", method="gradient", jacobian=jac)
    assert grad.method == "gradient" and grad.binning is None and "method=gradient" in repr(grad)
    plain = pyale.ale(model, X, "a")
    assert plain.method == "finite_difference" and plain.binning is None
    assert "method" not in repr(plain) and "binning" not in repr(plain)
