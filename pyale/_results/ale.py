"""``ALEResult``: what :func:`pyale.ale` returns for one feature or a pair."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import pandas as pd

from . import present as _present
from .._core.map.bootstrap import percentile_interval
from .._core.reduce.stats import STATISTICS, ale_statistics, aled
from .aleplot import tidy_frame

__all__ = ["ALEResult", "statistics_table", "check_output"]


@dataclass(frozen=True, eq=False, repr=False)
class ALEResult:
    """Accumulated local effects of one feature or a pair, for every model output.

    Attributes
    ----------
    features : tuple
        One or two column labels.
    kind : str
        ``"numeric"``, ``"categorical"``, ``"numeric x numeric"`` or
        ``"categorical x numeric"``.
    grid : tuple
        Per feature: interval edges (numeric) or level labels in the order used.
    effects : numpy.ndarray
        Centred ALE at every grid point (node for pairs) and output: shape
        ``grid shape + (n_outputs,)``.
    outputs : tuple
        Output names (class labels for a classifier; ``("yhat",)`` for one output).
    counts : numpy.ndarray
        Rows per interval, level, or cell (sums of ``sample_weight`` when
        weights were given).
    level_order : tuple or None
        Levels of the categorical feature in the order used.
    empty_cells : numpy.ndarray or None
        Pairs: cells without rows, whose local effect was borrowed from the
        nearest non-empty cell.
    conventions : str
        ``"aleplot"`` or ``"iml"``.
    heterogeneity : numpy.ndarray or None
        The shape of ``effects``: at each grid point, the weighted standard
        deviation of the individual rows' local differences across the
        interval (level jump, cell) that ends there (NaN at the first grid
        point of each axis).  It shows how much rows disagree about the
        local change (interactions); it is not an uncertainty of the curve.
    ci_low, ci_high : numpy.ndarray or None
        Bootstrap percentile interval of the effect at every grid point
        (shape of ``effects``), at level ``ci_level``.
    replicates : numpy.ndarray or None
        ``(n_bootstrap,) + effects.shape``: the effect in every replicate.
    ci_level : float or None
        The intervals' nominal coverage.
    bootstrap : str or None
        What the replicates resample: ``"data"`` (rows resampled, the model
        fixed: sampling uncertainty of the ALE for this model) or ``"model"``
        (the model refitted on each resample: :func:`pyale.model_bootstrap`).
    classifier : bool
        Whether the outputs are a classifier's class probabilities (one per
        class, named by class).  A binary classifier's effect is then drawn
        for its second class only, scikit-learn's positive class
        (``classes_[1]``); ``plot(output=...)`` draws others.
    data_values : callable or None
        Column label -> rug ticks and deciles of that numeric feature in the
        data the effect was computed on (read on first use; None without
        in-memory data), so that :meth:`plot` draws the data's rug.
    ordered_by_similarity : tuple of bool or None
        Per feature: whether it is a categorical feature whose levels pyale
        ordered by similarity of the other columns (an unordered categorical
        without ``level_order``), so that a direction along them is pyale's
        choice, not the data's; None when not known.
    method : str or None
        How the local effects were made: ``"finite_difference"`` (two
        predictions per row) or ``"gradient"`` (the model's derivatives); a
        categorical feature of a ``method="gradient"`` call is
        ``"finite_difference"``.  None where not recorded (regional curves).
    binning : str or None
        The :class:`~pyale.HeterogeneityBinning` that chose the intervals
        (its repr), or None for the convention's grid or a given one.

    Notes
    -----
    ``a == b`` is identity; :meth:`equals` compares the values.

    Examples
    --------
    >>> import numpy as np, pandas as pd, pyale
    >>> X = pd.DataFrame({"x": np.arange(8.0), "g": list("abababab")})
    >>> res = pyale.ale(lambda d: d["x"] * (d["g"] == "b"), X, "x", n_intervals=2)
    >>> res.kind, res.outputs, res.counts.tolist()
    ('numeric', ('yhat',), [4, 4])
    >>> print(res.to_frame())
         x output    ale  heterogeneity
    0  0.0   yhat -1.625            NaN
    1  3.0   yhat -0.125            1.5
    2  7.0   yhat  1.875            2.0
    """

    features: tuple
    kind: str
    grid: tuple
    effects: np.ndarray
    outputs: tuple
    counts: np.ndarray
    level_order: tuple | None
    empty_cells: np.ndarray | None
    conventions: str
    heterogeneity: np.ndarray | None = None
    ci_low: np.ndarray | None = None
    ci_high: np.ndarray | None = None
    replicates: np.ndarray | None = None
    replicate_counts: np.ndarray | None = field(default=None, repr=False)
    ci_level: float | None = None
    bootstrap: str | None = None
    normaliser: Callable | None = field(default=None, repr=False)
    classifier: bool = False
    data_values: Callable | None = field(default=None, repr=False)
    deviation: Callable | None = field(default=None, repr=False)  # ALED's deviation (pyale.ALE's aled_fun); None: aled
    ordered_by_similarity: tuple | None = field(default=None, repr=False)
    method: str | None = None
    binning: str | None = None
    _cache: dict = field(default_factory=dict, repr=False)

    @property
    def numeric_axes(self) -> tuple[bool, ...]:
        """Whether each grid axis is numeric (interval edges) rather than categorical (levels)."""
        return tuple(part == "numeric" for part in self.kind.split(" x "))

    @property
    def statistics(self) -> pd.DataFrame:
        """ALED, ALER (min, max), NALED and NALER (min, max) of the effect (Okoli 2023).

        One row per name of ``pyale._core.reduce.stats.STATISTICS``: ``aled,
        aler_min, aler_max, naled, naler_min, naler_max`` (with an
        ``output`` level first when the model has several outputs); column
        ``estimate`` (the full data's effect) and, after a bootstrap,
        ``ci_low`` and ``ci_high`` (percentiles of the replicates' statistics).
        ALED and ALER are in units of the prediction; NALED and NALER map
        values to half-percentiles of the response around its median (-50
        to 50; see the uncertainty guide).  Computed on first access (the
        response distribution may need one model call on X).
        """
        if "statistics" not in self._cache:
            self._cache["statistics"] = self._statistics()
        return self._cache["statistics"]

    def _statistics(self) -> pd.DataFrame:
        if self.normaliser is None:
            raise ValueError("This ALEResult carries no response distribution, so no statistics.")
        normalisers = self.normaliser()
        numeric = self.numeric_axes
        deviation = aled if self.deviation is None else self.deviation
        estimate = np.stack([
            ale_statistics(self.effects[..., [j]], self.counts, numeric, normalisers[j], deviation)[..., 0]
            for j in range(len(self.outputs))
        ], axis=-1)  # (6, m)
        low = high = None
        if self.replicates is not None:
            per_replicate = np.stack([
                ale_statistics(self.replicates[..., [j]], self.replicate_counts, numeric, normalisers[j],
                               deviation)[..., 0]
                for j in range(len(self.outputs))
            ], axis=-1)  # (B, 6, m)
            low, high = percentile_interval(per_replicate, self.ci_level)
        return statistics_table(estimate, low, high, self.outputs)

    def to_frame(self) -> pd.DataFrame:
        """Tidy long table: one row per grid point (node) and output.

        Columns: the feature(s), named by their column labels (grid values:
        interval edges as floats, or level labels), then ``output`` (the
        output's name), ``ale``, ``heterogeneity`` (when computed) and, after
        a bootstrap, ``ci_low`` and ``ci_high``.  These keep their names
        whatever the features are called: a feature labelled ``"output"`` or
        ``"ale"`` (or another of them) is written ``feature_output`` /
        ``feature_ale`` (prefixed again while still taken, e.g. by the pair's
        other feature).  Labels that are not strings (ints, tuples) are kept
        as they are.

        Examples
        --------
        >>> import numpy as np, pandas as pd
        >>> from pyale import ale
        >>> X = pd.DataFrame({"ale": np.arange(6.0), "x": np.arange(6.0) % 2})
        >>> list(ale(lambda d: d["ale"], X, "ale", n_intervals=2).to_frame().columns)
        ['feature_ale', 'output', 'ale', 'heterogeneity']
        """
        shape = self.effects.shape[:-1]
        index = np.indices(shape).reshape(len(shape), -1)
        n_out = len(self.outputs)
        features = []
        for axis, (name, values) in enumerate(zip(self.features, self.grid)):
            labels = np.empty(len(values), dtype=object)
            labels[:] = list(values)
            column = labels[index[axis]]
            if self.numeric_axes[axis]:
                column = column.astype(float)
            features.append((name, np.repeat(column, n_out)))
        outputs = np.empty(n_out, dtype=object)
        outputs[:] = list(self.outputs)
        values = [("output", np.tile(outputs, index.shape[1])), ("ale", self.effects.reshape(-1))]
        for name in ("heterogeneity", "ci_low", "ci_high"):
            array = getattr(self, name)
            if array is not None:
                values.append((name, array.reshape(-1)))
        frame = tidy_frame(features, values)
        frame.attrs.update({"conventions": self.conventions, "method": self.method, "binning": self.binning})
        return frame

    def __repr__(self) -> str:
        return _present.short_repr(self)

    def _repr_html_(self) -> str:
        return _present.html_view("ALEResult", _present.summary(self), lambda ax: self.plot(ax=ax),
                                  size=(5.0 * min(len(self.outputs), 3) if len(self.features) == 2 else 5.0, 3.6))

    def equals(self, other: object, *, rtol: float = 0.0, atol: float = 0.0) -> bool:
        """Whether ``other`` is an ALEResult with the same values (floats within ``rtol``/``atol``).

        Every field is compared, arrays element by element; the default is
        exact equality.  ``==`` is identity and never compares arrays.

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
        return _present.same_values(self, other, rtol=rtol, atol=atol, skip=("display", "normaliser", "data_values",
                                                                              "deviation", "_cache"))

    def plot(self, ax=None, *, output=None, **kwargs):
        """Draw the effect: a curve per output, bars, or one surface per output for a pair.

        Parameters
        ----------
        ax : matplotlib Axes or array of Axes, optional
            Where to draw (see :meth:`pyale.ALEDisplay.plot`); a new figure
            by default.
        output : label or list, optional
            The model output(s) to draw (all by default).
        **kwargs
            Keywords of :meth:`pyale.ALEDisplay.plot` (``label``, ``color``,
            ``line_kw``, ``band``, ...).

        Returns
        -------
        ALEDisplay
        """
        if output is not None:
            output = check_output(output, self, caller="ALEResult.plot")
        return _present.display_class("ALEDisplay").from_results([self], ax=ax, output=output, **kwargs)

    def _with_bootstrap(self, replicates: np.ndarray, replicate_counts: np.ndarray, ci_level: float,
                       bootstrap: str) -> "ALEResult":
        """A copy with bootstrap replicates and their percentile band."""
        low, high = percentile_interval(replicates, ci_level)
        return dataclasses.replace(self, replicates=replicates, replicate_counts=replicate_counts, ci_low=low,
                                   ci_high=high, ci_level=ci_level, bootstrap=bootstrap, _cache={})


def statistics_table(estimate: np.ndarray, low, high, outputs) -> pd.DataFrame:
    """The statistics as a DataFrame (see :attr:`ALEResult.statistics`)."""
    n_out = estimate.shape[-1]
    columns = {"estimate": estimate.T.reshape(-1)}
    if low is not None:
        columns["ci_low"] = low.T.reshape(-1)
        columns["ci_high"] = high.T.reshape(-1)
    if n_out == 1:
        index = pd.Index(list(STATISTICS), name="statistic")
    else:
        index = pd.MultiIndex.from_product([list(outputs), list(STATISTICS)], names=["output", "statistic"])
    return pd.DataFrame(columns, index=index)


def check_output(output, result, *, caller: str) -> list:
    """The outputs ``output`` names (a label or a list of labels), each one of ``result.outputs``."""
    names = list(result.outputs)
    wanted = [output] if isinstance(output, str) or np.ndim(output) == 0 else list(output)
    if not wanted:
        raise ValueError(
            f"The 'output' parameter of {caller} must name at least one output of the effect of "
            f"{result.features!r} ({names!r}). Got {output!r} instead."
        )
    missing = [w for w in wanted if not any(_same_label(w, name) for name in names)]
    if missing:
        raise ValueError(
            f"The 'output' parameter of {caller} names outputs {missing!r} that the effect of "
            f"{result.features!r} lacks; its outputs are {names!r}."
        )
    return [next(name for name in names if _same_label(w, name)) for w in wanted]


def _same_label(a, b) -> bool:
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - an array or odd object is no output label
        return False
