"""How pyale reads a model's answer (pyale._core.map.calls): one rule for every front-end.

A pandas answer whose index is newdata's index in another order (a model that
predicts per segment and ``pd.concat``-s the parts) must give exactly the
numbers of the same model answering in order, through ALEPlot, PDPlot,
FeatureEffect (ALE, PDP, ICE), FeatureEffects and ``pyale.ale``; answers that
cannot be matched, and answers that are not one prediction per row, are
refused with a message naming the function and what came back.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
import scipy.sparse
from numpy.testing import assert_array_equal
from pandas.testing import assert_frame_equal

import pyale
from pyale import ALEPlot, FeatureEffect, FeatureEffects, PDPlot, PredictionError, Predictor
from pyale._core.map.calls import ModelCaller, RowOrderError, rows_in_order

N = 48
BONUS = {"a": 0.0, "b": 1.5, "c": -2.0, "d": 0.7}


def make_X(index_kind: str = "range", seed: int = 3) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({
        "x": rng.normal(size=N),
        "z": rng.uniform(-1, 2, N),
        "k": rng.integers(0, 6, N),
        "g": pd.Categorical(rng.choice(list("abcd"), N), categories=list("abcd")),
        "s": rng.choice(["u", "v", "w"], N),
    })
    perm = np.random.default_rng(seed + 1).permutation(N)
    if index_kind == "labels":
        X.index = pd.Index([f"r{i}" for i in perm])
    elif index_kind == "shuffled-range":
        X.index = pd.Index(perm)
    elif index_kind == "offset":
        X.index = pd.Index(1000 + perm)
    elif index_kind == "repeated":
        X.index = pd.Index(np.arange(N) // 2)
    else:
        assert index_kind == "range"
    return X


def plain(d: pd.DataFrame) -> np.ndarray:
    """The model: a NumPy array in newdata's row order."""
    x, z = d["x"].to_numpy(dtype=float), d["z"].to_numpy(dtype=float)
    bonus = d["g"].astype(str).map(BONUS).to_numpy(dtype=float)
    return x * z + x**2 + 0.3 * d["k"].to_numpy(dtype=float) + bonus * z + (d["s"].astype(str) == "v").to_numpy() * x


def in_order(d):
    return pd.Series(plain(d), index=d.index)


def reversed_series(d):
    return in_order(d).iloc[::-1]


def shuffled_series(seed=0):
    rng = np.random.default_rng(seed)
    return lambda d: in_order(d).iloc[rng.permutation(d.shape[0])]


def per_segment(d):
    """Predict each level of g apart and concatenate: rows grouped by segment."""
    y = in_order(d)
    return pd.concat([y[(d["g"] == level).to_numpy()] for level in ["d", "b", "a", "c"]])


def frame_in_order(d):
    return pd.DataFrame({"yhat": plain(d)}, index=d.index)


def reversed_frame(d):
    return frame_in_order(d).iloc[::-1]


def two_in_order(d):
    y = plain(d)
    return pd.DataFrame({"A": y, "B": 1 - 2 * y}, index=d.index)


def two_shuffled(seed=1):
    rng = np.random.default_rng(seed)
    return lambda d: two_in_order(d).iloc[rng.permutation(d.shape[0])]


def _effects(frames: dict) -> pd.DataFrame:
    return pd.concat(list(frames.values()), keys=list(frames), names=["feature", "row"])


