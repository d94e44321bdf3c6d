"""``pyale.ALE(..., replicate_r_bugs=True)`` gives released ale's numbers (reference/ale_r_bugs, 0.5.0 and 0.5.3).

By default pyale corrects ale's two bugs (``docs/ale-package.md``, section 10,
cases 1 and 2); with the switch every table equals the released package's,
and the terms R gets wrong are checked to differ by default while the others
agree either way.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

import pyale

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))

import ale_rbug_cases  # noqa: E402
from test_modelboot_fixtures import _compare_frame, _floats  # noqa: E402

FILES = sorted((ROOT / "reference" / "ale_r_bugs").glob("ale-*/*.json"))
CASES = {case.name: case for case in ale_rbug_cases.CASES}


def _run(case, replicate_r_bugs: bool):
    data = ale_rbug_cases.make_data(case.seed, case.n)
    return pyale.ALE(None, list(case.x_cols), data, "y", pred_fun=ale_rbug_cases.PY_MODELS[case.model],
                     max_num_bins=case.max_num_bins, boot_it=case.boot_it, seed=case.seed_ale,
                     replicate_r_bugs=replicate_r_bugs)


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_released_numbers_on_request(path):
    fixture = json.loads(path.read_text())
    case = CASES[fixture["case"]["name"]]
    rtol = fixture["meta"]["rtol"]
    res = _run(case, True)
    for term, table in fixture["effects"].items():
        _compare_frame(res.get(term, ale_centre="zero"), table, rtol, f"get({term!r})")
    for dim, table in fixture["stats"].items():
        _compare_frame(res.get(stats="all", simplify=False)[dim], table, rtol, f"stats {dim}")


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_right_numbers_by_default(path):
    fixture = json.loads(path.read_text())
    case = CASES[fixture["case"]["name"]]
    res = _run(case, False)
    for term, table in fixture["effects"].items():
        got = res.get(term, ale_centre="zero")
        if term in case.affected:
            assert not np.allclose(got[".y_mean"].to_numpy(dtype=float), _floats(table["values"][".y_mean"]),
                                   rtol=1e-6), term
        else:
            _compare_frame(got, table, fixture["meta"]["rtol"], f"get({term!r})")


def test_every_case_ran():
    assert {p.parent.name for p in FILES} == {"ale-0.5.0", "ale-0.5.3"}
    for version in ("ale-0.5.0", "ale-0.5.3"):
        assert {p.stem for p in FILES if p.parent.name == version} == set(CASES)


def test_the_switch_is_checked():
    data = ale_rbug_cases.make_data(1, 20)
    with pytest.raises(TypeError, match="The 'replicate_r_bugs' parameter of ALE must be True or False. Got 1"):
        pyale.ALE(None, "x", data, "y", pred_fun=ale_rbug_cases.PY_MODELS["binary_num"], replicate_r_bugs=1)
