"""``pyale.regional``: for whom is a feature's effect different?"""

from __future__ import annotations

import dataclasses
from typing import Sequence

import numpy as np
import pandas as pd

from .._ale_result import ALEResult
from .._api import _Job, _output_names
from .._checks import (check_choice, check_finite_number, check_int, check_random_state, resolve_column)
from .._core.binning import check_binning
from .._core.gradient import METHODS, rhale_plans
from .._core.jacobians import array_model
from .._core.local import NumericAxis
from .._engines import is_engine_frame
from .._engines import engine_name
from .._present import FeatureValues
from .candidates import candidate_splits, read_conditioning
from .criterion import feature_scale, heterogeneity, level_heterogeneity, pair_heterogeneity
from .curves import level_curve, region_curve
from .local import (LevelEffects, LocalEffects, finite_differences, level_differences, level_predictions,
                    uniform_edges)
from .rebinning import RegionBins
from .result import Region, RegionalResult
from .engine import EngineMoments, LevelMeasure, NumericMeasure, RowSet, engine_splits, feature_moments
from .search import SearchRules, grow_levelwise, grow_nodewise

__all__ = ["regional"]

_CALLER = "regional"
_SEARCHES = ("node", "level")
_FEATURE_TYPES = ("auto", "nominal", "ordinal")
#: Default intervals of the uniform grid (effector's ``Fixed(nof_bins=20)``).
UNIFORM_INTERVALS = 20


