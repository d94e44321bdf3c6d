"""``pyale run`` (pyale/_cli/run.py, page.py, inputs.py): output, bands, statistics, column types, models' features."""

from __future__ import annotations

import json
import pickle
import re
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal

import pyale
from pyale._cli import validate as _validate
from pyale._cli.inputs import CommandError, _model_inputs, check_categories, parse_dtypes
from pyale._core.map.adapters import declared_features
from subprocess_env import child_env
from test_cli import assert_png, grunfeld, read_csv, run_inputs, run_main  # noqa: F401 - fixtures

GRUNFELD = ["--features", "value", "firm", "value,capital", "--intervals", "10"]


def _run(inputs, out, *extra, model="pipeline.pkl"):
    return run_main(["run", "--data", inputs / "grunfeld.csv", "--model", inputs / model, *GRUNFELD,
                     "--out", out, *extra])


# ---------------------------------------------------------------- what is printed


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # matplotlib 3.8's first import on pyparsing 3.3
def test_quiet_prints_nothing_and_writes_everything(run_inputs, tmp_path):  # noqa: F811
    code, stdout, stderr = _run(run_inputs, tmp_path / "out", "--quiet")
    assert code == 0 and stdout == "" and stderr == ""
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert len(manifest["effects"]) == 3 and (tmp_path / "out" / "effects.html").is_file()


def test_print_tables_adds_the_tables_and_statistics(run_inputs, tmp_path):  # noqa: F811
    code, stdout, _ = _run(run_inputs, tmp_path / "out", "--print-tables")
    assert code == 0
    assert "== ALE of 'firm'" in stdout and "General Motors" in stdout
    assert "== statistics of 'value' x 'capital'" in stdout and "naler_max" in stdout


def test_progress_bar_only_when_asked_here(run_inputs, tmp_path):  # noqa: F811
    _, _, quiet_default = _run(run_inputs, tmp_path / "a")
    assert "%|" not in quiet_default  # stderr is not a terminal under pytest
    code, _, stderr = _run(run_inputs, tmp_path / "b", "--progress")
    assert code == 0 and "[3/3] 'value' x 'capital'" in stderr and "100%" in stderr
    _, _, off = _run(run_inputs, tmp_path / "c", "--progress", "--quiet")
    assert off == ""


def test_a_piped_run_has_no_bar(run_inputs, tmp_path):  # noqa: F811
    completed = subprocess.run(
        [sys.executable, "-m", "pyale", "run", "--data", str(run_inputs / "grunfeld.csv"), "--model",
         str(run_inputs / "pipeline.pkl"), "--features", "value", "--out", str(tmp_path)],
        capture_output=True, text=True, stdin=subprocess.DEVNULL, env=child_env(), timeout=300,
    )
    assert completed.returncode == 0, completed.stderr
    assert "%|" not in completed.stderr and "pyale: computed 1 effect(s)" in completed.stderr


def test_help_documents_the_options():
    code, stdout, _ = run_main(["run", "--help"])
    assert code == 0
    for option in ("--quiet", "--print-tables", "--progress", "--categorical", "--dtype", "--bootstrap",
                   "--ci-level", "--random-state", "--weights", "effects.html", "Booster"):
        assert option in stdout, option
    code, stdout, _ = run_main(["validate", "--help"])
    assert code == 0 and "--categorical" in stdout and "--dtype" in stdout and "--quiet" in stdout


# ---------------------------------------------------------------- bands, weights, statistics


