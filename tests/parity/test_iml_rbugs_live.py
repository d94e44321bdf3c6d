"""iml 0.11.4 run live on data seeds no fixture uses: FeatureEffect(..., replicate_r_bugs=True) equals it."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from numpy.testing import assert_allclose

import pyale

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import make_iml_rbugs_fixtures as gen  # noqa: E402

pytestmark = pytest.mark.r


@pytest.fixture(scope="module")
def iml_in_r(R):
    R.require("iml")
    return R


def _num(values) -> np.ndarray:
    return np.array([float.fromhex(v) for v in values])


@pytest.mark.parametrize("name, seed", [("empty_interval_two", 901), ("empty_interval_two_outputs", 902),
                                        ("unused_level_first", 903), ("unused_level_ordered", 904)])
def test_held_back_seed_against_iml(iml_in_r, tmp_path, name, seed):
    fixture = gen.run_case(name, tmp_path, seed=seed)
    meta, r = fixture["meta"], fixture["results"]
    predictor = pyale.Predictor(predict_function=gen.MODELS[meta["model"]][1], data=gen.case_data(name, seed))
    results = pyale.FeatureEffect(predictor, meta["feature"], grid_points=meta["grid_points"],
                                  replicate_r_bugs=True).results
    assert list(results.columns) == r[".columns"]
    feature = meta["feature"]
    if feature == "g":
        assert results[feature].astype(str).tolist() == r[feature]
    else:
        np.testing.assert_array_equal(results[feature].to_numpy(dtype=float), _num(r[feature]))
    assert_allclose(results[".value"].to_numpy(dtype=float), _num(r[".value"]), rtol=1e-10, atol=1e-13)
