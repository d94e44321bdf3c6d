"""iml's effect computations and the shape of its ``results`` data frames.

Each function takes the features' data, the model (``predict(frame,
purpose) -> (n, n_outputs)``) and iml's settings, calls the shared estimator
core, and lays the numbers out exactly as iml 0.11.4's ``results``: its
columns, column order, row order and column types.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._core.features import Feature
from .._core.shifted import categorical_column_values, numeric_column_values
from .._core.pd import grid_predictions
from .._rbase import r_seq

__all__ = [
    "numeric_table",
    "categorical_table",
    "pd_grid",
    "pd_results",
    "class_column",
    "RESERVED_COLUMNS",
    "check_feature_names",
    "results_frame",
]

RESERVED_COLUMNS = {
    "ale": (".type", ".value", ".class"),
    "ale pair": (".type", ".ale", ".right", ".left", ".bottom", ".top", ".class"),
    "pdp": (".type", ".value", ".class"),
    "ice": (".type", ".value", ".class", ".id"),
    "pdp+ice": (".type", ".value", ".class", ".id"),
}
"""The columns of iml's ``results`` beside the features', per method (``.class`` with several outputs)."""


def check_feature_names(names, method: str, caller: str) -> None:
    """Refuse a feature named like one of iml's own result columns.

    iml 0.11.4 either stops with an unrelated error or returns a table with
    the feature's column lost or overwritten (see ``docs/deviations.md``);
    pyale keeps iml's column names, so such a feature cannot be laid out.
    """
    reserved = RESERVED_COLUMNS["ale pair" if method == "ale" and len(names) == 2 else method]
    for name in names:
        if isinstance(name, str) and name in reserved:
            raise ValueError(
                f"The 'feature' parameter of {caller} names feature {name!r}, which is the name of one of "
                f"the columns of iml's results table for method {method!r} ({list(reserved)!r}). Rename "
                "that column of the data (iml 0.11.4 fails or loses the column here: see docs/deviations.md)."
            )


def results_frame(columns: dict) -> pd.DataFrame:
    """A results table from ``{label: values}`` in order; a tuple label stays one label (no MultiIndex)."""
    frame = pd.DataFrame(dict(enumerate(columns.values())))
    frame.columns = pd.Index(list(columns), tupleize_cols=False)
    return frame


def class_column(outputs: list, codes: np.ndarray) -> pd.Categorical:
    """iml's ``.class`` column: a factor over the output names."""
    return pd.Categorical.from_codes(codes, categories=list(outputs))


def _long(effects: np.ndarray, outputs: list, value_name: str) -> dict:
    """Grid-major, output-minor columns ``[.class], value`` of iml's long tables."""
    n_points, n_outputs = effects.shape
    columns = {}
    if n_outputs > 1:
        columns[".class"] = class_column(outputs, np.tile(np.arange(n_outputs), n_points))
    columns[value_name] = effects.reshape(-1)
    return columns


def numeric_table(effect, name, edges, outputs) -> pd.DataFrame:
    """iml's 1-D ALE table of a numeric feature: columns ``.type, [.class], .value, <feature>``."""
    n_points, n_outputs = effect.effects.shape
    columns = {".type": np.full(n_points * n_outputs, "ale", dtype=object)}
    columns.update(_long(effect.effects, outputs, ".value"))
    columns[name] = np.repeat(edges.astype(float), n_outputs)
    return results_frame(columns)


def categorical_table(effect, name, outputs) -> pd.DataFrame:
    """iml's 1-D ALE table of a categorical feature: levels in the order used, as a factor."""
    n_levels, n_outputs = effect.effects.shape
    columns = {".type": np.full(n_levels * n_outputs, "ale", dtype=object)}
    columns.update(_long(effect.effects, outputs, ".value"))
    labels = list(effect.grid)
    columns[name] = pd.Categorical.from_codes(
        np.repeat(np.arange(n_levels), n_outputs), categories=labels
    )
    return results_frame(columns)


