"""The core's entry for the front-ends: the data's questions, the plans, and the passes over the rows.

:class:`~.frame_grid.FrameData` (a pandas frame) and :class:`~.engine_grid.EngineData`
(Dask, Spark, polars lazy) answer the grid stage's questions alike; the effects
of one in-memory frame (:mod:`.main_effect`, :mod:`.pair_effect`), partial
dependence (:mod:`.pd`) and the passes over an engine (:mod:`.engine_passes`)
run the plans through :mod:`..reduce.estimate`.
"""
