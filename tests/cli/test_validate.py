"""``pyale validate``: R against pyale on the same data and model, and the report it files."""

from __future__ import annotations

import json
import pickle
import re

import numpy as np
import pandas as pd
import pytest

import pyale
from pyale._cli import validate as _validate
from pyale._cli.files import markdown_label
from pyale._cli.inputs import exact_csv_options
from test_cli import grunfeld, read_csv, run_inputs, run_main  # noqa: F401 - grunfeld and run_inputs are fixtures

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
    assert ("float_precision='round_trip'" in code) == bool(exact_csv_options())
    assert f"pyale.r.RModel({str(tmp_path / 'm.rds')!r}, type='prob')" in code
    assert "model.predict(frame)['setosa']" in code
    compile(code, "<setup>", "exec")


def test_python_setup_runs_and_predicts_as_the_command_does(run_inputs):  # noqa: F811
    import argparse

    from pyale._core.map.adapters import adapt_model

    data = read_csv(run_inputs / "grunfeld.csv")
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
    table = read_csv(tmp_path / "report" / "aleplot_value_x_capital.csv")
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
    table = read_csv(out / "iml_Petal.Width.csv")
    assert np.ptp(table["r"]) > 0.1  # the class probability really moves with Petal.Width

    # the refused runs write elsewhere: a non-empty --out is refused before anything else (exit code 2)
    code, _, stderr = run_main([*argv[:-1], tmp_path / "report2", "--response", "versicolour"])
    assert code == 1
    assert "must name columns of R's predict() answer ['setosa', 'versicolor', 'virginica']" in stderr
    code, _, stderr = run_main([*argv[:-1], tmp_path / "report3"])
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
    table = read_csv(out / "aleplot_g.csv")
    assert sorted(table["g"]) == ["u", "v", "w"] and np.ptp(table["r"]) > 0


# ---------------------------------------------------------------- names and class labels


def test_as_r_factors_accepts_any_column_name():
    X = pd.DataFrame({"self": ["b", "a"], "X": [1.0, 2.0], "r": ["u", "v"]})
    out = _validate.as_r_factors(X)
    assert list(out.columns) == ["self", "X", "r"]
    assert list(out["self"].cat.categories) == ["a", "b"] and X["self"].dtype != "category"


@pytest.mark.parametrize("name", ["r", "pyale", "difference"])
def test_comparison_tables_keep_r_pyale_and_difference(name):
    table = _validate._aleplot_table([name], [np.array([0.0, 1.0, 2.0])], np.array([0.0, 1.0, 2.0]),
                                     np.array([0.0, 1.0, 2.5]))
    assert list(table.columns) == [f"feature_{name}", "r", "pyale", "difference"]
    assert table["difference"].tolist() == [0.0, 0.0, 0.5]
    pair = _validate._aleplot_table([name, "x"], [["a", "b"], np.array([0.0, 1.0])], np.zeros((2, 2)),
                                    np.ones((2, 2)))
    assert list(pair.columns) == [f"feature_{name}", "x", "r", "pyale", "difference"]


def test_an_unknown_class_is_refused_before_r_runs(run_inputs, tmp_path, monkeypatch):  # noqa: F811
    from sklearn.linear_model import LogisticRegression

    data = read_csv(run_inputs / "grunfeld.csv")
    model = LogisticRegression().fit(data[["value", "capital"]], (data["invest"] > 100).astype(int))
    (tmp_path / "m.pkl").write_bytes(pickle.dumps(model))
    monkeypatch.setattr(_validate, "r_problem", lambda conventions: None)
    code, _, stderr = run_main(["validate", "--data", run_inputs / "grunfeld.csv", "--model", tmp_path / "m.pkl",
                                "--features", "value", "--response", "2", "--out", tmp_path / "report"])
    assert code == 2
    assert "pyale validate: error: --response: '2' names no class of the model; its classes are [0, 1]." in stderr
    assert not (tmp_path / "report").exists()


def test_python_setup_writes_the_matched_class(tmp_path):
    import argparse

    X = pd.DataFrame({"x": [1.0, 2.0]})
    args = argparse.Namespace(data=tmp_path / "d.csv", model=tmp_path / "m.pkl", response="1", r_predict_type=None)
    assert "adapt_model(model, response=1).predict" in _validate.python_setup(args, X, r_model=False, response=1)
    assert "response=True" in _validate.python_setup(args, X, r_model=False, response=np.bool_(True))
    assert "response='1'" in _validate.python_setup(args, X, r_model=False)


