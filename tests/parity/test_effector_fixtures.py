"""pyale against effector 0.6.0's RHALE, DALE and ALE, replayed from reference/effector/ (no effector needed).

Each fixture (``scripts/make_effector_fixtures.py``) holds seeded data, the
Jacobian effector was handed and effector's bins, counts, per-bin mean and
variance of the local effects and its curve; pyale must give the same
edges and counts exactly and the rest to 1e-10.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

import pyale
from pyale._core.grid.binning import find_edges
from effector_replay import FIXTURE_DIR, ROOT, compare, load, pyale_result

sys.path.insert(0, str(ROOT / "scripts"))
import effector_cases  # noqa: E402

FIXTURES = sorted(FIXTURE_DIR.glob("*.json"))
RAN: set[str] = set()


def test_every_case_has_a_fixture():
    assert sorted(p.stem for p in FIXTURES) == sorted(case[0] for case in effector_cases.CASES)


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_fixture(path):
    fixture = load(path)
    assert fixture["meta"]["packages"]["effector"] == "0.6.0"
    predict = effector_cases.model_predict(fixture["case"]["model"])
    compare(fixture, pyale_result(fixture, predict))
    RAN.add(path.stem)


@pytest.mark.parametrize("path", [p for p in FIXTURES if load(p)["case"]["method"] in ("dp", "agglomerative")],
                         ids=lambda p: p.stem)
def test_bin_search_alone(path):
    """The search on the recorded derivatives gives effector's edges (the core, without ale())."""
    fixture = load(path)
    case = fixture["case"]
    X = np.asarray(fixture["inputs"]["X"])
    J = np.asarray(fixture["inputs"]["jacobian"])
    s = case["settings"]
    binning = pyale.HeterogeneityBinning(case["method"], s["max_intervals"], s.get("min_rows", 2),
                                         s.get("discount", 0.3))
    edges = find_edges(X[:, case["feature"]], J[:, case["feature"]], binning)
    limits = np.asarray(fixture["effector"]["limits"])
    assert_array_equal(edges[:-1], limits[:-1])
    assert edges[-1] == X[:, case["feature"]].max()


@pytest.mark.parametrize("path", [p for p in FIXTURES if load(p)["case"]["method"] != "ale"], ids=lambda p: p.stem)
def test_effector_centring_from_pyale_result(path):
    """docs/rhale.md's recipe: effector's "zero_integral" curve from pyale's result."""
    fixture = load(path)
    res = pyale_result(fixture, effector_cases.model_predict(fixture["case"]["model"]))
    grid, curve = res.grid[0], res.effects[:, 0] - res.effects[0, 0]
    points = np.linspace(grid[0], grid[-1], 30)  # effector: helpers.NOF_INTERNAL_POINTS
    mid = (points[:-1] + points[1:]) / 2
    centred = curve - np.mean(np.interp(mid, grid, curve))
    assert_allclose(centred, fixture["effector"]["centred_at_limits"], rtol=1e-9, atol=1e-12)


def test_every_fixture_ran():
    if len(RAN) < len(FIXTURES):
        pytest.skip("run with the whole file to count the cases")
    assert RAN == {p.stem for p in FIXTURES}
