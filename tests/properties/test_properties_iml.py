"""Property-based tests of iml's front-ends: ``Predictor`` with ``FeatureEffect`` and ``FeatureEffects``.

Every method (ALE, PDP, ICE, PDP+ICE), one feature or a pair, batches of
any size.  See ``prop_driver.exercise`` for what each example checks;
profiles in ``tests/properties/conftest.py``.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from prop_driver import PD_SIZES, SIZES, _positions_ok, exercise, feature_choices
from prop_effects import Call, examples
from prop_frames import ALL_DTYPES, CATEGORICAL_DTYPES, NUMERIC_DTYPES, frames

# iml's Predictor refuses booleans and date-times anywhere in the data: fewer of them.
IML_DTYPES = NUMERIC_DTYPES * 2 + CATEGORICAL_DTYPES * 3 + [d for d in ALL_DTYPES if d not in NUMERIC_DTYPES
                                                            and d not in CATEGORICAL_DTYPES]
METHODS = ["ale", "ale", "pdp", "ice", "pdp+ice"]


def _options(draw, method):
    options = [("method", method), ("grid_size", draw(st.sampled_from(SIZES if method == "ale" else PD_SIZES)))]
    if draw(st.integers(0, 3)) == 0:
        options.append(("predictor", {"batch_size": draw(st.sampled_from([1, 5, 17]))}))
    if method == "ale" and draw(st.integers(0, 3)) == 0:
        options.append(("max_rows_per_call", draw(st.sampled_from([1, 3, 7]))))
    return options


@settings(max_examples=examples(8))
@given(data=st.data())
def test_feature_effect(data):
    case = data.draw(frames(need=("numeric", "categorical"), dtypes=IML_DTYPES), label="case")
    method = data.draw(st.sampled_from(METHODS))
    features = data.draw(feature_choices(case, pairs=method != "ice" or data.draw(st.integers(0, 5)) == 0))
    call = Call("FeatureEffect", features, tuple(_options(data.draw, method)))
    if _positions_ok(call, case.X):
        exercise(data, case, call)


@settings(max_examples=examples(3))
@given(data=st.data())
def test_feature_effects(data):
    case = data.draw(frames(need=("numeric", "categorical"), dtypes=IML_DTYPES, max_rows=30), label="case")
    method = data.draw(st.sampled_from(METHODS))
    features = data.draw(feature_choices(case, pairs=False, lists=True, positions=False))
    features = features if isinstance(features, list) else [features]
    features = list(dict.fromkeys(features))
    options = [o for o in _options(data.draw, method) if o[0] != "max_rows_per_call"]
    exercise(data, case, Call("FeatureEffects", features, tuple(options)))
