"""``ALEResults``: the list :func:`pyale.ale` returns for a list of features, with ``plot()``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import present as _present

if TYPE_CHECKING:
    import pandas

__all__ = ["ALEResults"]


class ALEResults(list):
    """A list of :class:`~pyale.ALEResult`, one per requested feature or pair.

    It is a plain ``list`` (index it, iterate it, ``len`` it) that can also
    draw itself: :meth:`plot` is :meth:`pyale.ALEDisplay.from_results`.

    Examples
    --------
    >>> import numpy as np, pandas as pd, pyale
    >>> X = pd.DataFrame({"x": np.arange(8.0), "g": list("abababab")})
    >>> results = pyale.ale(lambda d: d["x"] * (d["g"] == "b"), X, ["x", "g"], n_intervals=2)
    >>> type(results).__name__, [r.kind for r in results]
    ('ALEResults', ['numeric', 'categorical'])
    """

    def plot(self, ax=None, **kwargs):
        """Draw every effect in one figure.

        Parameters
        ----------
        ax : matplotlib Axes or array of Axes, optional
            Where to draw (see :meth:`pyale.ALEDisplay.plot`); a new figure
            by default.
        **kwargs
            Keywords of :meth:`pyale.ALEDisplay.plot` (``n_cols``,
            ``sharey``, ``line_kw``, ``color``, ...) and ``X=`` for rug ticks.

        Returns
        -------
        ALEDisplay
        """
        return _present.display_class("ALEDisplay").from_results(list(self), ax=ax, **kwargs)

    @property
    def statistics(self) -> "pandas.DataFrame":
        """Every result's :attr:`ALEResult.statistics` in one table, a ``feature`` level first.

        Returns
        -------
        pandas.DataFrame
            Rows ``(feature, [output,] statistic)``; the feature of a pair is
            written ``"a x b"``.
        """
        import pandas as pd

        tables = {" x ".join(map(str, r.features)): r.statistics for r in self}
        return pd.concat(tables, names=["feature"])

    def equals(self, other: object, *, rtol: float = 0.0, atol: float = 0.0) -> bool:
        """Whether ``other`` holds equal results in the same order (see :meth:`ALEResult.equals`).

        Parameters
        ----------
        other : object
            The object to compare with.
        rtol, atol : float, default 0.0
            Relative and absolute tolerance for floats.

        Returns
        -------
        bool
        """
        return (
            isinstance(other, list) and len(other) == len(self)
            and all(a.equals(b, rtol=rtol, atol=atol) for a, b in zip(self, other))
        )

    def _repr_html_(self) -> str:
        rows = "".join(
            "<tr>" + "".join(f"<td>{_present.html.escape(str(v))}</td>" for v in _present.summary(r).values())
            + "</tr>"
            for r in self
        )
        head = "".join(f"<th>{k}</th>" for k in _present.summary(self[0])) if self else ""
        columns = min(3, max(len(self), 1))
        rows_of_panels = -(-sum(len(r.outputs) if len(r.features) == 2 else 1 for r in self) // columns)

        def draw(ax):
            self.plot(ax=ax)

        picture = ""
        if self:
            png = _present.png_of(draw, size=(4.2 * columns, 3.2 * rows_of_panels))
            picture = f"<img src='data:image/png;base64,{png}'/>"
        return f"<div><table><tr>{head}</tr>{rows}</table>{picture}</div>"
