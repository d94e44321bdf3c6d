"""The ``pyale`` command: demo and run end to end, exit codes and messages."""

from __future__ import annotations

import contextlib
import io
import json
import pickle
import re
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
from pyale._cli.files import MAX_STEM, effect_stems, markdown_label
from pyale._cli.inputs import CommandError, _parse_features, _response, read_csv_exact
from subprocess_env import child_env

def read_csv(path):
    """A CSV as the command reads it: every float exactly the double its text stands for (pandas 2 too)."""
    return read_csv_exact(path)


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
    written = read_csv(out / f"{stem}.csv")
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
    value = read_csv(out / "ale_value.csv")
    assert len(value) == 41  # K = 40 intervals, 41 edges on 220 distinct values
    firm = read_csv(out / "ale_firm.csv")
    assert sorted(firm["firm"]) == sorted(_demo.load_grunfeld()["firm"].unique())
    pair = read_csv(out / "ale_value_capital.csv")
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
    # stderr: what is being done; stdout: one line per effect, no tables
    assert "pyale: computed 3 effect(s)" in stderr
    lines = stdout.strip().splitlines()
    assert lines[0].startswith("ALE of 'value': numeric, 11 grid points over [30.284, 6241.7], ALE [")
    assert lines[0].endswith("-> ale_value.csv, stats_value.csv, ale_value.png")
    assert lines[1].startswith("ALE of 'firm': categorical, 11 levels, ALE [")
    assert lines[2].startswith("ALE of 'value' x 'capital': numeric x numeric, 11 grid points over [30.284, "
                               "6241.7] x 11 grid points over [0.8, 2226.3], ALE [")
    assert "General Motors" not in stdout and len(lines) == 5

    # The model's declared inputs (feature_names_in_) form X: the response is left out.
    data = read_csv(run_inputs / "grunfeld.csv")
    with (run_inputs / "pipeline.pkl").open("rb") as fh:
        model = pickle.load(fh)
    X = data[_demo.FEATURES]
    for stem, feature in zip(stems, ["value", "firm", ("value", "capital")]):
        expected = pyale.ale(model, X, feature, n_intervals=10).to_frame()
        written = read_csv(out / f"{stem}.csv")
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
    written = read_csv(tmp_path / "ale_value.csv")
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
      "--intervals", "0", "--out", "{tmp}"], 2, "argument --intervals: must be an integer >= 1 or 'auto', got '0'"),
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

    monkeypatch.setattr("pyale._cli.run._read_model", lambda path, r_type: Additive())
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
        written = read_csv(tmp_path / "out" / f"ale_{feature}.csv")
        if feature == "firm":
            assert written[feature].tolist() == list(expected.x_values)
        else:
            assert_array_equal(written[feature].to_numpy(), expected.x_values)
        # Two least-squares fits (R's QR, statsmodels' pinv) agree to about 1e-9 here.
        assert_allclose(written["ale"].to_numpy(), expected.f_values, rtol=1e-6, atol=1e-6)


# ---------------------------------------------------------------- file names


LOOK_ALIKES = ["x 1", "x_1", "x/1", "X_1", "x,1", "ünï", "con", "CON", "l" * 300, "$a$", "$\\q$", "ale",
               "output", "a|b", "`q`", "x.1", "_x_1"]  # '$\q$' is invalid mathtext: drawn as written


def test_plain_names_keep_their_plain_stems():
    stems = effect_stems([("ale", ("value",)), ("ale", ("firm",)), ("ale", ("value", "capital")),
                          ("ale", ("Petal.Width",)), ("ale", ("con",))])
    assert stems == ["ale_value", "ale_firm", "ale_value_capital", "ale_Petal.Width", "ale_con"]
    assert effect_stems([("aleplot", ("value", "capital"))], joiner="_x_") == ["aleplot_value_x_capital"]


