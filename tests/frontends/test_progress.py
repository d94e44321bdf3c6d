"""Progress bars (pyale/_frontends/progress.py): when they show, what they count, and that they change nothing."""

from __future__ import annotations

import io
import re
import subprocess
import sys
import types

import numpy as np
import pandas as pd
import pytest

import pyale
from pyale._frontends import progress as _progress
from pyale._core.map.calls import ModelCaller
from subprocess_env import child_env


class FakeTTY(io.StringIO):
    """A text stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


class Recorder:
    """Stands in for a tqdm bar: records the total, the updates and the descriptions."""

    made: list = []

    def __init__(self, progress, *, total, unit, desc, stream=None):
        self.total, self.unit, self.desc = total, unit, desc
        self.n, self.steps, self.descriptions, self.closed = 0, [], [], False
        Recorder.made.append(self)

    def update(self, n=1):
        self.n += n
        self.steps.append(n)

    def set_description(self, desc=None, refresh=True):
        self.descriptions.append(desc)

    def close(self):
        self.closed = True


@pytest.fixture
def recorder(monkeypatch):
    Recorder.made = []
    monkeypatch.setattr(_progress, "open_bar", Recorder)
    monkeypatch.setattr("pyale._frontends.ale.model_bootstrap.open_bar", Recorder)
    return Recorder.made


class Counting:
    """A model that counts the rows it is asked about."""

    def __init__(self):
        self.rows = 0

    def __call__(self, frame):
        self.rows += frame.shape[0]
        return frame["x"].to_numpy() * 2.0 + (frame["g"] == "b").to_numpy() * frame["z"].to_numpy()


def data(n=60, seed=0):
    rng = np.random.default_rng(seed)
    return pd.DataFrame({
        "x": rng.normal(size=n),
        "g": pd.Categorical(rng.choice(["a", "b", "c"], size=n, p=[0.5, 0.3, 0.2])),
        "z": rng.normal(size=n),
    })


# ---------------------------------------------------------------- the argument

BAD = [
    ("yes", "The 'progress' parameter of ale must be None (automatic), True or False. Got 'yes' instead."),
    (1, "The 'progress' parameter of ale must be None (automatic), True or False. Got 1 instead."),
    (sys.stderr, "The 'progress' parameter of ale must be None (automatic), True or False. Got "),
]


@pytest.mark.parametrize(("value", "message"), BAD)
def test_progress_must_be_none_or_a_bool(value, message):
    with pytest.raises(TypeError, match=re.escape(message)):
        pyale.ale(Counting(), data(), "x", progress=value)


@pytest.mark.parametrize("caller", ["model_bootstrap", "FeatureEffects"])
def test_every_front_end_checks_progress(caller):
    X = data()
    with pytest.raises(TypeError, match=re.escape(f"The 'progress' parameter of {caller} must be None")):
        if caller == "model_bootstrap":
            pyale.model_bootstrap(lambda rows, y: Counting(), X, np.zeros(len(X)), "x", n_bootstrap=2,
                                  progress="on")
        else:
            pyale.FeatureEffects(pyale.Predictor(predict_function=Counting(), data=X), progress="on")


def test_numpy_bool_is_accepted():
    assert _progress.check_progress(np.bool_(True), caller="ale") is True


# ---------------------------------------------------------------- when a bar is shown


def test_auto_is_off_under_pytest_even_on_a_terminal(monkeypatch):
    monkeypatch.setattr(sys, "stderr", FakeTTY())
    assert _progress.shown(None) is False


def test_auto_follows_the_terminal_outside_pytest(monkeypatch):
    monkeypatch.delenv("PYTEST_CURRENT_TEST", raising=False)
    monkeypatch.setattr(sys, "stderr", FakeTTY())
    assert _progress.shown(None) is True
    monkeypatch.setattr(sys, "stderr", io.StringIO())  # piped or redirected
    assert _progress.shown(None) is False
    assert _progress.shown(None, FakeTTY()) is True


def test_requested_and_refused_bars_ignore_the_terminal(monkeypatch):
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert _progress.shown(True) is True
    monkeypatch.setattr(sys, "stderr", FakeTTY())
    monkeypatch.delenv("PYTEST_CURRENT_TEST", raising=False)
    assert _progress.shown(False) is False


def _fake_ipython(monkeypatch, config: dict):
    shell = types.SimpleNamespace(config=config)
    module = types.ModuleType("IPython")
    module.get_ipython = lambda: shell
    monkeypatch.setitem(sys.modules, "IPython", module)


def test_a_notebook_is_detected_without_a_terminal(monkeypatch):
    monkeypatch.delenv("PYTEST_CURRENT_TEST", raising=False)
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    _fake_ipython(monkeypatch, {"IPKernelApp": {}})
    assert _progress.in_notebook() and _progress.shown(None)
    _fake_ipython(monkeypatch, {"TerminalInteractiveShell": {}})  # IPython in a terminal: not a notebook
    assert not _progress.in_notebook() and not _progress.shown(None)


def test_a_notebook_without_ipywidgets_gets_the_text_bar(monkeypatch):
    _fake_ipython(monkeypatch, {"IPKernelApp": {}})
    monkeypatch.setitem(sys.modules, "ipywidgets", None)
    stream = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stream)
    bar = _progress.open_bar(True, total=10, unit="row", desc="x")
    bar.update(10)
    bar.close()
    assert "10/10" in stream.getvalue()


def test_an_automatic_bar_waits_before_it_appears(monkeypatch):
    monkeypatch.delenv("PYTEST_CURRENT_TEST", raising=False)
    stream = FakeTTY()
    monkeypatch.setattr(sys, "stderr", stream)
    pyale.ale(Counting(), data(), "x")  # a short job: nothing within AUTO_DELAY
    assert stream.getvalue() == ""
    monkeypatch.setattr(_progress, "AUTO_DELAY", 0.0)
    pyale.ale(Counting(), data(), "x")
    assert "100%" in stream.getvalue() and "[1/1] 'x'" in stream.getvalue()


def test_a_dask_frame_gets_no_bar_of_its_schema(recorder, capsys):
    dd = pytest.importorskip("dask.dataframe")
    frame = data(n=90).assign(g=lambda d: d["g"].astype(str))
    result = pyale.ale(lambda d: d["x"] * 2.0 + d["z"], dd.from_pandas(frame, npartitions=3), "x", progress=True)
    assert recorder == [] and capsys.readouterr().err == ""  # its rows are on the workers, not in the schema
    assert result.effects.shape[0] == len(result.grid[0])


def test_nothing_is_printed_by_default(capsys):
    pyale.ale(Counting(), data(), ["x", "g", ("x", "z")])
    pyale.FeatureEffects(pyale.Predictor(predict_function=Counting(), data=data()))
    captured = capsys.readouterr()
    assert captured.err == "" and captured.out == ""


def test_without_tqdm_a_requested_bar_is_an_import_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "tqdm.std", None)
    with pytest.raises(ImportError, match=re.escape("progress=True needs tqdm: pip install \"pyale-r[progress]\" (or pip install tqdm).")):
        pyale.ale(Counting(), data(), "x", progress=True)
    monkeypatch.delenv("PYTEST_CURRENT_TEST", raising=False)
    monkeypatch.setattr(sys, "stderr", FakeTTY())
    assert isinstance(_progress.open_bar(None, total=1, unit="row", desc=""), _progress._NoBar)


def test_import_pyale_does_not_import_tqdm():
    completed = subprocess.run(
        [sys.executable, "-c", "import sys, pyale; print('tqdm' in sys.modules)"],
        capture_output=True, text=True, env=child_env(), timeout=120, check=True,
    )
    assert completed.stdout.strip() == "False"


# ---------------------------------------------------------------- what a bar counts


def test_the_model_caller_reports_each_call():
    calls = []
    caller = ModelCaller(lambda d: d["x"].to_numpy(), name="f", max_rows=4, on_rows=lambda n, p: calls.append((n, p)))
    caller(data(10), "testing")
    assert calls == [(4, "testing"), (4, "testing"), (2, "testing")]


FEATURES = ["x", "g", ("x", "z"), ("g", "z"), "x"]


@pytest.mark.parametrize("max_rows", [None, 7])
def test_totals_equal_the_rows_the_model_is_asked_about(recorder, max_rows):
    X = data(83)
    model = Counting()
    pyale.ale(model, X, FEATURES, n_intervals=5, progress=True, max_rows_per_call=max_rows)
    (bar,) = recorder
    assert bar.total == model.rows == bar.n and bar.closed
    assert bar.unit == "row"
    assert [d for d in bar.descriptions] == ["[1/5] 'x'", "[2/5] 'g'", "[3/5] 'x' x 'z'", "[4/5] 'g' x 'z'",
                                             "[5/5] 'x'"]


def test_each_effect_counts_its_own_rows():
    from pyale._frontends.ale.api import _Job
    from pyale._core.reduce.estimate import estimate
    from pyale._engines.pandas import PandasEngine

    X = data(83)
    rows_per_level = X["g"].value_counts()

    job = _Job(X, ["x", "g", ("x", "z"), ("g", "z")], caller_name="ale", conventions="aleplot", n_intervals=5,
               grid=None, level_order=None, max_rows_per_call=None, feature_names=None, sample_weight=None,
               ci_level=0.95, y=None)
    plans = [plan for _, _, plan in job.planned]
    counts = []
    for plan in plans:
        model = Counting()
        caller = ModelCaller(model, name="f", single_output=False)
        estimate(PandasEngine(job.X), [plan], caller)
        counts.append(model.rows)
    expected = [_progress.expected_rows(plan, job.X) for plan in plans]
    assert expected == counts
    order = [job.planned[1][2].axes[0].levels[i] for i in job.planned[1][2].axes[0].order]
    n = X.shape[0]
    assert expected[0] == 2 * n and expected[2] == 4 * n
    assert expected[1] == 3 * n - rows_per_level[order[0]] - rows_per_level[order[-1]]


def test_a_low_estimate_stops_at_the_effect_and_a_high_one_is_topped_up():
    bar = Recorder(True, total=30, unit="row", desc="")
    tracker = _progress.EffectRows(bar, ["a", "b"], [10, 20])
    tracker.start(0)
    tracker(15, "")  # more than expected: counted up to 10
    assert bar.n == 10
    tracker.finish(0)
    tracker.start(1)
    tracker(5, "")
    tracker.finish(1)  # fewer than expected: topped up
    assert bar.n == 30 and bar.steps == [10, 5, 15]


def test_the_bar_is_closed_and_the_hook_removed_when_the_model_fails(recorder):
    def failing(frame):
        raise RuntimeError("boom")

    with pytest.raises(pyale.PredictionError):
        pyale.ale(failing, data(), "x", progress=True)
    assert recorder[0].closed


def test_statistics_after_the_run_do_not_touch_the_bar(recorder):
    result = pyale.ale(Counting(), data(), "x", progress=True)
    n = recorder[0].n
    result.statistics  # one more model call on X, after the bar closed
    assert recorder[0].n == n


def test_results_are_the_same_with_and_without_a_bar(recorder):
    X = data(120)
    with_bar = pyale.ale(Counting(), X, FEATURES, n_intervals=6, progress=True, n_bootstrap=20, random_state=1)
    without = pyale.ale(Counting(), X, FEATURES, n_intervals=6, progress=False, n_bootstrap=20, random_state=1)
    assert with_bar.equals(without)


def test_a_requested_bar_writes_to_stderr(capsys):
    X = data(20)
    results = pyale.ale(Counting(), X, ["x", "g"], n_intervals=4, progress=True)
    err = capsys.readouterr().err
    assert "[2/2] 'g'" in err and "100%" in err
    # 2 per row for x; for g every row as observed, one level up (not the top level's rows) and
    # one level down (not the bottom level's rows)
    order = results[1].level_order
    counts = X["g"].value_counts()
    total = 2 * 20 + 3 * 20 - counts[order[0]] - counts[order[-1]]
    assert f"{total}/{total} " in err


def test_feature_effects_bar_ends_at_its_total(recorder):
    X = data(50)
    model = Counting()
    pyale.FeatureEffects(pyale.Predictor(predict_function=model, data=X), method="pdp", grid_size=5, progress=True)
    (bar,) = recorder
    # PDP: every row at every grid point (5 for numeric features, 3 levels for g)
    assert bar.total == 50 * (5 + 3 + 5) == model.rows == bar.n
    assert bar.descriptions == ["[1/3] 'x'", "[2/3] 'g'", "[3/3] 'z'"]


def test_feature_effects_ale_bar_ends_at_its_total(recorder):
    pyale.FeatureEffects(pyale.Predictor(predict_function=Counting(), data=data(50)), progress=True)
    (bar,) = recorder
    assert bar.n == bar.total == 50 * (2 + 3 + 2)


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_model_bootstrap_counts_fits(recorder, n_jobs):
    from sklearn.linear_model import LinearRegression

    X = data(80)[["x", "z"]]
    y = X["x"] * 3 + X["z"]
    import joblib

    with joblib.parallel_backend("threading"):  # worker processes would not count here anyway
        pyale.model_bootstrap(lambda rows, t: LinearRegression().fit(rows, t), X, y, "x", n_bootstrap=4,
                              random_state=0, n_jobs=n_jobs, progress=True)
    bars = [b for b in recorder if b.unit == "fit"]
    assert len(bars) == 1 and bars[0].total == 5 and bars[0].n == 5 and bars[0].closed


def test_display_from_estimator_passes_progress_on(capsys):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pyale.ALEDisplay.from_estimator(Counting(), data(), ["x", "g"], n_intervals=4, progress=True)
    plt.close("all")
    assert "[2/2] 'g'" in capsys.readouterr().err
