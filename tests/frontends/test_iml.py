"""Unit tests of Predictor, FeatureEffect and FeatureEffects (no R needed).

Parity with iml lives in test_parity_iml.py; here: bad input, untouched
data, the places where pyale deliberately answers where iml fails or
misaligns, model adapters, predict() and plots.
"""

from __future__ import annotations

import re
import warnings

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose

from pyale import FeatureEffect, FeatureEffects, PredictionError, Predictor


def make_data(n: int = 40, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    x1 = rng.uniform(0, 1, n)
    return pd.DataFrame({
        "x1": x1,
        "x2": rng.normal(size=n),
        "k": rng.integers(1, 9, n),
        "g": pd.Categorical(np.where(x1 > 0.5, "hi", np.where(x1 > 0.2, "mid", "lo")), categories=["lo", "mid", "hi"]),
    })


def model(newdata: pd.DataFrame) -> np.ndarray:
    bonus = newdata["g"].astype(str).map({"lo": 0.0, "mid": 1.0, "hi": 3.0}).to_numpy()
    return newdata["x1"].to_numpy() ** 2 + newdata["x2"].to_numpy() * newdata["x1"].to_numpy() + 0.1 * newdata["k"] + bonus


def two_outputs(newdata: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame({"A": newdata["x1"].to_numpy(), "B": 1 - newdata["x1"].to_numpy()})


@pytest.fixture
def data():
    return make_data()


@pytest.fixture
def predictor(data):
    return Predictor(predict_function=model, data=data)


# ---------------------------------------------------------------- bad input
def _changing_columns():
    calls = {"n": 0}

    def predict(newdata):
        calls["n"] += 1
        name = "A" if calls["n"] == 1 else "Z"
        return pd.DataFrame({name: newdata["x1"].to_numpy(), "B": newdata["x2"].to_numpy()})

    return predict


BAD_INPUT = [
    ("no model", lambda d: Predictor(data=d), ValueError, "Predictor needs a model, a predict_function, or both."),
    ("no data", lambda d: Predictor(predict_function=model), ValueError, "The 'data' parameter of Predictor is required"),
    ("data not frame", lambda d: Predictor(predict_function=model, data=d.to_dict()), TypeError,
     "The 'data' parameter of Predictor must be a pandas or polars DataFrame, a pyarrow Table, or a 2-D NumPy "
     "array (with feature_names=). Got dict instead."),
    ("y unknown", lambda d: Predictor(predict_function=model, data=d, y="nope"), ValueError,
     "The 'y' parameter of Predictor must name a column of data. Got 'nope'"),
    ("y wrong length", lambda d: Predictor(predict_function=model, data=d, y=np.zeros(3)), ValueError,
     "The 'y' parameter of Predictor must be a column name or one value per row of data (40). Got shape (3,) instead."),
    ("batch_size 0", lambda d: Predictor(predict_function=model, data=d, batch_size=0), ValueError,
     "The 'batch_size' parameter of Predictor must be an int >= 1. Got 0 instead."),
    ("predict_function not callable", lambda d: Predictor(predict_function=3, data=d), TypeError,
     "The 'predict_function' parameter of Predictor must be callable. Got int instead."),
    ("model without predict", lambda d: Predictor(model=object(), data=d), TypeError,
     "The 'model' parameter of Predictor must have a predict method"),
    ("bool column", lambda d: Predictor(predict_function=model, data=d.assign(b=True)), TypeError,
     "The 'data' parameter of Predictor has column 'b' of dtype bool"),
    ("unknown feature", lambda d: FeatureEffect(Predictor(predict_function=model, data=d), "zz"), ValueError,
     "The 'feature' parameter of FeatureEffect must name features of the predictor's data (or 0-based positions). "
     "Got 'zz'; the features are ['x1', 'x2', 'k', 'g']."),
    ("three features", lambda d: FeatureEffect(Predictor(predict_function=model, data=d), ["x1", "x2", "k"]), ValueError,
     "The 'feature' parameter of FeatureEffect must name one feature or a pair. Got 3 items (['x1', 'x2', 'k']) instead."),
    ("same feature twice", lambda d: FeatureEffect(Predictor(predict_function=model, data=d), ["x1", "x1"]), ValueError,
     "The 'feature' parameter of FeatureEffect must name two different features. Got ['x1', 'x1']."),
    ("grid_size 0", lambda d: FeatureEffect(Predictor(predict_function=model, data=d), "x1", grid_size=0), ValueError,
     "The 'grid_size' parameter of FeatureEffect must be an int >= 1. Got 0 instead."),
    ("grid_size str", lambda d: FeatureEffect(Predictor(predict_function=model, data=d), "x1", grid_size="5"), TypeError,
     "The 'grid_size' parameter of FeatureEffect must be an int >= 1. Got '5' instead."),
    ("grid_size 2.5", lambda d: FeatureEffect(Predictor(predict_function=model, data=d), "x1", grid_size=2.5), TypeError,
     "The 'grid_size' parameter of FeatureEffect must be an int >= 1. Got 2.5 instead."),
    ("grid_size too long", lambda d: FeatureEffect(Predictor(predict_function=model, data=d), "x1", grid_size=[3, 4]),
     ValueError, "The 'grid_size' parameter of FeatureEffect must hold one size, or one per feature (1). Got [3, 4] instead."),
    ("grid_size 3 for pair", lambda d: FeatureEffect(Predictor(predict_function=model, data=d), ["x1", "x2"],
                                                    grid_size=[3, 4, 5]), ValueError,
     "The 'grid_size' parameter of FeatureEffect must hold one size, or one per feature (2). Got [3, 4, 5] instead."),
    ("method", lambda d: FeatureEffect(Predictor(predict_function=model, data=d), "x1", method="shap"), ValueError,
     "The 'method' parameter of FeatureEffect must be one of ['ale', 'pdp', 'ice', 'pdp+ice']. Got 'shap' instead."),
    ("ice pair", lambda d: FeatureEffect(Predictor(predict_function=model, data=d), ["x1", "x2"], method="ice"),
     ValueError, "FeatureEffect does not compute ICE curves for two features (iml neither)."),
    ("two categoricals", lambda d: FeatureEffect(Predictor(predict_function=model, data=d.assign(h=d["g"])), ["g", "h"]),
     ValueError, "FeatureEffect does not compute ALE for two categorical features ('g', 'h')"),
    ("constant feature", lambda d: FeatureEffect(Predictor(predict_function=model, data=d.assign(x2=1.0)), "x2"),
     ValueError, "Feature 'x2' has a single value in the data; its effect is undefined"),
    ("grid_points one value", lambda d: FeatureEffect(Predictor(predict_function=model, data=d), "x1", grid_points=[0.5]),
     ValueError, "The 'grid_points' parameter of FeatureEffect must hold at least two finite values for feature 'x1'."),
    ("grid_points text", lambda d: FeatureEffect(Predictor(predict_function=model, data=d), "x1", grid_points=["a", "b"]),
     TypeError, "The 'grid_points' parameter of FeatureEffect must hold numbers for feature 'x1'."),
    ("grid_points pair length", lambda d: FeatureEffect(Predictor(predict_function=model, data=d), ["x1", "x2"],
                                                       grid_points=[[0, 1]]), ValueError,
     "The 'grid_points' parameter of FeatureEffect must hold one sequence per feature for a pair. Got 1 instead."),
    ("center_at text for numeric", lambda d: FeatureEffect(Predictor(predict_function=model, data=d), "x1", method="pdp",
                                                          center_at="a"), TypeError,
     "The 'center_at' parameter of FeatureEffect must be a number for numeric feature 'x1'. Got 'a' instead."),
    ("center_at unknown level", lambda d: FeatureEffect(Predictor(predict_function=model, data=d), "g", method="pdp",
                                                       center_at="zz"), ValueError,
     "The 'center_at' parameter of FeatureEffect must be a level of feature 'g' (['lo', 'mid', 'hi']). Got 'zz' instead."),
    ("wrong rows", lambda d: FeatureEffect(Predictor(predict_function=lambda nd: np.zeros(3), data=d), "x1"),
     PredictionError, "predict_function returned 3 value(s) for 40 row(s) of newdata"),
    ("changing columns", lambda d: FeatureEffect(Predictor(predict_function=_changing_columns(), data=d), "x1"),
     PredictionError, "predict_function changed its outputs between calls: first ['A', 'B'], now ['Z', 'B']."),
    ("NaN prediction", lambda d: FeatureEffect(Predictor(predict_function=lambda nd: np.full(len(nd), np.nan), data=d), "x1"),
     PredictionError, "predict_function returned 40 non-finite prediction(s)"),
    ("class_ not an output", lambda d: FeatureEffect(Predictor(predict_function=two_outputs, data=d, class_="C"), "x1"),
     ValueError, "The 'class_' parameter of Predictor must name one of the model's outputs ['A', 'B']. Got 'C' instead."),
    ("predictor type", lambda d: FeatureEffect("not a predictor", "x1"), TypeError,
     "The 'predictor' parameter of FeatureEffect must be a pyale.Predictor. Got str instead."),
    ("effects unknown feature", lambda d: FeatureEffects(Predictor(predict_function=model, data=d), features=["x1", "q"]),
     ValueError, "The 'features' parameter of FeatureEffects must name features of the predictor's data. Got unknown ['q']"),
    ("grid outside all rows", lambda d: FeatureEffect(Predictor(predict_function=model, data=d), "x1", grid_points=[5, 6]),
     ValueError, "The 'grid_points' parameter of FeatureEffect leaves every row of the data outside the grid"),
]


@pytest.mark.parametrize("build, error, message", [c[1:] for c in BAD_INPUT], ids=[c[0] for c in BAD_INPUT])
def test_bad_input(data, build, error, message):
    with pytest.raises(error, match=re.escape(message)):
        build(data)


PREDICT_ERRORS = [
    ("pair", dict(feature=["x1", "x2"]), ValueError, "FeatureEffect.predict works for a single feature only"),
    ("ice", dict(feature="x1", method="ice"), ValueError, "FeatureEffect.predict needs an ALE or PDP curve"),
]


@pytest.mark.parametrize("kwargs, error, message", [c[1:] for c in PREDICT_ERRORS], ids=[c[0] for c in PREDICT_ERRORS])
def test_predict_errors(predictor, kwargs, error, message):
    effect = FeatureEffect(predictor, grid_size=4, **kwargs)
    with pytest.raises(error, match=re.escape(message)):
        effect.predict([0.5])


def test_predict_multi_output_error(data):
    effect = FeatureEffect(Predictor(predict_function=two_outputs, data=data), "x1", grid_size=3)
    with pytest.raises(ValueError, match=re.escape("FeatureEffect.predict works for a single model output only")):
        effect.predict([0.5])


# ---------------------------------------------------------------- untouched data
@pytest.mark.parametrize(
    ("feature", "method"),
    [
        (feature, method)
        for feature in ["x1", "k", "g", ["x1", "x2"], ["g", "x2"]]
        for method in ["ale", "pdp", "pdp+ice"]
        # iml has no ICE for pairs; that combination is an error, tested elsewhere
        if not (isinstance(feature, list) and method == "pdp+ice")
    ],
)
def test_data_never_mutated(data, feature, method):
    before = data.copy(deep=True)
    dtypes = data.dtypes.copy()
    seen = []

    def spy(newdata):
        seen.append(newdata)
        return model(newdata)

    predictor = Predictor(predict_function=spy, data=data)
    FeatureEffect(predictor, feature, method=method, grid_size=4)
    pd.testing.assert_frame_equal(data, before)
    assert data.dtypes.equals(dtypes)
    assert all(list(nd.columns) == list(data.columns) for nd in seen)


# ---------------------------------------------------------------- rows per model call
def _sizes_and_results(frame, feature, method, **options):
    sizes = []

    def spy(newdata):
        sizes.append(len(newdata))
        return model(newdata)

    batch = options.pop("batch_size", 1000)
    predictor = Predictor(predict_function=spy, data=frame, batch_size=batch)
    return sizes, FeatureEffect(predictor, feature, method=method, grid_size=5, **options).results


@pytest.mark.parametrize("feature", ["x1", "k", "g", ["x1", "x2"], ["g", "x2"]])
def test_ale_sends_whole_frames_as_iml_and_max_rows_per_call_caps_them(feature):
    frame = make_data(n=300, seed=3)
    # iml ignores batch.size for ALE: each shifted copy goes to the model whole.
    sizes, whole = _sizes_and_results(frame, feature, "ale", batch_size=7)
    assert max(sizes) > 200
    bounded_sizes, bounded = _sizes_and_results(frame, feature, "ale", max_rows_per_call=45)
    assert max(bounded_sizes) <= 45
    assert sum(bounded_sizes) == sum(sizes)
    pd.testing.assert_frame_equal(bounded, whole, check_exact=True)


def test_numeric_ale_calls_the_model_twice():
    sizes, _ = _sizes_and_results(make_data(n=300, seed=3), "x1", "ale")
    assert sizes == [300, 300]


@pytest.mark.parametrize("method", ["pdp", "pdp+ice"])
def test_partial_dependence_is_batched_by_batch_size(method):
    frame = make_data(n=300, seed=3)
    sizes, small = _sizes_and_results(frame, "x1", method, batch_size=45)
    assert max(sizes) <= 45
    big_sizes, big = _sizes_and_results(frame, "x1", method, batch_size=10**6)
    assert max(big_sizes) > 45
    pd.testing.assert_frame_equal(small, big, check_exact=True)


def test_max_rows_per_call_checked(predictor):
    with pytest.raises(ValueError, match="max_rows_per_call"):
        FeatureEffect(predictor, "x1", max_rows_per_call=0)


def test_target_column_removed_and_not_passed(data):
    seen = []
    frame = data.assign(target=np.arange(len(data), dtype=float))

    def spy(newdata):
        seen.append(list(newdata.columns))
        return model(newdata)

    predictor = Predictor(predict_function=spy, data=frame, y="target")
    assert predictor.feature_names == ["x1", "x2", "k", "g"]
    FeatureEffects(predictor, grid_size=3)
    assert all("target" not in columns for columns in seen)
    assert "target" in frame.columns


# ---------------------------------------------------------------- where iml is wrong
def test_user_grid_with_empty_interval_gives_one_row_per_grid_point():
    X = pd.DataFrame({"x": np.r_[np.linspace(0.0, 0.4, 10), np.linspace(0.6, 1.0, 10)], "z": np.ones(20)})
    predictor = Predictor(predict_function=lambda nd: 2 * nd["x"], data=X)
    res = FeatureEffect(predictor, "x", grid_points=[0.0, 0.5, 0.55, 1.0]).results
    assert res["x"].tolist() == [0.0, 0.5, 0.55, 1.0]
    curve = np.array([0.0, 1.0, 1.0, 1.9])
    counts = np.array([10, 0, 10])
    centre = (((curve[:-1] + curve[1:]) / 2) * counts).sum() / counts.sum()
    assert_allclose(res[".value"], curve - centre, rtol=1e-12)


def test_user_grid_not_covering_the_data_leaves_rows_out_with_warning():
    X = make_data(60)
    predictor = Predictor(predict_function=model, data=X)
    with pytest.warns(UserWarning, match="rows lie outside grid_points of 'x1'"):
        res = FeatureEffect(predictor, "x1", grid_points=[0.1, 0.4, 0.8]).results
    inside = X[(X["x1"] >= 0.1) & (X["x1"] <= 0.8)].reset_index(drop=True)
    expected = FeatureEffect(Predictor(predict_function=model, data=inside), "x1", grid_points=[0.1, 0.4, 0.8]).results
    pd.testing.assert_frame_equal(res, expected)
    assert np.isfinite(res[".value"]).all()


def test_string_feature_equals_categorical(data):
    as_str = data.assign(g=data["g"].astype(str).astype(object))
    a = FeatureEffect(Predictor(predict_function=model, data=as_str), "g").results
    b = FeatureEffect(Predictor(predict_function=model, data=data), "g").results
    by_label_a = dict(zip(a["g"].astype(str), a[".value"]))
    by_label_b = dict(zip(b["g"].astype(str), b[".value"]))
    assert by_label_a.keys() == by_label_b.keys()
    for key in by_label_a:
        assert by_label_a[key] == pytest.approx(by_label_b[key], abs=1e-12)


def test_string_covariate_is_categorical_in_level_distances(data):
    with_str = data.assign(s=np.where(data["x1"] > 0.5, "p", "q").astype(object))
    res = FeatureEffect(Predictor(predict_function=model, data=with_str), "g").results
    assert res.shape[0] == 3


def test_pair_order_does_not_matter(data):
    predictor = Predictor(predict_function=model, data=data)
    a = FeatureEffect(predictor, ["k", "g"], grid_size=3).results
    b = FeatureEffect(predictor, ["g", "k"], grid_size=3).results
    pd.testing.assert_frame_equal(a, b)


def test_unused_levels_are_dropped(data):
    widened = data.assign(g=data["g"].cat.add_categories(["never"]))
    a = FeatureEffect(Predictor(predict_function=model, data=widened), "g").results
    b = FeatureEffect(Predictor(predict_function=model, data=data), "g").results
    assert list(a["g"].astype(str)) == list(b["g"].astype(str))
    assert_allclose(a[".value"], b[".value"], rtol=1e-12, atol=1e-14)


def test_single_feature_data_is_accepted():
    X = pd.DataFrame({"x": np.linspace(0, 1, 11)})
    res = FeatureEffect(Predictor(predict_function=lambda nd: 3 * nd["x"], data=X), "x", grid_size=2).results
    # Edges 0, 0.5, 1 (type-1 quantiles); 6 rows in the first interval, 5 in the second.
    centre = (0.75 * 6 + 2.25 * 5) / 11
    assert_allclose(res[".value"], np.array([0.0, 1.5, 3.0]) - centre, atol=1e-12)


def test_center_at_with_ale_warns_and_is_ignored(predictor):
    with pytest.warns(UserWarning, match="The 'center_at' parameter of FeatureEffect is ignored for ALE"):
        a = FeatureEffect(predictor, "x1", center_at=0.5, grid_size=5)
    b = FeatureEffect(predictor, "x1", grid_size=5)
    pd.testing.assert_frame_equal(a.results, b.results)
    assert a.center_at is None


def test_center_at_with_user_grid_is_added_to_grid(predictor):
    res = FeatureEffect(predictor, "x1", method="pdp", grid_points=[0.2, 0.8], center_at=0.5).results
    assert res["x1"].tolist() == [0.2, 0.5, 0.8]
    assert res[".value"].iloc[1] == 0.0


def test_center_at_level_for_categorical(predictor):
    res = FeatureEffect(predictor, "g", method="pdp", center_at="mid").results
    values = dict(zip(res["g"].astype(str), res[".value"]))
    assert values["mid"] == 0.0
    assert values["hi"] == pytest.approx(2.0)


def test_pdp_grid_size_one(predictor):
    res = FeatureEffect(predictor, "x1", method="pdp", grid_size=1).results
    assert res.shape[0] == 1


# ---------------------------------------------------------------- models and outputs
def test_sklearn_classifier_probabilities_and_labels(data):
    sklearn = pytest.importorskip("sklearn")
    from sklearn.linear_model import LogisticRegression

    X = data[["x1", "x2"]]
    y = np.where(data["x1"] + 0.3 * data["x2"] > 0.6, "yes", "no")
    clf = LogisticRegression().fit(X, y)
    prob = FeatureEffect(Predictor(clf, data=X, type="prob"), "x1", grid_size=3).results
    assert list(prob.columns) == [".type", ".class", ".value", "x1"]
    assert list(prob[".class"].cat.categories) == ["no", "yes"]
    one = FeatureEffect(Predictor(clf, data=X, type="prob", class_="yes"), "x1", grid_size=3).results
    assert_allclose(one[".value"], prob.loc[prob[".class"] == "yes", ".value"])
    labels = Predictor(clf, data=X).predict(X)
    assert list(labels.columns) == ["no", "yes"]
    assert set(np.unique(labels.to_numpy())) <= {0.0, 1.0}
    del sklearn


def test_statsmodels_results(data):
    smf = pytest.importorskip("statsmodels.formula.api")
    frame = data.assign(y=model(data))
    fit = smf.ols("y ~ x1 + I(x1 ** 2) + x2 + C(g)", data=frame).fit()
    res = FeatureEffect(Predictor(fit, data=frame, y="y"), "x1", grid_size=4).results
    assert res.shape == (5, 3)
    assert np.isfinite(res[".value"]).all()


def test_unnamed_matrix_outputs_get_iml_names(data):
    predictor = Predictor(predict_function=lambda nd: np.column_stack([nd["x1"], nd["x2"]]), data=data)
    res = FeatureEffect(predictor, "x1", grid_size=2).results
    assert list(res[".class"].cat.categories) == ["1", "2"]  # iml: data.frame(pred, check.names = FALSE)


def test_model_with_predict_function(data):
    predictor = Predictor(model={"scale": 2.0}, data=data, predict_function=lambda m, nd: m["scale"] * nd["x1"])
    assert_allclose(predictor.predict(data).iloc[:, 0], 2 * data["x1"])


# ---------------------------------------------------------------- predict()
def test_predict_interpolates_and_extrapolates(data):
    X = pd.DataFrame({"x": np.linspace(0, 1, 21), "z": np.zeros(21)})
    effect = FeatureEffect(Predictor(predict_function=lambda nd: 4 * nd["x"], data=X), "x", grid_size=4)
    got = effect.predict(np.array([-1.0, 0.125, 2.0]))
    assert np.isnan(got[0]) and np.isnan(got[2])
    curve = effect.results[".value"].to_numpy()
    assert effect.results["x"].tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert got[1] == pytest.approx((curve[0] + curve[1]) / 2)
    ext = effect.predict(pd.DataFrame({"x": [-1.0, 2.0]}), extrapolate=True)
    assert_allclose(ext, [curve[0], curve[-1]])


def test_predict_categorical(predictor):
    effect = FeatureEffect(predictor, "g")
    values = dict(zip(effect.results["g"].astype(str), effect.results[".value"]))
    got = effect.predict(["hi", "lo", "unknown"])
    assert got[0] == values["hi"] and got[1] == values["lo"] and np.isnan(got[2])


# ---------------------------------------------------------------- FeatureEffects
def test_feature_effects_layout(predictor):
    effects = FeatureEffects(predictor, grid_size=3)
    assert list(effects.results) == ["x1", "x2", "k", "g"]
    for name, table in effects.results.items():
        assert list(table.columns) == [".type", ".value", ".borders", ".feature"]
        assert (table[".feature"] == name).all()
        pd.testing.assert_series_equal(
            table[".value"], effects.effects[name].results[".value"]
        )


def test_feature_effects_center_at_with_ale_warns(predictor):
    with pytest.warns(UserWarning, match="ignored for ALE"):
        FeatureEffects(predictor, features=["x1"], center_at=0.3, grid_size=3)


# ---------------------------------------------------------------- plots
@pytest.mark.parametrize("feature, method", [
    ("x1", "ale"), ("x1", "pdp+ice"), ("x1", "ice"), ("g", "ale"), ("g", "pdp+ice"),
    (["x1", "x2"], "ale"), (["g", "x2"], "ale"), (["x1", "x2"], "pdp"), (["g", "x2"], "pdp"),
])
def test_plot_smoke(predictor, feature, method):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    display = FeatureEffect(predictor, feature, method=method, grid_size=4).plot(show_data=True)
    assert display.figure_ is not None and len(display.axes_) == 1
    plt.close("all")


def test_plot_multi_output_panels_and_effects_grid(data):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    display = FeatureEffect(Predictor(predict_function=two_outputs, data=data), "x1", grid_size=3).plot()
    assert len(display.axes_) == 2
    grid = FeatureEffects(Predictor(predict_function=model, data=data), grid_size=3).plot(ncols=2)
    assert set(grid.axes_) == {"x1", "x2", "k", "g"}
    plt.close("all")


def test_no_warnings_for_plain_use(predictor):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        FeatureEffect(predictor, "x1", grid_size=5)
        FeatureEffect(predictor, "g", method="pdp+ice")


# ---------------------------------------------------------------- set_feature / center


@pytest.mark.parametrize("method", ["ale", "pdp", "pdp+ice"])
def test_set_feature_equals_a_new_effect(predictor, method):
    effect = FeatureEffect(predictor, "x1", method=method, grid_size=7)
    effect.set_feature("x2")
    fresh = FeatureEffect(predictor, "x2", method=method, grid_size=7)
    assert effect.feature_name == "x2"
    pd.testing.assert_frame_equal(effect.results, fresh.results)


def test_set_feature_to_a_pair_and_back(predictor):
    effect = FeatureEffect(predictor, "x1", grid_size=5)
    effect.set_feature(["x1", "g"])
    pd.testing.assert_frame_equal(effect.results, FeatureEffect(predictor, ["x1", "g"], grid_size=5).results)
    effect.set_feature("g")
    pd.testing.assert_frame_equal(effect.results, FeatureEffect(predictor, "g", grid_size=5).results)


def test_set_feature_rejects_an_unknown_feature(predictor):
    effect = FeatureEffect(predictor, "x1")
    with pytest.raises(ValueError, match="nonesuch"):
        effect.set_feature("nonesuch")


@pytest.mark.parametrize("method", ["pdp", "ice", "pdp+ice"])
def test_center_equals_center_at(predictor, method):
    effect = FeatureEffect(predictor, "x1", method=method, grid_size=6)
    uncentred = effect.results.copy()
    effect.center(0.3)
    pd.testing.assert_frame_equal(effect.results, FeatureEffect(predictor, "x1", method=method, grid_size=6,
                                                                center_at=0.3).results)
    assert not effect.results[".value"].equals(uncentred[".value"])
    effect.center(None)
    pd.testing.assert_frame_equal(effect.results, uncentred)


def test_center_warns_and_does_nothing_for_ale(predictor):
    effect = FeatureEffect(predictor, "x1")
    before = effect.results.copy()
    with pytest.warns(UserWarning, match="not for ALE"):
        effect.center(0.5)
    pd.testing.assert_frame_equal(effect.results, before)


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        # A 3-D answer was read as its first column, silently.
        (lambda n: np.zeros((n, 1, 2)), "predict_function must return one number (or one row of numbers) per row "
                                        "of newdata; got shape (6, 1, 2) for 6 row(s)"),
        (lambda n: np.zeros((n, 0)), "predict_function returned no output (an array of shape (6, 0)"),
    ],
)
def test_predictor_refuses_answers_that_are_not_one_row_per_row(answer, message):
    X = pd.DataFrame({"x": np.arange(6.0), "z": np.arange(6.0) ** 2})
    predictor = Predictor(predict_function=lambda d: answer(d.shape[0]), data=X)
    with pytest.raises(PredictionError, match=re.escape(message)):
        FeatureEffect(predictor, "x")
