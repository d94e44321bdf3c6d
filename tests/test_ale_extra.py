"""More of released ``ale::ALE`` (reference/ale_extra, 0.5.0 and 0.5.3) against ``pyale.ALE``.

``replicate_r_bugs=True`` gives released ale's numbers: by default pyale
corrects ale's two bugs (``docs/ale-package.md``, section 10, cases 1 and 2);
with the switch every table equals the released package's, and the terms R
gets wrong are checked to differ by default while the others agree either
way.  One case adds ``exclude_cols``, ``output_boot_data`` (``get(what =
"boot_data")``) and ``sample_size``.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import numpy as np
import pytest

import pyale

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))

import ale_extra_cases  # noqa: E402
from test_modelboot_fixtures import _compare_frame, _floats  # noqa: E402

FILES = sorted((ROOT / "reference" / "ale_extra").glob("ale-*/*.json"))
CASES = {case.name: case for case in ale_extra_cases.CASES}


def _run(case, replicate_r_bugs: bool):
    data = ale_extra_cases.make_data(case.seed, case.n).drop(columns=["yb" if case.y == "y" else "y"])
    return pyale.ALE(None, list(case.x_cols), data, case.y, pred_fun=ale_extra_cases.PY_MODELS[case.model],
                     max_num_bins=case.max_num_bins, boot_it=case.boot_it, seed=case.seed_ale,
                     exclude_cols=list(case.exclude_cols) or None, output_boot_data=case.output_boot_data,
                     sample_size=case.sample_size, replicate_r_bugs=replicate_r_bugs)


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_released_numbers_on_request(path):
    fixture = json.loads(path.read_text())
    case = CASES[fixture["case"]["name"]]
    rtol = fixture["meta"]["rtol"]
    if "error" in fixture:  # ale 0.5.0 refuses predictions with two values; pyale follows 0.5.2 and later
        assert path.parent.name == "ale-0.5.0" and "must be numeric" in fixture["error"]
        return
    res = _run(case, True)
    for term, table in fixture["effects"].items():
        _compare_frame(res.get(term, ale_centre="zero"), table, rtol, f"get({term!r})")
    for dim, table in fixture["stats"].items():
        _compare_frame(res.get(stats="all", simplify=False)[dim], table, rtol, f"stats {dim}")
    assert res.terms == fixture["terms"]
    for term, table in fixture["boot_data"].items():
        _compare_frame(res.get(term, what="boot_data", ale_centre="zero"), table, rtol, f"boot_data {term!r}")
    assert list(res.data_sample.index + 1) == fixture["data_sample_rows"]
    if fixture["inverted"] is not None:
        inverted = pyale.invert_probs(res)
        for term, table in fixture["inverted"]["effects"].items():
            _compare_frame(inverted.get(term), table, rtol, f"inverted get({term!r})")
        for dim, table in fixture["inverted"]["stats"].items():
            _compare_frame(inverted.get(stats="all", simplify=False)[dim], table, rtol, f"inverted stats {dim}")
        _compare_frame(inverted.get(stats="estimate", simplify=False)["d1"], fixture["inverted"]["estimate"], rtol,
                       "inverted estimate")
    else:
        assert not case.invert or path.parent.name == "ale-0.5.0"  # invert_probs came with ale 0.5.2


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_right_numbers_by_default(path):
    fixture = json.loads(path.read_text())
    case = CASES[fixture["case"]["name"]]
    if "error" in fixture:
        return
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
    data = ale_extra_cases.make_data(1, 20)
    with pytest.raises(TypeError, match="The 'replicate_r_bugs' parameter of ALE must be True or False. Got 1"):
        pyale.ALE(None, "x", data, "y", pred_fun=ale_extra_cases.PY_MODELS["binary_num"], replicate_r_bugs=1)


def test_surface_arguments_are_checked():
    data = ale_extra_cases.make_data(1, 20)
    pf = ale_extra_cases.PY_MODELS["binary_num"]
    with pytest.raises(ValueError, match="The 'exclude_cols' parameter of ALE removes every term"):
        pyale.ALE(None, "x", data, "y", pred_fun=pf, exclude_cols="x")
    # Before: an unknown column in exclude_cols was reported as "The 'x_cols' parameter of ALE names ...".
    for call in (lambda: pyale.ALE(None, ["x", "b"], data, "y", pred_fun=pf, exclude_cols=["nope"]),
                 lambda: pyale.ALE(None, ["x", "b"], data, "y", pred_fun=pf).get(exclude_cols="nope")):
        with pytest.raises(ValueError, match=re.escape("The 'exclude_cols' parameter of ALE names 'nope', which is "
                                                       "not a column of 'data'.")):
            call()
    with pytest.raises(ValueError, match=re.escape("The 'sample_size' parameter of ALE must be a whole number >= 0. "
                                                   "Got -1 instead.")):
        pyale.ALE(None, "x", data, "y", pred_fun=pf, sample_size=-1)
    res = pyale.ALE(None, ["x", "b"], data, "y", pred_fun=pf)
    with pytest.raises(ValueError, match="needs the ALE computed with output_boot_data=True"):
        res.get(what="boot_data")
    with pytest.raises(ValueError, match="The 'what' parameter of get must be 'ale' or 'boot_data'. Got 'boot'"):
        res.get(what="boot")
    assert list(res.get(exclude_cols="x").columns)[0] == "b.bin"


def test_invert_probs_refusals():
    data = ale_extra_cases.make_data(1, 30).drop(columns=["yb"])
    res = pyale.ALE(None, "x", data, "y", pred_fun=ale_extra_cases.PY_MODELS["binary_num"])
    with pytest.raises(ValueError, match="cannot be inverted because some values are not between 0 and 1") as info:
        pyale.invert_probs(res)
    assert "np.float64" not in str(info.value)  # before: "runs from np.float64(-2.5) to ..."
    probs = pyale.ALE(None, "x", ale_extra_cases.make_data(1, 30).drop(columns=["y"]), "yb",
                      pred_fun=ale_extra_cases.PY_MODELS["probability"])
    inverted = pyale.invert_probs(probs, rename_y_col="no_event")
    assert inverted.probs_inverted and not probs.probs_inverted and inverted.y_col == "no_event"
    with pytest.raises(ValueError, match="already inverted"):
        pyale.invert_probs(inverted)
    back = pyale.invert_probs(inverted, force=True)
    assert np.allclose(back.get("x")[".y"], probs.get("x")[".y"], rtol=1e-12)
