"""ALEPlot and PDPlot front-ends: arguments, errors, data left untouched, model calls."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from pandas.testing import assert_frame_equal

import pyale
from pyale import ALEPlot, PDPlot, PredictionError


def make_frame(n: int = 60, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "x": rng.normal(size=n),
            "k": rng.integers(0, 5, size=n),
            "g": pd.Categorical(rng.choice(["a", "b", "c"], size=n), categories=["a", "b", "c", "unused"]),
            "s": rng.choice(["lo", "mid", "hi"], size=n),
        }
    )


def model(_, d: pd.DataFrame) -> np.ndarray:
    g = d["g"].astype(str).to_numpy()
    s = d["s"].astype(str).to_numpy()
    return (
        d["x"].to_numpy() ** 2
        + 0.5 * d["k"].to_numpy() * d["x"].to_numpy()
        + (g == "b") * 1.0
        + (s == "hi") * d["x"].to_numpy()
    )


X = make_frame()

BAD_ARGUMENTS = [
    # (kwargs overriding the defaults, exception, message)
    (dict(X=X.to_dict()), TypeError, "The 'X' parameter of ALEPlot must be a pandas or polars DataFrame, a pyarrow "
     "Table, or a 2-D NumPy array (with feature_names=). Got dict instead."),
    (dict(J="nope"), ValueError, "The 'J' parameter of ALEPlot must name a column of X. Got 'nope'"),
    (dict(J=4), ValueError, "The 'J' parameter of ALEPlot must be a column name or a 0-based column position in 0..3. Got 4 instead"),
    (dict(J=-1), ValueError, "position in 0..3. Got -1 instead"),
    (dict(J=True), TypeError, "The 'J' parameter of ALEPlot must be a column name or a 0-based column position. Got True instead."),
    (dict(J=1.0), TypeError, "The 'J' parameter of ALEPlot must be a column name or a 0-based column position. Got 1.0 instead."),
    (dict(K=0), ValueError, "The 'K' parameter of ALEPlot must be an int >= 1. Got 0 instead."),
    (dict(K=2.5), TypeError, "The 'K' parameter of ALEPlot must be an int >= 1. Got 2.5 instead."),
    (dict(K=True), TypeError, "The 'K' parameter of ALEPlot must be an int >= 1. Got True instead."),
    (dict(plot="yes"), TypeError, "The 'plot' parameter of ALEPlot must be a bool. Got 'yes' instead."),
    (dict(NA_plot=None), TypeError, "The 'NA_plot' parameter of ALEPlot must be a bool. Got None instead."),
    (dict(pred_fun=3), TypeError, "The 'pred_fun' parameter of ALEPlot must be callable"),
    (dict(max_rows_per_call=0), ValueError, "The 'max_rows_per_call' parameter of ALEPlot must be an int >= 1. Got 0 instead."),
    (dict(J="g", level_order=["a", "b"]), ValueError, "The 'level_order' parameter of ALEPlot must list each level of column 'g'"),
    (dict(J=("x", "x")), ValueError, "The 'J' parameter of ALEPlot must name two different columns. Got ['x', 'x'], which both name column 'x'."),
    (dict(J=("x", 0)), ValueError, "must name two different columns"),
    (dict(J=("x", "k", "g")), ValueError, "The 'J' parameter of ALEPlot must be one column or a pair of columns. Got 3 items"),
    (dict(J=("g", "s")), ValueError, "ALEPlot does not support a pair of two categorical features ('g', 's')"),
    (dict(J=("x", "g")), ValueError, "Column 'g' (J[1]) is categorical: ALEPlot needs the categorical feature first. Swap them: J=('g', 'x')."),
    (dict(J=("x", "k"), level_order=["a"]), ValueError, "applies to a categorical feature; column 'x' is numeric"),
]


def _call(function=ALEPlot, **overrides):
    kwargs = dict(X=X, X_model=None, pred_fun=model, J="x", K=10, plot=False)
    kwargs.update(overrides)
    return function(**kwargs)


@pytest.mark.parametrize(
    "overrides, error, message", BAD_ARGUMENTS, ids=[m[:40] for _, _, m in BAD_ARGUMENTS]
)
def test_bad_arguments_get_clear_errors(overrides, error, message):
    before = X.copy(deep=True)
    with pytest.raises(error, match=re.escape(message)):
        _call(**overrides)
    assert_frame_equal(X, before)


def _with(column, values):
    out = X.copy()
    out[column] = values
    return out


n = X.shape[0]
BAD_DATA = [
    (_with("x", 1.5), "x", ValueError, "Column 'x' (J) is constant (1.5); ALE is undefined for a constant feature"),
    (_with("x", np.r_[np.nan, X["x"].to_numpy()[1:]]), "x", ValueError, "Column 'x' (J) has 1 missing value(s) (first at index 0)"),
    (_with("x", np.r_[X["x"].to_numpy()[:-1], np.inf]), "x", ValueError, f"Column 'x' (J) has 1 infinite value(s) (first inf at index {n - 1})"),
    (_with("x", pd.date_range("2020-01-01", periods=n)), "x", TypeError, "; ALE of dates or durations is not supported. Convert it to numbers"),
    (_with("x", X["x"].to_numpy() + 1j), "x", TypeError, "Column 'x' (J) has dtype complex128 which is neither numeric nor categorical"),
    (_with("x", X["x"].to_numpy() > 0), "x", TypeError, "Column 'x' (J) is boolean; ALE needs a numeric or categorical feature"),
    (_with("x", [object()] * n), "x", TypeError, "Column 'x' (J) has dtype object which is neither numeric nor categorical"),
    (_with("g", pd.Categorical(["a"] * n, categories=["a", "b"])), "g", ValueError, "Column 'g' (J) has a single level 'a' in the data; ALE needs at least two levels"),
    (_with("s", [None] + ["lo"] * (n - 1)), "s", ValueError, "Column 's' (J) has 1 missing value(s)"),
]


@pytest.mark.parametrize("data, J, error, message", BAD_DATA, ids=[m[:45] for *_, m in BAD_DATA])
def test_bad_feature_columns_get_clear_errors(data, J, error, message):
    before = data.copy(deep=True)
    with pytest.raises(error, match=re.escape(message)):
        _call(X=data, J=J, pred_fun=lambda m, d: np.zeros(len(d)))
    assert_frame_equal(data, before)


@pytest.mark.parametrize(
    "J, message",
    [
        (("x", "k"), "Column 'k' (J[1]) is constant (2.0)"),
        (("g", "k"), "Column 'k' (J[1]) is constant (2.0)"),
    ],
)
def test_constant_column_in_a_pair_is_rejected(J, message):
    data = _with("k", 2.0)
    with pytest.raises(ValueError, match=re.escape(message)):
        _call(X=data, J=J)


BAD_MODELS = [
    (lambda m, d: np.zeros(len(d) - 1), "pred_fun returned 59 value(s) for 60 row(s) of newdata"),
    (lambda m, d: np.array(["a"] * len(d)), "pred_fun must return numbers; got values of dtype <U1"),
    (lambda m, d: np.full(len(d), np.nan), "pred_fun returned 60 non-finite prediction(s) (NaN or inf; first at row 0 of 60)"),
    (lambda m, d: np.zeros((len(d), 2)), "pred_fun must return one number per row; got shape (60, 2)"),
    (lambda m, d: 1.0, "pred_fun must return one prediction per row of newdata (60 row(s) for ALE of 'x' (rows at the lower interval edge)); it returned a single float (1.0)."),
    (lambda m, d: d["nope"], "pred_fun raised KeyError while predicting 60 row(s) for ALE of 'x'"),
]


@pytest.mark.parametrize("pred_fun, message", BAD_MODELS, ids=[m[:40] for _, m in BAD_MODELS])
def test_bad_model_output_is_reported_with_context(pred_fun, message):
    with pytest.raises(PredictionError, match=re.escape(message)):
        _call(pred_fun=pred_fun)


def test_model_exception_is_chained():
    def broken(m, d):
        raise ZeroDivisionError("boom")

    with pytest.raises(PredictionError) as info:
        _call(pred_fun=broken)
    assert isinstance(info.value.__cause__, ZeroDivisionError)


@pytest.mark.parametrize(
    "function, J",
    [(ALEPlot, "x"), (ALEPlot, "k"), (ALEPlot, "g"), (ALEPlot, "s"), (ALEPlot, ("x", "k")),
     (ALEPlot, ("g", "x")), (ALEPlot, ("s", "k")), (PDPlot, "x"), (PDPlot, "g"), (PDPlot, ("g", "x")),
     (PDPlot, ("x", "k"))],
)
def test_data_untouched_and_newdata_keeps_columns_and_dtypes(function, J):
    before = X.copy(deep=True)
    seen = []

    def spy(m, d):
        seen.append(d)
        return model(m, d)

    _call(function=function, J=J, pred_fun=spy)
    assert_frame_equal(X, before)
    assert seen
    expected = X.dtypes.to_dict()
    if function is PDPlot:
        # PDPlot's grid is seq(min, max, length.out = K): an integer column gets
        # non-integral grid values, passed as float64 as R passes doubles.
        expected.update({c: np.dtype(float) for c in np.atleast_1d(J) if X[c].dtype.kind == "i"})
    for frame in seen:
        assert list(frame.columns) == list(X.columns)
        assert frame.dtypes.to_dict() == expected


def test_string_column_levels_are_sorted_codepoint_order():
    res = _call(J="s", level_order=["hi", "lo", "mid"])
    assert res.x_values == ["hi", "lo", "mid"]
    assert res.K == 3


def test_level_order_keyword_is_used_and_values_follow_labels():
    free = _call(J="g")
    forced = _call(J="g", level_order=["c", "a", "b"])
    assert forced.x_values == ["c", "a", "b"]
    # Reordering changes which jumps are measured, but the centred effect of a
    # model additive in g is the same per level either way.
    by_label = dict(zip(free.x_values, free.f_values))
    assert_allclose([by_label[level] for level in forced.x_values], forced.f_values, rtol=0, atol=1e-12)


def test_unused_categories_are_dropped():
    res = _call(J="g")
    assert sorted(res.x_values) == ["a", "b", "c"]
    assert res.counts.sum() == X.shape[0]


def test_ordered_categorical_keeps_its_order():
    data = _with("g", pd.Categorical(X["g"].astype(str), categories=["c", "a", "b"], ordered=True))
    assert _call(X=data, J="g").x_values == ["c", "a", "b"]


def test_levels_that_all_look_alike_keep_given_order_with_warning():
    # A balanced design: every level of g sees the same values of every other column.
    g = np.repeat(["p", "q", "r"], 4)
    x = np.tile([0.0, 1.0, 2.0, 3.0], 3)
    data = pd.DataFrame({"g": pd.Categorical(g, categories=["r", "p", "q"]), "x": x})
    with pytest.warns(UserWarning, match=re.escape("cannot be ordered by similarity")):
        res = ALEPlot(data, None, lambda m, d: (d["g"] == "q") * 2.0 + d["x"], J="g", plot=False)
    assert res.x_values == ["r", "p", "q"]
    assert_allclose(res.f_values, [-2 / 3, -2 / 3, 4 / 3], rtol=0, atol=1e-12)


def test_integer_column_keeps_integer_dtype_and_grid_shrinks():
    res = _call(J="k", K=40)
    assert res.K == len(np.unique(X["k"])) - 1
    assert_array_equal(res.x_values, np.unique(X["k"]))


def test_rows_per_call_does_not_change_numbers():
    calls = []

    def counting(m, d):
        calls.append(len(d))
        return model(m, d)

    whole = _call(J="x")
    chunked = _call(J="x", pred_fun=counting, max_rows_per_call=7)
    assert max(calls) <= 7
    assert_array_equal(whole.f_values, chunked.f_values)


def test_pdplot_rows_per_call_batches_grid_points():
    calls = []

    def counting(m, d):
        calls.append(len(d))
        return model(m, d)

    res = _call(function=PDPlot, J="x", K=10, pred_fun=counting, max_rows_per_call=200)
    assert calls == [180, 180, 180, 60]
    single = _call(function=PDPlot, J="x", K=10, max_rows_per_call=1)
    assert_allclose(res.f_values, single.f_values, rtol=1e-14, atol=1e-14)


def test_pdplot_single_grid_value_is_the_minimum_centred_to_zero():
    res = _call(function=PDPlot, J="x", K=1)
    assert_array_equal(res.x_values, [X["x"].min()])
    assert_allclose(res.f_values, [0.0], rtol=0, atol=1e-12)


def test_to_frame_is_tidy():
    one = _call(J="x").to_frame()
    assert list(one.columns) == ["x", "ale"]
    pair = _call(J=("g", "x"), K=5).to_frame()
    assert list(pair.columns) == ["g", "x", "ale"]
    assert pair.shape[0] == 3 * 6


def test_public_surface():
    assert {"ALEPlot", "PDPlot", "ALEPlotResult", "PDPlotResult", "PredictionError"} <= set(pyale.__all__)


def test_no_warning_in_the_ordinary_case():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _call(J="g")
        _call(J=("g", "x"), K=6)


@pytest.mark.parametrize(
    "column, values",
    [
        ("s", X["s"].astype(object)),
        ("x", X["x"].astype(np.float32)),
        ("k", X["k"].astype("Int64")),
        ("k", X["k"].astype(np.int16)),
    ],
)
def test_newdata_keeps_unusual_dtypes(column, values):
    data = _with(column, values)
    seen = []

    def spy(m, d):
        seen.append(d.dtypes[column])
        return model(m, d.astype({column: X[column].dtype}))

    _call(X=data, J=column, pred_fun=spy)
    assert seen and all(dtype == data.dtypes[column] for dtype in seen)
