"""Model adapters: native xgboost and lightgbm Boosters, and scikit-learn's feature_names_in_."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pandas as pd
import pytest

import pyale
from pyale import PredictionError
from pyale._core.map.adapters import declared_features


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


# ------------------------------------------------- feature names the model rewrote (LightGBM) or keeps


def cancer():
    """scikit-learn's breast cancer data: column names with spaces ("mean radius")."""
    datasets = pytest.importorskip("sklearn.datasets")
    X, y = datasets.load_breast_cancer(return_X_y=True, as_frame=True)
    return X.iloc[:, :6], y.to_numpy()


def cancer_models():
    lgb = pytest.importorskip("lightgbm")
    X, y = cancer()
    options = {"n_estimators": 10, "num_leaves": 7, "verbose": -1, "n_jobs": 1}
    classifier = lgb.LGBMClassifier(**options).fit(X, y)
    return X, {
        "LGBMClassifier": (classifier, classifier.predict_proba),
        "LGBMRegressor": (lambda m: (m, m.predict))(lgb.LGBMRegressor(**options).fit(X, y)),
        "Booster": (classifier.booster_, classifier.booster_.predict),
    }


@pytest.mark.parametrize("name", ["LGBMClassifier", "LGBMRegressor", "Booster"])
def test_lightgbm_gets_the_columns_it_was_fitted_on_when_their_names_hold_spaces(name):
    X, models = cancer_models()
    model, predict = models[name]
    assert "mean_radius" in declared_features(model) and "mean radius" in X.columns  # LightGBM's own names
    features = ["mean radius", ("mean texture", "mean area")]
    expected = pyale.ale(lambda d: predict(d[list(X.columns)]), X, features, n_intervals=5)
    reordered = X[X.columns[::-1]].assign(**{"an id": np.arange(len(X))})  # other order, a column it never saw
    for data in (reordered, X):
        got = pyale.ale(model, data, features, n_intervals=5)
        assert all(np.array_equal(g.effects, e.effects) for g, e in zip(got, expected))
    assert np.ptp(got[0].effects) > 0


def test_lightgbm_refuses_two_columns_that_it_would_name_alike():
    X, models = cancer_models()
    doubled = X.assign(mean_radius=X["mean radius"] * 2)
    message = ("The model's feature 'mean_radius' could be any of the columns ['mean radius', 'mean_radius']: "
               "LightGBM writes spaces in feature names as '_'")
    for model, _ in models.values():
        with pytest.raises(PredictionError, match=re.escape(message)):
            pyale.ale(model, doubled, "mean texture", n_intervals=5)


def test_xgboost_keeps_names_with_spaces():
    xgb = pytest.importorskip("xgboost")
    X, y = cancer()
    classifier = xgb.XGBClassifier(n_estimators=10, max_depth=2, n_jobs=1).fit(X, y)
    booster = classifier.get_booster()
    assert booster.feature_names == list(X.columns)
    reordered = X[X.columns[::-1]]
    for model, predict in [(classifier, classifier.predict_proba),
                           (booster, lambda d: booster.predict(xgb.DMatrix(d)))]:
        expected = pyale.ale(lambda d: predict(d[list(X.columns)]), X, "mean radius", n_intervals=5)
        assert np.array_equal(pyale.ale(model, reordered, "mean radius", n_intervals=5).effects, expected.effects)


class _CatBoostLike:
    """What pyale reads of a fitted CatBoost model (not installed here): its module, feature_names_, n_features_in_."""

    __module__ = "catboost.core"

    def __init__(self, names):
        self.feature_names_, self.n_features_in_ = list(names), len(names)
        self.classes_ = np.array([0, 1])

    def predict_proba(self, data):
        # CatBoost matches a DataFrame's columns by name; this stand-in insists on its own order.
        assert isinstance(data, pd.DataFrame) and list(data.columns) == self.feature_names_
        p = 1 / (1 + np.exp(-(data.iloc[:, 0] - 2 * data.iloc[:, 1]).to_numpy()))
        return np.column_stack([1 - p, p])


