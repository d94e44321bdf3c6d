"""Every refusal is a clear message; odd but legitimate inputs get a correct answer.

One table of exact messages for bad arguments of every entry point (each
case also checks that the caller's frame is unchanged), then the inputs that
used to fail or give wrong numbers and now work: datetime covariates in the
level ordering, level orders given as arrays, integer parameters given as
NumPy integers or whole floats, integer columns whose grid values do not fit
their dtype, pairs inside ``ale``'s feature list.
"""

from __future__ import annotations

import re
import warnings

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from pandas.testing import assert_frame_equal

import pyale
from pyale import ALEPlot, FeatureEffect, FeatureEffects, PDPlot, PredictionError, Predictor, ale


def make_frame(n: int = 60, seed: int = 3) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    g = rng.choice(list("abc"), n)
    return pd.DataFrame({
        "x": rng.normal(size=n) + (g == "b"),
        "z": rng.normal(size=n),
        "k": rng.integers(0, 10, n),
        "g": pd.Categorical(g),
    })


X = make_frame()


def f(d: pd.DataFrame) -> np.ndarray:
    """An additive model: slope 1 in x, +k/2 at level 'b'."""
    return np.asarray(d["x"], dtype=float) + 0.5 * np.asarray(d["k"], dtype=float) * (np.asarray(d["g"]) == "b")


def f2(_, d):
    return f(d)


def predictor(data=X, **kwargs):
    return Predictor(predict_function=f, data=data, **kwargs)


MULTI = pd.DataFrame(X.to_numpy()[:, :2].astype(float), columns=pd.MultiIndex.from_tuples([("a", "x"), ("a", "y")]))
# a flat index of tuples, where ("x", "z") is a column and also a pair of columns
AMBIGUOUS = pd.DataFrame({"x": X["x"], "z": X["z"], "xz": X["x"] * X["z"]}).set_axis(
    pd.Index(["x", "z", ("x", "z")], tupleize_cols=False), axis=1)
MULTI_MSG = ("The {p!r} parameter of {c} has MultiIndex columns (e.g. ('a', 'x')); pyale needs one label per "
             "column. Flatten them first: {p}.columns = {p}.columns.to_flat_index() keeps each column's tuple as "
             "its label.")


def int_message(param, caller, value):
    return f"The {param!r} parameter of {caller} must be an int >= 1. Got {value!r} instead."


def level_message(caller, got, tail):
    return (f"The 'level_order' parameter of {caller} must list each level of column 'g' that occurs in the "
            f"data exactly once: ['a', 'b', 'c']. Got {got!r}, which {tail}.")


BAD_INTEGERS = [float("nan"), float("inf"), 2.5, "3", True, np.array([3]), [3], np.float64(2.5)]

