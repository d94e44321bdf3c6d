"""Whose numbers to reproduce: each reference package's rules as one object.

:class:`~.base.Convention` is the interface the estimator core calls (grid,
map, reduce); :mod:`.aleplot`, :mod:`.iml` and :mod:`.alepkg` implement it
for ALEPlot 1.1, iml 0.11.4 and ale 0.5.0.  :data:`CONVENTIONS` names them
for ``conventions=``.
"""

from .alepkg import ALE_PACKAGE
from .aleplot import ALEPLOT
from .base import _MAX_INTERVALS_PER_ROW, Convention, weighted_edges
from .iml import IML

__all__ = ["Convention", "CONVENTIONS", "ALEPLOT", "IML", "ALE_PACKAGE", "weighted_edges"]

CONVENTIONS: dict[str, Convention] = {c.name: c for c in (ALEPLOT, IML, ALE_PACKAGE)}
