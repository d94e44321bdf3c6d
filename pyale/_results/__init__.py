"""What the front-ends return: small frozen result objects, their tables, repr and notebook view.

:mod:`.ale` (:class:`pyale.ALEResult`) and :mod:`.ale_list` (:class:`pyale.ALEResults`)
over :mod:`.aleplot` (:class:`pyale.ALEPlotResult`, :class:`pyale.PDPlotResult`), over
:mod:`.present` (repr, ``_repr_html_``, ``equals``, and the registry through which
``plot()`` finds the display the plotting layer registered: results never import it).
"""
