"""R's ``ale::ModelBoot`` run live (ale 0.5.0 and 0.5.3) on seeds no fixture uses.

Each run calls the fixture generator in a child process (``ale`` lives in its
own R libraries: ``~/Rlib-ale``, ``~/Rlib-ale053``; ``$ALE_R_LIB``,
``$ALE_R_LIB_053``) and checks the result as the fixtures are checked.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))

import modelboot_cases  # noqa: E402
from subprocess_env import child_env  # noqa: E402

pytestmark = pytest.mark.r

LIBRARIES = {"0.5.0": ("ALE_R_LIB", "~/Rlib-ale"), "0.5.3": ("ALE_R_LIB_053", "~/Rlib-ale053")}


@pytest.fixture(scope="module")
def ale_libraries(R):
    if shutil.which("Rscript") is None:
        pytest.skip("Rscript is not on PATH")
    found = {}
    for version, (env, default) in LIBRARIES.items():
        library = os.path.expanduser(os.environ.get(env, default))
        missing = _missing(library, ("ale", "staccuracy", "broom"))
        if missing:
            pytest.skip(f"R packages {missing} (ale {version}'s ModelBoot) are not installed in {library} or R's "
                        "own libraries")
        found[version] = library
    return found


def _missing(library: str, packages: tuple) -> list:
    env = child_env()
    env["R_LIBS"] = library
    code = "cat(sapply(c(" + ", ".join(f"'{p}'" for p in packages) + "), requireNamespace, quietly = TRUE))"
    done = subprocess.run(["Rscript", "-e", code], capture_output=True, text=True, env=env, timeout=120)
    flags = done.stdout.split()
    return [p for p, ok in zip(packages, flags) if ok != "TRUE"] if len(flags) == len(packages) else list(packages)


@pytest.mark.parametrize("data_seed, boot_seed", modelboot_cases.HELD_BACK_SEEDS)
def test_held_back_cases(ale_libraries, tmp_path, data_seed, boot_seed):
    from test_modelboot_fixtures import check_modelboot, run_case

    env = child_env()
    env.update({"ALE_R_LIB": ale_libraries["0.5.0"], "ALE_R_LIB_053": ale_libraries["0.5.3"]})
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "make_modelboot_fixtures.py"), "--out",
                           str(tmp_path), "--data-seed", str(data_seed), "--boot-seed", str(boot_seed)],
                          capture_output=True, text=True, env=env, timeout=900)
    assert done.returncode == 0, done.stderr
    files = sorted(tmp_path.glob("ale-*/*.json"))
    assert len(files) == 2 * len(modelboot_cases.CASES)
    for path in files:
        fixture = json.loads(path.read_text())
        mb = run_case(fixture["case"]["name"], True, data_seed, boot_seed)
        check_modelboot(fixture, mb, rtol=fixture["meta"]["rtol"])
