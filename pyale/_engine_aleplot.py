"""ALEPlot's and PDPlot's computations on a Dask or Spark data frame.

The R-shaped front-ends check their arguments on a few rows of the data
and hand the computation here: the same grids (ALEPlot's quantile edges,
PDPlot's ``seq(min, max, length.out = K)``), levels and level orders as on
pandas, from the engine's summaries, and the same estimator over the
engine's blocks.  The front-ends lay the numbers out as for pandas.
"""

from __future__ import annotations

import math

import numpy as np

from ._checks import check_feature_options, resolve_pair
from ._core.bounds import check_pair_cells, check_pd_points, pair_cell_limit, pd_point_limit
from ._core.conventions import ALEPLOT
from ._core.engine_grid import EngineData
from ._core.engine_passes import PDAxis, engine_estimate, pd_sums, probe, probe_rows
from ._core.features import Feature, require_intervals, require_levels
from ._core.local import Plan
from ._core.main_effect import MainEffect
from ._core.pair_effect import PairEffect
from ._engine_plans import read_pair
from ._rbase import r_seq

__all__ = ["engine_main_effect", "engine_aleplot_pair", "engine_pd_single", "engine_pd_pair"]

_CALLER = "ALEPlot"


def _run(data: EngineData, plans, caller):
    probe(caller, probe_rows(data))
    return engine_estimate(data, plans, caller)


def _edges(data: EngineData, features: list, K: int, labels: list) -> dict:
    """ALEPlot's edges of numeric features, a constant one refused (in the order given)."""
    for feature, label in zip(features, labels):
        low, high = data.value_range(feature.name)
        if low == high:
            require_intervals(np.array([low]), label)
    return data.edges(features, ALEPLOT, K, param="K")


def engine_main_effect(data: EngineData, caller, name, K: int, level_order) -> tuple[Feature, MainEffect]:
    """ALEPlot of one feature on an engine: ``(feature, MainEffect)``."""
    label = f"Column {name!r} (J)"
    feature = data.feature(name, label)
    check_feature_options(feature.categorical, name, None, level_order, _CALLER)
    if feature.categorical:
        require_levels(feature, label)
        order = data.level_order(feature, level_order, caller=_CALLER)
        (est,) = _run(data, [Plan((data.level_axis(feature, order),), ALEPLOT)], caller)
        labels = tuple(feature.levels[i] for i in order)
        return feature, MainEffect(grid=labels, effects=est.effects, counts=est.counts,
                                   local_effects=est.local_effects, level_order=order, estimate=est)
    edges = _edges(data, [feature], K, [label])[name]
    (est,) = _run(data, [Plan((data.numeric_axis(feature, edges),), ALEPLOT)], caller)
    return feature, MainEffect(grid=edges, effects=est.effects, counts=est.counts,
                               local_effects=est.local_effects, estimate=est)


def engine_aleplot_pair(data: EngineData, caller, J, K: int, *, level_order):
    """ALEPlot of a pair on an engine: ``(names, categorical first, PairEffect)``."""
    names = resolve_pair(data.schema, J, caller_name=_CALLER)
    first, second = read_pair(data, names, _CALLER)
    limit = pair_cell_limit(data.n_rows)
    if first.categorical:
        edges2 = _edges(data, [second], K, [f"Column {names[1]!r} (J[1])"])[second.name]
        require_levels(first, f"Column {names[0]!r} (J[0])")
        n_levels = len(first.levels)
        check_pair_cells(
            data.n_rows, (n_levels, len(edges2) - 1), param="K", caller=_CALLER, features=names, value=K,
            advice=f"Use K <= {max(1, limit // n_levels):,}.",
        )
        order = data.level_order(first, level_order, caller=_CALLER)
        axes = (data.level_axis(first, order), data.numeric_axis(second, edges2))
        grid1 = tuple(first.levels[i] for i in order)
    else:
        low, high = data.value_range(second.name)
        if low == high:
            require_intervals(np.array([low]), f"Column {names[1]!r} (J[1])")
        if level_order is not None:
            raise ValueError(
                f"The 'level_order' parameter of {_CALLER} applies to a categorical feature; "
                f"column {names[0]!r} is numeric."
            )
        edges = _edges(data, [first, second], K, [f"Column {names[0]!r} (J[0])", f"Column {names[1]!r} (J[1])"])
        edges1, edges2 = edges[first.name], edges[second.name]
        check_pair_cells(
            data.n_rows, (len(edges1) - 1, len(edges2) - 1), param="K", caller=_CALLER, features=names,
            value=K, advice=f"Use K <= {math.isqrt(limit):,}.",
        )
        order = None
        axes = (data.numeric_axis(first, edges1), data.numeric_axis(second, edges2))
        grid1 = edges1
    (est,) = _run(data, [Plan(axes, ALEPLOT)], caller)
    effect = PairEffect(grid1=grid1, grid2=edges2, effects=est.effects, counts=est.counts,
                        empty_cells=est.empty_cells, local_effects=est.local_effects, level_order=order,
                        estimate=est)
    return names, first.categorical, effect


