"""Drawing one panel of an :class:`~pyale.ALEDisplay`: a curve, bars, or a surface.

Each function draws into one matplotlib Axes and returns the artists it
made; :mod:`pyale._plot.display` lays the panels out and keeps the artists.
"""

from __future__ import annotations

import textwrap

import numpy as np

__all__ = ["constrain", "label_contours", "draw_curve", "draw_slopes", "interval_slopes", "draw_bars", "draw_surface", "band_limits", "level_ticks",
           "effect_label", "AS_WRITTEN", "legend_as_written", "bar_labels", "horizontal_bars", "bars_height",
           "top_levels"]

# Level names longer than this, or many levels, are rotated and right-aligned.
_FLAT_LABEL_CHARS = 30
# A level name is wrapped at this many characters and cut, with an ellipsis, after so many lines.
_WRAP_CHARS = 20
_WRAP_LINES = 2
# Bars turn horizontal (names on the y axis, read without turning the head) for names longer
# than this or for more levels than that.
_HORIZONTAL_CHARS = 12
_VERTICAL_LEVELS = 8

AS_WRITTEN = {"parse_math": False}
"""Text keywords for names, levels and outputs: drawn as written ('$' is not mathtext; '$\\q$' would crash)."""


def legend_as_written(legend):
    """``legend`` with its entries and title drawn as written (see :data:`AS_WRITTEN`)."""
    if legend is not None:
        for text in [*legend.get_texts(), legend.get_title()]:
            text.set_parse_math(False)
    return legend


def constrain(figure, given: list) -> None:
    """Constrained layout for a figure that holds only the Axes given and has no layout engine.

    Then no label is cut when the figure is saved; a figure with other Axes
    or its own layout is left as it is, and so is a subfigure (its parent
    figure lays it out).
    """
    if not hasattr(figure, "set_layout_engine"):  # a SubFigure: the parent's layout decides
        return
    if figure.get_layout_engine() is None and set(map(id, figure.axes)) <= set(map(id, given)):
        figure.set_layout_engine("constrained")


def label_contours(ax, contours, x_range, y_range, *, fmt, fontsize=7, margin=0.08):
    """Label each contour line where it is farthest from the frame and from the other labels.

    matplotlib's own placement may put a label on the frame, where half of
    it sticks out (and is cut at the figure's edge), or pile labels up where
    lines crowd.  Here each line gets its label at the point with the most
    room (distance, as a fraction of the axes, to the frame and to labels
    already placed); a line with less than ``margin`` room anywhere stays
    unlabelled.
    """
    (x0, x1), (y0, y1) = x_range, y_range
    placed, points = [], []
    for segments in contours.allsegs:
        best, where = margin, None
        for segment in segments:
            if len(segment) == 0:
                continue
            fx, fy = (segment[:, 0] - x0) / (x1 - x0), (segment[:, 1] - y0) / (y1 - y0)
            room = np.minimum.reduce([fx, 1 - fx, fy, 1 - fy])
            for px, py in placed:
                room = np.minimum(room, np.hypot(fx - px, fy - py))
            k = int(np.argmax(room))
            if room[k] > best:
                best, where = room[k], (segment[k], (fx[k], fy[k]))
        if where is not None:
            points.append(tuple(where[0]))
            placed.append(where[1])
    if not points:
        return []
    # Each point lies on its own line, so the nearest line is the one meant; all levels are
    # passed because matplotlib 3.8 mis-indexes a subset of levels with manual points.
    return ax.clabel(contours, contours.levels, inline=True, fontsize=fontsize, fmt=fmt, manual=points)


def effect_label(output: object) -> str:
    """The y-axis (or colour bar) label of one output."""
    return f"ALE of {output}"


def _merge(defaults: dict, *overrides: dict | None) -> dict:
    out = dict(defaults)
    for extra in overrides:
        if extra:
            out.update(extra)
    return out