def test_bootstrap_weights_and_statistics_equal_the_library(run_inputs, grunfeld, tmp_path):  # noqa: F811
    out = tmp_path / "out"
    code, stdout, stderr = _run(run_inputs, out, "--bootstrap", "30", "--random-state", "3", "--ci-level", "0.9",
                                "--weights", "year")
    assert code == 0, stderr
    data = read_csv(run_inputs / "grunfeld.csv")
    model = pickle.loads((run_inputs / "pipeline.pkl").read_bytes())
    X = data[["value", "capital", "firm"]]
    expected = pyale.ale(model, X, ["value", "firm", ("value", "capital")], n_intervals=10,
                         sample_weight=data["year"], n_bootstrap=30, random_state=3, ci_level=0.9)
    manifest = json.loads((out / "manifest.json").read_text())
    assert (manifest["bootstrap"], manifest["ci_level"], manifest["random_state"], manifest["weights"]) == (
        30, 0.9, 3, "year")
    assert manifest["page"] == "effects.html" and manifest["summary"] == "summary.md"
    for entry, result in zip(manifest["effects"], expected):
        table = read_csv(out / entry["table"])
        frame = result.to_frame()
        assert list(table.columns) == list(frame.columns)
        assert list(table.columns)[-2:] == ["ci_low", "ci_high"]
        for column in ("ale", "heterogeneity", "ci_low", "ci_high"):
            assert_array_equal(table[column].to_numpy(float), frame[column].to_numpy(float))
        stats = read_csv(out / entry["statistics"])
        assert list(stats.columns) == ["statistic", "estimate", "ci_low", "ci_high"]
        assert_array_equal(stats[["estimate", "ci_low", "ci_high"]].to_numpy(), result.statistics.to_numpy())
        assert_png(out / entry["plot"])
    assert "90% band up to" in stdout and "ALED" in stdout
    summary = (out / "summary.md").read_text()
    assert "30 replicates" in summary and "## Statistics" in summary and "| aled |" in summary
    assert "weights: column year" in summary


def test_ale_package_conventions_with_levels_in_either_place_of_a_pair(run_inputs, tmp_path):  # noqa: F811
    out = tmp_path / "out"
    code, _, stderr = _run(run_inputs, out, "--features", "value", "firm", "value,firm", "firm,value",
                           "--conventions", "ale", "--bootstrap", "8", "--random-state", "2")
    assert code == 0, stderr
    data = read_csv(run_inputs / "grunfeld.csv")
    model = pickle.loads((run_inputs / "pipeline.pkl").read_bytes())
    expected = pyale.ale(model, data[["value", "capital", "firm"]], ["value", "firm", ("value", "firm"),
                                                                      ("firm", "value")],
                         conventions="ale", n_intervals=10, n_bootstrap=8, random_state=2)
    manifest = json.loads((out / "manifest.json").read_text())
    assert [entry["kind"] for entry in manifest["effects"]] == [r.kind for r in expected]
    for entry, result in zip(manifest["effects"], expected):
        assert_array_equal(read_csv(out / entry["table"])["ale"].to_numpy(float), result.to_frame()["ale"].to_numpy(float))
        assert_png(out / entry["plot"])


def test_a_bootstrap_without_a_seed_records_the_seed_it_drew(run_inputs, tmp_path):  # noqa: F811
    first, again = tmp_path / "first", tmp_path / "again"
    code, _, stderr = _run(run_inputs, first, "--bootstrap", "10")
    assert code == 0, stderr
    seed = json.loads((first / "manifest.json").read_text())["random_state"]
    assert isinstance(seed, int)
    code, _, stderr = _run(run_inputs, again, "--bootstrap", "10", "--random-state", str(seed))
    assert code == 0, stderr
    for entry in json.loads((first / "manifest.json").read_text())["effects"]:
        assert (first / entry["table"]).read_bytes() == (again / entry["table"]).read_bytes()


def test_the_weights_column_is_not_a_model_input(tmp_path):
    data = pd.DataFrame({"x": np.linspace(0, 1, 40), "z": np.cos(np.arange(40.0)), "w": np.arange(40) % 3})
    data.to_csv(tmp_path / "d.csv", index=False)
    (tmp_path / "m.pkl").write_bytes(pickle.dumps(ColumnsModel()))
    code, _, stderr = run_main(["run", "--data", tmp_path / "d.csv", "--model", tmp_path / "m.pkl", "--features",
                                "x", "--weights", "w", "--out", tmp_path / "out", "--intervals", "4"])
    assert code == 0, stderr
    assert "model inputs x, z" in (tmp_path / "out" / "summary.md").read_text()
    expected = pyale.ale(ColumnsModel(), data[["x", "z"]], "x", n_intervals=4, sample_weight=data["w"])
    assert_array_equal(read_csv(tmp_path / "out" / "ale_x.csv")["ale"].to_numpy(), expected.effects[:, 0])


