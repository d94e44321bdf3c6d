"""One ALE estimate: grid -> map over row blocks -> reduce.

:func:`estimate` runs the map stage (each plan's convention's
:meth:`~pyale._core.conventions.base.Convention.block_entries`) on every
block of an engine, turns each block's entries into group sums
(:mod:`pyale._core.map.sums`: weighted, with bootstrap replicates), adds the
blocks up and finishes each effect (the convention's
:meth:`~pyale._core.conventions.base.Convention.finish`).  Every front-end
(ALEPlot, iml, ``ale()``, ``ALE``) and every engine (pandas, Dask, Spark)
goes through here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..map.bootstrap import CHUNK, BootstrapDraws
from ..map.calls import PredictionError
from ..map.explicit_draws import ExplicitDraws
from ..map.local import Plan
from ..map.segment_draws import SegmentDraws
from ..map.shifted import ShiftedFrames
from ..map.sums import group_sums, replicate_sums

__all__ = ["Estimate", "estimate", "require_finite_effects"]


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
    if isinstance(draws, (ExplicitDraws, SegmentDraws)):  # given replicates: group after group, in one pass
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

    sharing = [i for i, plan in enumerate(plans) if plan.convention.shares_rows(plan)]

    def func(block, offset):
        if weight_column is not None:
            w = block[weight_column].to_numpy(dtype=float, na_value=np.nan)
            block = block.drop(columns=[weight_column])
        else:
            w = None if weights is None else np.asarray(weights(block, offset), dtype=float)
        # Effects that predict every row share one private copy of the block's rows.
        frames = ShiftedFrames(block) if sharing else None
        per_plan = [
            plan.convention.block_entries(plan, block, caller, rows_per_call=rows_per_call,
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
    return [plan.convention.finish(plan, sums) for plan, sums in zip(plans, totals)]


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
