"""The search for regions on a Dask, Spark or polars lazy frame: every score a reduction over blocks.

A region's heterogeneity (:mod:`.criterion`) and its curve (:mod:`.curves`)
need, per interval of the feature's grid, three numbers over the region's
rows: the sum of their weights, the mean and the sum of squared deviations
(``M2``) of their slopes (and of their changes, for the curve).  Each block
computes them for every region asked about (two passes over its own rows),
and blocks are merged with Chan, Golub and LeVeque's pairwise update, which
keeps ``M2`` as accurate as a two-pass sum over all rows: a homogeneous
region scores about 1e-16 of its slope, as in memory, not the 1e-8 of a
one-pass ``sum(x^2) - n mean^2``.

A region is known by its path of conditions (:class:`RowSet`), evaluated on
each block.  The search (:mod:`.search`) asks for a region's size and score;
a region not yet known starts one pass over the blocks that measures its
parent and every candidate child of that parent at once (the model is called
on each block's rows: two predictions per row, as for one ALE), so a
node-wise tree of depth 2 costs three passes, and every region of the tree
(root, children, leaves) has its numbers by the end: the curves need no
further pass.
"""

from __future__ import annotations

import functools

import numpy as np

from .._core import accumulate
from .._engines.columns import numeric_values
from .candidates import Split, infinite_values, missing_values, numeric_levels, split_conditions, unsplittable
from .criterion import UNDEFINED, fill_undefined
from .curves import RegionCurve, _fill_empty
from .local import finite_differences

__all__ = ["RowSet", "moments_block", "combine_moments", "EngineMoments", "feature_moments", "engine_splits"]


class RowSet:
    """A region on an engine: its path of conditions (no row mask: the rows stay where they live)."""

    __slots__ = ("conditions",)

    def __init__(self, conditions: tuple = ()):
        self.conditions = tuple(conditions)

    def __and__(self, other: "RowSet") -> "RowSet":
        return RowSet(self.conditions + other.conditions)

    def rows(self, block, known: dict) -> np.ndarray:
        """Which rows of a pandas block are in the region (``known``: the block's masks per condition)."""
        inside = np.ones(block.shape[0], dtype=bool)
        for condition in self.conditions:
            if condition not in known:
                known[condition] = condition.contains(block)
            inside &= known[condition]
        return inside


def _moments(bins: np.ndarray, values: np.ndarray, weights: np.ndarray, k: int) -> np.ndarray:
    """``(3, k)``: weight, mean (0 where empty) and M2 of the values per interval (two passes)."""
    weight = np.bincount(bins, weights, minlength=k)
    total = np.bincount(bins, values * weights, minlength=k)
    mean = np.divide(total, weight, out=np.zeros(k), where=weight > 0)
    m2 = np.bincount(bins, (values - mean[bins]) ** 2 * weights, minlength=k)
    return np.stack([weight, mean, m2])


def moments_block(block, offset, *, plan, caller, weight_column, groups, widths, rows_per_call, check_outputs):
    """Per group (a :class:`RowSet`): ``(2, 3, K)`` moments of slopes and changes over the block's rows."""
    k = widths.shape[0]
    out = np.zeros((len(groups), 2, 3, k))
    if weight_column is not None:
        weights = block[weight_column].to_numpy(dtype=float)
        block = block.drop(columns=[weight_column])
    else:
        weights = np.ones(block.shape[0])
    if block.shape[0] == 0:
        return out
    _, bins, differences = finite_differences(plan, block, caller, rows_per_call=rows_per_call)
    check_outputs(differences, caller)
    differences = differences[:, 0]
    slopes = differences / widths[bins]
    known: dict = {}
    for g, group in enumerate(groups):
        inside = group.rows(block, known)
        b, w = bins[inside], weights[inside]
        out[g, 0] = _moments(b, slopes[inside], w, k)
        out[g, 1] = _moments(b, differences[inside], w, k)
    return out


def combine_moments(a: np.ndarray | None, b: np.ndarray | None) -> np.ndarray | None:
    """Two blocks' moments merged (Chan et al.'s update; ``[..., 0, :]`` weight, ``1`` mean, ``2`` M2)."""
    if a is None or b is None:
        return b if a is None else a
    wa, ma, qa = a[..., 0, :], a[..., 1, :], a[..., 2, :]
    wb, mb, qb = b[..., 0, :], b[..., 1, :], b[..., 2, :]
    weight = wa + wb
    both = (wa > 0) & (wb > 0)
    safe = np.where(both, weight, 1.0)
    delta = mb - ma
    mean = np.where(both, ma + delta * (wb / safe), np.where(wa > 0, ma, mb))
    m2 = qa + qb + np.where(both, delta * delta * (wa * wb / safe), 0.0)
    return np.stack([weight, mean, m2], axis=-2)


def _feature_block(block, offset, *, name, weight_column):
    values = block[name].to_numpy(dtype=float)
    weights = np.ones(values.shape[0]) if weight_column is None else block[weight_column].to_numpy(dtype=float)
    return _moments(np.zeros(values.shape[0], dtype=np.int64), values, weights, 1)