def regional(
    model: object,
    X: pd.DataFrame,
    feature: object,
    *,
    conditioning: Sequence | None = None,
    method: str = "finite_difference",
    jacobian: object = None,
    binning: object = None,
    search: str = "node",
    max_depth: int = 2,
    min_samples_leaf: float = 10,
    min_decrease: float = 0.05,
    min_heterogeneity: float = 0.03,
    n_positions: int = 20,
    level_limit: int = 10,
    grid: object = None,
    n_intervals: int | None = None,
    level_order: Sequence | None = None,
    feature_type: str = "auto",
    response: object = None,
    response_method: str = "auto",
    sample_weight: Sequence | None = None,
    n_bootstrap: int = 0,
    ci_level: float = 0.95,
    random_state: object = None,
    max_rows_per_call: int | None = None,
    feature_names: Sequence | None = None,
) -> RegionalResult:
    """Regional effects: split the rows on other features where a feature's effect differs.

    A tree of binary splits on the other columns (numeric thresholds,
    categorical levels) that most lowers the heterogeneity of the feature's
    local effects, the search of effector 0.6.0's ``find_regions`` (its
    ``Best`` and ``BestLevelWise`` finders, with their split criterion,
    candidate positions and stopping rules), then the feature's ALE in
    every region on one common grid.  A wide heterogeneity band in
    :func:`pyale.ale` says that rows disagree about the effect; the regions
    say *which* rows.

    Parameters
    ----------
    model : object
        As for :func:`pyale.ale` (one output: a classifier needs ``response``).
    X : pandas.DataFrame, polars.DataFrame, pyarrow.Table or numpy.ndarray
        The data (in memory).  Never modified.
    feature : column label or 0-based position
        The feature whose effect is split: numeric, or categorical (its
        local effects are then differences between its levels: between
        every pair of levels for a nominal feature, across each jump
        between neighbouring levels for an ordinal one; see
        ``feature_type``).
    conditioning : sequence of labels, optional
        The columns the regions may be defined by (every other column by
        default).  Numeric columns are cut at thresholds, other columns
        (categorical, string, bool) and numeric columns of integers with
        fewer than ``level_limit`` distinct values split one level against
        the rest.
    method : {"finite_difference", "gradient"}, default "finite_difference"
        How each row's local effect is measured: moved to both edges of its
        interval (two predictions per row), or its derivative times the
        interval's width (one Jacobian; see :func:`pyale.ale`'s ``method``
        and ``jacobian``).
    jacobian : callable, "torch" or "jax", optional
        With ``method="gradient"``, as for :func:`pyale.ale`.
    binning : {"dp", "agglomerative"} or HeterogeneityBinning, optional
        With ``method="gradient"``: RHALE's heterogeneity-aware intervals,
        chosen again from each candidate region's own derivatives (over the
        feature's whole range) before it is scored, and each region's curve
        drawn on its own intervals, as effector's ``RHALE`` does by default
        (``"dp"``).  ``n_intervals`` is then the candidate grid's size (20).
    search : {"node", "level"}, default "node"
        ``"node"``: each region is split by its own best split (effector's
        ``Best``, its default).  ``"level"``: one split per depth shared by
        every region of that depth (effector's ``BestLevelWise``).
    max_depth : int, default 2
        At most this many splits on a path (effector's ``max_depth``).
    min_samples_leaf : float, default 10
        No region with fewer rows (sum of weights with ``sample_weight``).
    min_decrease : float, default 0.05
        A split is kept only if it lowers the heterogeneity by at least this
        fraction of the parent's (effector's ``min_heterogeneity_decrease_pcg``).
    min_heterogeneity : float, default 0.03
        A region less heterogeneous than this is not split (effector's
        ``heter_small_enough``), in units of the prediction.
    n_positions : int, default 20
        A numeric column is cut at the ``n_positions - 1`` inner points of
        ``n_positions`` equal segments of its range (effector's
        ``numerical_features_grid_size``).
    level_limit : int, default 10
        A numeric column of integers with fewer distinct values is split by
        its levels (effector's ``cat_limit``).
    grid : None, "uniform" or sequence, optional
        The feature's intervals, fixed from all rows for every region.
        None: pyale's (ALEPlot's quantile intervals, ``n_intervals`` = 40 by
        default).  ``"uniform"``: ``n_intervals`` (20 by default) equal
        intervals over the range, effector's ``ALE`` grid.  A sequence: the
        edges, covering the data (intervals without rows are allowed).
    n_intervals : int, optional
        Number of intervals (see ``grid``).
    level_order : sequence, optional
        A categorical feature's levels in the order to use (as for
        :func:`pyale.ale`; by default ALEPlot's order, an ordered
        categorical's own).  effector orders levels ascending.
    feature_type : {"auto", "nominal", "ordinal"}, default "auto"
        How a categorical feature's heterogeneity is measured.
        ``"nominal"``: every pair of levels compared (effector's rule for
        nominal features: no level order enters the criterion).
        ``"ordinal"``: the jumps between neighbouring levels in the level
        order (effector's rule for ordinal features).  ``"auto"``: ordinal
        for an ordered categorical, nominal for any other categorical,
        string or bool column (effector's own inference from a pandas
        column).  The regional curves follow the level order either way.
        Ignored for a numeric feature.
    response, response_method
        As for :func:`pyale.ale`.
    sample_weight : array-like or column name, optional
        Frequency weights: every count of the search (interval counts,
        region sizes, ``min_samples_leaf``) becomes a sum of weights, and
        integer weights give the result of repeated rows.
    n_bootstrap : int, default 0
        Bootstrap replicates of every region's curve (its rows resampled,
        the grid and the regions fixed): percentile bands ``ci_low`` and
        ``ci_high`` in each region's result.  They cover the sampling
        uncertainty of the curve *given the regions*; the search itself is
        not repeated.
    ci_level : float, default 0.95
        Coverage of the bands.
    random_state : None, int, numpy.random.Generator or SeedSequence
        Seed of the replicates.
    max_rows_per_call, feature_names
        As for :func:`pyale.ale`.

    Returns
    -------
    RegionalResult
        The regions (``regions``, ``leaves``), the tree as a table
        (``table``), each region's ALE (``region.result``, an
        :class:`~pyale.ALEResult`) and a figure (``plot()``).

    Notes
    -----
    The split criterion (effector's ``heter_score`` for ALE): each row's
    local effect is taken as a slope (its change across its interval over
    the interval's width); in a region, per interval, the variance of the
    slopes around their mean (undefined with fewer than two rows, then
    interpolated from the neighbouring intervals); the heterogeneity is the
    square root of the mean of those variances over the region's rows,
    times the feature's standard deviation over all rows, so it reads in
    units of the prediction.  A candidate split is scored by its children's
    heterogeneities weighted by ``(size + 1)``; see the user guide
    (``docs/regional.md``) for the rules and for where pyale and effector
    differ (right-closed intervals, no subsampling, weights).

    Only the model calls of one ALE are made (or one Jacobian): every
    region is scored and drawn from the same local effects.  On a Dask,
    Spark or polars lazy frame the search is a reduction over its blocks
    (per region and interval: weight, mean and squared deviations of the
    slopes): one pass over the rows (two predictions per row) per region
    that is split (or one Jacobian per block), on a fixed grid only
    (no ``binning``), without bootstrap, ``sample_weight`` as a column
    name; ``Region.mask`` is then None.

    References
    ----------
    Herbinger, J., Dandl, S., Ewald, F. K., Loibl, S. and Casalicchio, G.
    (2023). Decomposing global feature effects based on feature
    interactions (GADGET).  Gkolemis, V., Tzerefos, A., Dalamagas, T.,
    Ntoutsi, E. and Diou, C. (2024). Regionally additive models:
    explainable-by-design models minimizing feature interactions.  Python
    package effector 0.6.0 (``find_regions``).

    Examples
    --------
    >>> import numpy as np, pandas as pd, pyale
    >>> rng = np.random.default_rng(0)
    >>> X = pd.DataFrame(rng.uniform(-1, 1, (500, 3)), columns=["x1", "x2", "x3"])
    >>> f = lambda d: 3 * d["x1"] * (d["x3"] > 0) - 3 * d["x1"] * (d["x3"] <= 0) + d["x2"]
    >>> res = pyale.regional(f, X, "x1")
    >>> [leaf.rule for leaf in res.leaves]
    ['x3 < -0.000197958', 'x3 >= -0.000197958']
    """
    search = check_choice(search, _SEARCHES, param="search", caller=_CALLER)
    rules = SearchRules(
        max_depth=check_int(max_depth, param="max_depth", caller=_CALLER, minimum=0),
        min_samples_leaf=_positive(min_samples_leaf, "min_samples_leaf"),
        min_decrease=check_finite_number(min_decrease, param="min_decrease", caller=_CALLER),
        min_heterogeneity=check_finite_number(min_heterogeneity, param="min_heterogeneity", caller=_CALLER),
    )
    n_positions = check_int(n_positions, param="n_positions", caller=_CALLER, minimum=2)
    level_limit = check_int(level_limit, param="level_limit", caller=_CALLER, minimum=0)
    n_bootstrap = check_int(n_bootstrap, param="n_bootstrap", caller=_CALLER, minimum=0)
    random_state = check_random_state(random_state, caller=_CALLER)
    if binning is not None and method != "gradient":
        raise ValueError(f"The 'binning' parameter of {_CALLER} re-bins each region's derivatives; it needs "
                         f"method='gradient'. Got method={method!r}.")
    binning = check_binning(binning, n_intervals, grid, caller=_CALLER)
    feature_type = check_choice(feature_type, _FEATURE_TYPES, param="feature_type", caller=_CALLER)
    if is_engine_frame(X):
        name, names, candidates, rows, scale, score, size, curve = _on_engine(
            model, X, feature, feature_type=feature_type, method=method, jacobian=jacobian, binning=binning,
            grid=grid, n_intervals=n_intervals, level_order=level_order, response=response,
            response_method=response_method,
            sample_weight=sample_weight, ci_level=ci_level, max_rows_per_call=max_rows_per_call,
            feature_names=feature_names, conditioning=conditioning, level_limit=level_limit,
            n_positions=n_positions, n_bootstrap=n_bootstrap)
        nodes = (grow_nodewise(candidates, rows, score, size, rules) if search == "node" else
                 grow_levelwise(candidates, rows, len(names), score, size, rules))
        regions = tuple(Region(node.index, node.parent, node.depth, node.conditions, None, node.size,
                               node.heterogeneity, curve(node.mask)) for node in nodes)
        edges = None if regions[0].result.kind == "categorical" else regions[0].result.grid[0]
        return RegionalResult(feature=name, method=method, search=search, edges=edges,
                              regions=regions, scale=scale, conditioning=tuple(names))
    job, local = _local_effects(
        model, X, feature, feature_type=feature_type, method=method, jacobian=jacobian, grid=grid,
        n_intervals=None if binning is not None else n_intervals, level_order=level_order,
        response=response, response_method=response_method, sample_weight=sample_weight, ci_level=ci_level,
        max_rows_per_call=max_rows_per_call, feature_names=feature_names, conditioning=conditioning,
        level_limit=level_limit)
    if isinstance(local, LevelEffects) and binning is not None:
        raise ValueError(f"The 'binning' parameter of {_CALLER} applies to a numeric feature; "
                         f"{local.name!r} is categorical.")
    names, columns = job.conditioning
    candidates = [split for column in columns for split in candidate_splits(column, n_positions)]

    weights = job.weights
    scale, score, curve = _scorer(local, job, binning, n_bootstrap)

    def size(mask):
        return float(mask.sum()) if weights is None else float(weights[mask].sum())

    if search == "node":
        nodes = grow_nodewise(candidates, job.X.shape[0], score, size, rules)
    else:
        nodes = grow_levelwise(candidates, job.X.shape[0], len(columns), score, size, rules)
    rng = np.random.default_rng(random_state) if n_bootstrap else None
    regions = tuple(Region(node.index, node.parent, node.depth, node.conditions, node.mask, node.size,
                           node.heterogeneity, curve(node.mask, rng)) for node in nodes)
    edges = None if isinstance(local, LevelEffects) else regions[0].result.grid[0]
    return RegionalResult(feature=local.name, method=method, search=search, edges=edges, regions=regions,
                          scale=scale, conditioning=tuple(names))


