"""Verdicts from ALE curves: shape checks, materiality ranking and reason codes.

Each answers one question a model-validation team files, from the effects
and bootstrap replicates that :func:`pyale.ale`, :func:`pyale.model_bootstrap`
or :class:`pyale.ALE` already computed: no model call.

- :func:`check_shape` (``shape.py``): does an effect have the expected shape
  (increasing, positive, ...), with what confidence, and where does it break?
- :func:`materiality` (``materiality.py``): which effects matter, in what
  order, with intervals on each statistic and simultaneous intervals on the ranks.
- :func:`reason_codes` (``reasons.py``): for given rows, each feature's
  main-effect contribution and the top adverse features.
- :func:`pyale.compare` (``compare.py``, result in ``comparison.py``): is an
  effect the same in every segment, period or data set?  (It computes: one
  pass over the pooled rows.)

``inputs.py`` reads the results these accept; ``decision.py`` holds the
bootstrap decision rule shared by the shape checks.  Figures are drawn by the
plotting layer (``pyale._plot.verdicts``), which registers its displays.
"""

from .materiality import Materiality, materiality
from .reasons import ReasonCodes, reason_codes
from .shape import ShapeCheck, check_shape

__all__ = ["check_shape", "ShapeCheck", "materiality", "Materiality", "reason_codes", "ReasonCodes"]
