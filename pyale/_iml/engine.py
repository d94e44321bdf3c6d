"""iml's classes on a Dask, Spark or polars lazy frame.

``Predictor(data=ddf)`` keeps the frame and an
:class:`~pyale._core.engine_grid.EngineData` of its features;
``FeatureEffect`` then computes ALE (one feature or a pair, user grids
included) and partial dependence (``method="pdp"``) on the engine, with
iml's grids, level orders and tables, identical to pandas.  ICE curves are
one curve per row, the size of the data itself: they are refused (collect
the rows you want curves of into pandas first).
"""

from __future__ import annotations

import functools
import warnings

import numpy as np
import pandas as pd

from .._core.conventions import IML
from .._core.engine_grid import EngineData, InsideRange, open_engine
from .._engines import as_engine, drop_column, engine_name, is_engine_frame
from .._core.engine_passes import PDAxis, engine_estimate, pd_sums, probe, probe_rows
from .._core.features import Feature
from .._core.local import Plan
from .._core.main_effect import MainEffect
from .._core.pair_effect import PairEffect
from .._engines.columns import dtype_kind, level_codes
from .pairs import categorical_pair_table, check_cells, numeric_pair_table
from .tables import categorical_table, numeric_table, pd_grid, pd_results

__all__ = ["engine_predictor_data", "engine_kinds", "engine_features", "engine_run", "is_engine_frame"]

_CALLER = "FeatureEffect"


def engine_predictor_data(data, y, *, caller: str):
    """``(features frame, EngineData, y)``: the target column (a name) taken out of the features."""
    if y is not None and not isinstance(y, str):
        raise TypeError(
            f"The 'y' parameter of {caller} must be a column name when data is a {engine_name(data)} "
            f"(values cannot be aligned with its partitions). Got {type(y).__name__} instead."
        )
    columns = list(as_engine(data).columns)
    if y is not None:
        if y not in columns:
            raise ValueError(
                f"The 'y' parameter of {caller} must name a column of data. Got {y!r}; the "
                f"columns are {columns!r}."
            )
        data = drop_column(data, y)
    return data, open_engine(data, caller=caller, param="data"), y


def engine_kinds(data: EngineData) -> dict:
    """Each column's kind (an ``object`` column's from one pass over its values)."""
    kinds = {name: dtype_kind(data.engine.dtypes[name]) for name in data.columns}
    undecided = [name for name, kind in kinds.items() if kind is None]
    if undecided:
        kinds.update({name: check.kind for name, check in data.checks(undecided).items()})
    return kinds


def engine_features(data: EngineData, names) -> list[Feature]:
    """The features as ``read_feature`` reads them, refusing one with a single value as pandas does."""
    data.checks(list(names))
    features = [data.feature(name, f"Feature {name!r}") for name in names]
    for f in features:
        single = len(f.levels) < 2 if f.categorical else not np.less(*data.value_range(f.name))
        if single:
            raise ValueError(
                f"Feature {f.name!r} has a single value in the data; its effect is undefined "
                "(iml: 'feature has only one unique value')."
            )
    return features


def _order(data: EngineData, feature: Feature) -> np.ndarray:
    return data.level_order(feature, None, caller=_CALLER, failure="iml 0.11.4 fails here", hint="", stacklevel=6)


def _estimate(data: EngineData, plan: Plan, predict):
    probe(predict, probe_rows(data))
    (est,) = engine_estimate(data, [plan], predict)
    return est


def _edges(data: EngineData, feature: Feature, size: int, points) -> np.ndarray:
    if points is None:
        return data.edges([feature], IML, size, param="grid_size")[feature.name]
    return np.unique(np.asarray(points, dtype=float))


def _warn_outside(data: EngineData, inside: int, names: list) -> None:
    total = data.n_rows
    if inside == total:
        return
    if inside == 0:
        raise ValueError(
            "The 'grid_points' parameter of FeatureEffect leaves every row of the data outside "
            "the grid; ALE needs rows within it."
        )
    warnings.warn(
        f"{total - inside} of {total} rows lie outside grid_points of {', '.join(map(repr, names))} "
        "and are left out of the ALE (iml 0.11.4 misuses them: see docs/deviations.md).",
        UserWarning,
        stacklevel=6,
    )


def engine_run(effect) -> pd.DataFrame:
    """``FeatureEffect._run`` on the predictor's engine (sets ``effect.effect``)."""
    data: EngineData = effect.predictor.engine
    if effect.method in ("ice", "pdp+ice"):
        raise ValueError(
            f"The 'method' parameter of {_CALLER} is {effect.method!r}: ICE gives one curve per row, as large as "
            f"the data, so pyale does not compute it on a {data.engine.name}. Use method='pdp' or 'ale', or "
            "collect the rows you want curves of into pandas (e.g. ddf.sample(frac=...).compute())."
        )
    if effect.method != "ale":
        return _pd(effect, data)
    predict = effect.predictor._bounded(effect.max_rows_per_call)
    if effect.n_features == 2:
        table, effect.effect = _pair(effect, data, predict)
        return table
    feature = effect._features[0]
    if feature.categorical:
        order = _order(data, feature)
        est = _estimate(data, Plan((data.level_axis(feature, order),), IML), predict)
        effect.effect = MainEffect(grid=tuple(feature.levels[i] for i in order), effects=est.effects,
                                   counts=est.counts, local_effects=est.local_effects, level_order=order,
                                   estimate=est)
        return categorical_table(effect.effect, feature.name, effect._outputs_of())
    edges = _edges(data, feature, effect.grid_size[0], effect.grid_points)
    if edges.shape[0] < 2:
        raise ValueError(f"Feature {feature.name!r} has a single grid value; ALE is undefined.")
    occupied = None
    if effect.grid_points is not None:
        below, counts, above = data.interval_counts({feature.name: edges})[feature.name]
        _warn_outside(data, int(counts.sum()), [feature.name])
        occupied = counts > 0
    plan = Plan((data.numeric_axis(feature, edges, occupied),), IML, empty_intervals="zero")
    est = _estimate(data, plan, predict)
    effect.effect = MainEffect(grid=edges, effects=est.effects, counts=est.counts, local_effects=est.local_effects,
                               estimate=est)
    return numeric_table(effect.effect, feature.name, edges, effect._outputs_of())