def test_a_classifier_without_probabilities_is_explained_by_its_decision_function(tmp_path):
    pytest.importorskip("sklearn")
    from sklearn.svm import SVC

    rng = np.random.default_rng(6)
    data = pd.DataFrame({"x": rng.normal(size=120), "z": rng.normal(size=120)})
    model = SVC().fit(data, np.where(data["x"] + data["z"] > 0, "yes", "no"))
    data.to_csv(tmp_path / "d.csv", index=False)
    (tmp_path / "m.pkl").write_bytes(pickle.dumps(model))
    for method in ("auto", "decision_function"):
        out = tmp_path / method
        code, _, stderr = run_main(["run", "--data", tmp_path / "d.csv", "--model", tmp_path / "m.pkl", "--features",
                                    "x", "--out", out, "--intervals", "4", "--response-method", method])
        assert code == 0, stderr
        assert json.loads((out / "manifest.json").read_text())["response_method"] == method
        expected = pyale.ale(lambda d: model.decision_function(d), data, "x", n_intervals=4)
        table = read_csv(out / "ale_x.csv")
        assert set(table["output"]) == {"yes"}  # the positive class, classes_[1]
        assert_array_equal(table["ale"].to_numpy(), expected.effects[:, 0])
    code, _, stderr = run_main(["run", "--data", tmp_path / "d.csv", "--model", tmp_path / "m.pkl", "--features",
                                "x", "--out", tmp_path / "no", "--intervals", "4", "--response", "no"])
    assert code == 0, stderr
    assert_array_equal(read_csv(tmp_path / "no" / "ale_x.csv")["ale"].to_numpy(), -expected.effects[:, 0])


class ColumnsModel:
    """Refuses any column but x and z (so a weights column handed over would show)."""

    def predict(self, frame):
        assert list(frame.columns) == ["x", "z"], list(frame.columns)
        return frame["x"].to_numpy() ** 2 + frame["z"].to_numpy()


BAD = [
    (["--weights", "nosuch"], 2, "--weights: 'nosuch' is not a column of the data"),
    (["--weights", "value"], 2, "--weights: 'value' is one of the model's input columns; weights must be a column "
                                "the model does not use."),
    (["--weights", "note"], 2, "--weights 'note': The '--weights' parameter of pyale run must be"),
    (["--weights", "neg"], 2, "--weights 'neg': The '--weights' parameter of pyale run must hold non-negative "
                              "finite numbers. Got -1.0 at position 0"),
    (["--random-state", "1"], 2, "--ci-level and --random-state apply to a bootstrap: add --bootstrap B."),
    (["--ci-level", "1.5", "--bootstrap", "5"], 2, "argument --ci-level: must be a number between 0 and 1, got '1.5'"),
    (["--bootstrap", "-1"], 2, "argument --bootstrap: must be an integer >= 0, got '-1'"),
    (["--dtype", "firm"], 2, "--dtype: 'firm' is not COLUMN=TYPE (e.g. zip=string)."),
    (["--dtype", "firm="], 2, "--dtype: 'firm=' is not COLUMN=TYPE (e.g. zip=string)."),
    (["--dtype", "=int64"], 2, "--dtype: '=int64' is not COLUMN=TYPE (e.g. zip=string)."),
    (["--dtype", "firm=nosuchtype"], 2, "--dtype: 'nosuchtype' (in 'firm=nosuchtype') is not a pandas dtype"),
    (["--dtype", "firm:nosuchtype"], 2, "--dtype: 'nosuchtype' (in 'firm:nosuchtype') is not a pandas dtype"),
    (["--dtype", "nosuch=int64"], 2, "--dtype: ['nosuch'] are not columns of the data"),
    (["--dtype", "nosuch=category"], 2, "--dtype: ['nosuch'] are not columns of the data"),
    (["--categorical", "nosuch"], 2, "--categorical: ['nosuch'] are not columns of the data"),
    (["--dtype", "firm=float64"], 2, "--dtype firm=float64: column 'firm' of "),
    (["--dtype", "value=float64", "year=int8"], 2, "--dtype year=int8: column 'year' holds values int8 cannot hold "
                                                    "exactly (e.g. [1935, 1936, 1937]); choose a wider type."),
    (["--dtype", "year=UInt8"], 2, "--dtype year=UInt8: column 'year' "),
    (["--dtype", "value=int64"], 2, "--dtype value=int64: column 'value' of "),  # fractions
    (["--dtype", "firm=Int16"], 2, "--dtype firm=Int16: column 'firm' of "),
    (["--dtype", "firm=int64", "firm:string"], 2, "--dtype: column 'firm' is given twice."),
    (["--response-method", "proba"], 2, "argument --response-method: invalid choice: 'proba'"),
    (["--response-method", "decision_function"], 1, "The 'response_method' parameter of ale must be 'auto' or a "
                                                     "method of Pipeline ('predict'). Got 'decision_function' instead."),
]


