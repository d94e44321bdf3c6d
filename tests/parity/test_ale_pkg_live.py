"""R's ale 0.5.0 run live: held-back cases, and the faults pyale does not copy.

R's ``ale`` lives in its own R libraries (``~/Rlib-ale``, and ``~/Rlib-ale-fixed``
for the corrected bootstrap; ``$ALE_R_LIB``, ``$ALE_R_LIB_FIXED``), so these tests
run R in child processes: the fixture generator with seeds no fixture uses, and
``Rscript`` for the reproductions of ``docs/ale-package.md``, section 10.
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

import ale_cases  # noqa: E402
from subprocess_env import child_env  # noqa: E402

pytestmark = pytest.mark.r

LIBRARIES = {"ale": ("ALE_R_LIB", "~/Rlib-ale"), "ale-fixed": ("ALE_R_LIB_FIXED", "~/Rlib-ale-fixed")}


def _library(name: str) -> str:
    env, default = LIBRARIES[name]
    return os.path.expanduser(os.environ.get(env, default))


@pytest.fixture(scope="module")
def ale_libraries(R):
    for name in LIBRARIES:
        if not os.path.isdir(os.path.join(_library(name), "ale")):
            pytest.skip(f"R's ale is not installed in {_library(name)} (library {name!r})")
    if shutil.which("Rscript") is None:
        pytest.skip("Rscript is not on PATH")
    return {name: _library(name) for name in LIBRARIES}


def _rscript(library: str, code: str) -> list[str]:
    env = child_env()
    env["R_LIBS"] = library
    done = subprocess.run(["Rscript", "-e", "suppressPackageStartupMessages(library(ale))", "-e", code],
                          capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


@pytest.mark.parametrize("data_seed, ale_seed", ale_cases.HELD_BACK_SEEDS)
def test_held_back_cases(ale_libraries, tmp_path, data_seed, ale_seed):
    from test_ale_pkg_fixtures import check_fixture
    from test_ale_pkg_reference import check_curves

    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "make_ale_fixtures.py"), "--out", str(tmp_path),
         "--data-seed", str(data_seed), "--ale-seed", str(ale_seed), *ale_cases.HELD_BACK],
        capture_output=True, text=True, env=child_env(), cwd=ROOT, timeout=1800)
    assert done.returncode == 0, done.stdout + done.stderr
    written = sorted(tmp_path.glob("*.json"))
    assert {p.stem for p in written} == set(ale_cases.HELD_BACK)
    for path in written:
        fixture = json.loads(path.read_text())
        assert fixture["meta"]["case"]["seed"] == data_seed
        check_fixture(fixture)
        check_curves(fixture, f"{path.stem}@{data_seed}")


BINARY_REPRO = """
d <- data.frame(x = c(1, 2, 3, 10, 20, 30), b = c(0, 0, 0, 1, 1, 1), y = 1:6)
f <- function(object, newdata, type) newdata$x * as.numeric(newdata$b)
num <- ALE(NULL, x_cols = "b", data = d, y_col = "y", pred_fun = f, parallel = 0, silent = TRUE, p_values = NULL)
d$b <- d$b == 1
lgl <- ALE(NULL, x_cols = "b", data = d, y_col = "y", pred_fun = f, parallel = 0, silent = TRUE, p_values = NULL)
cat(get(num, "b", ale_centre = "zero")$.y, get(lgl, "b", ale_centre = "zero")$.y)
"""


def test_ale_uses_the_level_code_as_low_value_of_a_numeric_binary(ale_libraries):
    """docs/ale-package.md, section 10, case 2: R gives -1, 1 for 0/1 numbers but -10, 10 for the same logical."""
    for library in ale_libraries.values():
        values = [float(v) for v in _rscript(library, BINARY_REPRO)]
        assert values[:2] == [-1.0, 1.0]  # numeric 0/1: wrong
        assert values[2:] == [-10.0, 10.0]  # logical: right


CATEGORY_REPRO = """
d <- data.frame(x = 1:6, g = factor(c("a","a","b","b","c","c")), y = 1:6)
f <- function(object, newdata, type) newdata$x * as.integer(newdata$g)
a <- ALE(NULL, x_cols = "g", data = d, y_col = "y", pred_fun = f, parallel = 0, silent = TRUE,
         p_values = NULL, boot_it = 1, seed = 1, output_boot_data = TRUE)
b <- get(a, what = "boot_data", ale_centre = "zero")
cat(as.character(b$g[b$.it == 1]), b$.n[b$.it == 1])
"""


def test_ale_bins_resampled_rows_by_other_rows_categories(ale_libraries):
    """docs/ale-package.md, section 10, case 1: the replicate draws rows 3 3 6 3 1 3 (b b c b a b).

    As released, its counts stay the full data's (2 per level); the corrected copy counts the resample.
    """
    from pyale._rbase.rng import ale_bootstrap_rows

    assert (ale_bootstrap_rows(6, 1, seed=1) + 1).tolist() == [[3, 3, 6, 3, 1, 3]]
    released = _rscript(ale_libraries["ale"], CATEGORY_REPRO)
    fixed = _rscript(ale_libraries["ale-fixed"], CATEGORY_REPRO)
    levels = released[:3]
    assert dict(zip(levels, map(int, released[3:]))) == {"a": 2, "b": 2, "c": 2}
    assert dict(zip(fixed[:3], map(int, fixed[3:]))) == {"a": 1, "b": 4, "c": 1}


def test_full_data_curve_is_among_the_band_but_not_the_statistics(ale_libraries):
    """docs/ale-package.md, section 10, case 3, checked on R directly."""
    code = """
    set.seed(1); n <- 12
    d <- data.frame(x = runif(n), z = runif(n), y = rnorm(n))
    f <- function(object, newdata, type) newdata$x^2 * (1 + newdata$z)
    a <- ALE(NULL, x_cols = "x", data = d, y_col = "y", pred_fun = f, parallel = 0, silent = TRUE,
             p_values = NULL, boot_it = 3, seed = 5, output_boot_data = TRUE)
    bd <- get(a, what = "boot_data", ale_centre = "zero")
    s <- get(a, "x", ale_centre = "zero")
    k <- s$x.ceil[5]
    cat(s$.y_mean[5], mean(bd$.y[bd$x == k], na.rm = TRUE), mean(bd$.y[bd$x == k & bd$.it != 0], na.rm = TRUE))
    """
    band, with_full, without_full = (float(v) for v in _rscript(ale_libraries["ale"], code))
    assert band == pytest.approx(with_full, rel=1e-12)
    assert band != pytest.approx(without_full, rel=1e-6)