def test_catboost_is_handed_its_feature_names_in_its_order():
    X, _ = cancer()
    model = _CatBoostLike(["mean texture", "mean radius"])
    assert declared_features(model) == ["mean texture", "mean radius"]
    got = pyale.ale(model, X, "mean radius", n_intervals=5)
    expected = pyale.ale(lambda d: model.predict_proba(d[["mean texture", "mean radius"]]), X, "mean radius",
                         n_intervals=5)
    assert np.array_equal(got.effects, expected.effects) and got.outputs == (0, 1)
    assert declared_features(_CatBoostLike(["0", "1"])) is None  # trained on an array: by position


# ------------------------------------------------- response_method: what a classifier's effect is computed on


def iris(binary=False):
    datasets = pytest.importorskip("sklearn.datasets")
    X, y = datasets.load_iris(return_X_y=True, as_frame=True)
    return X, ((y == 1).to_numpy().astype(int) if binary else y.to_numpy())


class OnlyLabels:
    """A fitted classifier with neither predict_proba nor decision_function."""

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return (X.iloc[:, 2] > 3).astype(int).to_numpy()


def fitted(name):
    from sklearn.linear_model import LinearRegression, LogisticRegression, RidgeClassifier
    from sklearn.svm import SVC

    X, y = iris(binary=name.endswith("binary"))
    model = {"SVC binary": SVC(), "SVC": SVC(), "RidgeClassifier": RidgeClassifier(),
             "LogisticRegression": LogisticRegression(max_iter=500), "LinearRegression": LinearRegression(),
             "OnlyLabels binary": OnlyLabels()}[name]
    return X, model.fit(X, y)


AUTO = [  # model, what "auto" explains (as scikit-learn's partial_dependence), the outputs
    ("SVC binary", lambda m, d: m.decision_function(d)[:, None], (1,)),
    ("SVC", lambda m, d: m.decision_function(d), (0, 1, 2)),
    ("RidgeClassifier", lambda m, d: m.decision_function(d), (0, 1, 2)),
    ("LogisticRegression", lambda m, d: m.predict_proba(d), (0, 1, 2)),
    ("LinearRegression", lambda m, d: m.predict(d), ("yhat",)),
]


