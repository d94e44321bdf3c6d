"""Where the rows live: one interface over pandas (in memory), Dask, Spark and polars lazy frames.

The estimator core never loops over rows itself.  It asks an engine for
small global summaries (to build the grid) and maps a function over row
blocks whose small results it adds up (see :mod:`pyale._core`).  Every
engine hands ``func(block, offset)`` a pandas DataFrame of consecutive rows
in the data's global order and the 0-based position of its first row, so a
computation that depends on a row's position (bootstrap resampling) gives
the same numbers on every engine.

The exact statistics built on ``map_reduce`` alone (column checks, order
statistics, the level ordering's counts) are in :mod:`pyale._core.exact`.  :mod:`.registry` recognises
a data frame's kind and opens its engine (Dask, Spark, a polars LazyFrame);
each engine imports its library only when such a data frame is passed.
"""

from .base import Engine, add_results
from .pandas import PandasEngine
from .registry import as_engine, collect_hint, drop_column, engine_name, is_engine_frame, is_engine_object

__all__ = [
    "Engine",
    "PandasEngine",
    "add_results",
    "as_engine",
    "collect_hint",
    "drop_column",
    "engine_name",
    "is_engine_frame",
    "is_engine_object",
]
