"""Which engine computes on a data frame: the one place that recognises a frame's kind.

A pandas DataFrame is in memory (:class:`~.pandas.PandasEngine`).  Every
other engine is one module listed in :data:`ENGINES` that declares

* ``MODULES``: how the modules of its library's types begin, read off an
  object's type (so recognising a frame imports no library);
* ``accepts(data)``: whether an object of those modules is a data frame it
  computes on; ``owns(obj)``: whether it is any object of that kind (a Dask
  Series, a Spark Column: refused by name where a frame is expected);
* ``NAME``: how messages name such a frame; ``drop(data, column)``: the frame
  without a column;
* ``ENGINE``: the :class:`~.base.Engine` class, built from the frame; its
  ``collect`` and ``keep_positive_hint`` say, in its library's words, how a
  user brings the frame into memory and keeps the rows of positive weight
  (messages suggest them).

The engine modules import their libraries only inside the functions that
use them, so importing them here imports no Dask, Spark or polars.  Adding
an engine is adding its module to :data:`ENGINES` (the polars lazy engine,
:mod:`.polars`, is the worked example).
"""

from __future__ import annotations

import pandas as pd

from . import dask, polars, spark
from .base import Engine
from .pandas import PandasEngine

__all__ = ["ENGINES", "as_engine", "collect_hint", "drop_column", "engine_name", "is_engine_frame", "is_engine_object"]

#: The engines of data that is not in memory, each a module (see above).
ENGINES = (dask, spark, polars)


def _engine_module(obj: object):
    """The engine module whose library ``obj``'s type comes from, or None."""
    module = type(obj).__module__ or ""
    for engine in ENGINES:
        if module.startswith(engine.MODULES):
            return engine
    return None


def is_engine_frame(data: object) -> bool:
    """Whether ``data`` is a data frame an engine computes on where it lives (Dask, Spark, a polars LazyFrame).

    Only data frames: a Dask Series or Array or a Spark Column is refused
    where a pandas Series is (see :func:`pyale._inputs.frames.as_pandas`).
    """
    engine = _engine_module(data)
    return engine is not None and engine.accepts(data)


def is_engine_object(obj: object) -> bool:
    """Whether ``obj`` is any object of an engine's kind (a frame, a Dask Series or Array, a Spark Column)."""
    engine = _engine_module(obj)
    return engine is not None and engine.owns(obj)


def engine_name(data: object) -> str:
    """How messages name an engine's data frame (e.g. ``"Dask DataFrame"``).

    ``data`` is such a frame or any object of its engine's kind: a Dask
    Series names the Dask DataFrame, a Spark Column the Spark DataFrame.
    """
    engine = _engine_module(data)
    if engine is None or not engine.owns(data):
        raise TypeError(f"pyale cannot compute on a {type(data).__module__}.{type(data).__name__}.")
    return engine.NAME


def collect_hint(data: object) -> str:
    """How a user brings an engine's data frame into memory, as a frame pyale reads there (e.g. ``"X.compute()"``)."""
    return _accepting(data).ENGINE.collect


def drop_column(data: object, column) -> object:
    """An engine's data frame without ``column`` (the frame is not modified)."""
    return _accepting(data).drop(data, column)


def as_engine(data, *, max_rows_per_block: int | None = None) -> Engine:
    """The engine for ``data``: a pandas DataFrame, or a data frame of one of :data:`ENGINES`."""
    if isinstance(data, Engine):
        return data
    if isinstance(data, pd.DataFrame):
        return PandasEngine(data, max_rows_per_block=max_rows_per_block)
    return _accepting(data).ENGINE(data)


def _accepting(data: object):
    engine = _engine_module(data)
    if engine is None or not engine.accepts(data):
        raise TypeError(f"pyale cannot compute on a {type(data).__module__}.{type(data).__name__}.")
    return engine
