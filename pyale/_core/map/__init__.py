"""The map stage: a block of rows shifted across the grid, the model called, local differences summed.

:mod:`.local` (plans, axes, entries), :mod:`.shifted` (shifted copies),
:mod:`.calls` and :mod:`.adapters` (the one boundary with the model), :mod:`.sums`
(group sums), :mod:`.bootstrap` and :mod:`.explicit_draws` (replicates as row counts).
"""
