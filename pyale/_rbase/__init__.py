"""R-exact building blocks (layer 1): pure NumPy, no pandas, no model calls.

Each function names the base-R (or yaImpute) computation it mirrors.
"""

from .cells import MIN_SIZE, bins_right_closed, note_range, order_statistics
from .mds import cmdscale_1d, double_centre
from .nearest import nearest_reference
from .pretty import r_pretty
from .quantile import (
    bin_right_closed,
    ecdf_at,
    level_counts,
    quantile_type1,
    quantile_type1_positions,
    quantile_type7,
    r_seq,
    stable_order,
)

__all__ = [
    "r_seq",
    "quantile_type1",
    "quantile_type1_positions",
    "quantile_type7",
    "bin_right_closed",
    "bins_right_closed",
    "order_statistics",
    "note_range",
    "MIN_SIZE",
    "ecdf_at",
    "level_counts",
    "double_centre",
    "cmdscale_1d",
    "stable_order",
    "r_pretty",
    "nearest_reference",
]
