"""``ALEPlot``: ALEPlot 1.1's function with R's argument names and return shape."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Callable, Sequence

import numpy as np
import pandas as pd

from ._core.bounds import check_pair_cells, pair_cell_limit
from ._core.calls import ModelCaller
from ._core.conventions import ALEPLOT
from ._core.engine_passes import engine_estimate, probe, probe_rows
from ._core.features import Feature, require_intervals, require_levels
from ._core.frame_grid import FrameData
from ._core.local import Plan
from ._core.main_effect import MainEffect
from ._core.pair_effect import PairEffect
from ._results import ALEPlotResult
from ._checks import (
    check_bool, check_feature_options, check_frame, check_int, is_tuple_label, resolve_column, resolve_pair,
)
from ._frames import as_pandas
from ._core.engine_grid import open_engine
from ._core.pairs import read_pair
from ._engines import is_engine_frame

__all__ = ["ALEPlot", "ALEPlotResult", "r_shaped_caller"]

_CALLER = "ALEPlot"


def r_shaped_caller(X, X_model, pred_fun, K, plot, max_rows_per_call, *, caller_name: str, native=None):
    """Validate the arguments ALEPlot and PDPlot share; returns (K, plot, rows bound, ModelCaller).

    ``pred_fun`` is handed ``newdata`` of the type the user passed as X (``native``).
    """
    check_frame(X, param="X", caller=caller_name)
    if not callable(pred_fun):
        raise TypeError(
            f"The 'pred_fun' parameter of {caller_name} must be callable as pred_fun(X_model, newdata). "
            f"Got {type(pred_fun).__name__} instead."
        )
    K = check_int(K, param="K", caller=caller_name, minimum=1)
    plot = check_bool(plot, param="plot", caller=caller_name)
    if max_rows_per_call is not None:
        max_rows_per_call = check_int(
            max_rows_per_call, param="max_rows_per_call", caller=caller_name, minimum=1
        )
    convert = None if native is None else native.convert
    caller = ModelCaller(
        (lambda newdata: pred_fun(X_model, newdata)) if convert is None else
        (lambda newdata: pred_fun(X_model, convert(newdata))), name="pred_fun", max_rows=max_rows_per_call
    )
    return K, plot, max_rows_per_call, caller


def _run(data, plans: list, caller) -> list:
    """The estimate of ``plans`` over the rows; an engine's model is probed on a few rows first."""
    if not data.engine.in_memory:
        probe(caller, probe_rows(data))
    return engine_estimate(data, plans, caller)


def _edges(data, features: list, K: int, labels: list) -> dict:
    """ALEPlot's edges of numeric features, a constant one refused (in the order given)."""
    for feature, label in zip(features, labels):
        low, high = data.value_range(feature.name)
        if low == high:
            require_intervals(np.array([low]), label)
    return data.edges(features, ALEPLOT, K, param="K")


def _main_effect(data, caller, name, K: int, level_order) -> tuple[Feature, MainEffect]:
    """ALEPlot of one feature: ``(feature, MainEffect)``.

    ``data`` is the rows: :class:`~pyale._core.frame_grid.FrameData` for a
    pandas frame, :class:`~pyale._core.engine_grid.EngineData` for a Dask or
    Spark one; the plan is built the same way for both.
    """
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


def _pair(data, caller, J, K: int, *, level_order):
    """ALEPlot of a pair (``data`` as for :func:`_main_effect`): ``(names, categorical first, PairEffect)``."""
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


def pair_result(columns: pd.Index, names, categorical_first: bool, effect) -> ALEPlotResult:
    """ALEPlot's result for a pair from its :class:`~pyale._core.pair_effect.PairEffect`."""
    if categorical_first:
        # R paints the (level, interval) cells without rows, and only when some
        # jump cell was empty.
        painted = (effect.counts == 0) if effect.empty_cells.any() else np.zeros_like(effect.counts, bool)
        kind = "categorical x numeric"
        x_first = list(effect.grid1)
    else:
        painted = effect.empty_cells
        kind = "numeric x numeric"
        x_first = effect.grid1
    return ALEPlotResult(
        K=(len(x_first) if categorical_first else len(x_first) - 1, len(effect.grid2) - 1),
        x_values=(x_first, effect.grid2),
        f_values=effect.effects[:, :, 0],
        feature=names,
        kind=kind,
        counts=effect.counts,
        column_number=tuple(columns.get_loc(n) + 1 for n in names),
        empty_cells=painted,
    )