def _scorer(local, job, binning, n_bootstrap: int):
    """``(scale, score(mask), curve(mask, rng))``: the criterion and the region's ALEResult for this feature."""
    weights = job.weights
    if isinstance(local, LevelEffects) and local.nominal:
        def score(mask):
            return pair_heterogeneity(local.at_levels[mask], local.ranks[mask],
                                      None if weights is None else weights[mask])

        def curve(mask, rng):
            return _region_result(local.name, "categorical", local.levels,
                                  level_curve(local, mask, n_bootstrap=n_bootstrap, rng=rng), job, mask)

        return 1.0, score, curve
    if isinstance(local, LevelEffects):
        scale = feature_scale(local.ranks.astype(float), weights)
        entry_weights = None if weights is None else weights[local.rows]

        def score(mask):
            keep = mask[local.rows]
            return level_heterogeneity(local.differences[keep, 0], local.jumps[keep], local.n_jumps,
                                       local.ranks[mask], scale, None if weights is None else entry_weights[keep],
                                       None if weights is None else weights[mask])

        def curve(mask, rng):
            return _region_result(local.name, "categorical", local.levels,
                                  level_curve(local, mask, n_bootstrap=n_bootstrap, rng=rng), job, mask)

        return scale, score, curve
    scale = feature_scale(local.values, weights)
    if binning is not None:
        derivatives = job.planned[0][2].convention.table.column(job.X, local.name)  # read once, memoised
        region_bins = RegionBins(local.name, local.values, derivatives, weights, binning)

        def curve(mask, rng):
            own, every = region_bins.local(mask)
            return _region_result(local.name, "numeric", own.edges,
                                  region_curve(own, every, n_bootstrap=n_bootstrap, rng=rng), job, mask)

        return scale, (lambda mask: region_bins.score(mask, scale)), curve
    slopes, bins, k = local.slopes[:, 0], local.bins, local.n_intervals

    def score(mask):
        return heterogeneity(slopes[mask], bins[mask], k, scale, None if weights is None else weights[mask])

    def curve(mask, rng):
        return _region_result(local.name, "numeric", local.edges,
                              region_curve(local, mask, n_bootstrap=n_bootstrap, rng=rng), job, mask)

    return scale, score, curve


