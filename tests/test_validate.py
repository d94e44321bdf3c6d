"""``pyale validate``: R against pyale on the same data and model, and the report it files."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from pyale import _validate
from test_cli import grunfeld, run_inputs, run_main  # noqa: F401 - grunfeld and run_inputs are fixtures

GRUNFELD = ["--features", "value", "firm", "value,capital"]


def _argv(inputs, tmp_path, model="ols.pkl", *extra):
    return ["validate", "--data", inputs / "grunfeld.csv", "--model", inputs / model, *GRUNFELD,
            "--drop", "invest", "year", "--out", tmp_path / "report", *extra]


def test_without_r_says_what_is_missing_and_exits_3(run_inputs, tmp_path, monkeypatch):  # noqa: F811
    monkeypatch.setattr(_validate, "r_problem", lambda conventions: "rpy2 is not installed (test).")
    code, stdout, stderr = run_main(_argv(run_inputs, tmp_path))
    assert code == 3
    assert "pyale validate: error: cannot run R here: rpy2 is not installed (test)." in stderr
    assert "Traceback" not in stderr
    assert not (tmp_path / "report").exists()


def test_r_problem_names_a_missing_package(monkeypatch):
    pytest.importorskip("rpy2")
    monkeypatch.setitem(_validate.PACKAGES, "iml", ("pyaleNoSuchPackage",))
    try:
        problem = _validate.r_problem(["iml"])
    except Exception as exc:  # pragma: no cover - rpy2 present without a working R
        pytest.skip(f"R cannot start: {exc}")
    if problem is not None and "rpy2 could not start R" in problem:
        pytest.skip(problem)
    assert problem is not None
    assert "lacks the package(s) pyaleNoSuchPackage" in problem
    assert "never installs R packages" in problem


BAD = [
    ({"--data": "{in}/nothing.csv"}, 2, "--data: no such file"),
    ({"--data": "{in}/notes.txt"}, 2, "--data: cannot tell the format"),
    ({"--data": "{in}/empty.csv"}, 1, "--data: could not read"),
    ({"--model": "{in}/broken.pkl"}, 1, "--model: could not load"),
    ({"--model": "{in}/dict.pkl"}, 1, "the model cannot predict on the data's columns"),
    ({"--features": "nosuch"}, 2, "--features: ['nosuch'] are not model input columns"),
    ({"--conventions": "R"}, 2, "argument --conventions: invalid choice: 'R'"),
    ({"--intervals": "0"}, 2, "argument --intervals: must be an integer >= 1"),
    ({"--response": "hi"}, 1, "The 'response' parameter selects classes"),
]


@pytest.mark.parametrize(("change", "code", "message"), BAD, ids=[m[:30] for _, _, m in BAD])
def test_bad_input_gives_a_message_and_nonzero_exit(run_inputs, tmp_path, monkeypatch,  # noqa: F811
                                                    change, code, message):
    monkeypatch.setattr(_validate, "r_problem", lambda conventions: None)
    options = {"--data": "{in}/grunfeld.csv", "--model": "{in}/ols.pkl", "--features": "value",
               "--drop": "invest", "--out": str(tmp_path / "report")}
    options.update(change)
    argv = ["validate"]
    for option, value in options.items():
        argv += [option, value.replace("{in}", str(run_inputs))]
    actual, _, stderr = run_main(argv)
    assert actual == code, stderr
    assert message in stderr
    assert "Traceback" not in stderr


def test_as_r_factors_sorts_string_levels_and_leaves_other_columns():
    X = pd.DataFrame({"s": ["b", "a", "B", "b"], "x": [1.0, 2.0, 3.0, 4.0],
                      "c": pd.Categorical(["z", "y", "z", "y"], categories=["z", "y"])})
    out = _validate.as_r_factors(X)
    assert list(out["s"].cat.categories) == ["B", "a", "b"]
    assert out["s"].astype(str).tolist() == ["b", "a", "B", "b"]
    assert list(out["c"].cat.categories) == ["z", "y"]
    assert X["s"].dtype != "category"


def test_differences_flag_a_cell_beyond_tolerance():
    r = np.array([0.0, 1.0, 2.0])
    assert _validate._differences(r, r + 1e-13)[3]
    max_abs, _, atol, within = _validate._differences(r, r + np.array([0, 0, 1e-6]))
    assert not within and max_abs == pytest.approx(1e-6) and atol == pytest.approx(2e-10)


# ---------------------------------------------------------------- live


@pytest.fixture
def r_packages(R):
    R.require("ALEPlot", "yaImpute", "iml")
    return R


def _report_checks(out, n_effects):
    report = (out / "report.md").read_text()
    html = (out / "report.html").read_text()
    assert f"All {n_effects} effects match R" in report
    assert re.search(r"SHA-256 [0-9a-f]{64}", report)
    for needle in ("R package ALEPlot: 1.1", "R package iml: 0.11.4", "pyale: ", "numpy: ", "ALEPlot::ALEPlot(",
                   "iml::FeatureEffect$new(", "pyale.ALEPlot(", "pyale validate --data"):
        assert needle in report, needle
    assert html.count("data:image/png;base64,") == n_effects
    return report


@pytest.mark.r
def test_python_model_called_back_from_r_matches(r_packages, run_inputs, tmp_path):  # noqa: F811
    code, stdout, stderr = run_main(_argv(run_inputs, tmp_path, "pipeline.pkl"))
    assert code == 0, stderr
    assert "6 of 6 effects match R" in stdout
    _report_checks(tmp_path / "report", 6)
    table = pd.read_csv(tmp_path / "report" / "aleplot_value_x_capital.csv")
    assert table.shape[0] > 100
    assert np.allclose(table["r"], table["pyale"], rtol=1e-10, atol=1e-9)


@pytest.mark.r
def test_r_lm_rds_on_airquality_matches(r_packages, tmp_path):
    R = r_packages
    data, model = tmp_path / "airquality.csv", tmp_path / "lm.rds"
    R(f"""
      d <- na.omit(datasets::airquality); rownames(d) <- NULL
      write.csv(d, "{data}", row.names = FALSE)
      saveRDS(lm(Ozone ~ Solar.R + Wind * Temp + factor(Month), data = d), "{model}")
    """)
    out = tmp_path / "report"
    code, stdout, stderr = run_main(["validate", "--data", data, "--model", model, "--features", "Temp",
                                     "Wind,Temp", "Month", "--drop", "Ozone", "Day", "--intervals", "12",
                                     "--out", out])
    assert code == 0, stderr
    report = _report_checks(out, 6)
    assert "R evaluates the R model with its own predict()" in report


@pytest.mark.r
def test_a_difference_is_reported_and_exits_1(r_packages, run_inputs, tmp_path, monkeypatch):  # noqa: F811
    import pyale

    real = pyale.ALEPlot

    def off_by_a_little(*args, **kwargs):
        result = real(*args, **kwargs)
        object.__setattr__(result, "f_values", np.asarray(result.f_values) + 1e-6)
        return result

    monkeypatch.setattr(pyale, "ALEPlot", off_by_a_little)
    code, stdout, stderr = run_main(["validate", "--data", run_inputs / "grunfeld.csv", "--model",
                                     run_inputs / "ols.pkl", "--features", "value", "--drop", "invest", "year",
                                     "--out", tmp_path / "report"])
    assert code == 1, stderr
    assert "1 of 2 effects match R" in stdout
    report = (tmp_path / "report" / "report.md").read_text()
    assert "1 of 2 effects differ from R" in report
    assert "DIFFER" in report