FRONT_ENDS = {
    "ALEPlot x": lambda X, f: ALEPlot(X, None, lambda m, d: f(d), J="x", K=5, plot=False).to_frame(),
    "ALEPlot g": lambda X, f: ALEPlot(X, None, lambda m, d: f(d), J="g", plot=False).to_frame(),
    "ALEPlot s": lambda X, f: ALEPlot(X, None, lambda m, d: f(d), J="s", plot=False).to_frame(),
    "ALEPlot x,z": lambda X, f: ALEPlot(X, None, lambda m, d: f(d), J=("x", "z"), K=4, plot=False).to_frame(),
    "ALEPlot g,x": lambda X, f: ALEPlot(X, None, lambda m, d: f(d), J=("g", "x"), K=4, plot=False).to_frame(),
    "ALEPlot x chunks": lambda X, f: ALEPlot(X, None, lambda m, d: f(d), J="x", K=5, plot=False,
                                            max_rows_per_call=7).to_frame(),
    "PDPlot x": lambda X, f: PDPlot(X, None, lambda m, d: f(d), J="x", K=5, plot=False).to_frame(),
    "PDPlot g": lambda X, f: PDPlot(X, None, lambda m, d: f(d), J="g", K=5, plot=False).to_frame(),
    "PDPlot x,z": lambda X, f: PDPlot(X, None, lambda m, d: f(d), J=("x", "z"), K=3, plot=False).to_frame(),
    "FeatureEffect ale x": lambda X, f: FeatureEffect(Predictor(predict_function=f, data=X), "x", grid_size=5).results,
    "FeatureEffect ale g": lambda X, f: FeatureEffect(Predictor(predict_function=f, data=X), "g").results,
    "FeatureEffect ale x,z": lambda X, f: FeatureEffect(Predictor(predict_function=f, data=X), ["x", "z"],
                                                       grid_size=4).results,
    "FeatureEffect ale g,x": lambda X, f: FeatureEffect(Predictor(predict_function=f, data=X), ["g", "x"],
                                                       grid_size=4).results,
    "FeatureEffect pdp x": lambda X, f: FeatureEffect(Predictor(predict_function=f, data=X), "x", method="pdp",
                                                     grid_size=5).results,
    "FeatureEffect ice z": lambda X, f: FeatureEffect(Predictor(predict_function=f, data=X), "z", method="ice",
                                                     grid_size=5).results,
    "FeatureEffect pdp+ice g": lambda X, f: FeatureEffect(Predictor(predict_function=f, data=X), "g",
                                                         method="pdp+ice").results,
    "FeatureEffect pdp batches": lambda X, f: FeatureEffect(Predictor(predict_function=f, data=X, batch_size=10),
                                                           "x", method="pdp", grid_size=5).results,
    "FeatureEffects": lambda X, f: _effects(FeatureEffects(Predictor(predict_function=f, data=X),
                                                           features=["x", "g"], grid_size=5).results),
    "ale x": lambda X, f: pyale.ale(f, X, "x", n_intervals=5).to_frame(),
    "ale g": lambda X, f: pyale.ale(f, X, "g").to_frame(),
    "ale x,z": lambda X, f: pyale.ale(f, X, ("x", "z"), n_intervals=4).to_frame(),
    "ale g,x": lambda X, f: pyale.ale(f, X, ("g", "x"), n_intervals=4).to_frame(),
}
MULTI_OUTPUT = [name for name in FRONT_ENDS if not name.startswith(("ALEPlot", "PDPlot"))]


# Each reordering model with the kinds of index it must be read correctly against.
REORDERINGS = [
    ("reversed", reversed_series, "range"),
    ("reversed", reversed_series, "shuffled-range"),
    ("shuffled", shuffled_series(), "labels"),
    ("per-segment", per_segment, "offset"),
]


@pytest.mark.parametrize("front_end", list(FRONT_ENDS))
@pytest.mark.parametrize(
    "reordered, index_kind", [c[1:] for c in REORDERINGS], ids=[f"{c[0]}-{c[2]}" for c in REORDERINGS]
)
def test_a_reordered_series_gives_the_numbers_of_the_plain_model(front_end, index_kind, reordered):
    X = make_X(index_kind)
    run = FRONT_ENDS[front_end]
    assert_frame_equal(run(X, reordered), run(X, plain), check_exact=True)


@pytest.mark.parametrize("index_kind", ["range", "labels"])
@pytest.mark.parametrize("front_end", list(FRONT_ENDS))
def test_a_reordered_dataframe_gives_the_numbers_of_the_same_frame_in_order(front_end, index_kind):
    X = make_X(index_kind)
    run = FRONT_ENDS[front_end]
    assert_frame_equal(run(X, reversed_frame), run(X, frame_in_order), check_exact=True)


