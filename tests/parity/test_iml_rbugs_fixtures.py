"""iml 0.11.4's wrong numbers on request: ``FeatureEffect(..., replicate_r_bugs=True)`` against
reference/iml_rbugs (scripts/make_iml_rbugs_fixtures.py); by default pyale's correct numbers differ."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose

import pyale

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import make_iml_rbugs_fixtures as gen  # noqa: E402

FILES = sorted((ROOT / "reference" / "iml_rbugs").glob("*.json"))


def _num(values) -> np.ndarray:
    return np.array([float.fromhex(v) for v in values])


def _load(path: Path):
    fixture = json.loads(path.read_text())
    meta = fixture["meta"]
    data = pd.DataFrame({"x": _num(fixture["data"]["x"]), "z": _num(fixture["data"]["z"]),
                         "g": pd.Categorical(fixture["data"]["g"], categories=list("abcd"), ordered=meta["ordered"])})
    return meta, fixture["results"], data


def _effect(meta, data, replicate_r_bugs):
    predictor = pyale.Predictor(predict_function=gen.MODELS[meta["model"]][1], data=data)
    return pyale.FeatureEffect(predictor, meta["feature"], grid_points=meta["grid_points"],
                               replicate_r_bugs=replicate_r_bugs)


def test_every_case_ran():
    assert {p.stem for p in FILES} == set(gen.CASES)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_replicate_r_bugs_gives_imls_numbers(path):
    meta, r, data = _load(path)
    results = _effect(meta, data, True).results
    assert list(results.columns) == r[".columns"]
    assert results[".type"].tolist() == r[".type"]
    if ".class" in r:
        assert results[".class"].astype(str).tolist() == r[".class"]
    feature = meta["feature"]
    if feature == "g":
        assert results[feature].astype(str).tolist() == r[feature]
        assert list(results[feature].cat.categories) == r[".levels"]
    else:
        np.testing.assert_array_equal(results[feature].to_numpy(dtype=float), _num(r[feature]))
    assert_allclose(results[".value"].to_numpy(dtype=float), _num(r[".value"]), rtol=meta["rtol"], atol=1e-13)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_the_default_is_correct_and_differs(path):
    """By default: one row per grid point (an empty interval is flat), or each level centred by its own
    share; neither equals iml's table."""
    meta, r, data = _load(path)
    default = _effect(meta, data, False).results
    fixed = _effect(meta, data.assign(g=data["g"].cat.remove_unused_categories()), False).results
    if meta["grid_points"] is not None:
        n_outputs = default[".class"].nunique() if ".class" in default else 1
        assert default.shape[0] == len(meta["grid_points"]) * n_outputs > len(r[".value"])
    else:  # the right numbers are iml's on droplevels(data), which pyale gives for any categories
        pd.testing.assert_frame_equal(default, fixed)
        assert not np.allclose(default[".value"].to_numpy(dtype=float), _num(r[".value"]), rtol=1e-6)


def test_rows_outside_the_grid_are_refused():
    meta, _, data = _load(ROOT / "reference" / "iml_rbugs" / "empty_interval.json")
    predictor = pyale.Predictor(predict_function=gen.MODELS[meta["model"]][1], data=data)
    message = ("The 'replicate_r_bugs' parameter of FeatureEffect cannot reproduce iml on 'grid_points' that do not "
               "cover feature 'x' (its values run from 0.0 to 1.0, the grid from 0.0 to 0.9)")
    with pytest.raises(ValueError, match=re.escape(message)):
        pyale.FeatureEffect(predictor, "x", grid_points=[0.0, 0.5, 0.9], replicate_r_bugs=True)


@pytest.mark.parametrize("value, error, message", [
    ("yes", TypeError, "The 'replicate_r_bugs' parameter of FeatureEffect must be True or False. Got 'yes' instead."),
    (1, TypeError, "The 'replicate_r_bugs' parameter of FeatureEffect must be True or False. Got 1 instead."),
])
def test_refusals(value, error, message):
    meta, _, data = _load(ROOT / "reference" / "iml_rbugs" / "empty_interval.json")
    predictor = pyale.Predictor(predict_function=gen.MODELS[meta["model"]][1], data=data)
    with pytest.raises(error, match=re.escape(message)):
        pyale.FeatureEffect(predictor, "x", replicate_r_bugs=value)


def test_feature_effects_passes_the_switch_on():
    meta, r, data = _load(ROOT / "reference" / "iml_rbugs" / "unused_level_first.json")
    predictor = pyale.Predictor(predict_function=gen.MODELS[meta["model"]][1], data=data)
    both = pyale.FeatureEffects(predictor, ["g", "x"], replicate_r_bugs=True)
    assert_allclose(both.results["g"][".value"].to_numpy(dtype=float), _num(r[".value"]), rtol=1e-10, atol=1e-13)
    plain = pyale.FeatureEffect(predictor, "x")
    pd.testing.assert_frame_equal(both.effects["x"].results, plain.results)  # a numeric feature: unchanged


def test_set_feature_keeps_the_switch():
    meta, r, data = _load(ROOT / "reference" / "iml_rbugs" / "unused_level_first.json")
    predictor = pyale.Predictor(predict_function=gen.MODELS[meta["model"]][1], data=data)
    effect = pyale.FeatureEffect(predictor, "x", replicate_r_bugs=True)
    effect.set_feature("g")
    assert effect.replicate_r_bugs is True
    assert_allclose(effect.results[".value"].to_numpy(dtype=float), _num(r[".value"]), rtol=1e-10, atol=1e-13)
