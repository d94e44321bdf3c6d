"""The grid stage's pieces: features read from columns, interval edges, level orders, size bounds.

:mod:`.features` reads and refuses columns, :mod:`.edges` builds each package's
interval edges, :mod:`.levels` the level distances and their MDS order,
:mod:`.bounds` caps what a grid may cost.
"""