@pytest.mark.parametrize("front_end", MULTI_OUTPUT)
def test_a_reordered_two_output_frame_gives_the_numbers_of_the_frame_in_order(front_end):
    X = make_X("labels")
    run = FRONT_ENDS[front_end]
    expected = run(X, two_in_order)
    classes = expected[".class"] if ".class" in expected else expected["output"]
    assert set(classes.astype(str)) == {"A", "B"}
    assert_frame_equal(run(X, two_shuffled()), expected, check_exact=True)


@pytest.mark.parametrize("index_kind", ["offset", "repeated"])
@pytest.mark.parametrize("front_end", list(FRONT_ENDS))
def test_a_series_with_the_default_index_is_read_by_position(front_end, index_kind):
    # pd.Series(array) labels its rows 0..n-1; unless newdata's own labels are those
    # numbers reordered, the rows can only be newdata's rows in order.
    X = make_X(index_kind)
    run = FRONT_ENDS[front_end]
    assert_frame_equal(run(X, lambda d: pd.Series(plain(d))), run(X, plain), check_exact=True)


@pytest.mark.parametrize("front_end", list(FRONT_ENDS))
def test_repeated_labels_in_the_data_refuse_every_labelled_answer(front_end):
    # Rows swapped among equal labels cannot be seen, so even an index equal to newdata's
    # proves nothing; a unique index (or a NumPy answer) is needed.
    X = make_X("repeated")
    with pytest.raises(RowOrderError, match=re.escape("but newdata's index repeats labels (e.g. ")):
        FRONT_ENDS[front_end](X, in_order)
    unique = X.reset_index(drop=True)
    assert_frame_equal(FRONT_ENDS[front_end](unique, in_order), FRONT_ENDS[front_end](X, plain), check_exact=True)


# ---------------------------------------------------------------- refusals through the front-ends

LOWER = "ALE of 'x' (rows at the lower interval edge)"
FIX = "Return the predictions with index=newdata.index, or as a NumPy array in newdata's row order."
REPEATED_FIX = (
    "Return a NumPy array in newdata's row order, or give the data a unique index (e.g. X.reset_index(drop=True))."
)
SHUFFLED_LABELS = "[16, 36, 46, 47, 11, ...] (48 label(s), dtype int64)"

REFUSED_ORDER = [
    ("repeated labels reordered", "repeated", reversed_series, RowOrderError,
     "pred_fun returned a Series indexed by newdata's labels (in another order), but newdata's index "
     f"repeats labels (e.g. 0), so its rows cannot be matched to newdata's rows ({LOWER}). {REPEATED_FIX}"),
    ("repeated labels per segment", "repeated", per_segment, RowOrderError,
     "pred_fun returned a Series indexed by newdata's labels (in another order), but newdata's index "
     f"repeats labels (e.g. 0), so its rows cannot be matched to newdata's rows ({LOWER}). {REPEATED_FIX}"),
    ("repeated labels, same index", "repeated", in_order, RowOrderError,
     "pred_fun returned a Series indexed by newdata's labels (in an order that cannot be checked), but "
     f"newdata's index repeats labels (e.g. 0), so its rows cannot be matched to newdata's rows ({LOWER}). "
     f"{REPEATED_FIX}"),
    ("default index on shuffled 0..n-1", "shuffled-range", lambda d: pd.Series(plain(d)), PredictionError,
     "pred_fun returned a Series with the default index 0..47 for newdata whose index holds the same labels "
     f"in another order, {SHUFFLED_LABELS}, so pyale cannot tell whether its rows follow newdata's rows or "
     f"newdata's labels ({LOWER}). {FIX}"),
    ("default-index frame on shuffled 0..n-1", "shuffled-range", lambda d: pd.DataFrame({"y": plain(d)}),
     PredictionError,
     "pred_fun returned a DataFrame with the default index 0..47 for newdata whose index holds the same "
     f"labels in another order, {SHUFFLED_LABELS}, so pyale cannot tell whether its rows follow newdata's "
     f"rows or newdata's labels ({LOWER}). {FIX}"),
    ("unrelated labels", "range", lambda d: pd.Series(plain(d), index=d.index + 5000), PredictionError,
     "pred_fun returned a Series whose index is neither newdata's index (in any order) nor 0..47 "
     f"({LOWER}): its index is [5000, 5001, 5002, 5003, 5004, ...] (48 label(s), dtype int64), newdata's "
     f"is [0, 1, 2, 3, 4, ...] (48 label(s), dtype int64). {FIX}"),
    ("some labels unknown", "labels",
     lambda d: pd.Series(plain(d), index=pd.Index(["new", *d.index[1:]], dtype=object)), PredictionError,
     "pred_fun returned a Series whose index is neither newdata's index (in any order) nor 0..47 "
     f"({LOWER}): its index is ['new', 'r36', 'r46', 'r47', 'r11', ...] (48 label(s), dtype object), "
     f"newdata's is ['r16', 'r36', 'r46', 'r47', 'r11', ...] (48 label(s), dtype object). {FIX}"),
    ("a Series one row short", "range", lambda d: in_order(d).iloc[1:], PredictionError,
     f"pred_fun returned 47 value(s) for 48 row(s) of newdata ({LOWER}); it must return one per row. "
     "It returned a Series of 47 value(s) of dtype float64."),
]