def _canonical(kwargs: dict, artist) -> dict:
    """matplotlib's full property names for aliases (``lw`` -> ``linewidth``), so user keywords replace
    pyale's defaults instead of clashing with them."""
    from matplotlib import cbook

    return cbook.normalize_kwargs(kwargs, artist)


def band_limits(result, band: str | None, output: int):
    """Lower and upper edge of the band around output ``output``'s effect, or None."""
    if band is None:
        return None
    effect = np.asarray(result.effects)[..., output]
    if band == "ci":
        low, high = getattr(result, "ci_low", None), getattr(result, "ci_high", None)
        if low is None or high is None:
            return None
        return np.asarray(low)[..., output], np.asarray(high)[..., output]
    spread = getattr(result, "heterogeneity", None)
    if spread is None:
        return None
    spread = np.asarray(spread)[..., output]
    return effect - spread, effect + spread


def short_numbers(ax, axis: str) -> None:
    """Numbers of 5 digits or more written as a multiple of a power of ten, so that tick labels of large
    values (incomes) do not run together in a narrow panel."""
    try:
        ax.ticklabel_format(axis=axis, style="sci", scilimits=(-3, 4))
    except AttributeError:  # not matplotlib's ScalarFormatter (a user's log scale): left as it is
        pass


def _label(base: str | None, output: object, several: bool) -> str:
    if base is None:
        return str(output)
    return f"{base} ({output})" if several else base


def draw_curve(ax, result, outputs, *, line_kw, band, band_kw, rug_values, deciles, rug, kwargs):
    """A numeric feature: one line per output, bands, rug or decile ticks."""
    from matplotlib import transforms

    grid = np.asarray(result.grid[0], dtype=float)
    several = len(outputs) > 1
    drawn = {"lines": [], "bands": [], "rug": None, "deciles": None}
    ax.axhline(0.0, color="0.75", linewidth=0.8, zorder=0)
    from matplotlib.collections import PolyCollection
    from matplotlib.lines import Line2D

    user = _merge(_canonical(kwargs, Line2D), _canonical(line_kw or {}, Line2D))
    band_kw = _canonical(band_kw or {}, PolyCollection)
    for position, name in outputs:
        style = _merge({"linewidth": 1.8}, user)
        style["label"] = _label(user.get("label"), name, several)
        (line,) = ax.plot(grid, np.asarray(result.effects)[:, position], **style)
        drawn["lines"].append(line)
        limits = band_limits(result, band, position)
        if limits is not None:
            fill = _merge({"color": line.get_color(), "alpha": 0.2, "linewidth": 0}, band_kw)
            drawn["bands"].append(ax.fill_between(grid, limits[0], limits[1], **fill))
    bottom = transforms.blended_transform_factory(ax.transData, ax.transAxes)
    if rug and rug_values is not None:
        drawn["rug"] = ax.vlines(rug_values, 0.0, 0.03, transform=bottom, color="black",
                                 alpha=0.25, linewidth=0.6)
    if deciles is not None:
        drawn["deciles"] = ax.vlines(deciles, 0.0, 0.05, transform=bottom, color="black", linewidth=1.0)
    short_numbers(ax, "x")
    ax.set_xlabel(str(result.features[0]), **AS_WRITTEN)
    ax.set_ylabel(effect_label(outputs[0][1]) if not several else "ALE", **AS_WRITTEN)
    if several or "label" in user:
        title = "output" if several and "label" not in user else None
        legend_as_written(ax.legend(title=title, fontsize="small"))
    return drawn


def interval_slopes(result, position: int):
    """Per interval: the mean local effect per unit of the feature (the curve's slope) and its spread.

    The slope is ``diff(effects) / diff(grid)`` (for gradient ALE the mean
    derivative); the spread is the interval's ``heterogeneity`` divided by
    its width (for gradient ALE the standard deviation of the derivatives),
    or None without heterogeneity.
    """
    grid = np.asarray(result.grid[0], dtype=float)
    widths = np.diff(grid)
    slopes = np.diff(np.asarray(result.effects)[:, position]) / widths
    spread = getattr(result, "heterogeneity", None)
    if spread is not None:
        spread = np.asarray(spread)[1:, position] / widths
    return grid, slopes, spread


