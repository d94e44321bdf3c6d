"""Classical multidimensional scaling in one dimension, as R's ``cmdscale(k = 1)``."""

from __future__ import annotations

import numpy as np
import scipy.linalg

__all__ = ["double_centre", "cmdscale_1d"]


def double_centre(squared: np.ndarray) -> np.ndarray:
    """Subtract row means, then column means, as R's internal ``C_DoubleCentre``.

    R accumulates each mean left to right in double precision; the loops
    below keep that order (NumPy's pairwise sums would differ in the last
    bits, and the eigenvector sign of ``cmdscale`` is sensitive to them).

    Parameters
    ----------
    squared : numpy.ndarray
        Square matrix (typically squared distances).

    Returns
    -------
    numpy.ndarray
        A new, double-centred matrix.
    """
    a = np.array(squared, dtype=float, copy=True)
    n = a.shape[0]
    row_sum = np.zeros(n)
    for j in range(n):
        row_sum += a[:, j]
    a -= (row_sum / n)[:, None]
    col_sum = np.zeros(n)
    for i in range(n):
        col_sum += a[i, :]
    a -= (col_sum / n)[None, :]
    return a


def cmdscale_1d(distances: np.ndarray) -> np.ndarray | None:
    """One-dimensional classical MDS, as R's ``cmdscale(d, k = 1)``.

    Double-centres the squared distances, takes the eigenvector of
    ``-B / 2`` with the largest eigenvalue (LAPACK ``dsyevr``, lower
    triangle, as R's ``eigen(symmetric = TRUE)``) and scales it by the square
    root of that eigenvalue.

    The sign of an eigenvector is arbitrary and depends on the LAPACK build;
    a flipped sign reverses the resulting order of levels but not any ALE
    value attached to a level.

    Parameters
    ----------
    distances : numpy.ndarray
        Symmetric ``(n, n)`` distance matrix, ``n >= 2``.

    Returns
    -------
    numpy.ndarray or None
        The ``n`` coordinates, or ``None`` when the largest eigenvalue is not
        positive (R then warns and returns no coordinates).
    """
    d = np.asarray(distances, dtype=float)
    b = double_centre(d * d)
    values, vectors = scipy.linalg.eigh(-b / 2.0, lower=True, driver="evr")
    top = values[-1]
    if not top > 0:
        return None
    return vectors[:, -1] * np.sqrt(top)
