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
  with ``response_method`` (scikit-learn's ``"auto"`` order) a classifier
  without ``predict_proba`` gives its ``decision_function`` scores (one for
  a binary classifier, of ``classes_[1]``), and one without either its
  labels, with a warning;
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

import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Sequence

import numpy as np
import pandas as pd

if TYPE_CHECKING:  # the front-ends' boundary type; the core only reads its ``convert``
    from ..._inputs.frames import Native

__all__ = ["Adapter", "RESPONSE_METHODS", "adapt_model", "declared_features", "feeder",
           "match_columns", "response_method_of"]


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


def lightgbm_name(column: object) -> str:
    """The feature name LightGBM keeps for a column: ``str(column)`` with each space written ``'_'``.

    LightGBM names a pandas column ``str(label)``, and its C++ ``Dataset``
    (``set_feature_names``) replaces every ``' '`` by ``'_'``, so a model
    fitted on ``"mean radius"`` calls it ``"mean_radius"`` (in
    ``feature_name()`` and in the scikit-learn interface's
    ``feature_names_in_``).
    """
    return str(column).replace(" ", "_")


def from_lightgbm(model: object) -> bool:
    """Whether ``model``'s feature names are LightGBM's (a lightgbm model, or a pipeline that starts with one)."""
    steps = getattr(model, "steps", None)
    if isinstance(steps, list) and steps and isinstance(steps[0], tuple) and len(steps[0]) == 2:
        return from_lightgbm(steps[0][1])
    return type(model).__module__.split(".")[0] == "lightgbm"


def match_columns(names: list, columns: Sequence, *, lightgbm: bool = False) -> tuple[list, list]:
    """The columns of the data that ``names`` (a model's feature names) denote, and the names none does.

    A name denotes the column of that label.  A name no column carries
    denotes the one column LightGBM would give that name
    (:func:`lightgbm_name`: ``"mean radius"`` for ``"mean_radius"``), so a
    model whose names LightGBM rewrote finds the columns it was fitted on.
    For a LightGBM model (``lightgbm=True``) a name is LightGBM's in any
    case, and two columns LightGBM would give the same name (``"a b"`` and
    ``"a_b"``) are refused, as pyale cannot tell which one the model saw.
    """
    columns = list(columns)
    found, missing = [], []
    for name in names:
        matches = [] if lightgbm else [c for c in columns if c == name]
        if not matches:
            matches = [c for c in columns if lightgbm_name(c) == name]
        if len(matches) > 1:
            raise ValueError(
                f"The model's feature {name!r} could be any of the columns {matches!r}: LightGBM writes spaces "
                "in feature names as '_', so pyale cannot tell which one it was fitted on. Drop or rename "
                "the others."
            )
        (found if matches else missing).append(matches[0] if matches else name)
    return found, missing


def _selector(names: list, what: str, *, lightgbm: bool = False,
              from_numpy: bool = False) -> Callable[[pd.DataFrame], pd.DataFrame]:
    """``frame`` reduced to the columns ``names`` denote, in that order (no copy when it already is).

    The columns are found by :func:`match_columns` (LightGBM's names with
    spaces written ``'_'`` denote the columns the model was fitted on).
    ``from_numpy``: the user passed a NumPy array (columns x0, x1, ...), so
    missing names come with a hint about ``feature_names=``.
    """
    def select(frame: pd.DataFrame) -> pd.DataFrame:
        if list(frame.columns) == names:
            return frame
        columns, missing = match_columns(names, frame.columns, lightgbm=lightgbm)
        if missing:
            hint = ""
            if from_numpy and list(frame.columns) == [f"x{i}" for i in range(frame.shape[1])]:
                hint = (" X is a NumPy array, whose columns are named x0, x1, ... unless feature_names= names "
                        "them: pass feature_names=model.feature_names_in_ (the names the model was fitted "
                        "with), or X as a DataFrame.")
            raise ValueError(
                f"{what} expects columns {names!r}; the data lacks {missing!r}.{hint}"
            )
        return frame if list(frame.columns) == columns else frame[columns]

    return select


def declared_features(model: object) -> list | None:
    """The columns ``model`` says it uses, in its order, or None when it does not say.

    scikit-learn's ``feature_names_in_`` (also the scikit-learn interfaces of
    xgboost and lightgbm, when fitted on a DataFrame); a native lightgbm
    ``Booster``'s ``feature_name()`` (not its positional ``Column_0``,
    ``Column_1``, ... of a booster trained on an array); a native xgboost
    ``Booster``'s ``feature_names``; a CatBoost model's ``feature_names_``
    when it was trained on a DataFrame.  These are the columns the adapters
    select (:func:`match_columns` finds them in the data), so anything else
    in the data can be left out.
    """
    names = getattr(model, "feature_names_in_", None)
    if names is not None:
        return [str(n) if isinstance(n, np.str_) else n for n in np.asarray(names).tolist()]
    if _is_booster(model, "lightgbm"):
        names = list(model.feature_name())
        return None if names == [f"Column_{i}" for i in range(len(names))] else names
    if _is_booster(model, "xgboost"):
        return None if model.feature_names is None else list(model.feature_names)
    return _catboost_features(model)


def _catboost_features(model: object) -> list | None:
    """A fitted CatBoost model's ``feature_names_``, or None (not CatBoost, or ``'0'``, ``'1'``, ... of an array).

    CatBoost (not a dependency: recognised by its module and attribute)
    names the features of a DataFrame by its columns and matches a
    DataFrame's columns by name when it predicts; trained on an array it
    names them ``'0'``, ``'1'``, ... and reads columns by position.
    """
    if type(model).__module__.split(".")[0] != "catboost":
        return None
    names = getattr(model, "feature_names_", None)
    if not isinstance(names, (list, tuple)) or not names:
        return None
    names = list(names)
    return None if names == [str(i) for i in range(len(names))] else names


def feeder(model: object, native: Native | None = None) -> Callable[[pd.DataFrame], object] | None:
    """What ``model`` should be handed for an internal pandas frame.

    scikit-learn models fitted on a DataFrame get a DataFrame of their
    ``feature_names_in_`` columns in that order (found by
    :func:`match_columns`), a CatBoost model trained on a DataFrame its
    ``feature_names_`` columns; fitted on a NumPy array
    (``n_features_in_`` without names) a NumPy array; anything else the type
    the user passed (``native``).  None means "the pandas frame as it is".
    """
    names = getattr(model, "feature_names_in_", None)
    if names is not None:
        return _selector(np.asarray(names).tolist(), f"{type(model).__name__} (feature_names_in_)",
                         lightgbm=from_lightgbm(model), from_numpy=native is not None and native.kind == "numpy")
    names = _catboost_features(model)
    if names is not None:
        return _selector(names, f"{type(model).__name__} (feature_names_)",
                         from_numpy=native is not None and native.kind == "numpy")
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


RESPONSE_METHODS = ("auto", "predict_proba", "decision_function", "predict")


def response_method_of(model: object, requested: str | None, *, caller: str = "pyale") -> str:
    """The method that answers for ``model``: ``"predict_proba"``, ``"decision_function"`` or ``"predict"``.

    ``"auto"`` follows scikit-learn (``sklearn.inspection.partial_dependence``):
    a classifier (a model with ``classes_``) is asked ``predict_proba``, else
    ``decision_function``, else ``predict`` (its labels, with a
    ``UserWarning``); any other model ``predict``.  None is the
    R-shaped front-ends' rule: ``predict_proba`` when the classifier has it,
    else ``predict``, without a word.  A method named explicitly must exist.
    """
    classifier = hasattr(model, "classes_")
    if requested in (None, "auto"):
        if classifier and hasattr(model, "predict_proba"):
            return "predict_proba"
        if requested is not None and classifier:
            if hasattr(model, "decision_function"):
                return "decision_function"
            _refuse_text_labels(model, caller)
            warnings.warn(
                f"{type(model).__name__} has neither predict_proba nor decision_function: pyale explains its "
                "predicted class labels (predict), which jump between classes and average to fractions. "
                "Pass response_method='predict' (pyale run: --response-method predict) to explain them without "
                "this warning, or fit a model that scores its classes.",
                UserWarning, stacklevel=5,
            )
        return "predict"
    if requested == "predict" and classifier:
        _refuse_text_labels(model, caller)
    if requested != "predict" and not hasattr(model, requested):
        has = [m for m in RESPONSE_METHODS[1:] if m == "predict" or hasattr(model, m)]
        raise ValueError(
            f"The 'response_method' parameter of {caller} must be 'auto' or a method of "
            f"{type(model).__name__} ({', '.join(map(repr, has))}). Got {requested!r} instead."
        )
    return requested


def _refuse_text_labels(model: object, caller: str) -> None:
    """Refuse explaining ``predict``'s class labels when they are not numbers (ALE averages predictions)."""
    classes = np.asarray(getattr(model, "classes_", []))
    if classes.dtype.kind in "biuf" or (classes.dtype.kind == "O" and all(
            isinstance(c, (int, float, np.integer, np.floating)) and not isinstance(c, (bool, np.bool_))
            for c in classes.tolist())):
        return
    has = [m for m in ("predict_proba", "decision_function") if hasattr(model, m)]
    raise ValueError(
        f"The 'response_method' parameter of {caller} asks {type(model).__name__} for its predicted class labels "
        f"(predict), and they are not numbers ({classes.tolist()[:5]!r}): ALE averages predictions, so labels "
        "cannot be explained. "
        + (f"Use response_method={has[0]!r}." if has else
           "Fit a model that scores its classes (predict_proba or decision_function), or encode the labels as "
           "numbers (e.g. 0 and 1).")
    )


def adapt_model(model: object, *, response: object | Sequence | None = None,
                native: Native | None = None, response_method: str | None = None,
                caller: str = "pyale") -> Adapter:
    """Choose how to call ``model`` on a DataFrame.

    Parameters
    ----------
    model : object
        A fitted scikit-learn estimator or pipeline, a statsmodels results
        object, an R model (rpy2), a native xgboost or lightgbm ``Booster``,
        or a callable ``f(frame)``.
    response : label or list of labels, optional
        For a classifier, the class(es) whose probability (or decision
        score) to explain; all classes by default.
    native : Native, optional
        What the user passed as X (see :func:`pyale._inputs.frames.as_pandas`):
        plain callables and unknown models are handed that type (pandas
        when None).
    response_method : {"auto", "predict_proba", "decision_function", "predict"}, optional
        Checked by the front-end; see :func:`response_method_of` ("auto" is
        scikit-learn's order).  None (the R-shaped front-ends): class
        probabilities when the model has ``predict_proba`` and ``classes_``,
        else ``predict``.
    caller : str, default "pyale"
        The front-end named in the message refusing a ``response_method``
        the model does not have.

    Returns
    -------
    Adapter
    """
    method = response_method_of(model, response_method, caller=caller)
    if _is_r_object(model):
        from ...r import RModel

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
    if method == "decision_function" and hasattr(model, "classes_"):
        return _decision_adapter(model, response, feed)
    if method == "predict_proba" and hasattr(model, "classes_"):
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
            "The 'response' parameter selects classes of a classifier with predict_proba or "
            f"decision_function; {type(model).__name__} answers {method} here. Got {response!r} instead."
        )
    if method != "predict":  # a method asked for by name, on a model without classes_: its outputs as they come
        return Adapter(_fed(getattr(model, method), feed), method)
    inner = getattr(model, "model", None)
    if hasattr(model, "predict") and inner is not None and hasattr(inner, "exog_names"):

        # As it comes (a Series indexed like the frame when there is a formula): the
        # model caller reads it by label (pyale._core.map.calls.rows_in_order).
        return Adapter(model.predict, "statsmodels")
    if hasattr(model, "predict"):
        return Adapter(_fed(model.predict, feed), "predict")
    if callable(model):
        return Adapter(_fed(model, feed), "callable")
    raise TypeError(
        "The 'model' parameter must be a fitted model with predict or predict_proba, an R model "
        f"object, or a callable f(frame). Got {type(model).__name__} instead."
    )