@pytest.mark.parametrize(("name", "answer", "outputs"), AUTO, ids=[a[0] for a in AUTO])
def test_response_method_auto_takes_scikit_learns_order(name, answer, outputs):
    X, model = fitted(name)
    features = ["petal length (cm)", ("sepal width (cm)", "petal width (cm)")]
    expected = pyale.ale(lambda d: answer(model, d), X, features, n_intervals=4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = pyale.ale(model, X, features, n_intervals=4)
        named = pyale.ale(model, X, features, n_intervals=4,
                          response_method="predict" if name == "LinearRegression" else
                          "predict_proba" if name == "LogisticRegression" else "decision_function")
    for g, n, e in zip(got, named, expected):
        assert g.outputs == outputs and g.equals(n)
        assert np.array_equal(g.effects, e.effects) and np.ptp(g.effects) > 0


def test_a_binary_decision_score_is_that_of_the_positive_class():
    X, model = fitted("SVC binary")
    positive = pyale.ale(model, X, "petal length (cm)", n_intervals=4)
    negative = pyale.ale(model, X, "petal length (cm)", n_intervals=4, response=0)
    both = pyale.ale(model, X, "petal length (cm)", n_intervals=4, response=[0, 1])
    assert positive.outputs == (1,) and negative.outputs == (0,) and both.outputs == (0, 1)
    assert np.array_equal(negative.effects, -positive.effects)
    assert np.array_equal(both.effects, np.column_stack([negative.effects, positive.effects]))


def test_hard_labels_are_explained_with_a_warning_unless_asked_for():
    X, model = fitted("OnlyLabels binary")
    expected = pyale.ale(lambda d: model.predict(d), X, "petal length (cm)", n_intervals=4)
    with pytest.warns(UserWarning, match=re.escape(
            "OnlyLabels has neither predict_proba nor decision_function: pyale explains its predicted class "
            "labels (predict)")):
        got = pyale.ale(model, X, "petal length (cm)", n_intervals=4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        asked = pyale.ale(model, X, "petal length (cm)", n_intervals=4, response_method="predict")
    assert got.outputs == ("yhat",) and got.equals(asked) and np.array_equal(got.effects, expected.effects)


def test_the_r_shaped_front_ends_keep_their_rule():
    """``adapt_model`` without response_method (iml's and ale's front-ends): labels of SVC, silently."""
    from pyale._core.map.adapters import adapt_model

    X, model = fitted("SVC binary")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        adapter = adapt_model(model)
    assert adapter.kind == "predict" and np.array_equal(adapter.predict(X), model.predict(X))


def _ovo():
    from sklearn.svm import SVC

    X, y = iris()
    return X, SVC(decision_function_shape="ovo").fit(X, np.r_[y[:-10], [3] * 10])  # four classes


BAD_METHODS = [
    (lambda: (*fitted("SVC binary"), "proba"), ValueError,
     "The 'response_method' parameter of ale must be one of ['auto', 'predict_proba', 'decision_function', "
     "'predict']. Got 'proba' instead."),
    (lambda: (*fitted("SVC binary"), None), TypeError,
     "The 'response_method' parameter of ale must be one of ['auto', 'predict_proba', 'decision_function', "
     "'predict']. Got None instead."),
    (lambda: (*fitted("SVC binary"), "predict_proba"), ValueError,
     "The 'response_method' parameter of ale must be 'auto' or a method of SVC ('decision_function', "
     "'predict'). Got 'predict_proba' instead."),
    (lambda: (*fitted("LinearRegression"), "decision_function"), ValueError,
     "The 'response_method' parameter of ale must be 'auto' or a method of LinearRegression ('predict'). "
     "Got 'decision_function' instead."),
    (lambda: (*_ovo(), "auto"), PredictionError,
     "SVC.decision_function returned scores of shape (150, 6) for 4 classes; pyale explains one score per "
     "class (one versus the rest; e.g. SVC(decision_function_shape='ovr'))."),
]


@pytest.mark.parametrize(("case", "error", "message"), BAD_METHODS, ids=["unknown", "None", "missing method",
                                                                         "regressor", "one versus one"])
def test_bad_response_methods_are_refused_by_name(case, error, message):
    X, model, method = case()
    with pytest.raises(error, match=re.escape(message)):
        pyale.ale(model, X, "petal length (cm)", n_intervals=4, response_method=method)


class _TextLabels:
    """A classifier with predict alone, whose labels are text."""

    def __init__(self, classes):
        self.classes_ = np.asarray(classes)

    def predict(self, X):
        return np.where(np.asarray(X)[:, 0] > 0, self.classes_[1], self.classes_[0])


@pytest.mark.parametrize("method", ["auto", "predict"])
def test_text_labels_are_refused_not_averaged(method):
    # "auto" used to warn "pass response_method='predict'", which then failed on the labels' dtype.
    X = pd.DataFrame({"x": np.linspace(-1, 1, 30)})
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning that points at something that fails
        with pytest.raises(ValueError, match=re.escape(
                "The 'response_method' parameter of ale asks _TextLabels for its predicted class labels (predict), "
                "and they are not numbers (['a', 'b']): ALE averages predictions, so labels cannot be explained. "
                "Fit a model that scores its classes")):
            pyale.ale(_TextLabels(["a", "b"]), X, "x", response_method=method)
    with pytest.warns(UserWarning, match="explains its predicted class labels"):  # numeric labels still work
        pyale.ale(_TextLabels([0, 1]), X, "x")
