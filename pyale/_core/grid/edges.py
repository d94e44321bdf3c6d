"""Interval edges of a numeric feature, by each package's rule.

ALEPlot and iml both take type-1 quantiles of the feature and drop repeated
edges, but with different probability vectors: their last bits differ, and
type-1 quantiles have no tolerance, so the same ``K`` can give different
edges.  Each rule therefore builds its probabilities exactly as its package
does.

The order statistics are selected without sorting the whole column
(:func:`pyale._cells.order_statistics`); they are the values a full sort
would give.

Bounded by the data, not by ``K``
---------------------------------
Both rules can ask for more edges than there are values.  Then the edges are
all the distinct values, and they are computed as such (:func:`numpy.unique`),
without building a probability vector of length ``K``.  When that is exact
(:func:`every_value_is_an_edge`):

With ``n`` values, the type-1 quantile at probability ``p`` is the order
statistic of rank ``ceil(n p)`` (rank 1 for ``n p = 0``), ``n p`` evaluated in
floating point.  The edges are every distinct value exactly when the ranks
hit every integer ``1..n`` (a rank that is missed drops its value when the
values are distinct).  In exact arithmetic the ``k``-th probability is
``k / K`` for both packages (ALEPlot: ``seq(1/K, 1, length.out = K)``, iml:
``seq(0, 1, length.out = K + 1)``), so ``n p`` runs through ``x_k = n k / K``.

* ``K > n``: each interval ``(m - 1, m)``, ``m = 1..n``, holds some ``x_k``
  (the step ``n / K`` is below 1, and ``x_k = m`` would put ``x_{k-1}``
  inside), and ``x_k - (m - 1)`` and ``m - x_k`` are multiples of ``1 / K``,
  so that ``x_k`` lies at least ``1 / K`` inside.
* ``K >= 2 n``: the step is at most 1/2, so some ``x_k`` lies in
  ``[m - 3/4, m - 1/4]``, at least 1/4 inside.

The computed ``n p`` is within a relative ``c u`` of ``x_k`` (``u = 2**-53``;
``c = 7`` for ALEPlot, whose ``seq`` rounds ``1/K``, ``1 - 1/K``, the step,
``i * step`` and the sum before the product with ``n``; ``c = 4`` for iml,
whose ``seq`` rounds the step and ``i * step``), so within ``c u n``.  It
stays inside its interval, and the rank is ``m``, when ``c u n < 1 / K``
(first case) or ``c u n < 1/4`` (second case).  ``K = n`` is *not* enough:
``x_k = k`` exactly and noise above ``k`` skips a rank (ALEPlot's ``K = 5``
on ``1:5`` gives the edges 1, 2, 4, 5).  ``tests/core/grid/test_grid.py`` checks all of
this by brute force against the uncapped computation.
"""

from __future__ import annotations

import warnings
from typing import Callable, Sequence

import numpy as np
import pandas as pd

from ..._rbase import order_statistics, quantile_type1_positions, r_seq
from .features import Feature, read_covariate
from .levels import level_distances, mds_level_order

__all__ = [
    "aleplot_edges",
    "iml_edges",
    "every_value_is_an_edge",
    "equivalent_intervals",
    "resolve_level_order",
]

# Relative error bound (in units of 2**-53) of n * p for each package's probabilities.
_ROUNDING = {"aleplot": 7, "iml": 4}


def every_value_is_an_edge(n_values: int, n_intervals: int, rule: str) -> bool:
    """Whether ``n_intervals`` type-1 quantiles provably select every order statistic.

    Parameters
    ----------
    n_values : int
        Sample size ``n``.
    n_intervals : int
        ALEPlot's ``K`` or iml's ``grid.size`` (any size; Python integers do
        not overflow).
    rule : {"aleplot", "iml"}

    Returns
    -------
    bool
        True when the edges are then every distinct value (see the module
        notes for the proof); False when that is not guaranteed, which
        happens only for ``n_intervals < 2 n``.
    """
    c = _ROUNDING[rule]
    if n_intervals >= 2 * n_values and 4 * c * n_values < 2 ** 53:
        return True
    return n_intervals > n_values and c * n_values * n_intervals < 2 ** 53


