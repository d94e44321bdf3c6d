"""``PDPlot``: ALEPlot 1.1's partial dependence function with R's argument names."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Callable, Sequence

import numpy as np
import pandas as pd

from ._aleplot import r_shaped_caller
from ._core.features import Feature, read_feature
from ._core.frame_grid import FrameData
from ._core.shifted import categorical_column_values, numeric_column_values
from ._core.pd import DEFAULT_ROWS_PER_CALL, grid_predictions
from ._core.bounds import check_pd_points, pd_point_limit
from ._rbase import bin_right_closed, level_counts, r_seq
from ._results import PDPlotResult
from ._checks import is_tuple_label, resolve_column, resolve_pair
from ._frames import as_pandas
from ._engine_plans import is_engine_frame, open_engine, read_pair
from ._core.engine_grid import EngineData
from ._core.engine_passes import PDAxis, pd_sums, probe, probe_rows

__all__ = ["PDPlot"]

_CALLER = "PDPlot"


def _numeric_grid(feature: Feature, K: int, which: str) -> tuple[np.ndarray, np.ndarray]:
    """R's ``seq(min, max, length.out = K)`` and the rows per grid value.

    R counts rows with ``cut(x, c(min - step, grid), include.lowest = TRUE)``:
    the first grid value gets the rows at the minimum, grid value ``k`` the
    rows in ``(grid[k-1], grid[k]]``.
    """
    low, high = feature.values.min(), feature.values.max()
    if low == high:
        raise ValueError(
            f"Column {feature.name!r} ({which}) is constant ({float(low)!r}); partial dependence "
            "over its range is undefined."
        )
    if K == 1:
        # R: seq(min, max, length.out = 1) is the minimum; one grid value, centred to 0.
        return np.array([low]), np.zeros(feature.values.shape[0], dtype=np.int64)
    grid = r_seq(low, high, K)
    breaks = np.concatenate(([low - (grid[1] - grid[0])], grid))
    bins = bin_right_closed(feature.values, breaks)
    return grid, bins


def _setter(frame: pd.DataFrame, feature: Feature, grid_values):
    column = frame[feature.name]
    if feature.categorical:
        return lambda points: categorical_column_values(column, feature, points)
    grid = np.asarray(grid_values, dtype=float)
    return lambda points: numeric_column_values(column, grid[points])


def _single(X, caller, name, K, rows_per_call):
    feature = read_feature(X[name], label=f"Column {name!r} (J)")
    purpose = f"partial dependence of {name!r}"
    if feature.categorical:
        grid = list(feature.levels)
        counts = level_counts(feature.codes, len(grid))
        setter = _setter(X, feature, None)
    else:
        check_pd_points(X.shape[0], (K,), param="K", caller=_CALLER, value=K,
                        advice=f"Use K <= {pd_point_limit(X.shape[0]):,}.")
        grid, bins = _numeric_grid(feature, K, "J")
        counts = level_counts(bins, K)
        setter = _setter(X, feature, grid)
    means = grid_predictions(
        X, {name: setter}, len(grid), caller, rows_per_call=rows_per_call, purpose=purpose
    )[:, 0]
    return _single_result(X.columns, name, feature.categorical, grid, counts, means)


def _single_result(columns, name, categorical: bool, grid, counts, means) -> PDPlotResult:
    """The centred curve: by its count-weighted mean (level shares for a categorical feature)."""
    if categorical:
        shares = counts / counts.sum()
        centred = means - (means * shares).sum()
    else:
        centred = means - (means * counts).sum() / counts.sum()
    return PDPlotResult(
        x_values=grid, f_values=centred, feature=name, kind="categorical" if categorical else "numeric",
        counts=counts, column_number=columns.get_loc(name) + 1,
    )


def _pair(X, caller, J, K, rows_per_call):
    names = resolve_pair(X, J, caller_name=_CALLER)
    first, second = read_pair(FrameData(X, caller=_CALLER), names, caller_name=_CALLER)
    limit = pd_point_limit(X.shape[0])
    if first.categorical:
        n_levels = len(first.levels)
        check_pd_points(X.shape[0], (n_levels, K), param="K", caller=_CALLER, value=K,
                        advice=f"Use K <= {max(1, limit // n_levels):,} beside {n_levels} levels.")
    else:
        check_pd_points(X.shape[0], (K, K), param="K", caller=_CALLER, value=K,
                        advice=f"Use K <= {math.isqrt(limit):,}.")
    grid2, bins2 = _numeric_grid(second, K, "J[1]")
    if first.categorical:
        grid1 = list(first.levels)
        bins1 = first.codes
        kind = "categorical x numeric"
    else:
        grid1, bins1 = _numeric_grid(first, K, "J[0]")
        kind = "numeric x numeric"
    n1, n2 = len(grid1), len(grid2)
    set1 = _setter(X, first, grid1)
    set2 = _setter(X, second, grid2)
    means = grid_predictions(
        X,
        {names[0]: lambda points: set1(points // n2), names[1]: lambda points: set2(points % n2)},
        n1 * n2,
        caller,
        rows_per_call=rows_per_call,
        purpose=f"partial dependence of ({names[0]!r}, {names[1]!r})",
    )[:, 0].reshape(n1, n2)
    counts = np.bincount(bins1 * n2 + bins2, minlength=n1 * n2).reshape(n1, n2)
    return _pair_result(X.columns, names, kind, grid1, grid2, counts, means)


def _pair_result(columns, names, kind, grid1, grid2, counts, means) -> PDPlotResult:
    """The surface without both main effects and a count-weighted constant, as ALEPlot 1.1."""
    counts1, counts2 = counts.sum(axis=1), counts.sum(axis=0)
    main1 = (means * counts2[None, :]).sum(axis=1) / counts2.sum()
    main2 = (means * counts1[:, None]).sum(axis=0) / counts1.sum()
    surface = means - main1[:, None] - main2[None, :]
    surface = surface - (surface * counts).sum() / counts.sum()
    return PDPlotResult(
        x_values=(grid1, grid2), f_values=surface, feature=names, kind=kind, counts=counts,
        column_number=tuple(columns.get_loc(n) + 1 for n in names),
    )


# ----------------------------------------------------------------------------- on a Dask or Spark frame
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


def PDPlot(
    X: pd.DataFrame,
    X_model: object,
    pred_fun: Callable[[object, pd.DataFrame], object],
    J: object,
    K: int,
    plot: bool = True,
    *,
    max_rows_per_call: int | None = DEFAULT_ROWS_PER_CALL,
    ax=None,
    feature_names: Sequence | None = None,
) -> PDPlotResult:
    """Partial dependence of one feature or a pair, as R's ``ALEPlot::PDPlot``.

    Parameters
    ----------
    X : pandas.DataFrame, polars.DataFrame or LazyFrame, pyarrow.Table, numpy.ndarray, or a Dask or Spark DataFrame
        The data (R's ``X``), read as in :func:`pyale.ALEPlot`; ``pred_fun``
        receives ``newdata`` of the same type.  Never modified.
    X_model : object
        Passed unchanged to ``pred_fun`` (R's ``X.model``).
    pred_fun : callable
        ``pred_fun(X_model, newdata)`` returning one number per row.
    J : str, int, or pair of them
        Column name or **0-based** position (R's ``J`` is 1-based).  For a
        pair, a categorical feature must come first.
    K : int
        Number of grid values of a numeric feature (``seq(min, max,
        length.out = K)``, R's ``K``; a NumPy integer or whole float is
        accepted); a categorical feature uses its levels.  At most
        ``max(4096, 2**24 // rows)`` grid points in all (the product for a
        pair): each costs a prediction of every row (see
        ``docs/deviations.md``).
    plot : bool, default True
        Draw the picture as R does.
    max_rows_per_call : int or None, default 100000
        Keyword-only.  R calls the model once per grid value on the whole
        data; pyale stacks grid values into one call while the stacked frame
        has at most this many rows (``None``: all grid values in one call).
        The numbers do not depend on it.
    ax : matplotlib Axes, optional
        Keyword-only: draw into these axes.
    feature_names : sequence, optional
        Keyword-only: column names of a NumPy ``X`` (``x0``, ``x1``, ... by default).

    Returns
    -------
    PDPlotResult
        ``x_values`` and ``f_values`` as R's list, plus the counts used for
        centring.

    Notes
    -----
    The curve is centred by its count-weighted mean, with counts from
    ``cut(x, c(min - step, grid), include.lowest = TRUE)`` for a numeric
    feature and level frequencies for a categorical one; a pair has both
    main effects and a count-weighted constant removed, as ALEPlot 1.1.
    With ``K = 1`` the grid is the minimum alone and the centred curve is 0, as in R.

    References
    ----------
    Friedman, J. H. (2001). Greedy function approximation: a gradient
    boosting machine. Annals of Statistics 29(5).  ALEPlot 1.1 (R package).

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> X = pd.DataFrame({"x": np.arange(10.0), "z": np.ones(10)})
    >>> res = PDPlot(X, None, lambda m, d: 2 * d["x"].to_numpy(), J="x", K=4, plot=False)
    >>> res.x_values.tolist(), res.f_values.round(6).tolist()
    ([0.0, 3.0, 6.0, 9.0], [-10.8, -4.8, 1.2, 7.2])
    """
    X, native = as_pandas(X, param="X", caller=_CALLER, feature_names=feature_names)
    data = None
    if is_engine_frame(X):  # Dask or Spark: checked on a few rows, computed on the engine
        data = open_engine(X, caller=_CALLER)
        X = probe_rows(data)
    K, plot, max_rows_per_call, caller = r_shaped_caller(
        X, X_model, pred_fun, K, plot, max_rows_per_call, caller_name=_CALLER, native=native
    )
    one = is_tuple_label(X, J, param="J", caller=_CALLER, pair_form="the list {pair}")
    pair = not one and isinstance(J, (tuple, list, np.ndarray, pd.Index))
    if pair and data is not None:
        result = _pair_result(X.columns, *engine_pd_pair(data, caller, J, K, max_rows_per_call))
    elif pair:
        result = _pair(X, caller, J, K, max_rows_per_call)
    else:
        name = resolve_column(X, J, param="J", caller=_CALLER)
        if data is not None:
            feature, grid, counts, means = engine_pd_single(data, caller, name, K, max_rows_per_call)
            result = _single_result(X.columns, name, feature.categorical, grid, counts, means)
        else:
            result = _single(X, caller, name, K, max_rows_per_call)
    if plot:
        result = replace(result, display=result.plot(ax=ax))
    return result
