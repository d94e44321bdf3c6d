"""The picture of a :class:`~pyale._verdicts.comparison.Comparison`: segments overlaid, differences below.

matplotlib is imported when drawing only.
"""

from __future__ import annotations

import numpy as np

from .._results.present import register_display

__all__ = ["ComparisonDisplay"]


@register_display
class ComparisonDisplay:
    """Each segment's effect with its simultaneous band (top) and every difference with its band (bottom).

    Attributes (after :meth:`plot`)
    -------------------------------
    figure_ : matplotlib Figure
    axes_ : tuple of Axes
        ``(curves, differences)``.
    lines_ : dict
        Segment label -> the curve's line; ``("difference", a, b)`` -> the difference's line.
    """

    def __init__(self, comparison, *, output=None):
        self.comparison = comparison
        outputs = list(comparison.outputs)
        if output is None:
            self.output = len(outputs) - 1 if len(outputs) == 2 else 0  # a binary classifier: its positive class
        elif output in outputs:
            self.output = outputs.index(output)
        else:
            raise ValueError(f"The 'output' parameter of plot must be one of {outputs!r}. Got {output!r} instead.")

    def plot(self, *, figure=None, size=(6.4, 6.0)):
        """Draw into ``figure`` (a new pyplot figure when None); returns the display."""
        if figure is None:
            import matplotlib.pyplot as plt

            figure = plt.figure(figsize=size, layout="constrained")
        c, j = self.comparison, self.output
        top, bottom = figure.subplots(2, 1, sharex=True, gridspec_kw={"height_ratios": [3, 2]})
        self.figure_, self.axes_, self.lines_ = figure, (top, bottom), {}
        x = np.asarray(c.grid, dtype=float) if c.numeric else np.arange(len(c.grid))
        spread = 0.0 if c.numeric else 0.08
        for s, label in enumerate(c.segments):
            shift = (s - (len(c.segments) - 1) / 2) * spread
            line = self._draw(top, x + shift, c.effects[s, :, j], None if c.effect_low is None else
                              (c.effect_low[s, :, j], c.effect_high[s, :, j]), str(label), f"C{s}")
            self.lines_[label] = line
        top.set_ylabel(f"ALE of {c.outputs[j]}")
        top.legend(fontsize=8, title="segment", title_fontsize=8)
        band = "" if c.effect_low is None else f"; bands: simultaneous {c.ci_level:.0%}"
        top.set_title(f"{c.feature}: effect per segment (pooled grid{band})", fontsize=10)
        for i, (a, b) in enumerate(c.pairs):
            shift = (i - (len(c.pairs) - 1) / 2) * spread
            line = self._draw(bottom, x + shift, c.differences[i, :, j], None if c.difference_low is None else
                              (c.difference_low[i, :, j], c.difference_high[i, :, j]), f"{a} - {b}",
                              f"C{(len(c.segments) + i) % 10}")
            self.lines_[("difference", a, b)] = line
        bottom.axhline(0.0, color="0.3", lw=0.8)
        bottom.set_ylabel("difference")
        bottom.legend(fontsize=8)
        if c.numeric:
            bottom.set_xlabel(str(c.feature))
        else:
            bottom.set_xticks(x, [str(level) for level in c.grid], rotation=30, ha="right")
        return self

    def _draw(self, ax, x, y, band, label, color):
        if self.comparison.numeric:
            (line,) = ax.plot(x, y, color=color, lw=1.6, label=label)
            if band is not None:
                ax.fill_between(x, band[0], band[1], color=color, alpha=0.18, lw=0)
            return line
        (points,) = ax.plot(x, y, "o", color=color, label=label, ms=4)
        if band is not None:  # drawn from the interval's middle: a band need not hold the estimate
            ax.errorbar(x, (band[0] + band[1]) / 2, yerr=(band[1] - band[0]) / 2, fmt="none", ecolor=color,
                        capsize=3)
        return points
