"""pyale.ale under iml's conventions equals pyale.FeatureEffect(method="ale"), which equals iml 0.11.4.

And under ALEPlot's conventions it equals pyale.ALEPlot.  One estimator core
serves all three front-ends; these tests pin that the options route to it
correctly for every kind of column and pair.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from pyale import ALEPlot, FeatureEffect, Predictor, ale


def make_frame(n: int = 240, seed: int = 3) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    x1 = rng.normal(size=n)
    x2 = 0.6 * x1 + rng.normal(scale=0.8, size=n)
    return pd.DataFrame({
        "x1": x1,
        "x2": x2,
        "k": rng.integers(0, 12, n),
        "g": pd.Categorical(rng.choice(["b", "a", "c"], n, p=[0.5, 0.3, 0.2])),
        "o": pd.Categorical(rng.choice(["lo", "mid", "hi"], n), categories=["lo", "mid", "hi"], ordered=True),
        "s": np.where(x1 > 0.3, "up", np.where(x1 < -0.5, "down", "flat")).astype(object),
    })


X = make_frame()
G_EFFECT = {"a": 0.0, "b": 1.5, "c": -0.7}
O_EFFECT = {"lo": 0.0, "mid": 0.4, "hi": 1.1}
S_EFFECT = {"down": -1.0, "flat": 0.0, "up": 2.0}


def model(d: pd.DataFrame) -> np.ndarray:
    g = d["g"].astype(str).map(G_EFFECT).to_numpy(float)
    o = d["o"].astype(str).map(O_EFFECT).to_numpy(float)
    s = d["s"].astype(str).map(S_EFFECT).to_numpy(float)
    x1, x2, k = d["x1"].to_numpy(float), d["x2"].to_numpy(float), d["k"].to_numpy(float)
    return np.sin(x1) * x2 + 0.1 * k * x1 + g * x2 + o * x1 + s + 0.05 * k**2 * (g - 0.3)


def iml_values(feature, grid_size, frame=X, predict=model):
    results = FeatureEffect(Predictor(predict_function=predict, data=frame), feature, grid_size=grid_size).results
    return results


@pytest.mark.parametrize("feature", ["x1", "k", "g", "o", "s"])
@pytest.mark.parametrize("grid_size", [5, 20])
def test_one_feature_iml_conventions_equal_feature_effect(feature, grid_size):
    res = ale(model, X, feature, conventions="iml", n_intervals=grid_size)
    expected = iml_values(feature, grid_size)
    assert res.conventions == "iml"
    assert_allclose(res.effects[:, 0], expected[".value"].to_numpy(float), rtol=1e-12, atol=1e-12)
    if res.kind == "numeric":
        assert_array_equal(res.grid[0], expected[feature].to_numpy(float))
    else:
        assert list(res.grid[0]) == list(expected[feature].astype(str))
        assert list(res.level_order) == list(res.grid[0])


def _iml_surface(results: pd.DataFrame, n_first: int, n_second: int) -> np.ndarray:
    """iml's long pair table (second axis outer, first axis inner) as an (n_first, n_second) matrix."""
    return results[".ale"].to_numpy(float).reshape(n_second, n_first).T


@pytest.mark.parametrize("pair", [("x1", "x2"), ("x1", "k"), ("k", "x2"), ("g", "x1"), ("x1", "g"), ("s", "k"),
                                  ("k", "o")])
def test_pairs_iml_conventions_equal_feature_effect(pair):
    res = ale(model, X, pair, conventions="iml", n_intervals=6)
    expected = iml_values(list(pair), 6)
    categorical = [name for name in pair if not pd.api.types.is_numeric_dtype(X[name])]
    if categorical:
        assert res.kind == "categorical x numeric"
        assert res.features[0] == categorical[0]
    else:
        assert res.kind == "numeric x numeric"
        assert res.features == pair
    n1, n2 = res.effects.shape[:2]
    assert_allclose(res.effects[..., 0], _iml_surface(expected, n1, n2), rtol=1e-12, atol=1e-12)
    numeric = res.features[1]
    assert_array_equal(res.grid[1], np.unique(expected[numeric].to_numpy(float)))
    frame = res.to_frame()
    assert frame.shape == (n1 * n2, 5)
    assert list(frame.columns) == [*res.features, "output", "ale", "heterogeneity"]


def test_two_categorical_features_are_refused_under_both_conventions():
    msg = "ale does not compute ALE for two categorical features ('g', 's'); iml 0.11.4 stops"
    with pytest.raises(ValueError, match=re.escape(msg)):
        ale(model, X, ("g", "s"), conventions="iml")
    with pytest.raises(ValueError, match="pair of two categorical features"):
        ale(model, X, ("g", "s"))


def test_numeric_first_pair_under_aleplot_conventions_says_to_swap():
    with pytest.raises(ValueError, match=re.escape("Swap them: features=('g', 'x1')")):
        ale(model, X, ("x1", "g"))