def draw_slopes(ax, result, outputs, *, line_kw, band, band_kw, kwargs):
    """effector's bin-slope panel: each interval's mean slope as a step, plus and minus its spread, edges dotted."""
    from matplotlib.collections import PolyCollection
    from matplotlib.lines import Line2D

    several = len(outputs) > 1
    drawn = {"lines": [], "bands": [], "rug": None, "deciles": None}
    ax.axhline(0.0, color="0.75", linewidth=0.8, zorder=0)
    user = _merge(_canonical(kwargs, Line2D), _canonical(line_kw or {}, Line2D))
    band_kw = _canonical(band_kw or {}, PolyCollection)
    grid = np.asarray(result.grid[0], dtype=float)
    for position, name in outputs:
        grid, slopes, spread = interval_slopes(result, position)
        style = _merge({"linewidth": 1.8}, user)
        style["label"] = _label(user.get("label"), name, several)
        (line,) = ax.step(grid, np.append(slopes, slopes[-1]), where="post", **style)
        drawn["lines"].append(line)
        if band is not None and spread is not None:
            fill = _merge({"color": line.get_color(), "alpha": 0.2, "linewidth": 0, "step": "post"}, band_kw)
            drawn["bands"].append(ax.fill_between(grid, np.append(slopes - spread, slopes[-1] - spread[-1]),
                                                  np.append(slopes + spread, slopes[-1] + spread[-1]), **fill))
    drawn["edges"] = ax.vlines(grid, 0.0, 1.0, transform=ax.get_xaxis_transform(), color="0.6",
                               linestyle=":", linewidth=0.8)
    short_numbers(ax, "x")
    ax.set_xlabel(str(result.features[0]), **AS_WRITTEN)
    ax.set_ylabel("mean local effect per unit", **AS_WRITTEN)
    if several or "label" in user:
        legend_as_written(ax.legend(title="output" if several and "label" not in user else None, fontsize="small"))
    return drawn


def _wrapped(name: str, n_lines: int = _WRAP_LINES) -> tuple[list[str], bool]:
    """The lines of a level name wrapped at ``_WRAP_CHARS``, and whether it had to be cut (after ``n_lines``)."""
    lines = textwrap.wrap(name, _WRAP_CHARS, break_long_words=True, break_on_hyphens=True) or [name]
    if len(lines) <= n_lines:
        return lines, False
    lines = lines[:n_lines]
    lines[-1] = lines[-1][: _WRAP_CHARS - 1].rstrip() + "\u2026"
    return lines, True


def bar_labels(levels, n_lines: int = _WRAP_LINES) -> tuple[list[str], dict]:
    """The drawn labels of ``levels`` and their key.

    Each name is wrapped at 20 characters; one longer than two lines is cut
    with an ellipsis (followed by its 1-based position among the levels
    when two cut names would read the same).  The key maps every cut label
    to the full name (the result keeps the full names in ``grid``).
    """
    names = [str(v) for v in levels]
    wrapped = [_wrapped(name, n_lines) for name in names]
    labels = ["\n".join(lines) for lines, _ in wrapped]
    cut = [was_cut for _, was_cut in wrapped]
    for k, label in enumerate(labels):
        if cut[k] and labels.count(label) > 1:
            labels = [f"{other} #{j + 1}" if other == label and cut[j] else other for j, other in enumerate(labels)]
    key = {label: name for label, name, was_cut in zip(labels, names, cut) if was_cut}
    return labels, key


def horizontal_bars(levels, orientation: str, n_drawn: int) -> bool:
    """Whether bars of ``levels`` are drawn horizontally (``n_drawn`` bars, the consolidated one included)."""
    if orientation != "auto":
        return orientation == "horizontal"
    return n_drawn > _VERTICAL_LEVELS or max((len(str(v)) for v in levels), default=0) > _HORIZONTAL_CHARS


