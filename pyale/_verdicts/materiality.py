"""``pyale.materiality``: which effects matter, in what order, with intervals on the ranking."""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .. import _present
from .._checks import check_choice
from .._core.bootstrap import percentile_interval
from .._core.stats import STATISTICS, ale_statistics
from .inputs import (check_verdict_level, collect_results, effect_name, feature_label, native, output_index,
                     require_replicates)

__all__ = ["materiality", "Materiality", "rank_intervals"]

_CALLER = "materiality"
_STATS = ("aled", "naled")
_COLUMNS = ["feature", "output", "stat", "estimate", "ci_low", "ci_high", "rank", "rank_low", "rank_high",
            "level", "n_bootstrap", "bootstrap"]


@dataclass(frozen=True, eq=False, repr=False)
class Materiality:
    """What :func:`pyale.materiality` found: effects ranked by size, with intervals.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per effect, largest first: ``feature`` (``"a x b"`` for a
        pair), ``output``, ``stat`` (``"aled"`` or ``"naled"``), ``estimate``
        (the full data's value), ``ci_low``/``ci_high`` (percentile bootstrap
        interval at ``1 - level``), ``rank`` (1 = largest; ties share the
        best rank), ``rank_low``/``rank_high`` (simultaneous ``1 - level``
        interval of every rank at once), ``level``, ``n_bootstrap`` and
        ``bootstrap``.
    level : float
    replicates : numpy.ndarray
        ``(n_bootstrap, n_effects)``: the statistic in every replicate, in the table's row order.

    See Also
    --------
    pyale.materiality : what makes it.

    Examples
    --------
    >>> import numpy as np, pandas as pd, pyale
    >>> rng = np.random.default_rng(0)
    >>> X = pd.DataFrame({"a": rng.normal(size=200), "b": rng.normal(size=200)})
    >>> results = pyale.ale(lambda d: 2 * d["a"] + d["b"] * d["a"], X, ["a", "b"], n_bootstrap=100, random_state=0)
    >>> pyale.materiality(results).table["feature"].tolist()
    ['a', 'b']
    """

    table: pd.DataFrame
    level: float
    replicates: np.ndarray

    def __repr__(self) -> str:
        order = ", ".join(f"{r.feature}={r.estimate:.4g} [{r.rank_low}-{r.rank_high}]"
                          for r in self.table.itertuples())
        return f"Materiality(stat={self.table['stat'].iloc[0]!r}, {order})"

    def _repr_html_(self) -> str:
        return self.table.to_html(index=False)

    def plot(self, ax=None, **kwargs):
        """Dot plot: each effect's statistic with its interval, largest on top, rank interval on the right.

        Parameters
        ----------
        ax : matplotlib Axes, optional
            Where to draw; a new figure by default.
        **kwargs
            Keywords of the display's ``plot`` (``color``).

        Returns
        -------
        MaterialityDisplay
        """
        return _present.display_class("MaterialityDisplay")(self).plot(ax=ax, **kwargs)

    def to_dict(self) -> dict:
        """Everything as plain Python values (JSON-ready: NaN as None).

        Returns
        -------
        dict
            ``level``, ``stat``, ``rank_method`` and ``rows`` (the rows of ``table``).
        """
        return {
            "level": self.level,
            "stat": self.table["stat"].iloc[0],
            "rank_method": "simultaneous max-t on pairwise differences (Mogstad, Romano, Shaikh and Wilhelm 2024)",
            "rows": [{k: native(v) for k, v in row.items()} for row in self.table.to_dict(orient="records")],
        }


