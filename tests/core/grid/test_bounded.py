"""Bounded cost: what pyale allocates and computes is set by the data, not by a parameter.

* K / grid_size / n_intervals beyond the data are capped as R's ``unique``
  caps them, at every entry point (the proof is in tests/core/grid/test_grid.py);
* grids the data cannot bound (a pair's cells, a partial dependence's model
  rows) are refused with a clear message past the rules of pyale/_core/grid/bounds.py;
* level ordering and text columns use memory set by levels and categories,
  not by levels**2 x probes or by the longest string.
"""

from __future__ import annotations

import contextlib
import io
import os
import pickle
import re
import time
import tracemalloc

import numpy as np
import pandas as pd
import pytest

import pyale
from pyale._core.grid.features import factorize_strings, read_covariate, read_feature
from pyale._core.grid.levels import Covariate, _sequential_l1, level_distances
from pyale._rbase import ecdf_at, quantile_type7, r_seq


def _frame(n, seed=0):
    rng = np.random.default_rng(seed)
    x1 = rng.normal(size=n)
    return pd.DataFrame({
        "x1": x1,
        "x2": x1 + rng.normal(size=n),
        "g": pd.Categorical(rng.choice(list("abcd"), n)),
        "k": rng.integers(0, 7, n),
    })


def _model(_, d):
    return d["x1"].to_numpy() * d["x2"].to_numpy() + d["k"].to_numpy() + (d["g"] == "b").to_numpy()


def _traced(call):
    """(result, seconds, peak bytes above the start)."""
    tracemalloc.start()
    start = time.perf_counter()
    try:
        result = call()
        return result, time.perf_counter() - start, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


# --- Huge K is capped before anything of its size exists ---------------------------------------


@pytest.mark.parametrize("K", [10 ** 8, 10 ** 12, 10 ** 30])
def test_huge_k_equals_the_uncapped_result_at_every_entry_point(K):
    X = _frame(100)
    n = X.shape[0]
    cases = [
        (lambda k: pyale.ALEPlot(X, None, _model, J="x1", K=k, plot=False),
         lambda r: (r.x_values, r.f_values)),
        (lambda k: pyale.ALEPlot(X, None, _model, J=("x1", "x2"), K=k, plot=False),
         lambda r: (r.x_values[0], r.x_values[1], r.f_values)),
        (lambda k: pyale.ALEPlot(X, None, _model, J=("g", "x2"), K=k, plot=False),
         lambda r: (r.x_values[1], r.f_values)),
        (lambda k: pyale.ale(lambda d: _model(None, d), X, "k", n_intervals=k, conventions="iml"),
         lambda r: (r.grid[0], r.effects)),
        (lambda k: pyale.ale(lambda d: _model(None, d), X, ("x1", "x2"), n_intervals=k),
         lambda r: (r.grid[0], r.grid[1], r.effects)),
        (lambda k: pyale.FeatureEffect(pyale.Predictor(predict_function=lambda newdata: _model(None, newdata), data=X),
                                       "x2", grid_size=k).results,
         lambda r: (r["x2"].to_numpy(), r[".value"].to_numpy())),
    ]
    for run, numbers in cases:
        expected = numbers(run(2 * n))  # feasible uncapped computation: every value an edge as well
        got, seconds, peak = _traced(lambda: run(K))
        for a, b in zip(numbers(got), expected):
            assert np.array_equal(np.asarray(a), np.asarray(b))
        assert seconds < 5 and peak < 20 * 2 ** 20  # the old code: 14 s and 5.3 GiB at K = 10**8