def _on_engine(model, X, feature, *, feature_type, method, jacobian, binning, grid, n_intervals, level_order,
               response, response_method, sample_weight, ci_level, max_rows_per_call, feature_names, conditioning,
               level_limit, n_positions, n_bootstrap):
    """The search on a Dask, Spark or polars lazy frame (:mod:`.engine`): what it needs, checked.

    Returns the feature's name, the conditioning columns, the candidate
    splits, the root region, the scale and the ``score``, ``size`` and
    ``curve`` of a region.
    """
    frame = engine_name(X)
    for param, value, allowed in (("binning", binning, None), ("n_bootstrap", n_bootstrap, 0)):
        if value != allowed:
            raise ValueError(
                f"The {param!r} parameter of {_CALLER} must be {allowed!r} on a {frame}: the search runs over "
                f"its blocks on a fixed grid, without replicates. Got {value!r}; collect the rows into pandas "
                "for that option."
            )
    uniform = isinstance(grid, str)
    if uniform and grid != "uniform":
        raise ValueError(f"The 'grid' parameter of {_CALLER} must be None, 'uniform' or a sequence of edges. "
                         f"Got {grid!r} instead.")
    if isinstance(feature, (list, tuple, np.ndarray)):
        raise TypeError(f"The 'feature' parameter of {_CALLER} must be one column label or position. "
                        f"Got {feature!r} instead.")
    job = _Job(X, feature, caller_name=_CALLER, conventions="aleplot",
               n_intervals=None if (uniform or grid is not None) else n_intervals, grid=None, level_order=level_order,
               max_rows_per_call=max_rows_per_call, feature_names=feature_names, sample_weight=sample_weight,
               ci_level=ci_level, y=None)
    names, kind, plan = job.planned[0]
    name, data = names[0], job.data
    if kind == "categorical" and (grid is not None or method == "gradient"):
        raise ValueError(f"The '{'method' if method == 'gradient' else 'grid'}' parameter of {_CALLER} applies "
                         f"to a numeric feature; {name!r} is categorical.")
    split_names = _conditioning_names(job.X, name, conditioning)
    candidates = engine_splits(data, split_names, level_limit=level_limit, n_positions=n_positions, caller=_CALLER)
    conditions = [c for split in candidates for c in split.conditions]
    adapter, caller = job.caller_for(array_model(model, jacobian) if method == "gradient" else model, response,
                                     response_method)
    if method == "gradient" or jacobian is not None:  # each block's derivatives (one Jacobian per block and pass)
        job.planned = rhale_plans(job.planned, job.X, None, engine_data=job.data, conventions="aleplot",
                                  method=method, model=model, jacobian=jacobian, binning=None, caller=caller,
                                  max_rows=max_rows_per_call, caller_name=_CALLER)
        plan = job.planned[0][2]
    if kind == "categorical":
        axis = plan.axes[0]
        levels = tuple(axis.levels[i] for i in axis.order)
        nominal = _is_nominal(job.X[name], feature_type)
        measure = LevelMeasure(plan, caller, nominal=nominal, rows_per_call=max_rows_per_call,
                               check_outputs=_require_one_output)
        scale = 1.0 if nominal else feature_moments(data.rows, lambda block: axis.ranks(block).astype(float),
                                                    data.weight, [name])
        moments = EngineMoments(data.rows, measure, weight_column=data.weight, conditions=conditions)

        def level_curve_of(region):
            job.outputs = tuple(map(str, _output_names(adapter, caller)))
            return _region_result(name, "categorical", levels, moments.curve(region), job, None)

        return (name, split_names, candidates, RowSet(), scale, lambda region: moments.score(region, scale),
                moments.size, level_curve_of)
    if uniform or grid is not None:
        check = data.checks([name])[name]
        if uniform:
            count = UNIFORM_INTERVALS if n_intervals is None else check_int(n_intervals, param="n_intervals",
                                                                            caller=_CALLER, minimum=1)
            edges = np.linspace(check.minimum, check.maximum, count + 1)
        else:
            edges = _user_edges(grid, np.array([check.minimum, check.maximum]), name)
        occupied = data.interval_counts({name: edges})[name][1] > 0
        plan = dataclasses.replace(plan, axes=(NumericAxis(name, edges, occupied),), empty_intervals="zero")
    edges = plan.axes[0].edges
    widths = np.full(edges.shape[0] - 1, edges[1] - edges[0]) if uniform else np.diff(edges)
    scale = feature_moments(data.rows, lambda block: block[name].to_numpy(dtype=float), data.weight, [name])
    measure = NumericMeasure(plan, caller, widths, rows_per_call=max_rows_per_call, check_outputs=_require_one_output)
    moments = EngineMoments(data.rows, measure, weight_column=data.weight, conditions=conditions)

    def curve(region):
        job.outputs = tuple(map(str, _output_names(adapter, caller)))
        return _region_result(name, "numeric", edges, moments.curve(region), job, None)

    return (name, split_names, candidates, RowSet(), scale, lambda region: moments.score(region, scale),
            moments.size, curve)