CASES = [
    # --- frames with tuple labels (MultiIndex columns), every front-end ---
    ("multiindex ALEPlot", lambda: ALEPlot(MULTI, None, f2, 0, plot=False), ValueError,
     MULTI_MSG.format(p="X", c="ALEPlot")),
    ("multiindex PDPlot", lambda: PDPlot(MULTI, None, f2, 0, K=5, plot=False), ValueError,
     MULTI_MSG.format(p="X", c="PDPlot")),
    ("multiindex ale", lambda: ale(f, MULTI, 0), ValueError, MULTI_MSG.format(p="X", c="ale")),
    ("multiindex Predictor", lambda: Predictor(predict_function=f, data=MULTI), ValueError,
     MULTI_MSG.format(p="data", c="Predictor")),
    ("ambiguous tuple ALEPlot", lambda: ALEPlot(AMBIGUOUS, None, f2, ("x", "z"), plot=False), ValueError,
     "The 'J' parameter of ALEPlot is ambiguous: ('x', 'z') is a column and also a pair of columns. Pass its "
     "position 2 for the one column, or the list ['x', 'z'] for the pair."),
    ("ambiguous tuple PDPlot", lambda: PDPlot(AMBIGUOUS, None, f2, ("x", "z"), K=3, plot=False), ValueError,
     "The 'J' parameter of PDPlot is ambiguous: ('x', 'z') is a column and also a pair of columns."),
    ("ambiguous tuple ale", lambda: ale(f, AMBIGUOUS, ("x", "z")), ValueError,
     "The 'features' parameter of ale is ambiguous: ('x', 'z') is a column and also a pair of columns. Pass its "
     "position 2 for the one column, or [['x', 'z']] for the pair."),
    ("ambiguous tuple in ale's list", lambda: ale(f, AMBIGUOUS, ["x", ("x", "z")]), ValueError,
     "The 'features' parameter of ale is ambiguous: ('x', 'z') is a column and also a pair of columns."),
    # --- level_order: any array-like of the levels, compared by value ---
    ("level_order missing", lambda: ALEPlot(X, None, f2, "g", plot=False, level_order=np.array(["c", "a"])),
     ValueError, level_message("ALEPlot", ["c", "a"], "lacks ['b']")),
    ("level_order repeated", lambda: ale(f, X, "g", level_order=["c", "a", "b", "a"]), ValueError,
     level_message("ale", ["c", "a", "b", "a"], "repeats ['a']")),
    ("level_order unknown", lambda: ale(f, X, "g", level_order=pd.Index(["c", "a", "b", "z"])), ValueError,
     level_message("ale", ["c", "a", "b", "z"], "names unknown level(s) ['z']")),
    ("level_order string", lambda: ale(f, X, "g", level_order="cab"), TypeError,
     "The 'level_order' parameter of ale must be a sequence of the levels of column 'g' (a list, array or "
     "pandas Index). Got 'cab' instead."),
    ("level_order nested", lambda: ALEPlot(X, None, f2, "g", plot=False, level_order=[["c", "a", "b"]]), TypeError,
     "The 'level_order' parameter of ALEPlot must be a sequence of the levels of column 'g' (a list, array or "
     "pandas Index). Got [['c', 'a', 'b']] instead."),
    ("level_order numeric feature", lambda: ALEPlot(X, None, f2, "x", plot=False, level_order=["a"]), ValueError,
     "The 'level_order' parameter of ALEPlot applies to a categorical feature; column 'x' is numeric."),
    ("level_order numeric feature ale", lambda: ale(f, X, "x", level_order=["a"]), ValueError,
     "The 'level_order' parameter of ale applies to a categorical feature; column 'x' is numeric."),
    ("level_order numeric pair ale", lambda: ale(f, X, ("x", "z"), level_order=["a"]), ValueError,
     "The 'level_order' parameter of ale applies to a categorical feature; columns 'x' and 'z' are numeric."),
    # --- center_at ---
    ("center_at nan", lambda: FeatureEffect(predictor(), "x", method="pdp", center_at=float("nan")), ValueError,
     "The 'center_at' parameter of FeatureEffect must be a finite number (or a level of a categorical feature). "
     "Got nan instead."),
    ("center_at inf", lambda: FeatureEffect(predictor(), "x", method="pdp", center_at=np.float64("inf")), ValueError,
     "The 'center_at' parameter of FeatureEffect must be a finite number (or a level of a categorical feature). "
     "Got inf instead."),
    ("center_at nan with ALE", lambda: FeatureEffect(predictor(), "x", center_at=float("nan")), ValueError,
     "The 'center_at' parameter of FeatureEffect must be a finite number"),
    ("center_at bool", lambda: FeatureEffect(predictor(), "x", method="pdp", center_at=True), TypeError,
     "The 'center_at' parameter of FeatureEffect must be a number (or a level of a categorical feature). "
     "Got True instead."),
    ("center_at array", lambda: FeatureEffect(predictor(), "x", method="pdp", center_at=np.array([1.0])), TypeError,
     "The 'center_at' parameter of FeatureEffect must be a number (or a level of a categorical feature). "
     "Got array([1.]) instead."),
    ("center_at FeatureEffects", lambda: FeatureEffects(predictor(), ["x"], method="pdp", center_at=float("nan")),
     ValueError, "The 'center_at' parameter of FeatureEffects must be a finite number"),
    # --- grids given as numbers ---
    ("grid strings", lambda: ale(f, X, "x", grid=["-9", "9"]), TypeError,
     "The 'grid' parameter of ale must hold numbers for column 'x'. Got ['-9', '9'] instead."),
    ("grid nested", lambda: ale(f, X, "x", grid=[[-9.0, 0.0, 9.0]]), TypeError,
     "The 'grid' parameter of ale must hold numbers for column 'x'. Got [[-9.0, 0.0, 9.0]] instead."),
    ("grid nan", lambda: ale(f, X, "x", grid=[-9.0, float("nan"), 9.0]), ValueError,
     "The 'grid' parameter of ale must hold at least two distinct finite values for column 'x'."),
    ("grid flat for a pair", lambda: ale(f, X, ("x", "z"), grid=[-9.0, 9.0, 10.0]), ValueError,
     "The 'grid' parameter of ale must be a pair of sequences (or None) for the pair ('x', 'z'), one per "
     "feature. Got [-9.0, 9.0, 10.0] instead."),
    ("grid categorical", lambda: ale(f, X, "g", grid=[0.0, 1.0]), ValueError,
     "The 'grid' parameter of ale applies to a numeric feature; column 'g' is categorical"),
    ("grid_points strings", lambda: FeatureEffect(predictor(), "x", grid_points=["0", "1"]), TypeError,
     "The 'grid_points' parameter of FeatureEffect must hold numbers for feature 'x'. Got ['0', '1'] instead."),
    ("grid_points bools", lambda: FeatureEffect(predictor(), "x", method="pdp", grid_points=[True, False]), TypeError,
     "The 'grid_points' parameter of FeatureEffect must hold numbers for feature 'x'. Got [True, False] instead."),
    ("grid_points nested level", lambda: FeatureEffect(predictor(), "g", method="pdp", grid_points=[["a"]]), TypeError,
     "The 'grid_points' parameter of FeatureEffect must hold levels of feature 'g'. Got [['a']] instead."),
    ("level_order for a list without categoricals", lambda: ale(f, X, ["x", "z"], level_order=["a"]), ValueError,
     "The 'level_order' parameter of ale applies to categorical features; none of the requested features is "
     "categorical."),
    ("grid for a list of categoricals", lambda: ale(f, X, ["g"], grid=[0.0, 1.0]), ValueError,
     "The 'grid' parameter of ale applies to numeric features; every requested feature is categorical."),
    # --- choices ---
    ("conventions type", lambda: ale(f, X, "x", conventions=None), TypeError,
     "The 'conventions' parameter of ale must be one of ['aleplot', 'iml', 'ale']. Got None instead."),
    ("method array", lambda: FeatureEffect(predictor(), "x", method=np.array(["ale"])), TypeError,
     "The 'method' parameter of FeatureEffect must be one of ['ale', 'pdp', 'ice', 'pdp+ice']. "
     "Got array(['ale'], dtype='<U3') instead."),
    # --- features / J / feature ---
    ("features empty", lambda: ale(f, X, []), ValueError,
     "The 'features' parameter of ale must name at least one feature. Got [] instead."),
    ("features pair too long", lambda: ale(f, X, [["x", "z", "k"]]), ValueError,
     "The 'features' parameter of ale must be one column or a pair of columns. Got 3 items (['x', 'z', 'k']) instead."),
    ("features pair twice", lambda: ale(f, X, [("x", 0)]), ValueError,
     "The 'features' parameter of ale must name two different columns. Got ['x', 0], which both name column 'x'."),
    ("features nested deeper", lambda: ale(f, X, [[["x"], "z"]]), TypeError,
     "The 'features' parameter of ale must be a column name or a 0-based column position. Got ['x'] instead."),
    ("ale pair categorical second", lambda: ale(f, X, ("x", "g")), ValueError,
     "Column 'g' (features[1]) is categorical: ale needs the categorical feature first. "
     "Swap them: features=('g', 'x')."),
    ("ale two categoricals", lambda: ale(f, X.assign(h=X["g"]), [("g", "h")]), ValueError,
     "ale does not support a pair of two categorical features ('g', 'h')"),
    ("J empty", lambda: ALEPlot(X, None, f2, [], plot=False), ValueError,
     "The 'J' parameter of ALEPlot must be one column or a pair of columns. Got 0 items ([]) instead."),
    ("FeatureEffects empty", lambda: FeatureEffects(predictor(), []), ValueError,
     "The 'features' parameter of FeatureEffects must name at least one feature (None: all). Got [] instead."),
    ("FeatureEffects repeated", lambda: FeatureEffects(predictor(), ["x", "z", "x"]), ValueError,
     "The 'features' parameter of FeatureEffects must name each feature once. Got ['x'] more than once."),
    ("FeatureEffects array element", lambda: FeatureEffects(predictor(), [np.array(["x"])]), ValueError,
     "The 'features' parameter of FeatureEffects must name features of the predictor's data. "
     "Got unknown [array(['x'], dtype='<U1')]"),
    ("feature array element", lambda: FeatureEffect(predictor(), [np.array(["x"]), "z"]), ValueError,
     "The 'feature' parameter of FeatureEffect must name features of the predictor's data (or 0-based "
     "positions). Got array(['x'], dtype='<U1')"),
    ("level_order ragged", lambda: ale(f, X, "g", level_order=["a", ["b", "c"]]), TypeError,
     "The 'level_order' parameter of ale must be a sequence of the levels of column 'g' (a list, array or "
     "pandas Index). Got ['a', ['b', 'c']] instead."),
    # --- FeatureEffect.predict and FeatureEffects.plot ---
    ("predict strings", lambda: FeatureEffect(predictor(), "x").predict(["a"]), TypeError,
     "The 'data' parameter of FeatureEffect.predict must hold numbers for feature 'x'. Got ['a'] instead."),
    ("predict frame without the feature", lambda: FeatureEffect(predictor(), "x").predict(X[["z"]]), ValueError,
     "The 'data' parameter of FeatureEffect.predict must hold the feature column 'x'. Got a frame with columns ['z']."),
    ("predict None", lambda: FeatureEffect(predictor(), "x").predict(None), TypeError,
     "The 'data' parameter of FeatureEffect.predict must be a DataFrame holding the feature or the feature's "
     "values. Got None instead."),
    ("plot ncols 0", lambda: FeatureEffects(predictor(), ["x"]).plot(ncols=0), ValueError,
     "The 'ncols' parameter of FeatureEffects.plot must be an int >= 1. Got 0 instead."),
    ("plot nrows nan", lambda: FeatureEffects(predictor(), ["x"]).plot(nrows=float("nan")), TypeError,
     "The 'nrows' parameter of FeatureEffects.plot must be an int >= 1. Got nan instead."),
    # --- columns ALE cannot read ---
    ("mixed object feature", lambda: ale(lambda d: np.zeros(len(d)), X.assign(x=pd.Series([1, "a"] * 30, dtype=object)), "x"),
     TypeError, "Column 'x' has dtype object which is neither numeric nor categorical (numbers, pandas Categorical, "
     "or strings); it holds int and str values. Convert it first, e.g. with pd.to_numeric(...) or .astype(str)."),
    ("date objects covariate", lambda: ale(f, X.assign(t=list(pd.date_range("2020", periods=60).date)), "g"),
     TypeError, "Column 't' has dtype object; the categorical level ordering can use numeric, boolean, date-time, "
     "categorical or string columns only; it holds datetime.date values. Convert it first (e.g. pd.to_datetime, "
     "pd.to_numeric or .astype(str)), or leave it out of X."),
    ("span overflows", lambda: ALEPlot(X.assign(x=np.r_[-1.7e308, 1.7e308, np.zeros(58)]), None, f2, "x", plot=False),
     ValueError, "Column 'x' (J) spans [-1.7e+308, 1.7e+308], a width that overflows float64 (max - min is "
     "infinite), so interval widths and grid steps cannot be computed. Rescale it first (e.g. divide it by a "
     "power of ten)."),
    ("missing before the model", lambda: ale(f, X.assign(x=np.nan), "x"), ValueError,
     "Column 'x' has 60 missing value(s) (first at index 0); ALE needs complete data in the feature."),
    # --- predictions that overflow when differenced or averaged ---
    ("overflowing ALE", lambda: ALEPlot(X, None, lambda m, d: np.sign(d["x"].to_numpy()) * 1.7e308, "x", K=5,
                                         plot=False),
     PredictionError, "The ALE of 'x' is not finite: differences or sums of the model's predictions overflow "
     "float64 (the predictions are too close to +-1.8e308). Rescale the model's output."),
    ("overflowing PD", lambda: PDPlot(X, None, lambda m, d: np.sign(d["z"].to_numpy()) * 1.7e308, "x", K=5,
                                       plot=False),
     PredictionError, "The mean prediction for partial dependence of 'x' is not finite"),
    ("overflowing iml PDP", lambda: FeatureEffect(Predictor(predict_function=lambda d: np.sign(d["z"]) * 1.7e308,
                                                            data=X), "x", method="pdp", grid_size=3),
     PredictionError, "The pdp of 'x' is not finite"),
    ("overflowing pair", lambda: ale(lambda d: np.sign(d["x"] * d["z"]) * 1.7e308, X, ("x", "z"), n_intervals=3),
     PredictionError, "The ALE of ('x', 'z') is not finite"),
]

