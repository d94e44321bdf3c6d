"""The caller's data is never changed, whatever the model does to the frames it is given.

A table of models that edit their ``newdata`` in place (after predicting, so
that their answer is the plain model's) runs through every front-end, on a
mixed frame (shared columns, ``pyale._core.map.shifted``'s slow path) and an
all-numeric one (the private-copy fast path).  After each run X must hold the
same values, dtypes, index, column labels, categories and array flags as
before, and the result must equal the plain model's exactly: an edit that
leaked into a frame pyale reuses would change a later prediction.

pandas 3 protects shared memory by copy-on-write; pandas 2.x (the supported
floor) does not, so pyale gives the model a deep copy there
(``pyale._core.map.calls.model_frame``).  Both stacks run this file.
"""

from __future__ import annotations

import contextlib
import functools
import warnings

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_array_equal
from pandas.testing import assert_frame_equal

import pyale
from pyale import ALEPlot, FeatureEffect, FeatureEffects, PDPlot, PredictionError, Predictor
from pyale._core.map.calls import copy_on_write
from snapshots import Snapshot

N = 40
PANDAS_3 = int(pd.__version__.split(".")[0]) >= 3


def make_X(kind: str) -> pd.DataFrame:
    rng = np.random.default_rng(11)
    columns = {
        "x": rng.normal(size=N),
        "z": rng.uniform(-1, 2, N),
        "k": rng.integers(0, 6, N),
    }
    if kind == "mixed":
        columns["g"] = pd.Categorical(rng.choice(list("abc"), N), categories=list("abcd"))
        columns["s"] = np.array(rng.choice(["u", "v", "w"], N), dtype=object)
    X = pd.DataFrame(columns, index=pd.Index(500 + np.random.default_rng(12).permutation(N)))
    return X


def base(d: pd.DataFrame) -> np.ndarray:
    """The plain model (reads columns by name; never edits)."""
    y = d["x"].to_numpy(dtype=float) * d["z"].to_numpy(dtype=float) + 0.25 * d["k"].to_numpy(dtype=float) ** 2
    if "g" in d.columns:
        y = y + (d["g"].astype(str) == "b").to_numpy() * d["z"].to_numpy(dtype=float)
        y = y + (d["s"].astype(str) == "v").to_numpy() * 1.5
    return y


REFUSED_EDITS: list = []


