"""R's ``ale`` 0.5.x bootstrap of non-numeric features, bug included (``pyale.ALE(..., replicate_r_bugs=True)``).

In R's ``calc_ale`` a replicate's rows are ``X[rows_b, ]`` but a binary,
categorical or ordinal feature's bin of position ``i`` (and so its low value)
is full-data row ``i``'s (``x_ordered_idx`` is not subset by ``rows_b``),
while its high value is the resampled row's own (``docs/ale-package.md``,
section 10, case 1).  Such a replicate is no reweighting of the full data's
differences: each replicate is evaluated here on its resampled rows with the
full data's bins attached by position, and shifted by the full data's
centring, as R shifts it.
"""

from __future__ import annotations

import numpy as np

from ..._core.conventions.alepkg import ALE_PACKAGE, AleLevelAxis, AleNumericAxis, ale_numeric_bins
from ..._core.conventions.alepkg import _cumulate, _curve
from ..._core.reduce.estimate import estimate
from ..._core.map.local import Plan
from ..._engines.pandas import PandasEngine

__all__ = ["needs_r_pairing", "r_paired_replicates"]


def needs_r_pairing(axes: tuple) -> bool:
    """Whether R's bootstrap of this term pairs rows wrongly (a non-numeric axis)."""
    return any(isinstance(axis, AleLevelAxis) for axis in axes)


def _uncentred(local: np.ndarray, axes: tuple) -> np.ndarray:
    if len(axes) == 1:
        return _curve(local, axes[0].ale_type)
    return _cumulate(local)


def r_paired_replicates(X, axes: tuple, full, caller, resamples) -> tuple[np.ndarray, np.ndarray]:
    """``(replicates, replicate_bin_counts)`` of one term as R's bootstrap computes them.

    Parameters
    ----------
    X : pandas.DataFrame
        The full data (without the response).
    axes : tuple
        The term's axes built on ``X``.
    full : AleEstimate
        The full data's estimate (``replicate_r_bugs`` plan): its uncentred
        curve minus its ``effects`` is the shift R applies to every replicate.
    caller : ModelCaller
    resamples : iterable of numpy.ndarray
        Each replicate's 0-based rows (R's ``sample.int``).
    """
    shift = _uncentred(full.local_effects, axes) - full.effects
    curves, counts = [], []
    for rows in resamples:
        block = X.iloc[rows].reset_index(drop=True)
        paired = []
        for axis in axes:
            if isinstance(axis, AleLevelAxis):  # full-data row i's level code, at position i
                codes = axis.known[1] if axis.known is not None and axis.known[0] is X else axis.codes(X[axis.name])
                paired.append(AleLevelAxis(axis.name, axis.levels, axis.order, known=(block, codes),
                                           ale_type=axis.ale_type))
            else:
                values = block[axis.name].to_numpy(dtype=float)
                paired.append(AleNumericAxis(axis.name, axis.ceilings,
                                             known=(block, ale_numeric_bins(values, axis.ceilings))))
        plan = Plan(tuple(paired), ALE_PACKAGE, empty_intervals="nan", replicate_r_bugs=True)
        (est,) = estimate(PandasEngine(block), [plan], caller)
        curves.append(_uncentred(est.local_effects, axes) - shift)  # pairs: cells already intrapolated
        counts.append(est.bin_counts)
    return np.stack(curves), np.stack(counts)

