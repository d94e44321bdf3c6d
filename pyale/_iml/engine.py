"""iml's classes on a Dask, Spark or polars lazy frame.

``Predictor(data=ddf)`` keeps the frame and an
:class:`~pyale._core.engine_grid.EngineData` of its features;
``FeatureEffect`` computes ALE through the one path of :mod:`.run` (the
same code as for pandas) and partial dependence (``method="pdp"``) here,
with iml's grids and tables, identical to pandas.  ICE curves are one curve
per row, the size of the data itself: they are refused (collect the rows
you want curves of into pandas first).
"""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd

from .._core.engine_grid import EngineData, open_engine
from .._engines import as_engine, drop_column, engine_name, is_engine_frame
from .._core.engine_passes import PDAxis, pd_sums, probe, probe_rows
from .._core.features import Feature
from .._engines.columns import dtype_kind, level_codes
from .tables import pd_grid, pd_results

__all__ = ["engine_predictor_data", "engine_kinds", "engine_run", "is_engine_frame"]

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


def engine_run(effect) -> pd.DataFrame:
    """``FeatureEffect._run`` for partial dependence on the predictor's engine (ALE: :mod:`.run`)."""
    data: EngineData = effect.predictor.engine
    if effect.method in ("ice", "pdp+ice"):
        raise ValueError(
            f"The 'method' parameter of {_CALLER} is {effect.method!r}: ICE gives one curve per row, as large as "
            f"the data, so pyale does not compute it on a {data.engine.name}. Use method='pdp' or 'ale', or "
            "collect the rows you want curves of into pandas (e.g. ddf.sample(frac=...).compute())."
        )
    return _pd(effect, data)


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