def bars_height(labels, minimum: float) -> float:
    """Inches of a panel of horizontal bars that leave each (wrapped) label its room."""
    lines = max((label.count("\n") + 1 for label in labels), default=1)
    return max(minimum, 1.3 + len(labels) * (0.15 * lines + 0.08))


def top_levels(result, outputs, max_levels: int | None):
    """Positions of the levels drawn (the ``max_levels`` largest ``|effect|`` over the outputs drawn, in their
    order) and of the rest, consolidated into one bar."""
    effects = np.abs(np.asarray(result.effects, dtype=float)[:, [position for position, _ in outputs]])
    every = np.arange(effects.shape[0])
    if max_levels is None or max_levels >= effects.shape[0]:
        return every, every[:0]
    size = np.max(np.nan_to_num(effects, nan=0.0), axis=1)
    ranked = np.argsort(-size, kind="stable")
    return np.sort(ranked[:max_levels]), np.sort(ranked[max_levels:])


def level_ticks(ax, positions, labels, axis: str = "x", *, wrap: bool = True) -> None:
    """Level names as tick labels (wrapped, long ones cut, unless ``wrap`` is False: already done): rotated
    and right-aligned when long or many."""
    crowded = axis == "x" and len(labels) > 6  # one line each, turned upright: a line's height apart
    text = bar_labels(labels, 1 if crowded else _WRAP_LINES)[0] if wrap else list(labels)
    setter = ax.set_xticks if axis == "x" else ax.set_yticks
    setter(positions)
    (ax.set_xticklabels if axis == "x" else ax.set_yticklabels)(text, **AS_WRITTEN)
    widest = max((len(line) for t in text for line in t.split("\n")), default=0)
    if crowded and wrap:
        for tick in ax.get_xticklabels():
            tick.set_rotation(90)
    elif axis == "x" and (sum(len(t) + 1 for t in text) > _FLAT_LABEL_CHARS or widest > 12):
        for tick in ax.get_xticklabels():
            tick.set_rotation(40)
            tick.set_horizontalalignment("right")
            tick.set_rotation_mode("anchor")


