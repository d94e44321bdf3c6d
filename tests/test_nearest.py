"""pyale._rbase.nearest: yaImpute::ann(k = 1) nearest-neighbour indices, ties included."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from pyale._rbase.nearest import nearest_reference

FIXTURE = Path(__file__).resolve().parents[1] / "reference" / "nearest" / "ann_ties.json"


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
