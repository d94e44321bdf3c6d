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
from .local import finite_differences, level_differences, level_predictions

__all__ = ["RowSet", "NumericMeasure", "LevelMeasure", "moments_block", "combine_moments", "EngineMoments",
           "feature_moments", "engine_splits"]


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


class NumericMeasure:
    """A numeric feature's numbers per region: ``(2, 3, K)`` moments of slopes (0) and changes (1) per interval."""

    def __init__(self, plan, caller, widths, *, rows_per_call, check_outputs):
        self.plan, self.caller, self.widths = plan, caller, widths
        self.rows_per_call, self.check_outputs = rows_per_call, check_outputs
        self.shape = (2, 3, widths.shape[0])

    def prepare(self, block):
        _, bins, differences = finite_differences(self.plan, block, self.caller, rows_per_call=self.rows_per_call)
        self.check_outputs(differences, self.caller)
        differences = differences[:, 0]
        return bins, differences / self.widths[bins], differences

    def group(self, prepared, inside, weights):
        bins, slopes, differences = prepared
        b, w, k = bins[inside], weights[inside], self.widths.shape[0]
        return np.stack([_moments(b, slopes[inside], w, k), _moments(b, differences[inside], w, k)])

    def size(self, moments) -> float:
        return float(moments[0, 0].sum())

    def score(self, moments, scale: float) -> float:
        """The criterion (:func:`.criterion.heterogeneity`) from the moments of the region's slopes."""
        weight, _, m2 = moments[0]
        variance = np.divide(m2, weight, out=np.full(weight.shape[0], np.nan), where=weight > 1)
        variance = fill_undefined(variance)
        if variance is None:
            return UNDEFINED
        return float(np.sqrt(np.sum(weight * variance) / np.sum(weight))) * scale

    def curve(self, moments) -> RegionCurve:
        """The region's curve (:func:`.curves.region_curve` without replicates) from its changes' moments."""
        weight, mean, m2 = moments[1]
        means = np.where(weight > 0, mean, np.nan)[:, None]
        means = _fill_empty(means, weight, self.widths)
        effects = accumulate.numeric_centre(accumulate.main_curve(means), weight)
        local_sd = np.sqrt(accumulate.local_means(m2[:, None], weight))
        return RegionCurve(effects, weight, local_sd, weight == 0)


class LevelMeasure:
    """A categorical feature's numbers per region, ``(3, J + L + P)``: moments of the changes across each of
    the J jumps, the weight of each of the L levels (row 0), and for a nominal feature the moments of the
    differences of each of the P = L * L ordered pairs of levels (``a * L + b``, ``a < b`` used)."""

    def __init__(self, plan, caller, *, nominal: bool, rows_per_call, check_outputs):
        self.plan, self.caller, self.nominal = plan, caller, nominal
        self.rows_per_call, self.check_outputs = rows_per_call, check_outputs
        self.n_levels = plan.axes[0].n_levels
        self.n_jumps = self.n_levels - 1
        self.shape = (3, self.n_jumps + self.n_levels + (self.n_levels ** 2 if nominal else 0))

    def prepare(self, block):
        local = level_differences(self.plan, block, self.caller, rows_per_call=self.rows_per_call)
        self.check_outputs(local.differences, self.caller)
        pairs = None
        if self.nominal:
            at_levels = level_predictions(self.plan, block, self.caller, rows_per_call=self.rows_per_call)
            n, k = at_levels.shape
            rows = np.repeat(np.arange(n), k)
            other = np.tile(np.arange(k), n)
            own = local.ranks[rows]
            keep = other != own
            rows, other, own = rows[keep], other[keep], own[keep]
            low, high = np.minimum(own, other), np.maximum(own, other)
            pairs = rows, low * k + high, at_levels[rows, high] - at_levels[rows, low]
        return local, pairs

    def group(self, prepared, inside, weights):
        local, pairs = prepared
        keep = inside[local.rows]
        entry_rows = local.rows[keep]
        parts = [_moments(local.jumps[keep], local.differences[keep, 0], weights[entry_rows], self.n_jumps),
                 np.stack([np.bincount(local.ranks[inside], weights[inside], minlength=self.n_levels),
                           np.zeros(self.n_levels), np.zeros(self.n_levels)])]
        if pairs is not None:
            rows, index, values = pairs
            chosen = inside[rows]
            parts.append(_moments(index[chosen], values[chosen], weights[rows[chosen]], self.n_levels ** 2))
        return np.concatenate(parts, axis=1)

    def _levels(self, moments):
        return moments[0, self.n_jumps:self.n_jumps + self.n_levels]

    def size(self, moments) -> float:
        return float(self._levels(moments).sum())

    def score(self, moments, scale: float) -> float:
        """:func:`.criterion.pair_heterogeneity` (nominal) or :func:`.criterion.level_heterogeneity` (ordinal)."""
        level_weight = self._levels(moments)
        if self.nominal:
            k = self.n_levels
            weight, _, m2 = moments[:, self.n_jumps + k:]
            share = level_weight / level_weight.sum()
            total = 0.0
            for a in range(k):
                for b in range(a + 1, k):
                    if share[a] * share[b] > 0:
                        total += share[a] * share[b] * (m2[a * k + b] / weight[a * k + b])
            return float(np.sqrt(total))
        weight, _, m2 = moments[:, :self.n_jumps]
        variance = np.divide(m2, weight, out=np.full(self.n_jumps, np.nan), where=weight > 1)
        variance = fill_undefined(variance)
        if variance is None:
            return UNDEFINED
        per_level = variance[np.maximum(np.arange(self.n_levels), 1) - 1]
        return float(np.sqrt(np.sum(level_weight * per_level) / np.sum(level_weight))) * scale

    def curve(self, moments) -> RegionCurve:
        """:func:`.curves.level_curve` without replicates, from the moments of the jumps' changes."""
        weight, mean, m2 = moments[:, :self.n_jumps]
        counts = self._levels(moments)
        means = _fill_empty(np.where(weight > 0, mean, np.nan)[:, None], weight, np.ones(self.n_jumps))
        effects = accumulate.level_centre(accumulate.main_curve(means), counts)
        local_sd = np.sqrt(accumulate.local_means(m2[:, None], weight))
        return RegionCurve(effects, counts, local_sd, weight == 0)


