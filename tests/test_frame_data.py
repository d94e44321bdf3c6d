"""The questions the one plan path asks, answered alike by a pandas frame and by an engine's blocks.

``pyale.ale`` and iml's ``FeatureEffect`` build their plans through one
data object for every kind of rows (:mod:`pyale._api`, :mod:`pyale._iml.run`):
:class:`~pyale._core.frame_grid.FrameData` for a pandas frame and its weights
(an array beside the frame), :class:`~pyale._core.engine_grid.EngineData` for
blocks and their weight column.  Beyond the questions of
``test_frame_grid.py``, these must agree: weighted edges and level orders,
the rows per interval of a user grid, the bootstrap chunks' weights, the rows
kept inside a grid's range (and axes built there from features of all rows),
levels in order of first appearance, and the layout of iml's PD tables.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_array_equal

from engine_helpers import BlockEngine
from pyale._core.bootstrap import CHUNK
from pyale._core.conventions import ALEPLOT, IML
from pyale._core.engine_grid import EngineData, InsideRange
from pyale._core.frame_grid import FrameData

N = 80
SIZES = {"one block": [N], "empty and single": [0, 1, 39, 0, 40], "many": [9] * 8 + [8]}


def _frame(seed: int = 5) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    group = rng.choice(["lo", "mid", "hi"], size=N, p=[0.5, 0.3, 0.2])
    shift = np.select([group == "lo", group == "mid"], [0.0, 1.0], 2.0)
    return pd.DataFrame({
        "x": rng.normal(size=N) + 0.7 * shift,
        "ties": rng.integers(0, 6, size=N) + (shift > 1),
        "cat": pd.Categorical(group, categories=["hi", "unused", "lo", "mid"]),
        "s": np.where(rng.random(N) < 0.3 + 0.2 * shift, "b", rng.choice(["a", "Z"], size=N)).astype(object),
    })


def _weights(seed: int = 6) -> np.ndarray:
    return np.random.default_rng(seed).choice([0.5, 1.0, 2.0, 3.25], size=N)


@pytest.fixture(params=list(SIZES.values()), ids=list(SIZES))
def sizes(request):
    return request.param


def _both(sizes, weighted: bool):
    X = _frame()
    if not weighted:
        return FrameData(X, caller="ale"), EngineData(BlockEngine(X, sizes), caller="ale")
    w = _weights()
    return (FrameData(X, caller="ale", weights=w),
            EngineData(BlockEngine(X.assign(w=w), sizes), weight="w", caller="ale"))


@pytest.mark.parametrize("convention", [ALEPLOT, IML], ids=["aleplot", "iml"])
@pytest.mark.parametrize("n_intervals", [1, 13, 500])
def test_weighted_edges_agree(sizes, convention, n_intervals):
    frame, engine = _both(sizes, weighted=True)
    features = [(frame.feature(n, n), engine.feature(n, n)) for n in ["x", "ties"]]
    got = frame.edges([f for f, _ in features], convention, n_intervals, param="n_intervals")
    expected = engine.edges([e for _, e in features], convention, n_intervals, param="n_intervals")
    unweighted = FrameData(_frame(), caller="ale").edges([f for f, _ in features], convention, n_intervals,
                                                         param="n_intervals")
    for f, _ in features:
        assert_array_equal(got[f.name], expected[f.name], strict=True)
    if n_intervals == 13:  # the weights move the edges (the check above could not pass by ignoring them)
        assert not np.array_equal(got["x"], unweighted["x"])


@pytest.mark.parametrize("name", ["cat", "s"])
def test_weighted_level_orders_agree(sizes, name):
    frame, engine = _both(sizes, weighted=True)
    f, e = frame.feature(name, name), engine.feature(name, name)
    assert_array_equal(frame.level_order(f, None, caller="ale"), engine.level_order(e, None, caller="ale"),
                       strict=True)


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
def test_user_grid_counts_agree(sizes, weighted):
    frame, engine = _both(sizes, weighted)
    x = _frame()["x"].to_numpy()
    grids = {"x": np.array([x.min(), -0.5, 0.0, 0.25, x.max()]), "ties": np.array([-1.0, 2.0, 2.5, 10.0])}
    got, expected = frame.interval_counts(grids), engine.interval_counts(grids)
    for name in grids:
        below, counts, above = got[name]
        assert (below, above) == expected[name][::2]
        assert_array_equal(counts, expected[name][1], strict=True)
        assert below + counts.sum() + above == N
    assert got["ties"][1][1] == 0  # (2, 2.5] holds no integer: an empty interval is reported as such


def test_bootstrap_chunk_weights_agree(sizes):
    frame, engine = _both(sizes, weighted=True)
    assert not frame.equal_weights and not engine.equal_weights
    totals, chunk = frame.chunk_weights()
    expected_totals, expected_chunk = engine.chunk_weights()
    assert_array_equal(totals, expected_totals, strict=True)
    assert totals.shape == (-(-N // CHUNK),)
    assert_array_equal(chunk(0), expected_chunk(0), strict=True)
    assert_array_equal(chunk(0), _weights()[:CHUNK], strict=True)


def test_estimator_weights_are_the_rows_weights():
    frame, _ = _both([N], weighted=True)
    block = _frame().iloc[10:25]
    assert_array_equal(frame.block_weights(block, 10), _weights()[10:25], strict=True)
    assert FrameData(_frame(), caller="ale").block_weights is None


@pytest.mark.parametrize("low, high", [(-0.5, 1.0), (-100.0, 100.0)], ids=["some rows", "every row"])
def test_rows_inside_a_grid_agree(sizes, low, high):
    frame, engine = _both(sizes, weighted=False)
    keep = InsideRange("x", low, high)
    f, e = frame.feature("x", "x"), engine.feature("x", "x")
    inside, engine_inside = frame.restricted(keep, ["x"]), engine.restricted(keep, ["x"])
    x = _frame()["x"].to_numpy()
    assert inside.n_rows == engine_inside.n_rows == int(((x >= low) & (x <= high)).sum())
    if high == 100.0:
        assert inside is frame  # nothing to leave out: the same rows, no copy
    edges = np.array([low, 0.0, 0.3, high])
    counts = engine_inside.interval_counts({"x": edges})["x"][1]
    assert_array_equal(inside.interval_counts({"x": edges})["x"][1], counts, strict=True)
    axis = inside.numeric_axis(f, edges)  # a feature read from every row, taken at the rows kept
    assert_array_equal(axis.occupied, engine_inside.numeric_axis(e, edges, counts > 0).occupied, strict=True)
    assert_array_equal(axis.counts(inside.frame), counts)
    cat, engine_cat = inside.feature("cat", "cat"), engine_inside.feature("cat", "cat")
    assert cat.levels == engine_cat.levels
    every_row = frame.feature("cat", "cat")  # levels in their given order: a row's rank is its code
    ranks = inside.level_axis(every_row, np.arange(len(every_row.levels))).ranks(inside.frame)
    assert_array_equal(ranks, every_row.codes[(x >= low) & (x <= high)])


@pytest.mark.parametrize("name", ["cat", "s"])
def test_levels_in_order_of_first_appearance_agree(sizes, name):
    frame, engine = _both(sizes, weighted=False)
    f, e = frame.feature(name, name), engine.feature(name, name)
    got = frame.level_appearance(f)
    assert_array_equal(got, engine.level_appearance(e), strict=True)
    first_values = list(dict.fromkeys(_frame()[name].astype(object)))
    assert [f.levels[i] for i in got] == first_values


def test_pd_layout_has_the_rows_dtypes(sizes):
    frame, engine = _both(sizes, weighted=False)
    features = [frame.feature(n, n) for n in ["x", "ties", "cat"]]
    got, expected = frame.layout(features), engine.layout(features)
    for f in features:
        assert got[f.name].dtype == expected[f.name].dtype