@pytest.mark.parametrize(
    "index_kind, model, error, message", [case[1:] for case in REFUSED_ORDER], ids=[c[0] for c in REFUSED_ORDER]
)
def test_answers_that_cannot_be_matched_are_refused(index_kind, model, error, message):
    X = make_X(index_kind)
    if index_kind == "labels":
        X = X.astype({"x": float})  # object index: dtype object on every pandas
        X.index = X.index.astype(object)
    with pytest.raises(error, match=re.escape(message)):
        ALEPlot(X, None, lambda m, d: model(d), J="x", K=5, plot=False)


def test_partial_dependence_refuses_a_reordered_answer_when_the_data_repeats_labels():
    # Stacked grid points repeat labels; one point per call is tried, and the data itself repeats them.
    message = (
        "pred_fun returned a Series indexed by newdata's labels (in another order), but newdata's index "
        "repeats labels (e.g. 0), so its rows cannot be matched to newdata's rows (partial dependence of 'x' "
        f"(grid points 1..1 of 5)). {REPEATED_FIX}"
    )
    with pytest.raises(RowOrderError, match=re.escape(message)):
        PDPlot(make_X("repeated"), None, lambda m, d: reversed_series(d), J="x", K=5, plot=False)


def test_stacked_grid_points_fall_back_to_one_point_per_call_for_a_reordered_answer():
    X = make_X("labels")
    sizes = []

    def spy(m, d):
        sizes.append(d.shape[0])
        return per_segment(d)

    result = PDPlot(X, None, spy, J="x", K=5, plot=False)
    assert sizes == [5 * N] + [N] * 5  # the stacked call is refused, then one point per call
    assert_array_equal(result.f_values, PDPlot(X, None, lambda m, d: plain(d), J="x", K=5, plot=False).f_values)


def test_a_reordered_series_is_matched_within_each_chunk():
    X = make_X("offset")
    seen = []

    def spy(d):
        seen.append(list(d.index))
        return reversed_series(d)

    got = pyale.ale(spy, X, "x", n_intervals=5, max_rows_per_call=10)
    assert all(len(labels) <= 10 for labels in seen)
    assert_frame_equal(got.to_frame(), pyale.ale(plain, X, "x", n_intervals=5).to_frame(), check_exact=True)


# ---------------------------------------------------------------- numbers in other containers


def _masked(d, every=None):
    """The plain predictions as a NumPy masked array, every ``every``-th row masked (none when None)."""
    mask = np.zeros(d.shape[0], bool) if every is None else np.arange(d.shape[0]) % every == every - 1
    return np.ma.masked_array(plain(d), mask=mask)


