"""``ALEDisplay``: many ALE effects in one figure, in scikit-learn's Display pattern.

Computing and drawing are separate, as in
``sklearn.inspection.PartialDependenceDisplay``: :meth:`ALEDisplay.from_estimator`
computes with :func:`pyale.ale` and draws, :meth:`ALEDisplay.from_results`
draws finished results, :meth:`ALEDisplay.plot` (re)draws and returns the
display, and the matplotlib artists are attributes ending in ``_``.
matplotlib is imported when drawing only.
"""

from __future__ import annotations

import inspect
import math
import numbers
from typing import Sequence

import numpy as np

from .._results.ale import ALEResult, check_output
from .._frontends.ale.api import ale
from .._core.grid.features import read_feature
from .._engines import engine_name, is_engine_frame
from .._inputs.frames import Converted, as_pandas
from .._results.present import register_display, rug_and_deciles
from .._regional import RegionalResult
from .panels import (band_limits, bar_labels, bars_height, constrain, draw_bars, draw_curve, draw_slopes, draw_surface,
                     horizontal_bars)

__all__ = ["ALEDisplay"]

_BANDS = ("auto", "ci", "heterogeneity", None)
_ORIENTATIONS = ("auto", "vertical", "horizontal")
_PANEL_HEIGHT = 3.3


def _numeric_columns(results, X) -> dict:
    out = {}
    for result in results:
        kinds = result.kind.split(" x ")
        for name, kind in zip(result.features, kinds):
            if kind == "numeric" and name not in out and name in X.columns:
                out[name] = rug_and_deciles(read_feature(X[name], label=f"Column {name!r}").values)
    return out


def _result_values(results) -> dict:
    """Rug ticks and deciles of the numeric features that the results carry from their data."""
    out = {}
    for result in results:
        read = getattr(result, "data_values", None)
        for name, kind in zip(result.features, result.kind.split(" x ")):
            if read is not None and kind == "numeric" and name not in out:
                values = read(name)
                if values is not None:
                    out[name] = values
    return out


def _check_results(results) -> list:
    items = [results] if isinstance(results, ALEResult) else list(results)
    bad = [type(r).__name__ for r in items if not isinstance(r, ALEResult)]
    if not items or bad:
        raise TypeError(
            "The 'results' parameter of ALEDisplay must be an ALEResult or a list of them "
            f"(what pyale.ale returns). Got {bad or 'an empty list'!r} instead."
        )
    return items


