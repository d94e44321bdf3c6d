"""Which pairs of features a front-end accepts, read from any rows.

ALEPlot's rule (a numeric pair, or a categorical feature first) serves
:func:`pyale.ALEPlot`, :func:`pyale.PDPlot` and :func:`pyale.ale`; iml's
(either order, the categorical feature put first) serves ``pyale.ale`` under
``conventions="iml"``.  ``data`` is the rows as the grid stage sees them:
:class:`~pyale._core.frame_grid.FrameData` for a pandas frame,
:class:`~pyale._core.engine_grid.EngineData` for an engine's.
"""

from __future__ import annotations

from .._checks import check_pair_kinds

__all__ = ["read_pair", "read_pair_for"]


def read_pair_for(data, names, conventions, caller):
    """pyale.ale's pair rules: categorical first; under iml's conventions either order.

    ``data`` is the rows (:class:`~pyale._core.frame_grid.FrameData` or
    :class:`~pyale._core.engine_grid.EngineData`); returns the two features
    and their names in the order used.
    """
    if conventions == "iml":
        first = data.feature(names[0], f"Column {names[0]!r}")
        second = data.feature(names[1], f"Column {names[1]!r}")
        if first.categorical and second.categorical:
            raise ValueError(
                f"{caller} does not compute ALE for two categorical features ({names[0]!r}, "
                f"{names[1]!r}); iml 0.11.4 stops with 'ALE for two categorical features is not "
                "yet implemented.'"
            )
        if second.categorical:
            return second, first, (names[1], names[0])
        return first, second, tuple(names)
    first, second = read_pair(data, names, caller, param="features")
    return first, second, tuple(names)


def read_pair(data, names, caller_name: str, param: str = "J"):
    """Read a pair of features: numeric x numeric or categorical x numeric, else a clear error.

    ALEPlot's pair rules, on any rows (``data`` as for :func:`read_pair_for`);
    ``param`` is how messages name the argument that chose the pair (``J``,
    or ``features`` for :func:`pyale.ale`).
    """
    first = data.feature(names[0], f"Column {names[0]!r} ({param}[0])")
    second = data.feature(names[1], f"Column {names[1]!r} ({param}[1])")
    check_pair_kinds(first.categorical, second.categorical, names, caller_name, param)
    return first, second
