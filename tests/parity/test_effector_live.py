"""pyale against effector run now, on fresh seeds (the fixture cases with other data).

effector is imported from this Python when it has it, else run with the
Python named by ``PYALE_EFFECTOR_PYTHON`` (effector lives in its own
virtual environment here); without either the tests skip with that reason.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import pytest

from effector_replay import ROOT, compare, load, pyale_result

sys.path.insert(0, str(ROOT / "scripts"))
import effector_cases  # noqa: E402

pytestmark = pytest.mark.effector


@pytest.fixture(scope="module")
def effector_python():
    if importlib.util.find_spec("effector") is not None:
        return sys.executable
    python = os.environ.get("PYALE_EFFECTOR_PYTHON")
    if not python:
        pytest.skip("effector is not importable here and PYALE_EFFECTOR_PYTHON is not set "
                    "(pip install effector==0.6.0, or name a Python that has it)")
    probe = subprocess.run([python, "-c", "import effector"], capture_output=True, text=True)
    if probe.returncode != 0:
        pytest.skip(f"PYALE_EFFECTOR_PYTHON={python!r} cannot import effector: {probe.stderr.strip()[-200:]}")
    return python


@pytest.fixture(scope="module")
def fresh(effector_python, tmp_path_factory):
    out = tmp_path_factory.mktemp("effector")
    done = subprocess.run([effector_python, str(ROOT / "scripts" / "make_effector_fixtures.py"), "--out", str(out),
                           "--seed-offset", "1000"], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return out


@pytest.mark.parametrize("case", [c[0] for c in effector_cases.CASES])
def test_live(fresh, case):
    fixture = load(fresh / f"{case}.json")
    assert fixture["case"]["seed"] >= 1000
    predict = effector_cases.model_predict(fixture["case"]["model"])
    compare(fixture, pyale_result(fixture, predict))
