"""``PDPlot``: ALEPlot 1.1's partial dependence function with R's argument names."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Callable, Sequence

import numpy as np
import pandas as pd

from ._aleplot import r_shaped_caller
from ._core.estimate import require_finite_effects
from ._core.features import Feature
from ._core.frame_grid import FrameData
from ._core.pd import DEFAULT_ROWS_PER_CALL
from ._core.bounds import check_pd_points, pd_point_limit
from ._rbase import r_seq
from ._results import PDPlotResult
from ._checks import is_tuple_label, resolve_column, resolve_pair
from ._frames import as_pandas
from ._core.engine_grid import open_engine
from ._core.pairs import read_pair
from ._engines import is_engine_frame
from ._core.engine_passes import probe, probe_rows
from ._core.pd import PDAxis, pd_sums

__all__ = ["PDPlot"]

_CALLER = "PDPlot"


def _numeric_grid(data, feature: Feature, K: int, which: str) -> tuple[np.ndarray, np.ndarray | None]:
    """R's ``seq(min, max, length.out = K)`` and the breaks R counts rows with (None for K = 1).

    R counts rows with ``cut(x, c(min - step, grid), include.lowest = TRUE)``:
    the first grid value gets the rows at the minimum, grid value ``k`` the
    rows in ``(grid[k-1], grid[k]]``.  With ``K = 1`` the grid is the minimum
    alone and every row counts there.
    """
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
    """The feature's axis of the grid points (counted by its breaks, or with K = 1 all at the one value)."""
    if feature.categorical:
        return PDAxis(feature.name, np.arange(len(feature.levels)), points, categorical=True, levels=feature.levels)
    if breaks is None:
        breaks = np.array([-np.inf, np.inf])
    return PDAxis(feature.name, grid, points, breaks=breaks)


def _mean_predictions(data, caller, axes: list, n_points: int, rows_per_call, purpose: str,
                      count_axes: list) -> tuple[np.ndarray, np.ndarray | None]:
    """The mean prediction per grid point over the rows, and the rows per cell of ``count_axes``."""
    if not data.engine.in_memory:  # the model's first call on the driver, before the passes
        probe(caller, probe_rows(data))
    found = pd_sums(data, axes, n_points, caller, rows_per_call=rows_per_call, purpose=purpose,
                    count_axes=count_axes)
    means = require_finite_effects(found["sums"] / found["rows"], f"mean prediction for {purpose}")
    return means[:, 0], found.get("counts")


def _single(data, caller, name, K: int, rows_per_call) -> tuple[Feature, list | np.ndarray, np.ndarray, np.ndarray]:
    """PDPlot of one feature: ``(feature, grid, counts, mean predictions)``.

    ``data`` is the rows: :class:`~pyale._core.frame_grid.FrameData` for a
    pandas frame, :class:`~pyale._core.engine_grid.EngineData` for an engine's.
    """
    feature = data.feature(name, f"Column {name!r} (J)")
    if feature.categorical:
        grid = list(feature.levels)
        axis = _axis(feature, None, None, np.arange(len(grid)))
    else:
        check_pd_points(data.n_rows, (K,), param="K", caller=_CALLER, value=K,
                        advice=f"Use K <= {pd_point_limit(data.n_rows):,}.")
        grid, breaks = _numeric_grid(data, feature, K, "J")
        axis = _axis(feature, grid, breaks, np.arange(len(grid)))
    means, counts = _mean_predictions(data, caller, [axis], len(grid), rows_per_call,
                                      f"partial dependence of {name!r}", [] if feature.categorical else [axis])
    if feature.categorical:
        counts = data.level_counts(feature)
    return feature, grid, counts, means


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


def _pair(data, caller, J, K: int, rows_per_call):
    """PDPlot of a pair: ``(names, kind, grid1, grid2, counts, mean predictions (n1, n2))``."""
    names = resolve_pair(data.schema, J, caller_name=_CALLER)
    first, second = read_pair(data, names, caller_name=_CALLER)
    limit = pd_point_limit(data.n_rows)
    if first.categorical:
        n_levels = len(first.levels)
        check_pd_points(data.n_rows, (n_levels, K), param="K", caller=_CALLER, value=K,
                        advice=f"Use K <= {max(1, limit // n_levels):,} beside {n_levels} levels.")
    else:
        check_pd_points(data.n_rows, (K, K), param="K", caller=_CALLER, value=K,
                        advice=f"Use K <= {math.isqrt(limit):,}.")
    grid2, breaks2 = _numeric_grid(data, second, K, "J[1]")
    if first.categorical:
        grid1, breaks1, kind = list(first.levels), None, "categorical x numeric"
    else:
        grid1, breaks1 = _numeric_grid(data, first, K, "J[0]")
        kind = "numeric x numeric"
    n1, n2 = len(grid1), len(grid2)
    points = np.arange(n1 * n2)
    axes = [_axis(first, grid1, breaks1, points // n2), _axis(second, grid2, breaks2, points % n2)]
    means, counts = _mean_predictions(data, caller, axes, n1 * n2, rows_per_call,
                                      f"partial dependence of ({names[0]!r}, {names[1]!r})", axes)
    return names, kind, grid1, grid2, counts.reshape(n1, n2), means.reshape(n1, n2)


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
    engine = is_engine_frame(X)
    if engine:  # Dask or Spark: checked on a few rows, computed on the engine
        data = open_engine(X, caller=_CALLER)
        X = probe_rows(data)
    K, plot, max_rows_per_call, caller = r_shaped_caller(
        X, X_model, pred_fun, K, plot, max_rows_per_call, caller_name=_CALLER, native=native
    )
    if not engine:
        data = FrameData(X, caller=_CALLER)
    one = is_tuple_label(X, J, param="J", caller=_CALLER, pair_form="the list {pair}")
    if not one and isinstance(J, (tuple, list, np.ndarray, pd.Index)):
        result = _pair_result(X.columns, *_pair(data, caller, J, K, max_rows_per_call))
    else:
        name = resolve_column(X, J, param="J", caller=_CALLER)
        feature, grid, counts, means = _single(data, caller, name, K, max_rows_per_call)
        result = _single_result(X.columns, name, feature.categorical, grid, counts, means)
    if plot:
        result = replace(result, display=result.plot(ax=ax))
    return result
