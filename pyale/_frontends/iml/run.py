"""``FeatureEffect``'s computation, the same for a pandas frame and an engine's rows.

The rows are a :class:`~pyale._core.run.frame_grid.FrameData` (a pandas frame:
whole-column NumPy) or a :class:`~pyale._core.run.engine_grid.EngineData` (a
Dask, Spark or polars lazy frame: exact summaries over its blocks); both
answer the grid stage's questions alike, so iml's ALE is built here once:
iml's grids (type-1 quantiles, rounded for integers, or the user's points),
rows outside user grids left out (with a warning), iml's level order, one
:class:`~pyale._core.map.local.Plan` estimated over the rows, and iml's tables.
Partial dependence takes the same grids from either
(:func:`~pyale._frontends.iml.tables.pd_grid`) and the per-point means from one pass
(:func:`~pyale._core.run.pd.pd_sums`); ICE curves, one per row, need every
row's predictions and are computed on pandas frames only.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from ..._core.conventions import IML
from ..._core.run.engine_grid import InsideRange
from ..._core.run.engine_passes import engine_estimate, probe, probe_rows
from ..._core.reduce.estimate import require_finite_effects
from ..._core.grid.features import Feature
from ..._core.map.local import Plan
from ..._core.run.main_effect import MainEffect
from ..._core.run.pair_effect import PairEffect
from ..._core.run.pd import PDAxis, pd_sums
from .pairs import categorical_pair_table, check_cells, numeric_pair_table
from .rbugs import iml_centred_with_undropped_levels, iml_misaligned_numeric, undropped_level_shares
from .tables import categorical_table, numeric_table, pd_grid, pd_results

__all__ = ["read_features", "ale_run", "pd_run"]

_CALLER = "FeatureEffect"


def read_features(data, names) -> list[Feature]:
    """The features as ``read_feature`` reads them, refusing one with a single value (as iml)."""
    data.checks(list(names))
    features = [data.feature(name, f"Feature {name!r}") for name in names]
    for f in features:
        single = len(f.levels) < 2 if f.categorical else not np.less(*data.value_range(f.name))
        if single:  # values are finite: min < max means two distinct values, without sorting
            raise ValueError(
                f"Feature {f.name!r} has a single value in the data; its effect is undefined "
                "(iml: 'feature has only one unique value')."
            )
    return features


def _order(data, feature: Feature, stacklevel: int) -> np.ndarray:
    """iml's ``order_levels`` (see :func:`~pyale._core.grid.edges.resolve_level_order`)."""
    return data.level_order(feature, None, caller=_CALLER, failure="iml 0.11.4 fails here", hint="",
                            stacklevel=stacklevel)


def _estimate(data, plan: Plan, predict):
    if not data.engine.in_memory:  # the model runs on the workers: a first failure is raised here
        probe(predict, probe_rows(data))
    (est,) = engine_estimate(data, [plan], predict)
    return est


def _edges(data, feature: Feature, size: int, points) -> np.ndarray:
    """iml's interval edges: type-1 quantiles (rounded for integers), or the user's points sorted."""
    if points is None:
        return data.edges([feature], IML, size, param="grid_size")[feature.name]
    return np.unique(np.asarray(points, dtype=float))


def _inside(data, grids: list, counted: dict, stacklevel: int):
    """The rows within every user grid's range (``grids``: ``(feature, edges)``), warning about the others.

    Returns ``(rows, counts)``: the rows kept, and their counts per interval
    of each grid in ``counted`` (name -> edges), found in the same pass.
    """
    keep = None
    for f, e in grids:
        keep = InsideRange(f.name, float(e[0]), float(e[-1]), keep)
    inside = data.restricted(keep, [f.name for f, _ in grids])
    counts = inside.interval_counts(counted)
    below, within, above = next(iter(counts.values()))
    total, n_inside = data.n_rows, below + int(within.sum()) + above
    if n_inside == total:
        return inside, counts
    if n_inside == 0:
        raise ValueError(
            "The 'grid_points' parameter of FeatureEffect leaves every row of the data outside "
            "the grid; ALE needs rows within it."
        )
    warnings.warn(
        f"{total - n_inside} of {total} rows lie outside grid_points of {', '.join(repr(f.name) for f, _ in grids)} "
        "and are left out of the ALE (iml 0.11.4 misuses them: see docs/deviations.md).",
        UserWarning,
        stacklevel=stacklevel + 1,
    )
    return inside, counts