def test_cli_intervals_one_billion_runs_and_equals_two_n(tmp_path):
    from sklearn.linear_model import LinearRegression

    from pyale._cli import main

    X = _frame(200)[["x1", "x2", "k"]]
    model = LinearRegression().fit(X, X["x1"] * 2 + X["k"])
    X.to_csv(tmp_path / "data.csv", index=False)
    with (tmp_path / "model.pkl").open("wb") as fh:
        pickle.dump(model, fh)
    tables = {}
    for K in ("1000000000", "400"):
        out = tmp_path / f"out{K}"
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            code = main(["run", "--data", str(tmp_path / "data.csv"), "--model", str(tmp_path / "model.pkl"),
                         "--features", "x1", "--out", str(out), "--intervals", K])
        assert code == 0
        tables[K] = pd.read_csv(next(out.glob("*.csv")))
    pd.testing.assert_frame_equal(tables["1000000000"], tables["400"])


# --- Refusals past the rules of pyale/_core/grid/bounds.py ------------------------------------------


_N = 20_000
_BIG = _frame(_N)
_SMALL = _frame(100)
_PRED = pyale.Predictor(predict_function=lambda newdata: _model(None, newdata), data=_BIG)

REFUSALS = [
    ("ALEPlot pair", lambda: pyale.ALEPlot(_BIG, None, _model, J=("x1", "x2"), K=10_000, plot=False),
     "The 'K' parameter of ALEPlot is 10000, which gives the pair ('x1', 'x2') a grid of 10,000 x 10,000 = "
     "100,000,000 cells, more than pyale computes for 20,000 rows: at most max(rows, 2**22) = 4,194,304 cells. "
     "Cells without rows only borrow the value of the nearest cell with rows, so a finer grid adds nothing from "
     "the data. Use K <= 2,048."),
    ("ale pair", lambda: pyale.ale(lambda d: _model(None, d), _BIG, ("x1", "x2"), n_intervals=5_000),
     "The 'n_intervals' parameter of ale is 5000, which gives the pair ('x1', 'x2') a grid of 5,000 x 5,000 = "
     "25,000,000 cells"),
    ("FeatureEffect pair", lambda: pyale.FeatureEffect(_PRED, ["x2", "x1"], grid_size=[3_000, 3_000]),
     "The 'grid_size' parameter of FeatureEffect is [3000, 3000], which gives the pair ('x2', 'x1') a grid of "
     "3,000 x 3,000 = 9,000,000 cells"),
    ("PDPlot", lambda: pyale.PDPlot(_SMALL, None, _model, J="x1", K=10 ** 8, plot=False),
     "The 'K' parameter of PDPlot is 100000000, which asks for 100,000,000 grid points: partial dependence "
     "predicts every row at every grid point, 10,000,000,000 model rows for 100 rows. pyale computes at most "
     "max(4096, 2**24 // rows) = 167,772 grid points (the data's 4,096 evaluations, or 16,777,216 model rows in "
     "all). Use K <= 167,772."),
    ("PDPlot pair", lambda: pyale.PDPlot(_SMALL, None, _model, J=("g", "x1"), K=10 ** 6, plot=False),
     "The 'K' parameter of PDPlot is 1000000, which asks for 4 x 1,000,000 = 4,000,000 grid points"),
    ("FeatureEffect pdp", lambda: pyale.FeatureEffect(_PRED, "x1", method="pdp", grid_size=10 ** 6),
     "max(4096, 2**24 // rows) = 4,096 grid points (the data's 4,096 evaluations, or 16,777,216 model rows in "
     "all). Use grid_size <= 4,096, or pass grid_points= with the values wanted."),
    ("FeatureEffect ice", lambda: pyale.FeatureEffect(_PRED, "x1", method="ice", grid_size=4_097),
     "The 'grid_size' parameter of FeatureEffect is 4097, which asks for 4,097 grid points"),
    ("FeatureEffect pdp pair", lambda: pyale.FeatureEffect(_PRED, ["x1", "x2"], method="pdp", grid_size=65),
     "asks for 65 x 65 = 4,225 grid points: partial dependence predicts every row at every grid point, "
     "84,500,000 model rows for 20,000 rows. pyale computes at most max(4096, 2**24 // rows) = 4,096 grid points "
     "(the data's 4,096 evaluations, or 16,777,216 model rows in all). Use grid_size <= 64, or pass grid_points= "
     "with the values wanted."),
]


