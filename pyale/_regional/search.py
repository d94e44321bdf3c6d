"""The search for regions: a tree of binary splits that lowers the heterogeneity of a feature's local effects.

Ports the two region finders of effector 0.6.0 (``space_partitioning.Best``,
its default, and ``BestLevelWise``) with their rules:

* a child with fewer than ``min_samples_leaf`` rows (or with no
  heterogeneity: no interval holding two of its rows) may not be chosen;
* among the candidates whose children may all be chosen, the best split
  minimises the children's heterogeneities averaged with weights
  ``(n_child + 1) / sum(n + 1)`` (effector's smoothed weights); the first
  listed wins a tie;
* a split is kept when it lowers the parent's heterogeneity by at least the
  fraction ``min_decrease``, measured with weights ``n_child / n_parent``;
* a node is not split at depth ``max_depth``, with fewer than
  ``min_samples_leaf`` rows, or with a heterogeneity below
  ``min_heterogeneity``.

``"node"`` (effector's ``Best``) splits each node by its own best split,
depth first (a node's children are numbered before the grandchildren of its
first child: pre-order).  ``"level"`` (``BestLevelWise``) finds one split per
level for all nodes of that level at once, and keeps the levels up to the
first one that lowers the level's heterogeneity by less than
``min_decrease`` (strictly more is required there, as effector does), or
that starts from a heterogeneity at or below ``min_heterogeneity``; it
searches at most as many levels as there are conditioning columns.

Where effector scores a refused child with a large constant (1e8), pyale
refuses the candidate outright: the same choice for every model whose
heterogeneity is below 1e8, and the right one above it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

__all__ = ["SearchRules", "Node", "grow_nodewise", "grow_levelwise"]


@dataclass(frozen=True)
class SearchRules:
    """The stopping and acceptance rules (effector's names in brackets)."""

    max_depth: int = 2  # max_depth
    min_samples_leaf: float = 10  # min_samples_leaf
    min_decrease: float = 0.05  # min_heterogeneity_decrease_pcg
    min_heterogeneity: float = 0.03  # heter_small_enough


@dataclass(frozen=True)
class Node:
    """One region of the tree: its rows, path of conditions, heterogeneity and place in the tree."""

    index: int
    parent: int | None
    depth: int
    conditions: tuple
    mask: np.ndarray
    size: float
    heterogeneity: float


@dataclass(frozen=True)
class _Scored:
    split: object
    masks: list
    sizes: np.ndarray
    scores: np.ndarray
    smoothed: float


def _score_split(split, parents: list, score: Callable, size: Callable, rules: SearchRules) -> _Scored | None:
    """The split applied to every parent mask; None when one of its children may not be chosen."""
    masks = [parent & side for parent in parents for side in split.masks]
    sizes = np.array([size(m) for m in masks])
    if (sizes < rules.min_samples_leaf).any():
        return None
    scores = np.array([score(m) for m in masks])
    if not np.isfinite(scores).all():
        return None
    weights = (sizes + 1) / np.sum(sizes + 1)
    return _Scored(split, masks, sizes, scores, float(np.sum(weights * scores)))


def best_split(candidates: list, parents: list, score: Callable, size: Callable, rules: SearchRules):
    """The candidate with the lowest smoothed heterogeneity of its children (the first on ties), or None."""
    best = None
    for split in candidates:
        scored = _score_split(split, parents, score, size, rules)
        if scored is not None and (best is None or scored.smoothed < best.smoothed):
            best = scored
    return best


def _root(rows):
    """All rows: a mask of ``rows`` rows, or ``rows`` itself when it is a region (an engine's ``RowSet``)."""
    return np.ones(rows, dtype=bool) if isinstance(rows, (int, np.integer)) else rows


def grow_nodewise(candidates: list, rows, score: Callable, size: Callable, rules: SearchRules) -> list:
    """effector's ``Best``: each node split by its own best split, depth first.

    ``rows``: the number of rows (regions are boolean masks), or the root
    region of an engine (regions are combined with ``&``, as masks are).
    """
    root = _root(rows)
    nodes = [Node(0, None, 0, (), root, size(root), score(root))]

    def grow(node: Node) -> None:
        if node.depth >= rules.max_depth or node.size < rules.min_samples_leaf:
            return
        if not node.heterogeneity >= rules.min_heterogeneity or not np.isfinite(node.heterogeneity):
            return
        found = best_split(candidates, [node.mask], score, size, rules)
        if found is None:
            return
        after = float(np.sum(found.sizes / np.sum(found.sizes) * found.scores))
        if (node.heterogeneity - after) / node.heterogeneity < rules.min_decrease:
            return
        for condition, mask, child_size, child_score in zip(found.split.conditions, found.masks, found.sizes,
                                                            found.scores):
            child = Node(len(nodes), node.index, node.depth + 1, node.conditions + (condition,), mask,
                         float(child_size), float(child_score))
            nodes.append(child)
            grow(child)

    grow(nodes[0])
    return nodes


def grow_levelwise(candidates: list, rows, n_columns: int, score: Callable, size: Callable,
                   rules: SearchRules) -> list:
    """effector's ``BestLevelWise``: one split per level for every node of the level (``rows``: as above)."""
    root = _root(rows)
    root_score = score(root)
    nodes = [Node(0, None, 0, (), root, size(root), root_score)]
    levels = []  # per level: the scored split over the previous level's nodes
    masks = [root]
    for _ in range(min(rules.max_depth, n_columns)):
        if any(size(m) < rules.min_samples_leaf for m in masks):
            break
        found = best_split(candidates, masks, score, size, rules)
        if found is None:
            break
        levels.append(found)
        masks = found.masks
    if not np.isfinite(root_score) or root_score <= rules.min_heterogeneity:
        return nodes
    previous = root_score
    kept = []
    for found in levels:
        if not previous > rules.min_heterogeneity:
            break
        if not (previous - found.smoothed) / previous > rules.min_decrease:
            break
        kept.append(found)
        previous = found.smoothed
    parents = [nodes[0]]
    for found in kept:
        k = len(found.split.conditions)
        level_nodes = []
        for j, (mask, child_size, child_score) in enumerate(zip(found.masks, found.sizes, found.scores)):
            parent = parents[j // k]
            node = Node(len(nodes), parent.index, parent.depth + 1,
                        parent.conditions + (found.split.conditions[j % k],), mask, float(child_size),
                        float(child_score))
            nodes.append(node)
            level_nodes.append(node)
        parents = level_nodes
    return nodes