def draw_bars(ax, result, outputs, *, bar_kw, band, band_kw, kwargs, horizontal=False, max_levels=None):
    """A categorical feature: bars per level (grouped by output), error bars for bands.

    ``horizontal`` puts the level names on the y axis, first level on top.
    With ``max_levels``, the levels of largest effect are drawn and the rest
    shown as one hatched bar spanning their effects (lowest to highest).
    """
    from matplotlib.patches import Rectangle

    levels = list(result.grid[0])
    kept, rest = top_levels(result, outputs, max_levels)
    labels, key = bar_labels([levels[i] for i in kept])
    if rest.size:
        labels.append(f"other ({rest.size} levels)")
    positions = np.arange(len(labels), dtype=float)
    several = len(outputs) > 1
    width = 0.8 / len(outputs)
    drawn = {"bars": [], "bands": [], "other": [], "key": key}
    (ax.axvline if horizontal else ax.axhline)(0.0, color="black", linewidth=0.8, zorder=0)
    user = _merge(_canonical(kwargs, Rectangle), _canonical(bar_kw or {}, Rectangle))
    if horizontal and "width" in user:  # the bar's thickness: height of a horizontal bar
        user["height"] = user.pop("width")
    thickness = "height" if horizontal else "width"
    for slot, (position, name) in enumerate(outputs):
        where = positions + (slot - (len(outputs) - 1) / 2) * width
        style = _merge({thickness: width}, user)
        style["label"] = _label(user.get("label"), name, several)
        every = np.asarray(result.effects)[:, position]
        values = every[kept]
        bars = (ax.barh if horizontal else ax.bar)(where[: kept.size], values, **style)
        drawn["bars"].append(bars)
        if rest.size:
            low, high = np.nanmin(every[rest]), np.nanmax(every[rest])
            other = _merge(style, {"color": "0.85", "hatch": "///", "edgecolor": "0.45", "linewidth": 0.6,
                                   "label": "_nolegend_"})
            start = {"left" if horizontal else "bottom": low}
            drawn["other"].append((ax.barh if horizontal else ax.bar)(where[-1:], [high - low], **start, **other))
        limits = band_limits(result, band, position)
        if limits is not None:
            # The interval drawn from its own middle: a percentile band need not hold the estimate
            # (its bars would have negative lengths, which matplotlib refuses).
            low, high = limits[0][kept], limits[1][kept]
            middle, err = (low + high) / 2, (high - low) / 2
            style = _merge({"ecolor": "black", "elinewidth": 1.0, "capsize": 3}, band_kw)
            style["fmt"] = "none"  # the interval only: a marker would sit at its middle, not at the estimate
            bar_error = {"xerr": err} if horizontal else {"yerr": err}
            arguments = (middle, where[: kept.size]) if horizontal else (where[: kept.size], middle)
            drawn["bands"].append(ax.errorbar(*arguments, **bar_error, **style))
    if horizontal:
        ax.set_yticks(positions)
        ax.set_yticklabels(labels, fontsize="small", **AS_WRITTEN)
        ax.set_ylim(len(labels) - 0.4, -0.6)
        ax.set_ylabel(str(result.features[0]), **AS_WRITTEN)
        ax.set_xlabel(effect_label(outputs[0][1]) if not several else "ALE", **AS_WRITTEN)
    else:
        level_ticks(ax, positions, labels, wrap=False)
        ax.set_xlim(-0.6, len(labels) - 0.4)
        ax.set_xlabel(str(result.features[0]), **AS_WRITTEN)
        ax.set_ylabel(effect_label(outputs[0][1]) if not several else "ALE", **AS_WRITTEN)
    if several or "label" in user:
        title = "output" if several and "label" not in user else None
        legend_as_written(ax.legend(title=title, fontsize="small"))
    return drawn


def _contour_levels(z: np.ndarray, count: int = 7) -> np.ndarray:
    from matplotlib.ticker import MaxNLocator

    low, high = float(np.nanmin(z)), float(np.nanmax(z))
    if not low < high:
        return np.array([])
    levels = MaxNLocator(count).tick_values(low, high)
    return levels[(levels > low) & (levels < high)]


def _fmt(value: float) -> str:
    return f"{value:.3g}"


