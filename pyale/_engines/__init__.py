"""Where the rows live: one interface over pandas (in memory), Dask and Spark.

The estimator core never loops over rows itself.  It asks an engine for
small global summaries (to build the grid) and maps a function over row
blocks whose small results it adds up (see :mod:`pyale._core`).  Every
engine hands ``func(block, offset)`` a pandas DataFrame of consecutive rows
in the data's global order and the 0-based position of its first row, so a
computation that depends on a row's position (bootstrap resampling) gives
the same numbers on every engine.
"""

from .base import Engine, add_results, as_engine
from .pandas import PandasEngine

__all__ = ["Engine", "PandasEngine", "add_results", "as_engine"]