@register_display
class ALEDisplay:
    """Accumulated local effects of several features, one panel each.

    Numeric features are curves (one per model output) with a rug of the
    data or decile ticks; categorical features are bars with their level
    names (horizontal when the names are long or many); a pair is a filled
    surface with a colour bar and labelled contours, one panel per model
    output, titled with the class (or output).  A binary classifier is
    drawn for its positive class.  Bands are drawn when the results carry
    them (``ci_low`` and ``ci_high``, or ``heterogeneity`` when asked).

    Parameters
    ----------
    results : list of ALEResult
        What to draw (:func:`pyale.ale`'s answer).
    feature_values : dict, optional
        Feature name -> ``(rug_values, deciles)`` of its data, for the rug
        and decile ticks.  Results of :func:`pyale.ale` carry their data's
        (so :meth:`from_estimator`, :meth:`from_results` and
        ``result.plot()`` draw the same rug); given values, or ``X`` given
        to :meth:`from_results`, take precedence.

    Attributes
    ----------
    figure_ : matplotlib Figure
    axes_ : numpy.ndarray of Axes
        One per panel, laid out ``(n_rows, n_cols)`` (None where no panel):
        rows are filled left to right, and the panels of a pair for
        several outputs (one per class) fill rows of their own.
    bounding_ax_ : Axes or None
        The single Axes given as ``ax`` and split into panels (removed from
        its figure when it was the only one there).
    lines_, bars_, bands_ : numpy.ndarray of lists
        Per panel: the curves, the bar containers, the bands.
    images_, contours_, contour_labels_, colorbars_, empty_cells_ : numpy.ndarray
        Per pair panel: the surface, its contour lines and their labels,
        its colour bar, hatched cells without data.
    rugs_, deciles_vlines_, deciles_hlines_ : numpy.ndarray
        Per panel: rug ticks, decile ticks on the x (and, for pairs, y) axis.
    level_keys_ : numpy.ndarray of dicts
        Per bar panel: each level name drawn cut (with an ellipsis) -> the
        full name.

    See Also
    --------
    pyale.ale : compute the effects.
    sklearn.inspection.PartialDependenceDisplay : the pattern followed.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import numpy as np, pandas as pd, pyale
    >>> X = pd.DataFrame({"a": np.arange(20.0), "b": np.tile([0.0, 1.0], 10)})
    >>> display = pyale.ALEDisplay.from_estimator(lambda d: d["a"] * d["b"], X, ["a", "b"], n_intervals=4)
    >>> display.axes_.shape, len(display.lines_[0, 0])
    ((1, 2), 1)
    """

    def __init__(self, results: Sequence, *, feature_values: dict | None = None):
        self.results = _check_results(results)
        self.feature_values = {**_result_values(self.results), **(feature_values or {})}

    @classmethod
    def from_estimator(
        cls,
        model: object,
        X: object,
        features: object,
        *,
        feature_names: Sequence | None = None,
        conventions: str = "aleplot",
        n_intervals: int | None = None,
        response: object | None = None,
        response_method: str = "auto",
        level_order: Sequence | None = None,
        max_rows_per_call: int | None = None,
        progress: bool | None = None,
        ax=None,
        **plot_kw,
    ) -> "ALEDisplay":
        """Compute the effects with :func:`pyale.ale` and draw them.

        Parameters
        ----------
        model, X, features, feature_names, conventions, n_intervals, response, response_method, level_order, max_rows_per_call
            As for :func:`pyale.ale`; ``features`` is one entry (a label or
            a pair) or a list of them.  ``response_method`` ("auto",
            "predict_proba", "decision_function" or "predict") is
            scikit-learn's: a classifier without ``predict_proba`` is drawn
            from its ``decision_function``.
        progress : bool or None, default None
            A progress bar while the effects are computed, as for
            :func:`pyale.ale` (None: only in a terminal or notebook, for
            jobs longer than 2 seconds).
        ax : matplotlib Axes or array of Axes, optional
            See :meth:`plot`.
        **plot_kw
            :func:`pyale.ale`'s other keywords (``n_bootstrap``,
            ``ci_level``, ``random_state``, ``sample_weight``, ``y``) go to
            it; the rest to :meth:`plot` (``n_cols``, ``sharey``,
            ``line_kw``, matplotlib line properties, ...).  An unknown
            keyword is refused before anything is computed.

        Returns
        -------
        ALEDisplay
        """
        # pyale.ale's other keywords (n_bootstrap, sample_weight, ...) go to ale, the rest to plot;
        # a keyword neither knows is refused by name before the model is called.
        ale_names = set(inspect.signature(ale).parameters) - {"model", "X", "features"}
        ale_kw = {name: plot_kw.pop(name) for name in list(plot_kw) if name in ale_names}
        _check_plot_keywords(plot_kw, cls.plot, "ALEDisplay.from_estimator")
        frame, native = as_pandas(X, param="X", caller="ALEDisplay.from_estimator", feature_names=feature_names)
        entries = features if isinstance(features, list) else [features]
        results = ale(model, Converted(frame, native), list(entries), conventions=conventions,
                      n_intervals=n_intervals, response=response, response_method=response_method,
                      level_order=level_order,
                      max_rows_per_call=max_rows_per_call, progress=progress, **ale_kw)
        return cls(results).plot(ax=ax, **plot_kw)  # the results carry their data's rug

    @classmethod
    def from_results(cls, results, *, X: object = None, feature_names: Sequence | None = None, ax=None,
                     **plot_kw) -> "ALEDisplay":
        """Draw finished results (one :class:`~pyale.ALEResult` or a list).

        Parameters
        ----------
        results : ALEResult or list of ALEResult
            What to draw.
        X : pandas.DataFrame, polars.DataFrame, pyarrow.Table or numpy.ndarray, optional
            Any frame :func:`pyale.ale` accepts: when given, it supplies the
            rug and decile ticks of the numeric features.
        feature_names : sequence, optional
            Column names of a NumPy ``X``.
        ax : matplotlib Axes or array of Axes, optional
            See :meth:`plot`.
        **plot_kw
            Passed to :meth:`plot`.

        Returns
        -------
        ALEDisplay
        """
        results = _check_results(results)
        values = None
        if X is not None:
            frame, _ = as_pandas(X, param="X", caller="ALEDisplay.from_results", feature_names=feature_names)
            if is_engine_frame(frame):
                raise TypeError(
                    "The 'X' parameter of ALEDisplay.from_results must hold its rows in memory (the rug is drawn "
                    f"from them). Got a {engine_name(frame)} instead: pass a sample of its rows collected into memory."
                )
            values = _numeric_columns(results, frame)
        return cls(results, feature_values=values).plot(ax=ax, **plot_kw)

    @classmethod
    def from_regional(cls, regional: RegionalResult, *, leaves_only: bool = True, ax=None,
                      **plot_kw) -> "ALEDisplay":
        """Draw regional effects (:func:`pyale.regional`): one panel per region, its path in the title.

        Parameters
        ----------
        regional : RegionalResult
            What :func:`pyale.regional` returned.
        leaves_only : bool, default True
            Draw the leaves only (the regions that partition the rows); False
            draws every region of the tree, the root (all rows) first.
        ax : matplotlib Axes or array of Axes, optional
            See :meth:`plot`.
        **plot_kw
            Passed to :meth:`plot` (``n_cols``, ``sharey``, ``band``, ...).

        Returns
        -------
        ALEDisplay
            With ``regions_``: the :class:`~pyale.Region` of each panel, in
            order, and ``titles_``: their title texts.
        """
        if not isinstance(regional, RegionalResult):
            raise TypeError("The 'regional' parameter of ALEDisplay.from_regional must be a RegionalResult (what "
                            f"pyale.regional returns). Got {type(regional).__name__} instead.")
        regions = regional.leaves if leaves_only else regional.regions
        display = cls([r.result for r in regions]).plot(ax=ax, **plot_kw)
        panels = [axis for axis in display.axes_.ravel() if axis is not None]
        display.regions_ = tuple(regions)
        display.titles_ = []
        for axis, region in zip(panels, regions):
            title = f"{region.rule}\nn = {region.size:g}, heterogeneity {region.heterogeneity:.3g}"
            axis.set_title(title, fontsize="small")
            display.titles_.append(title)
        return display

    # ------------------------------------------------------------------ layout

    def _panels(self, output):
        panels = []
        for result in self.results:
            names = list(result.outputs)
            if output is None and getattr(result, "classifier", False) and len(names) == 2:
                chosen = [(1, names[1])]  # a binary classifier: the positive class, as scikit-learn draws
            elif output is None:
                chosen = list(enumerate(names))
            else:
                chosen = [(names.index(w), w) for w in check_output(output, result, caller="ALEDisplay.plot")]
            if len(result.features) == 2:
                panels += [(result, [pair]) for pair in chosen]
            else:
                panels.append((result, chosen))
        return panels

    def _axes(self, ax, rows: list, heights: list, wide: bool):
        """The figure, the ``(n_rows, n_cols)`` array of panel Axes, and each panel's place in it.

        ``rows``: the panel indices of each row; ``heights``: inches of each row.
        """
        import matplotlib.pyplot as plt
        from matplotlib.axes import Axes
        from matplotlib.gridspec import GridSpecFromSubplotSpec

        n_panels = sum(map(len, rows))
        n_rows, n_cols = len(rows), max(map(len, rows))
        width, height = (4.6 if wide else 4.0) * n_cols, float(sum(heights))
        self.bounding_ax_ = None
        if ax is None:
            figure = plt.figure(figsize=(width, height), layout="constrained")
            return (figure,) + _fill(figure, figure.add_gridspec(n_rows, n_cols, height_ratios=heights), rows)
        if isinstance(ax, Axes):
            figure = ax.figure
            constrain(figure, [ax])
            if n_panels == 1:
                return figure, np.array([[ax]], dtype=object), [(0, 0)]
            if ax.get_subplotspec() is None:
                raise ValueError(
                    f"The 'ax' parameter of ALEDisplay.plot is a single Axes without a grid position; "
                    f"{n_panels} panels need an array of {n_panels} Axes."
                )
            self.bounding_ax_ = ax
            if figure.axes == [ax]:
                # The figure is only this Axes: lay the panels out on the whole figure (a nested
                # grid is laid out badly by matplotlib < 3.9's constrained layout).
                figure.delaxes(ax)
                given_width, given_height = figure.get_size_inches()
                figure.set_size_inches(max(given_width, width), max(given_height, height))
                spec = figure.add_gridspec(n_rows, n_cols, height_ratios=heights)
                return (figure,) + _fill(figure, spec, rows)
            ax.set_axis_off()
            spec = GridSpecFromSubplotSpec(n_rows, n_cols, subplot_spec=ax.get_subplotspec(),
                                           height_ratios=heights)
            return (figure,) + _fill(figure, spec, rows)
        axes = np.asarray(ax, dtype=object)
        if axes.size != n_panels or not all(isinstance(a, Axes) for a in axes.ravel()):
            raise ValueError(
                f"The 'ax' parameter of ALEDisplay.plot must be one Axes or {n_panels} Axes (one per "
                f"panel). Got {axes.size} object(s) instead."
            )
        figure = axes.ravel()[0].figure
        constrain(figure, list(axes.ravel()))
        axes = axes if axes.ndim == 2 else axes.reshape(1, -1)
        return figure, axes, [np.unravel_index(i, axes.shape) for i in range(n_panels)]

    # ------------------------------------------------------------------ drawing

    def plot(
        self,
        ax=None,
        *,
        n_cols: int = 3,
        sharey: bool = True,
        output: object = None,
        line_kw: dict | None = None,
        bar_kw: dict | None = None,
        contour_kw: dict | None = None,
        image_kw: dict | None = None,
        band: str | None = "auto",
        band_kw: dict | None = None,
        rug: bool = True,
        deciles: bool = False,
        bar_orientation: str = "auto",
        max_levels: int | None = None,
        slopes: bool = False,
        **kwargs,
    ) -> "ALEDisplay":
        """Draw the panels; returns ``self``.

        Parameters
        ----------
        ax : matplotlib Axes or array of Axes, optional
            None: a new figure (constrained layout).  One Axes: split into
            the panels (as scikit-learn does; when it is the figure's only
            Axes, it is removed and the panels fill the figure, grown to
            give each panel room).  An array:
            one Axes per panel.
            A figure whose only Axes are the ones given, and that has no
            layout engine, is switched to constrained layout, so that no
            label is cut when it is saved.
        n_cols : int, default 3
            Panels per row.
        sharey : bool, default True
            One y range for all curves and bars, one colour scale for all
            surfaces.
        output : label or list, optional
            Draw only these model outputs.  By default every output, except
            for a binary classifier (``result.classifier`` with two
            classes): its second class only, scikit-learn's positive class
            (``classes_[1]``), since the other is its mirror image; pass
            both labels (``output=result.outputs``) to draw both.
        line_kw, bar_kw : dict, optional
            Keywords of ``Axes.plot`` (curves) and ``Axes.bar`` (bars),
            merged over the defaults and over ``**kwargs``.
        contour_kw, image_kw : dict, optional
            Keywords of ``Axes.contour`` (contour lines; ``levels=[]`` draws
            none) and ``Axes.pcolormesh`` (the surface: ``cmap``, ``norm``, ...).
        band : {"auto", "ci", "heterogeneity", None}, default "auto"
            Shade the interval from ``ci_low`` to ``ci_high`` ("ci"), or the
            effect plus and minus ``heterogeneity``; "auto" shades the
            interval when the results have one.
        band_kw : dict, optional
            Keywords of ``fill_between`` (curves) or ``errorbar`` (bars).
        rug : bool, default True
            Ticks at the data's values under each curve (at most 1000,
            evenly spaced in rank), when the data are known.
        deciles : bool, default False
            Ticks at the data's deciles (scikit-learn's ``mquantiles``), on
            both axes of a surface.
        bar_orientation : {"auto", "vertical", "horizontal"}, default "auto"
            How the bars of a categorical feature stand.  "auto": horizontal,
            level names on the y axis (first level on top) and the panel
            grown to give each name its room, when a name is longer than 12
            characters or more than 8 bars are drawn; vertical otherwise.
            Names are wrapped at 20 characters, and one longer than two
            lines is cut with an ellipsis: the full names stay in the
            result's ``grid`` and in ``level_keys_``.
        max_levels : int or None, default None
            Draw only the ``max_levels`` levels with the largest absolute
            effect (over the outputs drawn), in their order, and show the
            others as one hatched bar, "other (k levels)", that spans their
            effects from lowest to highest (no new number is computed).
        slopes : bool, default False
            Draw numeric main effects as effector's bin-slope panel instead
            of the curve: each interval's mean local effect per unit of the
            feature (the curve's slope; the mean derivative for
            ``method="gradient"``) as a step over the interval, the band
            (``band="heterogeneity"``) the interval's heterogeneity divided
            by its width (the derivatives' standard deviation), and the
            interval edges dotted, so heterogeneity-aware bins show where
            they split.  With ``band="auto"`` the heterogeneity is drawn.
        **kwargs
            Matplotlib keywords for the curves and bars (``color``,
            ``label``, ``linestyle``, ``alpha``, ...).

        Returns
        -------
        ALEDisplay
        """
        from matplotlib.colors import CenteredNorm

        if isinstance(n_cols, bool) or not isinstance(n_cols, numbers.Integral) or n_cols < 1:
            raise ValueError(f"The 'n_cols' parameter of ALEDisplay.plot must be an int >= 1. Got {n_cols!r} instead.")
        if band not in _BANDS:
            raise ValueError(f"The 'band' parameter of ALEDisplay.plot must be one of {list(_BANDS)!r}. "
                             f"Got {band!r} instead.")
        if bar_orientation not in _ORIENTATIONS:
            raise ValueError(f"The 'bar_orientation' parameter of ALEDisplay.plot must be one of "
                             f"{list(_ORIENTATIONS)!r}. Got {bar_orientation!r} instead.")
        if max_levels is not None and (isinstance(max_levels, bool) or not isinstance(max_levels, numbers.Integral)
                                       or max_levels < 1):
            raise ValueError(f"The 'max_levels' parameter of ALEDisplay.plot must be an int >= 1 or None. "
                             f"Got {max_levels!r} instead.")
        if not isinstance(slopes, (bool, np.bool_)):
            raise TypeError(f"The 'slopes' parameter of ALEDisplay.plot must be a bool. Got {slopes!r} instead.")
        band = self._band("heterogeneity" if slopes and band == "auto" and all(
            getattr(r, "heterogeneity", None) is not None for r in self.results) else band)
        panels = self._panels(output)
        _check_plot_keywords(kwargs, None, "ALEDisplay.plot",
                             curves=any(len(r.features) == 1 and r.kind != "categorical" for r, _ in panels),
                             bars=any(r.kind == "categorical" for r, _ in panels))
        horizontal, heights = self._sizes(panels, bar_orientation, max_levels)
        rows = _rows(panels, min(n_cols, len(panels)))
        wide = any(len(r.features) == 2 for r, _ in panels) or any(horizontal)
        row_heights = [max(heights[i] for i in row) for row in rows]
        self.figure_, self.axes_, places = self._axes(ax, rows, row_heights, wide)
        shape = self.axes_.shape
        for name in ("lines_", "bars_", "bands_", "images_", "contours_", "contour_labels_", "colorbars_",
                     "empty_cells_", "rugs_", "deciles_vlines_", "deciles_hlines_", "level_keys_"):
            setattr(self, name, np.full(shape, None, dtype=object))
        limits = _shared_limits(panels, band) if sharey and not slopes else None  # slopes: each its own range
        spread = _shared_spread(panels) if sharey else None
        for index, (result, outputs) in enumerate(panels):
            where = tuple(places[index])
            axis = self.axes_[where]
            if len(result.features) == 2:
                position, name = outputs[0]
                half = spread if spread is not None else _spread(result, position)
                decile_pair = (self._decile(result.features[0], deciles), self._decile(result.features[1], deciles))
                role = "class" if getattr(result, "classifier", False) else "output"
                drawn = draw_surface(axis, result, position, name, norm=CenteredNorm(0.0, half or 1.0),
                                     image_kw=image_kw, contour_kw=contour_kw, deciles=decile_pair,
                                     title=f"{role}: {name}" if len(result.outputs) > 1 else None)
                self.images_[where], self.contours_[where] = drawn["images"], drawn["contours"]
                self.contour_labels_[where], self.colorbars_[where] = drawn["contour_labels"], drawn["colorbar"]
                self.empty_cells_[where] = drawn["empty_cells"]
                self.deciles_vlines_[where], self.deciles_hlines_[where] = drawn["deciles"]
                continue
            if result.kind == "categorical":
                drawn = draw_bars(axis, result, outputs, bar_kw=bar_kw, band=band, band_kw=band_kw, kwargs=kwargs,
                                  horizontal=horizontal[index], max_levels=max_levels)
                self.bars_[where], self.level_keys_[where] = drawn["bars"] + drawn["other"], drawn["key"]
            elif slopes:
                drawn = draw_slopes(axis, result, outputs, line_kw=line_kw, band=band, band_kw=band_kw,
                                    kwargs=kwargs)
                self.lines_[where] = drawn["lines"]
            else:
                name = result.features[0]
                rug_values = self.feature_values.get(name, (None, None))[0]
                drawn = draw_curve(axis, result, outputs, line_kw=line_kw, band=band, band_kw=band_kw,
                                   rug_values=rug_values, deciles=self._decile(name, deciles), rug=rug,
                                   kwargs=kwargs)
                self.lines_[where], self.rugs_[where] = drawn["lines"], drawn["rug"]
                self.deciles_vlines_[where] = drawn["deciles"]
            self.bands_[where] = drawn["bands"]
            if limits is not None:
                (axis.set_xlim if horizontal[index] else axis.set_ylim)(*limits)
                if horizontal[index] or index == 0 or places[index - 1] != (where[0], where[1] - 1):
                    continue
                left, _ = panels[index - 1]
                if len(left.features) == 1 and not horizontal[index - 1]:
                    axis.set_ylabel("")  # the panel on its left, same range, names it
        return self

    def _sizes(self, panels, bar_orientation, max_levels):
        """Per panel: whether its bars are horizontal, and the inches it needs in height."""
        horizontal, heights = [], []
        for result, _ in panels:
            flat = False
            height = _PANEL_HEIGHT
            if result.kind == "categorical":
                levels = list(result.grid[0])
                n_drawn = len(levels) if max_levels is None or max_levels >= len(levels) else max_levels + 1
                flat = horizontal_bars(levels, bar_orientation, n_drawn)
                if flat:
                    height = bars_height(bar_labels(levels)[0][:n_drawn], _PANEL_HEIGHT)
            horizontal.append(flat)
            heights.append(height)
        return horizontal, heights

    def _band(self, band):
        if band == "auto":
            has = all(getattr(r, "ci_low", None) is not None for r in self.results)
            return "ci" if has else None
        if band is not None:
            needed = ("ci_low", "ci_high") if band == "ci" else ("heterogeneity",)
            lacking = [r.features for r in self.results
                       if any(getattr(r, attr, None) is None for attr in needed)]
            if lacking:
                raise ValueError(
                    f"The 'band' parameter of ALEDisplay.plot is {band!r}, but the effects of "
                    f"{lacking!r} have no {' or '.join(needed)}."
                )
        return band

    def _decile(self, name, wanted: bool):
        if not wanted or name not in self.feature_values:
            return None
        return self.feature_values[name][1]