@pytest.fixture(scope="module")
def look_alike_data(tmp_path_factory):
    """Columns with look-alike names (some not syntactic in R) and a linear model with a slope per column."""

    from sklearn.linear_model import LinearRegression

    folder = tmp_path_factory.mktemp("validate_names")
    rng = np.random.default_rng(4)
    names = {"plain": ["x_1", "X_1", "x.1", "ünï", "con", "l" * 200, "ale", "r", "difference"],
             "odd": ["x 1", "x_1", "x/1", "x,1", "a|b", "$a$", "`q`", "$\\q$"]}
    for kind, columns in names.items():
        data = pd.DataFrame({c: rng.normal(size=40) for c in columns})
        data.to_csv(folder / f"{kind}.csv", index=False)
        y = data.to_numpy() @ np.arange(1.0, len(columns) + 1)
        (folder / f"{kind}.pkl").write_bytes(pickle.dumps(LinearRegression().fit(data, y)))
    return folder, names


def _check_look_alike_report(out, features, conventions, data):
    """Every effect has its own files, the report's rows link them, and each file holds its feature's effect."""


    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    entries = manifest["effects"]
    assert [(e["conventions"], e["features"]) for e in entries] == [(c, f) for f in features for c in conventions]
    assert all(e["matches_r"] for e in entries)
    files = [e["table"] for e in entries] + [e["plot"] for e in entries]
    assert len({f.casefold() for f in files}) == len(files)
    assert {p.name for p in out.iterdir()} == set(files) | {"report.md", "report.html", "manifest.json"}
    report = (out / "report.md").read_text(encoding="utf-8")
    rows = [line for line in report.splitlines() if line.startswith(("| aleplot |", "| iml |"))]
    assert len(rows) == len(entries)
    for entry, row in zip(entries, rows):
        assert row.startswith(f"| {entry['conventions']} | {markdown_label(entry['features'])} |")
        assert f"[{entry['table']}]({entry['table']})" in row
        table = read_csv(out / entry["table"])
        assert np.allclose(table["r"], table["pyale"], rtol=1e-10, atol=1e-9)
        if len(entry["features"]) == 2:
            continue
        name = entry["features"][0]
        key = table.columns[0]
        assert key == (f"feature_{name}" if name in ("r", "pyale", "difference") else name)
        # the file holds this feature's effect: its slope is the feature's coefficient in the model
        steps = np.diff(table["pyale"].to_numpy(float)) / np.diff(table[key].to_numpy(float))
        np.testing.assert_allclose(steps, list(data.columns).index(name) + 1, rtol=1e-9, atol=0)


@pytest.mark.r
def test_look_alike_names_each_get_their_evidence(r_packages, look_alike_data, tmp_path):
    folder, names = look_alike_data
    features = [*names["plain"], "x_1,X_1"]
    out = tmp_path / "plain"
    code, _, stderr = run_main(["validate", "--data", folder / "plain.csv", "--model", folder / "plain.pkl",
                                "--features", *features, "--intervals", "4", "--out", out])
    assert code == 0, stderr
    _check_look_alike_report(out, [[f] for f in names["plain"]] + [["x_1", "X_1"]], ["aleplot", "iml"],
                             read_csv(folder / "plain.csv"))

    out = tmp_path / "odd"
    code, _, stderr = run_main(["validate", "--data", folder / "odd.csv", "--model", folder / "odd.pkl",
                                "--features", *names["odd"], "x 1,x_1", "--conventions", "aleplot",
                                "--intervals", "4", "--out", out])
    assert code == 0, stderr
    _check_look_alike_report(out, [[f] for f in names["odd"]] + [["x 1", "x_1"]], ["aleplot"],
                             read_csv(folder / "odd.csv"))


@pytest.mark.r
def test_iml_with_names_r_would_change_is_refused(r_packages, look_alike_data, tmp_path):
    folder, _ = look_alike_data
    code, _, stderr = run_main(["validate", "--data", folder / "odd.csv", "--model", folder / "odd.pkl",
                                "--features", "x_1", "--out", tmp_path / "report"])
    assert code == 2
    assert ("iml 0.11.4 fails on data whose column names are not syntactic R names, whichever feature is asked "
            "for (R's make.names changes them: {'x 1': 'x.1', 'x/1': 'x.1', 'x,1': 'x.1', 'a|b': 'a.b', "
            "'$a$': 'X.a.', '`q`': 'X.q.', '$\\\\q$': 'X..q.'}") in stderr
    assert "--conventions aleplot" in stderr
    assert not (tmp_path / "report").exists()