def ALEPlot(
    X: pd.DataFrame,
    X_model: object,
    pred_fun: Callable[[object, pd.DataFrame], object],
    J: object,
    K: int = 40,
    NA_plot: bool = True,
    plot: bool = True,
    *,
    level_order: Sequence | None = None,
    max_rows_per_call: int | None = None,
    ax=None,
    feature_names: Sequence | None = None,
) -> ALEPlotResult:
    """Accumulated Local Effects of one feature or a pair, as R's ``ALEPlot::ALEPlot``.

    Parameters
    ----------
    X : pandas.DataFrame, polars.DataFrame or LazyFrame, pyarrow.Table, numpy.ndarray, or a Dask or Spark DataFrame
        The data (R's ``X``); ``pred_fun`` receives ``newdata`` of the same
        type (pandas inside).  Integer and floating columns are numeric;
        pandas Categorical columns are factors (their categories are the
        levels, unused ones dropped); string columns are factors whose levels
        are the sorted distinct strings (Python's code-point order, which is
        R's ``factor()`` order in the C locale).  Never modified.  A Dask or
        Spark DataFrame is computed on partition by partition, a polars
        LazyFrame in streaming batches, with the numbers pandas gives on the
        same rows.
    X_model : object
        Passed unchanged to ``pred_fun`` (R's ``X.model``).
    pred_fun : callable
        ``pred_fun(X_model, newdata)`` returning one number per row of
        ``newdata`` (R's ``pred.fun``).  ``newdata`` has X's columns and
        dtypes.
    J : str, int, or pair of them
        Column name or **0-based** position (R's ``J`` is 1-based); a pair
        (tuple, list or array of two) for a second-order effect.  A tuple
        that is a column's label (a flat index of tuples) names that column;
        one that is also a pair of labels is refused as ambiguous.
        MultiIndex columns are refused (``X.columns.to_flat_index()``).
    K : int, default 40
        Number of intervals requested for a numeric feature (R's ``K``).  A
        NumPy integer or a whole float (``40.0``) is accepted, as R's ``K``
        is a double.  Any size works: beyond the data every distinct value
        is an edge, as in R, computed without building ``K`` probabilities.
        A pair whose grid would exceed ``max(rows, 2**22)`` cells is refused
        (see ``docs/deviations.md``).
    NA_plot : bool, default True
        R's ``NA.plot``: when False, a pair's empty cells are painted black.
        The numbers do not change.
    plot : bool, default True
        Draw the picture (matplotlib) as R does.
    level_order : sequence, optional
        Keyword-only: impose the order of a categorical feature's levels
        (any one-dimensional array-like of them, compared by value; refused
        for a numeric feature).
    max_rows_per_call : int, optional
        Keyword-only: at most this many rows per ``pred_fun`` call.
    ax : matplotlib Axes, optional
        Keyword-only: draw into these axes.
    feature_names : sequence, optional
        Keyword-only: column names of a NumPy ``X`` (``x0``, ``x1``, ... by default).

    Returns
    -------
    ALEPlotResult
        ``K``, ``x_values`` and ``f_values`` as R's list, plus counts.

    Notes
    -----
    Numeric feature: edges are ``c(min(x), quantile(x, seq(1/K, 1,
    length.out = K), type = 1))`` without repeats; each row is moved to both
    edges of its right-closed interval, the mean prediction differences are
    accumulated from 0 and centred by the count-weighted interval means.
    Categorical feature: levels are ordered by the similarity of the other
    columns (classical MDS); rows move one level up and one level down and
    both differences are averaged per jump; centring uses level frequencies.
    The MDS sign depends on the LAPACK build, so the level order may come
    out reversed relative to R; each level keeps its value.

    Where R fails, pyale returns an answer or a clear error (see
    ``docs/deviations.md``): ordered factors keep their order; levels that
    all look alike keep their given order (with a warning); a constant or
    incomplete feature raises ``ValueError``.

    References
    ----------
    Apley, D. W. and Zhu, J. (2020). Visualizing the effects of predictor
    variables in black box supervised learning models. JRSS B 82(4).
    ALEPlot 1.1 (R package, Dan Apley, 2018).

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> X = pd.DataFrame({"x": np.arange(10.0), "z": np.ones(10)})
    >>> res = ALEPlot(X, None, lambda m, d: d["x"].to_numpy() ** 2, J="x", K=3, plot=False)
    >>> res.K, res.x_values.tolist()
    (3, [0.0, 3.0, 6.0, 9.0])
    """
    X, native = as_pandas(X, param="X", caller=_CALLER, feature_names=feature_names)
    engine = is_engine_frame(X)
    if engine:  # Dask, Spark, polars lazy: checked on a few rows, computed on the engine
        data = open_engine(X, caller=_CALLER)
        X = probe_rows(data)
    K, plot, max_rows_per_call, caller = r_shaped_caller(
        X, X_model, pred_fun, K, plot, max_rows_per_call, caller_name=_CALLER, native=native
    )
    NA_plot = check_bool(NA_plot, param="NA_plot", caller=_CALLER)
    if not engine:
        data = FrameData(X, caller=_CALLER)

    one = is_tuple_label(X, J, param="J", caller=_CALLER, pair_form="the list {pair}")
    if not one and isinstance(J, (tuple, list, np.ndarray, pd.Index)):
        names, categorical_first, effect = _pair(data, caller, J, K, level_order=level_order)
        result = pair_result(X.columns, names, categorical_first, effect)
    else:
        name = resolve_column(X, J, param="J", caller=_CALLER)
        feature, effect = _main_effect(data, caller, name, K, level_order)
        categorical = feature.categorical
        result = ALEPlotResult(
            K=len(effect.grid) if categorical else len(effect.grid) - 1,
            x_values=list(effect.grid) if categorical else effect.grid,
            f_values=effect.effects[:, 0],
            feature=name,
            kind="categorical" if categorical else "numeric",
            counts=effect.counts,
            column_number=X.columns.get_loc(name) + 1,
        )
    if plot:
        display = result.plot(ax=ax, NA_plot=NA_plot)
        result = replace(result, display=display)
    return result
