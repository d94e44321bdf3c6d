"""Argument checks of iml's ``FeatureEffect`` and ``FeatureEffects`` (scikit-learn's message shape)."""

from __future__ import annotations

import numbers
from collections.abc import Hashable

import numpy as np
import pandas as pd

from .predictor import Predictor
from ..._inputs.checks import check_choice, check_finite_number, check_int

__all__ = [
    "check_predictor",
    "check_method",
    "known_label",
    "resolve_features",
    "is_label",
    "check_feature_list",
    "check_center_at",
    "level_list",
    "check_grid_size",
]

_CALLER = "FeatureEffect"
METHODS = ("ale", "pdp", "ice", "pdp+ice")


def check_predictor(predictor: object, caller: str) -> Predictor:
    if not isinstance(predictor, Predictor):
        raise TypeError(
            f"The 'predictor' parameter of {caller} must be a pyale.Predictor. "
            f"Got {type(predictor).__name__} instead."
        )
    return predictor


def check_method(method: object, caller: str) -> str:
    return check_choice(method, METHODS, param="method", caller=caller)


def known_label(item: object, names: list):
    """The label in ``names`` equal to ``item`` (None for bools, arrays and unknown values)."""
    if isinstance(item, (bool, np.bool_)) or not isinstance(item, Hashable):
        return None
    matches = [name for name in names if name == item]
    return matches[0] if matches else None


def resolve_features(predictor: Predictor, feature: object) -> tuple:
    """One or two feature labels (names, or 0-based positions among the features).

    A tuple that is itself a feature's label (not a pair of features) names that feature.
    """
    items = list(feature) if isinstance(feature, (list, tuple, np.ndarray, pd.Index)) else [feature]
    if isinstance(feature, tuple) and is_label(feature, predictor.feature_names):
        if len(items) == 2 and all(is_label(item, predictor.feature_names) for item in items):
            raise ValueError(
                f"The 'feature' parameter of {_CALLER} is ambiguous: {feature!r} is a feature and also a "
                f"pair of features. Pass [{feature!r}] for the one feature, or a list for the pair."
            )
        items = [feature]
    items = [v.item() if isinstance(v, np.generic) else v for v in items]
    if not 1 <= len(items) <= 2:
        raise ValueError(
            f"The 'feature' parameter of {_CALLER} must name one feature or a pair. "
            f"Got {len(items)} items ({items!r}) instead."
        )
    names = []
    for item in items:
        label = known_label(item, predictor.feature_names)
        if label is not None:
            names.append(label)
        elif isinstance(item, numbers.Integral) and not isinstance(item, bool) and 0 <= item < len(predictor.feature_names):
            names.append(predictor.feature_names[int(item)])
        else:
            raise ValueError(
                f"The 'feature' parameter of {_CALLER} must name features of the predictor's data "
                f"(or 0-based positions). Got {item!r}; the features are {predictor.feature_names!r}."
            )
    if len(names) == 2 and names[0] == names[1]:
        raise ValueError(
            f"The 'feature' parameter of {_CALLER} must name two different features. Got {items!r}."
        )
    return tuple(names)


def is_label(item: object, labels: list) -> bool:
    try:
        return item in labels
    except (TypeError, ValueError):  # unhashable or array-like items
        return False


def check_feature_list(predictor: Predictor, features: object, caller: str) -> list:
    """FeatureEffects' features: all by default, else distinct feature names."""
    if features is None:
        return list(predictor.feature_names)
    items = list(features) if isinstance(features, (list, tuple, np.ndarray, pd.Index)) else [features]
    if isinstance(features, tuple) and is_label(features, predictor.feature_names):
        items = [features]  # a tuple label is one feature
    items = [v.item() if isinstance(v, np.generic) else v for v in items]
    if not items:
        raise ValueError(
            f"The 'features' parameter of {caller} must name at least one feature (None: all). "
            f"Got {features!r} instead."
        )
    labels = [known_label(item, predictor.feature_names) for item in items]
    unknown = [item for item, label in zip(items, labels) if label is None]
    if unknown:
        raise ValueError(
            f"The 'features' parameter of {caller} must name features of the predictor's data. "
            f"Got unknown {unknown!r}; the features are {predictor.feature_names!r}."
        )
    repeated = list(dict.fromkeys(label for i, label in enumerate(labels) if label in labels[:i]))
    if repeated:
        raise ValueError(
            f"The 'features' parameter of {caller} must name each feature once. Got {repeated!r} "
            "more than once."
        )
    return labels


def check_center_at(center_at: object, caller: str = _CALLER):
    """None, a finite number, or a string (a level); NumPy scalars become Python values."""
    if center_at is None or isinstance(center_at, str):
        return None if center_at is None else str(center_at)
    if isinstance(center_at, np.generic) and center_at.dtype.kind in "biuf":
        center_at = center_at.item()
    if isinstance(center_at, bool) or not isinstance(center_at, numbers.Real):
        raise TypeError(
            f"The 'center_at' parameter of {caller} must be a number (or a level of a "
            f"categorical feature). Got {center_at!r} instead."
        )
    check_finite_number(center_at, param="center_at", caller=caller, what="a finite number (or a level of a categorical feature)")
    return center_at


def level_list(points: object, feature) -> list:
    """Levels a user lists as grid points of a categorical feature (NumPy scalars as Python values)."""
    items = list(points) if isinstance(points, (list, tuple, np.ndarray, pd.Index, pd.Series, pd.Categorical)) else [points]
    if any(isinstance(v, (list, tuple, np.ndarray, dict, set)) or not isinstance(v, Hashable) for v in items):
        raise TypeError(
            f"The 'grid_points' parameter of {_CALLER} must hold levels of feature {feature.name!r}. "
            f"Got {points!r} instead."
        )
    return [v.item() if isinstance(v, np.generic) else v for v in items]


def check_grid_size(grid_size: object, n_features: int) -> tuple[int, ...]:
    """One grid size per feature from an int (or whole float) or a sequence of one or ``n_features``."""
    sizes = list(grid_size) if isinstance(grid_size, (list, tuple, np.ndarray, pd.Index, pd.Series)) else [grid_size]
    if not 1 <= len(sizes) <= n_features:
        raise ValueError(
            f"The 'grid_size' parameter of {_CALLER} must hold one size, or one per feature "
            f"({n_features}). Got {grid_size!r} instead."
        )
    out = [check_int(size, param="grid_size", caller=_CALLER, minimum=1) for size in sizes]
    return tuple(out * n_features if len(out) == 1 else out)
