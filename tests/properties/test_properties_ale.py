"""Property-based tests of ``pyale.ale`` (every convention, weights, bootstrap) and ``ALEDisplay``.

Random frames (every dtype users pass, missing values, odd index labels and
column names, 1 row and up), random features (one, pairs of every kind,
lists), random grid sizes (up to 10**12) and random models of known
structure; see ``prop_driver.exercise`` for what each example checks.

The default Hypothesis profile ``ci`` is small and derandomised; explore with
``HYPOTHESIS_PROFILE=long python -m pytest tests/properties -p no:cacheprovider``
(see ``tests/properties/conftest.py``).
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, note, settings
from hypothesis import strategies as st

from pyale._core.conventions import CONVENTIONS as _REGISTERED
from prop_driver import SIZES, _positions_ok, exercise, feature_choices, labels_of
from prop_effects import Call, assert_same_effects, check_structure, examples, run_checked
from prop_frames import FrameCase, frames
from prop_models import Model, specs

CONVENTIONS = list(_REGISTERED)


@st.composite
def ale_calls(draw, case: FrameCase, *, bootstrap=False):
    features = draw(feature_choices(case, lists=True))
    options = [("conventions", draw(st.sampled_from(CONVENTIONS)))]
    size = draw(st.sampled_from(SIZES + [None]))
    if size is not None:
        options.append(("n_intervals", size))
    if draw(st.integers(0, 3)) == 0:
        options.append(("max_rows_per_call", draw(st.sampled_from([1, 3, 7]))))
    if bootstrap:
        options += [("n_bootstrap", draw(st.sampled_from([1, 4, 9]))), ("random_state", draw(st.integers(0, 99)))]
    return Call("ale", features, tuple(options))


@settings(max_examples=examples(8))
@given(data=st.data())
def test_ale(data):
    case = data.draw(frames(need=("numeric", "categorical")), label="case")
    call = data.draw(ale_calls(case), label="call")
    if _positions_ok(call, case.X):
        exercise(data, case, call)


@settings(max_examples=examples(3))
@given(data=st.data())
def test_ale_bootstrap(data):
    case = data.draw(frames(need=("numeric",), max_rows=30), label="case")
    call = data.draw(ale_calls(case, bootstrap=True), label="call")
    if _positions_ok(call, case.X):
        exercise(data, case, call)


@settings(max_examples=examples(4))
@given(data=st.data())
def test_ale_integer_weights_equal_repeated_rows(data):
    """Integer weights give the answer of rows repeated that many times (ale's rules refuse weights)."""
    case = data.draw(frames(need=("numeric", "categorical"), max_rows=25), label="case")
    call = data.draw(ale_calls(case), label="call")
    if not _positions_ok(call, case.X):
        return
    X = case.X
    weights = np.array(data.draw(st.lists(st.integers(0, 3), min_size=X.shape[0], max_size=X.shape[0])))
    if (weights > 0).any() and weights[weights > 0].min() > 1:
        # The smallest positive weight counts as one row in the level order's probes (scale-free
        # weights): repeated rows are the reading of integer weights that include a 1.
        weights[np.flatnonzero(weights > 0)[0]] = 1
    if data.draw(st.booleans()):
        weights = weights.astype(float)
    spec = data.draw(specs(case, features=labels_of(call, X)), label="spec")
    weighted = run_checked(call, Model(spec), X, sample_weight=weights)
    if call.kw["conventions"] == "ale":
        assert not weighted.ok and "'sample_weight'" in str(weighted.error), weighted.error
        return
    repeated = run_checked(call, Model(spec), X.iloc[np.repeat(np.arange(X.shape[0]), weights.astype(int))])
    note(f"weighted: {weighted.error!r}; repeated: {repeated.error!r}")
    assert weighted.ok == repeated.ok, f"weighted {weighted.error!r} vs repeated rows {repeated.error!r}"
    if weighted.ok:
        for effect in weighted.effects:
            check_structure(effect, spec, X)
        y = spec.values(X)
        assert_same_effects(repeated, weighted, scale=float(np.abs(y).max()) + 100.0)
    # the general relations, with the weights
    exercise(data, case, call, weights=weights)


@settings(max_examples=examples(3))
@given(data=st.data())
def test_ale_weights_scaled_by_a_constant_change_nothing(data):
    """Weights times a power of two (exact in floating point) give identical effects, grids and level orders."""
    case = data.draw(frames(need=("numeric", "categorical"), max_rows=30), label="case")
    call = data.draw(ale_calls(case), label="call")
    if not _positions_ok(call, case.X) or call.kw["conventions"] == "ale":
        return
    X = case.X
    weights = np.array(data.draw(st.lists(st.integers(0, 40), min_size=X.shape[0], max_size=X.shape[0]))) / 7.0
    factor = 2.0 ** data.draw(st.integers(-40, 40), label="log2 factor")
    spec = data.draw(specs(case, features=labels_of(call, X)), label="spec")
    base = run_checked(call, Model(spec), X, sample_weight=weights)
    scaled = run_checked(call, Model(spec), X, sample_weight=weights * factor)
    note(f"base: {base.error!r}; scaled: {scaled.error!r}")
    assert base.ok == scaled.ok, f"weights {base.error!r} vs scaled {scaled.error!r}"
    if base.ok:
        assert_same_effects(base, scaled, rtol=0.0, scale=0.0)


@settings(max_examples=examples(4))
@given(data=st.data())
def test_ale_pkg_front(data):
    """``pyale.ALE`` (R's ale::ALE): terms by label, a pair either way round, any bin count."""
    case = data.draw(frames(need=("numeric", "categorical")), label="case")
    features = data.draw(feature_choices(case, lists=True, positions=False), label="features")
    options = []
    bins = data.draw(st.sampled_from([None, 2, 3, 5, 11, 41, 10**6, 10**12]))
    if bins is not None:
        options.append(("max_num_bins", bins))
    exercise(data, case, Call("ALE", features if isinstance(features, list) else [features], tuple(options)))


@settings(max_examples=examples(3))
@given(data=st.data())
def test_ale_weights_of_one_change_nothing(data):
    """``sample_weight`` of ones (ints or floats) gives the unweighted answer; ale's rules refuse weights."""
    case = data.draw(frames(need=("numeric", "categorical"), max_rows=30), label="case")
    call = data.draw(ale_calls(case), label="call")
    if not _positions_ok(call, case.X):
        return
    X = case.X
    ones = np.ones(X.shape[0], dtype=data.draw(st.sampled_from([np.int64, np.float64, np.int8])))
    spec = data.draw(specs(case, features=labels_of(call, X)), label="spec")
    plain = run_checked(call, Model(spec), X)
    weighted = run_checked(call, Model(spec), X, sample_weight=ones)
    note(f"plain: {plain.error!r}; weighted: {weighted.error!r}")
    if call.kw["conventions"] == "ale":
        assert not weighted.ok and "'sample_weight'" in str(weighted.error), weighted.error
        return
    assert weighted.ok == plain.ok, f"weights of one: {weighted.error!r} vs none: {plain.error!r}"
    if plain.ok:
        assert_same_effects(plain, weighted, scale=float(np.abs(spec.values(X)).max(initial=0.0)) + 100.0)


@settings(max_examples=examples(1))
@given(data=st.data())
def test_ale_display_from_estimator(data):
    import matplotlib

    matplotlib.use("Agg")
    case = data.draw(frames(need=("numeric", "categorical"), max_rows=25), label="case")
    features = data.draw(feature_choices(case, lists=True), label="features")
    options = [("conventions", data.draw(st.sampled_from(CONVENTIONS)))]
    size = data.draw(st.sampled_from([None, 3, 10, 10**9]))
    if size is not None:
        options.append(("n_intervals", size))
    call = Call("ALEDisplay", features, tuple(options))
    if not _positions_ok(call, case.X):
        return
    exercise(data, case, call, relations=["answer", "shift"])
    # The figure draws what pyale.ale computes.
    spec = data.draw(specs(case, features=labels_of(call, case.X)), label="spec")
    shown = run_checked(call, Model(spec), case.X)
    computed = run_checked(Call("ale", features if isinstance(features, list) else [features], tuple(options)),
                           Model(spec), case.X)
    assert shown.ok == computed.ok, f"{shown.error!r} vs {computed.error!r}"
    if shown.ok:
        from pandas.testing import assert_frame_equal

        assert_frame_equal(shown.table, computed.table, check_exact=True)