def test_look_alike_names_get_distinct_stable_stems():
    effects = [("ale", (name,)) for name in LOOK_ALIKES] + [("ale", ("x 1", "x_1")), ("ale", ("x_1", "x 1"))]
    stems = effect_stems(effects)
    folded = [s.casefold() for s in stems]
    assert len(set(folded)) == len(stems)  # distinct even on a case-insensitive file system
    for stem in stems:
        assert re.fullmatch(r"ale_[A-Za-z0-9._-]+", stem), stem
        assert len(stem) <= MAX_STEM + 9
    hashed = dict(zip(LOOK_ALIKES, stems))
    assert hashed["x_1"].startswith("ale_x_1_") and hashed["X_1"].startswith("ale_X_1_")  # case collision
    assert hashed["ale"] == "ale_ale" and hashed["x.1"] == "ale_x.1"
    assert re.fullmatch(r"ale_x_1_[0-9a-f]{8}", hashed["x 1"])  # lossy: hashed
    # the stem of a lossy name does not depend on the other effects of the run
    assert effect_stems([("ale", ("x 1",))]) == [hashed["x 1"]]
    assert effect_stems([("ale", ("x_1",))]) == ["ale_x_1"]


def test_the_same_effect_twice_gets_a_counter():
    assert effect_stems([("ale", ("a",)), ("ale", ("a",))]) == ["ale_a", "ale_a_2"]


@pytest.mark.parametrize(
    ("names", "expected"),
    [
        (("value",), "`value`"),
        (("a", "b"), "`a` x `b`"),
        (("a|b",), "`a\\|b`"),
        (("`q`",), "`` `q` ``"),
        (("x\ny",), "`'x\\ny'`"),
        ((" x",), "`' x'`"),
        (("",), "`''`"),
    ],
)
def test_markdown_label(names, expected):
    assert markdown_label(names) == expected


def test_parse_features_reads_a_column_with_a_comma_as_that_column():
    assert _parse_features(["x,1", "x, y", "x,1"], ["x,1", "x", "y"]) == ["x,1", ("x", "y")]
    with pytest.warns(UserWarning, match=re.escape("--features 'x,1' is read as the column 'x,1', not as the "
                                                   "pair of 'x' and '1' (columns as well); for the pair write "
                                                   "'x, 1'.")):
        assert _parse_features(["x,1"], ["x,1", "x", "1"]) == ["x,1"]


@pytest.fixture(scope="module")
def look_alike_inputs(tmp_path_factory):
    """A CSV whose columns are look-alike names, and a linear model whose slope differs per column."""
    from sklearn.linear_model import LinearRegression

    folder = tmp_path_factory.mktemp("look_alikes")
    rng = np.random.default_rng(3)
    data = pd.DataFrame({name: rng.normal(size=50) for name in LOOK_ALIKES})
    y = data.to_numpy() @ np.arange(1.0, len(LOOK_ALIKES) + 1)
    data.to_csv(folder / "d.csv", index=False)
    with (folder / "m.pkl").open("wb") as fh:
        pickle.dump(LinearRegression().fit(data, y), fh)
    return folder


