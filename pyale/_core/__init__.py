"""The estimator core, by stage: one ALE from the data's grid to its finished effects.

Each subpackage imports only those listed after it (the ``core-stages``
contract in ``pyproject.toml``), while the data flows from the last to the
first: :mod:`.run` (the front-ends' entry: ``FrameData`` / ``EngineData``,
plans, passes over the rows), :mod:`.conventions` (ALEPlot's, iml's and ale's
rules, one object each), :mod:`.reduce` (estimate, accumulate, statistics),
:mod:`.map` (plans and entries, shifted copies, model calls, group sums,
bootstrap draws, segment weights, Jacobians), :mod:`.grid` (features,
interval edges, level orders, pair rules, RHALE's bin search, bounds) and
:mod:`.exact` (exact statistics over any engine).
"""
