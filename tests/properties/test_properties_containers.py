"""Property-based tests: numbers are numbers in whatever container they come.

A model's answer (masked arrays, ``object`` arrays, Series and frames,
nullable ``Float64``, Arrow-backed ``double[pyarrow]``) and the columns of X
(the same dtypes, Arrow-backed date-times beside a categorical feature) either
give exactly the result of the plain float64 answer or column, or are refused
with pyale's promised error types (``PredictionError`` for an answer,
``ValueError`` / ``TypeError`` for the data), never another exception and
never other numbers.  An answer with nothing missing or masked is never
refused.  Every front-end: ``pyale.ale``, ``ALEPlot``, iml's ``FeatureEffect``
and ale's ``ALE``.  Profiles in ``tests/properties/conftest.py``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import event, given, note, settings
from hypothesis import strategies as st
from pandas.testing import assert_frame_equal

import pyale
from prop_effects import examples

pa = pytest.importorskip("pyarrow")

FRONT_ENDS = {
    "ale": lambda X, f, J: pyale.ale(f, X, J).to_frame(),
    "ALEPlot": lambda X, f, J: ALEPlot_frame(X, f, J),
    "FeatureEffect": lambda X, f, J: pyale.FeatureEffect(pyale.Predictor(predict_function=f, data=X), J).results,
    "ALE": lambda X, f, J: pyale.ALE(None, [J], X.assign(y_=0.0), "y_",
                                     pred_fun=lambda object, newdata, type: f(newdata)).get(J),  # noqa: A006
}


def ALEPlot_frame(X, f, J):  # noqa: N802 - names the front-end
    return pyale.ALEPlot(X, None, lambda m, d: f(d), J=J, plot=False).to_frame()


def _missing(n: int, rows: list) -> np.ndarray:
    mask = np.zeros(n, bool)
    mask[[r % n for r in rows]] = True
    return mask


# Each answer container: (wrap(values, index, mask) -> answer, whether a masked row is a missing one).
ANSWERS = {
    "masked array": lambda y, index, mask: np.ma.masked_array(y, mask=mask),
    "object array": lambda y, index, mask: np.where(mask, None, y.astype(object)),
    "list": lambda y, index, mask: [None if m else v for v, m in zip(y.tolist(), mask)],
    "object Series": lambda y, index, mask: pd.Series(np.where(mask, None, y.astype(object)), index=index,
                                                      dtype=object),
    "object frame": lambda y, index, mask: pd.DataFrame({"yhat": np.where(mask, None, y.astype(object))},
                                                        index=index, dtype=object),
    "Float64 Series": lambda y, index, mask: pd.Series(pd.array(np.where(mask, pd.NA, y.astype(object)),
                                                                dtype="Float64"), index=index),
    "Arrow Series": lambda y, index, mask: pd.Series(pa.array(y, mask=mask), index=index,
                                                     dtype=pd.ArrowDtype(pa.float64())),
    "object array of ints": lambda y, index, mask: np.where(mask, None, np.round(y).astype(np.int64).astype(object)),
}
# The float answer each container must equal (integers for the integer one).
PLAIN = {name: (lambda y: np.round(y)) if name == "object array of ints" else (lambda y: y) for name in ANSWERS}
# Containers that carry a frame's name or index give the float answer in the same container.
FLOAT_FORM = {
    "object Series": lambda y, index: pd.Series(y, index=index),
    "object frame": lambda y, index: pd.DataFrame({"yhat": y}, index=index),
}


@st.composite
def data_frames(draw):
    n = draw(st.integers(6, 30))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({
        "x": rng.normal(size=n) * draw(st.sampled_from([1e-3, 1.0, 1e6])),
        "z": rng.integers(-3, 4, n).astype(float),
        "g": pd.Categorical(rng.choice(list("abc"), n), categories=list("abc")),
    })
    if X["g"].nunique() < 2:
        X.loc[X.index[0], "g"], X.loc[X.index[1], "g"] = "a", "b"
    if draw(st.booleans()):
        X.index = pd.Index(rng.permutation(n) + 100)
    return X


def model_of(coefficients):
    a, b, c = coefficients

    def model(d):
        x, z = np.asarray(d["x"], dtype=float), np.asarray(d["z"], dtype=float)
        return a * x + b * x * z + c * (np.asarray(d["g"], dtype=object) == "b") + z**2

    return model


coefficient_triples = st.tuples(*[st.floats(-5, 5, allow_nan=False, allow_infinity=False)] * 3)


def _result(front_end, X, f, J):
    try:
        return FRONT_ENDS[front_end](X, f, J), None
    except Exception as exc:  # noqa: BLE001 - which exceptions are allowed is the property
        return None, exc


@settings(max_examples=examples(3))
@given(X=data_frames(), coefficients=coefficient_triples, answer=st.sampled_from(list(ANSWERS)),
       front_end=st.sampled_from(list(FRONT_ENDS)), J=st.sampled_from(["x", "g"]),
       masked_rows=st.lists(st.integers(0, 10**6), max_size=3))
def test_an_answer_in_any_container_gives_the_float_numbers_or_a_prediction_error(
        X, coefficients, answer, front_end, J, masked_rows):
    plain = model_of(coefficients)
    wrap, to_plain = ANSWERS[answer], PLAIN[answer]
    missing_anywhere = bool(masked_rows)

    def wrapped(d):
        y = to_plain(plain(d))
        return wrap(y, d.index, _missing(d.shape[0], masked_rows) if missing_anywhere else np.zeros(d.shape[0], bool))

    def reference(d):
        y = to_plain(plain(d))
        return FLOAT_FORM[answer](y, d.index) if answer in FLOAT_FORM else y

    expected, expected_error = _result(front_end, X, reference, J)
    got, error = _result(front_end, X, wrapped, J)
    note(f"expected error: {expected_error!r}; error: {error!r}")
    event("refused" if error is not None else "computed")
    if expected_error is not None:  # the plain answer itself is refused (e.g. overflow): so is this one
        assert error is not None
        assert isinstance(error, type(expected_error)) or isinstance(error, pyale.PredictionError), error
        return
    if missing_anywhere:
        assert isinstance(error, pyale.PredictionError), error  # masked or missing predictions: refused
        assert "masked prediction" in str(error) or "non-finite prediction" in str(error), error
        return
    assert error is None, error
    assert_frame_equal(got, expected, check_exact=True)


# Each X column dtype: how a float64 column becomes it (with ``missing`` rows missing).
COLUMNS = {
    "Float64": lambda s, missing: s.astype("Float64").mask(missing),
    "Arrow double": lambda s, missing: s.astype(pd.ArrowDtype(pa.float64())).mask(missing),
    "object": lambda s, missing: s.astype(object).mask(missing),
}
REFUSALS = (ValueError, TypeError, pyale.PredictionError)


@settings(max_examples=examples(3))
@given(X=data_frames(), coefficients=coefficient_triples, dtype=st.sampled_from(list(COLUMNS)),
       column=st.sampled_from(["x", "z"]), front_end=st.sampled_from(["ale", "ALEPlot", "ALE"]),
       J=st.sampled_from(["x", "z", "g"]), missing_rows=st.lists(st.integers(0, 10**6), max_size=2))
def test_a_column_of_any_float_dtype_gives_the_float_numbers_or_a_clear_refusal(
        X, coefficients, dtype, column, front_end, J, missing_rows):
    plain = model_of(coefficients)
    missing = pd.Series(_missing(X.shape[0], missing_rows), index=X.index)
    expected, expected_error = _result(front_end, X, plain, J)
    got, error = _result(front_end, X.assign(**{column: COLUMNS[dtype](X[column], missing)}), plain, J)
    note(f"expected error: {expected_error!r}; error: {error!r}")
    event("refused" if error is not None else "computed")
    if error is not None:
        assert isinstance(error, REFUSALS), error
        # nullable and Arrow floats without missing values are plain numbers: refused only as floats are
        assert dtype == "object" or missing_rows or expected_error is not None, error
        return
    assert not missing_rows, "missing values were used"  # a missing value is never read as a number
    assert expected_error is None, expected_error
    assert_frame_equal(got, expected, check_exact=True)


@settings(max_examples=examples(2))
@given(X=data_frames(), coefficients=coefficient_triples,
       arrow_type=st.sampled_from(["timestamp[ns]", "timestamp[us, UTC]", "date32", "duration[s]"]),
       missing_rows=st.lists(st.integers(0, 10**6), max_size=2), seconds=st.integers(1, 10**7))
def test_an_arrow_date_time_covariate_gives_the_numbers_of_its_numpy_equivalent(
        X, coefficients, arrow_type, missing_rows, seconds):
    plain = model_of(coefficients)
    rng = np.random.default_rng(X.shape[0])
    ticks = pd.to_timedelta(rng.integers(0, seconds, X.shape[0]), unit="s")
    missing = _missing(X.shape[0], missing_rows)
    if arrow_type == "duration[s]":
        numpy_column = pd.Series(ticks, index=X.index).mask(missing)
        arrow_column = numpy_column.astype(pd.ArrowDtype(pa.duration("s")))
    else:
        numpy_column = pd.Series(pd.Timestamp("1999-12-31") + ticks, index=X.index).mask(missing)
        if arrow_type == "date32":
            numpy_column = numpy_column.dt.normalize()
            values = pa.array(numpy_column.to_numpy(dtype="datetime64[ns]"), from_pandas=True).cast(pa.date32())
            arrow_column = pd.Series(values, index=X.index, dtype=pd.ArrowDtype(pa.date32()))
        elif arrow_type == "timestamp[us, UTC]":
            numpy_column = numpy_column.dt.tz_localize("UTC")
            arrow_column = numpy_column.astype(pd.ArrowDtype(pa.timestamp("us", tz="UTC")))
        else:
            arrow_column = numpy_column.astype(pd.ArrowDtype(pa.timestamp("ns")))
    expected, expected_error = _result("ale", X.assign(t=numpy_column), plain, "g")
    got, error = _result("ale", X.assign(t=arrow_column), plain, "g")
    note(f"expected error: {expected_error!r}; error: {error!r}")
    event("refused" if error is not None else "computed")
    if expected_error is not None:
        assert type(error) is type(expected_error), error
        return
    assert error is None, error
    assert_frame_equal(got, expected, check_exact=True)