# Each answer with the float answer it must equal: numbers are numbers in whatever container they come.
SAME_NUMBERS = {
    "masked, nothing masked": (_masked, plain),
    "masked, nomask": (lambda d: np.ma.masked_array(plain(d)), plain),
    "object array": (lambda d: plain(d).astype(object), plain),
    "object array of ints and floats": (lambda d: np.array([int(v) if v == int(v) else v for v in plain(d)],
                                                           dtype=object), plain),
    "object Series": (lambda d: pd.Series(plain(d), index=d.index, dtype=object), in_order),
    "object frame": (lambda d: pd.DataFrame({"yhat": plain(d)}, index=d.index, dtype=object), frame_in_order),
    "Float64 Series": (lambda d: pd.Series(plain(d), index=d.index, dtype="Float64"), in_order),
}


@pytest.mark.parametrize("front_end", list(FRONT_ENDS))
@pytest.mark.parametrize("answer", list(SAME_NUMBERS))
def test_numbers_in_a_masked_object_or_nullable_answer_are_the_plain_numbers(front_end, answer):
    # iml read an object array's numbers as class labels (one 0/1 output per distinct value) and
    # pyale.ale refused them; both read them as numbers now, as R's iml reads a numeric vector.
    X = make_X()
    model, reference = SAME_NUMBERS[answer]
    run = FRONT_ENDS[front_end]
    assert_frame_equal(run(X, model), run(X, reference), check_exact=True)


def test_numbers_in_an_object_answer_are_one_output_in_iml():
    X = make_X()
    predictor = Predictor(predict_function=lambda d: plain(d).astype(object), data=X)
    assert_frame_equal(predictor.predict(X), pd.DataFrame({"pred": plain(X)}), check_exact=True)
    named = Predictor(predict_function=lambda d: pd.DataFrame({"yhat": plain(d)}, dtype=object), data=X)
    assert_frame_equal(named.predict(X), pd.DataFrame({"yhat": plain(X)}), check_exact=True)
    labels = Predictor(predict_function=lambda d: np.where(plain(d) > 0, "up", "down").astype(object), data=X)
    assert labels.predict(X).columns.tolist() == ["down", "up"]  # strings stay class labels


MASKED_FRONT_ENDS = {
    **FRONT_ENDS,
    "ALE x": lambda X, f: pyale.ALE(None, ["x"], X.assign(y=0.0), "y",
                                    pred_fun=lambda object, newdata, type: f(newdata)).get("x"),  # noqa: A006
}
MASKED = "masked prediction(s) (a numpy.ma.MaskedArray; first at row 2 of"


@pytest.mark.parametrize("front_end", list(MASKED_FRONT_ENDS))
def test_a_masked_answer_with_masked_entries_is_refused(front_end):
    # The values under the mask are not predictions: refused as missing predictions, not read.
    with pytest.raises(PredictionError, match=re.escape(MASKED)):
        MASKED_FRONT_ENDS[front_end](make_X(), lambda d: _masked(d, every=3))


@pytest.mark.parametrize("answer, message", [
    (lambda d: _masked(d, every=3), f"pred_fun returned 16 masked prediction(s) (a numpy.ma.MaskedArray; first at row "
                                    f"2 of 48) for {LOWER}: masked entries are missing predictions."),
    (lambda d: np.ma.masked_array(np.c_[plain(d), plain(d)], mask=np.c_[np.zeros(N), np.arange(N) == 5]),
     f"pred_fun returned 1 masked prediction(s) (a numpy.ma.MaskedArray; first at row 5 of 48) for {LOWER}: "
     "masked entries are missing predictions."),
    (lambda d: np.array([*plain(d)[:-1], "a"], dtype=object),
     f"pred_fun must return numbers; got values of dtype object (e.g. ["),
    (lambda d: np.array([*plain(d)[:-1], True], dtype=object),
     f"pred_fun must return numbers; got values of dtype object (e.g. ["),
    (lambda d: np.array([*plain(d)[:-1], None], dtype=object),
     f"pred_fun returned 1 non-finite prediction(s) (NaN or inf; first at row 47 of 48) for {LOWER}."),
    (lambda d: pd.DataFrame({"y": [*plain(d)[:-1], pd.NA]}, dtype=object),
     f"pred_fun returned 1 non-finite prediction(s) (NaN or inf; first at row 47 of 48) for {LOWER}."),
], ids=["masked rows", "masked entry of a matrix", "a string among numbers", "a bool among numbers", "None",
        "pd.NA in an object frame"])
