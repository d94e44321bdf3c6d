"""Figures of the verdicts: :class:`ShapeCheckDisplay` and :class:`MaterialityDisplay`.

Drawing is apart from computing, as in :class:`pyale.ALEDisplay`: the
verdicts (``pyale._verdicts``) ask :func:`pyale._results.present.display_class` for
these classes by name; ``plot(ax=None)`` returns the display, with the
matplotlib artists as attributes ending in ``_``.
"""

from __future__ import annotations

import math

import numpy as np

from .._core.map.bootstrap import percentile_interval
from .._results.present import register_display
from .._verdicts.materiality import Materiality
from .._verdicts.reasons import ReasonCodes
from .._verdicts.shape import ShapeCheck

__all__ = ["ShapeCheckDisplay", "MaterialityDisplay", "ReasonCodesDisplay"]

_VERDICT_COLOURS = {"pass": "tab:green", "fail": "tab:red", "inconclusive": "tab:orange"}


def _new_axes(n_panels: int, n_cols: int, size=(4.2, 3.2)):
    from matplotlib.figure import Figure

    n_cols = max(1, min(n_cols, n_panels))
    n_rows = math.ceil(n_panels / n_cols)
    figure = Figure(figsize=(size[0] * n_cols, size[1] * n_rows), layout="constrained")
    axes = np.atleast_1d(figure.subplots(n_rows, n_cols, squeeze=False).ravel())
    for extra in axes[n_panels:]:
        extra.set_visible(False)
    return figure, list(axes[:n_panels])


@register_display
class ShapeCheckDisplay:
    """Each checked curve with its pointwise band, its violations shaded, its verdict in the title.

    A pair's axis is drawn along the line (grid point of the other axis) that
    holds the worst violation, or the first line when none.  Violations
    beyond doubt are shaded red, the others orange.

    Parameters
    ----------
    check : ShapeCheck
        What :func:`pyale.check_shape` returned.

    Attributes
    ----------
    figure_ : matplotlib Figure
    axes_ : list of Axes
        One per row of ``check.table``.
    lines_, bands_, spans_ : list
        Per panel: the curve, its band, the shaded violations.
    """

    def __init__(self, check: ShapeCheck):
        self.check = check

    def plot(self, ax=None, *, n_cols: int = 3):
        """Draw; ``ax`` is one Axes per check (a new figure by default). Returns the display."""
        checks = self.check.checks
        if ax is None:
            self.figure_, self.axes_ = _new_axes(len(checks), n_cols)
        else:
            self.axes_ = list(np.ravel(ax))
            if len(self.axes_) != len(checks):
                raise ValueError(
                    f"The 'ax' parameter of ShapeCheckDisplay.plot must hold one Axes per check ({len(checks)}). "
                    f"Got {len(self.axes_)} instead."
                )
            self.figure_ = self.axes_[0].figure
        self.lines_, self.bands_, self.spans_ = [], [], []
        for axes, check, row in zip(self.axes_, checks, self.check.table.itertuples()):
            self._panel(axes, check, row)
        return self

    def _panel(self, ax, check, row) -> None:
        result, axis = check.result, check.axis
        line = 0
        title_at = ""
        if len(result.features) == 2:
            others = list(result.grid[1 - axis])
            worst = max(check.violations, key=lambda v: v["size"], default=None)
            if worst is not None:
                line = next(i for i, v in enumerate(others) if v is worst["at"] or v == worst["at"])
            value = others[line]
            shown = f"{value:.4g}" if isinstance(value, float) else f"{value}"
            title_at = f" at {result.features[1 - axis]}={shown}" + (" (total)" if check.effect == "total" else "")
        effects, replicates = check.lines[line], check.replicate_lines[:, line]
        grid = result.grid[axis]
        numeric = result.numeric_axes[axis]
        x = np.asarray(grid, dtype=float) if numeric else np.arange(len(grid), dtype=float)
        low, high = percentile_interval(replicates, 1.0 - self.check.level)
        self.bands_.append(ax.fill_between(x, low, high, color="0.8", label=f"{1 - self.check.level:.0%} band"))
        (curve,) = ax.plot(x, effects, color="k", marker="" if numeric else "o", label="ALE")
        self.lines_.append(curve)
        spans = []
        for violation in check.violations:
            if violation["start"] is None or not _same_line(violation["at"], result, axis, line):
                continue
            start = _position(grid, violation["start"], numeric)
            end = _position(grid, violation["end"], numeric)
            colour = "tab:red" if violation["significant"] else "tab:orange"
            spans.append(ax.axvspan(start, end, color=colour, alpha=0.2, lw=0))
        self.spans_.append(spans)
        if not numeric:
            ax.set_xticks(x, [str(g) for g in grid])
        ax.set_xlabel(str(result.features[axis]))
        ax.set_ylabel("ALE")
        p = row.p_violation if row.verdict == "fail" else row.p_holds
        which = "p_violation" if row.verdict == "fail" else "p_holds"
        ax.set_title(f"{row.axis}{title_at}: {row.expectation}\n{row.verdict} ({which} = {p:.3g})",
                     color=_VERDICT_COLOURS[row.verdict], fontsize=10)


