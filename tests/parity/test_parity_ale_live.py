"""pyale.ALE against R's ale 0.5.0 run live on held-back seeds (no fixture uses them)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))

import ale_cases  # noqa: E402
from subprocess_env import child_env  # noqa: E402

pytestmark = pytest.mark.r

LIBRARIES = {"ale": ("ALE_R_LIB", "~/Rlib-ale"), "ale-fixed": ("ALE_R_LIB_FIXED", "~/Rlib-ale-fixed")}


@pytest.fixture(scope="module")
def ale_libraries(R):
    for name, (env, default) in LIBRARIES.items():
        path = os.path.expanduser(os.environ.get(env, default))
        if not os.path.isdir(os.path.join(path, "ale")):
            pytest.skip(f"R's ale is not installed in {path} (library {name!r})")


@pytest.mark.parametrize("data_seed, ale_seed", ale_cases.HELD_BACK_SEEDS)
def test_held_back_cases_through_pyale(ale_libraries, tmp_path, data_seed, ale_seed):
    from test_parity_ale import check_ale

    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "make_ale_fixtures.py"), "--out", str(tmp_path),
         "--data-seed", str(data_seed), "--ale-seed", str(ale_seed), *ale_cases.HELD_BACK],
        capture_output=True, text=True, env=child_env(), cwd=ROOT, timeout=1800)
    assert done.returncode == 0, done.stdout + done.stderr
    written = sorted(tmp_path.glob("*.json"))
    assert {p.stem for p in written} == set(ale_cases.HELD_BACK)
    for path in written:
        fixture = json.loads(path.read_text())
        assert fixture["meta"]["case"]["seed"] == data_seed and fixture["call"]["seed"] == ale_seed
        check_ale(fixture, f"{path.stem}@{data_seed}")


@pytest.mark.parametrize("data_seed, ale_seed", ale_cases.HELD_BACK_SEEDS)
def test_held_back_cases_against_ale_053(R, tmp_path, data_seed, ale_seed):
    """The same held-back cases with ale 0.5.3 as released, compared with replicate_r_bugs=True."""
    from test_parity_ale import check_ale

    path = os.path.expanduser(os.environ.get("ALE_R_LIB_053", "~/Rlib-ale053"))
    if not os.path.isdir(os.path.join(path, "ale")):
        pytest.skip(f"R's ale 0.5.3 is not installed in {path}")
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "make_ale_fixtures.py"), "--version", "0.5.3", "--out",
         str(tmp_path), "--data-seed", str(data_seed), "--ale-seed", str(ale_seed), *ale_cases.HELD_BACK],
        capture_output=True, text=True, env=child_env(), cwd=ROOT, timeout=1800)
    assert done.returncode == 0, done.stdout + done.stderr
    written = sorted(tmp_path.glob("*.json"))
    assert {p.stem for p in written} == set(ale_cases.HELD_BACK)
    for path in written:
        fixture = json.loads(path.read_text())
        assert fixture["meta"]["packages"]["ale"] == "0.5.3"
        check_ale(fixture, f"0.5.3/{path.stem}@{data_seed}", replicate_r_bugs=True)