def _positive(value, param: str) -> float:
    number = check_finite_number(value, param=param, caller=_CALLER, what="a number > 0")
    if number <= 0:
        raise ValueError(f"The {param!r} parameter of {_CALLER} must be a number > 0. Got {value!r} instead.")
    return number


def _local_effects(model, X, feature, *, feature_type, method, jacobian, grid, n_intervals, level_order, response,
                   response_method, sample_weight, ci_level, max_rows_per_call, feature_names, conditioning,
                   level_limit):
    """The checked data (and conditioning columns, read before any model call) and each row's local effect
    of the feature (one ALE's model calls)."""
    method = check_choice(method, METHODS, param="method", caller=_CALLER)
    uniform = isinstance(grid, str)
    if uniform and grid != "uniform":
        raise ValueError(f"The 'grid' parameter of {_CALLER} must be None, 'uniform' or a sequence of edges. "
                         f"Got {grid!r} instead.")
    if isinstance(feature, (list, tuple, np.ndarray)):
        raise TypeError(f"The 'feature' parameter of {_CALLER} must be one column label or position. "
                        f"Got {feature!r} instead.")
    job = _Job(X, feature, caller_name=_CALLER,
               conventions="aleplot", n_intervals=None if (uniform or grid is not None) else n_intervals,
               grid=None, level_order=level_order, max_rows_per_call=max_rows_per_call, feature_names=feature_names,
               sample_weight=sample_weight, ci_level=ci_level, y=None)
    names, kind, plan = job.planned[0]
    split_names = _conditioning_names(job.X, names[0], conditioning)
    job.conditioning = (split_names, [read_conditioning(job.X[name], level_limit=level_limit, caller=_CALLER)
                                      for name in split_names])
    if kind == "categorical":
        if method == "gradient" or grid is not None:
            raise ValueError(f"The '{'method' if method == 'gradient' else 'grid'}' parameter of {_CALLER} applies "
                             f"to a numeric feature; {names[0]!r} is categorical.")
        adapter, caller = job.caller_for(model, response, response_method)
        local = level_differences(plan, job.X, caller, rows_per_call=max_rows_per_call)
        _require_one_output(local.differences, caller)
        job.outputs = tuple(map(str, _output_names(adapter, caller)))
        at_levels = None
        if _is_nominal(job.X[names[0]], feature_type):
            at_levels = level_predictions(plan, job.X, caller, rows_per_call=max_rows_per_call)
        return job, dataclasses.replace(local, weights=job.weights, at_levels=at_levels)
    values = job.X[names[0]].to_numpy(dtype=float)
    edges = None
    if uniform:
        count = UNIFORM_INTERVALS if n_intervals is None else check_int(n_intervals, param="n_intervals",
                                                                        caller=_CALLER, minimum=1)
        edges = uniform_edges(values, count)
    elif grid is not None:
        edges = _user_edges(grid, values, names[0])
    adapter, caller = job.caller_for(array_model(model, jacobian) if method == "gradient" else model, response,
                                     response_method)
    if method == "gradient" or jacobian is not None:
        job.planned = rhale_plans(job.planned, job.X, job.weights, engine_data=None, conventions="aleplot",
                                  method=method, model=model, jacobian=jacobian, binning=None, caller=caller,
                                  max_rows=max_rows_per_call, caller_name=_CALLER)
        plan = job.planned[0][2]
    edges, bins, differences = finite_differences(plan, job.X, caller, edges=edges, rows_per_call=max_rows_per_call)
    _require_one_output(differences, caller)
    local = LocalEffects(names[0], edges, bins, differences, values, job.weights, uniform=uniform)
    job.outputs = tuple(map(str, _output_names(adapter, caller)))
    return job, local


