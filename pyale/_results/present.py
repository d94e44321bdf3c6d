"""How results show themselves: a short ``repr``, a notebook view, and ``equals``.

The result classes (:class:`~pyale.ALEResult`, :class:`~pyale.ALEPlotResult`,
:class:`~pyale.PDPlotResult`, :class:`~pyale.FeatureEffect`,
:class:`~pyale.FeatureEffects`) delegate here.  ``==`` on them is identity
(dataclass ``eq=False``), so it never compares arrays; ``equals`` compares
every array, exactly by default.  The notebook view draws with matplotlib's
Agg canvas (no pyplot, so nothing is shown twice).
"""

from __future__ import annotations

import base64
import dataclasses
import html
import io

import numpy as np
import pandas as pd

from .._core.grid.features import read_feature

__all__ = ["short_repr", "html_view", "same_values", "frames_equal", "png_of", "rug_and_deciles", "FeatureValues",
           "register_display", "display_class"]

RUG_TICKS = 1000
"""At most this many rug ticks per numeric feature (data values evenly spaced in rank)."""


def rug_and_deciles(values: np.ndarray):
    """Rug ticks (at most :data:`RUG_TICKS` data values, evenly spaced in rank) and scikit-learn's deciles."""
    from scipy.stats.mstats import mquantiles

    ordered = np.sort(values)
    if ordered.shape[0] > RUG_TICKS:
        ordered = ordered[np.linspace(0, ordered.shape[0] - 1, RUG_TICKS).round().astype(np.int64)]
    return np.unique(ordered), np.asarray(mquantiles(values, prob=np.arange(0.1, 1.0, 0.1)))


class FeatureValues:
    """The rug ticks and deciles of a numeric feature of the data the effects were computed on.

    Called with a column label; read from the data on first use and kept, so
    that ``result.plot()`` draws the rug :meth:`pyale.ALEDisplay.from_estimator`
    draws.  None for a column it cannot read (or no data: a Dask, Spark or polars lazy frame).
    """

    def __init__(self, X):
        self._X = X
        self._seen: dict = {}

    def __call__(self, name):
        if self._X is None or name not in self._X.columns:
            return None
        key = (type(name), name)
        if key not in self._seen:
            feature = read_feature(self._X[name], label=f"Column {name!r}")
            self._seen[key] = None if feature.categorical else rug_and_deciles(feature.values)
        return self._seen[key]


def _range(values) -> str:
    array = np.asarray(values, dtype=float)
    if array.size == 0 or not np.isfinite(array).any():
        return "[]"
    return f"[{np.nanmin(array):.4g}, {np.nanmax(array):.4g}]"


def _grid_size(result) -> str:
    """``41`` for one feature, ``41 x 21`` for a pair."""
    shape = np.shape(result.effects)[:-1] if hasattr(result, "effects") else np.shape(result.f_values)
    return " x ".join(str(n) for n in shape)