@pytest.mark.r
def test_iml_refusal_of_a_reserved_name_comes_from_pyale(r_packages, tmp_path):

    from sklearn.linear_model import LinearRegression

    rng = np.random.default_rng(2)
    data = pd.DataFrame({".value": rng.normal(size=30), "b": rng.normal(size=30)})
    data.to_csv(tmp_path / "d.csv", index=False)
    (tmp_path / "m.pkl").write_bytes(pickle.dumps(LinearRegression().fit(data, data.sum(axis=1))))
    code, _, stderr = run_main(["validate", "--data", tmp_path / "d.csv", "--model", tmp_path / "m.pkl",
                                "--features", ".value", "--conventions", "iml", "--out", tmp_path / "report"])
    assert code == 1
    assert "iml ALE of '.value': The 'feature' parameter of FeatureEffect names feature '.value'" in stderr


@pytest.mark.r
@pytest.mark.parametrize(("kind", "text", "literal"),
                         [("int", "1", "1"), ("bool", "true", "True"), ("float", "1", "1.0"),
                          ("str", "yes", "'yes'")])
def test_typed_class_labels_validate_against_r(r_packages, tmp_path, kind, text, literal):

    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(6)
    data = pd.DataFrame({"a": rng.normal(size=60), "b": rng.uniform(-1, 1, size=60)})
    positive = (data["a"] - data["b"] + rng.normal(scale=0.7, size=60)) > 0
    y = {"int": positive.astype(int), "bool": positive, "float": positive.astype(float),
         "str": np.where(positive, "yes", "no")}[kind]
    model = LogisticRegression().fit(data, y)
    data.to_csv(tmp_path / "d.csv", index=False)
    (tmp_path / "m.pkl").write_bytes(pickle.dumps(model))
    out = tmp_path / "report"
    code, stdout, stderr = run_main(["validate", "--data", tmp_path / "d.csv", "--model", tmp_path / "m.pkl",
                                     "--features", "a", "--response", text, "--intervals", "5", "--out", out])
    assert code == 0, stderr
    assert "2 of 2 effects match R" in stdout
    report = (out / "report.md").read_text()
    assert f"adapt_model(model, response={literal}).predict" in report
    table = read_csv(out / "aleplot_a.csv")
    positive_class = list(model.classes_)[1]
    expected = pyale.ale(model, data, "a", n_intervals=5, response=positive_class)
    np.testing.assert_allclose(table["pyale"].to_numpy(float), expected.effects[:, 0], rtol=1e-12, atol=1e-15)
    assert np.ptp(table["r"]) > 0.05  # the probability of that class moves with 'a'


@pytest.mark.r
def test_huge_intervals_reach_r_as_an_equivalent_k(r_packages, tmp_path):
    """--intervals 1000000000 would make R allocate 8 GB; R gets 2n, which gives it the same edges."""
    R = r_packages
    data, model = tmp_path / "airquality.csv", tmp_path / "lm.rds"
    R(f"""
      d <- na.omit(datasets::airquality); rownames(d) <- NULL
      write.csv(d, "{data}", row.names = FALSE)
      saveRDS(lm(Ozone ~ Solar.R + Wind * Temp, data = d), "{model}")
    """)
    out = tmp_path / "report"
    code, stdout, stderr = run_main(["validate", "--data", data, "--model", model, "--features", "Temp",
                                     "--drop", "Ozone", "Day", "Month", "--intervals", "1000000000", "--out", out])
    assert code == 0, stderr
    assert "2 of 2 effects match R" in stdout


class _LevelModel:
    """A model of a numeric and a categorical column (module level: the pickle is loaded by reference)."""

    def predict(self, X):
        shift = X["g"].astype(str).map({"a": 0.0, "b": 1.0, "c": 3.0, "d": -2.0}).to_numpy(float)
        return X["x"].to_numpy(float) + shift + X["x"].to_numpy(float) * (X["g"].astype(str) == "c").to_numpy(float)


@pytest.mark.r
def test_iml_with_unused_categories_compares_imls_number_and_says_so(r_packages, tmp_path):
    """A Categorical with an unused category reaches iml as a factor with that level, where iml centres with
    other levels' shares: validate compares iml's number (replicate_r_bugs=True) and says so."""
    pytest.importorskip("pyarrow")
    rng = np.random.default_rng(21)
    data = pd.DataFrame({"x": rng.uniform(size=80), "z": rng.normal(size=80),
                         "g": pd.Categorical(rng.choice(["b", "c", "d"], size=80), categories=list("abcd"))})
    data.to_parquet(tmp_path / "d.parquet")
    (tmp_path / "m.pkl").write_bytes(pickle.dumps(_LevelModel()))
    code, stdout, stderr = run_main(["validate", "--data", tmp_path / "d.parquet", "--model", tmp_path / "m.pkl",
                                     "--features", "g", "x", "--conventions", "iml", "--out", tmp_path / "report"])
    assert code == 0, stderr
    assert "2 of 2 effects match R" in stdout
    assert "iml: compared iml's numbers, bug included, for 'g' (unused categories" in stdout
    assert "for 'g', 'x'" not in stdout  # the numeric feature is compared as it always is