def _is_nominal(column: pd.Series, feature_type: str) -> bool:
    """effector's inference from a pandas column: an ordered categorical is ordinal, any other nominal."""
    if feature_type != "auto":
        return feature_type == "nominal"
    return not (isinstance(column.dtype, pd.CategoricalDtype) and column.dtype.ordered)


def _require_one_output(differences: np.ndarray, caller) -> None:
    if differences.shape[1] != 1:
        raise ValueError(
            f"Regions are found for one model output; the model has {differences.shape[1]} "
            f"({list(caller.output_names or [])!r}). Pick one with the 'response' parameter of {_CALLER}."
        )


def _user_edges(grid, values: np.ndarray, name) -> np.ndarray:
    try:
        edges = np.asarray(grid, dtype=float)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"The 'grid' parameter of {_CALLER} must be a sequence of numbers. Got {grid!r}.") from exc
    if edges.ndim != 1 or edges.shape[0] < 2 or not np.isfinite(edges).all() or not (np.diff(edges) > 0).all():
        raise ValueError(f"The 'grid' parameter of {_CALLER} must be at least two finite, strictly increasing "
                         f"edges. Got {grid!r} instead.")
    if edges[0] > values.min() or edges[-1] < values.max():
        raise ValueError(f"The 'grid' parameter of {_CALLER} must cover column {name!r}, from {values.min()!r} to "
                         f"{values.max()!r}. Got edges from {edges[0]!r} to {edges[-1]!r}.")
    return edges


