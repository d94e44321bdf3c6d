"""pyale.ale with real model adapters, against the R-shaped front-end's numbers."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from pandas.testing import assert_frame_equal

import pyale
from pyale import ALEPlot, PredictionError, ale


def data(n=300, seed=7):
    rng = np.random.default_rng(seed)
    x1 = rng.normal(size=n)
    g = rng.choice(["north", "south", "east"], size=n)
    x2 = rng.uniform(-2, 2, size=n) + (g == "east")
    y = np.sin(x1) + 0.5 * x2**2 + (g == "south") * x1 + rng.normal(scale=0.1, size=n)
    return pd.DataFrame({"x1": x1, "x2": x2, "g": pd.Categorical(g)}), y


X, y = data()


def test_callable_model_matches_aleplot():
    def f(d):
        return np.sin(d["x1"]) * d["x2"]

    res = ale(f, X, "x1", n_intervals=15)
    ref = ALEPlot(X, None, lambda m, d: f(d), J="x1", K=15, plot=False)
    assert_array_equal(res.grid[0], ref.x_values)
    assert_array_equal(res.effects[:, 0], ref.f_values)
    assert res.outputs == ("yhat",)
    frame = res.to_frame()
    assert list(frame.columns) == ["x1", "output", "ale", "heterogeneity"]
    assert frame.shape[0] == ref.K + 1


def test_sklearn_pipeline_with_one_hot_categorical():
    sklearn = pytest.importorskip("sklearn")
    from sklearn.compose import ColumnTransformer
    from sklearn.ensemble import GradientBoostingRegressor
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder

    assert sklearn
    pre = ColumnTransformer([("cat", OneHotEncoder(), ["g"])], remainder="passthrough")
    model = make_pipeline(pre, GradientBoostingRegressor(n_estimators=30, random_state=0)).fit(X, y)
    for feature in ("g", "x1"):
        res = ale(model, X, feature, n_intervals=10)
        ref = ALEPlot(X, model, lambda m, d: m.predict(d), J=feature, K=10, plot=False)
        assert_allclose(res.effects[:, 0], ref.f_values, rtol=1e-12, atol=1e-12)
        assert list(res.grid[0]) == list(ref.x_values)
    pair = ale(model, X, ("g", "x2"), n_intervals=6)
    ref = ALEPlot(X, model, lambda m, d: m.predict(d), J=("g", "x2"), K=6, plot=False)
    assert_allclose(pair.effects[..., 0], ref.f_values, rtol=1e-12, atol=1e-12)


def test_sklearn_classifier_explains_each_class_and_response_selects():
    pytest.importorskip("sklearn")
    from sklearn.linear_model import LogisticRegression

    label = np.where(X["x1"] + X["x2"] > 0.5, "high", np.where(X["x1"] > -0.5, "mid", "low"))
    model = LogisticRegression(max_iter=500).fit(X[["x1", "x2"]], label)
    frame = X[["x1", "x2"]]
    every = ale(model, frame, "x1", n_intervals=8)
    assert every.outputs == ("high", "low", "mid")
    assert every.effects.shape == (9, 3)
    one = ale(model, frame, "x1", n_intervals=8, response="mid")
    assert one.outputs == ("mid",)
    assert_allclose(one.effects[:, 0], every.effects[:, 2], rtol=1e-14, atol=1e-14)
    tidy = every.to_frame()
    assert set(tidy["output"]) == {"high", "low", "mid"}
    with pytest.raises(ValueError, match=re.escape("The 'response' parameter names no class of the model: ['nope']")):
        ale(model, frame, "x1", response="nope")


def test_statsmodels_formula_model():
    smf = pytest.importorskip("statsmodels.formula.api")
    train = X.assign(y=y)
    fit = smf.ols("y ~ np.sin(x1) + I(x2**2) + C(g) * x1", data=train).fit()
    res = ale(fit, X, "g")
    ref = ALEPlot(X, fit, lambda m, d: np.asarray(m.predict(d)), J="g", plot=False)
    assert list(res.grid[0]) == ref.x_values
    assert_allclose(res.effects[:, 0], ref.f_values, rtol=1e-12, atol=1e-12)


def test_list_of_features_returns_one_result_each():
    results = ale(lambda d: d["x1"] * d["x2"], X, ["x1", ("x1", "x2"), "g"], n_intervals=5)
    assert [r.features for r in results] == [("x1",), ("x1", "x2"), ("g",)]
    assert [r.kind for r in results] == ["numeric", "numeric x numeric", "categorical"]


def test_user_grid_must_cover_data_and_fill_every_interval():
    f = lambda d: d["x1"]  # noqa: E731
    lo, hi = float(X["x1"].min()), float(X["x1"].max())
    res = ale(f, X, "x1", grid=[lo, 0.0, hi])
    assert_array_equal(res.grid[0], [lo, 0.0, hi])
    with pytest.raises(ValueError, match="must cover column 'x1'"):
        ale(f, X, "x1", grid=[lo + 0.1, hi])
    with pytest.raises(ValueError, match="without rows"):
        ale(f, X, "x1", grid=[lo, hi - 1e-9, hi - 1e-10, hi])


BAD = [
    (dict(features="nope"), ValueError, "The 'features' parameter of ale must name a column of X. Got 'nope'"),
    (dict(conventions="R"), ValueError, "The 'conventions' parameter of ale must be one of ['aleplot', 'iml', 'ale']. Got 'R' instead."),
    (dict(n_intervals=0), ValueError, "The 'n_intervals' parameter of ale must be an int >= 1. Got 0 instead."),
    (dict(model=object()), TypeError, "The 'model' parameter must be a fitted model with predict or predict_proba"),
    (dict(response="a"), ValueError, "The 'response' parameter selects classes of a classifier"),
    (dict(features=("g", "g")), ValueError, "must name two different columns"),
]


@pytest.mark.parametrize("overrides, error, message", BAD, ids=[m[:40] for *_, m in BAD])
def test_bad_input(overrides, error, message):
    kwargs = dict(model=lambda d: d["x1"], X=X, features="x1")
    kwargs.update(overrides)
    before = X.copy(deep=True)
    with pytest.raises(error, match=re.escape(message)):
        ale(**kwargs)
    assert_frame_equal(X, before)


SKLEARN_KEYWORDS = [
    (dict(grid_resolution=20), "ale() got an unexpected keyword argument 'grid_resolution': pyale calls it n_intervals "
                               "(ALEPlot's K, iml's grid.size; n_intervals='auto' picks fewer intervals on small data)."),
    (dict(target=1), "ale() got an unexpected keyword argument 'target': pyale calls it response (the class or "
                     "classes of a classifier to explain)."),
    (dict(percentiles=(0.05, 0.95)), "ale() got an unexpected keyword argument 'percentiles': pyale's intervals "
                                     "always cover the data (ALE needs every row in one); pass interval edges as grid=."),
    (dict(custom_values={"x1": [0, 1]}), "ale() got an unexpected keyword argument 'custom_values': pyale calls it grid"),
    (dict(kind="both"), "ale() got an unexpected keyword argument 'kind': ALE has no individual curves"),
    (dict(subsample=50), "ale() got an unexpected keyword argument 'subsample': pass fewer rows as X"),
    (dict(categorical_features=["g"]), "ale() got an unexpected keyword argument 'categorical_features': pyale reads "
                                       "a column's kind from its dtype"),
]


@pytest.mark.parametrize("keyword, message", SKLEARN_KEYWORDS, ids=[next(iter(k)) for k, _ in SKLEARN_KEYWORDS])
def test_scikit_learn_keywords_are_named_in_pyale_terms(keyword, message):
    import inspect

    with pytest.raises(TypeError, match=re.escape(message)):
        ale(lambda d: d["x1"], X, "x1", **keyword)
    with pytest.raises(TypeError, match=re.escape("ale() got an unexpected keyword argument 'nope'")):
        ale(lambda d: d["x1"], X, "x1", nope=1)  # any other keyword: Python's own error
    parameters = inspect.signature(ale).parameters  # the documented signature, not the wrapper's
    assert "n_intervals" in parameters and next(iter(keyword)) not in parameters
    assert all(p.kind is not inspect.Parameter.VAR_KEYWORD for p in parameters.values())


@pytest.mark.parametrize("conventions, default", [("aleplot", 40), ("iml", 20), ("ale", 9)])
@pytest.mark.parametrize("n_rows", [30, 442, 5000])
def test_auto_intervals_keep_rows_per_interval_and_equal_the_explicit_count(conventions, default, n_rows):
    rng = np.random.default_rng(3)
    data = pd.DataFrame({"a": rng.normal(size=n_rows), "b": rng.normal(size=n_rows)})
    model = lambda d: d["a"] * d["b"] + np.sin(d["a"])  # noqa: E731
    main, pair = min(default, max(1, n_rows // 20)), min(default, max(1, int(np.sqrt(n_rows // 10))))
    got = ale(model, data, ["a", ("a", "b")], n_intervals="auto", conventions=conventions)
    assert got[0].equals(ale(model, data, "a", n_intervals=main, conventions=conventions))
    assert got[1].equals(ale(model, data, ("a", "b"), n_intervals=pair, conventions=conventions))
    if n_rows == 442 and conventions == "aleplot":
        assert (main, pair) == (22, 6) and len(got[0].grid[0]) - 1 == 22


def test_auto_intervals_refuse_other_strings():
    message = "The 'n_intervals' parameter of ale must be an int >= 1 or 'auto'. Got 'Auto' instead."
    with pytest.raises(TypeError, match=re.escape(message)):
        ale(lambda d: d["x1"], X, "x1", n_intervals="Auto")


def test_model_that_cannot_read_the_frame_names_expected_columns():
    pytest.importorskip("sklearn")
    from sklearn.linear_model import LinearRegression

    model = LinearRegression().fit(X[["x1", "x2"]].rename(columns={"x2": "other"}), y)
    with pytest.raises(PredictionError, match=re.escape("expects columns ['x1', 'other']; the data lacks ['other'].")):
        ale(model, X[["x1", "x2"]], "x1")


def test_plot_draws_every_output():
    import matplotlib

    matplotlib.use("Agg")
    pytest.importorskip("sklearn")
    from sklearn.linear_model import LogisticRegression

    model = LogisticRegression(max_iter=500).fit(X[["x1", "x2"]], X["g"].astype(str))
    res = ale(model, X[["x1", "x2"]], "x1", n_intervals=5)
    display = res.plot()
    assert len(display.lines_[0, 0]) == 3
    pair = ale(model, X[["x1", "x2"]], ("x1", "x2"), n_intervals=4).plot(output="south")
    assert pair.images_[0, 0] and pair.axes_.size == 1
    assert pyale.ALEResult is type(res)


@pytest.mark.r
def test_r_lm_object_gives_aleplot_numbers(R):
    from pyale.r import RModel, to_r_dataframe

    train = X.assign(y=y)
    R.ro.globalenv["train"] = to_r_dataframe(train)
    fit = R("lm(y ~ sin(x1) + I(x2^2) + g * x1, data = train)")
    res = ale(fit, X, ("g", "x2"), n_intervals=7)
    expected = R.ro.r["predict"](fit, newdata=to_r_dataframe(X))
    assert_allclose(RModel(fit).predict(X), np.asarray(expected), rtol=0, atol=0)
    ref = ALEPlot(X, RModel(fit), lambda m, d: m.predict(d), J=("g", "x2"), K=7, plot=False)
    assert_allclose(res.effects[..., 0], ref.f_values, rtol=1e-12, atol=1e-12)


@pytest.mark.r
def test_r_classifier_rds_with_response_in_ale_and_run(R, tmp_path):
    """An R randomForest saved with saveRDS: RModel loads randomForest itself, response picks a class."""
    R.require("randomForest")
    from pyale.r import RModel
    from test_cli import run_main

    path = tmp_path / "forest.rds"
    R(f"""
      set.seed(2); saveRDS(randomForest::randomForest(Species ~ ., data = iris, ntree = 25), "{path}")
      write.csv(iris, "{tmp_path / 'iris.csv'}", row.names = FALSE)
    """)
    iris = pd.read_csv(tmp_path / "iris.csv")
    model = RModel(path, type="prob")
    assert model.packages == ["randomForest"]
    X = iris.drop(columns="Species")
    res = ale(model, X, "Petal.Width", n_intervals=6, response="versicolor")
    ref = ALEPlot(X, model, lambda m, d: m.predict(d)["versicolor"].to_numpy(), J="Petal.Width", K=6, plot=False)
    assert res.outputs == ("versicolor",)
    assert_array_equal(res.effects[:, 0], ref.f_values)
    with pytest.raises(PredictionError, match=re.escape("must name columns of R's predict() answer ['setosa'")):
        ale(model, X, "Petal.Width", response="nope")
    code, _, stderr = run_main(["run", "--data", tmp_path / "iris.csv", "--model", path, "--r-predict-type", "prob",
                                "--response", "virginica", "--features", "Petal.Width", "--drop", "Species",
                                "--out", tmp_path / "out"])
    assert code == 0, stderr
    assert (tmp_path / "out" / "ale_Petal.Width.csv").exists()