def equivalent_intervals(n_values: int, n_intervals: int, rule: str) -> int:
    """A ``K`` no larger than ``2 n`` that gives R the same edges as ``n_intervals``.

    For handing a large ``K`` to R itself (which would allocate it): when
    every value is an edge anyway, ``2 n`` gives the same edges.
    """
    if n_intervals > 2 * n_values and every_value_is_an_edge(n_values, n_intervals, rule):
        if every_value_is_an_edge(n_values, 2 * n_values, rule):
            return 2 * n_values
    return n_intervals


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
    if every_value_is_an_edge(values.shape[0], n_intervals, "aleplot"):
        return np.unique(values)
    probs = r_seq(1.0 / n_intervals, 1.0, n_intervals)
    positions = np.concatenate(([0], quantile_type1_positions(values.shape[0], probs)))
    return np.unique(order_statistics(values, positions, bins_next=True))  # the axis bins the rows next


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
    if every_value_is_an_edge(values.shape[0], grid_size, "iml"):
        edges = values
    else:
        probs = r_seq(0.0, 1.0, grid_size + 1)
        edges = order_statistics(values, quantile_type1_positions(values.shape[0], probs), bins_next=True)
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
    weights: np.ndarray | None = None,
    distances: Callable[[], np.ndarray] | None = None,
) -> np.ndarray:
    """Indices into ``feature.levels`` from lowest to highest.

    A requested order wins; an ordered categorical keeps its order; otherwise
    the levels are ordered by similarity of the other columns (classical MDS,
    as ALEPlot 1.1 and iml 0.11.4's ``order_levels``), falling back to the
    given order, with a warning, when all levels look alike (R fails there:
    ``failure`` says how).  With frequency ``weights`` (all positive) the
    distributions compared are the weighted ones (see
    :func:`~pyale._core.grid.levels.level_distances`).  ``distances()``, when
    given, supplies the distance matrix instead (an engine's summaries, see
    :func:`~pyale._core.grid.levels.level_distances_from_summary`); ``X`` then
    only needs the feature's column dtype (an empty frame will do).
    """
    n_levels = len(feature.levels)
    if requested is not None:
        return _requested_order(X[feature.name], feature, requested, caller)
    if feature.ordered:
        return np.arange(n_levels, dtype=np.int64)
    if distances is None:
        covariates = [read_covariate(X[name]) for name in X.columns if name != feature.name]
        order = mds_level_order(level_distances(feature.codes, n_levels, covariates, weights=weights))
    else:
        order = mds_level_order(distances())
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


def _requested_order(series: pd.Series, feature: Feature, requested, caller: str) -> np.ndarray:
    """Indices into ``feature.levels`` from a user's ``level_order``, compared by value.

    Any one-dimensional array-like of the levels is accepted (a list, tuple,
    NumPy array, pandas Index, Series or Categorical; NumPy scalars match the
    Python values they equal).  Categories of a pandas Categorical that have
    no rows may be listed and are dropped, as R's ``droplevels``.
    """
    intro = f"The 'level_order' parameter of {caller}"
    flat = isinstance(requested, (list, tuple, np.ndarray, pd.Index, pd.Series, pd.Categorical)) and not any(
        isinstance(v, (list, tuple, np.ndarray, dict, set)) for v in requested
    )
    if not flat or (isinstance(requested, np.ndarray) and requested.ndim != 1):
        raise TypeError(
            f"{intro} must be a sequence of the levels of column {feature.name!r} (a list, "
            f"array or pandas Index). Got {requested!r} instead."
        )
    wanted = [v.item() if isinstance(v, np.generic) and v.dtype.kind not in "mM" else v for v in list(requested)]
    levels = pd.Index(list(feature.levels))
    known = series.dtype.categories if isinstance(series.dtype, pd.CategoricalDtype) else levels
    try:
        target = pd.Index(wanted, tupleize_cols=False)
        positions = known.get_indexer(target)
    except (TypeError, ValueError):  # values pandas cannot even compare with the levels
        positions = np.full(len(wanted), -1)
    expected = f"must list each level of column {feature.name!r} that occurs in the data exactly once: {list(feature.levels)!r}. Got {wanted!r}"
    unknown = [w for w, p in zip(wanted, positions) if p < 0]
    if unknown:
        raise ValueError(f"{intro} {expected}, which names unknown level(s) {unknown!r}.")
    seen, repeated = set(), []
    for w, p in zip(wanted, positions):
        if p in seen and w not in repeated:
            repeated.append(w)
        seen.add(p)
    if repeated:
        raise ValueError(f"{intro} {expected}, which repeats {repeated!r}.")
    order = levels.get_indexer(known[positions])
    order = order[order >= 0]  # categories without rows are dropped
    if order.shape[0] < len(feature.levels):
        listed = set(order.tolist())
        missing = [lev for i, lev in enumerate(feature.levels) if i not in listed]
        raise ValueError(f"{intro} {expected}, which lacks {missing!r}.")
    return order.astype(np.int64)
