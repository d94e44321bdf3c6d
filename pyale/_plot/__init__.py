"""Drawing (matplotlib, imported only here): R-shaped pictures and iml's panels.

The plotting layer imports the results (and :func:`pyale.ale`), never the
reverse; importing it registers each display with the results
(``pyale._present.register_display``), so that ``result.plot()`` finds it.
"""

from . import aleplot, compare, display, iml, verdicts  # noqa: F401 - each registers its displays
