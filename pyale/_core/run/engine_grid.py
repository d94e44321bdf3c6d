"""The grid stage on an engine: features, interval edges and level orders from exact summaries.

The front-ends build a :class:`~pyale._core.map.local.Plan` per effect from the
data.  For a pandas frame they read whole columns (:mod:`.features`,
:mod:`.grid`); for a Dask or Spark frame :class:`EngineData` builds the same
axes from the engine's summaries (:mod:`pyale._engines`), in a few passes
over the blocks:

* one pass of column checks (:func:`~pyale._engines.column_checks`) for every
  column asked about: kinds, missing and infinite values, minimum and
  maximum, categories and their counts.  A feature is refused with the
  message :func:`~pyale._core.grid.features.read_feature` gives, the first bad
  value located by its 0-based row position (an engine has no index);
* the interval edges as exact order statistics at each convention's type-1
  positions (:mod:`pyale._core.exact.quantiles`; weighted:
  :mod:`pyale._core.exact.weighted`), for all numeric features in the same
  passes.  When ``K`` is so large that every value is an edge
  (:func:`~pyale._core.grid.edges.every_value_is_an_edge`) the distinct values are
  gathered, if there are at most :data:`MAX_EDGES` of them; otherwise the
  request is refused, as is a ``K`` beyond :data:`MAX_EDGES` that still needs
  quantiles (its probabilities alone would be sized by ``K``);
* the level order from :func:`~pyale._engines.level_order_summaries`, turned
  into the same distance matrix by
  :func:`~pyale._core.grid.levels.level_distances_from_summary` and ordered by
  :func:`~pyale._core.grid.edges.resolve_level_order`'s rules.

Rows with a zero ``sample_weight`` are left out of everything, as the pandas
path drops them: the engine is wrapped in a :class:`FilteredEngine`.
:func:`open_engine` checks a front-end's engine frame as ``check_frame``
checks a pandas one and returns its :class:`EngineData`;
:func:`response_column` checks an observed response given as a column.  The
model, the estimate and the other passes live in :mod:`.engine_passes`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np
import pandas as pd
from pandas.api import types as ptypes

from ..._inputs.checks import type_label
from ..._engines import Engine, add_results, as_engine, is_engine_object
from ..exact import column_checks, level_order_summaries
from ..exact import order_statistics_of
from ..exact import smallest_positive_weight, weighted_order_statistics_of
from ..exact.columns import level_codes, numeric_values
from ..._rbase import quantile_type1_positions
from ..._rbase.weighted import type1_targets
from ..map.bootstrap import CHUNK
from ..conventions import _MAX_INTERVALS_PER_ROW, Convention
from ..grid.features import (
    Feature, infinite_error, kind_error, missing_error, overflow_error, rounded_integers, warn_rounded,
)
from ..grid.edges import resolve_level_order
from ..grid.levels import level_distances_from_summary
from ..map.local import LevelAxis, NumericAxis

__all__ = ["CategoryTyped", "EngineData", "FilteredEngine", "MAX_EDGES", "interval_counts", "open_engine", "response_column"]

#: Most interval edges of one feature on an engine (distinct values gathered, or quantiles asked for).
MAX_EDGES = 1 << 20


# ----------------------------------------------------------------------------- filtered rows
@dataclass(frozen=True)
class PositiveWeight:
    """Rows whose weight column is positive."""

    column: object

    def __call__(self, block: pd.DataFrame) -> np.ndarray:
        return numeric_values(block[self.column]) > 0


@dataclass(frozen=True)
class InsideRange:
    """Rows whose numeric column lies in ``[low, high]`` (and those of another condition)."""

    column: object
    low: float
    high: float
    also: Callable | None = None

    def __call__(self, block: pd.DataFrame) -> np.ndarray:
        values = numeric_values(block[self.column])
        inside = (values >= self.low) & (values <= self.high)
        return inside if self.also is None else inside & self.also(block)


def _filtered(block, offset, *, func, keep):
    mask = keep(block)
    return func(block if mask.all() else block[mask], offset)


class FilteredEngine(Engine):
    """The rows of an engine that satisfy ``keep(block) -> mask``, in the same order.

    Blocks keep their offsets in the whole data, so positions reported by
    summaries are not the rows' positions (use :meth:`EngineData.position`),
    and nothing that draws rows by position (bootstrap) may run on it.
    """

    def __init__(self, engine: Engine, keep: Callable, keep_columns: Sequence):
        self.engine, self.keep, self.keep_columns = engine, keep, list(keep_columns)
        self.columns, self.dtypes = engine.columns, engine.dtypes
        self._speaks_as(engine)

    def map_reduce(self, func, combine=add_results, *, columns=None):
        wanted = None if columns is None else list(dict.fromkeys([*columns, *self.keep_columns]))
        return self.engine.map_reduce(functools.partial(_filtered, func=func, keep=self.keep), combine,
                                      columns=wanted)


def _typed(block, offset, *, func, dtypes):
    changed = {name: dtype for name, dtype in dtypes.items() if name in block.columns and block[name].dtype != dtype}
    return func(block.astype(changed) if changed else block, offset)  # a new frame: the partition is untouched


class CategoryTyped(Engine):
    """An engine whose blocks hold every categorical column with the data's one dtype.

    Dask partitions may each carry their own categories: read with
    ``dtype="category"`` (categories unknown), or built with metadata that
    does not match them.  ``ddf.compute()`` unites them; a block cast to that
    union holds the same values, and a row moved to a level its partition
    lacked is that level, not a missing value.  So the model sees in every
    block the dtype it sees on the computed frame.
    """

    def __init__(self, engine: Engine, dtypes: dict):
        self.engine, self.categorical = engine, dict(dtypes)
        self.columns = engine.columns
        self._speaks_as(engine)
        self.dtypes = engine.dtypes.copy()
        for name, dtype in self.categorical.items():
            self.dtypes[name] = dtype

    @property
    def n_rows(self) -> int:
        return self.engine.n_rows

    def typed(self, block: pd.DataFrame) -> pd.DataFrame:
        """``block`` with the data's categorical dtypes."""
        return _typed(block, 0, func=lambda b, _: b, dtypes=self.categorical)

    def head(self, n: int) -> pd.DataFrame | None:
        rows = self.engine.head(n)
        return None if rows is None else self.typed(rows)

    def map_reduce(self, func, combine=add_results, *, columns=None):
        return self.engine.map_reduce(functools.partial(_typed, func=func, dtypes=self.categorical), combine,
                                      columns=columns)


