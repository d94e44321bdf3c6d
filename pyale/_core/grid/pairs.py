"""Which pairs of features a front-end accepts, read from any rows.

ALEPlot's rule (a numeric pair, or a categorical feature first) serves
:func:`pyale.ALEPlot`, :func:`pyale.PDPlot` and, through
:meth:`pyale._core.conventions.base.Convention.read_pair`, :func:`pyale.ale`;
a convention with other rules (iml's: either order, the categorical feature
put first) overrides that method.  ``data`` is the rows as the grid stage
sees them: :class:`~pyale._core.run.frame_grid.FrameData` for a pandas frame,
:class:`~pyale._core.run.engine_grid.EngineData` for an engine's.
"""

from __future__ import annotations

from ..._inputs.checks import check_pair_kinds

__all__ = ["read_pair"]


def read_pair(data, names, caller_name: str, param: str = "J"):
    """Read a pair of features: numeric x numeric or categorical x numeric, else a clear error.

    ALEPlot's pair rules, on any rows (``data`` as in the module's summary);
    ``param`` is how messages name the argument that chose the pair (``J``,
    or ``features`` for :func:`pyale.ale`).
    """
    first = data.feature(names[0], f"Column {names[0]!r} ({param}[0])")
    second = data.feature(names[1], f"Column {names[1]!r} ({param}[1])")
    check_pair_kinds(first.categorical, second.categorical, names, caller_name, param)
    return first, second