@pytest.mark.parametrize(("extra", "code", "message"), BAD, ids=[" ".join(e) for e, _, _ in BAD])
def test_bad_options_are_refused_clearly(run_inputs, tmp_path, extra, code, message):  # noqa: F811
    data = read_csv(run_inputs / "grunfeld.csv").assign(neg=-1.0, note="text")
    data.to_csv(tmp_path / "d.csv", index=False)
    actual, _, stderr = run_main(["run", "--data", tmp_path / "d.csv", "--model", run_inputs / "pipeline.pkl",
                                  "--features", "value", "--out", tmp_path / "out", *extra])
    assert actual == code, stderr
    assert message in stderr and "Traceback" not in stderr


# ---------------------------------------------------------------- column types


def test_dtype_string_keeps_leading_zeros(tmp_path):
    pd.DataFrame({"zip": ["007", "070", "700", "007"] * 5, "x": np.arange(20.0)}).to_csv(tmp_path / "d.csv",
                                                                                        index=False)
    (tmp_path / "m.pkl").write_bytes(pickle.dumps(ZipModel()))
    code, _, stderr = run_main(["run", "--data", tmp_path / "d.csv", "--model", tmp_path / "m.pkl", "--features",
                                "zip", "--dtype", "zip=string", "--categorical", "zip", "--out", tmp_path / "out"])
    assert code == 0, stderr
    table = pd.read_csv(tmp_path / "out" / "ale_zip.csv", dtype={"zip": str})
    assert sorted(table["zip"]) == ["007", "070", "700"]
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["dtypes"] == {"zip": "string"} and manifest["categorical"] == ["zip"]


class ZipModel:
    def predict(self, frame):
        assert isinstance(frame["zip"].dtype, pd.CategoricalDtype)
        return frame["x"].to_numpy() + frame["zip"].astype(str).str.count("7").to_numpy()


def test_parse_dtypes_splits_before_the_type():
    assert parse_dtypes(["a:b:int64", "c=category", "d=e=string"]) == {
        "a:b": np.dtype("int64"), "c": pd.CategoricalDtype(), "d=e": pd.StringDtype()}
    assert list(parse_dtypes(["t=timestamp[ns, tz=UTC][pyarrow]"])) == ["t"]  # a type name holding '='


def test_a_parquet_column_that_cannot_take_the_dtype_is_named(run_inputs, tmp_path):  # noqa: F811
    pytest.importorskip("pyarrow")
    read_csv(run_inputs / "grunfeld.csv").to_parquet(tmp_path / "d.parquet")
    code, _, stderr = run_main(["run", "--data", tmp_path / "d.parquet", "--model", run_inputs / "pipeline.pkl",
                                "--features", "value", "--dtype", "firm=float64", "--out", tmp_path / "out"])
    assert code == 2 and "--dtype firm=float64: column 'firm' cannot be read as float64: " in stderr
    # astype would wrap 1935 to int8 and cut 1.5 to 1 without a word: refused
    for entry, message in [("year=int8", "--dtype year=int8: column 'year' holds values int8 cannot hold exactly "
                                         "(e.g. [1935, 1936, 1937]); choose a wider type."),
                           ("value=int64", "--dtype value=int64: column 'value' holds values int64 cannot hold "
                                           "exactly (e.g. [3078.5, 4661.7, 5387.1]); choose a wider type.")]:
        code, _, stderr = run_main(["run", "--data", tmp_path / "d.parquet", "--model", run_inputs / "pipeline.pkl",
                                    "--features", "value", "--dtype", entry, "--out", tmp_path / "out"])
        assert code == 2 and message in stderr, stderr
    code, _, stderr = run_main(["run", "--data", tmp_path / "d.parquet", "--model", run_inputs / "pipeline.pkl",
                                "--features", "value", "--dtype", "year=int16", "capital=Float64", "--out",
                                tmp_path / "out"])
    assert code == 0, stderr


