"""``ALEPlot``: ALEPlot 1.1's function with R's argument names and return shape."""

from __future__ import annotations

import warnings
from dataclasses import replace
from typing import Callable, Sequence

import numpy as np
import pandas as pd

from ._ale1d import MainEffect, categorical_main_effect, numeric_main_effect
from ._calls import ModelCaller
from ._columns import Feature, read_covariate, read_feature, require_intervals, require_levels
from ._grid import aleplot_edges
from ._levels import level_distances, mds_level_order
from ._results import ALEPlotResult
from ._validation import check_bool, check_frame, check_int, resolve_column

__all__ = ["ALEPlot", "ALEPlotResult", "resolve_level_order"]

_CALLER = "ALEPlot"


def resolve_level_order(
    X: pd.DataFrame, feature: Feature, requested: Sequence | None, *, caller: str
) -> np.ndarray:
    """Indices into ``feature.levels`` from lowest to highest.

    A requested order wins; an ordered categorical keeps its order; otherwise
    the levels are ordered by similarity of the other columns (classical MDS),
    falling back to the given order, with a warning, when all levels look
    alike.
    """
    n_levels = len(feature.levels)
    if requested is not None:
        requested = list(requested)
        if sorted(map(repr, requested)) != sorted(map(repr, feature.levels)):
            raise ValueError(
                f"The 'level_order' parameter of {caller} must list each level of column "
                f"{feature.name!r} that occurs in the data exactly once: {list(feature.levels)!r}. "
                f"Got {requested!r} instead."
            )
        position = {level: i for i, level in enumerate(feature.levels)}
        return np.array([position[level] for level in requested], dtype=np.int64)
    if feature.ordered:
        return np.arange(n_levels, dtype=np.int64)
    covariates = [read_covariate(X[name]) for name in X.columns if name != feature.name]
    order = mds_level_order(level_distances(feature.codes, n_levels, covariates))
    if order is None:
        warnings.warn(
            f"The levels of column {feature.name!r} cannot be ordered by similarity: "
            "the other columns are distributed alike within every level (R's ALEPlot stops "
            "with an error here). Using the levels in their given order "
            f"{list(feature.levels)!r}; pass level_order= to choose another.",
            UserWarning,
            stacklevel=3,
        )
        return np.arange(n_levels, dtype=np.int64)
    return order


def _main_effect(X, caller, feature: Feature, K: int, level_order) -> MainEffect:
    label = f"Column {feature.name!r} (J)"
    if feature.categorical:
        require_levels(feature, label)
        order = resolve_level_order(X, feature, level_order, caller=_CALLER)
        return categorical_main_effect(X, feature, order, caller)
    edges = require_intervals(aleplot_edges(feature.values, K), label)
    return numeric_main_effect(X, feature, edges, caller)


def r_shaped_caller(X, X_model, pred_fun, K, plot, max_rows_per_call, *, caller_name: str):
    """Validate the arguments ALEPlot and PDPlot share; returns (K, plot, rows bound, ModelCaller)."""
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
    caller = ModelCaller(
        lambda newdata: pred_fun(X_model, newdata), name="pred_fun", max_rows=max_rows_per_call
    )
    return K, plot, max_rows_per_call, caller


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
) -> ALEPlotResult:
    """Accumulated Local Effects of one feature or a pair, as R's ``ALEPlot::ALEPlot``.

    Parameters
    ----------
    X : pandas.DataFrame
        The data (R's ``X``).  Integer and floating columns are numeric;
        pandas Categorical columns are factors (their categories are the
        levels, unused ones dropped); string columns are factors whose levels
        are the sorted distinct strings (Python's code-point order, which is
        R's ``factor()`` order in the C locale).  Never modified.
    X_model : object
        Passed unchanged to ``pred_fun`` (R's ``X.model``).
    pred_fun : callable
        ``pred_fun(X_model, newdata)`` returning one number per row of
        ``newdata`` (R's ``pred.fun``).  ``newdata`` has X's columns and
        dtypes.
    J : str, int, or pair of them
        Column name or **0-based** position (R's ``J`` is 1-based); a pair
        for a second-order effect.
    K : int, default 40
        Number of intervals requested for a numeric feature (R's ``K``).
    NA_plot : bool, default True
        R's ``NA.plot``: when False, a pair's empty cells are painted black.
        The numbers do not change.
    plot : bool, default True
        Draw the picture (matplotlib) as R does.
    level_order : sequence, optional
        Keyword-only: impose the order of a categorical feature's levels.
    max_rows_per_call : int, optional
        Keyword-only: at most this many rows per ``pred_fun`` call.
    ax : matplotlib Axes, optional
        Keyword-only: draw into these axes.

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
    K, plot, max_rows_per_call, caller = r_shaped_caller(
        X, X_model, pred_fun, K, plot, max_rows_per_call, caller_name=_CALLER
    )
    NA_plot = check_bool(NA_plot, param="NA_plot", caller=_CALLER)

    pair = isinstance(J, (tuple, list, np.ndarray, pd.Index))
    if pair:
        from ._aleplot2d import aleplot_pair

        result = aleplot_pair(X, caller, J, K, level_order=level_order, caller_name=_CALLER)
    else:
        name = resolve_column(X, J, param="J", caller=_CALLER)
        feature = read_feature(X[name], label=f"Column {name!r} (J)")
        effect = _main_effect(X, caller, feature, K, level_order)
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
