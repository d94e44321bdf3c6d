"""Result objects of the R-shaped front-ends (``ALEPlot``, ``PDPlot``)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from . import present as _present
from .._inputs.checks import check_bool

__all__ = ["ALEPlotResult", "PDPlotResult", "tidy_frame", "feature_columns"]

FEATURE_PREFIX = "feature_"
"""Prefix of a feature column whose label is the name of one of the table's own columns."""


def feature_columns(labels, reserved) -> list:
    """Column names for the features of a tidy table whose value columns are ``reserved``.

    A feature keeps its label as column name, unless the label is a string
    equal to a reserved name: then it is written ``"feature_<label>"``,
    prefixed again while that name is still taken (by a reserved name or by
    the other feature of a pair).  Distinct labels give distinct columns, and
    no feature column is ever a reserved one.

    Examples
    --------
    >>> feature_columns(["x", "ale"], ["output", "ale"])
    ['x', 'feature_ale']
    >>> feature_columns(["ale", "feature_ale"], ["ale"])
    ['feature_feature_ale', 'feature_ale']
    """
    reserved = list(reserved)
    labels = list(labels)
    kept = [label for label in labels if not (isinstance(label, str) and label in reserved)]
    names = []
    for label in labels:
        name = label
        if isinstance(label, str) and label in reserved:
            name = FEATURE_PREFIX + label
            while name in reserved or name in kept or name in names:
                name = FEATURE_PREFIX + name
        names.append(name)
    return names


def tidy_frame(features: list, values: list) -> pd.DataFrame:
    """A DataFrame from ``(label, column)`` pairs, features first, labels kept as given.

    Feature columns are named by :func:`feature_columns` so that no feature
    label, whatever it is (a string equal to a value column's name, an int,
    a tuple), can shadow or be confused with a value column; a tuple label
    stays one column label (no MultiIndex).
    """
    reserved = [label for label, _ in values]
    names = feature_columns([label for label, _ in features], reserved) + reserved
    columns = [column for _, column in features] + [column for _, column in values]
    frame = pd.DataFrame(dict(enumerate(columns)))
    frame.columns = pd.Index(names, tupleize_cols=False)
    return frame


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
        """Whether this is the effect of two features (a tuple label alone is one feature)."""
        return " x " in self.kind

    def to_frame(self) -> pd.DataFrame:
        """Tidy table: one row per grid value (per grid node for two features).

        Columns: the feature(s), named by their column labels, then ``ale``
        (ALEPlot) or ``pd`` (PDPlot).  The value column keeps its name
        whatever the features are called: a feature whose label is that name
        is written ``feature_ale`` (``feature_pd``), see
        ``feature_columns``.  Labels that are not strings (ints, tuples)
        are kept as they are.
        """
        value = "ale" if isinstance(self, ALEPlotResult) else "pd"
        if not self.is_pair:
            return tidy_frame([(self.feature, list(self.x_values))], [(value, self.f_values)])
        first, second = self.x_values
        a, b = np.meshgrid(np.arange(len(first)), np.arange(len(second)), indexing="ij")
        first_values = np.empty(len(first), dtype=object)
        first_values[:] = list(first)
        return tidy_frame(
            [(self.feature[0], first_values[a.ravel()]),
             (self.feature[1], np.asarray(second, dtype=float)[b.ravel()])],
            [(value, np.asarray(self.f_values).ravel())],
        )

    def __repr__(self) -> str:
        return _present.short_repr(self)

    def _repr_html_(self) -> str:
        return _present.html_view(type(self).__name__, _present.summary(self), lambda ax: self.plot(ax=ax))

    def equals(self, other: object, *, rtol: float = 0.0, atol: float = 0.0) -> bool:
        """Whether ``other`` is a result of the same type with the same values.

        Every field but ``display`` is compared, arrays element by element,
        floats within ``rtol``/``atol`` (exactly by default).

        Parameters
        ----------
        other : object
            The object to compare with.
        rtol, atol : float, default 0.0
            Relative and absolute tolerance for floats.

        Returns
        -------
        bool
        """
        return _present.same_values(self, other, rtol=rtol, atol=atol)

    def plot(self, ax=None, *, NA_plot: bool = True, **kwargs):
        """Draw the effect as ALEPlot does (R's labels).

        Parameters
        ----------
        ax : matplotlib Axes, optional
            Where to draw; a new figure by default.
        NA_plot : bool, default True
            Two features: False paints the cells without data black (ALEPlot's ``NA.plot``).
        **kwargs
            Matplotlib keywords of the curve, bars or image.

        Returns
        -------
        RPlotDisplay
            The display, with ``figure_`` and ``ax_``.
        """
        NA_plot = check_bool(NA_plot, param="NA_plot", caller=f"{type(self).__name__}.plot")
        return _present.display_class("RPlotDisplay")(self).plot(ax=ax, NA_plot=NA_plot, **kwargs)


@dataclass(frozen=True, kw_only=True, eq=False, repr=False)
class ALEPlotResult(_EffectResult):
    """What :func:`pyale.ALEPlot` returns: R's ``list(K, x.values, f.values)`` and more.

    ``K`` is the number of intervals (numeric) or levels (categorical)
    actually used, a pair ``(K1, K2)`` for two features; ``x_values`` holds
    the ``K + 1`` interval edges of a numeric feature.  See the base fields
    for the rest.

    Attributes
    ----------
    K : int or tuple of int
        R's ``K``: intervals (numeric) or levels (categorical) after R's
        ``unique``; ``(K1, K2)`` for two features.
    x_values : numpy.ndarray or list or tuple
        Numeric: the ``K + 1`` interval edges.  Categorical: level labels in
        the order used.  Two features: a pair of those.
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

    Examples
    --------
    >>> import numpy as np, pandas as pd, pyale
    >>> X = pd.DataFrame({"x": np.arange(10.0), "z": np.ones(10)})
    >>> res = pyale.ALEPlot(X, None, lambda m, d: 2 * d["x"].to_numpy(), J="x", K=3, plot=False)
    >>> res.K, res.x_values.tolist(), res.f_values.round(3).tolist(), res.counts.tolist()
    (3, [0.0, 3.0, 6.0, 9.0], [-8.4, -2.4, 3.6, 9.6], [4, 3, 3])
    >>> print(res.to_frame())
         x  ale
    0  0.0 -8.4
    1  3.0 -2.4
    2  6.0  3.6
    3  9.0  9.6
    """

    K: object


@dataclass(frozen=True, kw_only=True, eq=False, repr=False)
class PDPlotResult(_EffectResult):
    """What :func:`pyale.PDPlot` returns: R's ``list(x.values, f.values)`` and more.

    ``x_values`` holds the ``K`` evenly spaced grid values of a numeric
    feature (``seq(min, max, length.out = K)``) or the levels of a
    categorical one in their given order.

    Attributes
    ----------
    x_values : numpy.ndarray or list or tuple
        Numeric: the ``K`` grid values.  Categorical: the levels in their
        given order.  Two features: a pair of those.
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

    Examples
    --------
    >>> import numpy as np, pandas as pd, pyale
    >>> X = pd.DataFrame({"x": np.arange(10.0), "z": np.ones(10)})
    >>> res = pyale.PDPlot(X, None, lambda m, d: 2 * d["x"].to_numpy(), J="x", K=4, plot=False)
    >>> print(res.to_frame())
         x    pd
    0  0.0 -10.8
    1  3.0  -4.8
    2  6.0   1.2
    3  9.0   7.2
    """
