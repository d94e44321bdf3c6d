"""Result objects of the R-shaped front-ends (``ALEPlot``, ``PDPlot``)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from . import _present

__all__ = ["ALEPlotResult", "PDPlotResult"]


@dataclass(frozen=True, kw_only=True, eq=False, repr=False)
class _EffectResult:
    """Fields shared by ALE and PD results.

    Attributes
    ----------
    x_values : numpy.ndarray or list or tuple
        Numeric: grid values.  Categorical: level labels in the order used.
        Two features: a pair of those.
    f_values : numpy.ndarray
        The centred effect at each grid value (2-D for two features, rows
        following the first feature).
    feature : object or tuple
        The column label(s).
    kind : str
        ``"numeric"``, ``"categorical"``, ``"numeric x numeric"`` or
        ``"categorical x numeric"``.
    counts : numpy.ndarray
        Rows per interval or level (per cell for two features) used for
        centring.
    column_number : int or tuple of int
        R's 1-based column number(s), used in the axis labels so that the
        pictures read as R's.
    empty_cells : numpy.ndarray or None
        Two features: the cells R paints black with ``NA.plot = FALSE``.
    display : RPlotDisplay or None
        The drawn picture when the function was called with ``plot=True``.

    Notes
    -----
    ``a == b`` is identity; :meth:`equals` compares the values.
    """

    x_values: object
    f_values: np.ndarray
    feature: object
    kind: str
    counts: np.ndarray
    column_number: object
    empty_cells: np.ndarray | None = None
    display: object = field(default=None, compare=False, repr=False)

    @property
    def is_pair(self) -> bool:
        return isinstance(self.feature, tuple)

    def to_frame(self) -> pd.DataFrame:
        """Tidy table: one row per grid value (per grid node for two features)."""
        value = "ale" if isinstance(self, ALEPlotResult) else "pd"
        if not self.is_pair:
            return pd.DataFrame({str(self.feature): list(self.x_values), value: self.f_values})
        first, second = self.x_values
        a, b = np.meshgrid(np.arange(len(first)), np.arange(len(second)), indexing="ij")
        first_values = np.empty(len(first), dtype=object)
        first_values[:] = list(first)
        return pd.DataFrame(
            {
                str(self.feature[0]): first_values[a.ravel()],
                str(self.feature[1]): np.asarray(second, dtype=float)[b.ravel()],
                value: np.asarray(self.f_values).ravel(),
            }
        )

    def __repr__(self) -> str:
        return _present.short_repr(self)

    def _repr_html_(self) -> str:
        return _present.html_view(type(self).__name__, _present.summary(self), lambda ax: self.plot(ax=ax))

    def equals(self, other: object, *, rtol: float = 0.0, atol: float = 0.0) -> bool:
        """Whether ``other`` is a result of the same type with the same values.

        Every field but ``display`` is compared, arrays element by element,
        floats within ``rtol``/``atol`` (exactly by default).
        """
        return _present.same_values(self, other, rtol=rtol, atol=atol)

    def plot(self, ax=None, **kwargs):
        """Draw the effect as ALEPlot does (R's labels); returns a display object."""
        from ._plot.aleplot import RPlotDisplay

        return RPlotDisplay(self).plot(ax=ax, **kwargs)


@dataclass(frozen=True, kw_only=True, eq=False, repr=False)
class ALEPlotResult(_EffectResult):
    """What :func:`pyale.ALEPlot` returns: R's ``list(K, x.values, f.values)`` and more.

    ``K`` is the number of intervals (numeric) or levels (categorical)
    actually used, a pair ``(K1, K2)`` for two features; ``x_values`` holds
    the ``K + 1`` interval edges of a numeric feature.  See the base fields
    for the rest.
    """

    K: object


@dataclass(frozen=True, kw_only=True, eq=False, repr=False)
class PDPlotResult(_EffectResult):
    """What :func:`pyale.PDPlot` returns: R's ``list(x.values, f.values)`` and more.

    ``x_values`` holds the ``K`` evenly spaced grid values of a numeric
    feature (``seq(min, max, length.out = K)``) or the levels of a
    categorical one in their given order.
    """
