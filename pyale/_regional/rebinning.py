"""Heterogeneity-aware intervals chosen again inside every region (effector's ``RHALE`` regions).

effector's ``RHALE.find_regions`` re-bins each candidate region's
derivatives with its binning (dynamic programming by default) over the
feature's range on all rows, then scores the region on those intervals.
:class:`RegionBins` does the same with pyale's port of the bin search
(:func:`pyale._core.grid.binning.find_edges`); the derivatives themselves are
the ones read once for all rows.
"""

from __future__ import annotations

import numpy as np

from .._core.grid.binning import HeterogeneityBinning, NoBinningError, find_edges
from .._core.run.gradient import left_closed_bins
from .criterion import UNDEFINED, heterogeneity
from .local import LocalEffects

__all__ = ["RegionBins"]


class RegionBins:
    """A region's own intervals, its heterogeneity on them, and its local effects for its curve."""

    def __init__(self, name, values: np.ndarray, derivatives: np.ndarray, weights: np.ndarray | None,
                 binning: HeterogeneityBinning):
        self.name, self.values, self.derivatives, self.weights = name, values, derivatives, weights
        self.binning = binning
        self.x_range = (float(values.min()), float(values.max()))

    def _weights(self, mask):
        return None if self.weights is None else self.weights[mask]

    def edges(self, mask: np.ndarray) -> np.ndarray | None:
        """The region's edges over the whole range, or None when no binning exists for its rows."""
        try:
            return find_edges(self.values[mask], self.derivatives[mask], self.binning, weights=self._weights(mask),
                              x_range=self.x_range, label=f"Column {self.name!r}")
        except NoBinningError:
            return None

    @staticmethod
    def bins(values: np.ndarray, edges: np.ndarray) -> np.ndarray:
        """``[z[k], z[k + 1])``, the maximum in the last: the rows the bin search weighed (and effector's)."""
        return np.clip(left_closed_bins(values, edges), 0, edges.shape[0] - 2)

    def score(self, mask: np.ndarray, scale: float) -> float:
        edges = self.edges(mask)
        if edges is None:
            return UNDEFINED
        bins = self.bins(self.values[mask], edges)
        return heterogeneity(self.derivatives[mask], bins, edges.shape[0] - 1, scale, self._weights(mask))

    def local(self, mask: np.ndarray) -> tuple[LocalEffects, np.ndarray]:
        """The region's rows as local effects on its own intervals (one interval over the range if none)."""
        edges = self.edges(mask)
        if edges is None:
            edges = np.array(self.x_range)
        values = self.values[mask]
        bins = self.bins(values, edges)
        differences = (self.derivatives[mask] * np.diff(edges)[bins])[:, None]
        local = LocalEffects(self.name, edges, bins, differences, values, self._weights(mask))
        return local, np.ones(values.shape[0], dtype=bool)