def test_run_gives_every_look_alike_feature_its_own_files(look_alike_inputs, tmp_path):


    out = tmp_path / "out"
    pairs = ["x 1,x_1", "x_1,x 1"]
    code, stdout, stderr = run_main(["run", "--data", look_alike_inputs / "d.csv", "--model",
                                     look_alike_inputs / "m.pkl", "--features", *LOOK_ALIKES, *pairs,
                                     "--intervals", "4", "--out", out])
    assert code == 0, stderr
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["command"] == "run" and manifest["conventions"] == "aleplot"
    entries = manifest["effects"]
    assert [e["features"] for e in entries] == [[n] for n in LOOK_ALIKES] + [["x 1", "x_1"], ["x_1", "x 1"]]
    files = [e["table"] for e in entries] + [e["plot"] for e in entries] + [e["statistics"] for e in entries]
    assert len({f.casefold() for f in files}) == len(files)
    written = {p.name for p in out.iterdir()}
    assert written == set(files) | {"summary.md", "manifest.json", "effects.html"}

    data = read_csv(look_alike_inputs / "d.csv")
    summary = (out / "summary.md").read_text(encoding="utf-8")
    rows = [line for line in summary.splitlines() if line.startswith("| `")]
    assert len(rows) == len(entries)
    for entry, row in zip(entries, rows):
        names = entry["features"]
        # the summary row names the features and links the manifest's files
        assert row.startswith(f"| {markdown_label(names)} |")
        assert f"[{entry['table']}]({entry['table']})" in row and f"![{entry['plot']}]({entry['plot']})" in row
        assert_png(out / entry["plot"])
        table = read_csv(out / entry["table"])
        if len(names) == 2:
            assert table.shape[0] == 25 and np.abs(table["ale"]).max() < 1e-9  # additive model: no interaction
            continue
        # the evidence matches its label: the slope of the table is that column's coefficient
        slope = LOOK_ALIKES.index(names[0]) + 1
        grid_column = "feature_" + names[0] if names[0] in ("ale", "output") else names[0]
        assert list(table.columns) == [grid_column, "output", "ale", "heterogeneity"]
        expected = pyale.ale(pickle.loads((look_alike_inputs / "m.pkl").read_bytes()), data, names[0],
                             n_intervals=4)
        assert_array_equal(table[grid_column].to_numpy(float), expected.grid[0])
        assert_array_equal(table["ale"].to_numpy(float), expected.effects[:, 0])
        steps = np.diff(table["ale"].to_numpy(float)) / np.diff(table[grid_column].to_numpy(float))
        assert_allclose(steps, slope, rtol=1e-9, atol=0)
    assert f"Wrote {len(files) + 3} files" in stdout


# ---------------------------------------------------------------- class labels typed on the command line


class _Classes:
    """A stand-in classifier with the given ``classes_`` (probability of class i grows with i * x)."""

    def __init__(self, classes):
        if isinstance(classes, list):  # as given, mixed types included (an object array)
            self.classes_ = np.empty(len(classes), dtype=object)
            self.classes_[:] = classes
        else:
            self.classes_ = classes

    def predict_proba(self, frame):
        x = frame["x"].to_numpy(float)
        scores = np.exp(np.outer(x, np.arange(len(self.classes_))))
        return scores / scores.sum(axis=1, keepdims=True)


@pytest.mark.parametrize(
    ("classes", "text", "expected"),
    [
        ([0, 1], "1", 1),
        ([0, 1], "1.0", 1),
        ([0, 1], " 1 ", 1),
        ([0, 1], "+1e0", 1),
        ([False, True], "True", True),
        ([False, True], "true", True),
        ([False, True], "FALSE", False),
        ([0.0, 1.0], "1", 1.0),
        ([0.0, 0.5], "0.5", 0.5),
        (["no", "yes"], "yes", "yes"),
        (["1", "2"], "1", "1"),
        (np.array([3, 7], dtype=np.int8), "7", 7),
        (np.array([1.5, 2.5], dtype=np.float32), "2.5", 2.5),
        ([2**62 + 1, 2**62], str(2**62 + 1), 2**62 + 1),  # exact for big integers
        ([True, 1], "1", 1),  # a bool is named by true/false only
        ([True, 1], "True", True),
    ],
)
def test_response_matches_the_class_by_type(classes, text, expected):
    got = _response(_Classes(classes), text)
    assert got == expected and type(got) is type(expected)


@pytest.mark.parametrize(
    ("classes", "text", "message"),
    [
        ([0, 1], "2", "--response: '2' names no class of the model; its classes are [0, 1]."),
        ([0, 1], "1.5", "--response: '1.5' names no class of the model; its classes are [0, 1]."),
        ([False, True], "1", "--response: '1' names no class of the model; its classes are [False, True]."),
        (["no", "yes"], "Yes", "--response: 'Yes' names no class of the model; its classes are ['no', 'yes']."),
        (["1", 1], "1", "--response: '1' names more than one class of the model (['1', 1]); its classes are "
                        "['1', 1]. pyale does not guess"),
        ([1, "1.0"], "1.0", "--response: '1.0' names more than one class of the model ([1, '1.0'])"),
    ],
)
def test_response_refuses_no_match_and_ambiguous_matches(classes, text, message):
    with pytest.raises(CommandError, match=re.escape(message)) as info:
        _response(_Classes(classes), text)
    assert info.value.code == 2


