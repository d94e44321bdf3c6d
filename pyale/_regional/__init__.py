"""Regional effects: where, in the data, a feature's effect differs (``pyale.regional``).

``candidates`` lists where regions may be split, ``criterion`` scores a
region (the heterogeneity of the feature's local effects), ``search`` grows
the tree, ``local`` reads every row's local effect from the estimator's map
stage, ``curves`` draws each region's ALE from them, ``result`` holds it all
and ``api`` is the front door.
"""

from .api import regional
from .result import Region, RegionalResult

__all__ = ["regional", "Region", "RegionalResult"]