# ----------------------------------------------------------------------------- error-path passes
def _first_block(block, offset, *, test):
    mask = test(block)
    count = int(mask.sum())
    if not count:
        return (0, None)
    first = int(np.argmax(mask))
    return (count, (offset + first, first, block.iloc[[first]]))


def _first_combine(a, b):
    if a[1] is None:
        return (a[0] + b[0], b[1])
    if b[1] is None:
        return (a[0] + b[0], a[1])
    return (a[0] + b[0], a[1] if a[1][0] <= b[1][0] else b[1])


@dataclass(frozen=True)
class _Test:
    """Rows of one column that are missing / infinite / a bad weight / rounded, among the kept rows."""

    column: object
    what: str
    keep: Callable | None = None

    def __call__(self, block: pd.DataFrame) -> np.ndarray:
        series = block[self.column]
        if self.what == "rounded":
            values = numeric_values(series)
            mask = rounded_integers(series, values)[0]
        else:
            values = numeric_values(series) if self.what != "missing" else None
            if self.what == "missing":
                mask = series.isna().to_numpy()
            elif self.what == "infinite":
                mask = np.isinf(values)
            else:  # a weight that is not a non-negative finite number
                mask = ~np.isfinite(values) | (values < 0)
        return mask if self.keep is None else mask & self.keep(block)


def first_where(engine: Engine, test: Callable) -> tuple[int, int | None, pd.DataFrame | None]:
    """``(count, position of the first, that row)`` of the rows where ``test(block)`` holds (a pass)."""
    count, first = engine.map_reduce(functools.partial(_first_block, test=test), _first_combine,
                                     columns=None) or (0, None)
    return (count, None, None) if first is None else (count, first[0], first[2])


def _distinct_block(block, offset, *, column):
    values = numeric_values(block[column])
    distinct = np.unique(values[np.isfinite(values)])
    return _TOO_MANY if distinct.shape[0] > MAX_EDGES else distinct


