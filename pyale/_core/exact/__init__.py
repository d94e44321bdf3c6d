"""Exact statistics over any engine, built on ``map_reduce`` alone: the same numbers on every engine.

Column checks (:mod:`.summaries`), order statistics and R's quantiles
(:mod:`.quantiles`, by histogram refinement: :mod:`.selection`, :mod:`.cellmaps`),
their weighted forms (:mod:`.weighted`) and the level ordering's counts
(:mod:`.level_summaries`); :mod:`.columns` reads one column of one block.
"""

from .level_summaries import LevelOrderSummary, level_order_summaries
from .quantiles import (
    order_statistics,
    order_statistics_of,
    quantiles_type1,
    quantiles_type7,
    quantiles_type7_of,
)
from .summaries import ColumnCheck, column_checks
from .weighted import (
    smallest_positive_weight,
    weighted_order_statistics_of,
    weighted_quantiles_type1,
    weighted_quantiles_type7_of,
)

__all__ = [
    "ColumnCheck",
    "column_checks",
    "order_statistics",
    "order_statistics_of",
    "quantiles_type1",
    "quantiles_type7",
    "quantiles_type7_of",
    "LevelOrderSummary",
    "level_order_summaries",
    "smallest_positive_weight",
    "weighted_order_statistics_of",
    "weighted_quantiles_type1",
    "weighted_quantiles_type7_of",
]