def _pair(effect, data: EngineData, predict):
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
            keep = None
            for f, e in user:
                keep = InsideRange(f.name, float(e[0]), float(e[-1]), keep)
            inside = data.restricted(keep, [f.name for f, _ in user])
            _warn_outside(data, inside.n_rows, [f.name for f, _ in user])
            found = inside.interval_counts({first.name: edges1, second.name: edges2})
            occupied = [found[first.name][1] > 0, found[second.name][1] > 0]
        check_cells(effect, inside.n_rows, (len(edges1) - 1, len(edges2) - 1), points, (first, second))
        plan = Plan((data.numeric_axis(first, edges1, occupied[0]), data.numeric_axis(second, edges2, occupied[1])),
                    IML)
        est = _estimate(data, plan, predict)
        pair = PairEffect(grid1=edges1, grid2=edges2, effects=est.effects, counts=est.counts,
                          empty_cells=est.empty_cells, local_effects=est.local_effects, estimate=est)
        return numeric_pair_table(pair, effect._outputs_of(), first.name, second.name, edges1, edges2), pair
    cat, num = (first, second) if first.categorical else (second, first)
    num_index = 1 if first.categorical else 0
    edges = _edges(data, num, sizes[num_index], points[num_index])
    inside, occupied = data, None
    if points[num_index] is not None:
        inside = data.restricted(InsideRange(num.name, float(edges[0]), float(edges[-1])), [num.name])
        _warn_outside(data, inside.n_rows, [num.name])
        occupied = inside.interval_counts({num.name: edges})[num.name][1] > 0
        cat = inside.feature(cat.name, f"Feature {cat.name!r}")
        if len(cat.levels) < 2:
            raise ValueError(
                f"Feature {cat.name!r} has a single level among the rows within the grid; ALE across "
                "its levels is undefined."
            )
    cells = (len(cat.levels), len(edges) - 1) if first.categorical else (len(edges) - 1, len(cat.levels))
    check_cells(effect, inside.n_rows, cells, points, (first, second))
    order = _order(inside, cat)
    plan = Plan((data.level_axis(cat, order), data.numeric_axis(num, edges, occupied)), IML)
    est = _estimate(data, plan, predict)
    pair = PairEffect(grid1=tuple(cat.levels[i] for i in order), grid2=edges, effects=est.effects,
                      counts=est.counts, empty_cells=est.empty_cells, local_effects=est.local_effects,
                      level_order=order, estimate=est)
    return categorical_pair_table(pair, effect._outputs_of(), cat.name, num.name, edges), pair


# ----------------------------------------------------------------------------- partial dependence
def _first_block(block, offset, *, name, levels):
    codes = level_codes(block[name], levels)
    present, first = np.unique(codes, return_index=True)
    return {int(c): offset + int(i) for c, i in zip(present, first) if c >= 0}


def _first_combine(a, b):
    out = dict(a)
    for code, position in b.items():
        out[code] = min(out.get(code, position), position)
    return out


def first_appearance(data: EngineData, feature: Feature) -> np.ndarray:
    """Level indices in order of first appearance (one pass)."""
    levels = pd.Index(list(feature.levels), dtype=object)
    found = data.rows.map_reduce(functools.partial(_first_block, name=feature.name, levels=levels), _first_combine,
                                 columns=[feature.name]) or {}
    return np.array(sorted(found, key=found.__getitem__), dtype=np.int64)


def _layout_frame(data: EngineData, features) -> pd.DataFrame:
    """An empty frame with the features' dtypes as the rows have them (categories united)."""
    columns = {}
    for f in features:
        check = data.checks([f.name])[f.name]
        dtype = check.categorical_dtype if isinstance(check.dtype, pd.CategoricalDtype) else check.dtype
        columns[f.name] = pd.Series(dtype=dtype)
    return pd.DataFrame(columns)


def _pd(effect, data: EngineData) -> pd.DataFrame:
    features = effect._features
    user = [effect.grid_points] if effect.n_features == 1 else (effect.grid_points or [None, None])
    effect._check_pd_size(user)
    layout = _layout_frame(data, features)
    grids, indices = [], []
    for f, size, points in zip(features, effect.grid_size, user):
        anchor = effect.center_at if effect.n_features == 1 else None
        grid, index = pd_grid(
            f, layout[f.name], size, points, anchor,
            value_range=None if f.categorical else data.value_range(f.name),
            appearance=first_appearance(data, f) if f.categorical and points is None else None,
        )
        grids.append(grid)
        indices.append(index)
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
    predict = effect.predictor._bounded(effect.predictor.batch_size)
    probe(predict, probe_rows(data))
    names = " and ".join(repr(f.name) for f in features)
    found = pd_sums(data, axes, n_points, predict, rows_per_call=effect.predictor.batch_size,
                    purpose=f"partial dependence of {names}", anchor=hit)
    return pd_results(
        layout, features, grids, indices, predict, effect._outputs_of, method=effect.method,
        anchor=effect.center_at, batch_size=effect.predictor.batch_size, means=found["sums"] / found["rows"],
        n_rows=found["rows"],
    )
