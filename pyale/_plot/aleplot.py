"""Pictures in the style of ALEPlot's base-R graphics.

Computing and drawing are separate, as scikit-learn's
``PartialDependenceDisplay``: a display object is built from a result,
``plot(ax=None)`` draws and returns the display, and the matplotlib artists
are attributes ending in ``_``.  matplotlib is imported only here.
"""

from __future__ import annotations

import numpy as np

from .._results.present import register_display
from .._rbase import r_pretty
from .panels import AS_WRITTEN, constrain, label_contours

__all__ = ["RPlotDisplay"]


def _r_number(value: float) -> str:
    """A contour level written as R prints it (up to 15 significant digits)."""
    return f"{value:.15g}"


def _labels(result):
    number = result.column_number
    if result.is_pair:
        return tuple(f"x_{n} ({name})" for n, name in zip(number, result.feature))
    return f"x_{number} ({result.feature})", f"f_{number}(x_{number})"


@register_display
class RPlotDisplay:
    """Draw an ALE or PD result as ALEPlot's base-R graphics do (R's labels, R's palette).

    Parameters
    ----------
    result : ALEPlotResult or PDPlotResult
        What to draw.

    Attributes
    ----------
    ax_, figure_ : matplotlib objects
        Where it was drawn.
    line_ : Line2D
        The curve (numeric feature).
    bars_ : BarContainer
        The bars (categorical feature).
    image_, contour_ : artists
        Filled image and labelled contours (pairs).
    empty_cells_ : list of Rectangle
        Black rectangles over empty cells (pairs, ``NA_plot=False``).
    """

    def __init__(self, result):
        self.result = result
        self.ax_ = None
        self.figure_ = None
        self.line_ = None
        self.bars_ = None
        self.image_ = None
        self.contour_ = None
        self.contour_labels_ = None
        self.empty_cells_ = []

    def plot(self, ax=None, *, NA_plot: bool = True, **kwargs):
        """Draw into ``ax`` (a new figure when None); returns ``self``."""
        import matplotlib.pyplot as plt

        from .._inputs.checks import check_bool

        NA_plot = check_bool(NA_plot, param="NA_plot", caller="RPlotDisplay.plot")

        if ax is None:
            _, ax = plt.subplots(figsize=(6, 4.5), layout="constrained")
        constrain(ax.figure, [ax])
        self.ax_ = ax
        self.figure_ = ax.figure
        result = self.result
        if result.is_pair:
            self._plot_pair(ax, NA_plot=NA_plot, **kwargs)
        elif result.kind == "categorical":
            xlabel, ylabel = _labels(result)
            labels = [str(v) for v in result.x_values]
            self.bars_ = ax.bar(
                np.arange(len(labels)), result.f_values, **{"color": "0.75", "edgecolor": "black", **kwargs}
            )
            ax.set_xticks(np.arange(len(labels)))
            ax.set_xticklabels(labels, rotation=90, **AS_WRITTEN)
            ax.axhline(0.0, color="black", linewidth=0.8)
            ax.set_xlabel(xlabel, **AS_WRITTEN)
            ax.set_ylabel(ylabel, **AS_WRITTEN)
        else:
            xlabel, ylabel = _labels(result)
            kwargs.setdefault("color", "black")
            (self.line_,) = ax.plot(result.x_values, result.f_values, **kwargs)
            ax.set_xlabel(xlabel, **AS_WRITTEN)
            ax.set_ylabel(ylabel, **AS_WRITTEN)
        return self

    def _plot_pair(self, ax, *, NA_plot: bool, **kwargs):
        from matplotlib.patches import Rectangle

        result = self.result
        first, second = result.x_values
        second = np.asarray(second, dtype=float)
        categorical = result.kind.startswith("categorical")
        x = np.arange(1, len(first) + 1, dtype=float) if categorical else np.asarray(first, dtype=float)
        z = np.asarray(result.f_values, dtype=float)
        xlabel, ylabel = _labels(result)
        # R's image() centres a cell on each grid node: build the node boundaries.
        self.image_ = ax.pcolormesh(
            _node_boundaries(x), _node_boundaries(second), z.T,
            **{"cmap": _r_heat_colors(), "shading": "flat", **kwargs},
        )
        # R's contour() draws at pretty(range(z), 10), solid lines, labels as R prints numbers.
        finite = z[np.isfinite(z)]
        levels = r_pretty(finite.min(), finite.max(), 10) if finite.size else np.array([])
        levels = levels[(levels >= finite.min()) & (levels <= finite.max())] if finite.size else levels
        if levels.size and finite.min() < finite.max():
            self.contour_ = ax.contour(
                x, second, z.T, levels=levels, colors="black", linewidths=0.8, linestyles="solid"
            )
            self.contour_labels_ = label_contours(ax, self.contour_, (x[0], x[-1]), (second[0], second[-1]),
                                                  fmt=_r_number)
        if categorical:
            ax.set_xticks(x)
            ax.set_xticklabels([str(v) for v in first], rotation=90, **AS_WRITTEN)
            ax.set_xlim(x[0] - 0.5, x[-1] + 0.5)
        else:
            ax.set_xlim(x[0], x[-1])
        ax.set_ylim(second[0], second[-1])
        if not NA_plot and result.empty_cells is not None:
            for i, j in np.argwhere(result.empty_cells):
                if categorical:
                    left, width = x[i] - 0.5, 1.0
                else:
                    left, width = x[i], x[i + 1] - x[i]
                patch = Rectangle(
                    (left, second[j]), width, second[j + 1] - second[j], facecolor="black",
                    edgecolor="black",
                )
                ax.add_patch(patch)
                self.empty_cells_.append(patch)
        ax.set_xlabel(xlabel, **AS_WRITTEN)
        ax.set_ylabel(ylabel, **AS_WRITTEN)


def _node_boundaries(nodes: np.ndarray) -> np.ndarray:
    """Boundaries of cells centred on ``nodes`` (outer cells half-width, as image())."""
    if nodes.shape[0] == 1:
        return np.array([nodes[0] - 0.5, nodes[0] + 0.5])
    mids = (nodes[:-1] + nodes[1:]) / 2
    return np.concatenate(([nodes[0] - (mids[0] - nodes[0])], mids, [nodes[-1] + (nodes[-1] - mids[-1])]))


def _r_heat_colors():
    """R's default ``image()`` palette, ``hcl.colors(12, "YlOrRd", rev = TRUE)``."""
    from matplotlib.colors import ListedColormap

    return ListedColormap(
        ["#FFFFC8", "#FFF4B7", "#FBE49A", "#F8D074", "#F7BA3C", "#F5A100",
         "#F28400", "#ED6200", "#E13C00", "#C32200", "#A20706", "#7D0025"],
        name="r_image",
    )
