"""Nearest reference point exactly as ``yaImpute::ann(ref, target, k = 1)``.

ALEPlot 1.1 and iml 0.11.4 give each empty cell of a two-feature grid the
value of the nearest non-empty cell, found with ``yaImpute::ann`` under its
defaults: a kd-tree (``tree.type = "kd"``) built by the sliding-midpoint
rule with one point per leaf, searched with ``search.type = "standard"`` and
``eps = 0``.  Cell mid-points lie on a grid, so equal distances are the rule
rather than the exception, and which of the tied cells wins is decided by the
shape of ANN's tree.  This module rebuilds that tree and replays the search,
but only for the queries whose answer the tree can decide: the others are
answered at once from a fast exact search (see :func:`nearest_reference`).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.spatial import cKDTree

__all__ = ["nearest_reference", "replay_nearest"]

# ANN's tolerance for "among the longest sides" in the sliding-midpoint rule.
_LONG_SIDE = 1 - 0.001
# Unit roundoff of float64 and the smallest subnormal.
_UNIT = 2.0 ** -53
_TINY = 2.0 ** -1074
# How far (relative) cKDTree's distances may be from exact: it computes the
# same sums of squares and is exact to a few units in the last place; this is
# a million times more.
_CKDTREE_SLACK = 1e-9
# Queries handed to cKDTree at a time (bounds the temporary arrays).
_BATCH = 1 << 17
# Nearest points fetched per query at most while looking for a gap in the
# distances (2, 8, 32, 128); beyond, ANN's search is replayed from infinity.
_MOST_CANDIDATES = 128


def nearest_reference(reference: np.ndarray, query: np.ndarray) -> np.ndarray:
    """Index of the nearest reference row for each query row, ties as yaImpute.

    Mirrors ``yaImpute::ann(reference, query, k = 1)$knnIndexDist[, 1] - 1``
    with the package defaults (kd tree, ``split.rule = "sl_midpt"``,
    ``bucket.size = 1``, standard search, ``eps = 0``).

    Distances are squared Euclidean, summed in double precision over the
    coordinates in column order, as ANN sums them.

    Tie rule: the search walks the kd-tree depth first, always entering the
    child on the query's side of the cutting plane first (a query lying
    exactly on the plane counts as being on the high side).  A point replaces
    the current best only when it is strictly closer, so among equally near
    points the first one this walk reaches wins.  The far child of a node is
    entered only when its lower-bound box distance (updated incrementally, in
    floating point, as ANN does) is strictly below the best distance so far.
    Which tied point comes first therefore depends on the tree: it is neither
    the lowest nor the highest row index in general, so the tree is rebuilt
    with ANN's splitting rule and point permutations.

    How it is fast and still exact: ANN's floating-point box distance of a
    node exceeds the exact distance from the query to the node's box by at
    most ``E(d) = d * (16 m + 4 k + 32) u + (8 m + 8 k) * 2**-1074`` for any
    point of the node at (ANN's) distance ``d`` (``u = 2**-53``; ``m``
    reference points in ``k`` dimensions, hence at most ``m - 1`` incremental
    updates along a path, each adding at most ``8 u`` times the box
    distance, after a root box distance within ``(k + 3) u`` of exact, while
    ``d`` itself is within ``(k + 3) u`` of the exact squared distance; twice
    that bound is used, which also covers the rounding of the gap test).  Call *R* the points
    nearer than some ``B`` with ``d < B - E(B)`` for every point of *R* and
    ``d >= B`` for every other point (a gap in the query's distances).
    Before ANN reaches a point of *R* its best distance is ``>= B`` while
    every node holding a point of *R* has a box distance ``< B``, so no such
    node is pruned and the first point of *R* in the depth-first order is
    reached; from then on the best distance is below ``B`` and no other point
    can replace it.  ANN's answer is therefore decided by *R* alone:

    * *R* is a single point (the nearest point is unique, with a gap to the
      second): that point, without any tree (almost every query of real
      data);
    * otherwise (ties and near-ties): the replay of ANN's search started with
      ``B`` as best distance, which visits only the nodes near the query and
      gives the same answer as the replay started from infinity.

    The two nearest points (more where the gap lies further out) come from
    :class:`scipy.spatial.cKDTree`; their distances are recomputed as ANN
    computes them, and the points cKDTree did not return are taken to lie at
    least its last distance (less a relative ``1e-9``) away.

    Parameters
    ----------
    reference : numpy.ndarray
        ``(m, d)`` finite candidate points, ``m >= 1``.
    query : numpy.ndarray
        ``(q, d)`` finite points to look up.

    Returns
    -------
    numpy.ndarray
        ``(q,)`` 0-based row indices into ``reference``.

    Examples
    --------
    The query sits halfway between both points and on the root's cutting
    plane, so the high side is searched first and its point is kept:

    >>> nearest_reference(np.array([[0.0, 0.0], [2.0, 0.0]]), np.array([[1.0, 0.0]]))
    array([1])
    """
    reference, query = _check_points(reference, query)
    m = reference.shape[0]
    answer = np.full(query.shape[0], -1, dtype=np.intp)
    bound = np.full(query.shape[0], math.inf)
    if m == 1:
        answer[:] = 0
        return answer
    search = cKDTree(reference, balanced_tree=False, compact_nodes=False)
    for start in range(0, query.shape[0], _BATCH):
        part = slice(start, min(query.shape[0], start + _BATCH))
        answer[part], bound[part] = _decided_by_distance(search, reference, query[part])
    undecided = np.flatnonzero(answer < 0)
    if undecided.shape[0]:
        tree = _KdTree(reference)
        rows = query[undecided].tolist()
        answer[undecided] = [tree.nearest(row, b) for row, b in zip(rows, bound[undecided].tolist())]
    return answer


def replay_nearest(reference: np.ndarray, query: np.ndarray) -> np.ndarray:
    """:func:`nearest_reference` by replaying ANN's whole search for every query.

    Slow (pure Python, one query at a time); kept as the plain statement of
    ANN's algorithm that the fast path is tested against.
    """
    reference, query = _check_points(reference, query)
    tree = _KdTree(reference)
    return np.array([tree.nearest(row) for row in query.tolist()], dtype=np.intp)


def _check_points(reference, query):
    reference = np.asarray(reference, dtype=np.float64)
    query = np.asarray(query, dtype=np.float64)
    if reference.ndim != 2 or query.ndim != 2 or reference.shape[1] != query.shape[1]:
        raise ValueError("reference and query must be 2-D arrays with the same number of columns")
    if reference.shape[0] == 0:
        raise ValueError("reference must hold at least one point")
    if not (np.isfinite(reference).all() and np.isfinite(query).all()):
        raise ValueError("reference and query must hold finite coordinates")
    return reference, query


def ann_distances(query: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Squared distances summed over coordinates in column order, as ANN sums them.

    ``query`` is ``(q, d)``; ``points`` is ``(q, k, d)``; returns ``(q, k)``.
    """
    dist = np.zeros(points.shape[:2])
    for d in range(points.shape[2]):
        t = query[:, None, d] - points[:, :, d]
        dist = dist + t * t
    return dist


def _margin(dist: np.ndarray, m: int, dims: int) -> np.ndarray:
    """``E(d)``: how far ANN's box distance may exceed a point's distance ``d``."""
    return dist * ((16 * m + 4 * dims + 32) * _UNIT) + (8 * m + 8 * dims) * _TINY


def _decided_by_distance(search: cKDTree, reference: np.ndarray, query: np.ndarray):
    """Answers decided by distances alone, and the bound ``B`` for the others.

    Returns ``(answer, bound)``: ``answer`` is the index where the nearest
    point is unique with a gap, else -1; ``bound`` is then ``B`` (see
    :func:`nearest_reference`), infinite when no gap was found.
    """
    m, dims = reference.shape
    answer = np.full(query.shape[0], -1, dtype=np.intp)
    bound = np.full(query.shape[0], math.inf)
    # The common case first, lean: the two nearest points, a gap between them.
    found, index = search.query(query, k=2, workers=-1)
    first = ann_distances(query, reference[index[:, 0]][:, None, :])[:, 0]
    second = ann_distances(query, reference[index[:, 1]][:, None, :])[:, 0]
    nearer = np.where(second < first, index[:, 1], index[:, 0])
    low = np.minimum(first, second)
    high = np.maximum(first, second)
    if m > 2:
        np.minimum(high, found[:, 1] ** 2 * (1 - _CKDTREE_SLACK), out=high)
    single = high - low > _margin(high, m, dims)
    answer[single] = nearer[single]
    pending = np.flatnonzero(~single)
    k = 2
    while pending.shape[0]:
        k = min(k, m)
        found, index = search.query(query[pending], k=k, workers=-1)
        dist = ann_distances(query[pending], reference[index])
        order = np.argsort(dist, axis=1, kind="stable")
        dist = np.take_along_axis(dist, order, axis=1)
        index = np.take_along_axis(index, order, axis=1)
        if k == m:  # every point returned: nothing lies beyond
            beyond = np.full(pending.shape[0], math.inf)
        else:
            beyond = found[:, -1] ** 2 * (1 - _CKDTREE_SLACK)
        # Distances, with everything at or beyond ``beyond`` counted as ``beyond``.
        steps = np.minimum(np.column_stack([dist, beyond]), beyond[:, None])
        gap = steps[:, 1:] - steps[:, :-1] > _margin(steps[:, 1:], m, dims)
        gap[:, -1] |= np.isinf(steps[:, -1]) & np.isfinite(steps[:, -2])
        has_gap = gap.any(axis=1)
        first = gap.argmax(axis=1)
        single = has_gap & (first == 0)
        answer[pending[single]] = index[single, 0]
        several = has_gap & (first > 0)
        bound[pending[several]] = steps[several, first[several] + 1]
        pending = pending[~has_gap]
        if k >= min(m, _MOST_CANDIDATES):  # no gap among many equally near points: replay from infinity
            break
        k *= 4
    return answer, bound


class _KdTree:
    """ANN's kd-tree with sliding-midpoint splits and buckets of one point.

    Nodes are stored in parallel lists; a leaf has ``point[node] >= 0`` and a
    splitting node ``point[node] == -1``.
    """

    def __init__(self, points: np.ndarray):
        self.points = points.tolist()
        self.columns = points.T.tolist()
        self.dim = points.shape[1]
        self.box_lo = points.min(axis=0).tolist()
        self.box_hi = points.max(axis=0).tolist()
        self.point: list[int] = []
        self.cut_dim: list[int] = []
        self.cut_val: list[float] = []
        self.side_lo: list[float] = []
        self.side_hi: list[float] = []
        self.child_lo: list[int] = []
        self.child_hi: list[int] = []
        self._build(list(range(points.shape[0])))

    def _new_node(self) -> int:
        for store, blank in (
            (self.point, -1), (self.cut_dim, 0), (self.cut_val, 0.0), (self.side_lo, 0.0),
            (self.side_hi, 0.0), (self.child_lo, -1), (self.child_hi, -1),
        ):
            store.append(blank)
        return len(self.point) - 1

    def _build(self, order: list[int]) -> None:
        # Subtrees own disjoint slices of ``order``, so building them in any
        # sequence gives the permutation a depth-first build would give.
        root = self._new_node()
        pending = [(root, 0, len(order), list(self.box_lo), list(self.box_hi))]
        while pending:
            node, start, stop, lo, hi = pending.pop()
            count = stop - start
            if count == 1:
                self.point[node] = order[start]
                continue
            dim, cut, n_lo = self._split(order, start, count, lo, hi)
            self.cut_dim[node] = dim
            self.cut_val[node] = cut
            self.side_lo[node] = lo[dim]
            self.side_hi[node] = hi[dim]
            left, right = self._new_node(), self._new_node()
            self.child_lo[node] = left
            self.child_hi[node] = right
            left_hi = list(hi)
            left_hi[dim] = cut
            right_lo = list(lo)
            right_lo[dim] = cut
            pending.append((right, start + n_lo, stop, right_lo, hi))
            pending.append((left, start, start + n_lo, lo, left_hi))

    def _split(self, order, start, count, lo, hi):
        """Sliding-midpoint cut of ``order[start:start + count]`` in place.

        Returns the cutting dimension, the cutting value and how many points
        (the first ones of the slice after partitioning) go to the low side.
        """
        longest = max(h - l for l, h in zip(lo, hi))
        dim, widest = 0, -1.0
        for d in range(self.dim):
            if hi[d] - lo[d] >= _LONG_SIDE * longest:
                values = [self.columns[d][i] for i in order[start:start + count]]
                spread = max(values) - min(values)
                if spread > widest:
                    dim, widest = d, spread
        column = self.columns[dim]
        values = [column[i] for i in order[start:start + count]]
        low, high = min(values), max(values)
        ideal = (lo[dim] + hi[dim]) / 2
        cut = min(max(ideal, low), high)
        below, through = _plane_split(order, start, count, column, cut)
        half = count // 2
        if ideal < low:
            n_lo = 1
        elif ideal > high:
            n_lo = count - 1
        elif below > half:
            n_lo = below
        elif through < half:
            n_lo = through
        else:
            n_lo = half
        return dim, cut, n_lo

    def nearest(self, q: list[float], bound: float = math.inf) -> int:
        """Replay ANN's standard k = 1 search for one query point.

        ``bound`` starts the search with that best distance instead of
        ANN's infinity (see :func:`nearest_reference` for when that gives
        ANN's answer); a point is then taken only when strictly nearer.
        """
        box = 0.0
        for d in range(self.dim):
            if q[d] < self.box_lo[d]:
                t = self.box_lo[d] - q[d]
                box = box + t * t
            elif q[d] > self.box_hi[d]:
                t = q[d] - self.box_hi[d]
                box = box + t * t
        best, best_index = bound, -1
        take_first = bound == math.inf  # ANN takes its first point whatever its distance
        # Entries are (node, box distance, visit only if still promising);
        # a far child is tested against the best distance once its near
        # sibling's subtree has been searched, as in the recursive search.
        stack = [(0, box, False)]
        while stack:
            node, box, conditional = stack.pop()
            if conditional and not box < best:
                continue
            index = self.point[node]
            if index >= 0:
                dist = 0.0
                for qd, pd in zip(q, self.points[index]):
                    t = qd - pd
                    dist = dist + t * t
                if dist < best or take_first and best_index < 0:
                    best, best_index = dist, index
                continue
            dim = self.cut_dim[node]
            cut_diff = q[dim] - self.cut_val[node]
            if cut_diff < 0:
                near, far = self.child_lo[node], self.child_hi[node]
                box_diff = self.side_lo[node] - q[dim]
            else:
                near, far = self.child_hi[node], self.child_lo[node]
                box_diff = q[dim] - self.side_hi[node]
            if box_diff < 0:
                box_diff = 0.0
            far_box = box + (cut_diff * cut_diff - box_diff * box_diff)
            stack.append((far, far_box, True))
            stack.append((near, box, False))
        return best_index


def _plane_split(order: list[int], start: int, count: int, column: list[float], cut: float):
    """Partition a slice of ``order`` into ``< cut``, ``== cut``, ``> cut`` in place.

    Uses ANN's two-pass swapping partition, so points equal to the cut end
    up in the same order as in ANN (this decides ties at the cutting plane).
    Returns the two break positions, relative to ``start``.
    """
    def value(k):
        return column[order[start + k]]

    def swap(a, b):
        order[start + a], order[start + b] = order[start + b], order[start + a]

    left, right = 0, count - 1
    while True:
        while left < count and value(left) < cut:
            left += 1
        while right >= 0 and value(right) >= cut:
            right -= 1
        if left > right:
            break
        swap(left, right)
        left += 1
        right -= 1
    below = left
    right = count - 1
    while True:
        while left < count and value(left) <= cut:
            left += 1
        while right >= below and value(right) > cut:
            right -= 1
        if left > right:
            break
        swap(left, right)
        left += 1
        right -= 1
    return below, left
