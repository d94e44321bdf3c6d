"""The ``pyale`` command: demo and run end to end, exit codes and messages."""

from __future__ import annotations

import contextlib
import io
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal

import pyale
from pyale._cli import demo as _demo
from pyale._cli import main
from subprocess_env import child_env

DEMO_STEMS = ["ale_value", "ale_firm", "ale_value_capital", "pd_value"]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def run_main(argv):
    """``main(argv)`` with stdout and stderr captured: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in argv])
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def demo_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("demo")
    code, stdout, stderr = run_main(["demo", "--out", out])
    return out, code, stdout, stderr


@pytest.fixture(scope="module")
def grunfeld():
    data = _demo.load_grunfeld()
    return data, _demo.fit_model(data)


def assert_png(path: Path):
    assert path.is_file(), path
    content = path.read_bytes()
    assert content.startswith(PNG_MAGIC), path
    assert len(content) > 1000, path


# ---------------------------------------------------------------- demo


def test_demo_succeeds_and_writes_every_file(demo_run):
    out, code, stdout, stderr = demo_run
    assert code == 0, stderr
    expected = {f"{stem}.{ext}" for stem in DEMO_STEMS for ext in ("csv", "png")}
    assert {p.name for p in out.iterdir()} == expected
    for stem in DEMO_STEMS:
        assert_png(out / f"{stem}.png")
    assert "Wrote 8 files to" in stdout
    assert str(out / "ale_value.csv") in stdout
    # progress goes to stderr, tables to stdout
    assert "fitted OLS" in stderr and "fitted OLS" not in stdout
    assert "== ALE of 'firm'" in stdout and "General Motors" in stdout


def test_demo_bundled_data_is_grunfeld():
    data = _demo.load_grunfeld()
    assert list(data.columns) == ["invest", "value", "capital", "firm", "year"]
    assert data.shape == (220, 5)
    assert data["firm"].nunique() == 11
    assert (data.groupby("firm").size() == 20).all()


@pytest.mark.parametrize(
    ("stem", "J", "front_end"),
    [
        ("ale_value", "value", "ALEPlot"),
        ("ale_firm", "firm", "ALEPlot"),
        ("ale_value_capital", ("value", "capital"), "ALEPlot"),
        ("pd_value", "value", "PDPlot"),
    ],
)
def test_demo_csv_equals_in_process_result(demo_run, grunfeld, stem, J, front_end):
    out, code, _, _ = demo_run
    assert code == 0
    data, model = grunfeld
    X = data[_demo.FEATURES]
    result = getattr(pyale, front_end)(X, model, _demo.predict, J=J, K=40, plot=False)
    expected = result.to_frame()
    written = pd.read_csv(out / f"{stem}.csv")
    assert list(written.columns) == list(expected.columns)
    assert written.shape == expected.shape
    for column in expected.columns:
        if column == "firm":
            assert written[column].tolist() == [str(v) for v in expected[column]]
        else:
            # CSV floats are written with repr, so they read back exactly.
            assert_array_equal(written[column].to_numpy(float), expected[column].to_numpy(float))


def test_demo_effects_have_the_expected_shape(demo_run):
    out = demo_run[0]
    value = pd.read_csv(out / "ale_value.csv")
    assert len(value) == 41  # K = 40 intervals, 41 edges on 220 distinct values
    firm = pd.read_csv(out / "ale_firm.csv")
    assert sorted(firm["firm"]) == sorted(_demo.load_grunfeld()["firm"].unique())
    pair = pd.read_csv(out / "ale_value_capital.csv")
    assert len(pair) == 41 * 41


def test_python_m_pyale_demo_matches_in_process_run(demo_run, tmp_path):
    completed = subprocess.run(
        [sys.executable, "-m", "pyale", "demo", "--out", str(tmp_path)],
        capture_output=True, text=True, stdin=subprocess.DEVNULL, env=child_env(), timeout=300,
    )
    assert completed.returncode == 0, completed.stderr
    assert "Traceback" not in completed.stderr
    for stem in DEMO_STEMS:
        assert (tmp_path / f"{stem}.csv").read_text() == (demo_run[0] / f"{stem}.csv").read_text()
        assert_png(tmp_path / f"{stem}.png")


def test_demo_without_statsmodels_says_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "statsmodels.formula.api", None)
    code, _, stderr = run_main(["demo", "--out", tmp_path])
    assert code == 1
    assert "pyale demo: error: The demo fits its model with statsmodels" in stderr
    assert 'pip install ".[examples]"' in stderr


@pytest.mark.parametrize("argv", [["--help"], ["demo", "--help"], ["run", "--help"], ["--version"]])
def test_help_and_version_exit_zero(argv):
    code, stdout, _ = run_main(argv)
    assert code == 0
    assert "pyale" in stdout


# ---------------------------------------------------------------- run


@pytest.fixture(scope="module")
def run_inputs(tmp_path_factory, grunfeld):
    """The Grunfeld data as CSV, its OLS model and a scikit-learn pipeline as pickles."""
    from sklearn.compose import make_column_transformer
    from sklearn.ensemble import GradientBoostingRegressor
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder

    data, ols = grunfeld
    folder = tmp_path_factory.mktemp("inputs")
    data.to_csv(folder / "grunfeld.csv", index=False)
    with (folder / "ols.pkl").open("wb") as fh:
        pickle.dump(ols, fh)
    X = data[_demo.FEATURES]
    pipeline = make_pipeline(
        make_column_transformer((OneHotEncoder(), ["firm"]), remainder="passthrough"),
        GradientBoostingRegressor(n_estimators=50, random_state=0),
    ).fit(X, data["invest"])
    with (folder / "pipeline.pkl").open("wb") as fh:
        pickle.dump(pipeline, fh)
    (folder / "empty.csv").write_text("")
    (folder / "notes.txt").write_text("not data")
    (folder / "broken.pkl").write_bytes(b"this is not a pickle")
    with (folder / "dict.pkl").open("wb") as fh:
        pickle.dump({"not": "a model"}, fh)
    return folder


def test_run_pipeline_writes_tables_plots_and_summary(run_inputs, tmp_path):
    out = tmp_path / "out"
    code, stdout, stderr = run_main([
        "run", "--data", run_inputs / "grunfeld.csv", "--model", run_inputs / "pipeline.pkl",
        "--features", "value", "firm", "value,capital", "--out", out, "--intervals", "10",
    ])
    assert code == 0, stderr
    stems = ["ale_value", "ale_firm", "ale_value_capital"]
    for stem in stems:
        assert_png(out / f"{stem}.png")
    summary = (out / "summary.md").read_text()
    assert "sklearn.pipeline.Pipeline" in summary and "ale_value_capital.csv" in summary
    assert "[3/3]" in stderr

    # The model's declared inputs (feature_names_in_) form X: the response is left out.
    data = pd.read_csv(run_inputs / "grunfeld.csv")
    with (run_inputs / "pipeline.pkl").open("rb") as fh:
        model = pickle.load(fh)
    X = data[_demo.FEATURES]
    for stem, feature in zip(stems, ["value", "firm", ("value", "capital")]):
        expected = pyale.ale(model, X, feature, n_intervals=10).to_frame()
        written = pd.read_csv(out / f"{stem}.csv")
        assert list(written.columns) == list(expected.columns)
        assert_array_equal(written["ale"].to_numpy(), expected["ale"].to_numpy())


def test_run_statsmodels_with_drop_matches_aleplot(run_inputs, tmp_path, grunfeld):
    code, _, stderr = run_main([
        "run", "--data", run_inputs / "grunfeld.csv", "--model", run_inputs / "ols.pkl",
        "--features", "value", "--drop", "invest", "year", "--out", tmp_path,
    ])
    assert code == 0, stderr
    data, model = grunfeld
    expected = pyale.ALEPlot(data[_demo.FEATURES], model, _demo.predict, J="value", plot=False)
    written = pd.read_csv(tmp_path / "ale_value.csv")
    assert_array_equal(written["value"].to_numpy(), expected.x_values)
    assert_array_equal(written["ale"].to_numpy(), expected.f_values)


# ---------------------------------------------------------------- errors

BAD = [
    # (argv with {in} for the inputs folder and {tmp} for a fresh folder, code, message)
    ([], 2, "usage: pyale"),
    (["bogus"], 2, "invalid choice: 'bogus'"),
    (["demo"], 2, "the following arguments are required: --out"),
    (["demo", "--out", "{tmp}", "--bogus"], 2, "unrecognized arguments: --bogus"),
    (["demo", "--out", "{in}/grunfeld.csv"], 2, "exists and is not a directory"),
    (["run", "--data", "{in}/missing.csv", "--model", "{in}/ols.pkl", "--features", "value",
      "--out", "{tmp}"], 2, "--data: no such file: "),
    (["run", "--data", "{in}/notes.txt", "--model", "{in}/ols.pkl", "--features", "value",
      "--out", "{tmp}"], 2, "--data: cannot tell the format of"),
    (["run", "--data", "{in}/empty.csv", "--model", "{in}/ols.pkl", "--features", "value",
      "--out", "{tmp}"], 1, "--data: could not read"),
    (["run", "--data", "{in}/grunfeld.csv", "--model", "{in}/missing.pkl", "--features", "value",
      "--out", "{tmp}"], 2, "--model: no such file: "),
    (["run", "--data", "{in}/grunfeld.csv", "--model", "{in}/broken.pkl", "--features", "value",
      "--out", "{tmp}"], 1, "--model: could not load"),
    (["run", "--data", "{in}/grunfeld.csv", "--model", "{in}/dict.pkl", "--features", "value",
      "--out", "{tmp}"], 1, "ALE of 'value': The 'model' parameter must be a fitted model"),
    (["run", "--data", "{in}/grunfeld.csv", "--model", "{in}/ols.pkl", "--features", "nosuch",
      "--out", "{tmp}"], 2, "--features: ['nosuch'] are not model input columns"),
    (["run", "--data", "{in}/grunfeld.csv", "--model", "{in}/ols.pkl", "--features", "a,b,c",
      "--out", "{tmp}"], 2, "--features: 'a,b,c' names 3 columns"),
    (["run", "--data", "{in}/grunfeld.csv", "--model", "{in}/ols.pkl", "--features", "value",
      "--drop", "zzz", "--out", "{tmp}"], 2, "--drop: ['zzz'] are not columns of the data"),
    (["run", "--data", "{in}/grunfeld.csv", "--model", "{in}/ols.pkl", "--features", "value",
      "--intervals", "0", "--out", "{tmp}"], 2, "argument --intervals: must be an integer >= 1, got '0'"),
    (["run", "--data", "{in}/grunfeld.csv", "--model", "{in}/ols.pkl", "--features", "value",
      "--conventions", "r", "--out", "{tmp}"], 2, "argument --conventions: invalid choice: 'r'"),
    (["run", "--data", "{in}/grunfeld.csv", "--model", "{in}/ols.pkl", "--features", "value",
      "--r-predict-type", "response", "--out", "{tmp}"], 2, "--r-predict-type applies only to an R model"),
    (["run", "--data", "{in}/grunfeld.csv", "--model", "{in}/pipeline.pkl", "--features", "value",
      "--response", "hi", "--out", "{tmp}"], 1, "The 'response' parameter selects classes"),
    (["validate", "--data", "{in}/grunfeld.csv"], 2, "the following arguments are required: --model"),
]


@pytest.mark.parametrize(
    ("argv", "code", "message"), BAD, ids=[f"{i}-{' '.join(a[:1])}" for i, (a, _, _) in enumerate(BAD)]
)
def test_bad_arguments_give_a_message_and_nonzero_exit(run_inputs, tmp_path, argv, code, message):
    argv = [a.replace("{in}", str(run_inputs)).replace("{tmp}", str(tmp_path / "out")) for a in argv]
    actual, _, stderr = run_main(argv)
    assert actual == code, stderr
    assert message in stderr
    assert "Traceback" not in stderr


def test_bad_file_via_subprocess_has_no_traceback(tmp_path):
    completed = subprocess.run(
        [sys.executable, "-m", "pyale", "run", "--data", str(tmp_path / "none.csv"), "--model",
         str(tmp_path / "none.pkl"), "--features", "x", "--out", str(tmp_path / "out")],
        capture_output=True, text=True, stdin=subprocess.DEVNULL, env=child_env(), timeout=120,
    )
    assert completed.returncode == 2
    assert completed.stderr.strip().splitlines()[-1].startswith("pyale run: error: --data: no such file")
    assert "Traceback" not in completed.stderr


def test_warnings_are_one_line_messages(tmp_path, monkeypatch):
    """A pyale warning (levels that cannot be ordered) is shown as 'pyale: warning: ...'."""
    # x is distributed alike within both levels of g
    data = pd.DataFrame({"g": ["a"] * 10 + ["b"] * 10, "x": np.tile(np.arange(10.0), 2)})
    data.to_csv(tmp_path / "d.csv", index=False)

    class Additive:
        feature_names_in_ = np.array(["g", "x"], dtype=object)

        def predict(self, frame):
            return frame["x"].to_numpy() + (frame["g"] == "b").to_numpy()

    monkeypatch.setattr("pyale._cli.command._read_model", lambda path, r_type: Additive())
    (tmp_path / "m.pkl").write_bytes(b"")
    code, _, stderr = run_main([
        "run", "--data", tmp_path / "d.csv", "--model", tmp_path / "m.pkl", "--features", "g",
        "--out", tmp_path / "out",
    ])
    assert code == 0, stderr
    assert "pyale: warning: The levels of column 'g' cannot be ordered" in stderr


# ---------------------------------------------------------------- imports


@pytest.mark.parametrize("module", ["pyale", "pyale._cli"])
def test_import_does_not_import_matplotlib_or_rpy2(module):
    code = (
        f"import sys, {module}; "
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'matplotlib', 'rpy2', 'statsmodels'}))"
    )
    completed = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=child_env(), timeout=120,
        check=True,
    )
    assert completed.stdout.strip() == "[]"


@pytest.mark.r
def test_run_r_model_from_rds_matches_statsmodels(R, run_inputs, tmp_path, grunfeld):
    """An R lm saved with saveRDS gives the statsmodels OLS numbers (same model, two fits)."""
    data_path = run_inputs / "grunfeld.csv"
    model_path = tmp_path / "lm.rds"
    R(
        f'saveRDS(lm(invest ~ value * capital + firm, data = read.csv("{data_path.as_posix()}", '
        f'stringsAsFactors = TRUE)), "{model_path.as_posix()}")'
    )
    code, _, stderr = run_main([
        "run", "--data", data_path, "--model", model_path, "--features", "value", "firm",
        "--drop", "invest", "year", "--out", tmp_path / "out",
    ])
    assert code == 0, stderr
    data, model = grunfeld
    for feature in ("value", "firm"):
        expected = pyale.ALEPlot(data[_demo.FEATURES], model, _demo.predict, J=feature, plot=False)
        written = pd.read_csv(tmp_path / "out" / f"ale_{feature}.csv")
        if feature == "firm":
            assert written[feature].tolist() == list(expected.x_values)
        else:
            assert_array_equal(written[feature].to_numpy(), expected.x_values)
        # Two least-squares fits (R's QR, statsmodels' pinv) agree to about 1e-9 here.
        assert_allclose(written["ale"].to_numpy(), expected.f_values, rtol=1e-6, atol=1e-6)
