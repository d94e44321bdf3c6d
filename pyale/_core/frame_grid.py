"""The grid stage on a pandas frame: :class:`~.engine_grid.EngineData`'s questions, answered from whole columns.

A front-end builds its plans through one data object, whichever way the
rows are held: :class:`FrameData` for a pandas DataFrame, and
:class:`~pyale._core.engine_grid.EngineData` for a Dask, Spark or polars
lazy one.  Both answer the same questions (a column read as a feature, its
range, the rows per level, the convention's interval edges, the rows per
interval of a user grid, a level order, the plan's axes, the rows and
weights the estimator passes over, the bootstrap chunks' weights); here
each answer is a whole-column NumPy computation (:mod:`.features`,
:mod:`.grid`, :mod:`.levels`, :func:`~.conventions.weighted_edges`), the
one the pandas path has always made, so the numbers and the speed are those
of reading the frame directly.  Frequency weights are an array beside the
frame (all positive: the front-end drops rows of weight 0 first), not a
column of it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

import numpy as np
import pandas as pd

from .._engines.pandas import PandasEngine
from .._rbase import level_counts
from .bootstrap import CHUNK
from .conventions import Convention, weighted_edges
from .engine_grid import interval_counts
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
    weights : numpy.ndarray, optional
        One positive frequency weight per row (rows of weight 0 already
        dropped by the front-end); None: every row weighs 1.
    """

    in_memory = True
    weight = None  # no weight column: the weights, if any, are an array beside the frame
    keep = None
    filtered = False

    def __init__(self, frame: pd.DataFrame, *, caller: str, weights: np.ndarray | None = None):
        self.frame, self.caller, self.weights = frame, caller, weights
        self.engine = self.rows = PandasEngine(frame)
        self.columns = list(frame.columns)
        self._spans: dict = {}

    def checks(self, names: Sequence) -> dict:
        """Nothing to check ahead: a pandas column is read whole when it is asked for (:meth:`feature`)."""
        return {}

    # -- weights
    @property
    def equal_weights(self) -> bool:
        """Whether every row weighs the same (resampled uniformly, as without weights)."""
        w = self.weights
        return w is None or bool(np.all(w == w[0]))

    @property
    def block_weights(self):
        """``weights(block, offset)`` for the estimator (None: every row weighs 1)."""
        return None if self.weights is None else _Slice(self.weights)

    def chunk_weights(self) -> tuple[np.ndarray, "_Chunk"]:
        """Every bootstrap chunk's total weight, and ``chunk -> weights`` of a chunk (weighted draws)."""
        w = self.weights
        return np.add.reduceat(w, np.arange(0, w.shape[0], CHUNK)), _Chunk(w)

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
        """The convention's interval edges of numeric features (name -> edges), weighted when weights are given."""
        if self.weights is None:
            return {f.name: convention.edges(f.values, n_intervals, integer=f.integer) for f in features}
        return {f.name: weighted_edges(convention, f.values, self.weights, n_intervals, integer=f.integer,
                                       label=f"column {f.name!r}") for f in features}

    def interval_counts(self, grids: dict) -> dict:
        """Rows below, in each interval of, and above each grid (name -> ``(below, counts, above)``)."""
        return interval_counts(self.rows, grids)

    # -- levels
    def level_order(self, feature: Feature, requested, *, caller: str,
                    failure: str = "R's ALEPlot stops with an error here",
                    hint: str = "; pass level_order= to choose another", stacklevel: int = 4) -> np.ndarray:
        """:func:`~pyale._core.grid.resolve_level_order` on the whole frame."""
        return resolve_level_order(self.frame, feature, requested, caller=caller, failure=failure, hint=hint,
                                   stacklevel=stacklevel, weights=self.weights)

    def level_appearance(self, feature: Feature) -> np.ndarray:
        """Level indices in order of first appearance in the rows."""
        _, first = np.unique(feature.codes, return_index=True)
        return feature.codes[np.sort(first)]

    def layout(self, features: Sequence[Feature]) -> pd.DataFrame:
        """A frame with the features' columns as the rows have them: the frame itself."""
        return self.frame

    # -- axes
    def numeric_axis(self, feature: Feature, edges: np.ndarray, occupied: np.ndarray | None = None) -> NumericAxis:
        """The axis with its bins and counts computed once (:func:`~pyale._core.main_effect.numeric_axis`).

        ``occupied`` (an engine's intervals with rows) is not needed: the
        whole column gives the counts.
        """
        return numeric_axis(self.frame, self._own(feature), edges)

    def level_axis(self, feature: Feature, order: np.ndarray) -> LevelAxis:
        return level_axis(self.frame, self._own(feature), order)

    # -- restricted rows
    def restricted(self, keep, keep_columns: Sequence = ()) -> "FrameData":
        """The same data restricted to the rows ``keep(frame) -> mask`` accepts (itself when it accepts all).

        A feature read from the unrestricted data may be handed to the
        restricted data's axes: its values are taken at the rows kept.
        """
        mask = np.asarray(keep(self.frame), dtype=bool)
        if mask.all():
            return self
        kept = np.flatnonzero(mask)
        out = FrameData(self.frame.iloc[kept], caller=self.caller,
                        weights=None if self.weights is None else self.weights[kept])
        out._kept, out._parent_rows = kept, self.n_rows
        return out

    _kept = None
    _parent_rows = None

    def _own(self, feature: Feature) -> Feature:
        """``feature`` at this data's rows (a feature of the unrestricted data taken at the rows kept)."""
        column = feature.codes if feature.categorical else feature.values
        if self._kept is None or column is None or column.shape[0] != self._parent_rows:
            return feature
        if feature.categorical:
            return replace(feature, codes=feature.codes[self._kept], span=None)
        return replace(feature, values=feature.values[self._kept], span=None)


class _Slice:
    """A block's weights: the rows ``offset`` on of the whole weight array."""

    def __init__(self, weights: np.ndarray):
        self.weights = weights

    def __call__(self, block: pd.DataFrame, offset: int) -> np.ndarray:
        return self.weights[offset:offset + block.shape[0]]


class _Chunk:
    """The weights of bootstrap chunk ``chunk``."""

    def __init__(self, weights: np.ndarray):
        self.weights = weights

    def __call__(self, chunk: int) -> np.ndarray:
        return self.weights[chunk * CHUNK:(chunk + 1) * CHUNK]
