"""The reduce stage: the blocks' sums added and finished into effects, and the ALE statistics.

:mod:`.estimate` runs map and reduce over an engine's blocks; :mod:`.accumulate`
turns sums into centred effects; :mod:`.stats` defines each ALE statistic once
(:mod:`.engine_stats`: the response's distribution on an engine).
"""
