"""Second-order ALE of one in-memory frame: numeric x numeric and categorical x numeric pairs.

Thin entry points for the front-ends (see :mod:`pyale._core.main_effect`):
the estimator itself is :func:`pyale._core.estimate.estimate`; the centring
follows ALEPlot 1.1 (iml 0.11.4 removes the same first-order effects and
constant; :data:`~pyale._core.conventions.IML` changes only the nearest-cell search).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._engines.pandas import PandasEngine
from .conventions import ALEPLOT, Convention
from .estimate import Estimate, estimate
from .features import Feature
from .local import Plan
from .main_effect import level_axis, numeric_axis

__all__ = ["PairEffect", "numeric_pair_effect", "categorical_numeric_pair_effect"]


@dataclass(frozen=True)
class PairEffect:
    """The numbers behind a two-feature ALE surface.

    Attributes
    ----------
    grid1, grid2 : numpy.ndarray or tuple
        Edges (numeric) or level labels in the order used (categorical,
        first feature only).
    effects : numpy.ndarray
        Centred second-order effect at each grid node, ``(len(grid1), len(grid2), n_outputs)``.
    counts : numpy.ndarray
        Rows per cell (rows follow the first feature; for a categorical first
        feature, per level in the order used).
    empty_cells : numpy.ndarray
        Boolean mask of the cells whose local effect had to be borrowed
        from the nearest non-empty cell (level jumps x intervals for a
        categorical first feature).
    local_effects : numpy.ndarray
        Mean second-order difference per cell after filling.
    level_order : numpy.ndarray or None
        Indices into the first feature's levels (categorical first feature).
    estimate : Estimate or None
        Everything the estimator computed.
    """

    grid1: object
    grid2: np.ndarray
    effects: np.ndarray
    counts: np.ndarray
    empty_cells: np.ndarray
    local_effects: np.ndarray
    level_order: np.ndarray | None = None
    estimate: Estimate | None = None


def numeric_pair_effect(
    frame: pd.DataFrame,
    first: Feature,
    second: Feature,
    edges1: np.ndarray,
    edges2: np.ndarray,
    caller,
    *,
    convention: Convention = ALEPLOT,
    rows_per_call: int | None = None,
) -> PairEffect:
    """Second-order ALE of two numeric features.

    Every row is moved to the four corners of its cell; the second-order
    difference is averaged per cell, empty cells borrow the nearest
    non-empty cell's mean, the means are accumulated over both axes, and the
    count-weighted first-order effects and a count-weighted constant are
    removed.  Rows outside either grid are left out.
    """
    plan = Plan((numeric_axis(frame, first, edges1), numeric_axis(frame, second, edges2)), convention)
    (result,) = estimate(PandasEngine(frame), [plan], caller, rows_per_call=rows_per_call)
    return PairEffect(grid1=edges1, grid2=edges2, effects=result.effects, counts=result.counts,
                      empty_cells=result.empty_cells, local_effects=result.local_effects, estimate=result)


def categorical_numeric_pair_effect(
    frame: pd.DataFrame,
    first: Feature,
    level_order: np.ndarray,
    second: Feature,
    edges2: np.ndarray,
    caller,
    *,
    convention: Convention = ALEPLOT,
    rows_per_call: int | None = None,
) -> PairEffect:
    """Second-order ALE of a categorical (first) and a numeric (second) feature, as ALEPlot 1.1.

    Rows below the highest level jump one level up, rows above the lowest
    jump one level down; each jump is crossed with the row's numeric
    interval, both directions are averaged per (jump, interval) cell, empty
    cells borrow from the nearest non-empty cell (level axis scaled by the
    number of jumps), and the surface over (level, edge) nodes is
    accumulated and centred with level-averaged counts.
    """
    plan = Plan((level_axis(frame, first, level_order), numeric_axis(frame, second, edges2)), convention)
    (result,) = estimate(PandasEngine(frame), [plan], caller, rows_per_call=rows_per_call)
    return PairEffect(
        grid1=tuple(first.levels[i] for i in level_order), grid2=edges2, effects=result.effects,
        counts=result.counts, empty_cells=result.empty_cells, local_effects=result.local_effects,
        level_order=level_order, estimate=result,
    )
