"""R's ``ALE(output_boot_data = TRUE)`` tables (``get(obj, what = "boot_data")``) and ``params$data``'s sample.

R's table of a term has one row per iteration (0: the full data, then every
replicate) and bin (cell: the first feature varying fastest): ``.it``, the
term's columns (numeric ceilings as R prints them, 15 significant digits;
other features a factor of the bin labels in ALE order), ``.y_composite``
(the accumulated curve minus the centring constant), ``.n`` (the iteration's
rows in the bin), ``.y_distinct`` (2-D: the composite minus the full data's
row and column parts) and ``.y`` (= ``.y_distinct``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..._core.conventions.alepkg import _cumulate, pair_parts_split
from ..._rbase.mersenne import MersenneTwister
from .tables import r_ceiling_labels

__all__ = ["composite_offset", "boot_data_table", "data_sample"]


def composite_offset(estimate) -> np.ndarray:
    """``.y_composite - .y_distinct`` of a term: 0 for one feature, the row and column parts for a pair."""
    if estimate.effects.ndim == 2:
        return np.zeros_like(estimate.effects)
    curve = _cumulate(estimate.local_effects)
    return pair_parts_split(curve, estimate.bin_counts)[0]


def _axis_values(info, index: np.ndarray):
    if info.ale_type == "numeric":
        return r_ceiling_labels(np.asarray(info.bins, dtype=float))[index]
    labels = [str(b) for b in info.labels]
    return pd.Categorical.from_codes(index, categories=labels)


def boot_data_table(infos: tuple, curves: np.ndarray, offset: np.ndarray, counts: np.ndarray,
                    centre: float) -> pd.DataFrame:
    """One term's ``boot_data`` table for one response category.

    Parameters
    ----------
    infos : tuple of AleAxisInfo
        The term's features.
    curves : numpy.ndarray
        ``(1 + boot_it, *bins)``: the centred (distinct) curves, full data first.
    offset : numpy.ndarray
        ``(*bins,)``: :func:`composite_offset` for this category.
    counts : numpy.ndarray
        ``(1 + boot_it, *bins)``: each iteration's rows per bin.
    centre : float
        ``get()``'s ``ale_centre`` value, added to the ``.y`` columns.
    """
    iterations = curves.shape[0]
    shape = curves.shape[1:]
    cells = int(np.prod(shape))
    flat = lambda a: np.asarray(a).reshape(iterations, *shape).transpose(0, *range(len(shape), 0, -1)).reshape(-1)
    table = {".it": np.repeat(np.arange(iterations, dtype=float), cells)}
    if len(infos) == 1:
        index = [np.tile(np.arange(shape[0]), iterations)]
    else:
        index = [np.tile(np.tile(np.arange(shape[0]), shape[1]), iterations),
                 np.tile(np.repeat(np.arange(shape[1]), shape[0]), iterations)]
    for info, idx in zip(infos, index):
        table[str(info.name)] = _axis_values(info, idx)
    distinct = flat(curves)
    table[".y_composite"] = distinct + flat(np.broadcast_to(offset, curves.shape)) + centre
    table[".n"] = flat(counts).astype(float)
    table[".y_distinct"] = distinct + centre
    table[".y"] = distinct + centre
    return pd.DataFrame(table)


def data_sample(data: pd.DataFrame, sample_size: int, seed: int) -> pd.DataFrame:
    """R's ``params$data$data_sample``: ``data`` itself up to ``sample_size`` rows, else
    ``data[sample(1:n, sample_size), ]`` after ``set.seed(seed)`` (Mersenne-Twister)."""
    n = data.shape[0]
    if n <= sample_size:
        return data
    rows = MersenneTwister.from_seed(seed).sample_int(n, sample_size) - 1
    return data.iloc[rows]
