"""pyale.ALEpDist and ALE(p_values=): argument checks, p-value invariants, the surrogate glm, parallel refits."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

import pyale
from pyale._frontends.alepkg.pdist import p_to_random_value, value_to_p
from pyale._frontends.alepkg.surrogate import SurrogateGLM
from pyale._rbase.mersenne import MersenneTwister


def _data(n=60, seed=0):
    rng = np.random.default_rng(seed)
    data = pd.DataFrame({"x": rng.normal(size=n), "z": rng.uniform(size=n)})
    data["y"] = 1 + data["x"] + rng.normal(size=n)
    return data


def refit(frame):
    X = np.column_stack([np.ones(frame.shape[0]), frame.drop(columns="y").to_numpy()])
    beta = np.linalg.lstsq(X, frame["y"].to_numpy(), rcond=None)[0]
    return lambda new: np.column_stack([np.ones(new.shape[0]), new.to_numpy()]) @ beta


DATA = _data()
MODEL = refit(DATA)


@pytest.mark.parametrize("kwargs, error, message", [
    ({"rand_it": 50}, ValueError, "The 'rand_it' parameter of ALEpDist must be a whole number >= 100 (R: p-values "
                                  "created on fewer than 100 iterations are invalid). Got 50 instead."),
    ({"rand_it": 150.5}, TypeError, "The 'rand_it' parameter of ALEpDist must be a whole number >= 100. "
                                    "Got 150.5 instead."),
    ({"surrogate": "yes"}, TypeError, "The 'surrogate' parameter of ALEpDist must be a bool. Got 'yes' instead."),
    ({"output_residuals": 1}, TypeError, "The 'output_residuals' parameter of ALEpDist must be a bool. Got 1 instead."),
    ({"seed": 3e9}, ValueError, "The 'seed' parameter of ALEpDist must be a whole number in R's integer range. "
                                "Got 3000000000.0 instead."),
    ({"n_jobs": 0}, ValueError, "The 'n_jobs' parameter of ALEpDist must be None or a nonzero int. Got 0 instead."),
    ({"refit": None}, TypeError, "The 'refit' parameter of ALEpDist is required for a function"),
    ({"refit": "lm"}, TypeError, "The 'refit' parameter of ALEpDist must be a callable refit(rand_data) -> model. "
                                 "Got str instead."),
    ({"y_col": "nope"}, ValueError, "The 'y_col' parameter of ALEpDist must name the response column of 'data'. "
                                    "Got 'nope' instead."),
])
def test_argument_errors(kwargs, error, message):
    args = {"y_col": "y", "refit": refit, "rand_it": 100, **kwargs}
    with pytest.raises(error, match=re.escape(message)):
        pyale.ALEpDist(MODEL, DATA, **args)


def test_missing_values_and_constant_predictions_are_refused():
    holes = DATA.copy()
    holes.loc[3, "x"] = np.nan
    with pytest.raises(ValueError, match="missing values"):
        pyale.ALEpDist(MODEL, holes, "y", refit=refit, rand_it=100)
    with pytest.raises(ValueError, match="all predictions are identical"):
        pyale.ALEpDist(lambda new: np.zeros(new.shape[0]), DATA, "y", refit=refit, rand_it=100)


def test_ale_p_values_must_be_an_alepdist():
    with pytest.raises(TypeError, match=re.escape("The 'p_values' parameter of ALE must be None or a "
                                                  "pyale.ALEpDist. Got str instead.")):
        pyale.ALE(MODEL, ["x"], DATA, "y", p_values="auto")


@pytest.fixture(scope="module")
def dist():
    return pyale.ALEpDist(MODEL, DATA, "y", refit=refit, rand_it=100, seed=4, output_residuals=True)


def test_result_shape_and_data_untouched(dist):
    before = DATA.copy()
    pyale.ALEpDist(MODEL, DATA, "y", refit=refit, rand_it=100)
    pd.testing.assert_frame_equal(DATA, before)
    assert list(dist.rand_stats) == ["y"]
    assert dist.rand_stats["y"].shape == (100, 6)
    assert dist.params["exactness"] == "approx" and dist.params["rand_it_ok"] == 100
    assert_allclose(dist.residuals[:, 0], DATA["y"] - MODEL(DATA.drop(columns="y")))
    assert "ALEpDist(" in repr(dist)


def test_random_variables_have_small_effects_and_real_ones_small_p_values(dist):
    res = pyale.ALE(MODEL, None, DATA, "y", p_values=dist)
    table = res.get(stats="all")
    x = table[table["term"] == "x"].set_index("statistic")["p.value"]
    z = table[table["term"] == "z"].set_index("statistic")["p.value"]
    assert x["aled"] == 0.0  # a unit slope is far outside 100 random variables' effects
    assert z["aled"] > 0.0  # z has no effect: some random variable shows a larger one
    assert list(res.y_summary.index[9:11]) == ["aler_lo_lo", "aler_lo"]
    assert res.y_summary.loc["aler_lo_lo"].iloc[0] <= res.y_summary.loc["aler_lo"].iloc[0] <= \
        res.y_summary.loc["50%"].iloc[0] <= res.y_summary.loc["aler_hi"].iloc[0] <= res.y_summary.loc["aler_hi_hi"].iloc[0]


def test_parallel_refits_give_the_same_numbers(dist, child_environment):
    joblib = pytest.importorskip("joblib")
    assert joblib
    other = pyale.ALEpDist(MODEL, DATA, "y", refit=refit, rand_it=100, seed=4, n_jobs=2)
    pd.testing.assert_frame_equal(other.rand_stats["y"], dist.rand_stats["y"])


def test_p_values_of_the_null_are_uniform_enough():
    """Under the null (a feature drawn like the random variables), p-values are roughly uniform: with the
    same model class and residual family, the share below 0.1 over 60 null features is near 0.1."""
    data = _data(n=50, seed=9)
    dist = pyale.ALEpDist(refit(data), data, "y", refit=refit, rand_it=100, seed=1)
    rng = np.random.default_rng(3)
    sd = dist.residual_distribution.estimates.get("sd", 1.0)
    p_values = []
    for _ in range(60):
        frame = data.copy()
        frame["noise"] = rng.normal(scale=sd, size=frame.shape[0])
        model = refit(frame)
        aled = pyale.ALE(model, ["noise"], frame, "y").get(stats="estimate")["aled"].iloc[0]
        p_values.append(float(dist.p_values("aled", [aled])[0]))
    share = np.mean(np.array(p_values) <= 0.1)
    assert 0.0 <= share <= 0.3, p_values


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(-1e6, 1e6), min_size=1, max_size=40), st.floats(-1e6, 1e6),
       st.sampled_from(["aled", "aler_min", "aler_max", "naled", "naler_min", "naler_max"]))
def test_value_to_p_is_the_ecdf(random, x, stat):
    p = value_to_p(random, stat, [x])[0]
    share = np.mean(np.asarray(random) <= x)
    assert p == (share if stat.endswith("_min") else 1 - share)
    assert 0.0 <= p <= 1.0
    bigger = value_to_p(random, stat, [x + 1.0])[0]
    assert (bigger >= p) if stat.endswith("_min") else (bigger <= p)


def test_p_to_random_value_is_the_type7_quantile():
    values = np.arange(1.0, 11.0)
    assert_allclose(p_to_random_value(values, "aler_min", [0.0, 0.5, 1.0]), [1.0, 5.5, 10.0])
    assert_allclose(p_to_random_value(values, "aler_max", [0.0, 0.5]), [10.0, 5.5])


def test_surrogate_glm_matches_statsmodels():
    sm = pytest.importorskip("statsmodels.api")
    rng = np.random.default_rng(2)
    frame = pd.DataFrame({"a": rng.normal(size=80), "g": pd.Categorical(rng.choice(["p", "q", "r"], 80)),
                          "flag": rng.uniform(size=80) < 0.5})
    frame["y"] = (rng.uniform(size=80) < 1 / (1 + np.exp(-frame["a"]))).astype(float)
    X = pd.get_dummies(frame.drop(columns="y"), columns=["g"], drop_first=True).astype(float)
    X = sm.add_constant(X)
    for family, sm_family in (("binomial", sm.families.Binomial()), ("gaussian", sm.families.Gaussian())):
        ours = SurrogateGLM(frame, "y", family).predict(frame.drop(columns="y"))
        theirs = sm.GLM(frame["y"], X, family=sm_family).fit(tol=1e-14).predict(X)
        assert_allclose(ours, theirs, rtol=1e-7)


def test_surrogate_needs_no_refit_and_uses_ten_bins():
    dist = pyale.ALEpDist(MODEL, DATA, "y", surrogate=True)
    assert dist.params["exactness"] == "surrogate" and dist.params["max_num_bins"] == 10
    assert dist.rand_stats["y"].shape == (100, 6)
    big = _data(n=1200, seed=5)
    sampled = pyale.ALEpDist(refit(big), big, "y", surrogate=True, seed=3)
    assert sampled.params["n_rows"] == 1000
    # R 4.2.2: set.seed(3); dplyr::slice_sample(data.frame(i = 1:1200), n = 1000)$i starts 773 652 999 548 698
    rows = MersenneTwister.from_seed(3).sample_int(1200, 1000)
    assert rows[:5].tolist() == [773, 652, 999, 548, 698]
    # residuals, their family and the normaliser come from all 1200 rows (as in R); the refits from the 1000
    assert sampled.residual_distribution.estimates != pyale.ALEpDist(
        refit(big), big.iloc[rows - 1].reset_index(drop=True), "y", surrogate=True, seed=3).residual_distribution.estimates


def _refit_failing_above(threshold):
    def failing(frame):
        if "random_variable" in frame.columns and frame["random_variable"].iloc[0] > threshold:
            raise ArithmeticError("planned failure")
        return refit(frame)

    return failing


def test_failing_refits_are_dropped_alike_in_parallel(child_environment):
    """The same iterations are dropped with n_jobs=2 as in one process, and the same statistics kept."""
    pytest.importorskip("joblib")
    failing = _refit_failing_above(1.5)
    with pytest.warns(pyale._frontends.alepkg.pdist.ALEpDistWarning, match="iterations failed") as one:
        serial = pyale.ALEpDist(MODEL, DATA, "y", refit=failing, rand_it=110, seed=4)
    with pytest.warns(pyale._frontends.alepkg.pdist.ALEpDistWarning) as two:
        parallel = pyale.ALEpDist(MODEL, DATA, "y", refit=failing, rand_it=110, seed=4, n_jobs=2)
    assert 100 <= serial.params["rand_it_ok"] < 110
    assert str(one[0].message) == str(two[0].message)
    assert "ArithmeticError: planned failure" in str(one[0].message)
    pd.testing.assert_frame_equal(parallel.rand_stats["y"], serial.rand_stats["y"])


def test_a_refit_returning_none_is_a_failed_iteration():
    with pytest.raises(ValueError, match=re.escape("100 of 100 iterations failed; only 0 were valid")) as info:
        pyale.ALEpDist(MODEL, DATA, "y", refit=lambda frame: None, rand_it=100, seed=4)
    assert "refit: TypeError: refit returned None" in str(info.value)
