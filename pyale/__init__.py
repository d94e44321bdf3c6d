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
check_shape, ShapeCheck, materiality, Materiality, reason_codes, ReasonCodes
    Verdicts from finished effects: shape checks with bootstrap verdicts,
    materiality ranking with rank intervals, reason codes from main effects.
compare, Comparison
    One feature's effect across segments, periods or data sets: curves on a
    common grid, differences with simultaneous bands, a permutation p-value.
report, Report
    A fileable evidence package (HTML, PDF, CSV, JSON): effects, shape
    checks, stability across segments and periods (also ``pyale report``).
ALE
    R's ``ale::ALE`` (ale 0.5.0) with its ``get()`` tables, bootstrap bands and
    ALE statistics.
ALEpDist
    R's ``ale::ALEpDist``: the random-variable distributions of the ALE
    statistics that give ``ALE(..., p_values=)`` its p-values.
ModelBoot
    R's ``ale::ModelBoot``: the model refitted on R's resamples, with its ALE,
    bootstrap-validated (.632) performance and coefficient tables.
invert_probs
    R's ``ale::invert_probs``: an ALE of probabilities for the complementary outcome.
regional, RegionalResult, Region
    Regional effects: the rows split on other columns where a feature's local
    effects disagree (effector 0.6.0's ``find_regions``), with the feature's
    ALE in each region.

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
from ._alepkg.boot import ModelBoot
from ._alepkg.invert import invert_probs
from ._verdicts import Materiality, ReasonCodes, ShapeCheck, check_shape, materiality, reason_codes
from ._regional import Region, RegionalResult, regional
from ._core.binning import HeterogeneityBinning
from ._verdicts.compare import compare
from ._verdicts.comparison import Comparison
from ._cli.evidence import Report, report

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
    "ModelBoot",
    "invert_probs",
    "check_shape",
    "ShapeCheck",
    "materiality",
    "Materiality",
    "reason_codes",
    "ReasonCodes",
    "regional",
    "RegionalResult",
    "Region",
    "HeterogeneityBinning",
    "compare",
    "Comparison",
    "report",
    "Report",
    "__version__",
]

__version__ = "0.1.0"