@pytest.fixture(scope="module")
def categorical_inputs(tmp_path_factory):
    """A CSV and a Parquet file, and lightgbm and xgboost models trained on categorical columns."""
    lgb = pytest.importorskip("lightgbm")
    xgb = pytest.importorskip("xgboost")
    folder = tmp_path_factory.mktemp("categories")
    rng = np.random.default_rng(4)
    n = 300
    region = rng.choice([3, 1, 2], n)
    kind = rng.choice(["aa", "bb"], n)
    x = rng.normal(size=n)
    y = np.where(region == 1, 0.0, np.where(region == 2, 5.0, 10.0)) + x + (kind == "bb")
    data = pd.DataFrame({"id": np.arange(n), "x": x, "region": region, "kind": kind, "y": y})
    data.to_csv(folder / "d.csv", index=False)
    data.assign(region=pd.Categorical(region), kind=pd.Categorical(kind)).to_parquet(folder / "d.parquet")
    train = data[["x", "region", "kind"]].assign(region=pd.Categorical(region, categories=[3, 2, 1]),
                                                 kind=pd.Categorical(kind))
    models = {
        "lgb_booster": lgb.train({"verbose": -1, "num_threads": 1}, lgb.Dataset(train, y), 20),
        "lgb_sklearn": lgb.LGBMRegressor(n_estimators=20, verbose=-1, n_jobs=1).fit(train, y),
        "xgb_booster": xgb.train({"max_depth": 3, "nthread": 1}, xgb.DMatrix(train, y, enable_categorical=True), 20),
    }
    for name, model in models.items():
        (folder / f"{name}.pkl").write_bytes(pickle.dumps(model))
    return folder, train, models


@pytest.mark.parametrize("name", ["lgb_booster", "lgb_sklearn", "xgb_booster"])
def test_a_model_trained_on_categories_works_from_csv_as_from_parquet(categorical_inputs, tmp_path, name):
    folder, train, models = categorical_inputs
    features = ["--features", "x", "region", "kind", "region,x", "--intervals", "6"]
    code, _, stderr = run_main(["run", "--data", folder / "d.csv", "--model", folder / f"{name}.pkl", *features,
                                "--out", tmp_path / "plain"])
    package = name.split("_")[0].replace("lgb", "lightgbm").replace("xgb", "xgboost")
    assert code == 2
    assert (f"the {package} model treats ['region', 'kind'] as categorical, but the data holds them as int64, "
            in stderr) and "declare them with --categorical region kind" in stderr
    code, _, stderr = run_main(["run", "--data", folder / "d.csv", "--model", folder / f"{name}.pkl", *features,
                                "--categorical", "region", "kind", "--out", tmp_path / "csv"])
    assert code == 0, stderr
    # Parquet keeps the string categories; integer categories come back as integers (declared again)
    code, _, stderr = run_main(["run", "--data", folder / "d.parquet", "--model", folder / f"{name}.pkl", *features,
                                "--categorical", "region", "--out", tmp_path / "parquet"])
    assert code == 0, stderr
    summary = (tmp_path / "csv" / "summary.md").read_text()
    assert "model inputs x, region, kind" in summary  # id and y left out: the model names its features
    for stem in ("ale_x", "ale_region", "ale_kind", "ale_region_x"):
        csv = (tmp_path / "csv" / f"{stem}.csv").read_text()
        assert csv == (tmp_path / "parquet" / f"{stem}.csv").read_text()
    # the training frame lists the categories as 3, 2, 1, the CSV's are sorted: the level order may come out
    # reversed (the MDS axis's sign, see PARITY.md), each level's effect is the same
    expected = pyale.ale(models[name], train, "region", n_intervals=6)
    table = read_csv(tmp_path / "csv" / "ale_region.csv")
    assert table["region"].tolist() in (list(expected.grid[0]), list(expected.grid[0])[::-1])
    by_level = dict(zip(expected.grid[0], expected.effects[:, 0]))
    assert_allclose(table["ale"].to_numpy(float), [by_level[v] for v in table["region"]], rtol=1e-12, atol=1e-12)