def ale_run(effect, data) -> pd.DataFrame:
    """``FeatureEffect._run`` for ``method="ale"`` (sets ``effect.effect``)."""
    predict = effect.predictor._bounded(effect.max_rows_per_call)
    if effect.n_features == 2:
        table, effect.effect = _pair(effect, data, predict)
        return table
    feature = effect._features[0]
    if feature.categorical:
        order = _order(data, feature, 7)  # the frame that called FeatureEffect
        est = _estimate(data, Plan((data.level_axis(feature, order),), IML), predict)
        effects = est.effects
        shares = undropped_level_shares(effect.predictor.data[feature.name]) if effect.replicate_r_bugs else None
        if shares is not None:  # iml centres with the shares of all categories, indexed by the used ones' order
            effects = iml_centred_with_undropped_levels(est.local_effects, order, shares)
        effect.effect = MainEffect(grid=tuple(feature.levels[i] for i in order), effects=effects,
                                   counts=est.counts, local_effects=est.local_effects, level_order=order,
                                   estimate=est)
        return categorical_table(effect.effect, feature.name, effect._outputs_of())
    edges = _edges(data, feature, effect.grid_size[0], effect.grid_points)
    if edges.shape[0] < 2:
        raise ValueError(f"Feature {feature.name!r} has a single grid value; ALE is undefined.")
    inside, occupied = data, None
    if effect.grid_points is not None:
        if effect.replicate_r_bugs:
            _refuse_rows_outside(data, feature, edges)
        inside, counts = _inside(data, [(feature, edges)], {feature.name: edges}, 4)
        occupied = counts[feature.name][1] > 0
    plan = Plan((inside.numeric_axis(feature, edges, occupied),), IML, empty_intervals="zero")
    est = _estimate(inside, plan, predict)
    grid, effects = edges, est.effects
    if effect.replicate_r_bugs and occupied is not None and not occupied.all():
        grid, effects = iml_misaligned_numeric(est.local_effects, est.counts, edges)
    effect.effect = MainEffect(grid=grid, effects=effects, counts=est.counts, local_effects=est.local_effects,
                               estimate=est)
    return numeric_table(effect.effect, feature.name, grid, effect._outputs_of())


def _refuse_rows_outside(data, feature: Feature, edges: np.ndarray) -> None:
    """replicate_r_bugs: iml moves rows above the last grid point to a grid value that does not exist (NA)."""
    low, high = data.value_range(feature.name)
    if low < edges[0] or high > edges[-1]:
        raise ValueError(
            f"The 'replicate_r_bugs' parameter of FeatureEffect cannot reproduce iml on 'grid_points' that do not "
            f"cover feature {feature.name!r} (its values run from {low!r} to {high!r}, the grid from "
            f"{float(edges[0])!r} to {float(edges[-1])!r}): iml asks the model about NA there, so its number is "
            "the model's answer to NA. Give a grid that covers the data.")


def _pair(effect, data, predict):
    first, second = effect._features
    points = effect.grid_points or [None, None]
    sizes = effect.grid_size
    if first.categorical and second.categorical:
        raise ValueError(
            f"FeatureEffect does not compute ALE for two categorical features ({first.name!r}, "
            f"{second.name!r}); iml 0.11.4 stops with 'ALE for two categorical features is not yet "
            "implemented.'"
        )
    if not first.categorical and not second.categorical:
        edges1 = _edges(data, first, sizes[0], points[0])
        edges2 = _edges(data, second, sizes[1], points[1])
        inside, occupied = data, [None, None]
        user = [(f, e) for f, e, p in ((first, edges1, points[0]), (second, edges2, points[1])) if p is not None]
        if user:
            inside, found = _inside(data, user, {first.name: edges1, second.name: edges2}, 5)
            occupied = [found[first.name][1] > 0, found[second.name][1] > 0]
        check_cells(effect, inside.n_rows, (len(edges1) - 1, len(edges2) - 1), points, (first, second))
        plan = Plan((inside.numeric_axis(first, edges1, occupied[0]),
                     inside.numeric_axis(second, edges2, occupied[1])), IML)
        est = _estimate(inside, plan, predict)
        pair = PairEffect(grid1=edges1, grid2=edges2, effects=est.effects, counts=est.counts,
                          empty_cells=est.empty_cells, local_effects=est.local_effects, estimate=est)
        return numeric_pair_table(pair, effect._outputs_of(), first.name, second.name, edges1, edges2), pair
    cat, num = (first, second) if first.categorical else (second, first)
    num_index = 1 if first.categorical else 0
    edges = _edges(data, num, sizes[num_index], points[num_index])
    inside, occupied = data, None
    if points[num_index] is not None:
        inside, counts = _inside(data, [(num, edges)], {num.name: edges}, 5)
        occupied = counts[num.name][1] > 0
        cat = inside.feature(cat.name, f"Feature {cat.name!r}")  # the levels among the rows kept
        if len(cat.levels) < 2:
            raise ValueError(
                f"Feature {cat.name!r} has a single level among the rows within the grid; ALE across "
                "its levels is undefined."
            )
    cells = (len(cat.levels), len(edges) - 1) if first.categorical else (len(edges) - 1, len(cat.levels))
    check_cells(effect, inside.n_rows, cells, points, (first, second))
    order = _order(inside, cat, 8)
    plan = Plan((inside.level_axis(cat, order), inside.numeric_axis(num, edges, occupied)), IML)
    est = _estimate(inside, plan, predict)
    pair = PairEffect(grid1=tuple(cat.levels[i] for i in order), grid2=edges, effects=est.effects,
                      counts=est.counts, empty_cells=est.empty_cells, local_effects=est.local_effects,
                      level_order=order, estimate=est)
    return categorical_pair_table(pair, effect._outputs_of(), cat.name, num.name, edges), pair


