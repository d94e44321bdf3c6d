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

from .._rbase import cmdscale_1d, ecdf_at, quantile_type7, r_seq, stable_order

__all__ = ["Covariate", "level_distances", "mds_level_order"]

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


def _numeric_distance(codes: np.ndarray, n_levels: int, covariate: Covariate) -> np.ndarray:
    values = covariate.values
    present = ~np.isnan(values)
    if not present.any():
        return np.zeros((n_levels, n_levels))
    probes = quantile_type7(values[present], _PROBE_PROBS)
    ecdfs = np.empty((n_levels, probes.shape[0]))
    for level in range(n_levels):
        sample = values[present & (codes == level)]
        if sample.shape[0] == 0:
            raise ValueError(
                f"Column {covariate.name!r} has only missing values within one level of the "
                "feature, so the level ordering (Kolmogorov-Smirnov distance) is undefined."
            )
        ecdfs[level] = ecdf_at(sample, probes)
    return np.abs(ecdfs[:, None, :] - ecdfs[None, :, :]).max(axis=2)


def _categorical_distance(
    codes: np.ndarray, n_levels: int, level_sizes: np.ndarray, covariate: Covariate
) -> np.ndarray:
    other = covariate.values
    present = other >= 0
    table = np.zeros((n_levels, max(covariate.n_levels, 1)))
    np.add.at(table, (codes[present], other[present]), 1.0)
    shares = table / level_sizes[:, None]
    diffs = np.abs(shares[:, None, :] - shares[None, :, :]).astype(np.longdouble)
    return (diffs.sum(axis=2) / 2).astype(float)


def level_distances(
    codes: np.ndarray, n_levels: int, covariates: list[Covariate]
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
    level_sizes = np.bincount(codes, minlength=n_levels).astype(float)
    total = np.zeros((n_levels, n_levels))
    for covariate in covariates:
        if covariate.categorical:
            total = total + _categorical_distance(codes, n_levels, level_sizes, covariate)
        else:
            total = total + _numeric_distance(codes, n_levels, covariate)
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
