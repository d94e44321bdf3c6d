"""Each row's local effect of the feature, on a grid fixed from all rows.

The finite differences come from pyale's own map stage (the ALEPlot
convention's :meth:`block_entries`: each row moved to the lower and the
upper edge of its interval, right-closed, the model called on the shifted
copies), so a region's curve is exactly the ALE of its rows on that grid.
The regions are then found and summarised from these numbers alone: no
further model call.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from .._core.calls import predict_variants
from .._core.local import NumericAxis, Plan
from .._rbase import bin_right_closed

__all__ = ["LocalEffects", "uniform_edges", "finite_differences", "LevelEffects", "level_differences",
           "level_predictions"]


@dataclass(frozen=True)
class LocalEffects:
    """The feature's grid and every row's interval and change across it.

    ``differences[i]`` is row i's change of the prediction across its
    interval (``f(upper edge) - f(lower edge)``, the other columns held),
    ``slopes`` the same per unit of the feature.
    """

    name: object
    edges: np.ndarray
    bins: np.ndarray
    differences: np.ndarray
    values: np.ndarray
    weights: np.ndarray | None = None
    #: Equal intervals: every width is taken as ``edges[1] - edges[0]`` (as effector divides), not recomputed
    #: per interval (``linspace`` edges differ from equal spacing in the last bits).
    uniform: bool = False

    @property
    def n_intervals(self) -> int:
        return self.edges.shape[0] - 1

    @property
    def widths(self) -> np.ndarray:
        if self.uniform:
            return np.full(self.n_intervals, self.edges[1] - self.edges[0])
        return np.diff(self.edges)

    @property
    def slopes(self) -> np.ndarray:
        return self.differences / self.widths[self.bins][:, None]


def uniform_edges(values: np.ndarray, n_intervals: int) -> np.ndarray:
    """``n_intervals`` equal intervals over the range of the values (effector's ``Fixed`` grid)."""
    return np.linspace(values.min(), values.max(), n_intervals + 1)


def finite_differences(plan: Plan, frame, caller, *, edges: np.ndarray | None = None,
                       rows_per_call: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(edges, bins, differences)`` of every row of ``frame`` for the numeric plan's feature.

    ``edges`` replaces the plan's grid (it must cover the rows); intervals
    left without rows are allowed (the regions may fill them).
    """
    axis = plan.axes[0]
    if edges is not None:
        values = frame[axis.name].to_numpy(dtype=float)
        bins = bin_right_closed(values, edges)
        occupied = np.bincount(bins, minlength=edges.shape[0] - 1) > 0
        axis = NumericAxis(axis.name, edges, occupied)
        plan = dataclasses.replace(plan, axes=(axis,), empty_intervals="zero")
    entries = plan.convention.block_entries(plan, frame, caller, rows_per_call=rows_per_call)["local"]
    differences = np.empty((frame.shape[0],) + entries.values.shape[1:])
    bins = np.empty(frame.shape[0], dtype=np.int64)
    rows = entries.row_positions()
    differences[rows] = entries.values
    bins[rows] = entries.groups
    return axis.edges, bins, differences


@dataclass(frozen=True)
class LevelEffects:
    """A categorical feature's levels (in the order used) and its local differences, jump by jump.

    Entry ``e`` is row ``rows[e]`` moved across jump ``jumps[e]`` (from
    level ``jumps[e]`` to the next): ``differences[e] = f(upper level) -
    f(lower level)``, the other columns held.  Every row at either level of
    a jump gives one entry for it (ALEPlot's two directions, effector's
    two-sided differences).  ``ranks[i]`` is row i's level (its position in
    ``levels``).
    """

    name: object
    levels: tuple
    ranks: np.ndarray
    rows: np.ndarray
    jumps: np.ndarray
    differences: np.ndarray
    weights: np.ndarray | None = None
    #: A nominal feature's every row predicted at every level, ``(n_rows, n_levels)`` in ``levels`` order
    #: (:func:`level_predictions`): the all-pairs differences its criterion reads.  None for an ordinal one.
    at_levels: np.ndarray | None = None

    @property
    def n_jumps(self) -> int:
        return len(self.levels) - 1

    @property
    def nominal(self) -> bool:
        """Whether the criterion compares every pair of levels (effector's nominal rule)."""
        return self.at_levels is not None


def level_differences(plan: Plan, frame, caller, *, rows_per_call: int | None = None) -> LevelEffects:
    """Every entry of a categorical plan's map stage (the levels in the plan's order)."""
    axis = plan.axes[0]
    entries = plan.convention.block_entries(plan, frame, caller, rows_per_call=rows_per_call)
    local, centre = entries["local"], entries["centre"]
    ranks = np.empty(frame.shape[0], dtype=np.int64)
    ranks[centre.row_positions()] = centre.groups
    levels = tuple(axis.levels[i] for i in axis.order)
    return LevelEffects(axis.name, levels, ranks, local.row_positions(), local.groups, local.values)


def level_predictions(plan: Plan, frame, caller, *, rows_per_call: int | None = None) -> np.ndarray:
    """Every row predicted at every level of a categorical plan's feature: ``(n_rows, n_levels)``.

    Columns follow the plan's level order (``levels`` of :class:`LevelEffects`).
    The difference ``[:, b] - [:, a]`` of a row at level ``a`` or ``b`` is its
    contribution to the pair ``(a, b)`` in effector's nominal criterion
    (``utils.compute_local_effects_level_pairs``, which evaluates the same
    two predictions per pair); one prediction per row and level serves
    every pair.
    """
    axis = plan.axes[0]
    column = frame[axis.name]

    def at_level(rank: int):
        return lambda part: {axis.name: axis.column_values(column, np.full(part.stop - part.start, rank))}

    variants = [(f"{plan.purpose} (rows set to level {axis.levels[axis.order[rank]]!r})", at_level(rank))
                for rank in range(axis.n_levels)]
    # One output (checked on the jumps' differences first): column 0.
    return np.column_stack([y[:, 0] for y in predict_variants(caller, frame, variants, rows_per_call=rows_per_call)])
