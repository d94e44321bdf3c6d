"""``pyale validate --conventions ale``: R's ale 0.5.0 against pyale.ALE on the user's data and model.

R's ale lives in its own library (``$ALE_R_LIB``, default ``~/Rlib-ale``) with newer
packages than iml's, so the live tests run the command in a child process whose R
starts with that library first.
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from pyale._cli import validate as _validate
from pyale._cli.command import build_parser
from subprocess_env import child_env

ROOT = Path(__file__).resolve().parents[2]


def test_ale_is_a_validate_convention():
    args = build_parser().parse_args(["validate", "--data", "d.csv", "--model", "m.pkl", "--features", "x",
                                      "--conventions", "ale", "--out", "r"])
    assert args.conventions == "ale"
    assert _validate.COMPARE["ale"] is _validate.compare_ale
    assert _validate.DEFAULT_INTERVALS["ale"] == 9 and _validate.PACKAGES["ale"] == ("ale",)


def _library() -> str:
    return os.path.expanduser(os.environ.get("ALE_R_LIB", "~/Rlib-ale"))


def _validate_in_child(argv: list) -> subprocess.CompletedProcess:
    env = child_env()
    env["R_LIBS"] = _library()
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return subprocess.run([sys.executable, "-m", "pyale", "validate", *map(str, argv)], capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=900)


@pytest.fixture(scope="module")
def ale_library(R):
    if not os.path.isdir(os.path.join(_library(), "ale")):
        pytest.skip(f"R's ale is not installed in {_library()}")
    return _library()


@pytest.mark.r
def test_r_lm_with_a_factor_matches(ale_library, R, tmp_path):
    data, model = tmp_path / "airquality.csv", tmp_path / "lm.rds"
    R(f"""
      d <- na.omit(datasets::airquality); rownames(d) <- NULL
      d$Month <- factor(month.abb[d$Month], levels = month.abb[5:9])
      write.csv(d, "{data}", row.names = FALSE)
      saveRDS(lm(Ozone ~ Solar.R + Wind * Temp + Month, data = d), "{model}")
    """)
    out = tmp_path / "report"
    done = _validate_in_child(["--data", data, "--model", model, "--features", "Temp", "Wind,Temp", "Month",
                               "Month,Temp", "--drop", "Ozone", "Day", "--conventions", "ale", "--out", out])
    assert done.returncode == 0, done.stdout + done.stderr
    assert "4 of 4 effects match R" in done.stdout
    report = (out / "report.md").read_text()
    assert "All 4 effects match R" in report and "R package ale: 0.5.0" in report
    assert "ale::get(ale::ALE(" in report and "pyale.ALE(None, 'Month'" in report
    manifest = json.loads((out / "manifest.json").read_text())
    assert [e["conventions"] for e in manifest["effects"]] == ["ale"] * 4
    month = pd.read_csv(out / "ale_Month.csv")
    assert list(month.columns) == ["Month.bin", ".n", "r", "pyale", "difference"]
    assert month[".n"].sum() == 111 and np.allclose(month["r"], month["pyale"], rtol=1e-10, atol=1e-12)


@pytest.mark.r
def test_python_model_called_back_with_intervals(ale_library, tmp_path):
    from sklearn.compose import make_column_transformer
    from sklearn.ensemble import GradientBoostingRegressor
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder

    rng = np.random.default_rng(4)
    X = pd.DataFrame({"a": rng.uniform(0, 1, 150), "b": rng.normal(size=150),
                      "g": rng.choice(["p", "q", "r"], 150)})
    y = X["a"] ** 2 + X["b"] * (X["g"] == "q") + rng.normal(0, 0.1, 150)
    model = make_pipeline(make_column_transformer((OneHotEncoder(), ["g"]), remainder="passthrough"),
                          GradientBoostingRegressor(n_estimators=30, random_state=0)).fit(X, y)
    X.assign(y=y).to_csv(tmp_path / "d.csv", index=False)
    with (tmp_path / "m.pkl").open("wb") as fh:
        pickle.dump(model, fh)
    out = tmp_path / "report"
    done = _validate_in_child(["--data", tmp_path / "d.csv", "--model", tmp_path / "m.pkl", "--features", "a",
                               "g", "b,a", "--drop", "y", "--conventions", "ale", "--intervals", "5",
                               "--out", out])
    assert done.returncode == 0, done.stdout + done.stderr
    assert "3 of 3 effects match R" in done.stdout
    assert "max_num_bins = 6" in (out / "report.md").read_text()


@pytest.mark.r
def test_binary_numbers_compare_released_numbers(ale_library, R, tmp_path):
    """A 0/1 feature stored as numbers in a model not additive in it: ale moves it from the number 1 (its bug);
    validate compares released ale's numbers and says so."""
    data, model = tmp_path / "d.csv", tmp_path / "lm.rds"
    R(f"""
      set.seed(3); d <- data.frame(x = round(runif(60), 3), b = rbinom(60, 1, 0.4))
      d$y <- d$x * (1 + 2 * d$b) + rnorm(60, sd = 0.1)
      write.csv(d, "{data}", row.names = FALSE)
      saveRDS(lm(y ~ x * b, data = d), "{model}")
    """)
    out = tmp_path / "report"
    done = _validate_in_child(["--data", data, "--model", model, "--features", "b", "x,b", "--drop", "y",
                               "--conventions", "ale", "--out", out])
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 of 2 effects match R" in done.stdout
    assert "replicate_r_bugs=True" in done.stdout and "replicate_r_bugs=True" in (out / "report.md").read_text()