def pd_grid(feature: Feature, series: pd.Series, grid_size: int, grid_points, anchor, *,
            value_range=None, appearance=None):
    """iml's PDP/ICE grid for one feature: ``(values, level_index)``.

    Numeric: ``seq(min, max, length.out = grid_size)``, rounded for integer
    columns (repeats kept, as iml), with ``center_at`` added in sorted order
    when it is not a grid value; or the user's points.  Categorical: the
    values in order of first appearance.  ``level_index`` maps categorical
    grid values to ``feature.levels`` (None for numeric).  ``value_range``
    (the minimum and maximum) and ``appearance`` (level indices in order of
    first appearance) stand in for the feature's values on an engine.
    """
    if feature.categorical:
        if grid_points is not None:
            wanted = list(dict.fromkeys(grid_points))
            position = {level: i for i, level in enumerate(feature.levels)}
            unknown = [g for g in wanted if g not in position]
            if unknown:
                raise ValueError(
                    f"The 'grid_points' parameter of FeatureEffect must hold levels of feature "
                    f"{feature.name!r} ({list(feature.levels)!r}). Got {unknown!r}."
                )
            index = np.array([position[g] for g in wanted], dtype=np.int64)
        elif appearance is not None:
            index = np.asarray(appearance, dtype=np.int64)
        else:
            _, first = np.unique(feature.codes, return_index=True)
            index = feature.codes[np.sort(first)]
        return [feature.levels[i] for i in index], index
    if grid_points is not None:
        grid = np.asarray(list(dict.fromkeys(np.asarray(grid_points, dtype=float).tolist())), dtype=float)
    else:
        low, high = (feature.values.min(), feature.values.max()) if value_range is None else value_range
        grid = np.array([low]) if grid_size == 1 else r_seq(low, high, grid_size)
        if feature.integer:
            grid = np.round(grid)
    if anchor is not None and not np.any(grid == anchor):
        grid = np.sort(np.append(grid, float(anchor)))
    return grid, None


def _setter(frame: pd.DataFrame, feature: Feature, grid, level_index):
    column = frame[feature.name]
    if feature.categorical:
        return lambda points: categorical_column_values(column, feature, level_index[points])
    grid = np.asarray(grid, dtype=float)
    return lambda points: numeric_column_values(column, grid[points])


def _grid_column(feature: Feature, series: pd.Series, values: list | np.ndarray):
    """A results column holding grid values with iml's type for the feature."""
    if not feature.categorical:
        return np.asarray(values, dtype=float)
    if isinstance(series.dtype, pd.CategoricalDtype):
        return pd.Categorical(list(values), dtype=pd.CategoricalDtype(series.dtype.categories, ordered=series.dtype.ordered))
    out = np.empty(len(values), dtype=object)
    out[:] = list(values)
    return out


