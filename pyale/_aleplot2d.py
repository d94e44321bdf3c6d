"""ALEPlot for a pair of features (``J = c(a, b)`` in R)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._ale2d import categorical_numeric_pair_effect, numeric_pair_effect
from ._calls import ModelCaller
from ._columns import read_feature, require_intervals, require_levels
from ._grid import aleplot_edges
from ._validation import resolve_column

__all__ = ["aleplot_pair", "read_pair", "resolve_pair"]


def resolve_pair(X: pd.DataFrame, J: object, *, caller_name: str):
    """Two distinct column labels from a pair of names or 0-based positions."""
    items = list(J)
    if len(items) != 2:
        raise ValueError(
            f"The 'J' parameter of {caller_name} must be one column or a pair of columns. "
            f"Got {len(items)} items ({items!r}) instead."
        )
    names = tuple(resolve_column(X, item, param="J", caller=caller_name) for item in items)
    if names[0] == names[1]:
        raise ValueError(
            f"The 'J' parameter of {caller_name} must name two different columns. "
            f"Got {items!r}, which both name column {names[0]!r}."
        )
    return names


def read_pair(X, names, caller_name):
    """Read a pair of features: numeric x numeric or categorical x numeric, else a clear error."""
    first = read_feature(X[names[0]], label=f"Column {names[0]!r} (J[0])")
    second = read_feature(X[names[1]], label=f"Column {names[1]!r} (J[1])")
    if second.categorical:
        if first.categorical:
            raise ValueError(
                f"{caller_name} does not support a pair of two categorical features "
                f"({names[0]!r}, {names[1]!r}); ALEPlot 1.1 handles numeric x numeric and "
                "categorical x numeric only."
            )
        raise ValueError(
            f"Column {names[1]!r} (J[1]) is categorical: {caller_name} needs the categorical "
            f"feature first. Swap them: J=({names[1]!r}, {names[0]!r})."
        )
    return first, second


def _numeric_edges(feature, K, label):
    return require_intervals(aleplot_edges(feature.values, K), f"Column {feature.name!r} ({label})")


def aleplot_pair(X: pd.DataFrame, caller: ModelCaller, J, K: int, *, level_order, caller_name: str):
    """Compute ALEPlot's second-order effect and wrap it as an ALEPlotResult."""
    from ._aleplot import resolve_level_order
    from ._results import ALEPlotResult

    names = resolve_pair(X, J, caller_name=caller_name)
    first, second = read_pair(X, names, caller_name)
    edges2 = _numeric_edges(second, K, "J[1]")
    if first.categorical:
        require_levels(first, f"Column {names[0]!r} (J[0])")
        order = resolve_level_order(X, first, level_order, caller=caller_name)
        effect = categorical_numeric_pair_effect(X, first, order, second, edges2, caller)
        # R paints the (level, interval) cells without rows, and only when some
        # jump cell was empty.
        painted = (effect.counts == 0) if effect.empty_cells.any() else np.zeros_like(effect.counts, bool)
        kind = "categorical x numeric"
        x_first = list(effect.grid1)
    else:
        if level_order is not None:
            raise ValueError(
                f"The 'level_order' parameter of {caller_name} applies to a categorical feature; "
                f"column {names[0]!r} is numeric."
            )
        edges1 = _numeric_edges(first, K, "J[0]")
        effect = numeric_pair_effect(X, first, second, edges1, edges2, caller)
        painted = effect.empty_cells
        kind = "numeric x numeric"
        x_first = effect.grid1
    return ALEPlotResult(
        K=(len(x_first) if first.categorical else len(x_first) - 1, len(edges2) - 1),
        x_values=(x_first, effect.grid2),
        f_values=effect.effects[:, :, 0],
        feature=names,
        kind=kind,
        counts=effect.counts,
        column_number=tuple(X.columns.get_loc(n) + 1 for n in names),
        empty_cells=painted,
    )