# Integer parameters of every entry point, each with every kind of bad value.
INTEGER_PARAMETERS = [
    ("K", "ALEPlot", lambda v: ALEPlot(X, None, f2, "x", K=v, plot=False)),
    ("max_rows_per_call", "ALEPlot", lambda v: ALEPlot(X, None, f2, "x", plot=False, max_rows_per_call=v)),
    ("K", "PDPlot", lambda v: PDPlot(X, None, f2, "x", K=v, plot=False)),
    ("max_rows_per_call", "PDPlot", lambda v: PDPlot(X, None, f2, "x", K=3, plot=False, max_rows_per_call=v)),
    ("n_intervals", "ale", lambda v: ale(f, X, "x", n_intervals=v)),
    ("max_rows_per_call", "ale", lambda v: ale(f, X, "x", max_rows_per_call=v)),
    ("batch_size", "Predictor", lambda v: predictor(batch_size=v)),
    ("grid_size", "FeatureEffect", lambda v: FeatureEffect(predictor(), "x", grid_size=v)),
    ("grid_size", "FeatureEffect", lambda v: FeatureEffect(predictor(), ["x", "z"], grid_size=[4, v])),
    ("max_rows_per_call", "FeatureEffect", lambda v: FeatureEffect(predictor(), "x", max_rows_per_call=v)),
    ("grid_size", "FeatureEffects", lambda v: FeatureEffects(predictor(), ["x"], grid_size=v)),
    ("max_rows_per_call", "FeatureEffects", lambda v: FeatureEffects(predictor(), ["x"], max_rows_per_call=v)),
]
for param, caller, call in INTEGER_PARAMETERS:
    for value in BAD_INTEGERS:
        if param == "grid_size" and isinstance(value, (list, np.ndarray)) and caller == "FeatureEffect":
            continue  # a sequence of sizes: covered below
        message = int_message(param, caller, value)
        if (caller, param) == ("ale", "n_intervals") and isinstance(value, str):  # n_intervals="auto" exists
            message = message.replace("an int >= 1.", "an int >= 1 or 'auto'.")
        CASES.append((f"{caller}.{param}={value!r}", (lambda c, v: lambda: c(v))(call, value), TypeError, message))
    for value in (0, -1, np.int64(0), -3.0):
        CASES.append((f"{caller}.{param}={value!r}", (lambda c, v: lambda: c(v))(call, value), ValueError,
                      int_message(param, caller, value)))
