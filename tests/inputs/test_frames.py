"""Any data frame: polars, pyarrow and NumPy inputs give pandas' numbers exactly, on every front-end."""

from __future__ import annotations

import re
import sys
import warnings

import numpy as np
import pandas as pd
import pytest

import pyale
from pyale._inputs.frames import as_pandas

pl = pytest.importorskip("polars")
pa = pytest.importorskip("pyarrow")

LEVELS = ["c", "a", "b"]  # a category order that is not alphabetical


def pandas_frame(n=300, seed=11, ordered=False):
    rng = np.random.default_rng(seed)
    return pd.DataFrame({
        "x": rng.normal(size=n),
        "k": rng.integers(0, 9, size=n),
        "g": pd.Categorical(rng.choice(LEVELS, size=n), categories=LEVELS, ordered=ordered),
        "s": rng.choice(["lo", "mid", "hi"], size=n),
    })


def as_polars(frame):
    return pl.DataFrame({
        "x": frame["x"].to_numpy(), "k": frame["k"].to_numpy(),
        "g": pl.Series(frame["g"].astype(str).tolist(), dtype=pl.Enum(LEVELS)),
        "s": frame["s"].astype(str).tolist(),
    })


def as_arrow(frame):
    return pa.table({
        "x": frame["x"].to_numpy(), "k": frame["k"].to_numpy(),
        "g": pa.DictionaryArray.from_arrays(frame["g"].cat.codes.to_numpy().astype(np.int8), LEVELS),
        "s": frame["s"].astype(str).tolist(),
    })


def columns(d):
    """The columns as NumPy arrays, from whatever frame type the model is handed."""
    if isinstance(d, pd.DataFrame):
        return {c: d[c].astype(str).to_numpy() if c in "gs" else d[c].to_numpy() for c in d.columns}
    if isinstance(d, pl.DataFrame):
        return {c: d[c].cast(pl.String).to_numpy() if c in "gs" else d[c].to_numpy() for c in d.columns}
    table = d
    return {c: np.asarray(table[c].cast(pa.string()).to_pylist(), dtype=object) if c in "gs"
            else table[c].to_numpy() for c in table.column_names}


def formula(cols):
    return cols["x"] * cols["k"] + 2.0 * (cols["g"] == "a") - 1.5 * (cols["s"] == "hi") * cols["x"]


def typed_model(expected_type, seen):
    def predict(d):
        seen.append(type(d))
        assert isinstance(d, expected_type), type(d)
        return formula(columns(d))

    return predict


# A polars Enum is an ordered categorical (narwhals' mapping); a pyarrow dictionary keeps its flag.
INPUTS = {"polars": (as_polars, pl.DataFrame), "pyarrow": (as_arrow, pa.Table)}
ORDERED = {"polars": True, "pyarrow": False}


@pytest.mark.parametrize("kind", list(INPUTS))
def test_ale_equals_pandas_exactly_and_the_model_gets_the_type_passed(kind):
    convert, native_type = INPUTS[kind]
    frame = pandas_frame(ordered=ORDERED[kind])
    seen = []
    for features, conventions in [(["x", "k", "g", "s", ("x", "k"), ("g", "x")], "aleplot"),
                                  (["x", ("x", "g")], "iml")]:
        expected = pyale.ale(typed_model(pd.DataFrame, []), frame, features, conventions=conventions, n_intervals=7)
        got = pyale.ale(typed_model(native_type, seen), convert(frame), features, conventions=conventions,
                        n_intervals=7)
        assert got.equals(expected), (kind, conventions)
    assert seen and set(seen) == {native_type}


@pytest.mark.parametrize("kind", list(INPUTS))
def test_r_shaped_and_iml_front_ends_equal_pandas_exactly(kind):
    convert, native_type = INPUTS[kind]
    frame = pandas_frame(ordered=ORDERED[kind])
    native = convert(frame)
    pandas_fun = typed_model(pd.DataFrame, [])
    native_fun = typed_model(native_type, [])
    for J in ["x", "g", ("x", "k"), ("g", "x")]:
        a = pyale.ALEPlot(frame, None, lambda m, d: pandas_fun(d), J=J, K=6, plot=False)
        b = pyale.ALEPlot(native, None, lambda m, d: native_fun(d), J=J, K=6, plot=False)
        assert b.equals(a), J
        a = pyale.PDPlot(frame, None, lambda m, d: pandas_fun(d), J=J, K=6, plot=False)
        b = pyale.PDPlot(native, None, lambda m, d: native_fun(d), J=J, K=6, plot=False)
        assert b.equals(a), J
    p_pandas = pyale.Predictor(predict_function=pandas_fun, data=frame)
    p_native = pyale.Predictor(predict_function=native_fun, data=native)
    for feature, method in [("x", "ale"), ("g", "ale"), (("x", "k"), "ale"), ("k", "pdp+ice"), ("s", "pdp")]:
        a = pyale.FeatureEffect(p_pandas, feature, method=method, grid_size=5)
        b = pyale.FeatureEffect(p_native, feature, method=method, grid_size=5)
        assert b.equals(a), (feature, method)
    assert pyale.FeatureEffects(p_native, grid_size=4).equals(pyale.FeatureEffects(p_pandas, grid_size=4))
    assert p_native.predict(native).equals(p_pandas.predict(frame))


