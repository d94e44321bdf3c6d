"""The bundled example behind ``pyale demo``: Grunfeld's investment data.

Grunfeld's investment data for 11 U.S. firms, 1935-1954 (220 rows), as
recreated by Kleiber and Zeileis (2010) and bundled with statsmodels, which
marks it public domain; see ``pyale/data/README.md``.  An ordinary least
squares model with a product term and firm effects is fitted on the spot,

    invest ~ value * capital + C(firm)

(``value * capital`` is ``value + capital + value:capital``), and the effects
are computed with pyale's R-shaped front-ends, exactly as ALEPlot 1.1 would on
the same data and model.  statsmodels (the ``examples`` extra) is needed only
for fitting.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from typing import Callable

import numpy as np
import pandas as pd

from .inputs import read_csv_exact

__all__ = [
    "FORMULA",
    "FEATURES",
    "DemoEffect",
    "load_grunfeld",
    "fit_model",
    "predict",
    "demo_effects",
]

FORMULA = "invest ~ value * capital + C(firm)"
"""The model fitted by the demo (statsmodels formula)."""

FEATURES = ["value", "capital", "firm"]
"""The columns of ``X``: the model's inputs (the response and ``year`` are left out)."""

K = 40
"""Intervals (ALE) and grid values (PD) for numeric features: ALEPlot's default."""


@dataclass(frozen=True)
class DemoEffect:
    """One effect the demo computes.

    Attributes
    ----------
    stem : str
        File name stem of its CSV and PNG (``"ale_value"``).
    title : str
        One-line description printed above its table.
    compute : callable
        ``compute(X, model, plot=False)`` returning an ``ALEPlotResult`` or
        ``PDPlotResult``.
    """

    stem: str
    title: str
    compute: Callable


def load_grunfeld() -> pd.DataFrame:
    """The bundled Grunfeld data: ``invest``, ``value``, ``capital``, ``firm`` (string), ``year``."""
    with resources.files("pyale").joinpath("data", "grunfeld.csv").open("r", encoding="utf-8") as fh:
        return read_csv_exact(fh)


def fit_model(data: pd.DataFrame):
    """Fit ``FORMULA`` by ordinary least squares (statsmodels); returns the results object."""
    try:
        import statsmodels.formula.api as smf
    except ImportError as exc:
        raise ImportError(
            "The demo fits its model with statsmodels, which is not installed. "
            "Install the examples extra: pip install \".[examples]\" (or pip install statsmodels)."
        ) from exc
    return smf.ols(FORMULA, data=data).fit()


def predict(model, newdata: pd.DataFrame) -> np.ndarray:
    """``pred_fun`` for the R-shaped front-ends: the fitted model's predictions on ``newdata``."""
    return np.asarray(model.predict(newdata), dtype=float)


def demo_effects() -> list[DemoEffect]:
    """The effects ``pyale demo`` computes, in order.

    ALE of a numeric and a categorical feature, the second-order ALE of the
    two numeric features, and the partial dependence of ``value``; all with
    ALEPlot 1.1's conventions (``J`` is 0-based or a name in pyale).
    """
    import pyale

    return [
        DemoEffect(
            "ale_value", f"ALE of 'value' (numeric, ALEPlot K = {K})",
            lambda X, model, plot=False: pyale.ALEPlot(X, model, predict, J="value", K=K, plot=plot),
        ),
        DemoEffect(
            "ale_firm", "ALE of 'firm' (categorical, levels in ALEPlot's order)",
            lambda X, model, plot=False: pyale.ALEPlot(X, model, predict, J="firm", plot=plot),
        ),
        DemoEffect(
            "ale_value_capital", f"Second-order ALE of ('value', 'capital') (ALEPlot K = {K})",
            lambda X, model, plot=False: pyale.ALEPlot(
                X, model, predict, J=("value", "capital"), K=K, plot=plot
            ),
        ),
        DemoEffect(
            "pd_value", f"Partial dependence of 'value' (PDPlot K = {K})",
            lambda X, model, plot=False: pyale.PDPlot(X, model, predict, J="value", K=K, plot=plot),
        ),
    ]