def test_masked_and_object_answers_that_are_not_all_numbers_are_refused(answer, message):
    with pytest.raises(PredictionError, match=re.escape(message)):
        ALEPlot(make_X(), None, lambda m, d: answer(d), J="x", K=5, plot=False)


# ---------------------------------------------------------------- what came back is not predictions


def _ragged(d):
    return [[1.0]] * (d.shape[0] - 1) + [[1.0, 2.0]]


BAD_ANSWERS = [
    ("scalar", lambda d: 1.0,
     f"pred_fun must return one prediction per row of newdata (48 row(s) for {LOWER}); it returned a single float (1.0)."),
    ("int", lambda d: 3,
     f"pred_fun must return one prediction per row of newdata (48 row(s) for {LOWER}); it returned a single int (3)."),
    ("0-d array", lambda d: np.array(2.5),
     f"pred_fun must return one prediction per row of newdata (48 row(s) for {LOWER}); it returned a 0-d array (2.5)."),
    ("None", lambda d: None,
     f"pred_fun must return one prediction per row of newdata (48 row(s) for {LOWER}); it returned None."),
    ("string", lambda d: "1.5",
     f"pred_fun must return one prediction per row of newdata (48 row(s) for {LOWER}); it returned a single str ('1.5')."),
    ("dict", lambda d: {"y": plain(d)},
     f"pred_fun must return one prediction per row of newdata (48 row(s) for {LOWER}); it returned a dict with 1 key(s) (['y'])."),
    ("sparse", lambda d: scipy.sparse.csr_matrix(plain(d).reshape(-1, 1)),
     f"pred_fun must return one prediction per row of newdata (48 row(s) for {LOWER}); it returned a SciPy sparse "
     "csr_matrix of shape (48, 1) (convert it with .toarray())."),
    ("generator", lambda d: (v for v in plain(d)),
     f"pred_fun must return one prediction per row of newdata (48 row(s) for {LOWER}); it returned a builtins.generator."),
    ("short list", lambda d: [1.0, 2.0],
     f"pred_fun returned 2 value(s) for 48 row(s) of newdata ({LOWER}); it must return one per row. "
     "It returned a list of 2 item(s)."),
    ("ragged list", _ragged, f"pred_fun returned a list of 48 item(s) that is not array-like ({LOWER}): "),
    ("strings", lambda d: np.array(["a"] * d.shape[0]),
     f"pred_fun must return numbers; got values of dtype <U1 (e.g. ['a']) for {LOWER}."),
    ("Series of strings", lambda d: pd.Series(["a"] * d.shape[0], index=d.index, dtype=object),
     f"pred_fun must return numbers; got values of dtype object (e.g. ['a']) for {LOWER}."),
    ("frame of strings", lambda d: pd.DataFrame({"y": ["a"] * d.shape[0]}, index=d.index, dtype=object),
     f"pred_fun must return numbers; got values of dtype object (e.g. ['a']) for {LOWER}."),
    ("complex", lambda d: np.full(d.shape[0], 2 + 1j), f"pred_fun must return numbers; got values of dtype "
     f"complex128 (e.g. [(2+1j)]) for {LOWER}."),
    ("3-d", lambda d: plain(d).reshape(-1, 1, 1),
     f"pred_fun must return one number (or one row of numbers) per row of newdata; got shape (48, 1, 1) for 48 "
     f"row(s) ({LOWER})."),
    ("no columns", lambda d: pd.DataFrame(index=d.index),
     f"pred_fun returned no output (a DataFrame of shape (48, 0)) for {LOWER}."),
    ("two columns", lambda d: np.zeros((d.shape[0], 2)), "pred_fun must return one number per row; got shape (48, 2)"),
    ("missing value", lambda d: pd.Series(plain(d), index=d.index, dtype="Float64").where(np.arange(N) % 2 == 1),
     f"pred_fun returned 24 non-finite prediction(s) (NaN or inf; first at row 0 of 48) for {LOWER}."),
]


