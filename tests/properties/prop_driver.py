"""One property-based example: a model on a frame through a front-end, then one relation.

:func:`exercise` draws a model of known structure for the call's features,
runs the call (X must be unchanged, a refusal clear, an in-domain call
answered and an out-of-domain one refused), checks the answer against the
model's structure, then draws one relation and checks it:

``answer``
    the model answers through a wrapper (Series/DataFrame in another order,
    float32, ints, bools, a list, ...) and edits ``newdata`` in place: the
    result equals the same numbers returned plainly, bit for bit (or a clear
    refusal where the answer is ambiguous);
``permute``
    the rows of X in another order give the same effects up to rounding;
``shift`` / ``scale``
    ``model + c`` changes no centred effect; ``c * model`` scales every effect;
``failure``
    a model that raises or returns something that is not predictions is
    refused with a :class:`pyale.PredictionError`, never answered.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import note
from hypothesis import strategies as st

from pyale import PredictionError
from prop_effects import (
    Call, assert_same_effects, assert_same_tables, check_structure, column_problem, expected_outcome,
    must_refuse_for_answer, run_checked,
)
from prop_frames import FrameCase
from prop_models import EDITS, FAILURES, Model, ModelFailed, Wrapper, specs, wrappers

RELATIONS = ["answer", "answer", "permute", "shift", "scale", "failure"]
SINGLE_OUTPUT = ("ALEPlot", "PDPlot")
SIZES = [1, 2, 3, 4, 5, 8, 10, 40, 1000, 10**6, 10**12]
# Partial dependence is not bounded by the data (equally spaced points): sizes either cheap or beyond
# every bound (pyale._core.grid.bounds allows at most 2**24 points), so that no example asks for 10**7 rows.
PD_SIZES = [1, 2, 3, 4, 5, 8, 10, 40, 100, 2**25, 10**12]


def resolve(X: pd.DataFrame, label):
    """A label, or a 0-based position (when it is not a label)."""
    if isinstance(label, (int, np.integer)) and not isinstance(label, bool) and label not in X.columns:
        return X.columns[label]
    return label


def labels_of(call: Call, X: pd.DataFrame) -> list:
    return [resolve(X, name) for entry in call.entries() for name in entry]


@st.composite
def feature_choices(draw, case: FrameCase, *, pairs=True, lists=False, positions=True):
    """One feature, a pair (of any kinds) or a list of those; mostly columns a feature can be."""
    names = [c.name for c in case.columns]
    good = [n for n in names if column_problem(case, n) is None]
    forms = ["one"] + (["pair"] if pairs and len(names) > 1 else []) + (["list"] if lists else [])
    form = draw(st.sampled_from(forms))

    def label(pool):
        name = draw(st.sampled_from(pool))
        if positions and draw(st.integers(0, 7)) == 0:
            return names.index(name)  # a 0-based position (refers to the same column unless a label wins)
        return name

    def pool():
        return good if good and draw(st.integers(0, 4)) > 0 else names

    def pair():
        chosen = pool()
        if len(chosen) < 2:
            chosen = names
        first, second = draw(st.lists(st.sampled_from(chosen), min_size=2, max_size=2, unique=True))
        return (first, second)

    if form == "one":
        return label(pool())
    if form == "pair":
        return pair()
    entries = []
    for _ in range(draw(st.integers(1, 3))):
        entries.append(pair() if pairs and len(names) > 1 and draw(st.booleans()) else label(pool()))
    return entries


def _positions_ok(call: Call, X: pd.DataFrame) -> bool:
    """Whether every int feature that is not a label is a valid position (else skip the example)."""
    for entry in call.entries():
        for name in entry:
            if isinstance(name, (int, np.integer)) and name not in X.columns and not 0 <= name < X.shape[1]:
                return False
    return True


def _expect(case, call, spec, weights=None):
    expected, reason = expected_outcome(case, _labelled(call, case.X), weights=weights)
    if expected == "ok" and call.front in SINGLE_OUTPUT and len(spec.outputs) > 1:
        return "refuse", "several outputs"
    return expected, reason


def _labelled(call: Call, X: pd.DataFrame) -> Call:
    """The call with positions replaced by labels (for the domain rules)."""
    def fix(f):
        if isinstance(f, tuple):
            return tuple(resolve(X, n) for n in f)
        if isinstance(f, list) and call.front in ("ale", "ALEDisplay", "FeatureEffects") and f is call.features:
            return [fix(e) if isinstance(e, tuple) else [resolve(X, n) for n in e] if isinstance(e, list)
                    else resolve(X, e) for e in f]
        return resolve(X, f)
    return Call(call.front, fix(call.features), call.options)


def check_expected(outcome, expected: str, reason: str) -> None:
    if expected == "ok":
        assert outcome.ok, f"refused a call pyale supports: {type(outcome.error).__name__}: {outcome.error}"
    elif expected == "refuse":
        assert not outcome.ok, f"answered instead of refusing ({reason})"


def exercise(data, case: FrameCase, call: Call, *, relations=RELATIONS, weights=None) -> None:
    """Run ``call`` on ``case`` with a drawn model, check it, then check one drawn relation."""
    X = case.X
    features = labels_of(call, X)
    ignore = tuple(features) if data.draw(st.integers(0, 5), label="ignore features") == 0 else ()
    n_outputs = 1 if call.front in SINGLE_OUTPUT and data.draw(st.integers(0, 9)) > 0 else None
    spec = data.draw(specs(case, features=features, ignore=ignore, n_outputs=n_outputs), label="spec")
    kwargs = {} if weights is None else {"sample_weight": weights}
    base = run_checked(call, Model(spec), X, **kwargs)
    expected, reason = _expect(case, call, spec, weights)
    note(f"base: {'ok' if base.ok else repr(base.error)}; expected {expected} {reason}")
    check_expected(base, expected, reason)
    if base.ok:
        for effect in base.effects:
            check_structure(effect, spec, X)
    relation = data.draw(st.sampled_from(relations), label="relation")
    if relation == "answer":
        _answer(data, case, call, spec, base, kwargs)
    elif relation == "permute":
        _permute(data, case, call, spec, base, kwargs)
    elif relation in ("shift", "scale"):
        shift = data.draw(st.sampled_from([1000.0, -7.25])) if relation == "shift" else 0.0
        factor = data.draw(st.sampled_from([-2.0, 0.5, 3.0])) if relation == "scale" else 1.0
        other = run_checked(call, Model(spec.transformed(shift=shift, factor=factor)), X, **kwargs)
        assert other.ok == base.ok, f"{relation}: {other.error!r} vs {base.error!r}"
        if base.ok:
            assert_same_effects(base, other, shift=shift, factor=factor, scale=_scale(spec, X))
    elif relation == "failure":
        _failure(data, case, call, spec, base, kwargs)


def _scale(spec, X) -> float:
    y = spec.values(X)
    return float(np.max(np.abs(y))) + 100.0 if y.size else 100.0


def _answer(data, case, call, spec, base, kwargs):
    X = case.X
    wrapper = data.draw(wrappers, label="wrapper")
    edit = data.draw(st.sampled_from(list(EDITS)), label="edit")
    seed = data.draw(st.integers(0, 1000))
    reference = run_checked(call, Model(spec, wrapper.reference()), X, **kwargs)
    wrapped = run_checked(call, Model(spec, wrapper, edit, seed=seed), X, **kwargs)
    allowed = must_refuse_for_answer(None, wrapper, X, call.front)
    note(f"reference: {'ok' if reference.ok else repr(reference.error)}; "
         f"wrapped: {'ok' if wrapped.ok else repr(wrapped.error)}")
    labels = call.front in ("FeatureEffect", "FeatureEffects") and wrapper.dtype == "bool"
    if reference.ok and wrapped.ok and not labels:  # iml reads booleans as class labels: other numbers
        assert_same_tables(reference, wrapped)
    elif reference.ok != wrapped.ok:
        assert allowed == "either", (
            f"{wrapper} with edit {edit!r}: reference {'ok' if reference.ok else repr(reference.error)}, "
            f"wrapped {'ok' if wrapped.ok else repr(wrapped.error)}"
        )
    if reference.ok and wrapper.keeps_values and not labels:
        for effect in reference.effects:
            check_structure(effect, spec, X)
    if base.ok and not reference.ok:
        # Only an answer that iml reads as class labels, or several outputs where one is needed, differs.
        assert allowed == "either" or call.front in SINGLE_OUTPUT or wrapper.dtype == "bool", (
            f"the plain model was answered but the same numbers in {wrapper} were refused: {reference.error!r}")


def _permute(data, case, call, spec, base, kwargs):
    X = case.X
    seed = data.draw(st.integers(0, 2**32 - 1))
    perm = np.random.default_rng(seed).permutation(X.shape[0])
    X2 = X.iloc[perm]
    moved = dict(kwargs)
    if "sample_weight" in kwargs:
        moved["sample_weight"] = np.asarray(kwargs["sample_weight"])[perm]
    other = run_checked(call, Model(spec), X2, **moved)
    assert other.ok == base.ok, f"rows permuted: {other.error!r} vs {base.error!r}"
    if base.ok:
        by_label = call.front in ("FeatureEffect", "FeatureEffects")
        assert_same_effects(base, other, scale=_scale(spec, X), levels_by_label=by_label, ice_rows=perm,
                            replicates=False)


def _failure(data, case, call, spec, base, kwargs):
    X = case.X
    failure = data.draw(st.sampled_from(FAILURES), label="failure")
    model = Model(spec, failure=failure, seed=data.draw(st.integers(0, 100)))
    outcome = run_checked(call, model, X, **kwargs)
    iml = call.front in ("FeatureEffect", "FeatureEffects")
    if failure == "strings" and iml:
        return  # iml reads strings as class labels: a valid answer
    if model.failed:
        assert not outcome.ok, f"the model failed ({failure}) and pyale answered"
        if base.ok:
            assert isinstance(outcome.error, PredictionError), f"{failure}: {outcome.error!r}"
        if failure.startswith("raise") and isinstance(outcome.error, PredictionError):
            assert isinstance(outcome.error.__cause__, ModelFailed), "the model's exception is not chained"
    elif outcome.ok and base.ok:
        assert_same_tables(base, outcome)
