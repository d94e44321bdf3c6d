"""Partial dependence: the model's predictions with features fixed at grid points.

R's ``PDPlot`` (and iml's PDP/ICE) evaluate the model once per grid point on
the whole data.  Here several grid points share one model call, as long as
the stacked frame stays within a row bound, and the per-point means are
computed from the stacked answer: fewer, larger calls, the same numbers.

A stacked frame repeats the data's index labels (once per grid point), so a
model that returns a pandas answer in another row order (see
:func:`~pyale._core.calls.rows_in_order`) cannot be matched on it; such a
call is asked again one grid point at a time, as R asks, where the labels
are the data's own.
"""

from __future__ import annotations

from typing import Callable

import numpy as np
import pandas as pd

from .calls import ModelCaller, RowOrderError
from .estimate import require_finite_effects
from .shifted import ShiftedFrames

__all__ = ["grid_predictions", "DEFAULT_ROWS_PER_CALL"]

#: Default bound on rows per model call when grid points are stacked.
DEFAULT_ROWS_PER_CALL = 100_000


def grid_predictions(
    frame: pd.DataFrame,
    setters: dict[object, Callable[[np.ndarray], object]],
    n_points: int,
    caller: ModelCaller,
    *,
    rows_per_call: int | None,
    purpose: str,
    average: bool = True,
) -> np.ndarray:
    """Predictions of every row with the feature(s) set to each grid point.

    Parameters
    ----------
    frame : pandas.DataFrame
        The data (never modified).
    setters : dict
        Column label -> function mapping an array of grid-point indices (one
        per stacked row) to that column's new values.
    n_points : int
        Number of grid points.
    caller : ModelCaller
        The model.
    rows_per_call : int or None
        Stack grid points while the stacked frame has at most this many rows
        (at least one point per call); ``None`` stacks all of them.
    purpose : str
        What the predictions are for (error messages).
    average : bool, default True
        Return the mean over rows per grid point, ``(n_points, n_outputs)``;
        otherwise every prediction, ``(n_points, n_rows, n_outputs)``.
    """
    n = frame.shape[0]
    per_call = n_points if rows_per_call is None else max(1, rows_per_call // n)
    pieces = []
    start = 0
    while start < n_points:
        points = np.arange(start, min(n_points, start + per_call))
        try:
            y = _predict_points(frame, setters, points, n_points, caller, purpose)
        except RowOrderError:
            if points.shape[0] == 1:
                raise
            per_call = 1  # one grid point per call from here on: the data's own labels
            continue
        pieces.append(y.mean(axis=1) if average else y)
        start = points[-1] + 1
    if not average:  # predictions, each finite (the caller checks): no copy when there is one piece
        return pieces[0] if len(pieces) == 1 else np.concatenate(pieces, axis=0)
    return require_finite_effects(np.concatenate(pieces, axis=0), f"mean prediction for {purpose}")


def _predict_points(frame, setters, points, n_points, caller, purpose) -> np.ndarray:
    """Predictions ``(len(points), n_rows, n_outputs)`` from one stacked frame."""
    n = frame.shape[0]
    point_of_row = np.repeat(points, n)
    rows = None if points.shape[0] == 1 else np.tile(np.arange(n), points.shape[0])
    stacked, private = ShiftedFrames(frame, rows).frame(
        {name: setter(point_of_row) for name, setter in setters.items()}, last=True
    )
    label = f"{purpose} (grid points {points[0] + 1}..{points[-1] + 1} of {n_points})"
    return caller(stacked, label, private=private).reshape(points.shape[0], n, -1)