CASES.append(("FeatureEffect.grid_size nested", lambda: FeatureEffect(predictor(), "x", grid_size=[[3]]), TypeError,
              int_message("grid_size", "FeatureEffect", [3])))


@pytest.mark.parametrize("build, error, message", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_refusals_are_clear(build, error, message):
    before = X.copy(deep=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's own overflow notes beside the refusal
        with pytest.raises(error, match=re.escape(message)):
            build()
    assert_frame_equal(X, before)


# --- integers given as NumPy integers or whole floats (R's K = 40 is a double) -------------------

@pytest.mark.parametrize("value", [np.int64(7), np.int32(7), 7.0, np.float64(7.0), np.uint8(7)])
def test_integer_parameters_accept_numpy_integers_and_whole_floats(value):
    assert_array_equal(ALEPlot(X, None, f2, "x", K=value, plot=False).f_values,
                       ALEPlot(X, None, f2, "x", K=7, plot=False).f_values)
    assert_array_equal(PDPlot(X, None, f2, "x", K=value, plot=False).f_values,
                       PDPlot(X, None, f2, "x", K=7, plot=False).f_values)
    assert_array_equal(ale(f, X, "x", n_intervals=value, max_rows_per_call=value * 3).effects,
                       ale(f, X, "x", n_intervals=7).effects)
    expected = FeatureEffect(predictor(), "x", grid_size=7).results
    assert_frame_equal(FeatureEffect(predictor(batch_size=value), "x", grid_size=value,
                                     max_rows_per_call=value * 3).results, expected)
    assert_frame_equal(FeatureEffects(predictor(), ["x"], grid_size=value).results["x"],
                       FeatureEffects(predictor(), ["x"], grid_size=7).results["x"])


# --- level_order: array-likes compared by value --------------------------------------------------

@pytest.mark.parametrize("order", [
    ["c", "a", "b"],
    np.array(["c", "a", "b"]),  # np.str_ elements (their repr differs under NumPy 2)
    np.array(["c", "a", "b"], dtype=object),
    pd.Index(["c", "a", "b"]),
    pd.Series(["c", "a", "b"]),
    pd.Categorical(["c", "a", "b"]),
    ("c", "a", "b"),
], ids=["list", "str array", "object array", "Index", "Series", "Categorical", "tuple"])
def test_level_order_accepts_any_array_like(order):
    expected = ALEPlot(X, None, f2, "g", plot=False, level_order=["c", "a", "b"])
    got = ALEPlot(X, None, f2, "g", plot=False, level_order=order)
    assert got.x_values == ["c", "a", "b"]
    assert_array_equal(got.f_values, expected.f_values)
    assert ale(f, X, "g", level_order=order).level_order == ("c", "a", "b")


def test_level_order_may_list_categories_without_rows_and_matches_numbers_by_value():
    unused = X.assign(g=pd.Categorical(X["g"].astype(str), categories=list("dcab")))
    assert ale(f, unused, "g", level_order=list("dcab")).level_order == ("c", "a", "b")
    codes = X.assign(g=pd.Categorical(X["g"].cat.codes.to_numpy() + 1))  # categories 1, 2, 3
    res = ale(lambda d: np.asarray(d["x"], float), codes, "g", level_order=np.array([3.0, 1.0, 2.0]))
    assert res.level_order == (3, 1, 2)


# --- datetime covariates in the level ordering --------------------------------------------------

def _time_columns(n, rng):
    offsets = rng.integers(0, 10**6, n)
    naive = pd.Series(pd.Timestamp("2021-03-01") + pd.to_timedelta(offsets, unit="s"))
    with_nat = naive.copy()
    with_nat.iloc[[2, 7]] = pd.NaT
    return {
        "naive": (naive, offsets.astype(float)),
        "tz-aware": (naive.dt.tz_localize("America/New_York"), offsets.astype(float)),
        "with NaT": (with_nat, np.where(with_nat.isna(), np.nan, offsets.astype(float))),
        "timedelta": (pd.Series(pd.to_timedelta(offsets, unit="ms")), offsets.astype(float)),
        "period": (pd.Series(pd.Period("2000-01", freq="M") + (offsets % 500)), (offsets % 500).astype(float)),
        "ns near 2**63": (pd.Series(pd.Timestamp("2260-01-01") + pd.to_timedelta(offsets, unit="ns")),
                          offsets.astype(float)),
    }


@pytest.mark.parametrize("kind", ["naive", "tz-aware", "with NaT", "timedelta", "period", "ns near 2**63"])
def test_datetime_covariates_order_levels_as_their_numbers_do(kind):
    """The level distance depends only on the covariate's order: a date column gives what its numbers give."""
    rng = np.random.default_rng(11)
    n = 90
    g = rng.choice(list("pqrs"), n)
    column, numbers = _time_columns(n, rng)[kind]
    # make the time column informative about the level, so it decides the order
    shift = pd.Series(g).map({"p": 0, "q": 3, "r": 1, "s": 2}).to_numpy()
    order = np.argsort(numbers + shift * 1e7 if kind != "period" else numbers + shift * 1000, kind="stable")
    column = column.iloc[np.argsort(order)].reset_index(drop=True)
    numbers = numbers[np.argsort(order)]
    frame = pd.DataFrame({"g": pd.Categorical(g), "x": rng.normal(size=n), "t": column})
    as_numbers = frame.assign(t=numbers)
    model = lambda d: np.asarray(d["x"], float) + (np.asarray(d["g"]) == "q")  # noqa: E731
    got = ale(model, frame, "g")
    expected = ale(model, as_numbers, "g")
    assert got.level_order == expected.level_order
    assert_allclose(got.effects, expected.effects, rtol=1e-12, atol=1e-12)
    got_plot = ALEPlot(frame, None, lambda m, d: model(d), "g", plot=False)
    assert got_plot.x_values == list(expected.level_order)


def _arrow_times(kind, numpy_column):
    """An Arrow-backed column of ``kind`` and the datetime64/timedelta64 column it stands for."""
    pa = pytest.importorskip("pyarrow")
    if kind == "timestamp[ns]":
        return numpy_column.astype(pd.ArrowDtype(pa.timestamp("ns"))), numpy_column
    if kind == "timestamp[us, tz]":
        aware = numpy_column.dt.tz_localize("America/New_York")
        return aware.astype(pd.ArrowDtype(pa.timestamp("us", tz="America/New_York"))), aware
    if kind == "date32":
        midnight = numpy_column.dt.normalize()
        dates = pa.array(midnight.to_numpy(), from_pandas=True).cast(pa.date32())
        return pd.Series(dates, dtype=pd.ArrowDtype(pa.date32())), midnight
    assert kind == "duration[ms]"
    spans = numpy_column - pd.Timestamp("2021-01-01")
    return spans.astype(pd.ArrowDtype(pa.duration("ms"))), spans


@pytest.mark.parametrize("kind", ["timestamp[ns]", "timestamp[us, tz]", "date32", "duration[ms]"])
def test_arrow_date_time_covariates_give_the_numbers_of_their_numpy_equivalents(kind):
    # ArrowExtensionArray has no .asi8: ale() failed with an AttributeError on pandas and on Dask.
    rng = np.random.default_rng(12)
    n = 90
    g = rng.choice(list("pqrs"), n)
    days = rng.integers(0, 300, n) + pd.Series(g).map({"p": 0, "q": 900, "r": 300, "s": 600}).to_numpy()
    numpy_column = pd.Series(pd.Timestamp("2021-03-01") + pd.to_timedelta(days * 86400 + rng.integers(0, 999, n), unit="s"))
    numpy_column.iloc[[2, 7]] = pd.NaT
    arrow_column, equivalent = _arrow_times(kind, numpy_column)
    frame = pd.DataFrame({"g": pd.Categorical(g), "x": rng.normal(size=n), "t": arrow_column})
    as_numpy = frame.assign(t=equivalent)
    model = lambda d: np.asarray(d["x"], float) + (np.asarray(d["g"]) == "q")  # noqa: E731
    expected = ale(model, as_numpy, "g")
    assert expected.level_order != ("p", "q", "r", "s")  # the time column decides the order
    assert_frame_equal(ale(model, frame, "g").to_frame(), expected.to_frame(), check_exact=True)
    got_plot = ALEPlot(frame, None, lambda m, d: model(d), "g", plot=False)
    assert_frame_equal(got_plot.to_frame(), ALEPlot(as_numpy, None, lambda m, d: model(d), "g", plot=False).to_frame(),
                       check_exact=True)
    dd = pytest.importorskip("dask.dataframe")
    # On Dask a date-time covariate is refused (ranks need the whole column), Arrow-backed or not.
    message = ("; pyale orders the levels of 'g' by the ranks of date-time columns, which need the whole column in "
               "memory, so it cannot use it on a {}. Convert it to numbers first")
    for data in (as_numpy, frame):
        with pytest.raises(TypeError, match=re.escape(f"Column 't' holds date-times (dtype {data['t'].dtype})"
                                                      + message.format("Dask DataFrame"))):
            ale(model, dd.from_pandas(data, npartitions=3), "g")
    # So it is on a polars LazyFrame (its blocks reach pandas as the collected frame's do).
    pl = pytest.importorskip("polars")
    lazy = pl.from_pandas(as_numpy).lazy()
    dtype = lazy.collect().to_pandas()["t"].dtype
    with pytest.raises(TypeError, match=re.escape(f"Column 't' holds date-times (dtype {dtype})"
                                                  + message.format("polars LazyFrame"))):
        ale(lambda d: model(d.to_pandas()), lazy, "g")


# --- integer columns whose grid values do not fit their dtype --------------------------------------

def _spy(model):
    seen = []

    def predict(d):
        seen.append(d["u"].copy())
        return model(d)

    return predict, seen


@pytest.mark.parametrize("dtype, values", [
    ("uint64", np.sort(np.random.default_rng(5).integers(0, 2**63, 200, dtype=np.uint64)) * np.uint64(2) + np.uint64(1)),
    ("uint64 top", np.uint64(2**64 - 1) - np.arange(0, 400, 2, dtype=np.uint64) * np.uint64(2**52)),
    ("int64 2**53+1", np.arange(200, dtype=np.int64) + 2**53 + 1),
    ("int64 near 2**63", np.int64(2**63 - 1) - np.arange(200, dtype=np.int64) * 2**50),
    ("UInt64", pd.array(np.uint64(2**64 - 1) - np.arange(0, 400, 2, dtype=np.uint64) * np.uint64(2**52), dtype="UInt64")),
    ("Int64", pd.array(np.arange(200, dtype=np.int64) * 3 + 2**60 + 1, dtype="Int64")),
])
def test_an_increasing_model_gives_a_non_decreasing_ale_equal_to_float64_data(dtype, values):
    rng = np.random.default_rng(2)
    frame = pd.DataFrame({"u": values, "z": rng.normal(size=200)})
    as_float = frame.assign(u=frame["u"].to_numpy(dtype=float))
    model = lambda d: np.asarray(d["u"], dtype=float) / 2.0**60 + np.asarray(d["z"])  # noqa: E731
    spy, seen = _spy(model)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = ALEPlot(frame, None, lambda m, d: spy(d), "u", K=15, plot=False)
        got_ale = ale(spy, frame, "u", conventions="iml", n_intervals=15)
        got_fe = FeatureEffect(Predictor(predict_function=spy, data=frame), "u", grid_size=15).results
    assert any("float64 cannot represent exactly" in str(w.message) for w in caught)
    expected = ALEPlot(as_float, None, lambda m, d: model(d), "u", K=15, plot=False)
    assert np.all(np.diff(got.f_values) >= 0)
    assert_array_equal(got.x_values, expected.x_values)
    assert_allclose(got.f_values, expected.f_values, rtol=1e-12, atol=1e-12)
    expected_iml = ale(model, as_float, "u", conventions="iml", n_intervals=15)
    assert np.all(np.diff(got_ale.effects[:, 0]) >= 0)
    assert_allclose(got_ale.effects, expected_iml.effects, rtol=1e-12, atol=1e-12)
    assert_allclose(got_fe[".value"], expected_iml.effects[:, 0], rtol=1e-12, atol=1e-12)
    # every value the model saw is an edge of the float64 grid, never a wrapped-around integer
    edges = set(expected.x_values.tolist()) | set(expected_iml.grid[0].tolist())
    for column in seen:
        assert set(column.to_numpy(dtype=float).tolist()) <= edges


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
                                   "Int8", "UInt8", "Int64", "UInt64"])