# ----------------------------------------------------------------------------- partial dependence
def pd_run(effect, data) -> pd.DataFrame:
    """``FeatureEffect._run`` for ``method`` "pdp", "ice" or "pdp+ice"."""
    features = effect._features
    if effect.method != "pdp" and not data.engine.in_memory:
        raise ValueError(
            f"The 'method' parameter of {_CALLER} is {effect.method!r}: ICE gives one curve per row, as large as "
            f"the data, so pyale does not compute it on a {data.engine.name}. Use method='pdp' or 'ale', or "
            f"collect the rows you want curves of into memory (a sample of them, then {data.engine.collect})."
        )
    user = [effect.grid_points] if effect.n_features == 1 else (effect.grid_points or [None, None])
    effect._check_pd_size(user)
    layout = data.layout(features)
    grids, indices = [], []
    for f, size, points in zip(features, effect.grid_size, user):
        anchor = effect.center_at if effect.n_features == 1 else None
        grid, index = pd_grid(
            f, layout[f.name], size, points, anchor,
            value_range=None if f.categorical else data.value_range(f.name),
            appearance=data.level_appearance(f) if f.categorical and points is None else None,
        )
        grids.append(grid)
        indices.append(index)
    predict = effect.predictor._bounded(effect.predictor.batch_size)
    names = " and ".join(repr(f.name) for f in features)
    if effect.method == "pdp":
        means, n_rows = _pd_means(effect, data, grids, indices, predict, names)
    else:  # every row's curve: all the predictions, in memory
        means, n_rows = None, None
    results = pd_results(
        layout, features, grids, indices, predict, effect._outputs_of, method=effect.method,
        anchor=effect.center_at, batch_size=effect.predictor.batch_size, means=means, n_rows=n_rows,
    )
    require_finite_effects(results[".value"].to_numpy(dtype=float), f"{effect.method} of {names}")
    return results


def _pd_means(effect, data, grids: list, indices: list, predict, names: str):
    """Per grid point and output, the mean prediction over the rows (centred at ``center_at``): one pass."""
    features = effect._features
    sizes = [len(g) for g in grids]
    n_points = int(np.prod(sizes))
    point_index = [np.arange(n_points)] if len(features) == 1 else [np.arange(n_points) % sizes[0],
                                                                     np.arange(n_points) // sizes[0]]
    axes = [
        PDAxis(f.name, index, p, categorical=True, levels=f.levels) if f.categorical
        else PDAxis(f.name, np.asarray(grid, dtype=float), p)
        for f, grid, index, p in zip(features, grids, indices, point_index)
    ]
    hit = None
    if effect.center_at is not None:
        grid = grids[0]
        if features[0].categorical:
            hit = [i for i, g in enumerate(grid) if g == effect.center_at][0]
        else:
            hit = int(np.flatnonzero(np.asarray(grid, dtype=float) == float(effect.center_at))[0])
    if not data.engine.in_memory:  # the model runs on the workers: a first failure is raised here
        probe(predict, probe_rows(data))
    found = pd_sums(data, axes, n_points, predict, rows_per_call=effect.predictor.batch_size,
                    purpose=f"partial dependence of {names}", anchor=hit)
    return found["sums"] / found["rows"], found["rows"]