@pytest.mark.parametrize("model, message", [c[1:] for c in BAD_ANSWERS], ids=[c[0] for c in BAD_ANSWERS])
def test_an_answer_that_is_not_predictions_is_refused_naming_what_came_back(model, message):
    with pytest.raises(PredictionError, match=re.escape(message)):
        ALEPlot(make_X(), None, lambda m, d: model(d), J="x", K=5, plot=False)


OTHER_FRONT_ENDS = [
    ("FeatureEffect", lambda f: FeatureEffect(Predictor(predict_function=f, data=make_X()), "x", grid_size=5),
     f"predict_function must return one prediction per row of newdata (48 row(s) for {LOWER}); it returned None."),
    ("FeatureEffect pdp", lambda f: FeatureEffect(Predictor(predict_function=f, data=make_X()), "x", method="pdp",
                                                  grid_size=5),
     "predict_function must return one prediction per row of newdata (240 row(s) for partial dependence of 'x' "
     "(grid points 1..5 of 5)); it returned None."),
    ("Predictor.predict", lambda f: Predictor(predict_function=f, data=make_X()).predict(make_X()),
     "predict_function must return one prediction per row of newdata (48 row(s) for Predictor.predict); "
     "it returned None."),
    ("PDPlot", lambda f: PDPlot(make_X(), None, lambda m, d: f(d), J="g", K=5, plot=False),
     "pred_fun must return one prediction per row of newdata (192 row(s) for partial dependence of 'g' "
     "(grid points 1..4 of 4)); it returned None."),
    ("ale", lambda f: pyale.ale(f, make_X(), "x"),
     f"model must return one prediction per row of newdata (48 row(s) for {LOWER}); it returned None."),
]


@pytest.mark.parametrize("run, message", [c[1:] for c in OTHER_FRONT_ENDS], ids=[c[0] for c in OTHER_FRONT_ENDS])
def test_every_front_end_names_the_function_and_what_came_back(run, message):
    with pytest.raises(PredictionError, match=re.escape(message)):
        run(lambda d: None)


def test_a_conversion_failure_in_the_predictor_is_a_prediction_error():
    # Class labels the model does not list among its classes cannot become 0/1 columns.
    class Labeller:
        classes_ = np.array(["no", "yes"])

        def predict(self, d):
            return np.where(d["x"].to_numpy() > 0, "yes", "maybe")

    message = (
        f"Labeller.predict returned an array of shape (48,) and dtype <U5 that pyale cannot read as "
        f"predictions ({LOWER}): the model predicted label 'maybe', which is not among ['no', 'yes']"
    )
    with pytest.raises(PredictionError, match=re.escape(message)):
        FeatureEffect(Predictor(Labeller(), data=make_X()), "x", grid_size=5)


def test_a_statsmodels_formula_answer_is_read_by_label():
    smf = pytest.importorskip("statsmodels.formula.api")
    X = make_X("labels")
    fit = smf.ols("y ~ x * z + C(g) + k", data=X.assign(y=plain(X))).fit()
    assert isinstance(fit.predict(X), pd.Series)  # indexed like newdata

    class Reordering:  # a results-like object whose predictions come back reversed
        model = fit.model

        def predict(self, d):
            return fit.predict(d).iloc[::-1]

    assert_frame_equal(pyale.ale(Reordering(), X, "x").to_frame(), pyale.ale(fit, X, "x").to_frame(), check_exact=True)


# ---------------------------------------------------------------- the rule itself