def _quietly(edit):
    """Run an edit that may warn (chained assignment) or be refused (a read-only array).

    Only copy-on-write refuses writes (as it does outside pyale); without it the
    model's frame is its own and every edit must go through (checked by the tests).
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            edit()
        except ValueError as exc:  # "assignment destination is read-only" and kin (copy-on-write)
            assert "read-only" in str(exc) or "read only" in str(exc), exc
            REFUSED_EDITS.append(str(exc))


def _move_x_last(d):
    column = d.pop("x")
    d.insert(d.shape[1], "x", column)


def _write_values(d):
    d.values[:] = 0  # a view of the only block on pandas 2.x; read-only under copy-on-write


def _write_index(d):
    d.index.values[0] = -1  # writable (and shared by deep copies) on pandas 2.x


def _write_column_labels(d):
    d.columns.values[0] = "renamed"


def _write_categories(d):
    if "g" in d.columns:
        d["g"].cat.categories.values[0] = "zz"


def _chained(d):
    d["x"][0:5] = 99.0  # chained assignment: writes through on pandas 2.x, does nothing on 3


def _set_categorical(d):
    if "g" in d.columns:
        d.loc[:, "g"] = "a"
        d.loc[:, "s"] = "zz"


def _astype(d):
    d["k"] = d["k"].astype("float32")
    if "g" in d.columns:
        d["g"] = d["g"].astype(str)


EDITS = {
    "x *= 2": lambda d: d.__setitem__("x", d["x"].__imul__(2)),
    "loc[:, x] =": lambda d: d.loc.__setitem__((slice(None), "x"), 0.0),
    "iloc[0, 0] =": lambda d: d.iloc.__setitem__((0, 0), 1e9),
    "loc[mask, k] =": lambda d: d.loc.__setitem__((d["x"] > 0, "k"), 100),
    "drop inplace": lambda d: d.drop(columns=["z"], inplace=True),
    "index =": lambda d: setattr(d, "index", pd.RangeIndex(10**6, 10**6 + d.shape[0])),
    "sort_values inplace": lambda d: d.sort_values("z", inplace=True),
    "reset_index inplace": lambda d: d.reset_index(drop=True, inplace=True),
    "rename inplace": lambda d: d.rename(columns={"x": "X"}, inplace=True),
    "columns reordered": _move_x_last,
    "astype": _astype,
    "categorical set": _set_categorical,
    "chained assignment": _chained,
    "values written": _write_values,
    "index values written": _write_index,
    "column labels written": _write_column_labels,
    "categories written": _write_categories,
    "Series clip inplace": lambda d: d["x"].clip(lower=0, inplace=True),
}


def editing(edit):
    def model(d):
        y = base(d)
        _quietly(lambda: edit(d))
        return y

    return model


def keeping_and_editing_later():
    """Keeps each frame and edits it during the next call, after pyale built the next one."""
    kept = []

    def model(d):
        if kept:
            _quietly(lambda: kept[-1].__setitem__("x", kept[-1]["x"].__imul__(3)))
            _quietly(lambda: kept[-1].loc.__setitem__((slice(None), "z"), -5.0))
        kept.append(d)
        return base(d)

    return model


def rescaling_first(d):
    """Edits before predicting and undoes the edit in its formula (x * 2 / 2 is exact)."""
    d["x"] *= 2
    return base(d.assign(x=d["x"] / 2))


FRONT_ENDS = {
    "ALEPlot x": lambda X, f: ALEPlot(X, None, lambda m, d: f(d), J="x", K=5, plot=False).to_frame(),
    "ALEPlot x chunks": lambda X, f: ALEPlot(X, None, lambda m, d: f(d), J="x", K=5, plot=False,
                                            max_rows_per_call=9).to_frame(),
    "ALEPlot g": lambda X, f: ALEPlot(X, None, lambda m, d: f(d), J="g", plot=False).to_frame(),
    "ALEPlot s": lambda X, f: ALEPlot(X, None, lambda m, d: f(d), J="s", plot=False).to_frame(),
    "ALEPlot x,z": lambda X, f: ALEPlot(X, None, lambda m, d: f(d), J=("x", "z"), K=3, plot=False).to_frame(),
    "ALEPlot g,x": lambda X, f: ALEPlot(X, None, lambda m, d: f(d), J=("g", "x"), K=3, plot=False).to_frame(),
    "PDPlot x": lambda X, f: PDPlot(X, None, lambda m, d: f(d), J="x", K=4, plot=False).to_frame(),
    "PDPlot g": lambda X, f: PDPlot(X, None, lambda m, d: f(d), J="g", K=4, plot=False).to_frame(),
    "PDPlot x,z": lambda X, f: PDPlot(X, None, lambda m, d: f(d), J=("x", "z"), K=3, plot=False).to_frame(),
    "FeatureEffect ale x": lambda X, f: FeatureEffect(Predictor(predict_function=f, data=X), "x", grid_size=5).results,
    "FeatureEffect ale g": lambda X, f: FeatureEffect(Predictor(predict_function=f, data=X), "g").results,
    "FeatureEffect ale x,k": lambda X, f: FeatureEffect(Predictor(predict_function=f, data=X), ["x", "k"],
                                                       grid_size=3).results,
    "FeatureEffect pdp x": lambda X, f: FeatureEffect(Predictor(predict_function=f, data=X), "x", method="pdp",
                                                     grid_size=4).results,
    "FeatureEffect ice z batches": lambda X, f: FeatureEffect(Predictor(predict_function=f, data=X, batch_size=30),
                                                             "z", method="ice", grid_size=4).results,
    "FeatureEffect pdp+ice k": lambda X, f: FeatureEffect(Predictor(predict_function=f, data=X), "k",
                                                         method="pdp+ice", grid_size=3).results,
    "FeatureEffects": lambda X, f: pd.concat(FeatureEffects(Predictor(predict_function=f, data=X),
                                                            features=["x", "k"], grid_size=4).results),
    "Predictor.predict": lambda X, f: Predictor(predict_function=f, data=X).predict(X),
    "ale x": lambda X, f: pyale.ale(f, X, "x", n_intervals=5).to_frame(),
    "ale g": lambda X, f: pyale.ale(f, X, "g").to_frame(),
    "ale x,z": lambda X, f: pyale.ale(f, X, ("x", "z"), n_intervals=3).to_frame(),
}
NEEDS_MIXED = ("ALEPlot g", "ALEPlot s", "ALEPlot g,x", "PDPlot g", "FeatureEffect ale g", "ale g")
CASES = [(kind, name) for kind in ("mixed", "numeric") for name in FRONT_ENDS
         if kind == "mixed" or name not in NEEDS_MIXED]


@functools.lru_cache(maxsize=None)
def expected(kind: str, front_end: str) -> pd.DataFrame:
    return FRONT_ENDS[front_end](make_X(kind), base)


@pytest.mark.parametrize("kind, front_end", CASES, ids=[f"{k}-{f}" for k, f in CASES])
@pytest.mark.parametrize("edit", list(EDITS))
def test_a_model_that_edits_newdata_changes_neither_x_nor_the_result(kind, front_end, edit):
    X = make_X(kind)
    snapshot = Snapshot(X, held=(X.columns.get_loc("x"),))
    REFUSED_EDITS.clear()
    got = FRONT_ENDS[front_end](X, editing(EDITS[edit]))
    snapshot.assert_unchanged(X)
    assert_frame_equal(got, expected(kind, front_end), check_exact=True)
    if not copy_on_write():
        assert REFUSED_EDITS == []  # the model's frame is writable, as any frame of its own


@pytest.mark.parametrize("kind, front_end", CASES, ids=[f"{k}-{f}" for k, f in CASES])
@pytest.mark.parametrize("model", [keeping_and_editing_later, lambda: rescaling_first], ids=["later", "first"])
def test_frames_edited_later_or_before_predicting_change_nothing_else(kind, front_end, model):
    X = make_X(kind)
    snapshot = Snapshot(X, held=(X.columns.get_loc("x"),))
    got = FRONT_ENDS[front_end](X, model())
    snapshot.assert_unchanged(X)
    assert_frame_equal(got, expected(kind, front_end), check_exact=True)


@contextlib.contextmanager
def _copy_on_write_option():
    if PANDAS_3:
        yield  # always on
    else:
        with pd.option_context("mode.copy_on_write", True):
            yield


@pytest.mark.parametrize("front_end", ["ALEPlot x", "ALEPlot g", "PDPlot x", "FeatureEffect ice z batches", "ale x,z"])
@pytest.mark.parametrize("edit", ["x *= 2", "loc[:, x] =", "categorical set", "index =", "values written"])
def test_with_copy_on_write_enabled_a_shallow_copy_protects_x(front_end, edit):
    with _copy_on_write_option():
        assert copy_on_write()
        X = make_X("mixed")
        snapshot = Snapshot(X, held=(X.columns.get_loc("x"),))
        got = FRONT_ENDS[front_end](X, editing(EDITS[edit]))
        snapshot.assert_unchanged(X)
    assert_frame_equal(got, expected("mixed", front_end), check_exact=True)


def test_the_model_keeps_its_own_pandas_semantics():
    # A chained assignment inside the model writes through on pandas 2.x and does nothing
    # on pandas 3; pyale must explain the model as it behaves on the user's stack (so it
    # does not switch copy-on-write on around the call).
    def clipping(m, d):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            d["x"][d["x"] > 0.5] = 0.5
        return base(d)

    def explicit(m, d):
        if copy_on_write():
            return base(d)
        return base(d.assign(x=d["x"].clip(upper=0.5)))

    X = make_X("numeric")
    snapshot = Snapshot(X, held=(X.columns.get_loc("x"),))
    got = ALEPlot(X, None, clipping, J="x", K=5, plot=False)
    snapshot.assert_unchanged(X)
    assert_array_equal(got.f_values, ALEPlot(X, None, explicit, J="x", K=5, plot=False).f_values)
    assert_array_equal(got.x_values, ALEPlot(X, None, explicit, J="x", K=5, plot=False).x_values)


def test_every_frame_a_model_is_given_holds_what_it_was_asked_even_when_kept():
    X = make_X("numeric")
    kept = []

    def keeping(m, d):
        kept.append((d, d.copy(deep=True)))
        return base(d)

    ALEPlot(X, None, keeping, J="x", K=5, plot=False)  # 2 calls
    ALEPlot(X, None, keeping, J="x", K=5, plot=False, max_rows_per_call=9)  # 5 blocks x 2
    PDPlot(X, None, keeping, J="z", K=4, plot=False)  # 1 stacked call
    assert len(kept) == 13
    for frame, at_the_time in kept:
        assert_frame_equal(frame, at_the_time, check_exact=True)


@pytest.mark.parametrize("front_end", [name for name in FRONT_ENDS if name not in NEEDS_MIXED])
def test_read_only_data_is_read_and_never_written(front_end):
    # A frame over read-only memory (a memory map, a buffer): pyale only reads it.
    values = make_X("numeric").to_numpy(dtype=float)
    values.flags.writeable = False
    X = pd.DataFrame(values, columns=["x", "z", "k"], copy=False)
    snapshot = Snapshot(X, held=(X.columns.get_loc("x"),))
    got = FRONT_ENDS[front_end](X, base)
    snapshot.assert_unchanged(X)
    assert_frame_equal(got, FRONT_ENDS[front_end](X.copy(deep=True), base), check_exact=True)


def test_a_model_failing_on_a_read_only_frame_is_a_prediction_error_and_x_is_unchanged():
    # Under copy-on-write d.values of a one-block frame is read-only: the model's own error,
    # reported as such.  Without it the model writes into its own copy.
    X = make_X("numeric").astype(float)
    snapshot = Snapshot(X, held=(X.columns.get_loc("x"),))

    def writer(m, d):
        d.values[:] = 0
        return base(d)

    if copy_on_write():
        with pytest.raises(PredictionError, match="pred_fun raised ValueError while predicting 40 row"):
            ALEPlot(X, None, writer, J="x", K=5, plot=False)
    else:
        ALEPlot(X, None, writer, J="x", K=5, plot=False)
    snapshot.assert_unchanged(X)


def test_csv_data_is_read_exactly_as_written(tmp_path):
    from pyale._cli.inputs import _read_data, read_csv_exact

    values = np.random.default_rng(5).normal(size=5000) * 1e3
    pd.DataFrame({"v": values}).to_csv(tmp_path / "d.csv", index=False)
    assert_array_equal(read_csv_exact(tmp_path / "d.csv")["v"].to_numpy(), values)
    assert_array_equal(_read_data(tmp_path / "d.csv")["v"].to_numpy(), values)


def _numpy_base(a: np.ndarray) -> np.ndarray:
    return a[:, 0] * a[:, 1] + 0.25 * a[:, 2] ** 2


NUMPY_EDITS = {
    "a[:, 0] = 0": lambda a: a.__setitem__((slice(None), 0), 0.0),
    "a *= 2": lambda a: a.__imul__(2),
    "a[:] = nan": lambda a: a.fill(np.nan),
}


class _EditingEstimator:
    """A scikit-learn-like model fitted on a NumPy array (``n_features_in_``) that edits its input."""

    n_features_in_ = 3

    def __init__(self, edit):
        self.edit = edit

    def predict(self, a):
        y = _numpy_base(a)
        self.edit(a)
        return y


NUMPY_FRONT_ENDS = {
    "ale callable": lambda X, edit: pyale.ale(lambda a: (_numpy_base(a), edit(a))[0], X, 0,
                                              n_intervals=5).to_frame(),
    "ale callable pair": lambda X, edit: pyale.ale(lambda a: (_numpy_base(a), edit(a))[0], X, (0, 1),
                                                   n_intervals=3).to_frame(),
    "ale estimator": lambda X, edit: pyale.ale(_EditingEstimator(edit), X, 1, n_intervals=5).to_frame(),
    "ALEPlot": lambda X, edit: ALEPlot(X, None, lambda m, a: (_numpy_base(a), edit(a))[0], J=0, K=5,
                                       plot=False).to_frame(),
    "FeatureEffect": lambda X, edit: FeatureEffect(Predictor(predict_function=lambda a: (_numpy_base(a), edit(a))[0],
                                                             data=X), "x0", grid_size=5).results,
}


@pytest.mark.parametrize("front_end", list(NUMPY_FRONT_ENDS))
@pytest.mark.parametrize("edit", list(NUMPY_EDITS))
@pytest.mark.parametrize("cow", ["default", "copy-on-write"])
def test_a_model_may_write_to_the_numpy_array_it_is_given(front_end, edit, cow):
    # NumPy X: the model gets a NumPy array of its own, writable on every stack (copy-on-write's
    # views are read-only: pandas 3, or the option on 2.x), and neither X nor the result sees its edits.
    X = make_X("numeric").to_numpy(dtype=float)
    before = X.copy()
    with _copy_on_write_option() if cow == "copy-on-write" else contextlib.nullcontext():
        got = NUMPY_FRONT_ENDS[front_end](X, NUMPY_EDITS[edit])
    assert_array_equal(X, before)
    assert_frame_equal(got, NUMPY_FRONT_ENDS[front_end](X, lambda a: None), check_exact=True)


def _fit_writing_axes(rows, target):
    """Fits (the model is ``base`` scaled by the rows' mean target), then writes into its rows' index
    values, column labels and categories, which pandas 2.x shares between a frame and its deep copy."""
    factor = 1.0 + float(np.mean(target)) / 64.0
    _quietly(lambda: _write_index(rows))
    _quietly(lambda: _write_categories(rows))
    _quietly(lambda: _write_column_labels(rows))
    return lambda d: factor * base(d)


@pytest.mark.parametrize("feature", ["x", "g"])
def test_a_fit_writing_into_its_rows_axes_changes_neither_x_nor_the_answer(feature):
    X = make_X("mixed")
    y = base(X)
    snapshot = Snapshot(X, held=(X.columns.get_loc("x"),))

    def plain(rows, target):
        factor = 1.0 + float(np.mean(target)) / 64.0
        return lambda d: factor * base(d)

    got = pyale.model_bootstrap(_fit_writing_axes, X, y, feature, n_bootstrap=3, random_state=0, n_intervals=4)
    snapshot.assert_unchanged(X)
    want = pyale.model_bootstrap(plain, make_X("mixed"), y, feature, n_bootstrap=3, random_state=0, n_intervals=4)
    assert_frame_equal(got.to_frame(), want.to_frame(), check_exact=True)
    assert_array_equal(got.replicates, want.replicates)
