"""The passes over an engine after the grid: the model probe, the estimate, bootstrap chunks, PD sums.

* :func:`probe` calls the model on a few rows on the driver before any pass
  runs it on the workers: it learns the output names (a worker's copy of the
  :class:`~pyale._core.calls.ModelCaller` starts afresh and its state never
  returns) and a model that fails at once fails here, where its exception
  can still be explained.
* :func:`engine_draws` makes bootstrap draws identical to the pandas path's:
  the draws are organised by global row position (:mod:`.bootstrap`), and
  weighted draws need every chunk's total weight and, for a chunk cut by a
  partition boundary, the chunk's weights in the blocks on both sides.  One
  pass over the weight column sums the chunks that lie inside a block with
  ``numpy.add.reduceat`` (the pandas path's arithmetic) and gathers the few
  cut chunks whole (at most one per partition boundary; Spark's blocks
  inside a partition end on chunk boundaries).
* :func:`pd_sums` adds, per grid point, the predictions of every row with
  the feature(s) set to that point (partial dependence), and counts rows
  per grid cell, in one pass.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._engines.columns import level_codes, numeric_values
from .._rbase import bin_right_closed
from .bootstrap import make_draws
from .calls import PredictionError
from .estimate import estimate
from .features import Feature
from .pd import grid_predictions
from .shifted import categorical_column_values, numeric_column_values

__all__ = ["probe", "probe_rows", "engine_estimate", "engine_draws", "pd_sums", "PDAxis"]

#: Rows the model is probed with on the driver.
PROBE_ROWS = 8


# ----------------------------------------------------------------------------- the probe
def _first_rows_block(block, offset, *, n):
    return (offset, block.head(n)) if block.shape[0] else None


def _first_rows_combine(a, b):
    if a is None:
        return b
    if b is None:
        return a
    first, second = (a, b) if a[0] <= b[0] else (b, a)
    if first[1].shape[0] >= second[1].shape[0] and first[1].shape[0] >= PROBE_ROWS:
        return first
    return (first[0], pd.concat([first[1], second[1]]).head(PROBE_ROWS))


def probe_rows(data, n: int = PROBE_ROWS) -> pd.DataFrame:
    """A few rows that take part (positive weight, inside a user grid), the model's columns only."""
    rows = data.engine.head(max(n, 64) if data.keep is not None else n)
    if rows is not None and data.keep is not None:
        rows = rows[data.keep(rows)]
    if rows is None or rows.shape[0] == 0:
        found = data.rows.map_reduce(functools.partial(_first_rows_block, n=n), _first_rows_combine)
        rows = found[1] if found is not None else data.schema
    return rows.head(n)[data.columns]


def probe(caller, rows: pd.DataFrame, explain=None) -> None:
    """Call the model on ``rows`` on the driver (sets ``caller.output_names``).

    ``explain(exc)`` turns the model's own exception into a clearer
    :class:`PredictionError` (the front-end's first-failure explanation).
    """
    try:
        caller(rows, "a few rows of X, before the passes over the data")
    except PredictionError as exc:
        if explain is not None and exc.__cause__ is not None:
            raise explain(exc) from exc.__cause__
        raise


# ----------------------------------------------------------------------------- the estimate
def engine_estimate(data, plans, caller, *, draws=None, chunk_weights=None, rows_per_call=None):
    """:func:`~pyale._core.estimate.estimate` over the rows of ``data`` (a frame's or an engine's), with its weights."""
    return estimate(data.rows, plans, caller, weights=data.block_weights, weight_column=data.weight, draws=draws,
                    chunk_weights=chunk_weights, rows_per_call=rows_per_call)


# ----------------------------------------------------------------------------- bootstrap
def _keep_positive(engine: str, column) -> str:
    """How to keep the rows of positive weight, in the words of the engine passed."""
    if engine.startswith("polars"):
        return f"lf.filter(pl.col({column!r}) > 0)"
    if engine.startswith("Spark"):
        return f"df.filter(df[{column!r}] > 0)"
    return f"ddf[ddf[{column!r}] > 0]"


