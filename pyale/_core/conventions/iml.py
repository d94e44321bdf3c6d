"""iml 0.11.4's rules (``conventions="iml"``): ALEPlot's formulas on iml's grid.

iml's ``FeatureEffect(method = "ale")`` moves rows, accumulates and centres as
ALEPlot 1.1 does (:mod:`.aleplot`); it differs in

* the grid: ``quantile(x, seq(0, 1, length.out = grid.size + 1), type = 1)``,
  rounded for integer columns (:func:`pyale._core.grid.edges.iml_edges`), 20
  intervals by default;
* the nearest-non-empty-cell search of pairs (``impute_cells``): mid-points
  scaled as ``(a + b) / (2 * range)`` and candidates along the second axis
  first;
* user grids: an interval without rows contributes 0 rather than an error.
"""

from __future__ import annotations

import numpy as np

from ..._rbase import r_seq
from ..grid.edges import every_value_is_an_edge, iml_edges
from .aleplot import ALEPlotConvention
from .base import COMMON_RULES

__all__ = ["ImlConvention", "IML"]


class ImlConvention(ALEPlotConvention):
    """iml 0.11.4: ALEPlot's row moves and centring on iml's grid and nearest-cell layout."""

    name = "iml"
    label = "iml 0.11.4"
    default_intervals = 20
    empty_user_intervals = "zero"
    rounds_integer_edges = True
    row_major = True
    rules = {
        "grid": (
            "quantile(x, seq(0, 1, length.out = grid.size + 1), type = 1), rounded for integer "
            "columns, repeats removed; user grid.points sorted and made unique"
        ),
        "default K": "20 (grid.size)",
        **COMMON_RULES,
        "empty pair cells": (
            "nearest non-empty cell (yaImpute::ann), cell mid-points scaled as (a + b) / (2 * range), "
            "candidates along the second axis first"
        ),
        "pairs accepted": "numeric x numeric, categorical x numeric in either order",
    }

    def read_pair(self, data, names: tuple, caller: str) -> tuple:
        """iml's pairs: numeric x numeric, or a categorical and a numeric feature in either order (the
        categorical one put first); two categorical features are refused as iml refuses them."""
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

    def edges(self, values: np.ndarray, n_intervals: int, integer: bool = False) -> np.ndarray:
        return iml_edges(values, n_intervals, integer=integer)

    def probabilities(self, n_intervals: int) -> tuple[np.ndarray, bool]:
        return r_seq(0.0, 1.0, n_intervals + 1), False

    def every_value_is_an_edge(self, n_values: int, n_intervals: int) -> bool:
        return every_value_is_an_edge(n_values, n_intervals, "iml")

    def mid_scaled(self, edges: np.ndarray) -> np.ndarray:
        """``(a + b) / (2 * range)``, as iml's ``impute_cells`` evaluates it (the doubles decide ties)."""
        return (edges[:-1] + edges[1:]) / (2 * (edges[-1] - edges[0]))


IML = ImlConvention()