@pytest.mark.parametrize(
    "index, answer_index, positions",
    [
        (pd.RangeIndex(4), pd.RangeIndex(4), [0, 1, 2, 3]),
        (pd.Index([7, 5, 9, 1]), pd.Index([7, 5, 9, 1]), [0, 1, 2, 3]),
        (pd.Index([7, 5, 9, 1]), pd.Index([1, 9, 5, 7]), [3, 2, 1, 0]),
        (pd.Index([7, 5, 9, 1]), pd.RangeIndex(4), [0, 1, 2, 3]),
        (pd.Index([2, 2, 0, 0]), pd.RangeIndex(4), [0, 1, 2, 3]),
        (pd.Index([1, 2, 3, 4]), pd.RangeIndex(4), [0, 1, 2, 3]),
        (pd.Index(["b", "a", "c"]), pd.Index(["a", "b", "c"]), [1, 0, 2]),
        (pd.Index([1.5, 0.5]), pd.Index([0.5, 1.5]), [1, 0]),
        (pd.MultiIndex.from_tuples([(1, "a"), (0, "b")]), pd.MultiIndex.from_tuples([(0, "b"), (1, "a")]), [1, 0]),
        (pd.DatetimeIndex(["2020-01-02", "2020-01-01"]), pd.DatetimeIndex(["2020-01-01", "2020-01-02"]), [1, 0]),
    ],
)
def test_rows_in_order_matches_labels_or_positions(index, answer_index, positions):
    values = np.arange(len(index), dtype=float) * 10
    for answer in (pd.Series(values, index=answer_index), pd.DataFrame({"y": values}, index=answer_index)):
        got = rows_in_order(answer, index, name="f", purpose="p")
        assert_array_equal(np.asarray(got).reshape(-1), values[positions])


@pytest.mark.parametrize(
    "index, answer_index, error",
    [
        (pd.Index([3, 1, 0, 2]), pd.RangeIndex(4), PredictionError),  # ambiguous: rows or labels?
        (pd.Index([2, 2, 0, 0]), pd.Index([0, 0, 2, 2]), RowOrderError),
        (pd.Index([2, 2, 0, 0]), pd.Index([2, 2, 0, 0]), RowOrderError),  # equal, but swaps would not show
        (pd.Index([1, 2, 3, 4]), pd.Index([1, 2, 3, 5]), PredictionError),
        (pd.Index(["a", "b"]), pd.Index(["a", "a"]), PredictionError),
        (pd.Index([0, 1]), pd.Index(["0", "1"]), PredictionError),
    ],
)
def test_rows_in_order_refuses_what_cannot_be_matched(index, answer_index, error):
    with pytest.raises(error):
        rows_in_order(pd.Series(np.zeros(len(index)), index=answer_index), index, name="f", purpose="p")


def test_the_answer_is_always_a_new_array():
    # A model may keep what it returned (an output buffer) and overwrite it on the next call.
    buffer = np.zeros(N)

    def buffered(d):
        buffer[:] = plain(d)
        return buffer

    caller = ModelCaller(buffered, name="f")
    X = make_X()
    first = caller(X, "p")
    second = caller(X.assign(x=X["x"] + 1), "p")
    assert not np.shares_memory(first, buffer) and not np.shares_memory(first, second)
    assert_array_equal(first[:, 0], plain(X))
    got = pyale.ALEPlot(X, None, lambda m, d: buffered(d), J="x", K=5, plot=False)
    expected = pyale.ALEPlot(X, None, lambda m, d: plain(d), J="x", K=5, plot=False)
    assert_array_equal(got.f_values, expected.f_values)


def test_a_named_vector_is_kept_without_a_copy_only_when_the_model_let_it_go():
    """iml names a vector of predictions (one column frame over the model's array): when the model
    keeps nothing, that array becomes pyale's own (no copy); a kept buffer is still copied."""
    from pyale._frontends.iml.predictor import _as_prediction_frame

    X = make_X()
    addresses = []  # not the arrays: holding one would keep it (and then it must be copied)

    def fresh(d):
        values = plain(d)
        addresses.append(values.__array_interface__["data"][0])
        return values

    caller = ModelCaller(fresh, name="f", convert=lambda raw: _as_prediction_frame(raw, None))
    out = caller(X, "p")
    assert out.__array_interface__["data"][0] == addresses[-1] and out.flags.writeable
    assert_array_equal(out[:, 0], plain(X))
    assert caller.output_names == ["..prediction"]
    buffer = np.zeros(N)

    def buffered(d):
        buffer[:] = plain(d)
        return buffer

    kept = ModelCaller(buffered, name="f", convert=lambda raw: _as_prediction_frame(raw, None))
    first = kept(X, "p")
    assert not np.shares_memory(first, buffer)
    assert_array_equal(first[:, 0], plain(X))
