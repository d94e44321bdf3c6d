"""``Comparison``: what :func:`pyale.compare` returns."""

from __future__ import annotations

import html
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .. import _present

__all__ = ["Comparison"]


@dataclass(frozen=True, eq=False, repr=False)
class Comparison:
    """One feature's ALE in every segment, on the pooled grid, with differences, distances and p-values.

    Attributes
    ----------
    feature : object
        The column label.
    kind : str
        ``"numeric"`` or ``"categorical"``.
    grid : numpy.ndarray or tuple
        Interval edges (numeric) or levels in the order used, from the pooled rows.
    segments : tuple
        Segment labels, in order.
    outputs : tuple
        Output names.
    effects : numpy.ndarray
        ``(S, G, m)``: each segment's effect at every grid point (node or
        level), centred with the pooled weights.
    pooled : numpy.ndarray
        ``(G, m)``: the pooled rows' effect (:func:`pyale.ale`'s).
    segment_counts : numpy.ndarray
        ``(S, K)``: each segment's rows (weights) per interval or level; 0
        where the segment's local effect is the pooled one.
    pooled_counts : numpy.ndarray
        ``(K,)``: the pooled weights that centre every curve and weigh the distances.
    pairs : tuple
        ``(a, b)`` segment labels of every difference ``f_a - f_b``.
    differences : numpy.ndarray
        ``(pairs, G, m)``.
    difference_low, difference_high, effect_low, effect_high : numpy.ndarray or None
        Simultaneous bootstrap bands (sup-t) of the differences and of each
        segment's effect at level ``ci_level``; None without a bootstrap.
    aled, naled : numpy.ndarray
        ``(pairs, m)``: the ALED of each difference (units of the prediction)
        and its NALED (half-percentiles of the pooled response).
    p_value, p_adjusted : numpy.ndarray or None
        ``(pairs, m)``: permutation p-value of each pair, and adjusted for all
        pairs (max-T); None without permutations.
    p_global : numpy.ndarray or None
        ``(m,)``: permutation p-value of "no pair differs".
    n_bootstrap, n_permutations : int
        Replicates per segment, permutations.
    ci_level : float
    conventions : str
    seed_entropy : int
        The seed's entropy (pass it as ``random_state`` to get the same numbers).
    weighted : bool
        Whether ``sample_weight`` was given.

    Examples
    --------
    >>> import numpy as np, pandas as pd, pyale
    >>> rng = np.random.default_rng(1)
    >>> X = pd.DataFrame({"x": rng.uniform(size=300), "z": rng.uniform(size=300)})
    >>> period = np.repeat(["2024", "2025"], 150)
    >>> X.loc[150:, "z"] += 0.5  # in 2025 z is larger, so the effect of x (through x * z) is steeper
    >>> res = pyale.compare(lambda d: d["x"] * d["z"], X, "x", by=period, n_intervals=5,
    ...                     n_bootstrap=50, n_permutations=99, random_state=0)
    >>> res.pairs, bool(res.p_value[0, 0] <= 0.05)
    ((('2024', '2025'),), True)
    """

    feature: object
    kind: str
    grid: object
    segments: tuple
    outputs: tuple
    effects: np.ndarray
    pooled: np.ndarray
    segment_counts: np.ndarray
    pooled_counts: np.ndarray
    pairs: tuple
    differences: np.ndarray
    difference_low: np.ndarray | None
    difference_high: np.ndarray | None
    effect_low: np.ndarray | None
    effect_high: np.ndarray | None
    aled: np.ndarray
    naled: np.ndarray
    p_value: np.ndarray | None
    p_adjusted: np.ndarray | None
    p_global: np.ndarray | None
    n_bootstrap: int
    n_permutations: int
    ci_level: float
    conventions: str
    seed_entropy: object = field(repr=False, default=None)
    weighted: bool = False

    @property
    def numeric(self) -> bool:
        """Whether the feature is numeric (grid of interval edges) rather than categorical (levels)."""
        return self.kind == "numeric"

    def _grid_values(self) -> list:
        return [float(v) for v in self.grid] if self.numeric else list(self.grid)

    @property
    def table(self) -> pd.DataFrame:
        """One row per pair of segments and output: the verdict's numbers.

        Columns ``segment_a``, ``segment_b``, ``output``, ``aled`` (ALED of
        ``f_a - f_b``), ``naled``, ``max_abs_difference``, ``p_value``,
        ``p_adjusted`` (max-T over the pairs), ``band_excludes_zero`` (whether
        the simultaneous band of the difference leaves 0 somewhere: NaN
        without a bootstrap).
        """
        rows = []
        for i, (a, b) in enumerate(self.pairs):
            for j, output in enumerate(self.outputs):
                excludes = np.nan
                if self.difference_low is not None:
                    low, high = self.difference_low[i, :, j], self.difference_high[i, :, j]
                    excludes = bool(((low > 0) | (high < 0)).any())
                rows.append({
                    "segment_a": a, "segment_b": b, "output": output,
                    "aled": float(self.aled[i, j]), "naled": float(self.naled[i, j]),
                    "max_abs_difference": float(np.abs(self.differences[i, :, j]).max()),
                    "p_value": np.nan if self.p_value is None else float(self.p_value[i, j]),
                    "p_adjusted": np.nan if self.p_adjusted is None else float(self.p_adjusted[i, j]),
                    "band_excludes_zero": excludes,
                })
        return pd.DataFrame(rows)

    def curve_table(self) -> pd.DataFrame:
        """Each segment's effect, and the pooled one, per grid point and output.

        Columns ``segment`` (``"(pooled)"`` for the pooled rows' effect),
        ``output``, ``value`` (grid edge or level), ``ale``, ``band_low``,
        ``band_high`` (NaN without a bootstrap).
        """
        values = self._grid_values()
        rows = []
        for s, label in enumerate(self.segments):
            for j, output in enumerate(self.outputs):
                for g, value in enumerate(values):
                    rows.append({"segment": label, "output": output, "value": value,
                                 "ale": float(self.effects[s, g, j]),
                                 "band_low": np.nan if self.effect_low is None else float(self.effect_low[s, g, j]),
                                 "band_high": np.nan if self.effect_high is None else float(self.effect_high[s, g, j])})
        for j, output in enumerate(self.outputs):
            for g, value in enumerate(values):
                rows.append({"segment": "(pooled)", "output": output, "value": value,
                             "ale": float(self.pooled[g, j]), "band_low": np.nan, "band_high": np.nan})
        return pd.DataFrame(rows)

    def difference_table(self) -> pd.DataFrame:
        """Every difference ``f_a - f_b`` per grid point and output, with its simultaneous band.

        Columns ``segment_a``, ``segment_b``, ``output``, ``value``,
        ``difference``, ``band_low``, ``band_high``.
        """
        values = self._grid_values()
        rows = []
        for i, (a, b) in enumerate(self.pairs):
            for j, output in enumerate(self.outputs):
                for g, value in enumerate(values):
                    rows.append({
                        "segment_a": a, "segment_b": b, "output": output, "value": value,
                        "difference": float(self.differences[i, g, j]),
                        "band_low": np.nan if self.difference_low is None else float(self.difference_low[i, g, j]),
                        "band_high": np.nan if self.difference_high is None else float(self.difference_high[i, g, j]),
                    })
        return pd.DataFrame(rows)

    def count_table(self) -> pd.DataFrame:
        """Rows (weights) per segment and interval (level): columns ``segment``, ``interval``, ``weight``.

        ``interval`` is the interval's right edge (numeric) or the level.
        """
        labels = self._grid_values()[1:] if self.numeric else self._grid_values()
        rows = [{"segment": label, "interval": labels[k], "weight": float(self.segment_counts[s, k])}
                for s, label in enumerate(self.segments) for k in range(len(labels))]
        rows += [{"segment": "(pooled)", "interval": labels[k], "weight": float(self.pooled_counts[k])}
                 for k in range(len(labels))]
        return pd.DataFrame(rows)

    def plot(self, *, output=None, figure=None, **kwargs):
        """Draw the segments' curves with their bands over the differences (``ComparisonDisplay``).

        Parameters
        ----------
        output : label, optional
            The output to draw (a binary classifier's positive class, or the
            first output, by default).
        figure : matplotlib Figure or SubFigure, optional
            Where to draw (a new pyplot figure by default).
        **kwargs
            Passed to ``ComparisonDisplay.plot`` (``size``).

        Returns
        -------
        ComparisonDisplay
            With ``figure_``, ``axes_`` (curves, differences) and ``lines_``.
        """
        return _present.display_class("ComparisonDisplay")(self, output=output).plot(figure=figure, **kwargs)

    def __repr__(self) -> str:
        p = "" if self.p_global is None else f", p_global={np.round(self.p_global, 4).tolist()}"
        return (f"Comparison(feature={self.feature!r}, kind={self.kind!r}, segments={self.segments!r}, "
                f"outputs={self.outputs!r}, aled={np.round(self.aled, 4).tolist()}{p})")

    def _repr_html_(self) -> str:
        facts = {"feature": repr(self.feature), "segments": ", ".join(map(str, self.segments)),
                 "conventions": self.conventions, "bootstrap per segment": self.n_bootstrap,
                 "permutations": self.n_permutations}
        rows = "".join(f"<tr><th>{html.escape(str(k))}</th><td>{html.escape(str(v))}</td></tr>"
                       for k, v in facts.items())
        return f"<div><strong>Comparison</strong><table>{rows}</table>{self.table.to_html(index=False)}</div>"