@pytest.mark.parametrize(("label", "call", "message"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_refusals_name_the_parameter_the_value_and_the_bound(label, call, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        _traced(call)


def test_grids_at_the_bound_are_accepted_and_one_more_is_refused():
    from pyale._core.grid.bounds import check_pair_cells, check_pd_points, pair_cell_limit, pd_point_limit

    for n in (1, 100, 4096, 4097, 20_000, 10 ** 7):
        limit = pd_point_limit(n)
        assert limit == max(4096, 2 ** 24 // n)
        check_pd_points(n, (limit,), param="K", caller="f", value=0, advice="")
        with pytest.raises(ValueError):
            check_pd_points(n, (limit + 1,), param="K", caller="f", value=0, advice="")
        cells = pair_cell_limit(n)
        assert cells == max(n, 2 ** 22)
        check_pair_cells(n, (1, cells), param="K", caller="f", features=("a", "b"), value=0, advice="")
        with pytest.raises(ValueError):
            check_pair_cells(n, (cells + 1, 1), param="K", caller="f", features=("a", "b"), value=0, advice="")
    # The advice's value is accepted by the front-end.
    predictor = pyale.Predictor(predict_function=lambda newdata: _model(None, newdata), data=_BIG)
    with pytest.raises(ValueError, match="Use grid_size <= 64"):
        pyale.FeatureEffect(predictor, ["x1", "x2"], method="pdp", grid_size=65)
    assert pyale.FeatureEffect(predictor, ["x1", "x2"], method="pdp", grid_size=[64, 2]).results.shape[0] == 128
    with pytest.raises(ValueError, match=re.escape("2,049 x 2,049 = 4,198,401 cells")):
        pyale.ALEPlot(_BIG, None, _model, J=("x1", "x2"), K=2049, plot=False)


@pytest.mark.parametrize(("value", "error", "message"), [
    (float("nan"), TypeError, "The 'grid_size' parameter of FeatureEffect must be an int >= 1. Got nan instead."),
    (float("inf"), TypeError, "The 'grid_size' parameter of FeatureEffect must be an int >= 1. Got inf instead."),
])
def test_grid_size_not_a_number(value, error, message):
    with pytest.raises(error, match=re.escape(message)):
        pyale.FeatureEffect(_PRED, "x1", grid_size=value)


@pytest.mark.parametrize(("features", "grid", "error", "message"), [
    ("x1", ["a", "b"], TypeError, "The 'grid' parameter of ale must hold numbers for column 'x1'. Got ['a', 'b'] instead."),
    ("x1", [[-9.0, 0.0], [1.0, 9.0]], TypeError,
     "The 'grid' parameter of ale must hold numbers for column 'x1'. Got [[-9.0, 0.0], [1.0, 9.0]] instead."),
    ("x1", [-9.0, np.nan, 9.0], ValueError, "The 'grid' parameter of ale must hold at least two distinct finite values"),
    ("x1", [-np.inf, 9.0], ValueError, "The 'grid' parameter of ale must hold at least two distinct finite values"),
    (("x1", "x2"), [-9.0, 0.0, 9.0], ValueError,
     "The 'grid' parameter of ale must be a pair of sequences (or None) for the pair ('x1', 'x2'), one per feature. "
     "Got [-9.0, 0.0, 9.0] instead."),
])
def test_user_grids_are_checked(features, grid, error, message):
    with pytest.raises(error, match=re.escape(message)):
        pyale.ale(lambda d: _model(None, d), _SMALL, features, grid=grid)


@pytest.mark.parametrize(("points", "error", "message"), [
    ([0.0, np.nan, 1.0], ValueError, "must hold at least two finite values for feature 'x1'"),
    ([0.0, np.inf], ValueError, "must hold at least two finite values for feature 'x1'"),
    ([[0.0, 1.0], [2.0, 3.0]], TypeError, "must hold numbers for feature 'x1'. Got [[0.0, 1.0], [2.0, 3.0]] instead."),
])
def test_feature_effect_grid_points_are_checked(points, error, message):
    with pytest.raises(error, match=re.escape(f"The 'grid_points' parameter of FeatureEffect {message}")):
        pyale.FeatureEffect(pyale.Predictor(predict_function=lambda newdata: _model(None, newdata), data=_SMALL),
                            "x1", grid_points=points)


# --- Level ordering: same numbers as the plain formulas, memory set by levels and categories ----


def _plain_distances(codes, n_levels, columns):
    """The distance as the old code computed it: levels**2 x probes / categories arrays."""
    sizes = np.bincount(codes, minlength=n_levels).astype(float)
    total = np.zeros((n_levels, n_levels))
    for values, categorical, width in columns:
        if categorical:
            present = values >= 0
            table = np.zeros((n_levels, max(width, 1)))
            np.add.at(table, (codes[present], values[present]), 1.0)
            shares = table / sizes[:, None]
            diffs = np.abs(shares[:, None, :] - shares[None, :, :]).astype(np.longdouble)
            total = total + (diffs.sum(axis=2) / 2).astype(float)
        else:
            present = ~np.isnan(values)
            probes = quantile_type7(values[present], r_seq(0.0, 1.0, 100))
            ecdfs = np.array([ecdf_at(values[present & (codes == lev)], probes) for lev in range(n_levels)])
            total = total + np.abs(ecdfs[:, None, :] - ecdfs[None, :, :]).max(axis=2)
    np.fill_diagonal(total, 0.0)
    return total


def test_level_distances_equal_the_plain_formulas():
    rng = np.random.default_rng(4)
    for _ in range(40):
        n = int(rng.integers(30, 3000))
        n_levels = int(rng.integers(2, 40))
        codes = np.concatenate([np.arange(n_levels), rng.integers(0, n_levels, n - n_levels)])
        columns = []
        for _ in range(int(rng.integers(1, 4))):
            if rng.random() < 0.5:
                width = int(rng.integers(1, 60))
                values = rng.integers(0, width, n)
                values[rng.random(n) < 0.05] = -1
                columns.append((values, True, width + int(rng.integers(0, 3))))  # unused categories too
            else:
                values = np.round(rng.normal(size=n), int(rng.integers(0, 3)))
                values[n_levels:][rng.random(n - n_levels) < 0.05] = np.nan
                columns.append((values, False, 0))
        covariates = [Covariate(f"c{i}", cat, v, w) for i, (v, cat, w) in enumerate(columns)]
        assert np.array_equal(level_distances(codes, n_levels, covariates), _plain_distances(codes, n_levels, columns))


def test_level_distances_memory_does_not_grow_with_levels_squared_times_probes():
    rng = np.random.default_rng(0)
    n, n_levels = 20_000, 200
    codes = rng.integers(0, n_levels, n)
    covariates = [Covariate("s", True, rng.integers(0, 200, n), 200), Covariate("v", False, rng.normal(size=n))]
    _, _, peak = _traced(lambda: level_distances(codes, n_levels, covariates))
    # The plain formulas hold 200 x 200 x 200 long doubles (128 MB) and 200 x 200 x 100 doubles (32 MB).
    assert peak < 24 * 2 ** 20


@pytest.mark.skipif(np.finfo(np.longdouble).nmant < 63, reason="long double is not 80-bit extended here")
def test_l1_sums_left_to_right_in_long_double_as_r():
    """R adds sequentially (sum, rowSums); NumPy's pairwise sum of the same terms rounds otherwise here."""
    row = np.concatenate(([1.0], np.full(2999, 2.0 ** -64)))
    shares = np.vstack([row, np.zeros_like(row)])
    assert _sequential_l1(shares)[0, 1] == 1.0  # each 2**-64 is lost against 1, as in R
    assert float(np.abs(shares[0] - shares[1]).astype(np.longdouble).sum()) == 1.0 + 2.0 ** -52


@pytest.mark.r
def test_r_sums_as_pyale_does(R):
    assert R.floats("sum(c(1, rep(2^-64, 2999)))")[0] == 1.0
    assert R.floats("rowSums(matrix(c(1, rep(2^-64, 2999)), nrow = 1))")[0] == 1.0


def test_many_levels_beside_a_many_level_string_column():
    rng = np.random.default_rng(0)
    n, n_levels = 30_000, 300
    X = pd.DataFrame({
        "g": pd.Categorical(rng.integers(0, n_levels, n).astype(str)),
        "s": rng.integers(0, n_levels, n).astype(str).astype(object),
        "x": rng.normal(size=n),
    })
    res, seconds, peak = _traced(lambda: pyale.ALEPlot(
        X, None, lambda m, d: d["x"].to_numpy() + d["g"].cat.codes.to_numpy(), J="g", plot=False))
    assert len(res.x_values) == n_levels
    assert peak < 64 * 2 ** 20  # the old distances alone: 300**3 x (8 + 8 + 16) bytes = 864 MB


def test_a_long_string_in_another_column_costs_nothing_extra():
    rng = np.random.default_rng(0)
    n = 20_000
    text = np.array([f"t{i % 50}" for i in range(n)], dtype=object)
    text[7] = "x" * 2000
    X = pd.DataFrame({"g": rng.choice(list("abcde"), n), "text": text, "x": rng.normal(size=n)})
    res, _, peak = _traced(lambda: pyale.ALEPlot(
        X, None, lambda m, d: d["x"].to_numpy() + (d["g"] == "c").to_numpy(), J="g", plot=False))
    assert len(res.x_values) == 5
    assert peak < 16 * 2 ** 20  # a fixed-width copy of "text" alone: 20,000 x 2,000 x 4 bytes = 160 MB


# --- Text columns: factorised, sorted by code point ---------------------------------------------


def test_strings_factorise_in_code_point_order_without_fixed_width_copies():
    series = pd.Series(["b", "a", "é", "B", "a\x00", "a", "Z"], dtype=object)
    codes, levels = factorize_strings(series)
    assert levels == ("B", "Z", "a", "a\x00", "b", "é")  # NumPy's fixed-width strings merged "a" and "a\x00"
    assert [levels[c] for c in codes] == list(series)
    feature = read_feature(series, label="Column 's'")
    assert feature.levels == levels and np.array_equal(feature.codes, codes)


@pytest.mark.parametrize("dtype", [object, "string"])
def test_string_covariate_keeps_missing_values_out(dtype):
    series = pd.Series(["b", None, "a", "b"], dtype=dtype, name="s")
    covariate = read_covariate(series)
    assert covariate.values.tolist() == [1, -1, 0, 1] and covariate.n_levels == 2


def test_mixed_object_column_is_refused_clearly():
    X = pd.DataFrame({"g": ["a", "b", "a", "b"], "m": ["x", 1, "y", 2.5], "x": [1.0, 2.0, 3.0, 4.0]})
    with pytest.raises(TypeError, match=re.escape("Column 'm' has dtype object; the categorical level ordering")):
        pyale.ALEPlot(X, None, lambda m, d: d["x"].to_numpy(), J="g", plot=False)
    with pytest.raises(TypeError, match=re.escape("Column 'm' (J) has dtype object which is neither numeric")):
        pyale.ALEPlot(X, None, lambda m, d: d["x"].to_numpy(), J="m", plot=False)


# --- Counts bounded by memory: replicates and effects per call (pyale/_core/grid/bounds.py) ----------


class _Calls:
    """A model (or pred_fun, or fit) that counts its calls: a refusal must come before the first."""

    def __init__(self):
        self.calls = 0

    def predict(self, d):
        self.calls += 1
        return d["x1"].to_numpy() + d["x2"].to_numpy()

    def pred_fun(self, object, newdata, type):  # noqa: A002 - R's argument names
        return self.predict(newdata)

    def fit(self, X, y):
        self.calls += 1
        return self.predict


_ROWS = _frame(200)[["x1", "x2"]]
_GIB = 2 ** 30

MEMORY_REFUSALS = [
    ("ale n_bootstrap", lambda c: pyale.ale(c.predict, _ROWS, "x1", n_bootstrap=10 ** 12),
     "The 'n_bootstrap' parameter of ale asks for 1,000,000,000,000 replicates: their curves alone need about "
     "298.3 TiB (1,000,000,000,000 replicates x 41 values x 8 bytes), and computing them about 2.9 PiB; at most "
     "326,563 fit in the memory available (1.0 GiB). Use a smaller n_bootstrap."),
    ("ale n_bootstrap pair", lambda c: pyale.ale(c.predict, _ROWS, ["x1", ("x1", "x2")], n_intervals=10,
                                                  n_bootstrap=10 ** 7),
     "The 'n_bootstrap' parameter of ale asks for 10,000,000 replicates: their curves alone need about 9.8 GiB "
     "(10,000,000 replicates x 132 values x 8 bytes), and computing them about 98.4 GiB; at most 101,603 fit in the "
     "memory available (1.0 GiB). Use a smaller n_bootstrap."),
    ("ALE boot_it", lambda c: pyale.ALE(None, ["x1", "x2"], _ROWS.assign(y=0.0), "y", pred_fun=c.pred_fun,
                                        boot_it=10 ** 9),
     "The 'boot_it' parameter of ALE asks for 1,000,000,000 replicates: their curves alone need about 149.0 GiB "
     "(1,000,000,000 replicates x 20 values x 8 bytes), and computing them about 2.5 TiB; at most 385,683 fit in "
     "the memory available (1.0 GiB). Use a smaller boot_it."),
    ("model_bootstrap n_bootstrap", lambda c: pyale.model_bootstrap(c.fit, _ROWS, _ROWS["x1"], "x1",
                                                                    n_bootstrap=10 ** 9),
     "The 'n_bootstrap' parameter of model_bootstrap asks for 1,000,000,000 replicates: their curves alone need "
     "about 305.5 GiB (1,000,000,000 replicates x 41 values x 8 bytes), and computing them about 5.9 TiB; at most "
     "165,496 fit in the memory available (1.0 GiB). Use a smaller n_bootstrap."),
    ("ale features", lambda c: pyale.ale(c.predict, _ROWS, ["x1"] * 400_000),
     "The 'features' parameter of ale asks for 400,000 effects: estimating them together on 200 rows needs about "
     "1.2 GiB (400,000 effects x 200 rows x about 16 bytes); at most 335,544 fit in the memory available (1.0 GiB). "
     "Ask for fewer features per call."),
    ("ALE x_cols", lambda c: pyale.ALE(None, {"d1": True, "d2": True}, _frame(40_000)[["x1", "x2", "k"]],
                                       "k", pred_fun=c.pred_fun),
     "The 'x_cols' parameter of ALE asks for 3 effects: estimating them together on 40,000 rows needs about "
     "1.8 MiB (3 effects x 40,000 rows x about 16 bytes); at most 2 fit in the memory available (1.5 MiB). "
     "Ask for fewer terms per call."),
]


@pytest.mark.parametrize(("label", "call", "message"), MEMORY_REFUSALS, ids=[r[0] for r in MEMORY_REFUSALS])
def test_counts_that_cannot_fit_are_refused_before_the_model_is_called(label, call, message, monkeypatch):
    from pyale._core.grid import bounds

    memory = 3 * 2 ** 19 if label == "ALE x_cols" else _GIB
    monkeypatch.setattr(bounds, "available_memory", lambda: memory)
    counted = _Calls()
    start = time.perf_counter()
    with pytest.raises(ValueError, match=re.escape(message)):
        call(counted)
    assert counted.calls == 0 and time.perf_counter() - start < 5  # the old code: MemoryError, or hours


def test_replicates_at_the_bound_are_computed_and_one_more_is_refused(monkeypatch):
    from pyale._core.grid import bounds

    # ale: one replicate holds 5 curve values (8 bytes, x REPLICATE_WORK) and its draws of the one chunk of rows.
    monkeypatch.setattr(bounds, "available_memory", lambda: 30 * (bounds.REPLICATE_WORK * 5 * 8 + 8))
    model = _Calls()
    assert pyale.ale(model.predict, _ROWS, "x1", n_intervals=4, n_bootstrap=30, random_state=0).replicates.shape[0] == 30
    with pytest.raises(ValueError, match=re.escape("asks for 31 replicates") + ".*" + re.escape("at most 30 fit")):
        pyale.ale(model.predict, _ROWS, "x1", n_intervals=4, n_bootstrap=31)
    # ALE: 3 bins, their curves and counts, and the statistics (1 KiB per category).
    monkeypatch.setattr(bounds, "available_memory", lambda: 10 * (bounds.REPLICATE_WORK * 3 * 8 + 3 * 8 + 1024))
    data = _ROWS.assign(y=0.0)
    assert pyale.ALE(None, ["x1"], data, "y", pred_fun=model.pred_fun, max_num_bins=3, boot_it=10).boot_it == 10
    with pytest.raises(ValueError, match=re.escape("at most 10 fit")):
        pyale.ALE(None, ["x1"], data, "y", pred_fun=model.pred_fun, max_num_bins=3, boot_it=11)
    monkeypatch.setattr(bounds, "available_memory", lambda: 0)
    with pytest.raises(ValueError, match=re.escape("not even one replicate fits in the memory available (0 bytes).")):
        pyale.ale(model.predict, _ROWS, "x1", n_bootstrap=1)


def test_available_memory_is_the_machine_s_or_a_limit_below_it():
    from pyale._core.grid.bounds import available_memory

    memory = available_memory()
    assert isinstance(memory, int) and memory > 0
    if hasattr(os, "sysconf"):
        assert memory <= os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")


def test_ale_bootstrap_memory_does_not_grow_with_boot_it_times_rows():
    """R's resamples are drawn and reduced 32 replicates at a time (the old code held boot_it x n counts)."""
    n = 20_000
    data = _frame(n)[["x1", "x2"]].assign(y=0.0)
    model = _Calls()
    peaks = {}
    for boot_it in (300, 900):
        result, _, peak = _traced(lambda: pyale.ALE(None, ["x1", "x2"], data, "y", pred_fun=model.pred_fun,
                                                    boot_it=boot_it, seed=2))
        peaks[boot_it] = peak
        assert result.curves("x1").shape == (boot_it + 1, 10)
    # 600 more replicates of 20,000 rows: 12 MB at one byte per row and replicate (the old code: 105 MiB more).
    assert peaks[900] - peaks[300] < 600 * n / 4


def test_max_rows_per_call_beyond_the_data_allocates_nothing_of_its_size():
    model = _Calls()
    expected = [r.effects for r in pyale.ale(model.predict, _ROWS, ["x1", ("x1", "x2")])]
    for bound in (10 ** 18, 10 ** 30):
        got, seconds, peak = _traced(lambda: pyale.ale(model.predict, _ROWS, ["x1", ("x1", "x2")],
                                                       max_rows_per_call=bound))
        assert all(np.array_equal(r.effects, e) for r, e in zip(got, expected))
        assert seconds < 5 and peak < 20 * 2 ** 20