def feature_moments(rows, name, weight_column) -> float:
    """Standard deviation of the feature over all rows (divisor: the sum of the weights), in one pass."""
    columns = [name] + ([] if weight_column is None else [weight_column])
    found = rows.map_reduce(functools.partial(_feature_block, name=name, weight_column=weight_column),
                            combine_moments, columns=columns)
    return float(np.sqrt(found[2, 0] / found[0, 0]))


class EngineMoments:
    """Every region's moments, measured on demand one pass at a time (see the module docstring)."""

    def __init__(self, rows, plan, caller, *, weight_column, conditions, widths, rows_per_call, check_outputs):
        self.rows, self.plan, self.caller = rows, plan, caller
        self.weight_column, self.conditions, self.widths = weight_column, conditions, widths
        self.rows_per_call, self.check_outputs = rows_per_call, check_outputs
        self.known: dict = {}
        self.passes = 0

    def __call__(self, region: RowSet) -> np.ndarray:
        """``(2, 3, K)``: the region's moments of slopes and changes."""
        key = region.conditions
        if key not in self.known:
            parent = RowSet(key[:-1])
            groups = [parent] + [parent & RowSet((c,)) for c in self.conditions]
            if key not in {g.conditions for g in groups}:
                groups.append(region)
            found = self.rows.map_reduce(functools.partial(
                moments_block, plan=self.plan, caller=self.caller, weight_column=self.weight_column, groups=groups,
                widths=self.widths, rows_per_call=self.rows_per_call, check_outputs=self.check_outputs),
                combine_moments)
            self.passes += 1
            if found is None:
                found = np.zeros((len(groups), 2, 3, self.widths.shape[0]))
            for group, moments in zip(groups, found):
                self.known[group.conditions] = moments
        return self.known[key]

    def size(self, region: RowSet) -> float:
        return float(self(region)[0, 0].sum())

    def score(self, region: RowSet, scale: float) -> float:
        """The criterion (:func:`.criterion.heterogeneity`) from the moments of the region's slopes."""
        weight, _, m2 = self(region)[0]
        variance = np.divide(m2, weight, out=np.full(weight.shape[0], np.nan), where=weight > 1)
        variance = fill_undefined(variance)
        if variance is None:
            return UNDEFINED
        return float(np.sqrt(np.sum(weight * variance) / np.sum(weight))) * scale

    def curve(self, region: RowSet) -> RegionCurve:
        """The region's curve (:func:`.curves.region_curve` without replicates) from its changes' moments."""
        weight, mean, m2 = self(region)[1]
        means = np.where(weight > 0, mean, np.nan)[:, None]
        means = _fill_empty(means, weight, self.widths)
        effects = accumulate.numeric_centre(accumulate.main_curve(means), weight)
        local_sd = np.sqrt(accumulate.local_means(m2[:, None], weight))
        return RegionCurve(effects, weight, local_sd, weight == 0)


def _distinct_block(block, offset, *, names, limit):
    out = {}
    for name in names:
        values = np.unique(numeric_values(block[name]))
        out[name] = values if values.shape[0] <= limit else None
    return out


def _distinct_combine(a, b, *, limit):
    out = {}
    for name in a:
        both = None if a[name] is None or b[name] is None else np.union1d(a[name], b[name])
        out[name] = both if both is not None and both.shape[0] <= limit else None
    return out


def engine_splits(data, names: list, *, level_limit: int, n_positions: int, caller: str) -> list[Split]:
    """The candidate splits of the conditioning columns, as :func:`.candidates.read_conditioning` and
    :func:`.candidates.candidate_splits` make them in memory, from the engine's column checks (and one pass for
    the distinct values of numeric and bool columns)."""
    checks = data.checks(names)
    for name in names:
        check = checks[name]
        if check.kind in ("datetime", "other"):
            raise unsplittable(name, check.dtype, caller)
        if check.n_missing:
            raise missing_values(name, check.n_missing, caller)
        if check.kind == "numeric" and (check.n_negative_infinite or check.n_positive_infinite):
            raise infinite_values(name, caller)
    counted = [n for n in names if checks[n].kind in ("numeric", "bool")]
    distinct = {}
    if counted:
        distinct = data.rows.map_reduce(functools.partial(_distinct_block, names=counted, limit=level_limit),
                                        functools.partial(_distinct_combine, limit=level_limit), columns=counted)
    splits = []
    for name in names:
        check = checks[name]
        if check.kind == "bool":
            pairs = split_conditions(name, levels=tuple(bool(v) for v in distinct[name]))
        elif check.kind == "numeric":
            levels = None if distinct[name] is None else numeric_levels(distinct[name], check.dtype, level_limit)
            pairs = (split_conditions(name, levels=levels) if levels is not None else
                     split_conditions(name, low=check.minimum, high=check.maximum, n_positions=n_positions))
        else:
            counts = check.category_counts
            levels = tuple(c for i, c in enumerate(check.categories) if counts is None or counts[i] > 0)
            pairs = split_conditions(name, levels=levels)
        splits.extend(Split(pair, (RowSet(pair[:1]), RowSet(pair[1:]))) for pair in pairs)
    return splits
