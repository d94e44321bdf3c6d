"""Matplotlib analogues of iml's ggplot pictures (``plot(FeatureEffect)``, ``plot(FeatureEffects)``).

Computing and drawing are separate: the displays read a finished
``FeatureEffect``'s ``results``.  matplotlib is imported when drawing only.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .._results.present import register_display
from .panels import AS_WRITTEN, constrain, legend_as_written

__all__ = ["FeatureEffectDisplay", "FeatureEffectsDisplay"]


def _y_label(effect) -> str:
    if effect.center_at is not None:
        return f"Prediction centered at x = {effect.center_at}"
    names = [n for n in (effect.predictor.y_names or []) if n != ".y"]  # ".y": an unnamed target
    target = f" of {', '.join(map(str, names))}" if names and effect.n_features == 1 else ""
    if effect.method == "ale":
        return f"ALE{target}"
    return f"Predicted {', '.join(map(str, names))}" if target else "Predicted y"


@register_display
class FeatureEffectDisplay:
    """The picture of one :class:`~pyale.FeatureEffect`.

    Attributes (after :meth:`plot`)
    -------------------------------
    figure_ : matplotlib Figure
    axes_ : numpy.ndarray of Axes
        One panel per model output (iml's ``facet_wrap(".class")``).
    artists_ : dict
        Per panel title, the drawn artists (lines, bars, boxes, rectangles, rug).
    """

    def __init__(self, effect):
        self.effect = effect

    def _panels(self):
        results = self.effect.results
        if ".class" not in results.columns:
            return [(None, results)]
        return [(str(c), results[results[".class"] == c]) for c in results[".class"].cat.categories]

    def plot(self, ax=None, *, rug: bool = True, show_data: bool = False, ylim=None):
        import matplotlib.pyplot as plt

        panels = self._panels()
        if ax is None:
            ncols = min(3, len(panels))
            nrows = math.ceil(len(panels) / ncols)
            fig, axes = plt.subplots(nrows, ncols, figsize=(4.2 * ncols, 3.4 * nrows), squeeze=False,
                                     layout="constrained")
            axes = axes.ravel()
            for extra in axes[len(panels):]:
                extra.set_visible(False)
        else:
            axes = np.atleast_1d(ax).ravel()
            if axes.shape[0] < len(panels):
                # Fewer axes than outputs: draw every output into the first axes.
                axes = np.array([axes[0]] * len(panels), dtype=object)
            fig = axes[0].figure
            constrain(fig, list(axes))
        self.artists_ = {}
        for axis, (title, table) in zip(axes, panels):
            self.artists_[title] = self._draw(axis, table, rug=rug, show_data=show_data, ylim=ylim)
            if title is not None:
                axis.set_title(title, **AS_WRITTEN)
        self.figure_, self.axes_ = fig, axes[: len(panels)]
        return self

    def _draw(self, ax, table: pd.DataFrame, *, rug, show_data, ylim):
        effect = self.effect
        data = effect.predictor.data
        drawn = {}
        if effect.n_features == 1:
            name = effect.feature_name
            if effect.feature_type == "categorical":
                labels = [str(v) for v in pd.unique(table[name].astype(object))]
                if effect.method in ("ice", "pdp+ice"):
                    ice = table[table[".type"] == "ice"]
                    groups = [ice.loc[ice[name].astype(str) == lab, ".value"].to_numpy() for lab in labels]
                    drawn["boxes"] = ax.boxplot(groups)
                    ax.set_xticks(np.arange(1, len(labels) + 1), [str(v) for v in labels], **AS_WRITTEN)
                else:
                    positions = np.arange(len(labels))
                    drawn["bars"] = ax.bar(positions, table[".value"].to_numpy(dtype=float), color="0.35")
                    ax.set_xticks(positions, labels, **AS_WRITTEN)
            else:
                if effect.method in ("ice", "pdp+ice"):
                    ice = table[table[".type"] == "ice"]
                    drawn["ice_lines"] = [
                        ax.plot(part[name], part[".value"], color="black", alpha=0.2, linewidth=0.8)[0]
                        for _, part in ice.groupby(".id", sort=True)
                    ]
                curve = table[table[".type"].isin(["ale", "pdp"])]
                if not curve.empty:
                    style = {"color": "gold", "linewidth": 2.5} if effect.method == "pdp+ice" else {"color": "black"}
                    drawn["line"] = ax.plot(curve[name], curve[".value"], **style)[0]
                if rug and isinstance(data, pd.DataFrame):  # not for a Dask, Spark or polars lazy frame: no data drawn
                    values = data[name].to_numpy(dtype=float)
                    drawn["rug"] = ax.plot(values, np.zeros_like(values), "|", color="black", alpha=0.3,
                                           transform=ax.get_xaxis_transform(), markersize=12)[0]
            ax.set_xlabel(str(name), **AS_WRITTEN)
            ax.set_ylabel(_y_label(effect), **AS_WRITTEN)
            if ylim is not None:
                ax.set_ylim(*ylim)
            return drawn
        first, second = effect.feature_name
        if effect.method == "ale":
            drawn["rectangles"] = self._rectangles(ax, table)
        elif "categorical" in effect.feature_type and effect.feature_type.count("categorical") == 1:
            cat = first if effect.feature_type[0] == "categorical" else second
            num = second if cat == first else first
            drawn["lines"] = []
            for level, part in table.groupby(cat, sort=False, observed=True):
                drawn["lines"].append(ax.plot(part[num], part[".value"], label=str(level))[0])
            legend_as_written(ax.legend(title=str(cat)))
            ax.set_xlabel(str(num), **AS_WRITTEN)
            ax.set_ylabel(_y_label(effect), **AS_WRITTEN)
            return drawn
        else:
            x = table[first].astype(object).to_numpy()
            y = table[second].astype(object).to_numpy()
            xs, ys = pd.unique(x), pd.unique(y)
            grid = np.full((len(ys), len(xs)), np.nan)
            xi = {v: i for i, v in enumerate(xs)}
            yi = {v: i for i, v in enumerate(ys)}
            for a, b, v in zip(x, y, table[".value"].to_numpy(dtype=float)):
                grid[yi[b], xi[a]] = v
            drawn["tiles"] = ax.imshow(grid, origin="lower", aspect="auto", cmap="Blues")
            ax.set_xticks(range(len(xs)), [f"{v:.3g}" if isinstance(v, float) else str(v) for v in xs], **AS_WRITTEN)
            ax.set_yticks(range(len(ys)), [f"{v:.3g}" if isinstance(v, float) else str(v) for v in ys], **AS_WRITTEN)
            ax.figure.colorbar(drawn["tiles"], ax=ax).set_label(_y_label(effect), **AS_WRITTEN)
        if show_data and isinstance(data, pd.DataFrame):  # a Dask, Spark or polars lazy frame's rows are not drawn
            points = {}
            for n in (first, second):
                column = data[n]
                points[n] = column.cat.codes + 1 if isinstance(column.dtype, pd.CategoricalDtype) else column
            drawn["data"] = ax.scatter(points[first], points[second], s=6, color="black", alpha=0.3)
        ax.set_xlabel(str(first), **AS_WRITTEN)
        ax.set_ylabel(str(second), **AS_WRITTEN)
        return drawn

    def _rectangles(self, ax, table):
        from matplotlib.collections import PatchCollection
        from matplotlib.patches import Rectangle

        effect = self.effect
        cat = [n for n, t in zip(effect.feature_name, effect.feature_type) if t == "categorical"]
        x_name = cat[0] if cat else effect.feature_name[0]
        y_name = [n for n in effect.feature_name if n != x_name][0]
        patches = [
            Rectangle((left, top), right - left, bottom - top)
            for left, right, bottom, top in table[[".left", ".right", ".bottom", ".top"]].to_numpy(dtype=float)
        ]
        collection = PatchCollection(patches, cmap="Blues")
        collection.set_array(table[".ale"].to_numpy(dtype=float))
        ax.add_collection(collection)
        ax.autoscale_view()
        ax.figure.colorbar(collection, ax=ax).set_label(_y_label(effect), **AS_WRITTEN)
        if cat:
            labels = list(table[x_name].cat.categories)
            ax.set_xticks(np.arange(1, len(labels) + 1), [str(v) for v in labels], **AS_WRITTEN)
        ax.set_xlabel(str(x_name), **AS_WRITTEN)
        ax.set_ylabel(str(y_name), **AS_WRITTEN)
        return collection


@register_display
class FeatureEffectsDisplay:
    """The panels of a :class:`~pyale.FeatureEffects`, three per row by default.

    Attributes (after :meth:`plot`)
    -------------------------------
    figure_ : matplotlib Figure
    axes_ : dict
        Feature name -> its Axes.
    displays_ : dict
        Feature name -> :class:`FeatureEffectDisplay`.
    """

    def __init__(self, effects):
        self.effects = effects

    def plot(self, *, features=None, ncols=None, nrows=None, fixed_y: bool = True, figure=None, **kwargs):
        import matplotlib.pyplot as plt

        names = list(self.effects.features if features is None else features)
        unknown = [n for n in names if n not in self.effects.effects]
        if unknown:
            raise ValueError(f"The 'features' parameter of FeatureEffects.plot names unknown features {unknown!r}.")
        if ncols is None and nrows is None:
            ncols = 3
        if ncols is None:
            ncols = math.ceil(len(names) / nrows)
        if nrows is None:
            nrows = math.ceil(len(names) / ncols)
        ylim = None
        if fixed_y:
            values = np.concatenate([self.effects.effects[n].results[".value"].to_numpy(dtype=float) for n in names])
            pad = 0.05 * (values.max() - values.min()) or 0.5  # margins: curves do not touch the frame
            ylim = (values.min() - pad, values.max() + pad)
        if figure is None:
            fig, axes = plt.subplots(nrows, ncols, figsize=(4.0 * ncols, 3.2 * nrows), squeeze=False,
                                     layout="constrained")
        else:  # draw into a given figure (its axes are replaced)
            fig = figure
            for old in list(fig.axes):
                fig.delaxes(old)
            axes = np.asarray(fig.subplots(nrows, ncols, squeeze=False))
        flat = axes.ravel()
        for extra in flat[len(names):]:
            extra.set_visible(False)
        self.axes_, self.displays_ = {}, {}
        for axis, name in zip(flat, names):
            display = FeatureEffectDisplay(self.effects.effects[name])
            display.plot(ax=axis, ylim=ylim, **kwargs)
            axis.set_ylabel("")
            self.axes_[name], self.displays_[name] = axis, display
        first = self.effects.effects[names[0]]
        fig.suptitle(_y_label(first), **AS_WRITTEN)
        self.figure_ = fig
        return self