def test_grid_values_outside_the_dtype_are_written_as_float64(dtype):
    """A user grid, a PD grid or center_at beyond the dtype's range never wraps around."""
    rng = np.random.default_rng(4)
    frame = pd.DataFrame({"u": pd.array(rng.integers(0, 100, 80), dtype=dtype), "z": rng.normal(size=80)})
    spy, seen = _spy(lambda d: np.asarray(d["u"], dtype=float))
    res = ale(spy, frame, "u", grid=[-1e20, 50.0, 1e20])
    counts = np.array([(frame["u"] <= 50).sum(), (frame["u"] > 50).sum()])
    curve = np.array([0.0, 50.0 + 1e20, 2e20])  # the identity model accumulated over the edges
    centre = ((curve[:-1] + curve[1:]) / 2 * counts).sum() / counts.sum()
    assert_allclose(res.effects[:, 0], curve - centre, rtol=1e-12)
    assert all(column.dtype == np.float64 for column in seen)
    assert {-1e20, 50.0, 1e20} <= {v for column in seen for v in column.to_numpy(dtype=float).tolist()}
    seen.clear()
    pdp = FeatureEffect(Predictor(predict_function=spy, data=frame), "u", method="pdp", grid_size=3,
                        center_at=-1e20).results
    assert pdp["u"].tolist()[0] == -1e20 and pdp[".value"].tolist()[0] == 0.0
    assert all(np.all(np.asarray(c, dtype=float) >= -1e20) for c in seen)
    holding = [c for c in seen if (np.asarray(c, dtype=float) == -1e20).any()]
    assert holding and all(c.dtype == np.float64 for c in holding)


