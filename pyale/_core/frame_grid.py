"""The grid stage on a pandas frame: :class:`~.engine_grid.EngineData`'s questions, answered from whole columns.

A front-end builds its plans through one data object, whichever way the
rows are held: :class:`FrameData` for a pandas DataFrame, and
:class:`~pyale._core.engine_grid.EngineData` for a Dask or Spark one.  Both
answer the same questions (a column read as a feature, its range, the
rows per level, the convention's interval edges, a level order, the
plan's axes, the rows the estimator passes over); here each answer is a whole-column NumPy
computation (:mod:`.features`, :mod:`.grid`, :mod:`.levels`), the one the
pandas path has always made, so the numbers and the speed are those of
reading the frame directly.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from .._engines.pandas import PandasEngine
from .._rbase import level_counts
from .conventions import Convention
from .features import Feature, read_feature
from .grid import resolve_level_order
from .local import LevelAxis, NumericAxis
from .main_effect import level_axis, numeric_axis

__all__ = ["FrameData"]


class FrameData:
    """A pandas frame's rows as the grid stage sees them (the in-memory :class:`~.engine_grid.EngineData`).

    Parameters
    ----------
    frame : pandas.DataFrame
        The model's columns (never modified).
    caller : str
        The public function, for messages.
    """

    in_memory = True
    weight = None
    keep = None
    filtered = False
    equal_weights = True

    def __init__(self, frame: pd.DataFrame, *, caller: str):
        self.frame, self.caller = frame, caller
        self.engine = self.rows = PandasEngine(frame)
        self.columns = list(frame.columns)
        self._spans: dict = {}

    # -- facts
    @property
    def schema(self) -> pd.DataFrame:
        """The frame itself (for resolving labels)."""
        return self.frame

    @property
    def n_rows(self) -> int:
        return self.frame.shape[0]

    # -- features
    def feature(self, name, label: str) -> Feature:
        """The column ``name`` read by :func:`~pyale._core.features.read_feature` (``label`` opens its messages)."""
        feature = read_feature(self.frame[name], label=label)
        if not feature.categorical:
            self._spans[name] = feature.span
        return feature

    def value_range(self, name) -> tuple[float, float]:
        """Minimum and maximum of a numeric feature already read by :meth:`feature`."""
        return self._spans[name]

    def level_counts(self, feature: Feature) -> np.ndarray:
        """Rows per level of a categorical feature (R's ``table``), from its codes."""
        return level_counts(feature.codes, len(feature.levels))

    # -- numeric edges
    def edges(self, features: Sequence[Feature], convention: Convention, n_intervals: int, *,
              param: str) -> dict:
        """The convention's interval edges of numeric features (name -> edges)."""
        return {f.name: convention.edges(f.values, n_intervals, integer=f.integer) for f in features}

    # -- levels
    def level_order(self, feature: Feature, requested, *, caller: str,
                    failure: str = "R's ALEPlot stops with an error here",
                    hint: str = "; pass level_order= to choose another", stacklevel: int = 4) -> np.ndarray:
        """:func:`~pyale._core.grid.resolve_level_order` on the whole frame."""
        return resolve_level_order(self.frame, feature, requested, caller=caller, failure=failure, hint=hint,
                                   stacklevel=stacklevel)

    # -- axes
    def numeric_axis(self, feature: Feature, edges: np.ndarray) -> NumericAxis:
        """The axis with its bins and counts computed once (:func:`~pyale._core.main_effect.numeric_axis`)."""
        return numeric_axis(self.frame, feature, edges)

    def level_axis(self, feature: Feature, order: np.ndarray) -> LevelAxis:
        return level_axis(self.frame, feature, order)