def _decision_adapter(model, response, feed) -> Adapter:
    """A classifier's ``decision_function``: one score per class, one for a binary classifier.

    A binary classifier's one score is that of ``classes_[1]`` (scikit-learn's
    positive class); ``response=classes_[0]`` explains its negation, the
    score of ``classes_[0]`` (as ``sklearn.utils._response`` with
    ``pos_label=classes_[0]``).  Several classes' scores (one versus the
    rest) are one output per class.
    """
    classes = list(np.asarray(model.classes_).tolist())
    binary = len(classes) == 2
    columns = [1] if binary else list(range(len(classes)))
    if response is not None:
        columns, _ = _select(classes, response, what="class")
    names = [classes[c] for c in columns]
    decision = _fed(model.decision_function, feed)
    name = type(model).__name__

    def predict(frame: pd.DataFrame) -> np.ndarray:
        scores = np.asarray(decision(frame))
        if binary and (scores.ndim == 1 or scores.ndim == 2 and scores.shape[1] == 1):
            scores = scores.reshape(-1)
            return np.column_stack([scores if c == 1 else -scores for c in columns])
        if scores.ndim != 2 or scores.shape[1] != len(classes):
            raise ValueError(
                f"{name}.decision_function returned scores of shape {scores.shape} for {len(classes)} classes; "
                "pyale explains one score per class (one versus the rest; e.g. "
                "SVC(decision_function_shape='ovr'))."
            )
        return scores[:, columns]

    return Adapter(predict, "sklearn-decision-function", names)


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
    on (``pandas_categorical`` in the model).  Its names have spaces written
    ``'_'``: ``"mean_radius"`` selects the column ``"mean radius"``
    (:func:`match_columns`), which is handed over under its own name.  A booster trained on an array
    (names ``Column_0``, ``Column_1``, ...) gets the frame's values by position.
    """
    names = list(booster.feature_name())
    positional = names == [f"Column_{i}" for i in range(len(names))]
    select = None if positional else _selector(names, "the lightgbm Booster", lightgbm=True)

    def predict(frame: pd.DataFrame) -> np.ndarray:
        if select is None:
            return np.asarray(booster.predict(frame.to_numpy()))
        return np.asarray(booster.predict(select(frame)))

    return predict
