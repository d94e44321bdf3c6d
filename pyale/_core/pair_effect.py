"""Second-order ALE: the numbers behind a surface (numeric x numeric or categorical x numeric).

The estimator itself is :func:`pyale._core.estimate.estimate`; the
centring follows ALEPlot 1.1 (iml 0.11.4 removes the same first-order
effects and constant; :data:`~pyale._core.conventions.IML` changes only the
nearest-cell search).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .estimate import Estimate

__all__ = ["PairEffect"]


@dataclass(frozen=True)
class PairEffect:
    """The numbers behind a two-feature ALE surface.

    Attributes
    ----------
    grid1, grid2 : numpy.ndarray or tuple
        Edges (numeric) or level labels in the order used (categorical,
        first feature only).
    effects : numpy.ndarray
        Centred second-order effect at each grid node, ``(len(grid1), len(grid2), n_outputs)``.
    counts : numpy.ndarray
        Rows per cell (rows follow the first feature; for a categorical first
        feature, per level in the order used).
    empty_cells : numpy.ndarray
        Boolean mask of the cells whose local effect had to be borrowed
        from the nearest non-empty cell (level jumps x intervals for a
        categorical first feature).
    local_effects : numpy.ndarray
        Mean second-order difference per cell after filling.
    level_order : numpy.ndarray or None
        Indices into the first feature's levels (categorical first feature).
    estimate : Estimate or None
        Everything the estimator computed.
    """

    grid1: object
    grid2: np.ndarray
    effects: np.ndarray
    counts: np.ndarray
    empty_cells: np.ndarray
    local_effects: np.ndarray
    level_order: np.ndarray | None = None
    estimate: Estimate | None = None
