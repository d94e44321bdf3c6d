"""Pieces of the R ``ale`` 0.5.0 front-end that need no model: argument checks,
variable types and bins, the ALE statistics, and ``get()``'s tables.

They work on columns and on arrays of effects, counts and bootstrap curves; the
estimator core computes those arrays.  See ``docs/ale-package.md`` for what R's
``ale`` computes.
"""

from .checks import ALEArguments, check_ale_arguments, r_call, resolve_x_cols
from .stats import (
    STATISTICS,
    ale_statistics_1d,
    ale_statistics_2d,
    normaliser,
    r_median,
    summarise_statistics,
)
from .tables import (
    band_summary,
    effect_table_1d,
    effect_table_2d,
    r_ceiling_labels,
    statistics_estimate_table,
    statistics_long_table,
    y_summary,
)
from .types import NumericBins, ale_var_type, binary_levels, numeric_bins

__all__ = [
    "ALEArguments",
    "check_ale_arguments",
    "resolve_x_cols",
    "r_call",
    "ale_var_type",
    "binary_levels",
    "NumericBins",
    "numeric_bins",
    "STATISTICS",
    "normaliser",
    "r_median",
    "ale_statistics_1d",
    "ale_statistics_2d",
    "summarise_statistics",
    "band_summary",
    "effect_table_1d",
    "effect_table_2d",
    "r_ceiling_labels",
    "statistics_long_table",
    "statistics_estimate_table",
    "y_summary",
]