def test_lightgbm_categories_of_another_type_are_refused(categorical_inputs, tmp_path):
    folder, _, _ = categorical_inputs
    code, _, stderr = run_main(["run", "--data", folder / "d.csv", "--model", folder / "lgb_booster.pkl",
                                "--features", "x", "--dtype", "region:string", "--categorical", "region", "kind",
                                "--out", tmp_path / "out"])
    assert code == 2
    assert ("column 'region' holds ['2', '1', '3'] that are not among the categories the lightgbm model was "
            "trained on ([3, 2, 1]); lightgbm would read them as missing values.") in stderr
    code, _, stderr = run_main(["run", "--data", folder / "d.csv", "--model", folder / "lgb_booster.pkl",
                                "--features", "x", "--categorical", "region", "kind", "x", "--out", tmp_path / "o"])
    assert code == 2
    assert "columns ['x'] are categorical in the data but numeric for the lightgbm model" in stderr


def test_unseen_levels_are_refused_for_lightgbm(categorical_inputs):
    _, train, models = categorical_inputs
    X = train.assign(kind=pd.Categorical(train["kind"].astype(str).replace({"bb": "cc"})))
    with pytest.raises(CommandError, match=re.escape("column 'kind' holds ['cc'] that are not among the "
                                                     "categories the lightgbm model was trained on (['aa', 'bb'])")):
        check_categories(models["lgb_sklearn"], X)
    check_categories(models["lgb_sklearn"], train)  # the training frame itself passes


def test_declared_features_of_every_adapter(categorical_inputs):
    lgb = pytest.importorskip("lightgbm")
    xgb = pytest.importorskip("xgboost")
    from sklearn.linear_model import LinearRegression

    _, train, models = categorical_inputs
    assert declared_features(models["lgb_booster"]) == ["x", "region", "kind"]
    assert declared_features(models["lgb_sklearn"]) == ["x", "region", "kind"]
    assert declared_features(models["xgb_booster"]) == ["x", "region", "kind"]
    array = np.random.default_rng(0).normal(size=(50, 2))
    assert declared_features(lgb.train({"verbose": -1}, lgb.Dataset(array, array[:, 0]), 2)) is None
    assert declared_features(xgb.train({}, xgb.DMatrix(array, array[:, 0]), 2)) is None
    frame = pd.DataFrame(array, columns=["b", "a"])
    assert declared_features(LinearRegression().fit(frame, array[:, 0])) == ["b", "a"]
    assert declared_features(LinearRegression().fit(array, array[:, 0])) is None
    assert declared_features(lambda d: d) is None


def test_lightgbm_inputs_whose_names_hold_spaces_are_found_in_the_data():
    lgb = pytest.importorskip("lightgbm")
    rng = np.random.default_rng(5)
    n = 200
    train = pd.DataFrame({"unit price": rng.normal(size=n),
                          "store type": pd.Categorical(rng.choice(["aa", "bb"], n))})
    y = train["unit price"].to_numpy() + (train["store type"] == "bb")
    model = lgb.LGBMRegressor(n_estimators=5, verbose=-1, n_jobs=1).fit(train, y)
    assert declared_features(model) == ["unit_price", "store_type"]  # lightgbm's names
    data = train.assign(y=y)[["y", "store type", "unit price"]]
    X = _model_inputs(data, model, [])
    assert list(X.columns) == ["unit price", "store type"]  # the data's own names, in the model's order
    check_categories(model, X)
    plain = X.assign(**{"store type": X["store type"].astype(str)})
    with pytest.raises(CommandError, match=re.escape("the lightgbm model treats ['store type'] as categorical, "
                                                     "but the data holds them as")):
        check_categories(model, plain)


# ---------------------------------------------------------------- the page and the pictures


