"""``pyale report --p-values``: R's ale p-values (ALEpDist surrogate + ALE) for a scikit-learn classifier."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pandas as pd
import pytest

import pyale
from pyale._cli import main
from pyale._report.example import load_credit

pytest.importorskip("jinja2")
sklearn_ensemble = pytest.importorskip("sklearn.ensemble")


@pytest.fixture(scope="module")
def fitted(tmp_path_factory):
    data = load_credit().iloc[:240].reset_index(drop=True)
    X = data.drop(columns=["default", "region", "year"])
    model = sklearn_ensemble.HistGradientBoostingClassifier(max_iter=15, random_state=0).fit(X, data["default"])
    folder = tmp_path_factory.mktemp("pv")
    csv = folder / "data.csv"
    data.drop(columns=["region", "year"]).to_csv(csv, index=False)
    with (folder / "model.pkl").open("wb") as fh:
        pickle.dump(model, fh)
    return model, pd.read_csv(csv), folder


def test_cli_p_values_for_a_scikit_learn_classifier(fitted, capsys):
    model, data, folder = fitted
    out = folder / "report"
    code = main(["report", "--data", str(folder / "data.csv"), "--model", str(folder / "model.pkl"), "--y",
                 "default", "--features", "debt_to_income", "age", "--bootstrap", "0", "--permutations", "0",
                 "--p-values", "--random-state", "2", "--out", str(out)])
    assert code == 0, capsys.readouterr().err
    numbers = json.loads((out / "numbers.json").read_text())
    assert not [o for o in numbers["not_included"] if o[0].startswith("p-values")], numbers["not_included"]
    assert "--p-values" in numbers["provenance"]["command"]
    section = next(s for s in numbers["sections"] if s["key"] == "p_values")
    assert "surrogate=True" in section["method"] and "does not say the effect is causal" in section["method"]
    got = pd.read_csv(out / "p_values__table.csv", float_precision="round_trip")  # exact doubles on pandas 2
    # the same numbers as pyale's R-exact API: the positive class's probability, ALEpDist(surrogate) + ALE
    frame = data.rename(columns={"default": "observed_response"})

    def pred_fun(object, newdata, type):  # noqa: A002
        return object.predict_proba(newdata)[:, 1]

    dist = pyale.ALEpDist(model, frame, "observed_response", surrogate=True, pred_fun=pred_fun, seed=2)
    want = pyale.ALE(model, ["debt_to_income", "age"], frame, "observed_response", pred_fun=pred_fun,
                     p_values=dist, seed=2).get(stats="all")
    assert got["feature"].tolist() == want["term"].tolist()
    assert got["statistic"].tolist() == want["statistic"].tolist()
    np.testing.assert_allclose(got["estimate"], want["estimate"], rtol=1e-12)
    np.testing.assert_array_equal(got["p_value"], want["p.value"])
    aled = got[got["statistic"] == "aled"].set_index("feature")["p_value"]
    assert aled["debt_to_income"] <= 0.05  # the credit data's strongest driver
    assert ((got["p_value"] >= 0) & (got["p_value"] <= 1)).all()
    # R's p-values are multiples of 1/rand_it (100 surrogate refits)
    np.testing.assert_allclose(np.round(got["p_value"] * 100), got["p_value"] * 100, atol=1e-9)


def test_p_values_refused_for_a_multiclass_model_with_the_reason(tmp_path):
    data = load_credit().iloc[:150].reset_index(drop=True)
    X = data[["debt_to_income", "age"]]
    y = pd.cut(data["income"], 3, labels=False).to_numpy()
    model = sklearn_ensemble.HistGradientBoostingClassifier(max_iter=5, random_state=0).fit(X, y)
    written = pyale.report(model, X, ["age"], out=tmp_path / "r", y=y, n_bootstrap=0, n_permutations=0,
                           p_values=True)
    omitted = json.loads((written.folder / "numbers.json").read_text())["not_included"]
    assert any(what.startswith("p-values") and "3 outputs" in why for what, why in omitted), omitted


def test_binary_classifier_reports_its_positive_class_once(fitted, tmp_path):
    """Both class probabilities (mirror images) doubled every table; the report now explains class 1."""
    model, data, _ = fitted
    X = data.drop(columns=["default"])
    written = pyale.report(model, X, ["debt_to_income"], out=tmp_path / "r", y=data["default"].to_numpy(),
                           n_bootstrap=0, n_permutations=0, n_intervals=5)
    numbers = json.loads((written.folder / "numbers.json").read_text())
    assert numbers["provenance"]["response"].startswith("probability of class 1")
    curve = pd.read_csv(written.folder / "effect_debt_to_income__curve.csv")
    assert curve["output"].unique().tolist() == [1]
    want = pyale.ale(model, X, "debt_to_income", response=1, n_intervals=5)
    np.testing.assert_allclose(curve["ale"], np.ravel(want.effects), rtol=1e-12)
    html = (written.folder / "report.html").read_text()
    assert "response explained" in html and "probability of class 1" in html
    effect = next(s for s in numbers["sections"] if s["key"] == "effect_debt_to_income")
    assert "(probability of class 1)." in effect["findings"][0]
    svg = (written.folder / "effect_debt_to_income__curve.svg").read_text()
    assert "ALE (probability of class 1)" in svg and "ALE of 1" not in svg