def _rows(panels, n_cols: int) -> list:
    """Panel indices row by row, ``n_cols`` a row; the panels of one pair for several outputs (one
    per class) fill rows of their own, so that they read as one group."""
    rows, current, group = [], [], None
    for index, (result, _) in enumerate(panels):
        owner = id(result) if len(result.features) == 2 and sum(r is result for r, _ in panels) > 1 else None
        if current and (len(current) == n_cols or owner != group):
            rows.append(current)
            current = []
        current.append(index)
        group = owner
    rows.append(current)
    return rows


def _fill(figure, spec, rows):
    """One Axes per panel on ``spec``, row by row from the left; the Axes array and each panel's place."""
    n_cols = max(map(len, rows))
    axes = np.full((len(rows), n_cols), None, dtype=object)
    places = [None] * sum(map(len, rows))
    for r, row in enumerate(rows):
        for c, index in enumerate(row):
            axes[r, c] = figure.add_subplot(spec[r, c])
            places[index] = (r, c)
    return axes, places


def _shared_limits(panels, band):
    """One y range over every curve and bar panel (bands included), padded."""
    low, high = np.inf, -np.inf
    for result, outputs in panels:
        if len(result.features) == 2:
            continue
        for position, _ in outputs:
            values = [np.asarray(result.effects)[:, position]]
            limits = band_limits(result, band, position)
            if limits is not None:
                values += list(limits)
            stacked = np.concatenate([np.ravel(v) for v in values]).astype(float)
            low, high = min(low, np.nanmin(stacked), 0.0), max(high, np.nanmax(stacked), 0.0)
    if not np.isfinite(low):
        return None
    pad = (high - low) * 0.06 or 1.0
    return low - 1.5 * pad, high + pad


