"""iml's second-order ALE: numeric x numeric and numeric x categorical, in either order.

The numbers come from the shared core through :mod:`.run` (iml removes the
same first-order effects and constant as ALEPlot; only the nearest-cell
search is laid out differently).  This module checks the surface's size
and lays it out as iml's ``results``: one row
per grid node with the rectangle around it (``.right``, ``.left``,
``.bottom``, ``.top``, named as iml names them: ``.bottom`` lies above
``.top``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

import math

from .._core.bounds import check_pair_cells, pair_cell_limit
from .tables import class_column, results_frame

__all__ = ["numeric_pair_table", "categorical_pair_table", "check_cells"]


def _half_steps(grid: np.ndarray) -> np.ndarray:
    """Half the distance to each neighbour, with 0 beyond both ends (``K + 2`` values)."""
    padded = np.concatenate(([grid[0]], grid, [grid[-1]]))
    return 0.5 * np.diff(padded)


def _long_surface(effects: np.ndarray, outputs: list, first_sides, second_sides, columns_after) -> pd.DataFrame:
    """Rows output-major, then second axis, then first axis (iml's merge order)."""
    n1, n2, n_outputs = effects.shape
    i1 = np.tile(np.arange(n1), n2 * n_outputs)
    i2 = np.tile(np.repeat(np.arange(n2), n1), n_outputs)
    c = np.repeat(np.arange(n_outputs), n1 * n2)
    out = {".type": np.full(i1.shape[0], "ale", dtype=object)}
    if n_outputs > 1:
        out[".class"] = class_column(outputs, c)
    out[".ale"] = effects[i1, i2, c]
    out[".right"], out[".left"] = first_sides[0][i1], first_sides[1][i1]
    out[".bottom"], out[".top"] = second_sides[0][i2], second_sides[1][i2]
    for name, values, axis in columns_after:
        out[name] = values[i1 if axis == 0 else i2]
    return results_frame(out)


def check_cells(effect_obj, n_rows: int, shape: tuple[int, int], points, features) -> None:
    """Refuse a surface with more cells than pyale computes for the data (see pyale._core.bounds)."""
    user = all(p is not None or f.categorical for p, f in zip(points, features))
    param, value = ("grid_points", None) if user else ("grid_size", effect_obj._grid_size_given)
    limit = pair_cell_limit(n_rows)
    fixed = [s for s, p, f in zip(shape, points, features) if p is not None or f.categorical]
    if user:
        advice = "Pass fewer grid points."
    elif fixed:
        advice = f"Use grid_size <= {max(1, limit // fixed[0]):,} for the numeric feature."
    else:
        advice = f"Use grid_size <= {math.isqrt(limit):,}."
    check_pair_cells(n_rows, shape, param=param, caller="FeatureEffect", features=tuple(f.name for f in features),
                     value=value, advice=advice)


def numeric_pair_table(effect, outputs, name1, name2, edges1, edges2) -> pd.DataFrame:
    """iml's table of a numeric x numeric surface."""
    h1, h2 = _half_steps(edges1), _half_steps(edges2)
    return _long_surface(
        effect.effects, outputs,
        (edges1 + h1[1:], edges1 - h1[:-1]), (edges2 + h2[1:], edges2 - h2[:-1]),
        [(name1, edges1, 0), (name2, edges2, 1)],
    )


def categorical_pair_table(effect, outputs, cat_name, num_name, edges) -> pd.DataFrame:
    """iml's table of a categorical x numeric surface (levels in the order used)."""
    levels = list(effect.grid1)
    n_levels = len(levels)
    position = np.arange(1, n_levels + 1, dtype=float)
    h = _half_steps(edges)
    label_column = pd.Categorical.from_codes(np.arange(n_levels), categories=levels)
    return _long_surface(
        effect.effects, outputs,
        (position + 0.5, position - 0.5), (edges + h[1:], edges - h[:-1]),
        [(num_name, edges, 1), (cat_name, label_column, 0)],
    )
