"""pyale: Accumulated Local Effects with the same numbers as R's ALEPlot, iml and ale.

Public surface
--------------
ale, ALEResult, ALEResults
    The Pythonic front door: any fitted model, any data frame (pandas,
    polars, pyarrow, NumPy), ALEPlot's or iml's conventions.
model_bootstrap
    ALE bands from refitting the model on resampled rows (model uncertainty).
ALEDisplay
    Many effects in one figure, in scikit-learn's Display pattern.
ALEPlot, ALEPlotResult
    R's ``ALEPlot::ALEPlot`` (one feature or a pair).
PDPlot, PDPlotResult
    R's ``ALEPlot::PDPlot`` (one feature or a pair).
PredictionError
    Raised when the model fails or returns something ALE cannot use.
Predictor, FeatureEffect, FeatureEffects
    iml's classes (``Predictor$new``, ``FeatureEffect$new``, ``FeatureEffects$new``)
    with iml's ``results`` tables.
ALE
    R's ``ale::ALE`` (ale 0.5.0) with its ``get()`` tables, bootstrap bands and
    ALE statistics.
ALEpDist
    R's ``ale::ALEpDist``: the random-variable distributions of the ALE
    statistics that give ``ALE(..., p_values=)`` its p-values.

Everything else lives in private modules.  ``import pyale`` imports neither
matplotlib nor rpy2.
"""

from ._api import ALEResult, ale
from ._result_list import ALEResults
from ._model_bootstrap import model_bootstrap
from ._plot.display import ALEDisplay
from ._aleplot import ALEPlot
from ._pdplot import PDPlot
from ._results import ALEPlotResult, PDPlotResult
from ._core.calls import PredictionError
from ._iml import FeatureEffect, FeatureEffects, Predictor
from ._alepkg.ale import ALE
from ._alepkg.pdist import ALEpDist

__all__ = [
    "ale",
    "ALEResult",
    "ALEResults",
    "model_bootstrap",
    "ALEDisplay",
    "ALEPlot",
    "ALEPlotResult",
    "PDPlot",
    "PDPlotResult",
    "PredictionError",
    "Predictor",
    "FeatureEffect",
    "FeatureEffects",
    "ALE",
    "ALEpDist",
    "__version__",
]

__version__ = "0.1.0"
