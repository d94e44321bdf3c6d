"""The passes over the rows after the grid: the model probe, the estimate, bootstrap draws.

* :func:`probe` calls the model on a few rows on the driver before any pass
  runs it on the workers: it learns the output names (a worker's copy of the
  :class:`~pyale._core.map.calls.ModelCaller` starts afresh and its state never
  returns) and a model that fails at once fails here, where its exception
  can still be explained.
* :func:`engine_draws` makes the bootstrap draws, the same for a pandas
  frame and an engine's blocks: the draws are organised by global row
  position (:mod:`.bootstrap`), and weighted draws need every chunk's total
  weight and, for a chunk cut by a block boundary, the chunk's weights from
  the blocks on both sides; the data object gives them
  (:meth:`~.frame_grid.FrameData.chunk_weights`: ``numpy.add.reduceat``
  over the weights; :meth:`~.engine_grid.EngineData.chunk_weights`: one pass
  over the weight column with the same arithmetic, the few cut chunks
  gathered whole).
* :func:`engine_estimate` runs :func:`~.estimate.estimate` over the data's
  rows with its weights (an array beside a pandas frame, or the engine's
  weight column).

Partial dependence's pass (:func:`~pyale._core.run.pd.pd_sums`) lives with the
rest of partial dependence, in :mod:`.pd`.
"""

from __future__ import annotations

import functools

import pandas as pd

from ..map.bootstrap import make_draws
from ..map.calls import PredictionError
from ..reduce.estimate import estimate

__all__ = ["probe", "probe_rows", "engine_estimate", "engine_draws"]

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
    """:func:`~pyale._core.reduce.estimate.estimate` over the rows of ``data`` (a frame's or an engine's), with its weights."""
    return estimate(data.rows, plans, caller, weights=data.block_weights, weight_column=data.weight, draws=draws,
                    chunk_weights=chunk_weights, rows_per_call=rows_per_call)


# ----------------------------------------------------------------------------- bootstrap
def engine_draws(data, n_bootstrap: int, random_state, *, caller: str):
    """``(BootstrapDraws, chunk_weights)`` for the rows of ``data`` (a frame's or an engine's: the same draws)."""
    if data.filtered:
        raise ValueError(
            f"The 'n_bootstrap' parameter of {caller} needs every row of a {data.rows.name} to take "
            f"part, and column {data.weight!r} (sample_weight) holds zeros. Drop those rows first "
            f"(e.g. {data.rows.keep_positive(data.weight)})."
        )
    n = data.n_rows
    if data.equal_weights:
        return make_draws(n, n_bootstrap, random_state), None
    chunk_totals, chunk_weights = data.chunk_weights()
    return make_draws(n, n_bootstrap, random_state, chunk_weights=chunk_totals), chunk_weights
