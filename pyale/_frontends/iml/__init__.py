"""iml 0.11.4's front-end: ``Predictor``, ``FeatureEffect``, ``FeatureEffects`` and their tables."""

from .effects import FeatureEffect, FeatureEffects
from .predictor import Predictor

__all__ = ["Predictor", "FeatureEffect", "FeatureEffects"]