def test_integer_column_keeps_its_dtype_when_the_grid_fits():
    frame = pd.DataFrame({"u": np.arange(50, dtype=np.uint8), "z": np.arange(50.0)})
    spy, seen = _spy(lambda d: np.asarray(d["u"], dtype=float))
    ale(spy, frame, "u", n_intervals=5)
    assert all(column.dtype == np.uint8 for column in seen)


# --- ale()'s features: lists of labels and pairs ------------------------------------------------

def test_ale_reads_a_list_inside_the_features_list_as_a_pair():
    pair = ale(f, X, ("g", "x"), n_intervals=4)
    for features in ([["g", "x"]], [("g", "x")], [np.array(["g", "x"])], [pd.Index(["g", "x"])]):
        (got,) = ale(f, X, features, n_intervals=4)
        assert got.features == ("g", "x") and got.kind == "categorical x numeric"
        assert_array_equal(got.effects, pair.effects)
    mains = ale(f, X, ["g", "x"], n_intervals=4)
    assert [r.features for r in mains] == [("g",), ("x",)]
    mixed = ale(f, X, pd.Index(["x", "z"]), n_intervals=4)
    assert [r.kind for r in mixed] == ["numeric", "numeric"]


def test_ale_names_columns_only_when_they_differ_from_the_fitted_ones():
    sklearn = pytest.importorskip("sklearn.linear_model")
    frame = X[["x", "z"]]
    fitted = sklearn.LinearRegression().fit(frame, frame["x"] + frame["z"])
    with pytest.raises(PredictionError) as info:
        ale(fitted, frame[["x"]], "x")
    assert str(info.value).count("lacks ['z']") == 1  # said once, not twice

    class Broken(sklearn.LinearRegression):
        def predict(self, X):
            raise RuntimeError("licence server unreachable")

    broken = Broken().fit(frame, frame["x"])
    with pytest.raises(PredictionError) as info:
        ale(broken, frame, "x")
    assert "licence server unreachable" in str(info.value)
    assert "expects" not in str(info.value)