def _label(value) -> str:
    """A column label as written: NumPy scalars as their Python value (``0``, not ``np.int64(0)``)."""
    if isinstance(value, tuple):
        return "(" + ", ".join(_label(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    return repr(value.item() if isinstance(value, np.generic) else value)


def summary(result) -> dict:
    """The facts a reader wants first, as label -> text."""
    if hasattr(result, "effects"):  # ALEResult
        features = result.features[0] if len(result.features) == 1 else result.features
        facts = {
            "features": _label(features), "kind": result.kind, "grid points": _grid_size(result),
            "ALE range": _range(result.effects), "outputs": ", ".join(map(str, result.outputs)),
            "conventions": result.conventions,
        }
        if getattr(result, "method", None) == "gradient":  # finite differences, the default, go unsaid
            facts["method"] = result.method
        if getattr(result, "binning", None) is not None:
            facts["binning"] = result.binning
        return facts
    facts = {"feature": _label(result.feature), "kind": result.kind}
    if hasattr(result, "K"):
        facts["K"] = repr(result.K)
    facts["grid points"] = _grid_size(result)
    facts["f_values range"] = _range(result.f_values)
    return facts


def short_repr(result) -> str:
    """``ALEResult(features='x', kind='numeric', grid points=41, ALE range=[-1, 2], ...)``."""
    return f"{type(result).__name__}(" + ", ".join(f"{k}={v}" for k, v in summary(result).items()) + ")"


def _table(facts: dict) -> str:
    rows = "".join(
        f"<tr><th style='text-align:left'>{html.escape(str(k))}</th><td style='text-align:left'>"
        f"{html.escape(str(v))}</td></tr>"
        for k, v in facts.items()
    )
    return f"<table>{rows}</table>"


def png_of(draw, *, size=(5.0, 3.6)) -> str:
    """``draw(ax)`` on an Agg figure, as base64 PNG text."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=size, layout="constrained")
    FigureCanvasAgg(figure)
    draw(figure.add_subplot())
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=80)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def html_view(title: str, facts: dict, draw, *, size=(5.0, 3.6)) -> str:
    """A notebook view: a heading, a small table of ``facts`` and the picture ``draw(ax)`` makes."""
    try:
        picture = f"<img src='data:image/png;base64,{png_of(draw, size=size)}' alt='{html.escape(title)}'/>"
    except Exception as exc:  # noqa: BLE001 - the table still shows when drawing fails
        picture = f"<p>(no picture: {html.escape(type(exc).__name__)}: {html.escape(str(exc))})</p>"
    return f"<div><strong>{html.escape(title)}</strong>{_table(facts)}{picture}</div>"


def _same(a, b, rtol: float, atol: float) -> bool:
    if isinstance(a, (np.ndarray, list, tuple)) or isinstance(b, (np.ndarray, list, tuple)):
        if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and len(a) == len(b) and any(
            isinstance(x, (np.ndarray, list, tuple)) for x in list(a) + list(b)
        ):
            return all(_same(x, y, rtol, atol) for x, y in zip(a, b))
        x, y = np.asarray(a), np.asarray(b)
        if x.shape != y.shape:
            return False
        if x.dtype.kind in "fc" or y.dtype.kind in "fc":
            if x.dtype.kind not in "biufc" or y.dtype.kind not in "biufc":
                return False
            return bool(np.allclose(x, y, rtol=rtol, atol=atol, equal_nan=True))
        return bool(np.array_equal(x, y))
    if isinstance(a, float) or isinstance(b, float):
        try:
            return bool(np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=True))
        except TypeError:
            return False
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - incomparable values are different
        return False


def same_values(a, b, *, rtol: float = 0.0, atol: float = 0.0, skip: tuple = ("display",)) -> bool:
    """Whether two result dataclasses of the same type hold the same values.

    Floating arrays compare with ``numpy.allclose(rtol, atol, equal_nan=True)``
    (exactly by default); everything else exactly.
    """
    if type(a) is not type(b):
        return False
    return all(
        _same(getattr(a, f.name), getattr(b, f.name), rtol, atol)
        for f in dataclasses.fields(a)
        if f.name not in skip
    )


def frames_equal(a: pd.DataFrame, b: pd.DataFrame, *, rtol: float = 0.0, atol: float = 0.0) -> bool:
    """Same columns, dtypes and values (floating columns within ``rtol``/``atol``)."""
    if list(a.columns) != list(b.columns) or a.shape != b.shape or list(a.dtypes) != list(b.dtypes):
        return False
    for name in a.columns:
        x, y = a[name], b[name]
        if pd.api.types.is_float_dtype(x.dtype):
            if not np.allclose(x.to_numpy(float), y.to_numpy(float), rtol=rtol, atol=atol, equal_nan=True):
                return False
        elif not x.reset_index(drop=True).equals(y.reset_index(drop=True)):
            return False
    return True


_DISPLAYS: dict = {}
"""Display class name -> the class, as the plotting layer registered it."""


def register_display(display: type) -> type:
    """Class decorator: make ``display``, a class of the plotting layer, known here by its name.

    Results sit below the plotting layer (``pyale._plot``) and never import
    it: their ``plot()`` asks :func:`display_class` for the display by name.
    The plotting layer imports the results and registers each of its
    displays here as it is defined; ``import pyale`` imports the plotting
    layer, so every display is registered before any result exists.
    """
    _DISPLAYS[display.__name__] = display
    return display


def display_class(name: str) -> type:
    """The display class registered under ``name`` (``"ALEDisplay"``, ``"RPlotDisplay"``, ...)."""
    try:
        return _DISPLAYS[name]
    except KeyError:
        raise RuntimeError(
            f"No display named {name!r} is registered; pyale's plotting layer (pyale._plot, imported by "
            f"`import pyale`) registers {sorted(_DISPLAYS)!r}."
        ) from None