def test_the_page_holds_every_effect_and_needs_nothing_else(run_inputs, tmp_path):  # noqa: F811
    out = tmp_path / "out"
    code, _, _ = _run(run_inputs, out, "--bootstrap", "10", "--random-state", "0")
    assert code == 0
    page = (out / "effects.html").read_text()
    manifest = json.loads((out / "manifest.json").read_text())
    assert page.count("data:image/png;base64,") == len(manifest["effects"]) == 3
    for entry in manifest["effects"]:
        assert f"href='{entry['table']}'" in page and f"href='{entry['statistics']}'" in page
    assert "http" not in page.replace("http-equiv", "") and "<script" not in page
    assert page.count("<th>ci_low</th>") == 3 and ">aled<" in page


def test_a_multiclass_pair_png_names_every_class(tmp_path):
    from pyale._cli.run import _effect_title, draw_effect

    rng = np.random.default_rng(1)
    X = pd.DataFrame({"a": rng.normal(size=150), "b": rng.normal(size=150)})

    def three(d):
        scores = np.column_stack([d["a"], d["b"], d["a"] * d["b"]])
        e = np.exp(scores - scores.max(axis=1, keepdims=True))
        return pd.DataFrame(e / e.sum(axis=1, keepdims=True), columns=["low", "mid", "high"])

    result = pyale.ale(three, X, ("a", "b"), n_intervals=5)
    figure = draw_effect(result, X, _effect_title(result, "aleplot"))
    assert figure._suptitle.get_text() == ("ALE of 'a' x 'b' for outputs low, mid, high (numeric x numeric, "
                                           "aleplot conventions)")
    assert [ax.get_title() for ax in figure.axes if ax.get_title()] == ["output: low", "output: mid", "output: high"]
    figure.savefig(tmp_path / "pair.png")
    assert_png(tmp_path / "pair.png")


def test_names_with_dollars_run_end_to_end(tmp_path):
    data = pd.DataFrame({"$\\q$": np.linspace(0, 1, 30), "g$": pd.Series(["$a", "b$"] * 15)})
    data.to_csv(tmp_path / "d.csv", index=False)
    (tmp_path / "m.pkl").write_bytes(pickle.dumps(DollarModel()))
    code, stdout, stderr = run_main(["run", "--data", tmp_path / "d.csv", "--model", tmp_path / "m.pkl",
                                     "--features", "$\\q$", "g$", "g$,$\\q$", "--out", tmp_path / "out",
                                     "--intervals", "3"])
    assert code == 0, stderr
    assert len(list((tmp_path / "out").glob("*.png"))) == 3


class DollarModel:
    def predict(self, frame):
        return frame["$\\q$"].to_numpy() * (1.0 + (frame["g$"] == "b$").to_numpy())


# ---------------------------------------------------------------- validate's own model calls


class Reordering:
    """Returns a Series in reversed row order, indexed by newdata's labels (a segment-wise model)."""

    def predict(self, frame):
        values = frame["x"].to_numpy() * 2.0
        return pd.Series(values, index=frame.index).iloc[::-1]


def test_validate_calls_the_model_through_model_caller():
    frame = pd.DataFrame({"x": np.arange(5.0)}, index=[10, 11, 12, 13, 14])
    checked = _validate.checked_model(Reordering())
    for predict in (_validate.r_callback(checked), _validate.pyale_side(checked)):
        assert_array_equal(predict(frame), np.arange(5.0) * 2)  # read by label, not by position
    before = frame.copy()
    _validate.checked_model(Editing())(frame, "a probe")  # the probe hands the model a frame of its own
    pd.testing.assert_frame_equal(frame, before)
    with pytest.raises(pyale.PredictionError, match=re.escape("non-finite prediction(s)")):
        _validate.pyale_side(_validate.checked_model(NaNModel()))(frame)


class Editing:
    def predict(self, frame):
        frame["x"] = 0.0
        return np.ones(len(frame))


class NaNModel:
    def predict(self, frame):
        return np.full(len(frame), np.nan)