def materiality(result, *, stat: str = "aled", level: float = 0.05, output=None) -> Materiality:
    """Rank effects by ALED (or NALED) with bootstrap intervals on each statistic and on the ranks.

    Parameters
    ----------
    result : list of ALEResult, ALEResult, or pyale.ALE
        Effects with bootstrap replicates, from one call of :func:`pyale.ale`
        (``n_bootstrap=``), :func:`pyale.model_bootstrap` or
        :class:`pyale.ALE` (``boot_it=``), so that replicate ``b`` of every
        effect is the same resample.  Pairs are ranked with the rest.
    stat : {"aled", "naled"}, default "aled"
        ALED (units of the prediction) or NALED (percentile points of the
        response); see :attr:`pyale.ALEResult.statistics`.
    level : float, default 0.05
        One minus the intervals' coverage.
    output : label, optional
        The model output to rank (as in :func:`pyale.check_shape`).

    Returns
    -------
    Materiality
        ``table``, ``plot()`` and ``to_dict()``.

    Notes
    -----
    The statistic's interval is the percentile bootstrap interval, as in
    :attr:`pyale.ALEResult.statistics`.  The rank intervals hold for every
    effect at once (Mogstad, Romano, Shaikh and Wilhelm 2024): with
    ``d_jk = s_j - s_k`` and ``se_jk`` its bootstrap standard deviation,
    ``c`` is the ``1 - level`` quantile over the replicates of
    ``max_{j != k} |d*_jk - d_jk| / se_jk``; effect ``k`` is surely larger
    than ``j`` when ``d_kj - c se_kj > 0``, and the rank of ``j`` lies between
    one plus the number of effects surely larger and the number of effects
    minus those surely smaller.  A numeric feature with a single interval
    (two values) has ALED 0 by construction and is warned about: rank it as a
    categorical feature.  All ranks are covered together with
    probability about ``1 - level``; an effect whose statistic does not
    vary over the replicates is compared exactly.  The replicates must pair
    up (the same resample for every effect): results from separate calls
    with different seeds give intervals that are too wide or too narrow.

    References
    ----------
    Mogstad, M., Romano, J. P., Shaikh, A. M. and Wilhelm, D. (2024).
    Inference for ranks with applications to mobility across neighbourhoods
    and academic achievement across countries. Review of Economic Studies 91(1).

    Examples
    --------
    >>> import numpy as np, pandas as pd, pyale
    >>> rng = np.random.default_rng(0)
    >>> X = pd.DataFrame({"a": rng.normal(size=200), "b": rng.normal(size=200), "c": rng.normal(size=200)})
    >>> model = lambda d: 3 * d["a"] + d["b"] + 0.1 * d["c"] * d["a"]
    >>> results = pyale.ale(model, X, ["a", "b", "c"], n_intervals=5, n_bootstrap=200, random_state=0)
    >>> pyale.materiality(results).table[["feature", "rank", "rank_low", "rank_high"]]
      feature  rank  rank_low  rank_high
    0       a     1         1          1
    1       b     2         2          2
    2       c     3         3          3
    """
    level = check_verdict_level(level, caller=_CALLER)
    stat = check_choice(stat, _STATS, param="stat", caller=_CALLER)
    results = collect_results(result, caller=_CALLER)
    row = STATISTICS.index(stat)
    estimates, replicates, labels, outputs = [], [], [], []
    for r in results:
        out = output_index(r, output, caller=_CALLER)
        reps = require_replicates(r, level, caller=_CALLER)
        if r.normaliser is None:
            raise ValueError(
                f"The effect of {effect_name(r)} carries no response distribution, so no statistics for {_CALLER}."
            )
        normaliser = r.normaliser()[out]
        numeric = r.numeric_axes
        estimates.append(ale_statistics(r.effects[..., [out]], r.counts, numeric, normaliser)[row, 0])
        replicates.append(ale_statistics(reps[..., [out]], r.replicate_counts, numeric, normaliser)[:, row, 0])
        labels.append(feature_label(r.features))
        outputs.append(r.outputs[out])
    _warn_single_interval(results)
    sizes = {x.shape[0] for x in replicates}
    if len(sizes) > 1:
        raise ValueError(
            f"The results passed to {_CALLER} carry different numbers of bootstrap replicates "
            f"({sorted(sizes)!r}); compute them in one call so that every replicate is the same resample."
        )
    estimate = np.asarray(estimates, dtype=float)
    per_replicate = np.stack(replicates, axis=1)  # (B, p)
    low, high = percentile_interval(per_replicate, 1.0 - level)
    ranks = 1 + (estimate[None, :] > estimate[:, None]).sum(axis=1)
    rank_low, rank_high = rank_intervals(estimate, per_replicate, level)
    table = pd.DataFrame({
        "feature": labels, "output": outputs, "stat": stat, "estimate": estimate, "ci_low": low, "ci_high": high,
        "rank": ranks, "rank_low": rank_low, "rank_high": rank_high, "level": level,
        "n_bootstrap": per_replicate.shape[0], "bootstrap": [r.bootstrap for r in results],
    }, columns=_COLUMNS)
    order = np.lexsort((np.arange(len(labels)), -estimate))
    table = table.iloc[order].reset_index(drop=True)
    return Materiality(table=table, level=level, replicates=per_replicate[:, order])


def _warn_single_interval(results) -> None:
    """Warn about numeric main effects with one interval: their ALED and NALED are 0 by construction."""
    single = [feature_label(r.features) for r in results
              if len(r.features) == 1 and r.numeric_axes[0] and len(r.grid[0]) == 2]
    if single:
        warnings.warn(
            f"{_CALLER}: the numeric effect of {', '.join(map(repr, single))} has a single interval (two grid "
            "points), so its ALED and NALED are 0 whatever the effect (they average each interval's mid-value, and "
            "the only interval's is the centring constant) and it ranks last. A feature with two values is better "
            "treated as categorical (e.g. X[col].astype('category')), whose statistics read each value's effect.",
            UserWarning, stacklevel=3,
        )


def rank_intervals(estimate: np.ndarray, replicates: np.ndarray, level: float) -> tuple[np.ndarray, np.ndarray]:
    """Simultaneous rank intervals (1 = largest) from statistics and their paired replicates.

    ``estimate`` is ``(p,)`` and ``replicates`` ``(B, p)``; returns the lower
    and upper rank of every effect (see the Notes of ``pyale.materiality``).
    """
    p = estimate.shape[0]
    difference = estimate[:, None] - estimate[None, :]  # d_jk = s_j - s_k
    differences = replicates[:, :, None] - replicates[:, None, :]
    with np.errstate(invalid="ignore"):
        spread = np.nanstd(differences, axis=0, ddof=1) if replicates.shape[0] > 1 else np.zeros((p, p))
    scale = np.nanmax(np.abs(np.concatenate([estimate, replicates.ravel()]))) if p else 0.0
    noisy = np.isfinite(spread) & (spread > 1e-12 * max(scale, np.finfo(float).tiny))
    off = ~np.eye(p, dtype=bool)
    with np.errstate(invalid="ignore", divide="ignore"):
        deviation = np.abs(differences - difference) / np.where(noisy, spread, 1.0)
    deviation = np.where((noisy & off)[None], deviation, -np.inf)
    largest = deviation.reshape(deviation.shape[0], -1).max(axis=1)
    largest = largest[np.isfinite(largest)]
    critical = float(np.quantile(largest, 1.0 - level, method="higher")) if largest.size else 0.0
    surely_larger = np.where(noisy, difference - critical * np.where(noisy, spread, 0.0) > 0, difference > 0) & off
    # surely_larger[j, k]: effect j is surely larger than effect k
    rank_low = 1 + surely_larger.sum(axis=0)
    rank_high = p - surely_larger.sum(axis=1)
    return rank_low.astype(int), rank_high.astype(int)
