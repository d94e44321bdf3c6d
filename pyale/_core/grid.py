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

import warnings
from typing import Sequence

import numpy as np
import pandas as pd

from .._rbase import order_statistics, quantile_type1_positions, r_seq
from .features import Feature, read_covariate
from .levels import level_distances, mds_level_order

__all__ = ["aleplot_edges", "iml_edges", "resolve_level_order"]


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


def resolve_level_order(
    X: pd.DataFrame,
    feature: Feature,
    requested: Sequence | None,
    *,
    caller: str,
    failure: str = "R's ALEPlot stops with an error here",
    hint: str = "; pass level_order= to choose another",
    stacklevel: int = 3,
) -> np.ndarray:
    """Indices into ``feature.levels`` from lowest to highest.

    A requested order wins; an ordered categorical keeps its order; otherwise
    the levels are ordered by similarity of the other columns (classical MDS,
    as ALEPlot 1.1 and iml 0.11.4's ``order_levels``), falling back to the
    given order, with a warning, when all levels look alike (R fails there:
    ``failure`` says how).
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
            f"the other columns are distributed alike within every level ({failure}). "
            f"Using the levels in their given order {list(feature.levels)!r}{hint}.",
            UserWarning,
            stacklevel=stacklevel,
        )
        return np.arange(n_levels, dtype=np.int64)
    return order
