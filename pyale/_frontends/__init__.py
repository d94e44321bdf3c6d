"""The front-ends: each reads its arguments at the public boundary, builds plans and wraps the numbers.

:mod:`.ale` is the Pythonic :func:`pyale.ale` (and :func:`pyale.model_bootstrap`);
:mod:`.aleplot` and :mod:`.pdplot` are R's ALEPlot 1.1; :mod:`.iml` is iml 0.11.4's
classes; :mod:`.alepkg` is R's ``ale`` 0.5.0 (:class:`pyale.ALE`).  The plans of a
Dask, Spark or polars lazy frame (:mod:`.engine_plans`) and the progress bars
(:mod:`.progress`) are shared by all of them.
"""
