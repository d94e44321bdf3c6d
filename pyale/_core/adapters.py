"""Turning a fitted model into ``predict(frame) -> array``.

Chosen by what the object can do, without importing scikit-learn,
statsmodels or rpy2:

* an R model object (rpy2) -> R's ``predict(model, newdata = <data.frame>)``
  through :mod:`pyale.r`;
* a native ``xgboost.Booster`` -> ``booster.predict(DMatrix(frame))`` on its
  own features in its own order (``enable_categorical`` when the frame has
  categories);
* a native ``lightgbm.Booster`` -> ``booster.predict(frame)`` on the columns
  ``booster.feature_name()`` names, in that order;
* a classifier with ``predict_proba`` and ``classes_`` (scikit-learn) ->
  class probabilities, one output per class (``response=`` picks some);
* a statsmodels results object (``model`` with ``exog_names``) ->
  ``results.predict(frame)``, which applies a formula when there is one;
* anything else with ``predict`` -> ``model.predict(frame)``;
* a plain callable -> ``model(frame)``.

What the model is handed (:func:`feeder`): a scikit-learn model fitted on a
DataFrame (``feature_names_in_``) gets a pandas DataFrame of exactly those
columns in that order, extra columns dropped; one fitted on a NumPy array
(``n_features_in_`` without names) gets a NumPy array, so scikit-learn has
no feature names to warn about; statsmodels, R and the boosters get pandas;
any other model or callable gets the type the user passed (a polars frame in,
polars frames to the model).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Sequence

import numpy as np
import pandas as pd

if TYPE_CHECKING:  # the front-ends' boundary type; the core only reads its ``convert``
    from .._frames import Native

__all__ = ["Adapter", "adapt_model", "declared_features", "feeder"]


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


def _is_booster(model: object, package: str) -> bool:
    kind = type(model)
    return kind.__name__ == "Booster" and kind.__module__.split(".")[0] == package


def _selector(names: list, what: str) -> Callable[[pd.DataFrame], pd.DataFrame]:
    """``frame`` reduced to ``names`` in that order (no copy when it already is)."""

    def select(frame: pd.DataFrame) -> pd.DataFrame:
        if list(frame.columns) == names:
            return frame
        missing = [n for n in names if n not in frame.columns]
        if missing:
            raise ValueError(
                f"{what} expects columns {names!r}; the data lacks {missing!r}."
            )
        return frame[names]

    return select


def declared_features(model: object) -> list | None:
    """The columns ``model`` says it uses, in its order, or None when it does not say.

    scikit-learn's ``feature_names_in_`` (also the scikit-learn interfaces of
    xgboost and lightgbm, when fitted on a DataFrame); a native lightgbm
    ``Booster``'s ``feature_name()`` (not its positional ``Column_0``,
    ``Column_1``, ... of a booster trained on an array); a native xgboost
    ``Booster``'s ``feature_names``.  These are the columns the adapters
    select, so anything else in the data can be left out.
    """
    names = getattr(model, "feature_names_in_", None)
    if names is not None:
        return [str(n) if isinstance(n, np.str_) else n for n in np.asarray(names).tolist()]
    if _is_booster(model, "lightgbm"):
        names = list(model.feature_name())
        return None if names == [f"Column_{i}" for i in range(len(names))] else names
    if _is_booster(model, "xgboost"):
        return None if model.feature_names is None else list(model.feature_names)
    return None


def feeder(model: object, native: Native | None = None) -> Callable[[pd.DataFrame], object] | None:
    """What ``model`` should be handed for an internal pandas frame.

    scikit-learn models fitted on a DataFrame get a DataFrame of their
    ``feature_names_in_`` columns in that order; fitted on a NumPy array
    (``n_features_in_`` without names) a NumPy array; anything else the type
    the user passed (``native``).  None means "the pandas frame as it is".
    """
    names = getattr(model, "feature_names_in_", None)
    if names is not None:
        return _selector(np.asarray(names).tolist(), f"{type(model).__name__} (feature_names_in_)")
    if hasattr(model, "n_features_in_"):
        return _to_numpy
    return None if native is None else native.convert


def _to_numpy(frame: pd.DataFrame) -> np.ndarray:
    """``frame``'s values as an array the model may write to (copy-on-write's views are read-only)."""
    out = frame.to_numpy()
    return out if out.flags.writeable else out.copy()


def _fed(predict: Callable, feed: Callable | None) -> Callable:
    """``predict`` applied to ``feed(frame)``."""
    return predict if feed is None else (lambda frame: predict(feed(frame)))


def adapt_model(model: object, *, response: object | Sequence | None = None,
                native: Native | None = None) -> Adapter:
    """Choose how to call ``model`` on a DataFrame.

    Parameters
    ----------
    model : object
        A fitted scikit-learn estimator or pipeline, a statsmodels results
        object, an R model (rpy2), a native xgboost or lightgbm ``Booster``,
        or a callable ``f(frame)``.
    response : label or list of labels, optional
        For a classifier, the class(es) whose probability to explain; all
        classes by default.
    native : Native, optional
        What the user passed as X (see :func:`pyale._frames.as_pandas`):
        plain callables and unknown models are handed that type (pandas
        when None).

    Returns
    -------
    Adapter
    """
    if _is_r_object(model):
        from ..r import RModel

        return adapt_model(RModel(model), response=response)
    if type(model).__name__ == "RModel" and type(model).__module__ == "pyale.r":
        return _r_model_adapter(model, response)
    if _is_booster(model, "xgboost") or _is_booster(model, "lightgbm"):
        if response is not None:
            raise ValueError(
                "The 'response' parameter selects classes of a classifier with predict_proba; "
                f"a native {type(model).__module__.split('.')[0]} Booster has none (its outputs "
                f"are named 0, 1, ...). Got {response!r} instead."
            )
        if _is_booster(model, "xgboost"):
            return Adapter(_xgboost_predict(model), "xgboost-booster")
        return Adapter(_lightgbm_predict(model), "lightgbm-booster")
    feed = feeder(model, native)
    if hasattr(model, "predict_proba") and hasattr(model, "classes_"):
        classes = list(np.asarray(model.classes_).tolist())
        columns = list(range(len(classes)))
        if response is not None:
            columns, classes = _select(classes, response, what="class")

        proba = _fed(model.predict_proba, feed)

        def predict(frame: pd.DataFrame) -> np.ndarray:
            return np.asarray(proba(frame))[:, columns]

        return Adapter(predict, "sklearn-classifier", classes)
    if response is not None:
        raise ValueError(
            "The 'response' parameter selects classes of a classifier with predict_proba; "
            f"{type(model).__name__} has none. Got {response!r} instead."
        )
    inner = getattr(model, "model", None)
    if hasattr(model, "predict") and inner is not None and hasattr(inner, "exog_names"):

        # As it comes (a Series indexed like the frame when there is a formula): the
        # model caller reads it by label (pyale._core.calls.rows_in_order).
        return Adapter(model.predict, "statsmodels")
    if hasattr(model, "predict"):
        return Adapter(_fed(model.predict, feed), "predict")
    if callable(model):
        return Adapter(_fed(model, feed), "callable")
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
        return answer[[str(w) for w in wanted]]

    return Adapter(predict, "r", [str(w) for w in wanted])


def _xgboost_predict(booster) -> Callable[[pd.DataFrame], np.ndarray]:
    """``booster.predict(DMatrix)`` on the booster's features in its order.

    A booster trained without feature names gets the frame's columns by
    position.  ``enable_categorical`` is set when a column is a pandas
    Categorical (xgboost then reads the categories; it refuses them otherwise).
    """
    import xgboost

    names = booster.feature_names
    select = (lambda frame: frame) if names is None else _selector(list(names), "the xgboost Booster")

    def predict(frame: pd.DataFrame) -> np.ndarray:
        frame = select(frame)
        categorical = any(isinstance(dtype, pd.CategoricalDtype) for dtype in frame.dtypes)
        data = frame if names is not None or categorical else frame.to_numpy()
        return np.asarray(booster.predict(xgboost.DMatrix(data, enable_categorical=categorical)))

    return predict


def _lightgbm_predict(booster) -> Callable[[pd.DataFrame], np.ndarray]:
    """``booster.predict(frame)`` on the columns ``booster.feature_name()`` names, in that order.

    lightgbm maps pandas Categorical columns to the categories it was trained
    on (``pandas_categorical`` in the model).  A booster trained on an array
    (names ``Column_0``, ``Column_1``, ...) gets the frame's values by position.
    """
    names = list(booster.feature_name())
    positional = names == [f"Column_{i}" for i in range(len(names))]
    select = None if positional else _selector(names, "the lightgbm Booster")

    def predict(frame: pd.DataFrame) -> np.ndarray:
        if select is None:
            return np.asarray(booster.predict(frame.to_numpy()))
        return np.asarray(booster.predict(select(frame)))

    return predict
