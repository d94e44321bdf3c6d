"""``pyale validate``: R against pyale on the same data and model, and the report it files."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from pyale._cli import validate as _validate
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


def test_r_problem_names_missing_rpy2_and_how_to_install_it(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "rpy2.robjects", None)  # `import rpy2.robjects` raises ImportError
    problem = _validate.r_problem(["aleplot"])
    assert problem.startswith("rpy2 is not installed")
    assert 'pyale-r[r]' not in problem  # a distribution on no index
    assert 'in the top folder of a clone of pyale\'s repository run `pip install ".[r]"`' in problem
    assert "iml and yaImpute from CRAN, ALEPlot 1.1 from CRAN's archive" in problem


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


def test_python_setup_names_the_reader_columns_loader_and_response(tmp_path):
    import argparse

    X = _validate.as_r_factors(pd.DataFrame({"x": [1.0, 2.0], "s": ["b", "a"]}))
    args = argparse.Namespace(data=tmp_path / "d.parquet", model=tmp_path / "m.joblib", response="yes",
                              r_predict_type=None)
    code = _validate.python_setup(args, X, r_model=False)
    assert f"data = pd.read_parquet({str(tmp_path / 'd.parquet')!r})" in code
    assert "X = data[['x', 's']]" in code
    assert "categorical columns ['s']" in code
    assert "import joblib" in code and "model = joblib.load(" in code
    assert "adapt_model(model, response='yes').predict" in code
    args = argparse.Namespace(data=tmp_path / "d.csv", model=tmp_path / "m.rds", response="setosa",
                              r_predict_type="prob")
    code = _validate.python_setup(args, X, r_model=True)
    assert "import pyale.r" in code and "pd.read_csv(" in code
    assert f"pyale.r.RModel({str(tmp_path / 'm.rds')!r}, type='prob')" in code
    assert "model.predict(frame)['setosa']" in code
    compile(code, "<setup>", "exec")


def test_python_setup_runs_and_predicts_as_the_command_does(run_inputs):  # noqa: F811
    import argparse

    from pyale._core.adapters import adapt_model

    data = pd.read_csv(run_inputs / "grunfeld.csv")
    X = _validate.as_r_factors(data.drop(columns=["invest", "year"]))
    args = argparse.Namespace(data=run_inputs / "grunfeld.csv", model=run_inputs / "ols.pkl", response=None,
                              r_predict_type=None)
    namespace: dict = {}
    exec(_validate.python_setup(args, X, r_model=False), namespace)
    assert list(namespace["X"].columns) == list(X.columns)
    model = pd.read_pickle(run_inputs / "ols.pkl")
    expected = np.asarray(adapt_model(model).predict(X), dtype=float)
    np.testing.assert_allclose(np.asarray(namespace["pred_fun"](None, namespace["X"]), dtype=float), expected,
                               rtol=0, atol=0)


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


@pytest.fixture
def iris_forest(r_packages, tmp_path):
    """iris as CSV and a randomForest classifier saved by R's saveRDS (randomForest not attached)."""
    R = r_packages
    R.require("randomForest")
    data, model = tmp_path / "iris.csv", tmp_path / "forest.rds"
    R(f"""
      write.csv(datasets::iris, "{data}", row.names = FALSE)
      set.seed(1)
      saveRDS(randomForest::randomForest(Species ~ ., data = datasets::iris, ntree = 30), "{model}")
    """)
    return data, model


@pytest.mark.r
def test_r_classifier_rds_with_response_matches(iris_forest, tmp_path):
    data, model = iris_forest
    out = tmp_path / "report"
    argv = ["validate", "--data", data, "--model", model, "--r-predict-type", "prob", "--features", "Petal.Width",
            "Sepal.Length,Petal.Width", "--drop", "Species", "--intervals", "8", "--out", out]
    code, stdout, stderr = run_main([*argv, "--response", "versicolor"])
    assert code == 0, stderr
    report = _report_checks(out, 4)
    assert 'loadNamespace("randomForest")' in report
    assert 'type = "prob")[, "versicolor"]' in report
    table = pd.read_csv(out / "iml_Petal.Width.csv")
    assert np.ptp(table["r"]) > 0.1  # the class probability really moves with Petal.Width

    code, _, stderr = run_main([*argv, "--response", "versicolour"])
    assert code == 1
    assert "must name columns of R's predict() answer ['setosa', 'versicolor', 'virginica']" in stderr
    code, _, stderr = run_main(argv)
    assert code == 2
    assert "the model has 3 outputs" in stderr and "--response" in stderr


@pytest.mark.r
def test_python_classifier_pickle_with_response_matches(r_packages, tmp_path):
    import pickle

    from sklearn.compose import make_column_transformer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder

    rng = np.random.default_rng(5)
    data = pd.DataFrame({"a": rng.normal(size=80), "b": rng.uniform(-1, 1, size=80),
                         "g": rng.choice(["u", "v", "w"], size=80)})
    y = np.where(data["a"] + data["b"] * (data["g"] == "v") + rng.normal(scale=0.5, size=80) > 0, "yes", "no")
    model = make_pipeline(make_column_transformer((OneHotEncoder(), ["g"]), remainder="passthrough"),
                          LogisticRegression()).fit(data, y)
    data.assign(y=y).to_csv(tmp_path / "d.csv", index=False)
    (tmp_path / "m.pkl").write_bytes(pickle.dumps(model))
    out = tmp_path / "report"
    code, stdout, stderr = run_main(["validate", "--data", tmp_path / "d.csv", "--model", tmp_path / "m.pkl",
                                     "--features", "a", "g", "g,b", "--response", "yes", "--intervals", "5",
                                     "--out", out])
    assert code == 0, stderr
    report = _report_checks(out, 6)
    assert "R calls the Python model back through rpy2" in report
    assert "categorical columns ['g']" in report
    assert "adapt_model(model, response='yes')" in report
    table = pd.read_csv(out / "aleplot_g.csv")
    assert sorted(table["g"]) == ["u", "v", "w"] and np.ptp(table["r"]) > 0
