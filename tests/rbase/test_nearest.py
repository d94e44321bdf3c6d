"""pyale._rbase.nearest: yaImpute::ann(k = 1) nearest-neighbour indices, ties included."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from pyale._rbase.nearest import nearest_reference, replay_nearest

FIXTURE = Path(__file__).resolve().parents[2] / "reference" / "nearest" / "ann_ties.json"


def _brute(reference, query):
    """Squared distances summed in coordinate order, as ANN sums them."""
    dist = np.zeros((len(query), len(reference)))
    for d in range(reference.shape[1]):
        dist = dist + (query[:, d, None] - reference[None, :, d]) ** 2
    return dist


# Hand-made ties.  The expected answers follow from ANN's sliding-midpoint
# kd-tree (one point per leaf) and its k = 1 search:
#   * the root box is the bounding box of the points; a node cuts its longest
#     side (first dimension on equal spread) at the midpoint, slid onto the
#     nearest point when the midpoint falls outside the points;
#   * the search enters the child on the query's side first, a query on the
#     cutting plane going to the high side;
#   * a point replaces the best only when strictly closer, so the first of
#     equally near points reached wins.
HAND_CASES = [
    # Root cut x = 1 separates (0,0) | (2,0).  The query lies on the plane, so
    # the high side, holding (2,0), is searched first and keeps the tie,
    # whatever the row order.
    ([[0, 0], [2, 0]], [[1, 0]], [1]),
    ([[2, 0], [0, 0]], [[1, 0]], [0]),
    # Root cut x = 2: {(0,0), (1,0)} | {(4,0)}.  The query at x = 2.5 is on
    # the high side, finds (4,0) at 2.25 first, and (1,0), also at 2.25, does
    # not replace it although its row comes first.
    ([[0, 0], [1, 0], [4, 0]], [[2.5, 0]], [2]),
    # Square box: both sides are longest with equal spread, so x is cut at 1.
    # Both queries are equally near (0,0) and (2,2); the side of x = 1 they
    # lie on decides, not the row order.
    ([[0, 0], [2, 2]], [[0.75, 1.25], [1.25, 0.75]], [0, 1]),
    ([[2, 2], [0, 0]], [[0.75, 1.25], [1.25, 0.75]], [1, 0]),
    # Duplicate points: the cut is at their common x = 1 and they are split
    # one per side in row order, so a query left of x = 1 gets row 0 and a
    # query right of or on the plane gets row 1.
    ([[1, 1], [1, 1]], [[0, 0], [2, 2], [1, 5]], [0, 1, 1]),
]


@pytest.mark.parametrize(("reference", "query", "expected"), HAND_CASES)
def test_hand_made_ties(reference, query, expected):
    reference = np.array(reference, dtype=float)
    query = np.array(query, dtype=float)
    got = nearest_reference(reference, query)
    assert got.tolist() == expected
    dist = _brute(reference, query)
    assert np.array_equal(dist[np.arange(len(query)), got], dist.min(axis=1))


def test_single_reference_and_shapes():
    got = nearest_reference(np.array([[0.3, 0.7]]), np.array([[0.0, 0.0], [1.0, 1.0]]))
    assert got.tolist() == [0, 0]
    assert got.dtype == np.intp
    assert nearest_reference(np.array([[0.0, 1.0]]), np.empty((0, 2))).shape == (0,)
    with pytest.raises(ValueError):
        nearest_reference(np.zeros((3, 2)), np.zeros((2, 3)))
    with pytest.raises(ValueError):
        nearest_reference(np.empty((0, 2)), np.zeros((2, 2)))


def test_always_a_nearest_point():
    rng = np.random.default_rng(7)
    for _ in range(50):
        reference, query = _grid_case(rng)
        got = nearest_reference(reference, query)
        dist = _brute(reference, query)
        assert np.array_equal(dist[np.arange(len(query)), got], dist.min(axis=1))


def test_fixture_matches_r():
    data = json.loads(FIXTURE.read_text())
    assert data["meta"]["generator"] == "scripts/make_nearest_fixture.py"
    neither_end = 0
    for case in data["cases"]:
        reference = np.array(case["ref"], dtype=float)
        query = np.array(case["target"], dtype=float)
        expected = np.array(case["ann_index"]) - 1
        assert np.array_equal(nearest_reference(reference, query), expected), case["shape"]
        neither_end += _count_neither_end(reference, query, expected)
    # The fixture must exercise ties that neither "lowest row" nor "highest
    # row" would resolve as ANN does.
    assert neither_end >= 5


def _count_neither_end(reference, query, chosen):
    dist = _brute(reference, query)
    low = dist.argmin(axis=1)
    high = len(reference) - 1 - dist[:, ::-1].argmin(axis=1)
    return int(np.sum((chosen != low) & (chosen != high)))


def _axis(rng, size):
    kind = rng.integers(3)
    if kind == 0:  # equal-width ALE intervals: (i - 0.5) / K
        return (np.arange(1, size + 1) - 0.5) / size
    if kind == 1:  # unequal widths: mid-points of random edges over their range
        edges = np.sort(rng.uniform(-2.0, 7.0, size + 1))
        if rng.random() < 0.5:  # some repeated widths make exact ties likelier
            edges = np.cumsum(rng.choice([0.5, 1.0, 2.0], size + 1))
        return (edges[:-1] + edges[1:]) / 2 / (edges[-1] - edges[0])
    return np.arange(size) / max(size - 1, 1)  # factor levels: index / (K - 1)


def _grid_case(rng, max_cells=16, dims=2):
    """A random split of a grid of cells into non-empty (reference) and empty (query)."""
    while True:
        axes = [_axis(rng, int(rng.integers(1, max_cells + 1))) for _ in range(dims)]
        mesh = np.meshgrid(*axes, indexing="ij")
        # Column-major cell order, as R's which(arr.ind = TRUE).
        cells = np.column_stack([m.ravel(order="F") for m in mesh])
        empty = rng.random(len(cells)) < rng.uniform(0.05, 0.95)
        if empty.any() and not empty.all():
            return cells[~empty], cells[empty]


def _r_ann(R, reference, query):
    ro = R.ro

    def matrix(a):
        return ro.r.matrix(ro.FloatVector(a.ravel(order="F")), nrow=a.shape[0])

    ann = R("function(ref, target) yaImpute::ann(ref, target, k = 1, verbose = FALSE)$knnIndexDist[, 1]")
    return np.asarray(ann(matrix(reference), matrix(query)), dtype=float).astype(int) - 1


@pytest.mark.r
@pytest.mark.parametrize("seed", range(8))
def test_random_grids_match_live_r(R, seed):
    R.require("yaImpute")
    rng = np.random.default_rng(seed)
    neither_end = 0
    for _ in range(60):
        reference, query = _grid_case(rng)
        expected = _r_ann(R, reference, query)
        assert np.array_equal(nearest_reference(reference, query), expected)
        neither_end += _count_neither_end(reference, query, expected)
    assert neither_end > 0


@pytest.mark.r
def test_higher_dimensions_and_points_off_the_grid_match_live_r(R):
    R.require("yaImpute")
    rng = np.random.default_rng(2025)
    for i in range(60):
        reference, query = _grid_case(rng, max_cells=6, dims=3)
        if i % 3 == 0:  # queries between and beyond grid points, still tie-prone
            query = np.round(rng.uniform(-0.5, 1.5, (25, 3)) * 8) / 8
        assert np.array_equal(nearest_reference(reference, query), _r_ann(R, reference, query))


# --- The fast path (distance gap + bounded replay) against the plain replay -------------------


def _configurations(rng, count):
    """Grid-like and random configurations, tie-heavy ones included."""
    for i in range(count):
        dims = 3 if i % 5 == 0 else 2
        reference, query = _grid_case(rng, max_cells=int(rng.integers(2, 30)), dims=dims)
        if i % 7 == 0:  # queries between and beyond grid points
            query = np.round(rng.uniform(-0.5, 1.5, (40, dims)) * 8) / 8
        if i % 11 == 0:  # duplicated reference points: exact ties ANN breaks by its tree
            reference = np.vstack([reference, reference[: max(1, len(reference) // 3)]])
        if i % 13 == 0:  # squares underflow to subnormals and zero
            reference, query = reference * 1e-160, query * 1e-160
        if i % 17 == 0:  # large offsets: few significant bits left for the differences
            reference, query = reference + 1e6, query + 1e6
        if i % 19 == 0:  # continuous, no ties
            reference, query = rng.normal(size=(60, dims)), rng.normal(size=(80, dims))
        yield reference, query


def test_fast_path_equals_the_full_replay():
    rng = np.random.default_rng(11)
    for reference, query in _configurations(rng, 400):
        assert np.array_equal(nearest_reference(reference, query), replay_nearest(reference, query))


def test_fast_path_replays_only_the_undecided_queries(monkeypatch):
    """On a tie-heavy grid some queries need the bounded replay; on continuous data none do."""
    import pyale._rbase.nearest as nearest

    calls = []
    original = nearest._KdTree.nearest

    def counting(self, q, bound=float("inf")):
        calls.append(bound)
        return original(self, q, bound)

    monkeypatch.setattr(nearest._KdTree, "nearest", counting)
    axis = (np.arange(30) + 0.5) / 30
    cells = np.array([(a, b) for b in axis for a in axis])
    filled = np.random.default_rng(0).random(len(cells)) < 0.1
    got = nearest_reference(cells[filled], cells[~filled])
    assert 0 < len(calls) < (~filled).sum()
    assert all(np.isfinite(calls))  # started from a bound, not from infinity
    assert np.array_equal(got, replay_nearest(cells[filled], cells[~filled]))
    calls.clear()
    rng = np.random.default_rng(1)
    nearest_reference(rng.normal(size=(500, 2)), rng.normal(size=(2000, 2)))
    assert calls == []


def test_rejects_non_finite_points():
    with pytest.raises(ValueError, match="finite"):
        nearest_reference(np.array([[0.0, np.nan]]), np.zeros((1, 2)))
    with pytest.raises(ValueError, match="finite"):
        nearest_reference(np.zeros((2, 2)), np.array([[np.inf, 0.0]]))


@settings(max_examples=200, deadline=None, database=None)
@given(
    st.integers(1, 9), st.integers(1, 9), st.integers(0, 2 ** 32 - 1),
    st.sampled_from(["even", "level", "integer", "dyadic"]),
)
def test_fast_path_property_on_small_grids(n1, n2, seed, kind):
    assume(n1 * n2 >= 2)
    rng = np.random.default_rng(seed)
    axes = []
    for size in (n1, n2):
        if kind == "even":
            axes.append((np.arange(size) + 0.5) / size)
        elif kind == "level":
            axes.append(np.arange(1, size + 1) / size)
        elif kind == "integer":
            axes.append(np.arange(size, dtype=float))
        else:
            axes.append(np.arange(size) / 8)
    cells = np.array([(a, b) for b in axes[1] for a in axes[0]])
    empty = rng.random(len(cells)) < rng.uniform(0.1, 0.9)
    empty[0], empty[-1] = True, False
    reference, query = cells[~empty], cells[empty]
    assert np.array_equal(nearest_reference(reference, query), replay_nearest(reference, query))


def test_a_fine_pair_grid_is_fast():
    """1,000 x 1,000 cells, 20,000 rows along a diagonal band: about 1 s of CPU (the replay: 15 s)."""
    import time

    rng = np.random.default_rng(0)
    x = rng.normal(size=20_000)
    y = x + 0.3 * rng.normal(size=20_000)
    edges = [np.quantile(v, np.linspace(0, 1, 1001)) for v in (x, y)]
    bins = [np.clip(np.searchsorted(e, v) - 1, 0, 999) for e, v in zip(edges, (x, y))]
    filled = np.zeros((1000, 1000), dtype=bool)
    filled[bins[0], bins[1]] = True
    mids = [(e[:-1] + e[1:]) / 2 / (e[-1] - e[0]) for e in edges]
    fj, fi = np.nonzero(filled.T)
    ej, ei = np.nonzero(~filled.T)
    reference = np.column_stack([mids[0][fi], mids[1][fj]])
    query = np.column_stack([mids[0][ei], mids[1][ej]])
    start = time.process_time()
    got = nearest_reference(reference, query)
    assert time.process_time() - start < 5
    sample = rng.choice(len(query), 3000, replace=False)
    assert np.array_equal(got[sample], replay_nearest(reference, query[sample]))


@pytest.mark.r
@pytest.mark.parametrize("seed", range(4))
def test_larger_tie_heavy_grids_match_live_r(R, seed):
    """The fast path against R on grids of up to 60 x 60 cells with regular axes (many ties)."""
    R.require("yaImpute")
    rng = np.random.default_rng(100 + seed)
    for _ in range(6):
        n1, n2 = (int(v) for v in rng.integers(20, 61, size=2))
        kinds = rng.choice(["even", "level", "uneven"], size=2)
        axes = [
            (np.arange(size) + 0.5) / size if kind == "even"
            else np.arange(1, size + 1) / size if kind == "level"
            else np.cumsum(rng.choice([0.5, 1.0, 2.0], size)) / 10
            for size, kind in zip((n1, n2), kinds)
        ]
        cells = np.array([(a, b) for b in axes[1] for a in axes[0]])
        empty = rng.random(len(cells)) < rng.uniform(0.5, 0.97)
        reference, query = cells[~empty], cells[empty]
        assert np.array_equal(nearest_reference(reference, query), _r_ann(R, reference, query))