def pd_results(
    frame: pd.DataFrame,
    features: list[Feature],
    grids: list,
    level_indices: list,
    predict,
    outputs_of,
    *,
    method: str,
    anchor,
    batch_size: int,
    means: np.ndarray | None = None,
    n_rows: int | None = None,
) -> pd.DataFrame:
    """iml's PDP / ICE / PDP+ICE table for one feature or a pair.

    The model is asked about every row at every grid point (pairs: every
    combination, the first feature varying fastest).  PDP rows come first,
    one per distinct grid value (and output); ICE rows follow, sorted by row
    id, then (several outputs) by batch, output and grid point.  iml's
    batches hold ``batch_size`` rows of its point-by-point stack; when one
    splits a grid point's rows, iml's order within an id depends on R's
    random permutation, and pyale puts the point in the batch where its rows
    start.  Given ``means`` (per grid point and output, already centred at
    ``anchor``; an engine's) and ``n_rows``, only the PDP table is laid out.
    """
    n_rows = frame.shape[0] if n_rows is None else n_rows
    sizes = [len(g) for g in grids]
    n_points = int(np.prod(sizes))
    if len(features) == 1:
        point_index = [np.arange(n_points)]
    else:
        point_index = [np.arange(n_points) % sizes[0], np.arange(n_points) // sizes[0]]
    setters = {}
    for feature, grid, level_index, index in zip(features, grids, level_indices, point_index):
        set_values = _setter(frame, feature, grid, level_index)
        setters[feature.name] = (lambda s, idx: (lambda points: s(idx[points])))(set_values, index)
    names = " and ".join(repr(f.name) for f in features)
    if means is not None:
        y = None
        n_outputs = means.shape[1]
    else:
        y = grid_predictions(
            frame, setters, n_points, predict, rows_per_call=batch_size,
            purpose=f"partial dependence of {names}", average=False,
        )  # (n_points, n_rows, n_outputs)
        n_outputs = y.shape[2]
    outputs = outputs_of()
    if anchor is not None and y is not None:
        grid = grids[0]
        if features[0].categorical:
            hits = [i for i, g in enumerate(grid) if g == anchor]
        else:
            hits = np.flatnonzero(np.asarray(grid, dtype=float) == float(anchor)).tolist()
        y = y - y[hits[0]][None, :, :]

    grid_values = [
        [np.asarray(g, dtype=object)[idx] if f.categorical else np.asarray(g, dtype=float)[idx]]
        for f, g, idx in zip(features, grids, point_index)
    ]
    series = [frame[f.name] for f in features]
    blocks = []
    if method in ("pdp", "pdp+ice"):
        means = y.mean(axis=1) if y is not None else means  # (n_points, n_outputs)
        points = np.repeat(np.arange(n_points), n_outputs)
        classes = np.tile(np.arange(n_outputs), n_points)
        if n_outputs > 1:
            # iml groups its batches' rows in order of first appearance: batch, then output, then point.
            if anchor is None:
                first_batch = (points * n_rows) // batch_size
            else:
                first_batch = np.zeros_like(points)
            order = np.lexsort((points, classes, first_batch))
            points, classes = points[order], classes[order]
        keys = [tuple(gv[0][p] for gv in grid_values) + (c,) for p, c in zip(points, classes)]
        _, first = np.unique(np.array([repr(k) for k in keys], dtype=object), return_index=True)
        keep = np.sort(first)
        points, classes = points[keep], classes[keep]
        pdp = {}
        for f, gv, s in zip(features, grid_values, series):
            pdp[f.name] = _grid_column(f, s, gv[0][points])
        if n_outputs > 1:
            pdp[".class"] = class_column(outputs, classes)
        pdp[".value"] = means[points, classes]
        pdp[".type"] = np.full(points.shape[0], "pdp", dtype=object)
        blocks.append(results_frame(pdp))
    if method in ("ice", "pdp+ice"):
        ids = np.repeat(np.arange(n_rows), n_outputs * n_points)
        classes = np.tile(np.repeat(np.arange(n_outputs), n_points), n_rows)
        points = np.tile(np.arange(n_points), n_rows * n_outputs)
        if n_outputs > 1 and anchor is None:
            # Within a row id iml keeps its batches' order (batch, output, point); a grid
            # point's rows are placed in the batch where its block of rows starts.
            order = np.lexsort((points, classes, (points * n_rows) // batch_size, ids))
            ids, classes, points = ids[order], classes[order], points[order]
        ice = {}
        f = features[0]
        class_first = anchor is not None and n_outputs > 1 and method == "ice"
        if class_first:
            ice[".class"] = class_column(outputs, classes)
        ice[f.name] = _grid_column(f, series[0], grid_values[0][0][points])
        if n_outputs > 1 and not class_first:
            ice[".class"] = class_column(outputs, classes)
        ice[".value"] = y[points, ids, classes]
        ice[".type"] = np.full(points.shape[0], "ice", dtype=object)
        ice[".id"] = ids + 1
        blocks.append(results_frame(ice))
    out = pd.concat(blocks, ignore_index=True) if len(blocks) > 1 else blocks[0]
    if method == "pdp+ice":
        out[".id"] = out[".id"].astype("Int64")
        if not features[0].categorical:
            out[features[0].name] = out[features[0].name].astype(float)
    return out
