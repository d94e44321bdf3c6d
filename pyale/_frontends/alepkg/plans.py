"""``pyale.ale(conventions="ale")``: one feature or pair as a plan under R's ale rules.

The Pythonic door builds the same core plans as :class:`pyale.ALE`, so the
effects are the same numbers; only the arguments are pyale's:
``n_intervals`` is ale's ``max_num_bins - 1`` (ALEPlot's K), and
``level_order`` may impose a categorical feature's order.
"""

from __future__ import annotations

import numpy as np

from ..._core.conventions.alepkg import ALE_PACKAGE, AleLevelAxis
from ..._core.grid.bounds import check_pair_cells
from ..._core.grid.edges import resolve_level_order
from ..._core.grid.features import read_feature
from ..._core.map.local import Plan
from .axes import AleAxisInfo, ale_axis
from .tables import r_level_labels

__all__ = ["DEFAULT_INTERVALS", "ale_plan", "check_ale_options", "result_kind"]

#: ale's default max_num_bins = 10, i.e. 9 intervals.
DEFAULT_INTERVALS = 9


def result_kind(ale_type: str) -> str:
    """An axis of :class:`pyale.ALEResult`: numeric, or categorical (binary, categorical, ordinal)."""
    return "numeric" if ale_type == "numeric" else "categorical"


def check_ale_options(grid, weights, *, caller: str) -> None:
    """Refuse the options of ``pyale.ale`` that R's ale rules have no place for."""
    if grid is not None:
        raise ValueError(f"The 'grid' parameter of {caller} is not used under conventions='ale' (ale's bins come "
                         "from max_num_bins: pass n_intervals = max_num_bins - 1).")
    if weights is not None:
        raise ValueError(f"The 'sample_weight' parameter of {caller} is not supported under conventions='ale'.")


def ale_plan(X, entry: tuple, n_intervals: int | None, level_order, *, caller: str) -> tuple:
    """``(names, kind, Plan)`` of one requested feature or pair (either order, any types)."""
    max_num_bins = (DEFAULT_INTERVALS if n_intervals is None else n_intervals) + 1
    infos = [ale_axis(X, name, max_num_bins, caller=caller) for name in entry]
    if level_order is not None:
        targets = [i for i, info in enumerate(infos) if info.ale_type in ("categorical", "ordinal")]
        if not targets:
            raise ValueError(
                f"The 'level_order' parameter of {caller} applies to a categorical feature; "
                f"{', '.join(repr(n) for n in entry)} {'is' if len(entry) == 1 else 'are'} not categorical "
                "(binary features keep their two values in sorted order).")
        i = targets[0]
        feature = read_feature(X[entry[i]], label=f"Column {entry[i]!r}")
        order = resolve_level_order(X, feature, level_order, caller=caller)
        old = infos[i].axis
        levels = [old.levels[k] for k in order]
        infos[i] = AleAxisInfo(infos[i].name, infos[i].ale_type,
                               AleLevelAxis(old.name, old.levels, np.asarray(order, dtype=np.int64),
                                            known=old.known, ale_type=old.ale_type),
                               tuple(levels), tuple(r_level_labels(levels)))
    if len(entry) == 2:
        shape = tuple(info.axis.n_bins for info in infos)
        check_pair_cells(X.shape[0], shape, param="n_intervals", caller=caller, features=tuple(entry),
                         value=n_intervals, advice="Use a smaller n_intervals.")
    kind = " x ".join(result_kind(info.ale_type) for info in infos)
    return tuple(entry), kind, Plan(tuple(info.axis for info in infos), ALE_PACKAGE, spread=True)