def _spread(result, position) -> float:
    return float(np.nanmax(np.abs(np.asarray(result.effects, dtype=float)[..., position])))


def _shared_spread(panels):
    spreads = [_spread(r, outputs[0][0]) for r, outputs in panels if len(r.features) == 2]
    return max(spreads) if spreads else None


def _check_plot_keywords(kwargs: dict, plot, caller: str, *, curves: bool = False, bars: bool = False) -> None:
    """Refuse a keyword that is neither a parameter of ``plot`` nor a matplotlib line or bar property.

    With ``curves`` / ``bars`` (the panels to draw), a property must suit every kind drawn.
    """
    from matplotlib.lines import Line2D
    from matplotlib.patches import Rectangle

    known = set() if plot is None else set(inspect.signature(plot).parameters) - {"self", "kwargs"}
    for name in kwargs:
        if name in known:
            continue
        line, bar = (callable(getattr(artist, f"set_{name}", None)) for artist in (Line2D, Rectangle))
        if not (line or bar):
            raise TypeError(
                f"{caller} got an unexpected keyword argument {name!r}: it is neither a parameter of "
                f"{'pyale.ale or ' if plot is not None else ''}ALEDisplay.plot nor a matplotlib line or bar "
                "property."
            )
        if (curves and not line) or (bars and not bar):
            raise TypeError(
                f"{caller} got the keyword argument {name!r}, a property of matplotlib's "
                f"{'lines' if line else 'bars'} only, and draws {'bars' if line else 'curves'} too; pass it "
                f"in {'line_kw' if line else 'bar_kw'}={{{name!r}: ...}}."
            )