def _same_line(at, result, axis, line) -> bool:
    if len(result.features) == 1:
        return True
    other = result.grid[1 - axis][line]
    return at is other or at == other


def _position(grid, value, numeric: bool) -> float:
    if numeric:
        return float(value)
    return float(list(grid).index(value))


@register_display
class MaterialityDisplay:
    """Dot plot of a :class:`Materiality`: each effect's statistic with its interval, largest on top.

    Parameters
    ----------
    materiality : Materiality
        What :func:`pyale.materiality` returned.

    Attributes
    ----------
    figure_ : matplotlib Figure
    ax_ : Axes
    dots_, errorbars_ : matplotlib artists
    rank_labels_ : list of Text
        The simultaneous rank interval of each effect, right of its row.
    """

    def __init__(self, materiality: Materiality):
        self.materiality = materiality

    def plot(self, ax=None, *, color: str = "tab:blue"):
        """Draw; returns the display."""
        table = self.materiality.table
        if ax is None:
            from matplotlib.figure import Figure

            self.figure_ = Figure(figsize=(6.0, 1.0 + 0.35 * len(table)), layout="constrained")
            ax = self.figure_.add_subplot()
        else:
            self.figure_ = ax.figure
        self.ax_ = ax
        y = np.arange(len(table))[::-1].astype(float)
        estimate = table["estimate"].to_numpy(float)
        low, high = table["ci_low"].to_numpy(float), table["ci_high"].to_numpy(float)
        # Drawn from the interval's middle: a percentile interval need not hold the estimate, and
        # clipping its bars at the estimate would draw a shorter interval than the table's.
        self.errorbars_ = ax.errorbar((low + high) / 2, y, xerr=(high - low) / 2, fmt="none", ecolor=color,
                                      capsize=3)
        self.dots_ = ax.scatter(estimate, y, color=color, zorder=3)
        ax.set_yticks(y, [str(f) for f in table["feature"]])
        stat = table["stat"].iloc[0]
        ax.set_xlabel(f"{stat.upper()} ({1 - self.materiality.level:.0%} bootstrap interval)")
        self.rank_labels_ = []
        for position, row in zip(y, table.itertuples()):
            text = f"rank {row.rank_low}" if row.rank_low == row.rank_high else f"rank {row.rank_low}-{row.rank_high}"
            self.rank_labels_.append(ax.annotate(text, (1.0, position), xycoords=("axes fraction", "data"),
                                                 xytext=(4, 0), textcoords="offset points", va="center",
                                                 fontsize=8))
        ax.set_xlim(left=min(0.0, float(np.nanmin(table["ci_low"]))))
        return self


@register_display
class ReasonCodesDisplay:
    """One row of a :class:`ReasonCodes`: each feature's contribution as a bar.

    Bars pointing the adverse way are red (the row's reasons darker), the
    others grey; a contribution whose heterogeneity flag is set is hatched.

    Parameters
    ----------
    codes : ReasonCodes
        What :func:`pyale.reason_codes` returned.
    position : int
        The row, by 0-based position.

    Attributes
    ----------
    figure_ : matplotlib Figure
    ax_ : Axes
    bars_ : BarContainer
    """

    def __init__(self, codes: ReasonCodes, position: int):
        self.codes = codes
        self.position = position

    def plot(self, ax=None):
        """Draw; returns the display."""
        table = self.codes.table
        label = self.codes.contributions.index[self.position]
        rows = table.iloc[self.position * self.codes.contributions.shape[1]:
                          (self.position + 1) * self.codes.contributions.shape[1]]
        rows = rows.iloc[np.argsort(np.abs(rows["contribution"].to_numpy(float)), kind="stable")]
        if ax is None:
            from matplotlib.figure import Figure

            self.figure_ = Figure(figsize=(6.0, 1.0 + 0.35 * len(rows)), layout="constrained")
            ax = self.figure_.add_subplot()
        else:
            self.figure_ = ax.figure
        self.ax_ = ax
        colours = ["tab:red" if reason else ("salmon" if adverse else "0.7")
                   for reason, adverse in zip(rows["reason"], rows["adverse"])]
        hatches = ["//" if flag is True else "" for flag in rows["flag"].astype(object)]
        y = np.arange(len(rows), dtype=float)
        self.bars_ = ax.barh(y, rows["contribution"].to_numpy(float), color=colours)
        for bar, hatch in zip(self.bars_, hatches):
            bar.set_hatch(hatch)
        ax.set_yticks(y, [f"{f} = {v:.4g}" if isinstance(v, (float, np.floating)) else f"{f} = {v}"
                          for f, v in zip(rows["feature"], rows["value"])])
        ax.axvline(0.0, color="k", lw=0.8)
        ax.set_xlabel(f"main-effect contribution\n(adverse: {self.codes.adverse}; hatched: rows disagree)")
        ax.set_title(f"row {label}", fontsize=10)
        return self
