"""The front-ends on a Dask, Spark or polars lazy frame: arguments, features and plans from the engine.

:func:`pyale.ale`, :func:`pyale.ALEPlot`, :func:`pyale.PDPlot` and iml's
classes take a branch here when X is a Dask, Spark or polars lazy frame: the same
argument checks and the same error messages as for pandas (a bad value is
located by its 0-based row position, as an engine has no index), the grid
built from the engine's exact summaries
(:class:`~pyale._core.engine_grid.EngineData`), then the same
:func:`~pyale._core.estimate.estimate` over the engine's blocks.  What an
engine cannot do is refused with a message saying why.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ._checks import check_feature_options, check_numbers, check_pair_kinds, type_label
from ._core.bounds import check_pair_cells, pair_cell_limit
from ._engines import as_engine, column_checks, is_engine_frame, is_engine_object
from ._core.conventions import CONVENTIONS
from ._core.engine_grid import EngineData
from ._core.features import Feature, require_intervals, require_levels
from ._core.local import Plan

__all__ = ["open_engine", "response_column", "ale_plans", "read_pair", "read_pair_for", "is_engine_frame"]


def open_engine(X, *, caller: str, param: str = "X", sample_weight=None) -> EngineData:
    """The engine of a Dask, Spark or polars lazy frame, checked as ``check_frame`` checks a pandas one.

    ``sample_weight`` must name a column of X (it cannot be aligned with the
    partitions otherwise); that column is then no feature and the model
    never sees it.
    """
    engine = as_engine(X)
    columns = list(engine.columns)
    dupes = list(dict.fromkeys(c for i, c in enumerate(columns) if c in columns[:i]))
    if dupes:
        raise ValueError(
            f"The {param!r} parameter of {caller} must have unique column names. Got duplicates {dupes!r} instead."
        )
    weight = None
    if sample_weight is not None:
        if isinstance(sample_weight, (list, tuple, np.ndarray, pd.Series, pd.Index)) or is_engine_object(sample_weight):
            raise TypeError(
                f"The 'sample_weight' parameter of {caller} must be the name of a column of X when X is a "
                f"{engine.name} (an array cannot be aligned with its partitions). Got {type_label(sample_weight)} "
                "instead."
            )
        if sample_weight not in columns:
            raise ValueError(
                f"The 'sample_weight' parameter of {caller} must name a column of X. Got {sample_weight!r}; the "
                f"columns are {columns[:10]!r}{'' if len(columns) <= 10 else f' and {len(columns) - 10} more'}."
            )
        weight = sample_weight
    data = EngineData(engine, weight=weight, caller=caller)
    n_rows, n_columns = data.engine.n_rows, len(data.columns)
    if n_rows == 0 or n_columns == 0:
        raise ValueError(
            f"The {param!r} parameter of {caller} must have at least one row and one column. "
            f"Got shape {(n_rows, n_columns)} instead."
        )
    return data


def response_column(data: EngineData, y, *, caller: str, param: str = "y"):
    """The observed response: a column of X holding finite numbers (checked in one pass)."""
    from ._core.engine_grid import first_where

    if isinstance(y, (list, tuple, np.ndarray, pd.Series)) or is_engine_object(y):
        raise TypeError(
            f"The {param!r} parameter of {caller} must be the name of a column of X when X is a "
            f"{data.engine.name}. Got {type_label(y)} instead."
        )
    if y not in list(data.engine.columns) or y == data.weight:
        raise ValueError(
            f"The {param!r} parameter of {caller} must be one number per row of X or the name of a column of X. "
            f"Got {y!r}, which is not a column."
        )
    check = column_checks(data.engine, [y])[y]
    what = f"The {param!r} parameter of {caller} must be finite numbers, one per row of X ({data.engine.n_rows})."
    if check.kind == "bool":
        raise TypeError(f"{what} Got booleans instead.")
    if check.kind != "numeric":
        raise TypeError(f"{what} Got values of dtype {check.dtype} instead.")
    if check.n_missing or check.n_infinite:
        count, position, row = first_where(data.engine, _NotFinite(y))
        raise ValueError(
            f"The {param!r} parameter of {caller} must hold finite numbers. Got {float(row[y].iloc[0])!r} at "
            f"position {position} ({count} missing or infinite value(s))."
        )
    return y


class _NotFinite:
    """Rows whose column is missing or infinite (picklable: it travels to the workers)."""

    def __init__(self, column):
        self.column = column

    def __call__(self, block):
        return ~np.isfinite(block[self.column].to_numpy(dtype=float, na_value=np.nan))


# ----------------------------------------------------------------------------- pyale.ale
def _user_edges(grid, name, caller: str) -> np.ndarray:
    points = check_numbers(grid, param="grid", caller=caller, where=f"column {name!r}")
    edges = np.unique(points)
    if edges.shape[0] < 2 or not np.all(np.isfinite(edges)):
        raise ValueError(
            f"The 'grid' parameter of {caller} must hold at least two distinct finite values "
            f"for column {name!r}. Got {grid!r} instead."
        )
    return edges


def _covering(data: EngineData, name, edges, caller: str) -> None:
    low, high = data.value_range(name)
    if low < edges[0] or high > edges[-1]:
        raise ValueError(
            f"The 'grid' parameter of {caller} must cover column {name!r} "
            f"([{low!r}, {high!r}]). Got edges from {float(edges[0])!r} to {float(edges[-1])!r}."
        )


def _not_constant(data: EngineData, feature: Feature, label: str) -> None:
    low, high = data.value_range(feature.name)
    if low == high:
        require_intervals(np.array([low]), label)


class _Numeric:
    """A numeric axis to be: its feature and its user grid (None: the convention's edges)."""

    def __init__(self, feature: Feature, grid):
        self.feature, self.grid, self.edges = feature, grid, None


def _numeric(data, feature, grid, caller) -> _Numeric:
    if grid is not None:
        edges = _user_edges(grid, feature.name, caller)
        _covering(data, feature.name, edges, caller)
        axis = _Numeric(feature, grid)
        axis.edges = edges
        return axis
    _not_constant(data, feature, f"Column {feature.name!r}")
    return _Numeric(feature, None)


def read_pair_for(data, names, conventions, caller):
    """pyale.ale's pair rules: categorical first; under iml's conventions either order.

    ``data`` is the rows (:class:`~pyale._core.frame_grid.FrameData` or
    :class:`~pyale._core.engine_grid.EngineData`); returns the two features
    and their names in the order used.
    """
    if conventions == "iml":
        first = data.feature(names[0], f"Column {names[0]!r}")
        second = data.feature(names[1], f"Column {names[1]!r}")
        if first.categorical and second.categorical:
            raise ValueError(
                f"{caller} does not compute ALE for two categorical features ({names[0]!r}, "
                f"{names[1]!r}); iml 0.11.4 stops with 'ALE for two categorical features is not "
                "yet implemented.'"
            )
        if second.categorical:
            return second, first, (names[1], names[0])
        return first, second, tuple(names)
    first, second = read_pair(data, names, caller, param="features")
    return first, second, tuple(names)


def read_pair(data, names, caller_name: str, param: str = "J"):
    """Read a pair of features: numeric x numeric or categorical x numeric, else a clear error.

    ALEPlot's pair rules, on any rows (``data`` as for :func:`read_pair_for`);
    ``param`` is how messages name the argument that chose the pair (``J``,
    or ``features`` for :func:`pyale.ale`).
    """
    first = data.feature(names[0], f"Column {names[0]!r} ({param}[0])")
    second = data.feature(names[1], f"Column {names[1]!r} ({param}[1])")
    check_pair_kinds(first.categorical, second.categorical, names, caller_name, param)
    return first, second


def ale_plans(data: EngineData, entries: list, options: list, conventions: str, n_intervals, caller: str,
              pair_grids) -> list:
    """``(names, kind, Plan)`` of every entry of :func:`pyale.ale` on an engine.

    ``options[i]`` is entry ``i``'s ``(grid, level_order)``; ``pair_grids``
    validates a pair's grid (the pandas path's own function).  Every
    feature's checks come from one pass, all default edges from shared
    passes, the user grids' counts from one pass.
    """
    data.checks(list(dict.fromkeys(name for entry in entries for name in entry)))
    staged = []
    for entry, (grid, level_order) in zip(entries, options):
        if len(entry) == 1:
            name = entry[0]
            feature = data.feature(name, f"Column {name!r}")
            check_feature_options(feature.categorical, name, grid, level_order, caller)
            if feature.categorical:
                require_levels(feature, f"Column {name!r}")
                staged.append((entry, "categorical", [feature], level_order, grid))
            else:
                staged.append((entry, "numeric", [_numeric(data, feature, grid, caller)], None, grid))
            continue
        given = tuple(entry)
        first, second, names = read_pair_for(data, given, conventions, caller)
        grid1, grid2 = (None, None) if grid is None else pair_grids(grid, given)
        if level_order is not None and not first.categorical:
            raise ValueError(
                f"The 'level_order' parameter of {caller} applies to a categorical feature; columns "
                f"{given[0]!r} and {given[1]!r} are numeric."
            )
        if names != given:
            grid1, grid2 = grid2, grid1
        second_axis = _numeric(data, second, grid2, caller)
        if first.categorical:
            require_levels(first, f"Column {first.name!r}")
            staged.append((names, "categorical x numeric", [first, second_axis], level_order, grid))
        else:
            staged.append((names, "numeric x numeric", [_numeric(data, first, grid1, caller), second_axis],
                           None, grid))
    _edges(data, [axis for _, _, axes, _, _ in staged for axis in axes], conventions, n_intervals, caller)
    planned = []
    convention = CONVENTIONS[conventions]
    for names, kind, axes, level_order, grid in staged:
        if kind == "numeric":
            planned.append((names, kind, Plan((_axis(data, axes[0]),), convention, spread=True)))
            continue
        if kind == "categorical":
            order = data.level_order(axes[0], level_order, caller=caller)
            planned.append((names, kind, Plan((data.level_axis(axes[0], order),), convention, spread=True)))
            continue
        first, second = axes
        limit = pair_cell_limit(data.n_rows)
        if kind == "categorical x numeric":
            order = data.level_order(first, level_order, caller=caller)
            shape = (len(first.levels), second.edges.shape[0] - 1)
            _check_cells(data, names, shape, n_intervals, grid, f"Use n_intervals <= {max(1, limit // shape[0]):,}.",
                         caller)
            planned.append((names, kind, Plan((data.level_axis(first, order), _axis(data, second)),
                                              convention, spread=True)))
            continue
        shape = (first.edges.shape[0] - 1, second.edges.shape[0] - 1)
        _check_cells(data, names, shape, n_intervals, grid, f"Use n_intervals <= {math.isqrt(limit):,}.", caller)
        planned.append((names, kind, Plan((_axis(data, first), _axis(data, second)),
                                          convention, spread=True)))
    return planned


def _check_cells(data, names, shape, n_intervals, grid, advice, caller) -> None:
    param, value = ("grid", None) if grid is not None else ("n_intervals", n_intervals)
    if grid is not None:
        advice = "Pass fewer edges."
    check_pair_cells(data.n_rows, shape, param=param, caller=caller, features=tuple(names), value=value,
                     advice=advice)


def _axis(data: EngineData, numeric: _Numeric):
    return data.numeric_axis(numeric.feature, numeric.edges)


def _edges(data: EngineData, axes: list, conventions: str, n_intervals, caller: str) -> None:
    """Fill in every numeric axis' edges: the convention's (shared passes), user grids checked (one pass)."""
    numeric = [a for a in axes if isinstance(a, _Numeric)]
    convention = CONVENTIONS[conventions]
    k = convention.default_intervals if n_intervals is None else n_intervals
    default = list({a.feature.name: a.feature for a in numeric if a.grid is None}.values())
    if default:
        found = data.edges(default, convention, k, param="n_intervals")
        for a in numeric:
            if a.grid is None:
                a.edges = require_intervals(found[a.feature.name], f"Column {a.feature.name!r}")
    user = {a.feature.name: a.edges for a in numeric if a.grid is not None}
    if user:
        counts = data.interval_counts(user)
        for name, edges in user.items():
            empty = np.flatnonzero(counts[name][1] == 0)
            if empty.shape[0]:
                k = int(empty[0])
                raise ValueError(
                    f"The 'grid' parameter of {caller} leaves interval ({float(edges[k])!r}, "
                    f"{float(edges[k + 1])!r}] of column {name!r} without rows; "
                    "ALE needs at least one row per interval."
                )