# ----------------------------------------------------------------------------- PDPlot
def _pd_numeric(data: EngineData, feature: Feature, K: int, which: str):
    """``seq(min, max, length.out = K)`` and the breaks R counts rows with (None for K = 1)."""
    low, high = data.value_range(feature.name)
    if low == high:
        raise ValueError(
            f"Column {feature.name!r} ({which}) is constant ({float(low)!r}); partial dependence "
            "over its range is undefined."
        )
    if K == 1:
        return np.array([low]), None
    grid = r_seq(low, high, K)
    return grid, np.concatenate(([low - (grid[1] - grid[0])], grid))


def _axis(feature: Feature, grid, breaks, points) -> PDAxis:
    if feature.categorical:
        return PDAxis(feature.name, np.arange(len(feature.levels)), points, categorical=True, levels=feature.levels)
    return PDAxis(feature.name, grid, points, breaks=breaks)


def engine_pd_single(data: EngineData, caller, name, K: int, rows_per_call):
    """PDPlot of one feature: ``(feature, grid, counts, mean predictions)``."""
    feature = data.feature(name, f"Column {name!r} (J)")
    if feature.categorical:
        grid = list(feature.levels)
        counts = data.checks([name])[name].level_counts
        axis = _axis(feature, None, None, np.arange(len(grid)))
    else:
        check_pd_points(data.n_rows, (K,), param="K", caller="PDPlot", value=K,
                        advice=f"Use K <= {pd_point_limit(data.n_rows):,}.")
        grid, breaks = _pd_numeric(data, feature, K, "J")
        axis = _axis(feature, grid, breaks, np.arange(len(grid)))
    probe(caller, probe_rows(data))
    count_axes = [axis] if not feature.categorical and axis.breaks is not None else None
    found = pd_sums(data, [axis], len(grid), caller, rows_per_call=rows_per_call,
                    purpose=f"partial dependence of {name!r}", count_axes=count_axes)
    if not feature.categorical:
        counts = found["counts"] if count_axes else np.array([found["rows"]], dtype=np.int64)
    return feature, grid, counts, found["sums"][:, 0] / found["rows"]


def engine_pd_pair(data: EngineData, caller, J, K: int, rows_per_call):
    """PDPlot of a pair: ``(names, kind, grid1, grid2, counts, mean predictions (n1, n2))``."""
    names = resolve_pair(data.schema, J, caller_name="PDPlot")
    first, second = read_pair(data, names, "PDPlot")
    limit = pd_point_limit(data.n_rows)
    if first.categorical:
        n_levels = len(first.levels)
        check_pd_points(data.n_rows, (n_levels, K), param="K", caller="PDPlot", value=K,
                        advice=f"Use K <= {max(1, limit // n_levels):,} beside {n_levels} levels.")
    else:
        check_pd_points(data.n_rows, (K, K), param="K", caller="PDPlot", value=K,
                        advice=f"Use K <= {math.isqrt(limit):,}.")
    grid2, breaks2 = _pd_numeric(data, second, K, "J[1]")
    if first.categorical:
        grid1, breaks1, kind = list(first.levels), None, "categorical x numeric"
    else:
        grid1, breaks1 = _pd_numeric(data, first, K, "J[0]")
        kind = "numeric x numeric"
    n1, n2 = len(grid1), len(grid2)
    points = np.arange(n1 * n2)
    axes = [_axis(first, grid1, breaks1, points // n2), _axis(second, grid2, breaks2, points % n2)]
    count_axes = [_counting(axes[0], n1), _counting(axes[1], n2)]
    probe(caller, probe_rows(data))
    found = pd_sums(data, axes, n1 * n2, caller, rows_per_call=rows_per_call,
                    purpose=f"partial dependence of ({names[0]!r}, {names[1]!r})", count_axes=count_axes)
    means = (found["sums"][:, 0] / found["rows"]).reshape(n1, n2)
    return names, kind, grid1, grid2, found["counts"].reshape(n1, n2), means


def _counting(axis: PDAxis, size: int) -> PDAxis:
    """The axis as counted: K = 1 puts every row at the single grid value."""
    if axis.categorical or axis.breaks is not None:
        return axis
    return PDAxis(axis.name, axis.values, axis.points, breaks=np.array([-np.inf, np.inf]))
