"""The grid stage's two kinds of rows answer alike: FrameData (a pandas frame) and EngineData (blocks).

The front-ends build their plans through one function for either
(:mod:`pyale._frontends.aleplot`, :func:`pyale._core.grid.pairs.read_pair`), so every
question the grid stage asks must get the same answer from
:class:`~pyale._core.run.frame_grid.FrameData` (whole-column NumPy) as from
:class:`~pyale._core.run.engine_grid.EngineData` over the same rows cut into
blocks (``BlockEngine``: the distributed code paths): features, ranges,
rows per level, each convention's edges, level orders, axes and the pair
rules' refusals.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_array_equal

from engine_helpers import BlockEngine
from pyale._core.conventions import ALEPLOT, IML
from pyale._core.run.engine_grid import EngineData
from pyale._core.run.frame_grid import FrameData
from pyale._core.conventions import CONVENTIONS
from pyale._core.grid.pairs import read_pair


def _frame(n: int = 60, seed: int = 3) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    group = rng.choice(["lo", "mid", "hi"], size=n, p=[0.5, 0.3, 0.2])
    shift = np.select([group == "lo", group == "mid"], [0.0, 1.0], 2.0)
    return pd.DataFrame({
        "x": rng.normal(size=n) + 0.7 * shift,
        "ties": rng.integers(0, 6, size=n) + (shift > 1),
        "cat": pd.Categorical(group, categories=["hi", "unused", "lo", "mid"]),
        "s": np.where(rng.random(n) < 0.3 + 0.2 * shift, "b", rng.choice(["a", "Z"], size=n)).astype(object),
    })


SIZES = {"one block": [60], "empty and single": [0, 1, 29, 0, 30], "many": [7] * 8 + [4]}


@pytest.fixture(params=list(SIZES.values()), ids=list(SIZES))
def both(request):
    X = _frame()
    return FrameData(X, caller="ALEPlot"), EngineData(BlockEngine(X, request.param), caller="ALEPlot")


def test_features_and_ranges_agree(both):
    frame, engine = both
    for name in ["x", "ties", "cat", "s"]:
        got, expected = frame.feature(name, f"Column {name!r}"), engine.feature(name, f"Column {name!r}")
        assert (got.name, got.categorical, got.levels, got.ordered, got.integer) == (
            expected.name, expected.categorical, expected.levels, expected.ordered, expected.integer)
        if not got.categorical:
            assert frame.value_range(name) == engine.value_range(name)


def test_level_counts_agree(both):
    frame, engine = both
    for name in ["cat", "s"]:
        got = frame.level_counts(frame.feature(name, f"Column {name!r}"))
        assert_array_equal(got, engine.level_counts(engine.feature(name, f"Column {name!r}")))
        assert got.sum() == 60


@pytest.mark.parametrize("convention", [ALEPLOT, IML], ids=["aleplot", "iml"])
@pytest.mark.parametrize("n_intervals", [1, 3, 10, 200])
def test_edges_and_numeric_axes_agree(both, convention, n_intervals):
    frame, engine = both
    features = [(frame.feature(n, n), engine.feature(n, n)) for n in ["x", "ties"]]
    got = frame.edges([f for f, _ in features], convention, n_intervals, param="K")
    expected = engine.edges([e for _, e in features], convention, n_intervals, param="K")
    for f, e in features:
        assert_array_equal(got[f.name], expected[e.name], strict=True)
        axis, engine_axis = frame.numeric_axis(f, got[f.name]), engine.numeric_axis(e, expected[e.name])
        assert axis.name == engine_axis.name
        assert_array_equal(axis.edges, engine_axis.edges, strict=True)
        assert_array_equal(axis.occupied, engine_axis.occupied, strict=True)  # quantile edges: all occupied


@pytest.mark.parametrize("name", ["cat", "s"])
@pytest.mark.parametrize("requested", [None, ["mid", "lo", "hi"]], ids=["by similarity", "requested"])
def test_level_orders_and_level_axes_agree(both, name, requested):
    frame, engine = both
    if name == "s" and requested is not None:
        requested = ["b", "a", "Z"]
    f, e = frame.feature(name, name), engine.feature(name, name)
    order = frame.level_order(f, requested, caller="ALEPlot")
    assert_array_equal(order, engine.level_order(e, requested, caller="ALEPlot"), strict=True)
    axis, engine_axis = frame.level_axis(f, order), engine.level_axis(e, order)
    assert (axis.name, axis.levels) == (engine_axis.name, engine_axis.levels)
    assert_array_equal(axis.order, engine_axis.order, strict=True)


@pytest.mark.parametrize("names, conventions", [
    (("s", "cat"), "aleplot"), (("x", "cat"), "aleplot"), (("x", "cat"), "iml"), (("cat", "x"), "ale"),
])
def test_pair_rules_are_one_function(both, names, conventions):
    frame, engine = both
    if conventions == "aleplot":
        with pytest.raises(Exception) as expected:
            read_pair(engine, names, "ALEPlot")
        with pytest.raises(type(expected.value), match=re.escape(str(expected.value))):
            read_pair(frame, names, "ALEPlot")
        return
    rules = CONVENTIONS[conventions]
    got, expected = rules.read_pair(frame, names, "ale"), rules.read_pair(engine, names, "ale")
    assert got[2] == expected[2] == ("cat", "x")
    assert [f.name for f in got[:2]] == [f.name for f in expected[:2]] == ["cat", "x"]