def test_response_of_a_model_without_classes_is_the_text():
    assert _response(object(), "hi") == "hi"
    assert _response(_Classes([0, 1]), None) is None


@pytest.fixture(scope="module")
def classifier_inputs(tmp_path_factory):
    """Data and four logistic regressions whose classes are ints, bools, floats and strings."""
    from sklearn.linear_model import LogisticRegression

    folder = tmp_path_factory.mktemp("classes")
    rng = np.random.default_rng(9)
    data = pd.DataFrame({"a": rng.normal(size=80), "b": rng.uniform(-1, 1, size=80)})
    positive = (data["a"] + data["b"] + rng.normal(scale=0.7, size=80)) > 0
    data.to_csv(folder / "d.csv", index=False)
    labels = {"int": positive.astype(int).to_numpy(), "bool": positive.to_numpy(),
              "float": positive.astype(float).to_numpy(), "str": np.where(positive, "yes", "no")}
    for kind, y in labels.items():
        with (folder / f"{kind}.pkl").open("wb") as fh:
            pickle.dump(LogisticRegression().fit(data, y), fh)
    return folder


CLASS_CASES = [("int", "1", 1), ("int", "0", 0), ("bool", "true", True), ("bool", "False", False),
               ("float", "1", 1.0), ("float", "0.0", 0.0), ("str", "yes", "yes")]


@pytest.mark.parametrize(("kind", "text", "label"), CLASS_CASES)
def test_run_with_a_typed_class_label(classifier_inputs, tmp_path, kind, text, label):
    code, _, stderr = run_main(["run", "--data", classifier_inputs / "d.csv", "--model",
                                classifier_inputs / f"{kind}.pkl", "--features", "a", "--response", text,
                                "--intervals", "5", "--out", tmp_path])
    assert code == 0, stderr
    model = pickle.loads((classifier_inputs / f"{kind}.pkl").read_bytes())
    data = read_csv(classifier_inputs / "d.csv")
    expected = pyale.ale(model, data, "a", n_intervals=5, response=label)
    table = read_csv(tmp_path / "ale_a.csv")
    assert_array_equal(table["ale"].to_numpy(float), expected.effects[:, 0])
    assert table["output"].astype(str).tolist() == [str(label)] * table.shape[0]
    every = pyale.ale(model, data, "a", n_intervals=5)
    column = list(model.classes_).index(label)
    assert_array_equal(table["ale"].to_numpy(float), every.effects[:, column])  # the class asked for


    assert json.loads((tmp_path / "manifest.json").read_text())["response"] == label


def test_run_refuses_an_unknown_class_with_the_classes(classifier_inputs, tmp_path):
    code, _, stderr = run_main(["run", "--data", classifier_inputs / "d.csv", "--model",
                                classifier_inputs / "int.pkl", "--features", "a", "--response", "yes",
                                "--out", tmp_path / "out"])
    assert code == 2
    assert "pyale run: error: --response: 'yes' names no class of the model; its classes are [0, 1]." in stderr
    assert not (tmp_path / "out").exists()


def test_run_refuses_an_ambiguous_class(tmp_path, monkeypatch):
    pd.DataFrame({"x": np.linspace(-1, 1, 30), "z": 1.0}).to_csv(tmp_path / "d.csv", index=False)
    (tmp_path / "m.pkl").write_bytes(b"")
    monkeypatch.setattr("pyale._cli.run._read_model", lambda path, r_type: _Classes(["1", 1]))
    code, _, stderr = run_main(["run", "--data", tmp_path / "d.csv", "--model", tmp_path / "m.pkl",
                                "--features", "x", "--response", "1", "--out", tmp_path / "out"])
    assert code == 2
    assert "--response: '1' names more than one class of the model (['1', 1])" in stderr
