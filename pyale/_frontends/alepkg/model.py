"""How ``pyale.ALE`` calls the model and finds the response.

R's ``ale`` calls ``pred_fun(object = model, newdata = , type = pred_type)``
(by default ``stats::predict``); it finds the response column in the model's
formula when ``y_col`` is omitted, and summarises the observed response
(numeric or ordinal) or the model's predictions (binary or categorical
response) for the statistics and ``get()``'s centre.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import pandas as pd

from ..._core.map.adapters import _is_r_object, adapt_model
from .checks import CALLER
from .types import ale_var_type

__all__ = ["Prediction", "response_values"]


@dataclass(frozen=True)
class Prediction:
    """``predict(frame)`` for the model, how messages name it, and its output names (if known)."""

    model: object
    predict: Callable
    name: str
    output_names: list | None = None

    @classmethod
    def of(cls, model, pred_fun, pred_type, native=None) -> "Prediction":
        """``pred_fun(object=model, newdata=frame, type=pred_type)``, or pyale's adapter for the model."""
        if pred_fun is not None:
            if not callable(pred_fun):
                raise TypeError(f"The 'pred_fun' parameter of {CALLER} must be None or a callable "
                                f"pred_fun(object, newdata, type). Got {type(pred_fun).__name__} instead.")
            return cls(model, lambda frame: pred_fun(object=model, newdata=frame, type=pred_type), "pred_fun")
        if not isinstance(pred_type, str):
            raise TypeError(f"The 'pred_type' parameter of {CALLER} must be a str. Got {pred_type!r} instead.")
        if model is None:
            raise TypeError(f"The 'model' parameter of {CALLER} is None: pass a fitted model, or a pred_fun "
                            "(as R's ALE(NULL, ..., pred_fun = ) does).")
        r_model = _r_model(model, pred_type)
        if r_model is not None:
            adapter = adapt_model(r_model)
        else:
            if pred_type != "response":
                raise ValueError(
                    f"The 'pred_type' parameter of {CALLER} is {pred_type!r}, which pyale can hand only to "
                    f"pred_fun or to an R model; {type(model).__name__} predicts as it predicts. Pass "
                    "pred_fun=lambda object, newdata, type: ... to choose the prediction.")
            adapter = adapt_model(model, native=native)
        name = f"{type(model).__name__}.predict" if adapter.kind != "callable" else "model"
        return cls(model, adapter.predict, name, adapter.output_names)

    def response_column(self, data: pd.DataFrame):
        """The response named by the model's formula (statsmodels or R), if it is a column of ``data``."""
        name = None
        inner = getattr(self.model, "model", None)
        if inner is not None and getattr(inner, "formula", None) is not None:
            name = getattr(inner, "endog_names", None)
        elif _is_r_object(self.model) or type(self.model).__name__ == "RModel":
            name = _r_response(self.model)
        return name if isinstance(name, str) and name in data.columns else None


def _r_model(model, pred_type: str):
    """An R model as :class:`pyale.r.RModel` calling ``predict(type = pred_type)`` (R's default pred_fun)."""
    if _is_r_object(model):
        from ...r import RModel

        return RModel(model, type=pred_type)
    if type(model).__name__ == "RModel" and type(model).__module__ == "pyale.r":
        if "type" in model.predict_args:
            return model
        from ...r import RModel

        return RModel(model.model, **{**model.predict_args, "type": pred_type})
    return None


def _r_response(model) -> str | None:
    import rpy2.robjects as ro

    fitted = getattr(model, "model", model)
    found = ro.r("function(m) tryCatch(all.vars(stats::formula(m)[[2]]), error = function(e) character(0))")(fitted)
    return str(found[0]) if len(found) == 1 else None


def response_values(caller, data: pd.DataFrame, y_col, prediction: Prediction) -> tuple:
    """``(y_type, values, y_cats)``: the response's ale type, the values ale summarises, the categories.

    The model is asked once about ``data`` (without the response column), as
    R's ``ALE`` asks ``pred_fun`` about the whole data: for the categories,
    and as the response values of a binary or categorical response (or when
    there is no response column).
    """
    X = data if y_col is None else data.drop(columns=[y_col])
    predictions = caller(X, "the response values (the model's predictions on 'data')")
    names = prediction.output_names or caller.output_names
    width = predictions.shape[1]
    if width == 1:
        cats = [y_col if y_col is not None else "yhat"]
    else:
        cats = list(names) if names is not None and len(names) == width else [str(i) for i in range(width)]
    if y_col is None:
        return None, predictions, cats
    y_type = ale_var_type(data[y_col])
    if y_type in ("numeric", "ordinal"):
        if width > 1:
            raise ValueError(f"{CALLER}: the model returns {width} outputs {cats!r} but the response "
                             f"{y_col!r} is {y_type}; give a y_col that matches what the model predicts.")
        column = data[y_col]
        if y_type == "ordinal":
            values = column.cat.codes.to_numpy(dtype=float) + 1.0
        else:
            values = column.to_numpy(dtype=float)
        return y_type, values.reshape(-1, 1), cats
    return y_type, predictions, cats
