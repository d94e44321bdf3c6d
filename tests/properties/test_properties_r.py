"""Property-based tests of the R-shaped front-ends ``ALEPlot`` and ``PDPlot``.

See ``test_properties_ale.py`` for the data and ``prop_driver.exercise`` for
what each example checks; profiles in ``tests/properties/conftest.py``.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from prop_driver import PD_SIZES, SIZES, _positions_ok, exercise, feature_choices
from prop_effects import Call, examples
from prop_frames import frames


@st.composite
def r_calls(draw, case, front):
    features = draw(feature_choices(case))
    options = [("K", draw(st.sampled_from(PD_SIZES if front == "PDPlot" else SIZES)))]
    if draw(st.integers(0, 3)) == 0:
        options.append(("max_rows_per_call", draw(st.sampled_from([1, 3, 7]))))
    return Call(front, features, tuple(options))


@settings(max_examples=examples(6))
@given(data=st.data())
def test_aleplot(data):
    case = data.draw(frames(need=("numeric", "categorical")), label="case")
    call = data.draw(r_calls(case, "ALEPlot"), label="call")
    if _positions_ok(call, case.X):
        exercise(data, case, call)


@settings(max_examples=examples(5))
@given(data=st.data())
def test_pdplot(data):
    case = data.draw(frames(need=("numeric", "categorical")), label="case")
    call = data.draw(r_calls(case, "PDPlot"), label="call")
    if _positions_ok(call, case.X):
        exercise(data, case, call)
