"""Turning a fitted model into ``predict(frame) -> array``.

Chosen by what the object can do, without importing scikit-learn,
statsmodels or rpy2:

* an R model object (rpy2) -> R's ``predict(model, newdata = <data.frame>)``
  through :mod:`pyale.r`;
* a classifier with ``predict_proba`` and ``classes_`` (scikit-learn) ->
  class probabilities, one output per class (``response=`` picks some);
* a statsmodels results object (``model`` with ``exog_names``) ->
  ``results.predict(frame)``, which applies a formula when there is one;
* anything else with ``predict`` -> ``model.predict(frame)``;
* a plain callable -> ``model(frame)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np
import pandas as pd

__all__ = ["Adapter", "adapt_model"]


@dataclass(frozen=True)
class Adapter:
    """A prediction function and what it predicts.

    Attributes
    ----------
    predict : callable
        ``predict(frame) -> array`` of shape ``(n,)`` or ``(n, n_outputs)``.
    kind : str
        Which rule was used (``"sklearn-classifier"``, ``"statsmodels"``,
        ``"predict"``, ``"callable"``, ``"r"``).
    output_names : list or None
        Names of the outputs when known in advance (classes).
    """

    predict: Callable[[pd.DataFrame], object]
    kind: str
    output_names: list | None = None


def _is_r_object(model: object) -> bool:
    return type(model).__module__.startswith("rpy2.")


def _select(names: list, response, *, what: str):
    wanted = [response] if np.ndim(response) == 0 else list(response)
    missing = [r for r in wanted if r not in names]
    if missing:
        raise ValueError(
            f"The 'response' parameter names no {what} of the model: {missing!r}. "
            f"The {what}es are {names!r}."
        )
    return [names.index(r) for r in wanted], wanted


def adapt_model(model: object, *, response: object | Sequence | None = None) -> Adapter:
    """Choose how to call ``model`` on a DataFrame.

    Parameters
    ----------
    model : object
        A fitted scikit-learn estimator or pipeline, a statsmodels results
        object, an R model (rpy2), or a callable ``f(frame)``.
    response : label or list of labels, optional
        For a classifier, the class(es) whose probability to explain; all
        classes by default.

    Returns
    -------
    Adapter
    """
    if _is_r_object(model):
        from ..r import RModel

        return adapt_model(RModel(model), response=response)
    if type(model).__name__ == "RModel" and type(model).__module__ == "pyale.r":
        return _r_model_adapter(model, response)
    if hasattr(model, "predict_proba") and hasattr(model, "classes_"):
        classes = list(np.asarray(model.classes_).tolist())
        columns = list(range(len(classes)))
        if response is not None:
            columns, classes = _select(classes, response, what="class")

        def predict(frame: pd.DataFrame) -> np.ndarray:
            return np.asarray(model.predict_proba(frame))[:, columns]

        return Adapter(predict, "sklearn-classifier", classes)
    if response is not None:
        raise ValueError(
            "The 'response' parameter selects classes of a classifier with predict_proba; "
            f"{type(model).__name__} has none. Got {response!r} instead."
        )
    inner = getattr(model, "model", None)
    if hasattr(model, "predict") and inner is not None and hasattr(inner, "exog_names"):

        def predict(frame: pd.DataFrame) -> np.ndarray:
            return np.asarray(model.predict(frame), dtype=float)

        return Adapter(predict, "statsmodels")
    if hasattr(model, "predict"):
        return Adapter(model.predict, "predict")
    if callable(model):
        return Adapter(model, "callable")
    raise TypeError(
        "The 'model' parameter must be a fitted model with predict or predict_proba, an R model "
        f"object, or a callable f(frame). Got {type(model).__name__} instead."
    )


def _r_model_adapter(model, response) -> Adapter:
    """R's ``predict``; for a matrix answer (e.g. ``type = "prob"``) ``response`` picks columns by name."""
    if response is None:
        return Adapter(model.predict, "r")
    wanted = [response] if np.ndim(response) == 0 else list(response)

    def predict(frame: pd.DataFrame):
        answer = model.predict(frame)
        columns = [str(c) for c in getattr(answer, "columns", [])]
        missing = [w for w in wanted if str(w) not in columns]
        if missing:
            raise ValueError(
                f"The 'response' parameter must name columns of R's predict() answer {columns!r} "
                f"(e.g. with type = \"prob\"). Got {response!r} instead."
            )
        return answer[[str(w) for w in wanted]].to_numpy(dtype=float)

    return Adapter(predict, "r", [str(w) for w in wanted])
