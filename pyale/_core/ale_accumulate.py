"""The reduce stage under R's ``ale`` 0.5.0 rules (plans with ``rules="ale"``).

From the bins' (cells') sums of local differences to ale's centred curves,
for the full data and every bootstrap replicate at once
(docs/ale-package.md, sections 4-6):

* local effect of a bin = mean difference of its rows, NaN where it has
  none; a numeric feature's bin 0 (the minimum) is exactly 0;
* accumulation: cumulative sum (numeric, categorical, ordinal; a NaN bin
  makes it and every later bin NaN), none for binary features; two features:
  empty cells filled by ale's *intrapolation*, the rest with 0, then a
  cumulative sum over both axes;
* centring with the full data's constant (replicates are not re-centred):
  numeric, the interval-count-weighted mean of the interval mid-values
  (the minimum's rows counted in the first interval); other types, the
  level-count-weighted mean; two features, the row and column parts and a
  constant of section 5.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .accumulate import local_means
from .estimate import Estimate, require_finite_effects

__all__ = ["AleEstimate", "finish", "intrapolate", "interval_counts"]


@dataclass(frozen=True)
class AleEstimate(Estimate):
    """:class:`~pyale._core.estimate.Estimate` with ale's bins.

    ``effects`` has one value per bin (cell); ``counts`` and
    ``replicate_counts`` are per interval along numeric axes (the minimum's
    bin merged into the next, as ale weights its statistics), per level
    otherwise.

    Attributes
    ----------
    bin_counts : numpy.ndarray
        Rows per bin (cell): ale's ``.n``.
    replicate_bin_counts : numpy.ndarray or None
        ``(B,) + bin_counts.shape``: the rows of each replicate per bin.
    """

    bin_counts: np.ndarray | None = None
    replicate_bin_counts: np.ndarray | None = None

    @property
    def heterogeneity(self) -> np.ndarray | None:
        """``local_sd`` per bin, NaN in the first bin of each axis (where rows do not move)."""
        if self.local_sd is None:
            return None
        out = np.array(self.local_sd, dtype=float, copy=True)
        out[0] = np.nan
        if out.ndim == 3:
            out[:, 0] = np.nan
        return out


def interval_counts(counts: np.ndarray, numeric: tuple[bool, ...]) -> np.ndarray:
    """Merge the first bin of every numeric axis into the second (ALEPlot's interval counts).

    ``counts`` has the bins' shape, optionally after leading axes.
    """
    out = np.asarray(counts)
    first = out.ndim - len(numeric)
    for axis, is_numeric in enumerate(numeric):
        if not is_numeric or out.shape[first + axis] < 2:
            continue
        position = first + axis
        head = np.take(out, [0], axis=position) + np.take(out, [1], axis=position)
        out = np.concatenate([head, np.take(out, np.arange(2, out.shape[position]), axis=position)], axis=position)
    return out


def _curve(local: np.ndarray, ale_type: str) -> np.ndarray:
    """Accumulate ``(..., bins, m)`` local effects along the bin axis."""
    local = np.array(local, copy=True)
    if ale_type == "numeric":
        local[..., 0, :] = 0.0
    if ale_type == "binary":
        return local
    return np.cumsum(local, axis=-2)


def _shift_1d(curve: np.ndarray, counts: np.ndarray, ale_type: str) -> np.ndarray:
    """The full data's centring constant per output: ``(m,)``."""
    n = counts.astype(float)
    if ale_type == "numeric":
        w = interval_counts(n, (True,))
        mids = (curve[:-1] + curve[1:]) / 2
        return (mids * w[:, None]).sum(axis=0) / w.sum()
    return (curve * n[:, None]).sum(axis=0) / n.sum()


def _lines(shape: tuple[int, int]) -> list[list[tuple[int, int]]]:
    """Every row, column, NW-SE and SW-NE diagonal of a grid, as lists of cells."""
    m, n = shape
    out = [[(i, j) for j in range(n)] for i in range(m)]
    out += [[(i, j) for i in range(m)] for j in range(n)]
    out += [[(i, i - d) for i in range(m) if 0 <= i - d < n] for d in range(-(n - 1), m)]
    out += [[(i, s - i) for i in range(m - 1, -1, -1) if 0 <= s - i < n] for s in range(m + n - 1)]
    return [cells for cells in out if len(cells) >= 3]


def _segments(empty: np.ndarray):
    """For one pattern of empty cells: (target, start, end, step, steps) of every interpolation."""
    target, start, end, step, steps = [], [], [], [], []
    for cells in _lines(empty.shape):
        known = [t for t, c in enumerate(cells) if not empty[c]]
        for a, b in zip(known[:-1], known[1:]):
            for t in range(a + 1, b):
                target.append(cells[t])
                start.append(cells[a])
                end.append(cells[b])
                step.append(t - a)
                steps.append(b - a)
    return target, start, end, np.asarray(step, dtype=float), np.asarray(steps, dtype=float)


def intrapolate(local: np.ndarray) -> np.ndarray:
    """ale's filling of empty cells (NaN) of ``(..., m_a, m_b, m)`` cell means.

    Where a cell outside the first row and column is empty, every empty cell
    takes the mean of the linear interpolations (R's ``seq(from, to,
    length.out)``) between the nearest filled cells on both sides along its
    row, its column and its two diagonals; cells still empty, and all empty
    cells otherwise, become 0.  Leading axes (replicates) are filled one
    pattern of empty cells at a time.
    """
    out = np.array(local, dtype=float, copy=True)
    shape = out.shape
    flat = out.reshape((-1,) + shape[-3:])
    empty = np.isnan(flat[..., 0])
    patterns: dict[bytes, list[int]] = {}
    for r in range(flat.shape[0]):
        if empty[r, 1:, 1:].any():
            patterns.setdefault(empty[r].tobytes(), []).append(r)
    for members in patterns.values():
        target, start, end, step, steps = _segments(empty[members[0]])
        if not target:
            continue
        reps = np.asarray(members)
        ti, tj = np.array(target).T
        si, sj = np.array(start).T
        ei, ej = np.array(end).T
        origin = flat[reps][:, si, sj, :]
        finish = flat[reps][:, ei, ej, :]
        by = (finish - origin) / steps[None, :, None]
        values = np.where(origin == finish, origin, origin + step[None, :, None] * by)
        sums = np.zeros((reps.shape[0],) + shape[-3:])
        hits = np.zeros(shape[-3:-1])
        np.add.at(sums, (slice(None), ti, tj), values)
        np.add.at(hits, (ti, tj), 1.0)
        filled = hits > 0
        block = flat[reps]
        block[:, filled, :] = sums[:, filled, :] / hits[filled][None, :, None]
        flat[reps] = block
    flat[np.isnan(flat)] = 0.0
    return flat.reshape(shape)


def _cumulate(filled: np.ndarray) -> np.ndarray:
    return np.cumsum(np.cumsum(filled, axis=-3), axis=-2)


def _pair_parts(curve: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """ale's 2-D centring: row part + column part + constant, ``(m_a, m_b, m)`` (section 5)."""
    n = counts.astype(float)[..., None]
    m_a, m_b = counts.shape
    pa = np.r_[0, np.arange(m_a - 1)]
    pb = np.r_[0, np.arange(m_b - 1)]
    down = curve[1:] - curve[:-1]  # (m_a - 1, m_b, m)
    rows = np.concatenate([np.zeros((1, curve.shape[-1])),
                           np.cumsum((n[1:] * (down[:, pb] + down) / 2).sum(axis=1) / n[1:].sum(axis=1), axis=0)])
    across = curve[:, 1:] - curve[:, :-1]  # (m_a, m_b - 1, m)
    columns = np.concatenate([np.zeros((1, curve.shape[-1])),
                              np.cumsum((n[:, 1:] * (across[pa] + across) / 2).sum(axis=0)
                                        / n[:, 1:].sum(axis=0), axis=0)])
    distinct = curve - rows[:, None, :] - columns[None, :, :]
    corners = (distinct[np.ix_(pa, pb)] + distinct[pa] + distinct[:, pb] + distinct) / 4
    constant = (n * corners).sum(axis=(0, 1)) / n.sum()
    return rows[:, None, :] + columns[None, :, :] + constant


def finish(plan, sums: dict) -> AleEstimate:
    """The centred curve (and replicates) of one plan with ``rules="ale"``."""
    local_sums = sums["local"]
    axes = plan.axes
    shape = tuple(axis.n_bins for axis in axes)
    numeric = tuple(axis.ale_type == "numeric" for axis in axes)
    width = local_sums.total.shape[-1]
    local = local_means(local_sums.total, local_sums.weight).reshape(shape + (width,))
    bin_counts = local_sums.rows.reshape(shape).astype(np.int64)
    sd = None
    if local_sums.spread is not None:
        with np.errstate(invalid="ignore", divide="ignore"):
            w = local_sums.weight[:, None]
            sd = np.where(w > 0, np.sqrt(np.maximum(local_sums.spread, 0.0) / np.where(w > 0, w, 1.0)), np.nan)
        sd = sd.reshape(shape + (width,))
    replicates = rep_counts = rep_bins = None
    rep_local = None
    if local_sums.replicate_total is not None:
        b = local_sums.replicate_total.shape[0]
        rep_local = local_means(local_sums.replicate_total, local_sums.replicate_weight)
        rep_local = rep_local.reshape((b,) + shape + (width,))
        rep_bins = local_sums.replicate_weight.reshape((b,) + shape)
        rep_counts = interval_counts(rep_bins, numeric)
    empty = None
    if len(axes) == 1:
        ale_type = axes[0].ale_type
        curve = _curve(local, ale_type)
        shift = _shift_1d(curve, bin_counts, ale_type)
        effects = curve - shift
        filled = local
        if rep_local is not None:
            replicates = _curve(rep_local, ale_type) - shift
    else:
        empty = bin_counts == 0
        filled = intrapolate(local)
        curve = _cumulate(filled)
        parts = _pair_parts(curve, bin_counts)
        effects = curve - parts
        if rep_local is not None:
            replicates = _cumulate(intrapolate(rep_local)) - parts
    require_finite_effects(effects, plan.purpose)
    return AleEstimate(plan, effects, interval_counts(bin_counts, numeric), filled, sd, empty, replicates,
                       rep_counts, bin_counts=bin_counts, replicate_bin_counts=rep_bins)
