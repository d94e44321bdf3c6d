"""iml 0.11.4's wrong numbers on request (``FeatureEffect(..., replicate_r_bugs=True)``).

Two cases of ``docs/deviations.md`` where iml returns a number rather than
failing, and pyale corrects it by default:

* a user grid with an interval that holds no row (``calculate.ale.num``):
  data.table's mean per interval drops the empty interval, ``cumsum`` runs
  over the intervals that hold rows, and the curve is then paired with the
  grid by position, so it loses its last grid points and every value after
  the gap sits at an earlier grid point;
* a categorical feature with unused levels (``calculate.ale.cat``): the
  centring weights are ``table(x) / n`` of the undropped factor indexed by
  the level order of the dropped one (``x.prob[level_order]``), so they
  belong to other levels.

Both take pyale's own estimate (local effects and counts) and redo R's last
steps; nothing else changes.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["iml_misaligned_numeric", "iml_centred_with_undropped_levels", "undropped_level_shares"]


def iml_misaligned_numeric(local_effects: np.ndarray, counts: np.ndarray, edges: np.ndarray):
    """``(grid, values)`` as iml's ``calculate.ale.num`` returns them when intervals hold no rows.

    Parameters
    ----------
    local_effects : numpy.ndarray
        Mean local effect per interval, ``(K, n_outputs)`` (empty intervals: any value, unused).
    counts : numpy.ndarray
        Rows per interval (``K``).
    edges : numpy.ndarray
        The ``K + 1`` grid points.

    Returns
    -------
    grid : numpy.ndarray
        The first ``m + 1`` grid points, ``m`` the intervals that hold rows (iml's ``merge`` by ``.id``).
    values : numpy.ndarray
        ``c(0, cumsum(mean per occupied interval))`` minus the count-weighted mean of its mid-values,
        ``(m + 1, n_outputs)``.
    """
    occupied = np.asarray(counts) > 0
    local = np.asarray(local_effects, dtype=float)[occupied]
    n = np.asarray(counts, dtype=float)[occupied]
    accumulated = np.vstack([np.zeros((1, local.shape[1])), np.cumsum(local, axis=0)])
    mids = (accumulated[:-1] + accumulated[1:]) / 2
    centre = (mids * n[:, None]).sum(axis=0) / n.sum()
    return np.asarray(edges, dtype=float)[: local.shape[0] + 1], accumulated - centre


def undropped_level_shares(column: pd.Series) -> np.ndarray | None:
    """``table(x) / sum(table(x))`` over every category of a Categorical column, unused ones included
    (in category order); None when the column has no unused category (iml's weights are then right)."""
    if not isinstance(column.dtype, pd.CategoricalDtype):
        return None
    counts = column.value_counts(sort=False).reindex(column.cat.categories).to_numpy(dtype=float)
    if (counts > 0).all():
        return None
    return counts / counts.sum()


def iml_centred_with_undropped_levels(local_effects: np.ndarray, level_order: np.ndarray,
                                      shares: np.ndarray) -> np.ndarray:
    """iml's ``calculate.ale.cat`` values: ``.ale - sum(.ale * x.prob[level_order])``.

    ``.ale`` is ``c(0, cumsum(jumps))`` in the order used; ``level_order`` holds 0-based indices into the
    used (dropped) levels, which iml applies to the shares of all categories (``shares``).
    """
    local = np.asarray(local_effects, dtype=float)
    accumulated = np.vstack([np.zeros((1, local.shape[1])), np.cumsum(local, axis=0)])
    weights = np.asarray(shares, dtype=float)[np.asarray(level_order)]
    return accumulated - (accumulated * weights[:, None]).sum(axis=0)