def test_a_statsmodels_formula_is_shown_when_the_model_cannot_read_x():
    smf = pytest.importorskip("statsmodels.formula.api")
    fitted = smf.ols("y ~ x + z", data=X.assign(y=X["x"] + X["z"])).fit()
    with pytest.raises(PredictionError, match=re.escape("Its formula is 'y ~ x + z': X must hold every variable it uses.")):
        ale(fitted, X[["x", "k"]], "x")


def test_feature_effects_keep_warnings_of_their_effects():
    """FeatureEffects used to silence every UserWarning of its effects when center_at was given."""
    alike = pd.DataFrame({"g": list("ab") * 20, "z": [1.0] * 40})
    p = Predictor(predict_function=lambda d: (d["g"] == "b").to_numpy(float), data=alike)
    with pytest.warns(UserWarning) as caught:
        FeatureEffects(p, ["g"], center_at=1.0)
    messages = [str(w.message) for w in caught]
    assert any("is ignored for ALE" in m for m in messages)
    assert any("cannot be ordered by similarity" in m for m in messages)


def test_in_a_feature_list_grid_serves_numeric_and_level_order_categorical_entries():
    grid = [float(X["x"].min()), 0.0, float(X["x"].max())]
    by_list = ale(f, X, ["x", "g"], grid=grid, level_order=["c", "a", "b"])
    assert_array_equal(by_list[0].effects, ale(f, X, "x", grid=grid).effects)
    assert_array_equal(by_list[1].effects, ale(f, X, "g", level_order=["c", "a", "b"]).effects)
    assert by_list[1].level_order == ("c", "a", "b")