@pytest.mark.parametrize("kind", list(INPUTS))
def test_display_from_estimator_takes_any_frame(kind):
    import matplotlib

    matplotlib.use("Agg")
    convert, native_type = INPUTS[kind]
    frame = pandas_frame(ordered=ORDERED[kind])
    a = pyale.ALEDisplay.from_estimator(typed_model(pd.DataFrame, []), frame, ["x", "g"], n_intervals=5)
    b = pyale.ALEDisplay.from_estimator(typed_model(native_type, []), convert(frame), ["x", "g"], n_intervals=5)
    assert all(r.equals(s) for r, s in zip(b.results, a.results))
    assert np.array_equal(b.rugs_[0, 0].get_segments(), a.rugs_[0, 0].get_segments())


def test_numpy_with_feature_names_equals_pandas_and_callables_get_numpy():
    rng = np.random.default_rng(3)
    values = rng.normal(size=(200, 3))
    frame = pd.DataFrame(values, columns=["a", "b", "c"])
    seen = []

    def on_array(d):
        seen.append(type(d))
        return d[:, 0] * d[:, 1] + d[:, 2] ** 2

    def on_frame(d):
        return d["a"].to_numpy() * d["b"].to_numpy() + d["c"].to_numpy() ** 2

    expected = pyale.ale(on_frame, frame, ["a", "c", ("a", "b")], n_intervals=6)
    got = pyale.ale(on_array, values, ["a", "c", ("a", "b")], n_intervals=6, feature_names=["a", "b", "c"])
    assert got.equals(expected) and set(seen) == {np.ndarray}
    unnamed = pyale.ale(on_array, values, [0, 2], n_intervals=6)
    assert [r.features for r in unnamed] == [("x0",), ("x2",)]
    assert unnamed[0].equals(pyale.ale(on_frame, frame, "a", n_intervals=6).__class__(
        **{**{f: getattr(expected[0], f) for f in expected[0].__dataclass_fields__}, "features": ("x0",)}))
    r_array = pyale.ALEPlot(values, None, lambda m, d: on_array(d), J=1, K=5, plot=False, feature_names=list("abc"))
    assert r_array.equals(pyale.ALEPlot(frame, None, lambda m, d: on_frame(d), J=1, K=5, plot=False))
    pd_array = pyale.PDPlot(values, None, lambda m, d: on_array(d), J=0, K=5, plot=False, feature_names=list("abc"))
    assert pd_array.equals(pyale.PDPlot(frame, None, lambda m, d: on_frame(d), J=0, K=5, plot=False))
    predictor = pyale.Predictor(predict_function=on_array, data=values, feature_names=list("abc"))
    assert pyale.FeatureEffect(predictor, "c", grid_size=4).equals(
        pyale.FeatureEffect(pyale.Predictor(predict_function=on_frame, data=frame), "c", grid_size=4))


