"""One ALE estimate: grid -> map over row blocks -> reduce.

:func:`estimate` runs the map stage (:mod:`pyale._core.local`) on every
block of an engine, turns each block's entries into group sums
(:mod:`pyale._core.sums`: weighted, with bootstrap replicates), adds the
blocks up and finishes each effect (:mod:`pyale._core.accumulate`).  Every
front-end (ALEPlot, iml, ``ale()``) and every engine (pandas, Dask, Spark)
goes through here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from . import accumulate
from .bootstrap import CHUNK, BootstrapDraws
from .calls import PredictionError
from .explicit_draws import ExplicitDraws
from .local import LevelAxis, Plan, block_entries, shares_rows
from .shifted import ShiftedFrames
from .sums import GroupSums, group_sums, replicate_sums

__all__ = ["Estimate", "estimate", "finish", "require_finite_effects"]


@dataclass(frozen=True)
class Estimate:
    """The numbers behind one effect.

    Attributes
    ----------
    plan : Plan
        The axes and options.
    effects : numpy.ndarray
        Centred effect at every grid node: ``(K + 1, m)`` numeric, ``(L, m)``
        categorical (levels in the order used), ``(K1 + 1, K2 + 1, m)`` or
        ``(L, K2 + 1, m)`` for pairs.
    counts : numpy.ndarray
        The weights used for centring: rows per interval, level (in the
        order used) or cell; sums of ``sample_weight`` when given.
    local_effects : numpy.ndarray
        Mean local effect per interval, level jump or cell (pairs: after
        filling empty cells).
    local_sd : numpy.ndarray
        Weighted standard deviation (``sqrt(sum w (d - mean)^2 / sum w)``)
        of the individual local differences per interval, jump or cell (NaN
        where empty); None unless the plan asked for it (``spread``).
    empty_cells : numpy.ndarray or None
        Pairs: the cells without rows, filled from the nearest non-empty cell.
    replicates : numpy.ndarray or None
        ``(B,) + effects.shape``: the effect in each bootstrap replicate.
    replicate_counts : numpy.ndarray or None
        ``(B,) + counts.shape``.
    """

    plan: Plan
    effects: np.ndarray
    counts: np.ndarray
    local_effects: np.ndarray
    local_sd: np.ndarray | None
    empty_cells: np.ndarray | None = None
    replicates: np.ndarray | None = None
    replicate_counts: np.ndarray | None = None

    @property
    def heterogeneity(self) -> np.ndarray:
        """``local_sd`` placed at grid nodes (the shape of ``effects``).

        The value at a node is the spread of the individual local differences
        across the interval (level jump, cell) that ends at that node; NaN at
        the first node of each axis, where no interval ends.
        """
        out = np.full(self.effects.shape, np.nan)
        if self.local_sd is None:
            return None
        if self.local_sd.ndim == 2:
            out[1:] = self.local_sd
        else:
            out[1:, 1:] = self.local_sd
        return out


def _block_counts(draws: BootstrapDraws, offset: int, n: int, chunk_weights: Callable | None,
                  block_weights: np.ndarray | None = None):
    """``(start, stop, replicates, counts)`` pieces for the block rows ``offset .. offset + n - 1``.

    Weighted draws need the weights of a whole chunk: the block's own
    ``block_weights`` for a chunk inside the block, ``chunk_weights(chunk)``
    for one that the block shares with others.
    """
    if n == 0:
        return
    if isinstance(draws, ExplicitDraws):  # given replicates are read group after group, in one pass
        yield from draws.block_counts(offset, n)
        return
    for chunk in range(offset // CHUNK, (offset + n - 1) // CHUNK + 1):
        lo = chunk * CHUNK
        size = min(CHUNK, draws.n_rows - lo)
        a, b = max(lo, offset), min(lo + size, offset + n)
        if not draws.weighted:
            weights = None
        elif block_weights is not None and lo >= offset and lo + size <= offset + n:
            weights = block_weights[lo - offset : lo - offset + size]
        else:
            weights = chunk_weights(chunk)
        for replicates, counts in draws.chunk_counts(chunk, weights):
            yield a - offset, b - offset, replicates, counts[a - lo : b - lo]


def block_sums(
    plans: list[Plan],
    caller,
    *,
    weights: Callable | None = None,
    draws: BootstrapDraws | None = None,
    chunk_weights: Callable | None = None,
    rows_per_call: int | None = None,
    weight_column=None,
) -> Callable:
    """The map function: ``func(block, offset) -> [ {set name: GroupSums} per plan ]``.

    ``weights(block, offset)`` gives the block's row weights (None: all 1),
    or ``weight_column`` names the column of the blocks that holds them (it
    is dropped before the model sees the rows); ``chunk_weights(chunk)`` the
    weights of a whole bootstrap chunk (weighted resampling; chunks inside
    a block take the block's own weights).
    """

    sharing = [i for i, plan in enumerate(plans) if shares_rows(plan)]

    def func(block, offset):
        if weight_column is not None:
            w = block[weight_column].to_numpy(dtype=float, na_value=np.nan)
            block = block.drop(columns=[weight_column])
        else:
            w = None if weights is None else np.asarray(weights(block, offset), dtype=float)
        # Effects that predict every row share one private copy of the block's rows.
        frames = ShiftedFrames(block)
        per_plan = [
            block_entries(plan, block, caller, rows_per_call=rows_per_call,
                          shared=(frames, i == sharing[-1]) if i in sharing else None)
            for i, plan in enumerate(plans)
        ]
        del frames
        out = []
        for plan, entries in zip(plans, per_plan):
            out.append({
                name: group_sums(e.groups, e.n_groups, e.values,
                                 None if w is None else (w if e.rows is None else w[e.rows]), spread=plan.spread,
                                 counts=e.counts)
                for name, e in entries.items()
            })
        if draws is not None:
            flat = [(i, name, e) for i, entries in enumerate(per_plan) for name, e in entries.items()]
            pieces = _block_counts(draws, offset, block.shape[0], chunk_weights, w)
            sums = replicate_sums([e for _, _, e in flat], pieces, draws.n_replicates)
            for (i, name, _), (rep_weight, rep_total) in zip(flat, sums):
                out[i][name].replicate_weight = rep_weight
                out[i][name].replicate_total = rep_total
        return out

    return func


def estimate(
    engine,
    plans: list[Plan],
    caller,
    *,
    weights: Callable | None = None,
    draws: BootstrapDraws | None = None,
    chunk_weights: Callable | None = None,
    rows_per_call: int | None = None,
    weight_column=None,
    columns=None,
) -> list[Estimate]:
    """Estimate every plan in one pass over the engine's blocks.

    ``columns`` (with ``weight_column``, if any) are the columns the blocks
    must hold (the model's columns); None: all.
    """
    func = block_sums(plans, caller, weights=weights, draws=draws, chunk_weights=chunk_weights,
                      rows_per_call=rows_per_call, weight_column=weight_column)
    totals = engine.map_reduce(func, columns=columns)
    return [finish(plan, sums) for plan, sums in zip(plans, totals)]


def require_finite_effects(effects: np.ndarray, what: str) -> np.ndarray:
    """Return ``effects``, raising ``PredictionError`` when any is NaN or infinite.

    Every prediction is finite (the model caller checks), so a non-finite
    effect means that differences or sums of predictions overflowed float64
    (predictions near 1e308); R would return NaN or Inf there.
    """
    if not np.isfinite(effects).all():
        raise PredictionError(
            f"The {what} is not finite: differences or sums of the model's predictions overflow "
            "float64 (the predictions are too close to +-1.8e308). Rescale the model's output."
        )
    return effects


def _empty_interval_error(plan: Plan, k: int) -> ValueError:
    axis = plan.axes[0]
    return ValueError(
        f"Interval ({float(axis.edges[k])!r}, {float(axis.edges[k + 1])!r}] of column {axis.name!r} "
        "holds no row; ALE needs at least one row per interval."
    )


def _sd(sums: GroupSums) -> np.ndarray | None:
    if sums.spread is None or sums.total is None:
        return None
    with np.errstate(invalid="ignore", divide="ignore"):
        w = sums.weight[:, None]
        return np.where(w > 0, np.sqrt(np.maximum(sums.spread, 0.0) / np.where(w > 0, w, 1.0)), np.nan)


def _replicate_local(sums: GroupSums, full: np.ndarray) -> np.ndarray | None:
    """Replicates' local means; a group no drawn row falls into keeps the full data's mean."""
    if sums.replicate_total is None:
        return None
    local = accumulate.local_means(sums.replicate_total, sums.replicate_weight)
    return np.where(np.isnan(local), full, local)


def _replicate_weights(replicate: np.ndarray, full: np.ndarray) -> np.ndarray:
    """Replicates' cell weights for centring a pair, a row or column without any drawn row
    taking the full data's weights (its first-order step is otherwise undefined)."""
    out = np.array(replicate, copy=True)
    empty_rows = out.sum(axis=-1) == 0  # (B, n1)
    if empty_rows.any():
        b, i = np.nonzero(empty_rows)
        out[b, i, :] = full[i, :]
    empty_columns = out.sum(axis=-2) == 0  # (B, n2)
    if empty_columns.any():
        b, j = np.nonzero(empty_columns)
        out[b, :, j] = full[:, j].T
    return out


def finish(plan: Plan, sums: dict) -> Estimate:
    """Turn the summed blocks of one plan into its centred effect (and replicates)."""
    if plan.rules == "ale":
        from .ale_accumulate import finish as ale_finish

        return ale_finish(plan, sums)
    local_sums = sums["local"]
    kind = plan.kind
    local = accumulate.local_means(local_sums.total, local_sums.weight)
    sd = _sd(local_sums)
    replicates = replicate_counts = None
    if kind in ("numeric", "categorical"):
        empty = local_sums.weight == 0
        if empty.any():
            if kind == "numeric" and plan.empty_intervals == "error":
                raise _empty_interval_error(plan, int(np.flatnonzero(empty)[0]))
            local = np.where(empty[:, None], 0.0, local)
        curve = accumulate.main_curve(local)
        centre_sums = local_sums if kind == "numeric" else sums["centre"]
        centre = accumulate.numeric_centre if kind == "numeric" else accumulate.level_centre
        effects = centre(curve, centre_sums.weight)
        rep_local = _replicate_local(local_sums, local)
        if rep_local is not None:
            replicate_counts = centre_sums.replicate_weight
            replicates = centre(accumulate.main_curve(rep_local), replicate_counts)
        require_finite_effects(effects, plan.purpose)
        return Estimate(plan, effects, _counts(centre_sums), local, sd, None, replicates, replicate_counts)

    first, second = plan.axes
    row_major = plan.imputation == "iml"
    coord2 = accumulate.mid_scaled(second.edges, plan.imputation)
    if isinstance(first, LevelAxis):
        shape = (first.n_levels - 1, second.n_intervals)
        coord1 = np.arange(1, first.n_levels) / (first.n_levels - 1)
        centre_sums = sums["centre"]
        centre_shape = (first.n_levels, second.n_intervals)
        surface = accumulate.categorical_pair_surface
    else:
        shape = (first.n_intervals, second.n_intervals)
        coord1 = accumulate.mid_scaled(first.edges, plan.imputation)
        centre_sums = local_sums
        centre_shape = shape
        surface = accumulate.pair_surface
    m = local.shape[-1]
    means = local.reshape(shape + (m,))
    empty = (local_sums.weight == 0).reshape(shape)
    filled = accumulate.fill(means, (coord1, coord2), row_major)
    effects = surface(filled, centre_sums.weight.reshape(centre_shape))
    if local_sums.replicate_total is not None:
        B = local_sums.replicate_total.shape[0]
        rep_means = accumulate.local_means(local_sums.replicate_total, local_sums.replicate_weight)
        rep_filled = accumulate.fill(rep_means.reshape((B,) + shape + (m,)), (coord1, coord2), row_major)
        replicate_counts = centre_sums.replicate_weight.reshape((B,) + centre_shape)
        weights = _replicate_weights(replicate_counts, centre_sums.weight.reshape(centre_shape))
        replicates = surface(rep_filled, weights)
    counts = _counts(centre_sums).reshape(centre_shape)
    sd = None if sd is None else sd.reshape(shape + (m,))
    require_finite_effects(effects, plan.purpose)
    return Estimate(plan, effects, counts, filled, sd, empty, replicates, replicate_counts)


def _counts(sums: GroupSums) -> np.ndarray:
    """Rows per group (integers) without weights, the weight sums otherwise."""
    if np.array_equal(sums.weight, sums.rows):
        return sums.rows.astype(np.int64)
    return sums.weight
