"""Model adapters: native xgboost and lightgbm Boosters, and scikit-learn's feature_names_in_."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pandas as pd
import pytest

import pyale
from pyale import PredictionError


def data(n=400, seed=2):
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame({
        "a": rng.normal(size=n),
        "b": rng.uniform(size=n),
        "g": pd.Categorical(rng.choice(["u", "v", "w"], size=n)),
    })
    y = frame["a"] * frame["b"] + (frame["g"] == "v") * 1.5 + 0.1 * rng.normal(size=n)
    return frame, y.to_numpy()


def with_extras(frame):
    """The model's columns in another order, with columns it never saw."""
    out = frame[["g", "b", "a"]].copy()
    out.insert(1, "noise", np.arange(len(frame), dtype=float))
    out["label"] = "x"
    return out


def test_sklearn_model_gets_its_own_columns_in_its_own_order():
    pytest.importorskip("sklearn")
    from sklearn.linear_model import LinearRegression

    frame, y = data()
    numeric = frame[["a", "b"]]
    model = LinearRegression().fit(numeric, y)
    expected = pyale.ale(lambda d: model.predict(d[["a", "b"]]), numeric, ["a", ("a", "b")], n_intervals=6)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = pyale.ale(model, with_extras(frame), ["a", ("a", "b")], n_intervals=6)
    assert got.equals(expected)


def test_sklearn_missing_column_is_named():
    pytest.importorskip("sklearn")
    from sklearn.linear_model import LinearRegression

    frame, y = data()
    model = LinearRegression().fit(frame[["a", "b"]], y)
    with pytest.raises(PredictionError, match=re.escape("expects columns ['a', 'b']; the data lacks ['b'].")):
        pyale.ale(model, frame[["a", "g"]], "a")


@pytest.mark.parametrize("feature_names, hinted", [(None, True), (["a", "c"], False)],
                         ids=["default-names", "other-names"])
def test_numpy_x_for_a_model_fitted_on_a_frame_asks_for_feature_names(feature_names, hinted):
    pytest.importorskip("sklearn")
    from sklearn.linear_model import LinearRegression

    frame, y = data()
    model = LinearRegression().fit(frame[["a", "b"]], y)
    hint = ("X is a NumPy array, whose columns are named x0, x1, ... unless feature_names= names them: pass "
            "feature_names=model.feature_names_in_ (the names the model was fitted with), or X as a DataFrame.")
    with pytest.raises(PredictionError, match="the data lacks") as caught:
        pyale.ale(model, frame[["a", "b"]].to_numpy(), 0, feature_names=feature_names)
    assert (hint in str(caught.value)) is hinted
    got = pyale.ale(model, frame[["a", "b"]].to_numpy(), "a", feature_names=model.feature_names_in_, n_intervals=5)
    assert got.equals(pyale.ale(model, frame[["a", "b"]], "a", n_intervals=5))


def test_xgboost_booster_predicts_on_a_dmatrix_with_categories():
    xgb = pytest.importorskip("xgboost")
    frame, y = data()
    booster = xgb.train({"max_depth": 3, "eta": 0.3, "nthread": 1}, xgb.DMatrix(frame, y, enable_categorical=True),
                        num_boost_round=15)

    def plain(d):
        return booster.predict(xgb.DMatrix(d[["a", "b", "g"]], enable_categorical=True))

    features = ["a", "g", ("a", "b"), ("g", "b")]
    expected = pyale.ale(plain, frame, features, n_intervals=6)
    got = pyale.ale(booster, with_extras(frame), features, n_intervals=6)
    assert got.equals(expected)
    assert got[0].outputs == ("yhat",) and np.ptp(got[0].effects) > 0.1


def test_xgboost_booster_without_names_and_with_classes():
    xgb = pytest.importorskip("xgboost")
    frame, y = data()
    values = frame[["a", "b"]].to_numpy()
    labels = np.digitize(y, np.quantile(y, [1 / 3, 2 / 3]))
    booster = xgb.train({"objective": "multi:softprob", "num_class": 3, "max_depth": 2, "nthread": 1},
                        xgb.DMatrix(values, labels), num_boost_round=10)
    assert booster.feature_names is None
    got = pyale.ale(booster, frame[["a", "b"]], "a", n_intervals=5)
    expected = pyale.ale(lambda d: booster.predict(xgb.DMatrix(d.to_numpy())), frame[["a", "b"]], "a", n_intervals=5)
    assert got.equals(expected) and got.effects.shape == (6, 3)
    with pytest.raises(ValueError, match=re.escape("The 'response' parameter selects classes of a classifier with "
                                                   "predict_proba; a native xgboost Booster has none")):
        pyale.ale(booster, frame[["a", "b"]], "a", response=1)


def test_lightgbm_booster_selects_and_orders_its_features():
    lgb = pytest.importorskip("lightgbm")
    frame, y = data()
    booster = lgb.train({"objective": "regression", "num_leaves": 7, "verbose": -1, "num_threads": 1,
                         "min_data_in_leaf": 5}, lgb.Dataset(frame, y), num_boost_round=15)
    assert booster.feature_name() == ["a", "b", "g"]

    def plain(d):
        return booster.predict(d[["a", "b", "g"]])

    features = ["a", "g", ("a", "b"), ("g", "a")]
    expected = pyale.ale(plain, frame, features, n_intervals=6)
    got = pyale.ale(booster, with_extras(frame), features, n_intervals=6)
    assert got.equals(expected)
    assert np.ptp(got[1].effects) > 0.5  # the categorical feature matters: categories were read as trained
    with pytest.raises(PredictionError, match=re.escape("the lightgbm Booster expects columns ['a', 'b', 'g']; "
                                                        "the data lacks ['g'].")):
        pyale.ale(booster, frame[["a", "b"]], "a")


def test_lightgbm_booster_trained_on_an_array_reads_columns_by_position():
    lgb = pytest.importorskip("lightgbm")
    frame, y = data()
    values = frame[["a", "b"]].to_numpy()
    booster = lgb.train({"objective": "regression", "verbose": -1, "num_threads": 1}, lgb.Dataset(values, y),
                        num_boost_round=5)
    got = pyale.ale(booster, frame[["a", "b"]], "b", n_intervals=4)
    expected = pyale.ale(lambda d: booster.predict(d.to_numpy()), frame[["a", "b"]], "b", n_intervals=4)
    assert got.equals(expected)


def test_lightgbm_sklearn_classifier_on_polars():
    lgb = pytest.importorskip("lightgbm")
    pl = pytest.importorskip("polars")
    frame, y = data()
    model = lgb.LGBMClassifier(n_estimators=10, num_leaves=7, verbose=-1, n_jobs=1).fit(frame[["a", "b"]], y > 0.5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = pyale.ale(model, pl.from_pandas(with_extras(frame)), "a", n_intervals=5)
    expected = pyale.ale(lambda d: model.predict_proba(d[["a", "b"]]), frame, "a", n_intervals=5)
    assert got.outputs == (False, True)
    assert np.array_equal(got.effects, expected.effects)
