"""The reduce stage: from per-group sums to centred effects.

Mean local effect per group (interval, level jump, cell), empty cells filled
from the nearest non-empty cell (pairs), accumulated from zero and centred
with the weights of the groups, as ALEPlot 1.1 does (iml 0.11.4 removes the
same first-order effects and constant).  Every function also accepts a
leading replicate axis, so bootstrap replicates are centred exactly as the
full data is.
"""

from __future__ import annotations

import numpy as np

from ..._rbase.nearest import nearest_reference

__all__ = [
    "local_means",
    "main_curve",
    "numeric_centre",
    "level_centre",
    "fill_empty_cells",
    "pair_surface",
    "categorical_pair_surface",
]


def local_means(total: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """``total / weight`` per group, NaN where a group has no weight.

    ``total`` is ``(..., G, m)`` and ``weight`` ``(..., G)``.
    """
    w = weight[..., None]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(w > 0, total / np.where(w > 0, w, 1.0), np.nan)


def main_curve(local: np.ndarray) -> np.ndarray:
    """``c(0, cumsum(local))`` along the group axis: ``(..., G, m)`` -> ``(..., G + 1, m)``."""
    zeros = np.zeros(local.shape[:-2] + (1, local.shape[-1]))
    return np.concatenate([zeros, np.cumsum(local, axis=-2)], axis=-2)


def numeric_centre(curve: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """Subtract the weighted mean of the interval mid-values (ALEPlot's centring)."""
    mids = (curve[..., :-1, :] + curve[..., 1:, :]) / 2
    centre = (mids * weight[..., None]).sum(axis=-2) / weight.sum(axis=-1)[..., None]
    return curve - centre[..., None, :]


def level_centre(curve: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """Subtract the level-frequency-weighted mean (ALEPlot's categorical centring)."""
    shares = weight / weight.sum(axis=-1, keepdims=True)
    return curve - (curve * shares[..., None]).sum(axis=-2)[..., None, :]


def fill_empty_cells(
    means: np.ndarray, coord1: np.ndarray, coord2: np.ndarray, *, row_major: bool = False
) -> np.ndarray:
    """Give each empty cell (NaN) the value of the nearest non-empty cell.

    Cells are points ``(coord1[i], coord2[j])``; candidates are taken in
    column-major order (R's ``which(arr.ind = TRUE)``), or along the second
    axis first with ``row_major`` (iml's ``impute_cells`` keys its table by
    interval 1, then interval 2), and the nearest one is found exactly as
    ``yaImpute::ann(k = 1)`` finds it, ties included.

    Parameters
    ----------
    means : numpy.ndarray
        ``(n1, n2, n_outputs)`` with NaN in empty cells.
    coord1, coord2 : numpy.ndarray
        Scaled positions of the cells along each axis.
    """
    empty = np.isnan(means[:, :, 0])
    if not empty.any():
        return means
    if empty.all():
        raise ValueError("No cell of the pair holds a row; the second-order effect is undefined.")
    if row_major:
        empty_i, empty_j = np.nonzero(empty)
        full_i, full_j = np.nonzero(~empty)
    else:
        empty_j, empty_i = np.nonzero(empty.T)
        full_j, full_i = np.nonzero(~empty.T)
    reference = np.column_stack([coord1[full_i], coord2[full_j]])
    query = np.column_stack([coord1[empty_i], coord2[empty_j]])
    nearest = nearest_reference(reference, query)
    filled = means.copy()
    filled[empty_i, empty_j] = means[full_i[nearest], full_j[nearest]]
    return filled


def _fill_each(means: np.ndarray, coords: tuple, row_major: bool) -> np.ndarray:
    """:func:`fill_empty_cells` over a leading replicate axis (replicates with the same empty cells share one search)."""
    if means.ndim == 3:
        return fill_empty_cells(means, *coords, row_major=row_major)
    out = np.array(means, copy=True)
    empty = np.isnan(means[..., 0])
    patterns: dict[bytes, list[int]] = {}
    for r in range(means.shape[0]):
        if empty[r].any():
            patterns.setdefault(empty[r].tobytes(), []).append(r)
    for replicates in patterns.values():
        first = replicates[0]
        if empty[first].all():
            out[replicates] = np.nan
            continue
        mask = empty[first]
        if row_major:
            empty_i, empty_j = np.nonzero(mask)
            full_i, full_j = np.nonzero(~mask)
        else:
            empty_j, empty_i = np.nonzero(mask.T)
            full_j, full_i = np.nonzero(~mask.T)
        reference = np.column_stack([coords[0][full_i], coords[1][full_j]])
        query = np.column_stack([coords[0][empty_i], coords[1][empty_j]])
        nearest = nearest_reference(reference, query)
        rows = np.asarray(replicates)[:, None]
        out[rows, empty_i[None, :], empty_j[None, :]] = means[rows, full_i[nearest][None, :], full_j[nearest][None, :]]
    return out


def _cumulate_cells(local: np.ndarray) -> np.ndarray:
    """Cumulative sums over both grid axes with a leading row and column of zeros."""
    shape = local.shape[:-3] + (local.shape[-3] + 1, local.shape[-2] + 1, local.shape[-1])
    out = np.zeros(shape)
    out[..., 1:, 1:, :] = np.cumsum(np.cumsum(local, axis=-2), axis=-3)
    return out


def _weighted_sum(weights: np.ndarray, values: np.ndarray, axis) -> np.ndarray:
    return (weights[..., None] * values).sum(axis=axis)


def _steps_to_curve(steps: np.ndarray) -> np.ndarray:
    zeros = np.zeros(steps.shape[:-2] + (1, steps.shape[-1]))
    return np.concatenate([zeros, np.cumsum(steps, axis=-2)], axis=-2)


def pair_surface(local: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """Numeric x numeric: accumulate cell means and remove first-order effects and a constant.

    ``local`` is ``(..., K1, K2, m)`` (filled), ``weight`` ``(..., K1, K2)``.
    ALEPlot 1.1's centring (and iml 0.11.4's): the first-order effect of
    each feature is the weighted average of the differences across it,
    taken at the two adjacent nodes of the other feature; the constant is
    the weighted mean of the cells' four corners.
    """
    surface = _cumulate_cells(local)
    step1 = surface[..., 1:, :, :] - surface[..., :-1, :, :]
    mean_step1 = _weighted_sum(weight, (step1[..., :, :-1, :] + step1[..., :, 1:, :]) / 2, axis=-2)
    mean_step1 = mean_step1 / weight.sum(axis=-1)[..., None]
    step2 = surface[..., :, 1:, :] - surface[..., :, :-1, :]
    mean_step2 = _weighted_sum(weight, (step2[..., :-1, :, :] + step2[..., 1:, :, :]) / 2, axis=-3)
    mean_step2 = mean_step2 / weight.sum(axis=-2)[..., None]
    main1 = _steps_to_curve(mean_step1)
    main2 = _steps_to_curve(mean_step2)
    surface = surface - main1[..., :, None, :] - main2[..., None, :, :]
    corners = (surface[..., :-1, :-1, :] + surface[..., :-1, 1:, :] + surface[..., 1:, :-1, :] + surface[..., 1:, 1:, :]) / 4
    constant = _weighted_sum(weight, corners, axis=(-3, -2)) / weight.sum(axis=(-2, -1))[..., None]
    return surface - constant[..., None, None, :]


def categorical_pair_surface(local: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """Categorical x numeric: accumulate jump-cell means, centre with (level, interval) weights.

    ``local`` is ``(..., L - 1, K2, m)`` (filled), ``weight`` ``(..., L, K2)``
    rows per level and interval, as ALEPlot 1.1 centres it.
    """
    surface = _cumulate_cells(local)  # (..., L, K2 + 1, m)
    step2 = surface[..., :, 1:, :] - surface[..., :, :-1, :]
    main2 = _steps_to_curve(_weighted_sum(weight, step2, axis=-3) / weight.sum(axis=-2)[..., None])
    pair_weight = (weight[..., :-1, :] + weight[..., 1:, :]) / 2
    step1 = surface[..., 1:, :, :] - surface[..., :-1, :, :]
    main1_steps = _weighted_sum(pair_weight, (step1[..., :, :-1, :] + step1[..., :, 1:, :]) / 2, axis=-2)
    main1 = _steps_to_curve(main1_steps / pair_weight.sum(axis=-1)[..., None])
    surface = surface - main1[..., :, None, :] - main2[..., None, :, :]
    mids = (surface[..., :, :-1, :] + surface[..., :, 1:, :]) / 2
    constant = _weighted_sum(weight, mids, axis=(-3, -2)) / weight.sum(axis=(-2, -1))[..., None]
    return surface - constant[..., None, None, :]


def fill(means: np.ndarray, coords: tuple, row_major: bool) -> np.ndarray:
    """Fill empty cells (NaN) of ``(..., n1, n2, m)`` cell means, replicate by replicate."""
    return _fill_each(means, coords, row_major)