def test_user_grid_follows_its_feature_when_iml_swaps_the_pair():
    grid_x1 = np.linspace(X["x1"].min(), X["x1"].max(), 5)
    res = ale(model, X, ("x1", "g"), conventions="iml", grid=(grid_x1, None))
    assert res.features == ("g", "x1")
    assert_array_equal(res.grid[1], grid_x1)
    effect = FeatureEffect(Predictor(predict_function=model, data=X), ["x1", "g"], grid_points=[grid_x1, None])
    n1, n2 = res.effects.shape[:2]
    assert_allclose(res.effects[..., 0], _iml_surface(effect.results, n1, n2), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("J", ["x1", "k", "g", "s", ("x1", "x2"), ("g", "x2"), ("s", "k")])
def test_aleplot_conventions_equal_aleplot(J):
    res = ale(model, X, J, n_intervals=9)
    ref = ALEPlot(X, None, lambda m, d: model(d), J=J, K=9, plot=False)
    assert res.conventions == "aleplot"
    assert_array_equal(res.effects[..., 0], ref.f_values)
    first = ref.x_values[0] if isinstance(J, tuple) else ref.x_values
    assert list(res.grid[0]) == list(first)
    assert_array_equal(res.counts, ref.counts)


def test_conventions_differ_where_iml_and_aleplot_differ():
    """The same call under the two conventions gives different grids (iml: 20 intervals from 0; ALEPlot: 40)."""
    iml = ale(model, X, "x1", conventions="iml")
    aleplot = ale(model, X, "x1")
    assert iml.grid[0].shape[0] == 21
    assert aleplot.grid[0].shape[0] == 41


def test_classifier_pair_under_iml_conventions_has_one_surface_per_class():
    pytest.importorskip("sklearn")
    from sklearn.linear_model import LogisticRegression

    label = np.where(X["x1"] + X["x2"] > 0.5, "high", np.where(X["x1"] > -0.5, "mid", "low"))
    frame = X[["x1", "x2"]]
    clf = LogisticRegression(max_iter=500).fit(frame, label)
    res = ale(clf, frame, ("x1", "x2"), conventions="iml", n_intervals=5)
    assert res.outputs == ("high", "low", "mid")
    expected = FeatureEffect(Predictor(clf, data=frame, type="prob"), ["x1", "x2"], grid_size=5).results
    n1, n2 = res.effects.shape[:2]
    for c, name in enumerate(res.outputs):
        part = expected[expected[".class"].astype(str) == name]
        assert_allclose(res.effects[..., c], _iml_surface(part, n1, n2), rtol=1e-12, atol=1e-12)


def test_statsmodels_and_sklearn_pipeline_under_iml_conventions():
    smf = pytest.importorskip("statsmodels.formula.api")
    pytest.importorskip("sklearn")
    from sklearn.compose import ColumnTransformer
    from sklearn.ensemble import HistGradientBoostingRegressor
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder

    y = model(X) + np.random.default_rng(0).normal(scale=0.1, size=X.shape[0])
    fit = smf.ols("y ~ np.sin(x1) * x2 + C(g) * x2 + k", data=X.assign(y=y)).fit()
    pre = ColumnTransformer([("cat", OneHotEncoder(), ["g", "o", "s"])], remainder="passthrough")
    pipe = make_pipeline(pre, HistGradientBoostingRegressor(max_iter=40, random_state=0)).fit(X, y)
    for fitted, predict in ((fit, lambda d: np.asarray(fit.predict(d))), (pipe, pipe.predict)):
        for feature in ("g", ("g", "x2"), ("x2", "k")):
            res = ale(fitted, X, feature, conventions="iml", n_intervals=7)
            expected = iml_values(list(feature) if isinstance(feature, tuple) else feature, 7, predict=predict)
            if isinstance(feature, tuple):
                n1, n2 = res.effects.shape[:2]
                assert_allclose(res.effects[..., 0], _iml_surface(expected, n1, n2), rtol=1e-12, atol=1e-12)
            else:
                assert_allclose(res.effects[:, 0], expected[".value"].to_numpy(float), rtol=1e-12, atol=1e-12)


def test_plot_of_a_swapped_iml_pair():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    res = ale(model, X, ("x1", "g"), conventions="iml", n_intervals=5)
    display = res.plot()
    assert display.axes_[0, 0].get_xlabel() != ""
    plt.close("all")


@pytest.mark.r
@pytest.mark.parametrize("fit_code, feature", [
    ("lm(y ~ sin(x1) * x2 + g * x2 + k, data = train)", ("g", "x2")),
    ("randomForest::randomForest(y ~ x1 + x2 + k + g, data = train, ntree = 30)", "x1"),
    ("randomForest::randomForest(y ~ x1 + x2 + k + g, data = train, ntree = 30)", ("x1", "x2")),
])
def test_r_model_objects_give_iml_numbers(R, fit_code, feature):
    """An R fit explained from Python with ale(conventions="iml") equals iml's FeatureEffect run in R."""
    R.require("iml", "randomForest", "yaImpute")
    from pyale.r import to_r_dataframe

    frame = X[["x1", "x2", "k", "g"]]
    y = model(X)
    R.ro.globalenv["train"] = to_r_dataframe(frame.assign(y=y))
    R.ro.globalenv["X"] = to_r_dataframe(frame)
    fit = R(f"set.seed(1); fit <- {fit_code}; fit")
    names = "c('" + "', '".join(feature) + "')" if isinstance(feature, tuple) else f"'{feature}'"
    R(f"r_res <- iml::FeatureEffect$new(iml::Predictor$new(fit, data = X), {names}, grid.size = 6)$results")
    value = ".ale" if isinstance(feature, tuple) else ".value"
    expected = np.asarray(R(f"r_res${value}"), dtype=float)
    res = ale(fit, frame, feature, conventions="iml", n_intervals=6)
    if isinstance(feature, tuple):
        n1, n2 = res.effects.shape[:2]
        assert_allclose(res.effects[..., 0], expected.reshape(n2, n1).T, rtol=1e-10, atol=1e-10)
    else:
        assert_allclose(res.effects[:, 0], expected, rtol=1e-10, atol=1e-10)