def engine_draws(data, n_bootstrap: int, random_state, *, caller: str):
    """``(BootstrapDraws, chunk_weights)`` for the rows of ``data`` (a frame's or an engine's: the same draws)."""
    if data.filtered:
        raise ValueError(
            f"The 'n_bootstrap' parameter of {caller} needs every row of a {data.rows.name} to take "
            f"part, and column {data.weight!r} (sample_weight) holds zeros. Drop those rows first "
            f"(e.g. {_keep_positive(data.rows.name, data.weight)})."
        )
    n = data.n_rows
    if data.equal_weights:
        return make_draws(n, n_bootstrap, random_state), None
    chunk_totals, chunk_weights = data.chunk_weights()
    return make_draws(n, n_bootstrap, random_state, chunk_weights=chunk_totals), chunk_weights


# ----------------------------------------------------------------------------- partial dependence
@dataclass(frozen=True)
class PDAxis:
    """One feature of a partial dependence grid.

    ``values`` are the grid values (numeric) or level labels; ``points``
    maps every grid point to its index in ``values`` (pairs: each feature's
    index); ``levels`` (categorical) are the feature's levels, for the
    dtype-preserving column values.  ``breaks`` (optional) are the interval
    breaks whose row counts are wanted (``bin_right_closed``).
    """

    name: object
    values: object
    points: np.ndarray
    categorical: bool = False
    levels: tuple = ()
    breaks: np.ndarray | None = None


def _setter(block: pd.DataFrame, axis: PDAxis, start: int):
    """The column's values at grid points ``start + points``: one gather from the values per point."""
    column = block[axis.name]
    if axis.categorical:
        feature = Feature(name=axis.name, categorical=True, levels=axis.levels)
        at_point = np.asarray(axis.values)[axis.points][start:]  # indices into levels
        return lambda points: categorical_column_values(column, feature, at_point[points])
    at_point = np.asarray(axis.values, dtype=float)[axis.points][start:]
    return lambda points: numeric_column_values(column, at_point[points])


def _pd_block(block, offset, *, axes, n_points, caller, rows_per_call, purpose, anchor, count_axes, weight):
    if weight is not None:
        block = block.drop(columns=[weight])
    n = block.shape[0]
    out = {"sums": None, "rows": n}
    per_call = n_points if rows_per_call is None else max(1, rows_per_call // max(n, 1))
    y_anchor = None
    if anchor is not None and n:
        setters = {a.name: _setter(block, a, anchor) for a in axes}
        y_anchor = grid_predictions(block, setters, 1, caller, rows_per_call=rows_per_call, purpose=purpose,
                                    average=False)[0]
    sums = []
    for start in range(0, n_points, per_call) if n else ():
        size = min(per_call, n_points - start)
        setters = {a.name: _setter(block, a, start) for a in axes}
        y = grid_predictions(block, setters, size, caller, rows_per_call=rows_per_call, purpose=purpose,
                             average=False)
        if y_anchor is not None:
            y = y - y_anchor[None, :, :]
        sums.append(y.sum(axis=1))
    if sums:
        out["sums"] = np.concatenate(sums, axis=0)
    if count_axes:
        bins, sizes = [], []
        for a in count_axes:
            if a.categorical:
                bins.append(level_codes(block[a.name], pd.Index(list(a.levels), dtype=object)))
                sizes.append(len(a.levels))
            else:
                bins.append(bin_right_closed(numeric_values(block[a.name]), a.breaks))
                sizes.append(a.breaks.shape[0] - 1)
        cells = bins[0] if len(bins) == 1 else bins[0] * sizes[1] + bins[1]
        out["counts"] = np.bincount(cells, minlength=int(np.prod(sizes))).astype(np.int64)
    return out


def _pd_combine(a, b):
    out = {"rows": a["rows"] + b["rows"]}
    out["sums"] = b["sums"] if a["sums"] is None else a["sums"] if b["sums"] is None else a["sums"] + b["sums"]
    if "counts" in a:
        out["counts"] = a["counts"] + b["counts"]
    return out


def pd_sums(data, axes: list, n_points: int, caller, *, rows_per_call, purpose: str, anchor: int | None = None,
            count_axes: list | None = None) -> dict:
    """Per grid point, the sum over rows of the predictions (minus each row's prediction at ``anchor``).

    Returns ``{"sums": (n_points, n_outputs), "rows": n, "counts": ...}``;
    ``counts`` are the rows per cell of ``count_axes``' breaks (flattened,
    the first axis major) when asked.
    """
    func = functools.partial(_pd_block, axes=axes, n_points=n_points, caller=caller, rows_per_call=rows_per_call,
                             purpose=purpose, anchor=anchor, count_axes=count_axes or [], weight=data.weight)
    return data.rows.map_reduce(func, _pd_combine)