#: What a block (or a sum of blocks) with more than MAX_EDGES distinct values answers.
_TOO_MANY = "more than MAX_EDGES distinct values"


def _distinct_combine(a, b):
    if isinstance(a, str) or isinstance(b, str):
        return _TOO_MANY
    both = np.union1d(a, b)
    return _TOO_MANY if both.shape[0] > MAX_EDGES else both


# ----------------------------------------------------------------------------- bootstrap chunks
def _chunk_block(block, offset, *, column):
    """Totals of the chunks inside the block; the pieces of the chunks it shares with other blocks."""
    weights = numeric_values(block[column])
    n = weights.shape[0]
    totals, pieces = {}, {}
    if n == 0:
        return totals, pieces
    for chunk in range(offset // CHUNK, (offset + n - 1) // CHUNK + 1):
        lo = chunk * CHUNK
        a, b = max(lo, offset) - offset, min(lo + CHUNK, offset + n) - offset
        if lo >= offset and b - a == CHUNK:
            totals[chunk] = float(np.add.reduceat(weights[a:b], [0])[0])
        else:
            pieces[chunk] = [(offset + a, weights[a:b].copy())]
    return totals, pieces


def _chunk_combine(x, y):
    totals = {**x[0], **y[0]}
    pieces = dict(x[1])
    for chunk, parts in y[1].items():
        pieces[chunk] = pieces.get(chunk, []) + parts
    return totals, pieces


@dataclass(frozen=True)
class ChunkWeights:
    """The weights of the chunks that blocks share (``chunk -> weights``), for weighted draws."""

    shared: dict

    def __call__(self, chunk: int) -> np.ndarray:
        try:
            return self.shared[chunk]
        except KeyError:
            raise RuntimeError(
                f"Bootstrap chunk {chunk} is cut by a block boundary that the pass over the weights did not "
                "see: the data's partitions changed between passes. Persist the data first."
            ) from None


# ----------------------------------------------------------------------------- the data
class EngineData:
    """An engine's rows as the grid stage sees them, with the summaries made so far.

    Parameters
    ----------
    data : dask.dataframe.DataFrame, pyspark.sql.DataFrame or Engine
    weight : label, optional
        A column of non-negative frequency weights: not a feature, not a
        covariate, never shown to the model.  Rows of weight 0 are left out.
    caller : str
        The public function, for messages.
    """

    def __init__(self, data, *, weight=None, caller: str):
        self.engine = as_engine(data)
        self.caller = caller
        self.weight = weight
        self.columns = [c for c in self.engine.columns if c != weight]
        self.rows: Engine = self.engine
        self.keep = None
        self._checks: dict = {}
        self._distances: dict = {}
        self._weight_unit: float | None = None
        self._unite_categories()
        if weight is not None:
            self._check_weight()

    def _unite_categories(self) -> None:
        """Read categorical columns with the one dtype ``compute()`` gives them (:class:`CategoryTyped`).

        One pass over those columns finds every partition's categories (the
        column checks, kept for later when there are no weights); where a
        partition's dtype differs from the union, its blocks are cast.
        """
        names = [c for c in self.engine.columns if isinstance(self.engine.dtypes[c], pd.CategoricalDtype)]
        if not names or getattr(self.engine, "in_memory", False):
            return
        found = column_checks(self.engine, names)
        dtypes = {name: found[name].categorical_dtype for name in names if found[name].categorical_dtype is not None}
        self.engine = self.rows = CategoryTyped(self.engine, dtypes)
        if self.weight is None:  # the same checks the grid stage asks for (weighted ones differ)
            self._checks.update({name: found[name] for name in names})

    # -- facts
    @property
    def schema(self) -> pd.DataFrame:
        """An empty frame with the model's columns and their dtypes (for resolving labels)."""
        dtypes = self.engine.dtypes
        return pd.DataFrame({c: pd.Series(dtype=dtypes[c]) for c in self.columns}, columns=pd.Index(self.columns))

    @property
    def filtered(self) -> bool:
        return self.keep is not None

    @property
    def n_rows(self) -> int:
        """Rows taking part (positive weight, inside a restriction)."""
        if self.keep is None:
            return int(self.engine.n_rows)
        if not self._checks:
            self.checks([self.weight if self.weight is not None else self.columns[0]])
        return next(iter(self._checks.values())).n_rows

    def checks(self, names: Sequence) -> dict:
        """Column checks of ``names`` (weighted when weights are given), made in one pass for the new ones."""
        missing = [n for n in names if n not in self._checks]
        if missing:
            if self.weight is not None and self.weight not in self._checks:
                missing.append(self.weight)
            self._checks.update(column_checks(self.rows, missing, weight=self.weight))
        return {n: self._checks[n] for n in names}

    def position(self, what: str, column) -> tuple[int, pd.DataFrame]:
        """Row position and row of the first value of ``column`` that is ``what`` ('missing', ...)."""
        _, position, row = first_where(self.engine, _Test(column, what, self.keep))
        return position, row

    # -- weights
    def _check_weight(self) -> None:
        name, caller = self.weight, self.caller
        check = column_checks(self.engine, [name])[name]
        intro = f"The 'sample_weight' parameter of {caller} must be non-negative finite numbers, one per row of X"
        if check.kind == "bool":
            raise TypeError(f"{intro} ({check.n_rows}). Got booleans instead.")
        if check.kind != "numeric":
            raise TypeError(f"{intro} ({check.n_rows}). Got values of dtype {check.dtype} instead{_to_numbers(check)}.")
        if check.n_missing or check.n_infinite or (check.minimum is not None and check.minimum < 0):
            count, position, row = first_where(self.engine, _Test(name, "bad weight"))
            value = float(numeric_values(row[name])[0])
            raise ValueError(
                f"The 'sample_weight' parameter of {caller} must hold non-negative finite numbers. Got "
                f"{value!r} at position {position} ({count} bad value(s))."
            )
        if check.maximum is None or not check.maximum > 0:
            raise ValueError(f"The 'sample_weight' parameter of {caller} must give at least one row a positive weight.")
        if check.minimum == 0:
            self.keep = PositiveWeight(name)
            self.rows = FilteredEngine(self.engine, self.keep, [name])
        self._equal_weights = check.minimum == check.maximum

    @property
    def equal_weights(self) -> bool:
        return self.weight is None or self._equal_weights

    #: The weights are the blocks' weight column (``weight``), not an array beside the rows.
    block_weights = None

    def chunk_weights(self) -> tuple[np.ndarray, "ChunkWeights"]:
        """Every bootstrap chunk's total weight, and ``chunk -> weights`` of the chunks blocks share (one pass)."""
        totals, pieces = self.rows.map_reduce(functools.partial(_chunk_block, column=self.weight), _chunk_combine,
                                              columns=[self.weight]) or ({}, {})
        shared = {}
        for chunk, parts in pieces.items():
            weights = np.concatenate([w for _, w in sorted(parts, key=lambda part: part[0])])
            shared[chunk] = weights
            totals[chunk] = float(np.add.reduceat(weights, [0])[0])
        n_chunks = -(-self.n_rows // CHUNK)
        return np.array([totals[c] for c in range(n_chunks)], dtype=float), ChunkWeights(shared)

    @property
    def weight_unit(self) -> float:
        """The smallest positive weight (one row of the type-1 targets), found once: with zero weights it
        takes a pass over the rows."""
        if self._weight_unit is None:
            self._weight_unit = smallest_positive_weight(self.rows, self.weight, self.checks([self.weight]))
        return self._weight_unit

    # -- features
    def feature(self, name, label: str) -> Feature:
        """The feature ``name`` as :func:`~pyale._core.grid.features.read_feature` reads it (without values)."""
        check = self.checks([name])[name]
        if check.kind in ("bool", "datetime", "other"):
            raise kind_error(check.kind, label, check.dtype)
        if check.n_missing:
            position, _ = self.position("missing", name)
            raise missing_error(label, check.n_missing, f"row position {position}")
        if check.kind == "categorical":
            if check.ordered_conflict:
                raise ValueError(check.ordered_conflict)
            return Feature(name=name, categorical=True, levels=check.levels, ordered=check.ordered)
        if check.n_infinite:
            position, row = self.position("infinite", name)
            raise infinite_error(label, check.n_infinite, float(numeric_values(row[name])[0]),
                                 f"row position {position}")
        low, high = (check.minimum, check.maximum) if check.n_finite else (0.0, 0.0)
        with np.errstate(over="ignore"):
            if not np.isfinite(high - low):
                raise overflow_error(label, low, high)
        integer = check.integer  # every block's dtype too: Dask's metadata may say int64 over float partitions
        if integer and max(-low, high) > 2.0**53:
            count, position, row = first_where(self.engine, _Test(name, "rounded", self.keep))
            if count:
                exact = rounded_integers(row[name], numeric_values(row[name]))[1]
                warn_rounded(label, count, int(exact[0]), float(numeric_values(row[name])[0]),
                             f"row position {position}", stacklevel=5)
        return Feature(name=name, categorical=False, integer=integer)

    def value_range(self, name) -> tuple[float, float]:
        check = self.checks([name])[name]
        return float(check.minimum), float(check.maximum)

    def level_counts(self, feature: Feature) -> np.ndarray:
        """Rows per level of a categorical feature, from its column checks."""
        return self.checks([feature.name])[feature.name].level_counts

    # -- numeric edges
    def edges(self, features: Sequence[Feature], convention: Convention, n_intervals: int, *,
              param: str) -> dict:
        """The convention's interval edges of numeric features (name -> edges), sharing the passes."""
        checks = self.checks([f.name for f in features])
        wanted, out, rounding = {}, {}, {}
        for feature in features:
            name = feature.name
            check = checks[name]
            n = check.n_finite
            if self.weight is None:
                every = convention.every_value_is_an_edge(n, n_intervals)
            else:
                every = self._weighted_every(check, n_intervals, feature, param)
            rounding[name] = feature.integer and convention.rounds_integer_edges
            if every:
                out[name] = self._distinct(name, n_intervals, param)
                continue
            if n_intervals > MAX_EDGES:
                raise ValueError(
                    f"The {param!r} parameter of {self.caller} asks for {n_intervals:,} intervals of column "
                    f"{name!r}; on a {self.rows.name} pyale computes at most {MAX_EDGES:,} quantile "
                    f"edges per feature (the data has {n:,} rows). Use {param} <= {MAX_EDGES:,}."
                )
            probs, prepend = convention.probabilities(n_intervals)
            if self.weight is None:
                positions = quantile_type1_positions(n, probs)
                wanted[name] = np.concatenate(([0], positions)) if prepend else positions
            else:
                targets = type1_targets(check.finite_weight, self.weight_unit, probs)
                wanted[name] = np.concatenate(([0.0], targets)) if prepend else targets
        if wanted:
            if self.weight is None:
                found = order_statistics_of(self.rows, wanted, checks=checks)
            else:
                found = weighted_order_statistics_of(self.rows, wanted, self.weight, checks=checks)
            out.update(found)
        for name in list(out):
            edges = np.round(out[name]) if rounding[name] else out[name]
            out[name] = np.unique(edges)
        return out

    def _weighted_every(self, check, n_intervals: int, feature: Feature, param: str) -> bool:
        """:func:`~pyale._core.conventions.weighted_edges`' rule: every value an edge, quantiles, or refused."""
        weight = self.checks([self.weight])[self.weight]
        n = check.n_finite
        ratio = check.finite_weight / weight.minimum
        if n_intervals >= 2 * ratio and 4 * (8 + n) * ratio < 2**53:
            return True
        if n_intervals > _MAX_INTERVALS_PER_ROW * n:
            limit = _MAX_INTERVALS_PER_ROW * n
            raise ValueError(
                f"n_intervals={n_intervals!r} for column {feature.name!r} with sample_weight asks for more than "
                f"{_MAX_INTERVALS_PER_ROW} intervals per row ({n} rows with a positive weight), and the "
                f"weights are too uneven for every value to be an edge (that needs at least "
                f"{int(np.ceil(2 * ratio))}). Use at most {limit}."
            )
        return False

    def _distinct(self, name, n_intervals: int, param: str) -> np.ndarray:
        values = self.rows.map_reduce(functools.partial(_distinct_block, column=name), _distinct_combine,
                                      columns=[name])
        if isinstance(values, str) or values.shape[0] > MAX_EDGES:
            raise ValueError(
                f"The {param!r} parameter of {self.caller} is {n_intervals:,}: so many intervals make every "
                f"distinct value of column {name!r} an edge, and it has more than {MAX_EDGES:,} distinct values "
                f"on this {self.rows.name}. Use a smaller {param} (quantile edges)."
            )
        return values

    def interval_counts(self, grids: dict) -> dict:
        """Rows below, in each interval of, and above each grid (name -> ``(below, counts, above)``)."""
        return interval_counts(self.rows, grids)

    # -- levels
    def level_order(self, feature: Feature, requested, *, caller: str, failure: str = "R's ALEPlot stops with an error here",
                    hint: str = "; pass level_order= to choose another", stacklevel: int = 4) -> np.ndarray:
        """:func:`~pyale._core.grid.edges.resolve_level_order` with the distances from the engine's summaries."""
        check = self.checks([feature.name])[feature.name]
        dtype = check.categorical_dtype if isinstance(check.dtype, pd.CategoricalDtype) else check.dtype
        column = pd.DataFrame({feature.name: pd.Series(dtype=dtype)})

        def distances():
            if feature.name not in self._distances:  # a feature in several entries: one set of passes
                covariates = [c for c in self.columns if c != feature.name]
                self.checks(covariates)
                summary = level_order_summaries(self.rows, feature.name, covariates, checks=self._checks,
                                                weight=self.weight)
                self._distances[feature.name] = level_distances_from_summary(summary)
            return self._distances[feature.name]

        return resolve_level_order(column, feature, requested, caller=caller, failure=failure, hint=hint,
                                   stacklevel=stacklevel, distances=distances)

    def level_appearance(self, feature: Feature) -> np.ndarray:
        """Level indices in order of first appearance in the rows (one pass)."""
        levels = pd.Index(list(feature.levels), dtype=object)
        found = self.rows.map_reduce(functools.partial(_appearance_block, name=feature.name, levels=levels),
                                     _appearance_combine, columns=[feature.name]) or {}
        return np.array(sorted(found, key=found.__getitem__), dtype=np.int64)

    def layout(self, features: Sequence[Feature]) -> pd.DataFrame:
        """An empty frame with the features' dtypes as the rows have them (categories united)."""
        columns = {}
        for f in features:
            check = self.checks([f.name])[f.name]
            dtype = check.categorical_dtype if isinstance(check.dtype, pd.CategoricalDtype) else check.dtype
            columns[f.name] = pd.Series(dtype=dtype)
        return pd.DataFrame(columns)

    # -- axes
    @staticmethod
    def numeric_axis(feature: Feature, edges: np.ndarray, occupied: np.ndarray | None = None) -> NumericAxis:
        if occupied is None:
            occupied = np.ones(edges.shape[0] - 1, dtype=bool)
        return NumericAxis(feature.name, np.asarray(edges, dtype=float), np.asarray(occupied, dtype=bool))

    @staticmethod
    def level_axis(feature: Feature, order: np.ndarray) -> LevelAxis:
        return LevelAxis(feature.name, tuple(feature.levels), np.asarray(order, dtype=np.int64))

    def restricted(self, keep: Callable, keep_columns: Sequence) -> "EngineData":
        """The same data restricted to the rows ``keep`` accepts (and the positive weights)."""
        out = object.__new__(EngineData)
        out.__dict__.update(self.__dict__)
        both = keep if self.keep is None else _Both(self.keep, keep)
        out.keep = both
        out.rows = FilteredEngine(self.engine, both, [*keep_columns, *([self.weight] if self.weight else [])])
        out._checks, out._distances = {}, {}
        return out


@dataclass(frozen=True)
class _Both:
    first: Callable
    second: Callable

    def __call__(self, block):
        return self.first(block) & self.second(block)


def _appearance_block(block, offset, *, name, levels):
    codes = level_codes(block[name], levels)
    present, first = np.unique(codes, return_index=True)
    return {int(c): offset + int(i) for c, i in zip(present, first) if c >= 0}


def _appearance_combine(a, b):
    out = dict(a)
    for code, position in b.items():
        out[code] = min(out.get(code, position), position)
    return out


def interval_counts(rows: Engine, grids: dict) -> dict:
    """Rows below, in each interval of, and above each grid (name -> ``(below, counts, above)``), in one pass.

    Intervals are right-closed and the lowest edge belongs to the first.
    """
    counts = rows.map_reduce(functools.partial(_interval_block, grids=grids), columns=list(grids))
    out = {}
    for name, edges in grids.items():
        found = (counts or {}).get(name, np.zeros(edges.shape[0] + 1, dtype=np.int64))
        out[name] = (int(found[0]), found[1:-1], int(found[-1]))
    return out


def _interval_block(block, offset, *, grids):
    out = {}
    for name, edges in grids.items():
        values = numeric_values(block[name])
        position = np.searchsorted(edges, values, side="left")  # 0: below or at the lowest edge
        position[values == edges[0]] = 1  # the lowest edge belongs to the first interval
        out[name] = np.bincount(position, minlength=edges.shape[0] + 1).astype(np.int64)
    return out


# ----------------------------------------------------------------------------- a front-end's engine frame
def open_engine(X, *, caller: str, param: str = "X", sample_weight=None) -> EngineData:
    """The engine of a Dask, Spark or polars lazy frame, checked as ``check_frame`` checks a pandas one.

    ``sample_weight`` must name a column of X (it cannot be aligned with the
    partitions otherwise); that column is then no feature and the model
    never sees it.
    """
    engine = as_engine(X)
    columns = list(engine.columns)
    dupes = list(dict.fromkeys(c for i, c in enumerate(columns) if c in columns[:i]))
    if dupes:
        raise ValueError(
            f"The {param!r} parameter of {caller} must have unique column names. Got duplicates {dupes!r} instead."
        )
    weight = None
    if sample_weight is not None:
        if isinstance(sample_weight, (list, tuple, np.ndarray, pd.Series, pd.Index)) or is_engine_object(sample_weight):
            raise TypeError(
                f"The 'sample_weight' parameter of {caller} must be the name of a column of X when X is a "
                f"{engine.name} (an array cannot be aligned with its partitions). Got {type_label(sample_weight)} "
                "instead."
            )
        if sample_weight not in columns:
            raise ValueError(
                f"The 'sample_weight' parameter of {caller} must name a column of X. Got {sample_weight!r}; the "
                f"columns are {columns[:10]!r}{'' if len(columns) <= 10 else f' and {len(columns) - 10} more'}."
            )
        weight = sample_weight
    data = EngineData(engine, weight=weight, caller=caller)
    n_rows, n_columns = data.engine.n_rows, len(data.columns)
    if n_rows == 0 or n_columns == 0:
        raise ValueError(
            f"The {param!r} parameter of {caller} must have at least one row and one column. "
            f"Got shape {(n_rows, n_columns)} instead."
        )
    return data


def response_column(data: EngineData, y, *, caller: str, param: str = "y"):
    """The observed response: a column of X holding finite numbers (checked in one pass)."""
    if isinstance(y, (list, tuple, np.ndarray, pd.Series)) or is_engine_object(y):
        raise TypeError(
            f"The {param!r} parameter of {caller} must be the name of a column of X when X is a "
            f"{data.engine.name}. Got {type_label(y)} instead."
        )
    if y not in list(data.engine.columns) or y == data.weight:
        raise ValueError(
            f"The {param!r} parameter of {caller} must be one number per row of X or the name of a column of X. "
            f"Got {y!r}, which is not a column."
        )
    check = column_checks(data.engine, [y])[y]
    what = f"The {param!r} parameter of {caller} must be finite numbers, one per row of X ({data.engine.n_rows})."
    if check.kind == "bool":
        raise TypeError(f"{what} Got booleans instead.")
    if check.kind != "numeric":
        raise TypeError(f"{what} Got values of dtype {check.dtype} instead{_to_numbers(check)}.")
    if check.n_missing or check.n_infinite:
        count, position, row = first_where(data.engine, _NotFinite(y))
        raise ValueError(
            f"The {param!r} parameter of {caller} must hold finite numbers. Got {float(row[y].iloc[0])!r} at "
            f"position {position} ({count} missing or infinite value(s))."
        )
    return y


class _NotFinite:
    """Rows whose column is missing or infinite (picklable: it travels to the workers)."""

    def __init__(self, column):
        self.column = column

    def __call__(self, block):
        return ~np.isfinite(block[self.column].to_numpy(dtype=float, na_value=np.nan))


def _to_numbers(check) -> str:
    """What a message adds for a text or categorical column where numbers are needed."""
    if check.kind != "categorical":
        return ""
    what = "categories" if isinstance(check.dtype, pd.CategoricalDtype) else "text"
    return f"; it holds {what}: convert it to numbers first"