def draw_surface(ax, result, position, name, *, norm, image_kw, contour_kw, deciles, title):
    """A pair: filled surface on the grid with a colour bar, labelled contours, hatched empty cells."""
    from matplotlib import transforms
    from matplotlib.patches import Rectangle

    figure = ax.figure
    z = np.asarray(result.effects, dtype=float)[..., position]
    kinds = result.kind.split(" x ")  # R's ale package also gives numeric x categorical and categorical pairs
    first_levels = kinds[0] == "categorical"
    second_levels = len(kinds) > 1 and kinds[1] == "categorical"
    style = _merge({"cmap": "RdBu_r", "norm": norm, "shading": "gouraud", "rasterized": True}, image_kw)
    drawn = {"images": [], "contours": None, "contour_labels": [], "empty_cells": [], "colorbar": None,
             "deciles": [None, None]}  # the first axis' ticks (vertical lines), the second's
    if first_levels and second_levels:  # one flat cell per pair of levels
        n1, n2 = z.shape
        flat = dict(style, shading="flat")
        drawn["images"].append(ax.pcolormesh(np.arange(n1 + 1) - 0.5, np.arange(n2 + 1) - 0.5, z.T, **flat))
        level_ticks(ax, np.arange(n1), list(result.grid[0]))
        level_ticks(ax, np.arange(n2), list(result.grid[1]), axis="y")
        ax.set_xlim(-0.5, n1 - 0.5)
        ax.set_ylim(-0.5, n2 - 0.5)
        x_cells = [(i - 0.5, 1.0) for i in range(n1)]
        y_cells = [(j - 0.5, 1.0) for j in range(n2)]
    elif first_levels:
        edges2 = np.asarray(result.grid[1], dtype=float)
        levels = list(result.grid[0])
        for i in range(len(levels)):
            column = np.vstack([z[i], z[i]]).T
            drawn["images"].append(ax.pcolormesh([i - 0.4, i + 0.4], edges2, column, **style))
        level_ticks(ax, np.arange(len(levels)), levels)
        ax.set_xlim(-0.6, len(levels) - 0.4)
        ax.set_ylim(edges2[0], edges2[-1])
        x_cells = [(i - 0.4, 0.8) for i in range(len(levels))]
        y_cells = [(edges2[j], edges2[j + 1] - edges2[j]) for j in range(len(edges2) - 1)]
    elif second_levels:
        edges1 = np.asarray(result.grid[0], dtype=float)
        levels = list(result.grid[1])
        for j in range(len(levels)):
            row = np.vstack([z[:, j], z[:, j]])
            drawn["images"].append(ax.pcolormesh(edges1, [j - 0.4, j + 0.4], row, **style))
        level_ticks(ax, np.arange(len(levels)), levels, axis="y")
        ax.set_xlim(edges1[0], edges1[-1])
        ax.set_ylim(-0.6, len(levels) - 0.4)
        x_cells = [(edges1[i], edges1[i + 1] - edges1[i]) for i in range(len(edges1) - 1)]
        y_cells = [(j - 0.4, 0.8) for j in range(len(levels))]
    else:
        edges1 = np.asarray(result.grid[0], dtype=float)
        edges2 = np.asarray(result.grid[1], dtype=float)
        drawn["images"].append(ax.pcolormesh(edges1, edges2, z.T, **style))
        levels = _contour_levels(z)
        lines = _merge({"colors": "black", "linewidths": 0.6, "levels": levels}, contour_kw)
        if np.size(lines["levels"]):
            drawn["contours"] = ax.contour(edges1, edges2, z.T, **lines)
            drawn["contour_labels"] = label_contours(ax, drawn["contours"], (edges1[0], edges1[-1]),
                                                     (edges2[0], edges2[-1]), fmt=_fmt)
        ax.set_xlim(edges1[0], edges1[-1])
        ax.set_ylim(edges2[0], edges2[-1])
        x_cells = [(edges1[i], edges1[i + 1] - edges1[i]) for i in range(len(edges1) - 1)]
        y_cells = [(edges2[j], edges2[j + 1] - edges2[j]) for j in range(len(edges2) - 1)]
    counts = np.asarray(result.counts)
    for i, j in np.argwhere(counts == 0):
        (left, width), (bottom, height) = x_cells[i], y_cells[j]
        patch = Rectangle((left, bottom), width, height, fill=False, hatch="/", edgecolor="0.55", linewidth=0)
        ax.add_patch(patch)
        drawn["empty_cells"].append(patch)
    if deciles is not None:
        first, second = deciles
        if first is not None and not first_levels:
            bottom = transforms.blended_transform_factory(ax.transData, ax.transAxes)
            drawn["deciles"][0] = ax.vlines(first, 0.0, 0.05, transform=bottom, color="black")
        if second is not None and not second_levels:
            left = transforms.blended_transform_factory(ax.transAxes, ax.transData)
            drawn["deciles"][1] = ax.hlines(second, 0.0, 0.05, transform=left, color="black")
    if not first_levels:
        short_numbers(ax, "x")
    if not second_levels:
        short_numbers(ax, "y")
    drawn["colorbar"] = figure.colorbar(drawn["images"][0], ax=ax)
    drawn["colorbar"].set_label(effect_label(name), **AS_WRITTEN)
    ax.set_xlabel(str(result.features[0]), **AS_WRITTEN)
    ax.set_ylabel(str(result.features[1]), **AS_WRITTEN)
    if title is not None:
        ax.set_title(title, **AS_WRITTEN)
    return drawn