def moments_block(block, offset, *, measure, weight_column, groups):
    """Per group (a :class:`RowSet`): the measure's numbers over the block's rows."""
    out = np.zeros((len(groups),) + measure.shape)
    if weight_column is not None:
        weights = block[weight_column].to_numpy(dtype=float)
        block = block.drop(columns=[weight_column])
    else:
        weights = np.ones(block.shape[0])
    if block.shape[0] == 0:
        return out
    prepared = measure.prepare(block)
    known: dict = {}
    for g, group in enumerate(groups):
        out[g] = measure.group(prepared, group.rows(block, known), weights)
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


def _feature_block(block, offset, *, values, weight_column):
    found = values(block)
    weights = np.ones(found.shape[0]) if weight_column is None else block[weight_column].to_numpy(dtype=float)
    return _moments(np.zeros(found.shape[0], dtype=np.int64), found, weights, 1)


def feature_moments(rows, values, weight_column, columns) -> float:
    """Standard deviation of ``values(block)`` over all rows (divisor: the sum of the weights), in one pass."""
    columns = list(columns) + ([] if weight_column is None else [weight_column])
    found = rows.map_reduce(functools.partial(_feature_block, values=values, weight_column=weight_column),
                            combine_moments, columns=columns)
    return float(np.sqrt(found[2, 0] / found[0, 0]))


class EngineMoments:
    """Every region's numbers (a measure's), measured on demand one pass at a time (see the module docstring)."""

    def __init__(self, rows, measure, *, weight_column, conditions):
        self.rows, self.measure = rows, measure
        self.weight_column, self.conditions = weight_column, conditions
        self.known: dict = {}
        self.passes = 0

    def __call__(self, region: RowSet) -> np.ndarray:
        key = region.conditions
        if key not in self.known:
            parent = RowSet(key[:-1])
            groups = [parent] + [parent & RowSet((c,)) for c in self.conditions]
            if key not in {g.conditions for g in groups}:
                groups.append(region)
            found = self.rows.map_reduce(functools.partial(
                moments_block, measure=self.measure, weight_column=self.weight_column, groups=groups),
                combine_moments)
            self.passes += 1
            if found is None:
                found = np.zeros((len(groups),) + self.measure.shape)
            for group, moments in zip(groups, found):
                self.known[group.conditions] = moments
        return self.known[key]

    def size(self, region: RowSet) -> float:
        return self.measure.size(self(region))

    def score(self, region: RowSet, scale: float) -> float:
        return self.measure.score(self(region), scale)

    def curve(self, region: RowSet) -> RegionCurve:
        return self.measure.curve(self(region))


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
