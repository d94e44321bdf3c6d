"""Unit tests of pyale._frontends.alepkg (the model-free pieces of the ale front-end) on hand-computed values."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from pyale._frontends.alepkg import (
    STATISTICS,
    ale_statistics_1d,
    ale_statistics_2d,
    ale_var_type,
    band_summary,
    binary_levels,
    check_ale_arguments,
    effect_table_1d,
    effect_table_2d,
    normaliser,
    numeric_bins,
    r_call,
    r_ceiling_labels,
    r_median,
    resolve_x_cols,
    statistics_estimate_table,
    statistics_long_table,
    summarise_statistics,
    y_summary,
)
from pyale._frontends.alepkg.tables import r_level_labels

# --- variable types -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        (pd.Series([True, True, True]), "binary"),  # logical: binary whatever the values
        (pd.Series([0.0, 1.0, 0.0]), "binary"),
        (pd.Series([2, 5, 5], dtype="int64"), "binary"),
        (pd.Series(["u", "v", "u"]), "binary"),
        (pd.Series(pd.Categorical(["lo", "hi"], categories=["lo", "hi", "unused"])), "binary"),
        (pd.Series(pd.Categorical(["lo", "hi", "lo"], ordered=True)), "binary"),
        (pd.Series([1, 2, 3], dtype="int64"), "numeric"),
        (pd.Series([0.5, 1.5, 2.5, 2.5]), "numeric"),
        (pd.Series([7.0, 7.0]), "numeric"),  # one value: numeric (R then yields NaN)
        (pd.Series(pd.to_datetime(["2020-01-01", "2021-01-01", "2022-01-01"])), "numeric"),
        (pd.Series(pd.Categorical(["a", "b", "c"])), "categorical"),
        (pd.Series(["p", "q", "r"], dtype=object), "categorical"),
        (pd.Series(pd.Categorical(["a", "b", "c"], ordered=True)), "ordinal"),
        (pd.Series(pd.Categorical(["a", "b", "b"], categories=["a", "b", "c"], ordered=True)), "binary"),
    ],
)
def test_ale_var_type(values, expected):
    assert ale_var_type(values) == expected


def test_ale_var_type_refuses_what_ale_cannot_type():
    with pytest.raises(TypeError, match=re.escape("Column 'z' has dtype complex128, which ale does not handle.")):
        ale_var_type(pd.Series([1j, 2j, 3j], name="z"))
    with pytest.raises(TypeError, match=re.escape("Column 'm' has dtype object, which ale does not handle")):
        ale_var_type(pd.Series([1, "a", 2.5], name="m", dtype=object))


def test_binary_levels_in_r_order():
    assert binary_levels(pd.Series([1.0, 0.0, 1.0])) == [0.0, 1.0]
    assert binary_levels(pd.Series([True, False])) == [False, True]
    assert binary_levels(pd.Series(pd.Categorical(["y", "x"], categories=["y", "z", "x"]))) == ["y", "x"]
    assert binary_levels(pd.Series(["q", "p", "q"])) == ["p", "q"]


@pytest.mark.parametrize(
    ("column", "error", "message"),
    [
        # A numeric column with two values and a missing one is binary: its rows were dropped silently.
        (pd.Series([1.0, 2.0, np.nan, 1.0]), ValueError,
         "Column 'x' has 1 missing value(s) (first at index 2); ALE needs complete data in the feature."),
        (pd.Series(pd.array([True, None, False], dtype="boolean")), ValueError,
         "Column 'x' has 1 missing value(s) (first at index 1)"),
        # A boolean column is binary whatever its values: one value was an IndexError.
        (pd.Series([True, True, True]), ValueError, "Column 'x' has a single value True in the data;"),
        (pd.Series(pd.array([False, False], dtype="boolean")), ValueError,
         "Column 'x' has a single value False in the data;"),
    ],
)
def test_ale_axis_refuses_missing_values_and_single_valued_binaries(column, error, message):
    from pyale._frontends.alepkg.axes import ale_axis

    X = pd.DataFrame({"x": column, "z": np.arange(column.shape[0], dtype=float)})
    with pytest.raises(error, match=re.escape(message)):
        ale_axis(X, "x", 10)
    with pytest.raises(error, match=re.escape(message)):
        import pyale

        pyale.ale(lambda d: d["z"].to_numpy(), X, "x", conventions="ale")


def test_r_labels():
    assert r_level_labels([False, True, 0.0, 1.0, 2.5, 100000.0, 3, "a"]) == \
        ["FALSE", "TRUE", "0", "1", "2.5", "1e+05", "3", "a"]
    assert r_level_labels([1 / 3, 0.001, 1e-4, -0.25]) == ["0.333333333333333", "0.001", "1e-04", "-0.25"]
    assert r_ceiling_labels(np.array([1 / 3, 2.0, 2.0**60])).tolist() == [0.333333333333333, 2.0, 2.0**60]


# --- numeric bins ---------------------------------------------------------------------------


def test_numeric_bins_by_hand():
    x = np.array([3.0, 1.0, 1.0, 2.0, 5.0, 4.0, 2.0])
    # B = 4: probabilities 1/3, 2/3, 1 of 7 sorted values (1 1 2 2 3 4 5): type 1 -> 2, 3, 5
    b = numeric_bins(x, 4)
    assert b.ceilings.tolist() == [1.0, 2.0, 3.0, 5.0]
    assert b.bin_of_row.tolist() == [2, 0, 0, 1, 3, 3, 1]
    assert b.counts.tolist() == [2, 2, 1, 2]
    assert b.interval_counts.tolist() == [4, 1, 2]  # [1, 2], (2, 3], (3, 5]


def test_numeric_bins_with_few_values_and_two_bins():
    b = numeric_bins(np.array([4.0, 4.0, 9.0, 6.0]), 10)
    assert b.ceilings.tolist() == [4.0, 6.0, 9.0]
    b2 = numeric_bins(np.array([0.3, 0.1, 0.2]), 2)
    assert b2.ceilings.tolist() == [0.1, 0.3]
    assert b2.counts.tolist() == [1, 2] and b2.interval_counts.tolist() == [3]


# --- statistics -----------------------------------------------------------------------------


def test_r_median():
    assert r_median([3.0, 1.0, 2.0]) == 2.0
    assert r_median([4.0, 1.0, 2.0, 3.0]) == 2.5
    assert math.isnan(r_median([]))


def test_normaliser_by_hand():
    N = normaliser([1.0, 2.0, 3.0, 4.0, 5.0])  # c = -2 -1 0 1 2; pre = -1, post = 1
    got = N(np.array([-3.0, -2.0, -1.5, -1.0, 0.0, 1.0, 1.5, 2.0, np.nan]))
    # below: -ecdf(2, 1, 0)(-e)/2*100; above: ecdf(0, 1, 2)(e)/2*100
    assert_allclose(got[:8], [-50.0, -50.0, -100 / 3, 0.0, 0.0, 0.0, 100 / 3, 50.0], rtol=1e-15)
    assert math.isnan(got[8])


def test_normaliser_when_half_the_response_sits_at_the_median():
    N = normaliser([0.0, 0.0, 0.0, 1.0])  # c = 0 0 0 1: no negative c -> pre = -Inf; median(c) == min(c) -> post = 0
    assert_allclose(N(np.array([-5.0, 0.0, 0.5, 1.0, 2.0])), [0.0, 0.0, 37.5, 50.0, 50.0])
    N2 = normaliser([2.0, 2.0, 2.0])  # median(c) == max(c) == min(c): pre = post = 0
    assert_allclose(N2(np.array([-1.0, 0.0, 1.0])), [-50.0, 0.0, 50.0])


def test_statistics_numeric_by_hand():
    norm = normaliser(np.arange(-10.0, 11.0))
    s = ale_statistics_1d([-1.0, 0.0, 2.0], [1, 2, 3], numeric=True, norm=norm)
    # mid-values -0.5, 1 with counts 1 + 2 = 3 and 3
    assert s["aled"] == pytest.approx((0.5 * 3 + 1 * 3) / 6)
    assert (s["aler_min"], s["aler_max"]) == (-1.0, 2.0)
    assert s["naled"] == pytest.approx((abs(norm(np.array([-0.5]))[0]) * 3 + abs(norm(np.array([1.0]))[0]) * 3) / 6)
    assert (s["naler_min"], s["naler_max"]) == tuple(norm(np.array([-1.0, 2.0])))


def test_statistics_non_numeric_by_hand():
    norm = normaliser([0.0, 1.0, 2.0])
    s = ale_statistics_1d([-1.0, 0.5, 3.0], [2, 1, 1], numeric=False, norm=norm)
    assert s["aled"] == pytest.approx((2 + 0.5 + 3) / 4)
    assert (s["aler_min"], s["aler_max"]) == (-1.0, 3.0)


def test_statistics_drop_missing_bins():
    norm = normaliser([0.0, 1.0, 2.0])
    s = ale_statistics_1d([-1.0, 1.0, np.nan, np.nan], [1, 1, 5, 5], numeric=True, norm=norm)
    assert s["aled"] == pytest.approx(0.0)  # one mid-value (0) with count 2
    assert (s["aler_min"], s["aler_max"]) == (-1.0, 1.0)
    only_first = ale_statistics_1d([0.25, np.nan], [3, 4], numeric=True, norm=norm)
    assert math.isnan(only_first["aled"]) and math.isnan(only_first["naled"])
    assert only_first["aler_min"] == only_first["aler_max"] == 0.25
    nothing = ale_statistics_1d([np.nan, np.nan], [1, 1], numeric=False, norm=norm)
    assert (nothing["aler_min"], nothing["aler_max"]) == (math.inf, -math.inf)
    assert math.isnan(nothing["aled"])


def test_statistics_2d_by_hand():
    norm = normaliser(np.arange(-5.0, 6.0))
    y = np.array([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    n = np.array([[1, 2, 3], [4, 5, 6]])
    # numeric x numeric: E[1, l] = (Y[1, l] + Y[0, l-1]) / 2 for l = 1, 2; counts of row 0 added to row 1,
    # then column 0 added to column 1
    s = ale_statistics_2d(y, n, numeric=(True, True), norm=norm)
    mid = np.array([(4 + 0) / 2, (5 + 1) / 2])
    w = np.array([(2 + 5) + (1 + 4), 3 + 6])
    assert s["aled"] == pytest.approx(np.sum(np.abs(mid) * w) / w.sum())
    assert (s["aler_min"], s["aler_max"]) == (2.0, 3.0)
    # categorical x numeric: mid along the second axis only
    s2 = ale_statistics_2d(y, n, numeric=(False, True), norm=norm)
    mid2 = np.array([[0.5, 1.5], [3.5, 4.5]])
    w2 = np.array([[3, 3], [9, 6]])
    assert s2["aled"] == pytest.approx(np.sum(np.abs(mid2) * w2) / w2.sum())
    # non-numeric both: the cells themselves
    s3 = ale_statistics_2d(y, n, numeric=(False, False), norm=norm)
    assert s3["aled"] == pytest.approx(np.sum(y * n) / n.sum())


def test_summarise_statistics():
    reps = [dict.fromkeys(STATISTICS, v) for v in (1.0, 2.0, 4.0, np.nan)]
    s = summarise_statistics(reps, boot_alpha=0.5, boot_centre="median")
    assert s["aled"] == {"estimate": 2.0, "conf.low": 1.5, "mean": 7 / 3, "median": 2.0, "conf.high": 3.0}
    s = summarise_statistics(reps[:1], boot_alpha=0.05, boot_centre="mean")
    assert set(s["naled"].values()) == {1.0}


# --- tables --------------------------------------------------------------------------------


def test_band_summary_counts_the_full_curve_and_drops_missing():
    curves = np.array([[0.0, 10.0], [1.0, np.nan], [np.nan, np.nan], [3.0, 20.0]])
    s = band_summary(curves, boot_alpha=0.5, boot_centre="mean")
    assert_allclose(s[".y_mean"], [4 / 3, 15.0])
    assert_allclose(s[".y_lo"], [0.5, 12.5])
    assert_allclose(s[".y_median"], [1.0, 15.0])
    assert_allclose(s[".y_hi"], [2.0, 17.5])
    assert_array_equal(s[".y"], s[".y_mean"])
    single = band_summary(curves[:1], boot_alpha=0.05, boot_centre="median")
    assert all(np.array_equal(v, [0.0, 10.0]) for v in single.values())


def test_effect_table_1d_columns_and_types():
    summary = band_summary(np.array([[-1.0, 0.0, 1.0]]), boot_alpha=0.05, boot_centre="mean")
    t = effect_table_1d("x", "numeric", [0.1, 1 / 3, 2.0], [1, 4, 5], summary, centre=10.0)
    assert list(t.columns) == ["x.ceil", ".n", ".y", ".y_lo", ".y_mean", ".y_median", ".y_hi"]
    assert t["x.ceil"].tolist() == [0.1, 0.333333333333333, 2.0]
    assert t[".n"].dtype == np.int64 and t[".y"].tolist() == [9.0, 10.0, 11.0]
    c = effect_table_1d("g", "categorical", ["b", "a", "c"], [2, 2, 2], summary)
    assert list(c.columns)[0] == "g.bin"
    assert c["g.bin"].cat.ordered and list(c["g.bin"].cat.categories) == ["b", "a", "c"]


def test_effect_table_2d_first_axis_fastest():
    y = np.arange(6.0).reshape(2, 3)
    summary = band_summary(y[None], boot_alpha=0.05, boot_centre="mean")
    t = effect_table_2d(("g", "x"), ("categorical", "numeric"), (["u", "v"], [1.0, 2.0, 3.0]),
                        np.ones((2, 3), dtype=int), summary)
    assert list(t.columns[:3]) == ["g.bin", "x.ceil", ".n"]
    assert t["g.bin"].astype(str).tolist() == ["u", "v", "u", "v", "u", "v"]
    assert t["x.ceil"].tolist() == [1.0, 1.0, 2.0, 2.0, 3.0, 3.0]
    assert t[".y"].tolist() == [0.0, 3.0, 1.0, 4.0, 2.0, 5.0]


def test_statistics_tables():
    one = {s: {"estimate": i, "conf.low": i - 1, "mean": i, "median": i, "conf.high": i + 1}
           for i, s in enumerate(STATISTICS)}
    long = statistics_long_table([("x", one), ("z", one)])
    assert list(long.columns) == ["term", "statistic", "estimate", "conf.low", "mean", "median", "conf.high"]
    assert long["term"].tolist() == ["x"] * 6 + ["z"] * 6
    assert long["statistic"].tolist()[:6] == list(STATISTICS)
    assert statistics_long_table([("x", one)], ["naled", "aled"])["statistic"].tolist() == ["aled", "naled"]
    wide = statistics_estimate_table([("x", one)])
    assert list(wide.columns) == ["term", *STATISTICS] and wide.iloc[0, 1:].tolist() == list(range(6))


def test_y_summary_single_and_several_columns():
    t = y_summary(np.arange(1.0, 101.0), ["y"], "y")
    assert list(t.columns) == ["y"]
    assert t.index[:3].tolist() == ["min", "1%", "2.5%"] and t.index[-1] == "max"
    assert t.loc["50%", "y"] == 50.5 and t.loc["mean", "y"] == 50.5
    assert t.loc["min", "y"] == t.loc["1%", "y"] and t.loc["max", "y"] == t.loc["99%", "y"]
    p = np.array([[0.2, 0.8], [0.4, 0.6], [0.9, 0.1]])
    t2 = y_summary(p, ["a", "b"], "cls")
    assert list(t2.columns) == ["cls", "a", "b"]
    assert t2.loc["min"].tolist() == [0.0, 0.0, 0.0] and t2.loc["max"].tolist() == [1.0, 1.0, 1.0]
    assert t2.loc["mean"].tolist() == [0.5, 0.5, 0.5]  # R: the mean of every value, in every column
    assert t2.loc["50%", "cls"] == r_median([0.4, 0.6])


# --- arguments ------------------------------------------------------------------------------

FRAME = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": [3.0, 1.0, 2.0], "c": ["u", "v", "u"], "y": [0.0, 1.0, 5.0]})


def test_resolve_x_cols_forms_and_orders():
    cols = FRAME.columns
    assert resolve_x_cols(None, cols, "y") == (("a", "b", "c"), (), ("a", "b", "c"), ())
    assert resolve_x_cols("b:a", cols, "y") == ((), (("b", "a"),), (), (("b", "a"),))
    got = resolve_x_cols(["c", "a", ("b", "a"), "a:c", "a", "a:b", "b:a"], cols, "y")
    assert got == (("c", "a"), (("b", "a"), ("a", "c"), ("a", "b")), ("a", "c"),
                   (("a", "b"), ("a", "c"), ("b", "a")))
    assert resolve_x_cols({"d2": True}, cols, "y")[1] == (("a", "b"), ("a", "c"), ("b", "c"))
    assert resolve_x_cols({"d1": ["b"], "d2": ["a:c"]}, cols, "y")[:2] == (("b",), (("a", "c"),))


BAD = [
    (dict(max_num_bins=1), ValueError, "The 'max_num_bins' parameter of ALE must be a whole number >= 2. Got 1 instead."),
    (dict(max_num_bins=2.5), ValueError, "The 'max_num_bins' parameter of ALE must be a whole number >= 2. Got 2.5 instead."),
    (dict(max_num_bins="10"), TypeError, "The 'max_num_bins' parameter of ALE must be a whole number >= 2. Got '10' instead."),
    (dict(boot_it=-1), ValueError, "The 'boot_it' parameter of ALE must be a whole number >= 0. Got -1 instead."),
    (dict(boot_it=True), TypeError, "The 'boot_it' parameter of ALE must be a whole number >= 0. Got True instead."),
    (dict(boot_alpha=1.5), ValueError, "The 'boot_alpha' parameter of ALE must be a float in [0, 1]. Got 1.5 instead."),
    (dict(boot_alpha="0.05"), TypeError, "The 'boot_alpha' parameter of ALE must be a float in [0, 1]. Got '0.05' instead."),
    (dict(boot_centre="mode"), ValueError, "The 'boot_centre' parameter of ALE must be 'mean' or 'median'. Got 'mode' instead."),
    (dict(seed=1.5), ValueError,
     "The 'seed' parameter of ALE must be a whole number from -2147483647 to 2147483647. Got 1.5 instead."),
    (dict(seed=3e9), ValueError,
     "The 'seed' parameter of ALE must be a whole number from -2147483647 to 2147483647. Got 3000000000.0 instead."),
    (dict(pred_type=1), TypeError, "The 'pred_type' parameter of ALE must be a str. Got 1 instead."),
    (dict(pred_fun="predict"), TypeError,
     "The 'pred_fun' parameter of ALE must be None or a callable pred_fun(object, newdata, type). Got str instead."),
    (dict(y_col="w"), ValueError, "The 'y_col' parameter of ALE must be a column of 'data'. Got 'w' instead."),
    (dict(x_cols=["a", "q"]), ValueError, "The 'x_cols' parameter of ALE names 'q', which is not a column of 'data'."),
    (dict(x_cols=["a:b:c"]), ValueError,
     "The 'x_cols' parameter of ALE takes 1-D terms and 2-D terms (pairs); ale supports no higher interactions. "
     "Got 'a:b:c' instead."),
    (dict(x_cols=["a:a"]), ValueError, "The 'x_cols' parameter of ALE pairs column 'a' with itself in 'a:a'."),
    (dict(x_cols=["y"]), ValueError, "The 'x_cols' parameter of ALE names the response column 'y' in 'y'."),
    (dict(x_cols=[]), ValueError, "The 'x_cols' parameter of ALE must name at least one term. Got [] instead."),
    (dict(x_cols={"d3": True}), ValueError, "The 'x_cols' parameter of ALE takes the keys 'd1' and 'd2'. Got ['d3'] instead."),
    (dict(x_cols=5), TypeError, "The 'x_cols' parameter of ALE must be None, a column name, a sequence of terms"),
    (dict(data=FRAME.assign(b=[1.0, np.nan, 2.0])), ValueError,
     "The 'data' parameter of ALE must not have missing values (R's ale refuses them). Column 'b' has 1 missing value(s)."),
    (dict(data=[[1, 2]]), TypeError, "The 'data' parameter of ALE must be a pandas DataFrame. Got list instead."),
]


@pytest.mark.parametrize(("override", "error", "message"), BAD)
def test_argument_errors(override, error, message):
    args = dict(model=None, x_cols=["a"], data=FRAME, y_col="y")
    args.update(override)
    with pytest.raises(error, match=re.escape(message)):
        check_ale_arguments(args.pop("model"), args.pop("x_cols"), args.pop("data"), args.pop("y_col"), **args)


def test_arguments_normalised_and_r_call():
    a = check_ale_arguments(None, ["b", "a:c"], FRAME, "y", max_num_bins=4.0, seed=-3.0, boot_it=2)
    assert (a.max_num_bins, a.seed, a.boot_it, a.boot_alpha) == (4, -3, 2, 0.05)
    assert a.terms_1d == ("b",) and a.terms_2d == (("a", "c"),)
    assert r_call(a, model="fit") == (
        'ale::ALE(fit, x_cols = c("b", "a:c"), data = data, y_col = "y", pred_type = "response", '
        'max_num_bins = 4, boot_it = 2, boot_alpha = 0.05, boot_centre = "mean", seed = -3, parallel = 0, '
        "p_values = NULL, output_stats = TRUE, silent = TRUE)")


def test_the_r_tables_list_r_statistics_each_defined_once_in_the_core():
    """pyale.ALE's rows are R's own list; each is computed by the core's one definition of the statistic, so a
    statistic added to the core (served by pyale.ale) does not change R's tables."""
    from pyale._core.reduce.stats import STATISTICS as CORE

    assert STATISTICS == ("aled", "aler_min", "aler_max", "naled", "naler_min", "naler_max")
    assert set(STATISTICS) <= set(CORE)