def _conditioning_names(X: pd.DataFrame, name, conditioning) -> list:
    if conditioning is None:
        return [c for c in X.columns if not (type(c) is type(name) and c == name)]
    if isinstance(conditioning, (str, bytes)) or np.ndim(conditioning) == 0:
        conditioning = [conditioning]
    out = []
    for label in conditioning:
        column = resolve_column(X, label, param="conditioning", caller=_CALLER)
        if type(column) is type(name) and column == name:
            raise ValueError(f"The 'conditioning' parameter of {_CALLER} lists {name!r}, the feature itself; "
                             "regions are defined by other columns.")
        if column not in out:
            out.append(column)
    if not out:
        raise ValueError(f"The 'conditioning' parameter of {_CALLER} must name at least one column.")
    return out


def _region_result(name, kind: str, grid, curve, job, mask: np.ndarray) -> ALEResult:
    """A region's curve as an :class:`~pyale.ALEResult` (numeric: edges; categorical: levels in order)."""
    heterogeneity_at_nodes = np.full(curve.effects.shape, np.nan)
    heterogeneity_at_nodes[1:] = curve.local_sd
    result = ALEResult(
        features=(name,), kind=kind, grid=(grid,), effects=curve.effects, outputs=job.outputs,
        counts=curve.counts, level_order=grid if kind == "categorical" else None, empty_cells=None,
        conventions="aleplot", heterogeneity=heterogeneity_at_nodes,
        data_values=None if mask is None else FeatureValues(job.X[mask]))
    if curve.replicates is not None:
        result = result._with_bootstrap(curve.replicates, curve.replicate_counts, job.ci_level, "data")
    return result
