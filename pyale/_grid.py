"""Interval edges of a numeric feature, by each package's rule.

ALEPlot and iml both take type-1 quantiles of the feature and drop repeated
edges, but with different probability vectors: their last bits differ, and
type-1 quantiles have no tolerance, so the same ``K`` can give different
edges.  Each rule therefore builds its probabilities exactly as its package
does.

The order statistics are selected without sorting the whole column
(:func:`pyale._cells.order_statistics`); they are the values a full sort
would give.
"""

from __future__ import annotations

import numpy as np

from ._cells import order_statistics
from ._rbase import quantile_type1_positions, r_seq

__all__ = ["aleplot_edges", "iml_edges"]


def aleplot_edges(values: np.ndarray, n_intervals: int) -> np.ndarray:
    """Interval edges as ALEPlot 1.1 builds them.

    ``c(min(x), quantile(x, seq(1/K, 1, length.out = K), type = 1))`` with
    repeated values removed; the number of intervals is ``len(edges) - 1``.

    Parameters
    ----------
    values : numpy.ndarray
        Finite feature values.
    n_intervals : int
        ALEPlot's ``K`` (>= 1).

    Returns
    -------
    numpy.ndarray
        Strictly increasing edges, the first being the minimum and the last
        the maximum.
    """
    probs = r_seq(1.0 / n_intervals, 1.0, n_intervals)
    positions = np.concatenate(([0], quantile_type1_positions(values.shape[0], probs)))
    return np.unique(order_statistics(values, positions))


def iml_edges(values: np.ndarray, grid_size: int, *, integer: bool = False) -> np.ndarray:
    """Interval edges as iml 0.11.4 builds them for ALE.

    ``quantile(x, seq(0, 1, length.out = grid.size + 1), type = 1)`` with
    repeated values removed; for an integer column the edges are rounded
    (half to even, as R's ``round``) before the repeats are removed.

    Parameters
    ----------
    values : numpy.ndarray
        Finite feature values.
    grid_size : int
        iml's ``grid.size`` (>= 1).
    integer : bool, default False
        Whether the column is integer.

    Returns
    -------
    numpy.ndarray
        Strictly increasing edges.
    """
    probs = r_seq(0.0, 1.0, grid_size + 1)
    edges = order_statistics(values, quantile_type1_positions(values.shape[0], probs))
    if integer:
        edges = np.round(edges)
    return np.unique(edges)
