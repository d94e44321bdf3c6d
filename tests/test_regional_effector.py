"""pyale.regional against effector 0.6.0's find_regions, replayed from reference/effector/regional/.

Each fixture (``scripts/make_effector_regional_fixtures.py``, cases in
``scripts/effector_regional_cases.py``) holds seeded data, effector's
regions (rows, size, heterogeneity, parent, depth, rule) and each region's
uncentred curve at the grid edges.  The replay needs no effector; the live
test reruns effector (in this Python, or in the one named by
``PYALE_EFFECTOR_PYTHON``) and compares with what it writes.

Tolerances (recorded in each fixture's meta): regions, rows and counts
exact; RHALE (derivatives) to 1e-10; ALE to 1e-6, because effector
evaluates its top bin at max + 1e-8 and divides by the nominal width
(docs/deviations.md).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal

import pyale

ROOT = Path(__file__).resolve().parents[1]
FIXTURE_DIR = ROOT / "reference" / "effector" / "regional"
sys.path.insert(0, str(ROOT / "scripts"))
import effector_regional_cases as cases  # noqa: E402

FIXTURES = sorted(FIXTURE_DIR.glob("*.json"))
RAN: set = set()


def replay(fixture: dict) -> pyale.RegionalResult:
    case = fixture["case"]
    X = pd.DataFrame(np.asarray(fixture["x"], dtype=float), columns=fixture["feature_names"])
    predict = cases.MODELS[case["model"]]
    options = {cases.SETTING_NAMES[k]: v for k, v in case["settings"].items()}
    if case["method"] == "rhale":
        options.update(method="gradient", jacobian=cases.JACOBIANS[case["model"]])
    if case.get("categorical_feature"):  # effector's ordinal x1: pyale's categorical, levels ascending
        X["x1"] = pd.Categorical(X["x1"])
        options.update(level_order=sorted(X["x1"].cat.categories), feature_type="ordinal")
    elif case.get("nominal_feature"):  # effector's nominal x1: an unordered categorical ("auto" makes it nominal);
        X["x1"] = pd.Categorical(X["x1"])  # the curves in effector's (ascending) order
        options.update(level_order=sorted(X["x1"].cat.categories))
    elif case.get("binning", "fixed") == "fixed":
        options.update(grid="uniform", n_intervals=20)
    else:
        options.update(binning=case["binning"])
    return pyale.regional(lambda d: predict(np.asarray(d, dtype=float)), X, "x1",
                          search="node" if case["finder"] == "best" else "level", **options)


def _new_condition(rule: dict, parent_rule: dict) -> dict:
    """effector's condition that made a region out of its parent (the one that differs)."""
    before = {json.dumps(c, sort_keys=True) for c in parent_rule["conditions"]}
    changed = [c for c in rule["conditions"] if json.dumps(c, sort_keys=True) not in before]
    assert len(changed) == 1
    return changed[0]


def compare(result: pyale.RegionalResult, fixture: dict) -> None:
    tol = fixture["meta"]["tolerance"]
    rtol = tol["rtol"] if fixture["case"]["method"] == "rhale" else tol["rtol_secant"]
    rebinned = fixture["case"].get("binning", "fixed") != "fixed"
    categorical = fixture["case"].get("categorical_feature", False) or fixture["case"].get("nominal_feature", False)
    if categorical:  # effector's ALE of a categorical feature: differences between levels, exact
        rtol = tol["rtol"]
        assert_allclose(np.asarray(result.regions[0].result.grid[0], dtype=float), fixture["edges"], rtol=0, atol=0)
    elif not rebinned:
        assert_allclose(result.edges, fixture["edges"], rtol=0, atol=0)
    assert len(result.regions) == len(fixture["regions"])
    for region, expected in zip(result.regions, fixture["regions"]):
        assert region.index == expected["idx"]
        assert region.parent == expected["parent"]
        assert region.depth == expected["level"]
        assert_array_equal(np.flatnonzero(region.mask), expected["rows"])
        assert region.size == expected["size"]
        assert_allclose(region.heterogeneity, expected["heterogeneity"], rtol=rtol, atol=1e-12)
        curve = region.result.effects[:, 0] - region.result.effects[0, 0]
        if rebinned:  # each region's own intervals: effector's (its last edge may be an ulp below the maximum)
            assert_allclose(region.result.grid[0], expected["limits"], rtol=1e-15, atol=0)
            curve = np.interp(fixture["edges"], region.result.grid[0], curve)
        assert_allclose(curve, expected["curve"], rtol=rtol, atol=rtol * np.abs(expected["curve"]).max())
        if region.parent is not None:  # the same column, side and threshold (or level) as effector's
            condition = region.conditions[-1]
            theirs = _new_condition(expected["rule"], fixture["regions"][region.parent]["rule"])
            assert fixture["feature_names"][theirs["feature"]] == condition.column
            if condition.operator in ("<", ">="):
                bound = theirs["hi"] if condition.operator == "<" else theirs["lo"]
                assert condition.value == bound
            else:
                levels = {float(v) for v in theirs["levels"]}
                assert (levels == {float(condition.value)}) == (condition.operator == "==")


def test_every_case_has_a_fixture():
    assert sorted(p.stem for p in FIXTURES) == sorted(c["name"] for c in cases.CASES)


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_fixture(path):
    fixture = json.loads(path.read_text())
    assert fixture["meta"]["effector"] == "0.6.0"
    assert_allclose(fixture["x"], cases.make_data(*fixture["case"]["data"]), rtol=0, atol=0)
    compare(replay(fixture), fixture)
    RAN.add(path.stem)


def test_every_fixture_ran():
    assert RAN == {p.stem for p in FIXTURES}


def test_root_matches_effector_heter_score():
    """The root's heterogeneity is effector's heter_score on all rows (the criterion itself)."""
    for path in FIXTURES:
        fixture = json.loads(path.read_text())
        rtol = 1e-10 if fixture["case"]["method"] == "rhale" else 1e-6
        assert_allclose(replay(fixture).regions[0].heterogeneity, fixture["root_heter_score"], rtol=rtol)


def _effector_python() -> str | None:
    try:
        import effector  # noqa: F401
    except ImportError:
        return os.environ.get("PYALE_EFFECTOR_PYTHON")
    return sys.executable


@pytest.mark.effector
@pytest.mark.parametrize("seed_offset", [0, 1000], ids=["fixture-seeds", "fresh-seeds"])
def test_live_against_effector(tmp_path, seed_offset):
    """effector rerun now: on the fixtures' seeds, and on fresh data (every seed + 1000)."""
    python = _effector_python()
    if python is None:
        pytest.skip("effector is not importable in this Python and PYALE_EFFECTOR_PYTHON is not set "
                    "(pip install effector==0.6.0, or point PYALE_EFFECTOR_PYTHON at a Python that has it)")
    done = subprocess.run([python, str(ROOT / "scripts" / "make_effector_regional_fixtures.py"),
                           "--out", str(tmp_path), "--seed-offset", str(seed_offset)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    written = sorted(tmp_path.glob("*.json"))
    assert [p.stem for p in written] == sorted(c["name"] for c in cases.CASES)
    for path in written:
        fixture = json.loads(path.read_text())
        compare(replay(fixture), fixture)