def test_scikit_learn_models_get_what_they_were_fitted_on_without_warnings():
    sklearn = pytest.importorskip("sklearn")  # noqa: F841
    from sklearn.ensemble import HistGradientBoostingRegressor
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.normal(size=(300, 3)), columns=["a", "b", "c"])
    y = frame["a"] * frame["b"] + frame["c"]
    on_array = HistGradientBoostingRegressor(max_iter=20).fit(frame.to_numpy(), y)
    on_frame = HistGradientBoostingRegressor(max_iter=20).fit(frame, y)
    classes = LogisticRegression().fit(frame.to_numpy(), y > 0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "X has feature names, but ... was fitted without feature names"
        from_pandas = pyale.ale(on_array, frame, ["a", ("a", "b")], n_intervals=5)
        from_polars = pyale.ale(on_array, pl.from_pandas(frame), ["a", ("a", "b")], n_intervals=5)
        by_frame = pyale.ale(on_frame, pl.from_pandas(frame), ["a", ("a", "b")], n_intervals=5)
        pyale.ale(classes, frame, "a", n_intervals=5)
        predictor = pyale.Predictor(on_array, data=pl.from_pandas(frame))
        effect = pyale.FeatureEffect(predictor, "a", grid_size=5)
    assert from_polars.equals(from_pandas)
    # the model fitted on the frame predicts the same as the one fitted on the array
    assert by_frame.equals(from_pandas, rtol=1e-12)
    direct = pyale.ale(lambda d: on_array.predict(d.to_numpy()), frame, "a", conventions="iml", n_intervals=5)
    assert np.array_equal(effect.results[".value"].to_numpy(), direct.effects[:, 0])


def test_conversion_happens_once_and_never_touches_the_callers_data():
    frame = pandas_frame()
    native = as_polars(frame)
    before = native.clone()
    converted, info = as_pandas(native, param="X", caller="ale")
    assert info.kind == "polars" and isinstance(converted, pd.DataFrame)
    assert list(converted["g"].cat.categories) == LEVELS and converted["g"].cat.ordered
    back = info.to_native(converted)
    assert back.schema == native.schema and back.equals(native)
    assert native.equals(before)
    same, info = as_pandas(frame, param="X", caller="ale")
    assert same is frame and info.kind == "pandas"
    table = as_arrow(frame)
    converted, info = as_pandas(table, param="X", caller="ale")
    assert info.to_native(converted).equals(table)


def test_polars_lazy_frames_pass_through_untouched():
    # computed on by the polars lazy engine (tests/engines/test_engines.py); the model gets polars frames
    lazy = as_polars(pandas_frame()).lazy()
    out, info = as_pandas(lazy, param="X", caller="ale")
    assert out is lazy and info.kind == "polars"


def test_dask_frames_pass_through_untouched():
    dd = pytest.importorskip("dask.dataframe")
    lazy = dd.from_pandas(pandas_frame(), npartitions=2)
    out, info = as_pandas(lazy, param="X", caller="ale")
    assert out is lazy and info.kind == "pandas"


@pytest.mark.parametrize("build, error, message", [
    (lambda f: f.to_dict(), TypeError, "The 'X' parameter of ale must be a pandas or polars DataFrame, a pyarrow "
                                       "Table, or a 2-D NumPy array (with feature_names=). Got dict instead."),
    (lambda f: f["x"].to_numpy(), ValueError, "The 'X' parameter of ale must be a 2-D array (rows x features). "
                                              "Got an array of shape (300,) instead."),
    (lambda f: pl.Series(f["x"].to_numpy()), TypeError, "The 'X' parameter of ale must be a pandas or polars "
                                                         "DataFrame, a pyarrow Table, or a 2-D NumPy array (with "
                                                         "feature_names=). Got polars.Series instead."),
])
def test_unsupported_inputs_are_refused_clearly(build, error, message):
    with pytest.raises(error, match=re.escape(message)):
        pyale.ale(lambda d: np.zeros(len(d)), build(pandas_frame()), 0)


@pytest.mark.parametrize("names, error, message", [
    (["a", "b"], ValueError, "The 'feature_names' parameter of ale must name each of X's 3 columns. Got 2 names instead."),
    (["a", "a", "b"], ValueError, "The 'feature_names' parameter of ale must hold unique names. Got duplicates ['a'] instead."),
    ("abc", TypeError, "The 'feature_names' parameter of ale must be a sequence of column names. Got 'abc' instead."),
])
def test_bad_feature_names(names, error, message):
    with pytest.raises(error, match=re.escape(message)):
        pyale.ale(lambda d: d[:, 0], np.ones((5, 3)), 0, feature_names=names)


def test_feature_names_do_not_rename_a_frame():
    with pytest.raises(ValueError, match=re.escape("The 'feature_names' parameter of ale applies to a NumPy array X")):
        pyale.ale(lambda d: d["x"], pandas_frame(), "x", feature_names=["a", "b", "c", "d"])


def test_polars_without_narwhals_names_the_extra(monkeypatch):
    pl = pytest.importorskip("polars")
    monkeypatch.setitem(sys.modules, "narwhals", None)  # narwhals is the `frames` extra, not a core dependency
    X = pl.DataFrame({"x": [1.0, 2.0, 3.0], "z": [0.0, 1.0, 0.0]})
    with pytest.raises(ImportError, match=re.escape(
            "The 'X' parameter of ale is a polars DataFrame; reading it needs narwhals: "
            "pip install \"pyale-r[frames]\"")):
        pyale.ale(lambda d: d["x"], X, "x")
