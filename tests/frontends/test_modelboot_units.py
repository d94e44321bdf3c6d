"""``pyale.ModelBoot``'s pieces: argument refusals, staccuracy's AUC, R's Mersenne-Twister sample, get()."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import rankdata

import pyale
from pyale._frontends.alepkg.performance import aucroc, r_term_name, sa_mae_mad, sa_rmse_sd
from pyale._rbase.mersenne import MersenneTwister, r_sample_rows


def _data(n=30, seed=0):
    rng = np.random.default_rng(seed)
    data = pd.DataFrame({"x": np.round(rng.uniform(size=n), 2), "z": rng.normal(size=n)})
    data["y"] = data["x"] - data["z"] + rng.normal(size=n)
    return data


def _fit(data):
    import statsmodels.formula.api as smf

    return smf.ols("y ~ x + z", data).fit()


REFUSALS = [
    (dict(boot_it=-1), ValueError, "The 'boot_it' parameter of ModelBoot must be a whole number >= 0. Got -1 instead."),
    (dict(boot_it=1.5), ValueError, "The 'boot_it' parameter of ModelBoot must be a whole number >= 0. Got 1.5 instead."),
    (dict(boot_it="3"), TypeError, "The 'boot_it' parameter of ModelBoot must be a whole number >= 0. Got '3' instead."),
    (dict(boot_alpha=1.5), ValueError, "The 'boot_alpha' parameter of ModelBoot must be a float in [0, 1]. Got 1.5 instead."),
    (dict(boot_centre="mode"), ValueError,
     "The 'boot_centre' parameter of ModelBoot must be 'mean' or 'median'. Got 'mode' instead."),
    (dict(output_ale="yes"), TypeError, "The 'output_ale' parameter of ModelBoot must be True or False. Got 'yes' instead."),
    (dict(ale_options={"boot_it": 3}), ValueError,
     "The 'ale_options' parameter of ModelBoot must not set 'boot_it' (ModelBoot sets it)."),
    # Before: ALE.__init__()'s own TypeError "got an unexpected keyword argument 'foo'".
    (dict(ale_options={"foo": 1}), ValueError,
     "The 'ale_options' parameter of ModelBoot sets 'foo', which ALE does not take; it takes ['x_cols', "),
    # Before: numpy's MemoryError "Unable to allocate 873. TiB" (or a long wait).
    (dict(boot_it=10**12), ValueError, "The 'boot_it' parameter of ModelBoot asks for 1,000,000,000,000 replicates"),
    # Before: "The 'data' parameter of ALE must not have missing values" (ALE, not the function called).
    (dict(data=_data().assign(x=[np.nan] + [0.5] * 29)), ValueError,
     "The 'data' parameter of ModelBoot must not have missing values with output_ale=True (its ALE refuses them, "
     "as R's ale does). Column 'x' has 1 missing value(s)."),
    (dict(refit=3), TypeError,
     "The 'refit' parameter of ModelBoot must be a callable refit(boot_data) -> model. Got int instead."),
    (dict(y_col="w"), ValueError, "The 'y_col' parameter of ModelBoot must be a column of 'data'. Got 'w' instead."),
    (dict(ale_p="yes"), ValueError,
     "The 'ale_p' parameter of ModelBoot must be None, 'auto' or a pyale.ALEpDist. Got 'yes' instead."),
    (dict(ale_p=3), TypeError, "The 'ale_p' parameter of ModelBoot must be None, 'auto' or a pyale.ALEpDist. "
                               "Got int instead."),
    # R: "The ale_options$p_values option is disabled. Use the ale_p argument instead."
    (dict(ale_options={"p_values": None}), ValueError,
     "The 'ale_options' parameter of ModelBoot must not set 'p_values' (R disables it): pass the ALEpDist as ale_p=."),
    (dict(seed=2**31), ValueError,
     "The 'seed' parameter of ModelBoot must be a whole number from -2147483647 to 2147483647. Got 2147483648 instead."),
]


@pytest.mark.parametrize("keywords, error, message", REFUSALS, ids=[m[:40] for _, _, m in REFUSALS])
def test_refusals(keywords, error, message):
    data = keywords.pop("data", _data())
    refit = keywords.pop("refit", None)
    with pytest.raises(error, match=re.escape(message)):
        pyale.ModelBoot(_fit(data), data, refit, boot_it=keywords.pop("boot_it", 2), **keywords)


def test_a_model_pyale_cannot_refit_needs_refit():
    data = _data()
    with pytest.raises(TypeError, match=re.escape("The 'refit' parameter of ModelBoot is needed")):
        pyale.ModelBoot(lambda frame: frame["x"].to_numpy(), data, y_col="y", boot_it=2)


def test_a_failing_refit_is_skipped_with_a_warning():
    data = _data()
    calls = []

    def refit(boot_data):
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("no convergence")
        return _fit(boot_data)

    with pytest.warns(UserWarning, match="refit failed on resample 2"):
        mb = pyale.ModelBoot(_fit(data), data, refit, boot_it=3, output_boot_data=True)
    assert mb.boot_data["model"][2] is None and mb.ale["boot"].n_replicates == 2
    assert mb.model_coefs.shape[0] == 3


def test_data_and_model_are_not_changed_and_get_types():
    data = _data()
    before = data.copy()
    mb = pyale.ModelBoot(_fit(data), data, boot_it=3, seed=5)
    pd.testing.assert_frame_equal(data, before)
    single, boot = mb.get("x", type="single"), mb.get("x")
    assert list(single.columns) == list(boot.columns) and not np.allclose(single[".y_lo"], boot[".y_lo"])
    with pytest.raises(ValueError, match="The 'type' parameter of get must be 'auto', 'boot' or 'single'"):
        mb.get("x", type="both")
    none = pyale.ModelBoot(_fit(data), data, boot_it=0)
    assert "boot" not in none.ale and none.model_stats.columns[0] == "name" and "boot_valid" not in none.model_stats
    with pytest.raises(ValueError, match="no bootstrapped ALE"):
        none.get("x", type="boot")


def test_the_resamples_do_not_depend_on_how_many_are_drawn():
    assert np.array_equal(r_sample_rows(50, 3, 7), r_sample_rows(50, 5, 7)[:3])
    rows = r_sample_rows(50, 4, 7)
    assert rows.min() >= 0 and rows.max() < 50 and rows.dtype == np.int64


def test_sample_without_replacement_is_a_permutation_prefix():
    drawn = MersenneTwister.from_seed(3).sample_int(40, 40)
    assert sorted(drawn) == list(range(1, 41))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 6)), min_size=2, max_size=40))
def test_auc_is_the_mann_whitney_statistic_with_ties_counted_half(pairs):
    actual = np.array([a for a, _ in pairs], dtype=float)
    pred = np.array([p for _, p in pairs], dtype=float) / 6
    n_pos, n_neg = int(actual.sum()), int((1 - actual).sum())
    got = aucroc(actual, pred)
    if n_pos == 0 or n_neg == 0:
        assert np.isnan(got)
        return
    ranks = rankdata(pred)
    expected = (ranks[actual == 1].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)
    assert abs(got - expected) < 1e-12


def test_standardised_accuracies_are_one_for_perfect_predictions_and_half_for_the_mean():
    actual = np.array([1.0, 4.0, 2.0, 8.0, 5.0])
    assert sa_mae_mad(actual, actual) == 1.0 and sa_rmse_sd(actual, actual) == 1.0
    assert abs(sa_mae_mad(actual, np.full(5, actual.mean())) - 0.5) < 1e-15


@pytest.mark.parametrize("name, r_name", [("Intercept", "(Intercept)"), ("g[T.b]", "gb"), ("z[T.True]", "zTRUE"),
                                          ("C(g)[T.c]", "gc"), ("g[T.b]:x", "gb:x"), ("x:z", "x:z"),
                                          ('Q("class")', "class"), ('Q("class")[T.b]', "classb"),
                                          ("C(Q('class'))[T.b]", "classb"), ('Q("if")', "`if`"),
                                          ('Q("my var"):x', "`my var`:x")])
def test_coefficient_names_as_r_prints_them(name, r_name):
    # Before: patsy's quoting of a keyword-named column stayed: 'Q("class")', not R's 'class'.
    assert r_term_name(name) == r_name


def test_a_keyword_named_column_keeps_its_place_among_the_coefficients():
    # Before: Q("class") was listed after every other main effect (its name was not found in the formula).
    import statsmodels.formula.api as smf

    rng = np.random.default_rng(1)
    data = pd.DataFrame({"x1": rng.normal(size=30), "class": rng.integers(0, 2, 30), "g": rng.choice(list("abc"), 30)})
    data["y"] = data["x1"] + data["class"] + rng.normal(size=30)
    boot = pyale.ModelBoot(smf.ols('y ~ x1 + Q("class") + g', data).fit(), data, boot_it=3, seed=0, output_ale=False)
    assert boot.model_coefs["term"].tolist() == ["(Intercept)", "x1", "class", "gb", "gc"]


def _pdist(data, fit):
    """An ALEpDist of the OLS fit (least squares by NumPy: 100 statsmodels formula refits would take seconds)."""
    def refit(frame):
        X = np.column_stack([np.ones(frame.shape[0]), frame[["x", "z", "random_variable"]].to_numpy(dtype=float)])
        beta = np.linalg.lstsq(X, frame["y"].to_numpy(dtype=float), rcond=None)[0]
        return lambda new: np.column_stack([np.ones(new.shape[0]),
                                            new[["x", "z", "random_variable"]].to_numpy(dtype=float)]) @ beta

    return pyale.ALEpDist(fit, data, "y", refit=refit, rand_it=100, seed=1)


def test_ale_p_adds_the_aler_rows_and_no_p_values():
    """R's ale_p: the full-data y_summary gains the random variables' ALER rows (at ale_options' aler_alpha),
    identical to ALE(p_values=)'s; curves and statistics are those without ale_p (no p.value column)."""
    data = _data(n=40, seed=3)
    fit = _fit(data)
    dist = _pdist(data, fit)
    options = {"aler_alpha": (0.02, 0.1)}
    with_p = pyale.ModelBoot(fit, data, boot_it=3, seed=2, ale_p=dist, ale_options=options)
    without = pyale.ModelBoot(fit, data, boot_it=3, seed=2, ale_options=options)
    assert with_p.ale_p is dist and without.ale_p is None
    single = with_p.ale["single"]
    expected = pyale.ALE(fit, None, data, "y", p_values=dist, aler_alpha=(0.02, 0.1)).y_summary
    pd.testing.assert_frame_equal(single.y_summary, expected)
    assert {"aler_lo_lo", "aler_lo", "aler_hi", "aler_hi_hi"} <= set(single.y_summary.index)
    assert single.p_values is None
    for kind in ("single", "boot"):
        got = with_p.get(stats="all", type=kind)
        assert "p.value" not in got.columns
        pd.testing.assert_frame_equal(got, without.get(stats="all", type=kind))
        pd.testing.assert_frame_equal(with_p.get("x", type=kind), without.get("x", type=kind))


def test_ale_p_must_cover_the_response():
    data = _data(n=40, seed=3)
    fit = _fit(data)
    dist = _pdist(data, fit)
    renamed = data.rename(columns={"y": "w"})
    import statsmodels.formula.api as smf

    fit_w = smf.ols("w ~ x + z", renamed).fit()
    with pytest.raises(ValueError, match=re.escape("The 'ale_p' parameter of ModelBoot has no distributions for "
                                                   "the response categories ['w']")):
        pyale.ModelBoot(fit_w, renamed, boot_it=2, ale_p=dist)