def test_validate_refuses_a_model_that_returns_nan_before_r_runs(run_inputs, tmp_path, monkeypatch):  # noqa: F811
    monkeypatch.setattr(_validate, "r_problem", lambda conventions: None)
    monkeypatch.setattr(_validate, "RSide", lambda *args, **kwargs: None)
    (tmp_path / "m.pkl").write_bytes(pickle.dumps(NaNModel()))
    code, _, stderr = run_main(["validate", "--data", run_inputs / "grunfeld.csv", "--model", tmp_path / "m.pkl",
                                "--features", "value", "--drop", "invest", "year", "--out", tmp_path / "out"])
    assert code == 1
    assert ("the model cannot predict on the data's columns ['value', 'capital', 'firm']: NaNModel.predict returned "
            "2 non-finite prediction(s)") in stderr



def test_intervals_auto_is_pyale_ale_rule(run_inputs, tmp_path):  # noqa: F811
    """``run --intervals auto`` gives pyale.ale(n_intervals="auto")'s effects; validate keeps R's K."""
    out = tmp_path / "out"
    code, _, stderr = run_main(["run", "--data", run_inputs / "grunfeld.csv", "--model", run_inputs / "pipeline.pkl",
                                "--features", "value", "value,capital", "--out", out, "--intervals", "auto"])
    assert code == 0, stderr
    data = read_csv(run_inputs / "grunfeld.csv")
    model = pickle.loads((run_inputs / "pipeline.pkl").read_bytes())
    expected = pyale.ale(model, data[["value", "capital", "firm"]], ["value", ("value", "capital")],
                         n_intervals="auto")
    assert len(expected[0].grid[0]) - 1 == 220 // 20  # 220 rows: 11 intervals of about 20 rows
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["intervals"].startswith("auto")
    for entry, result in zip(manifest["effects"], expected):
        table = read_csv(out / entry["table"])
        assert_allclose(table["ale"].to_numpy(), result.to_frame()["ale"].to_numpy(), rtol=1e-12, atol=0)
    code, _, stderr = run_main(["validate", "--data", run_inputs / "grunfeld.csv", "--model",
                                run_inputs / "pipeline.pkl", "--features", "value", "--out", tmp_path / "v",
                                "--intervals", "auto"])
    assert code == 2 and "argument --intervals: must be an integer >= 1, got 'auto'" in stderr


def test_method_and_binning_options_equal_the_library(tmp_path):
    """--method gradient (a pickled torch network: derivatives by autograd) and --binning dp."""
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(2, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1)).double().eval()
    rng = np.random.default_rng(0)
    data = pd.DataFrame({"x": rng.uniform(-1, 1, 300), "z": rng.uniform(-1, 1, 300)})
    data.to_csv(tmp_path / "d.csv", index=False)
    (tmp_path / "net.pkl").write_bytes(pickle.dumps(net))
    out = tmp_path / "out"
    code, _, stderr = run_main(["run", "--data", tmp_path / "d.csv", "--model", tmp_path / "net.pkl", "--features",
                                "x", "--method", "gradient", "--binning", "dp", "--out", out, "-q"])
    assert code == 0, stderr
    X = read_csv(tmp_path / "d.csv")
    expected = pyale.ale(net, X, "x", method="gradient", binning="dp")
    written = read_csv(out / "ale_x.csv")
    assert_allclose(written["x"].to_numpy(), expected.grid[0], rtol=1e-15)
    assert_allclose(written["ale"].to_numpy(), expected.effects[:, 0], rtol=1e-12, atol=1e-15)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["method"] == "gradient" and manifest["binning"] == "dp"
    code, _, stderr = run_main(["run", "--data", tmp_path / "d.csv", "--model", tmp_path / "net.pkl", "--features",
                                "x", "--method", "newton", "--out", tmp_path / "bad"])
    assert code != 0 and "--method" in stderr


@pytest.mark.parametrize("conventions, intervals, text", [
    ("aleplot", None, "40 (default)"), ("iml", None, "20 (default)"), ("ale", None, "9 (default)"),
    ("ale", 7, "7"),
])
def test_the_page_states_the_intervals_each_convention_uses(conventions, intervals, text):
    """The run's page says how many intervals were asked for: the convention's own default when none was given
    (ale's is 9: the page used to say 20 for every convention but ALEPlot's)."""
    import argparse

    from pyale._cli.page import intervals_text

    assert intervals_text(argparse.Namespace(conventions=conventions, intervals=intervals)) == text