def test_a_tuple_label_names_one_column_in_every_front_end():
    tuples = pd.DataFrame({"x": X["x"], "z": X["z"]}).set_axis(pd.Index([("a", "x"), ("b", "z")], tupleize_cols=False),
                                                               axis=1)
    model = lambda d: 2.0 * np.asarray(d.iloc[:, 0], dtype=float)  # noqa: E731
    by_label = ALEPlot(tuples, None, lambda m, d: model(d), ("a", "x"), K=5, plot=False)
    by_position = ALEPlot(tuples, None, lambda m, d: model(d), 0, K=5, plot=False)
    assert by_label.feature == ("a", "x") and not by_label.is_pair
    assert_array_equal(by_label.f_values, by_position.f_values)
    assert_allclose(np.diff(by_label.f_values), 2 * np.diff(by_label.x_values), rtol=1e-12)
    one = ale(model, tuples, ("a", "x"), n_intervals=5)
    assert one.features == (("a", "x"),) and one.kind == "numeric"
    listed = ale(model, tuples, [("a", "x"), [("a", "x"), ("b", "z")]], n_intervals=5)
    assert [r.kind for r in listed] == ["numeric", "numeric x numeric"]
    assert_array_equal(listed[0].effects, one.effects)
    pd_one = PDPlot(tuples, None, lambda m, d: model(d), ("a", "x"), K=4, plot=False)
    assert_array_equal(pd_one.f_values, PDPlot(tuples, None, lambda m, d: model(d), 0, K=4, plot=False).f_values)
