"""Ordering the levels of a categorical feature by similarity.

ALEPlot 1.1 and iml 0.11.4 (``order_levels``) order the levels of an
unordered factor before accumulating effects across them: two levels are
close when the other columns are distributed alike within them.  For each
other column the distance between two levels is

* numeric: the Kolmogorov-Smirnov distance of the column's ECDFs within the
  two levels, evaluated at the column's 100 type-7 quantiles;
* categorical: half the L1 distance of the column's relative frequencies
  within the two levels.

The distances are summed over columns and reduced to one dimension by
classical MDS; levels are sorted (stably) by that coordinate.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..._rbase import cmdscale_1d, ecdf_at, quantile_type7, r_seq, stable_order
from ..._rbase.exact import exact_group_sums, exact_running_sums
from ..._rbase.weighted import weighted_quantile_type7, weighted_sample

__all__ = ["Covariate", "level_distances", "level_distances_from_summary", "mds_level_order"]

_PROBE_PROBS = r_seq(0.0, 1.0, 100)


@dataclass(frozen=True)
class Covariate:
    """One other column, reduced to what the distance needs.

    ``values`` holds float64 values (NaN = missing) for a numeric column, or
    int64 codes (-1 = missing) for a categorical one with ``n_levels`` levels.
    """

    name: str
    categorical: bool
    values: np.ndarray
    n_levels: int = 0


# Elements per temporary block of the pairwise computations (8 MiB of doubles).
_BLOCK_ELEMENTS = 1 << 20


def _level_ecdfs(codes: np.ndarray, values: np.ndarray, n_levels: int, probes: np.ndarray, name,
                 weights: np.ndarray | None = None) -> np.ndarray:
    """ECDF of ``values`` within each level, at ``probes``: ``(n_levels, len(probes))``.

    One sort by (level, value); each level's values are then a sorted slice,
    counted at the probes by binary search.  The same doubles as
    :func:`~pyale._rbase.ecdf_at` on each level's sample (weighted ECDFs
    with ``weights``).
    """
    order = np.lexsort((values, codes))
    ordered = values[order]
    ordered_weights = None if weights is None else weights[order]
    sizes = np.bincount(codes, minlength=n_levels)
    if not sizes.all():
        raise ValueError(
            f"Column {name!r} has only missing values within one level of the "
            "feature, so the level ordering (Kolmogorov-Smirnov distance) is undefined."
        )
    stops = np.cumsum(sizes)
    ecdfs = np.empty((n_levels, probes.shape[0]))
    for level, (start, stop) in enumerate(zip((stops - sizes).tolist(), stops.tolist())):
        if ordered_weights is None:
            ecdfs[level] = ecdf_at(ordered[start:stop], probes, presorted=True)
        else:  # weighted_ecdf_at with exact running weights, rounded only where the probes read them
            running = exact_running_sums(ordered_weights[start:stop])
            position = np.searchsorted(ordered[start:stop], probes, side="right")
            below = np.where(position > 0, running[np.maximum(position - 1, 0)].rounded(), 0.0)
            ecdfs[level] = below / running[stop - start - 1].rounded()
    return ecdfs


def _max_abs_differences(rows: np.ndarray) -> np.ndarray:
    """``max_k |rows[i, k] - rows[j, k]|`` for every pair, a block of rows at a time."""
    n_rows, width = rows.shape
    out = np.empty((n_rows, n_rows))
    block = max(1, _BLOCK_ELEMENTS // max(1, n_rows * width))
    for start in range(0, n_rows, block):
        stop = min(n_rows, start + block)
        out[start:stop] = np.abs(rows[start:stop, None, :] - rows[None, :, :]).max(axis=2)
    return out


def _numeric_distance(codes: np.ndarray, n_levels: int, covariate: Covariate, weights=None,
                      unit: float = 1.0) -> np.ndarray:
    values = covariate.values
    present = ~np.isnan(values)
    if not present.any():
        return np.zeros((n_levels, n_levels))
    if weights is None:
        probes = quantile_type7(values[present], _PROBE_PROBS)
        ecdfs = _level_ecdfs(codes[present], values[present], n_levels, probes, covariate.name)
    else:
        probes = weighted_quantile_type7(*weighted_sample(values[present], weights[present]), _PROBE_PROBS,
                                         unit=unit)
        ecdfs = _level_ecdfs(codes[present], values[present], n_levels, probes, covariate.name, weights[present])
    return _max_abs_differences(ecdfs)


def _categorical_distance(
    codes: np.ndarray, n_levels: int, level_sizes: np.ndarray, covariate: Covariate, weights=None
) -> np.ndarray:
    """Half the L1 distance between the levels' relative frequency tables.

    R (ALEPlot's ``sum``, iml's ``rowSums``) adds the absolute differences
    category by category, in the covariate's level order, in extended
    precision (``LDOUBLE``), then rounds to double and halves.  Adding a
    zero leaves such a sum unchanged, so only the categories in which one of
    the two levels occurs contribute: each category updates the pairs that
    involve a level holding it, in category order.  Memory is
    ``O(levels**2 + levels * categories)``; time ``O(levels * table entries)``.
    """
    other = covariate.values
    present = other >= 0
    width = max(covariate.n_levels, 1)
    if weights is None:
        table = np.bincount(codes[present] * width + other[present], minlength=n_levels * width)
    else:  # exact weight sums, as every engine's summary has them
        table = exact_group_sums(codes[present] * width + other[present], weights[present], n_levels * width).rounded()
    table = table.reshape(n_levels, width)
    used = np.flatnonzero(table.any(axis=0))
    shares = table[:, used] / level_sizes[:, None]  # R: table(...) / x.count
    return _sequential_l1(shares) / 2


def _sequential_l1(shares: np.ndarray) -> np.ndarray:
    """``sum(abs(a[i, ] - a[j, ]))`` for every pair of rows, as R sums: left to right in long double."""
    n_rows = shares.shape[0]
    total = np.zeros((n_rows, n_rows), dtype=np.longdouble)
    for column in shares.T:
        holders = np.flatnonzero(column)
        # Pairs (holder, any level): |a - b| in double, added in extended precision.
        total[holders] += np.abs(column[holders, None] - column[None, :]).astype(np.longdouble)
        # Pairs (any level, holder) are the same pairs with the same terms in the same
        # order, and ``total`` was symmetric before this category: copy them over.
        total[:, holders] = total[holders].T
    return total.astype(float)


def level_distances(
    codes: np.ndarray, n_levels: int, covariates: list[Covariate], *, weights: np.ndarray | None = None
) -> np.ndarray:
    """Summed dissimilarity between every pair of levels.

    Parameters
    ----------
    codes : numpy.ndarray
        0-based level of each row (every level has at least one row).
    n_levels : int
        Number of levels.
    covariates : list of Covariate
        The other columns, in column order.
    weights : numpy.ndarray, optional
        Positive frequency weights of the rows: ECDFs, probes (type-7
        quantiles) and frequency tables of the weighted sample.  The smallest
        positive weight counts as one row in the probes' type-7 rule, so the
        distances do not change when every weight is scaled by a constant;
        integer weights with a weight of 1 give those of the rows repeated.

    Returns
    -------
    numpy.ndarray
        Symmetric ``(n_levels, n_levels)`` matrix with zero diagonal.

    Notes
    -----
    Mirrors the distance loop of ALEPlot 1.1 and iml 0.11.4's
    ``order_levels``.  Sums over categories use extended precision as R's
    ``sum``/``rowSums`` do.  Missing values in a covariate are left out, as
    R's ``na.rm = TRUE``, ``ecdf`` and ``table`` do.
    """
    if weights is None:
        level_sizes = np.bincount(codes, minlength=n_levels).astype(float)
    else:
        level_sizes = exact_group_sums(codes, weights, n_levels).rounded()
    unit = 1.0 if weights is None else float(weights[weights > 0].min())
    total = np.zeros((n_levels, n_levels))
    for covariate in covariates:
        if covariate.categorical:
            total = total + _categorical_distance(codes, n_levels, level_sizes, covariate, weights)
        else:
            total = total + _numeric_distance(codes, n_levels, covariate, weights, unit)
    np.fill_diagonal(total, 0.0)
    return total


def level_distances_from_summary(summary) -> np.ndarray:
    """:func:`level_distances` from an engine's level-ordering summary.

    Parameters
    ----------
    summary : pyale._engines.LevelOrderSummary
        Per other column (in column order): the probes and the per-level
        counts at or below them (numeric), or the (level x category) table
        (categorical), with the rows per level.

    Returns
    -------
    numpy.ndarray
        The matrix :func:`level_distances` gives on the same rows: the
        ECDFs are the same ratios of counts, the shares the same ratios, and
        the same arithmetic (:func:`_max_abs_differences`,
        :func:`_sequential_l1`) adds them up in the same order.  Weight sums
        are exact before one rounding (:mod:`pyale._rbase.exact`) on both
        sides, so fractional weights give the same matrix too.
    """
    n_levels = len(summary.levels)
    level_sizes = np.asarray(summary.level_sizes, dtype=float)
    total = np.zeros((n_levels, n_levels))
    for covariate in summary.covariates:
        if hasattr(covariate, "probes"):
            if covariate.probes is None:  # no finite value at all: distance 0
                continue
            if not covariate.present.all():
                raise ValueError(
                    f"Column {covariate.name!r} has only missing values within one level of the "
                    "feature, so the level ordering (Kolmogorov-Smirnov distance) is undefined."
                )
            total = total + _max_abs_differences(covariate.ecdfs)
        else:
            table = covariate.table
            used = np.flatnonzero(table.any(axis=0))
            shares = table[:, used] / level_sizes[:, None]
            total = total + _sequential_l1(shares) / 2
    np.fill_diagonal(total, 0.0)
    return total


def mds_level_order(distances: np.ndarray) -> np.ndarray | None:
    """Order of levels along the first classical-MDS coordinate.

    Parameters
    ----------
    distances : numpy.ndarray
        Output of :func:`level_distances`.

    Returns
    -------
    numpy.ndarray or None
        0-based level indices from lowest to highest coordinate (ties keep
        the original order, as R's stable sort), or ``None`` when no
        eigenvalue is positive, i.e. every level looks alike (ALEPlot then
        fails).
    """
    coordinate = cmdscale_1d(distances)
    if coordinate is None:
        return None
    return stable_order(coordinate)
