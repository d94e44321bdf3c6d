"""``pyale.invert_probs``: R's ``ale::invert_probs()`` (ale 0.5.2 and later).

R replaces every stored ``.y`` column (centred at 0) by ``1 - .y``, so that
``get()`` shows ``(1 - .y) + centre`` with the response summary unchanged;
in the statistics the rows ``aler_min`` and ``aler_max`` (and ``naler_min``,
``naler_max``) trade places with their values negated (``estimate``,
``conf.low``, ``mean``, ``median``, ``conf.high``: ``conf.low`` is not swapped
with ``conf.high``); ALED and NALED are kept.  Reverting (``force``) inverts
again and the object stays marked as inverted, as in R.  An ALE with
``p_values`` (ale 0.5.3) gets the distribution inverted too (``invert_probs_p``).
"""

from __future__ import annotations

import copy

import numpy as np

from .ale import ALE
from .pdist import ALEpDist

__all__ = ["invert_probs", "invert_probs_p"]


def invert_probs(ale_obj, rename_y_col=None, force: bool = False):
    """Invert an ALE of probabilities to the complementary outcome (``1 - p``), as R's ``invert_probs``.

    Parameters
    ----------
    ale_obj : pyale.ALE
        An ALE whose response summary lies in [0, 1] (its first column).
    rename_y_col : str, optional
        A new name for the response (``y_col`` and the summary's first column).
    force : bool, default False
        Invert an ALE that is already inverted (reverts it).

    Returns
    -------
    pyale.ALE
        A new object (``ale_obj`` is not changed) with ``probs_inverted`` True.

    Raises
    ------
    ValueError
        When the response summary leaves [0, 1], or the ALE is already inverted and ``force`` is False.

    Notes
    -----
    ``get()`` then shows ``(1 - y) + centre`` for every ``.y`` column (``y``
    the stored effect, centred at 0; the centre is the original response's
    median, as R keeps ``y_summary``), and ALER and NALER swapped and negated.
    With ``p_values`` (ale 0.5.3): each statistic keeps the p-value it had, moving with its row when
    minima and maxima swap (R stores p-values with the statistics); the result's ``p_values`` is the
    distribution inverted (R's ``invert_probs_p``: random ALER and NALER minima and maxima swapped and
    negated, ``params["probs_inverted"]`` True), unless it was already inverted, so that reverting with
    ``force`` leaves it inverted, as in R; ``y_summary`` (its ALER rows included) is kept, as in R.

    References
    ----------
    R package ``ale`` 0.5.2 (``invert_probs``).

    Examples
    --------
    >>> import numpy as np, pandas as pd, pyale
    >>> data = pd.DataFrame({"x": np.linspace(0, 1, 20), "y": np.tile([0.0, 1.0], 10)})
    >>> res = pyale.ALE(None, "x", data, "y", max_num_bins=3,
    ...                 pred_fun=lambda object, newdata, type: newdata["x"] * 0.8)
    >>> inv = pyale.invert_probs(res)
    >>> bool(np.allclose(inv.get("x", ale_centre="zero")[".y"], 1 - res.get("x", ale_centre="zero")[".y"]))
    True
    """
    if not isinstance(ale_obj, ALE):
        raise TypeError(f"The 'ale_obj' parameter of invert_probs must be a pyale.ALE. "
                        f"Got {type(ale_obj).__name__} instead.")
    if rename_y_col is not None and not isinstance(rename_y_col, str):
        raise TypeError(f"The 'rename_y_col' parameter of invert_probs must be None or a str. "
                        f"Got {rename_y_col!r} instead.")
    first = ale_obj.y_summary.iloc[:, 0].to_numpy(dtype=float)
    if not np.all((first >= 0) & (first <= 1)):
        raise ValueError(f"{ale_obj.y_col!r} probabilities cannot be inverted because some values are not between "
                         f"0 and 1 (its summary runs from {float(first.min())!r} to {float(first.max())!r}).")
    if ale_obj.probs_inverted and not force:
        raise ValueError("Probabilities are already inverted. To revert them, set force=True.")
    dist = ale_obj.p_values
    inverted_dist = None
    if dist is not None and not dist.params.get("probs_inverted", False):
        inverted_dist = invert_probs_p(dist, rename_y_col)  # before anything changes: it may refuse
    out = copy.copy(ale_obj)
    out._inversions = ale_obj._inversions + 1
    out.probs_inverted = True
    if rename_y_col is not None:
        out.y_col = rename_y_col
        out.y_summary = ale_obj.y_summary.rename(columns={ale_obj.y_summary.columns[0]: rename_y_col})
    if inverted_dist is not None:
        out.p_values = inverted_dist
    return out


def invert_probs_p(dist: ALEpDist, rename_y_col=None) -> ALEpDist:
    """R's internal ``invert_probs_p`` (ale 0.5.3): a copy of ``dist`` whose random ALER and NALER minima
    and maxima swap places, negated (``aler_min <- -aler_max``, ...), marked ``probs_inverted``.

    R refuses when a random ALER (of the first category) leaves [-1, 1]: these are not probabilities.
    """
    first = next(iter(dist.rand_stats.values()))
    aler = np.concatenate([first["aler_min"].to_numpy(dtype=float), first["aler_max"].to_numpy(dtype=float)])
    if not np.all((aler >= -1) & (aler <= 1)):
        raise ValueError(f"{dist.params['y_col']!r} ALE statistics probabilities cannot be inverted because some "
                         "values are not between 0 and 1 (the p_values' random ALER leave [-1, 1]).")
    out = copy.copy(dist)
    out.rand_stats = {}
    for cat, table in dist.rand_stats.items():
        table = table.copy()
        table["aler_min"], table["aler_max"] = -dist.rand_stats[cat]["aler_max"], -dist.rand_stats[cat]["aler_min"]
        table["naler_min"], table["naler_max"] = -dist.rand_stats[cat]["naler_max"], -dist.rand_stats[cat]["naler_min"]
        out.rand_stats[cat] = table
    out.params = {**dist.params, "probs_inverted": True}
    if rename_y_col is not None:
        out.params["y_col"] = rename_y_col
    return out
