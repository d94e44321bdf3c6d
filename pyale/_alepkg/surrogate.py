"""The surrogate model of ``ale::ALEpDist(surrogate = TRUE)``: R's ``glm(y ~ ., family)`` and its refits.

R fits ``stats::glm`` of the response on every other column (``gaussian``, or
``binomial`` for a binary, categorical or ordinal response) and refits it with
``+ random_variable``.  Here the design matrix is R's ``model.matrix`` up to a
reparametrisation (intercept, numbers as they are, one indicator per
non-reference level of a factor, character or logical column), which leaves
the predictions unchanged, and the binomial fit follows ``glm.fit``'s
iteratively reweighted least squares (start ``mu = (y + 1/2) / 2``, stop when
the deviance changes by less than ``1e-8 * (|dev| + 0.1)``, at most 25
iterations), so its predictions are R's to rounding.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np
import pandas as pd

__all__ = ["SurrogateGLM", "surrogate_refit"]

_EPS = np.finfo(float).eps
_THRESH = -math.log(_EPS)


def _levels(column: pd.Series) -> list:
    if isinstance(column.dtype, pd.CategoricalDtype):
        used = set(column.dropna().unique())
        return [v for v in column.cat.categories if v in used]
    return sorted(column.dropna().unique().tolist())


class SurrogateGLM:
    """``glm(y ~ ., family)`` on a frame (``family`` ``"gaussian"`` or ``"binomial"``, canonical links).

    Parameters
    ----------
    data : pandas.DataFrame
    y_col : str
    family : {"gaussian", "binomial"}
    """

    def __init__(self, data: pd.DataFrame, y_col, family: str):
        self.y_col, self.family = y_col, family
        X = data.drop(columns=[y_col])
        self.columns = list(X.columns)
        self.coding = {}
        for name in self.columns:
            column = X[name]
            if pd.api.types.is_bool_dtype(column):
                self.coding[name] = [True, False]
            elif pd.api.types.is_numeric_dtype(column) and not isinstance(column.dtype, pd.CategoricalDtype):
                self.coding[name] = None
            else:
                self.coding[name] = _levels(column)
        design = self.design(X)
        y = _response(data[y_col], family)
        self.coef = _fit(design, y, family)

    def design(self, X: pd.DataFrame) -> np.ndarray:
        """The model matrix of new rows (levels coded as in the training data)."""
        parts = [np.ones((X.shape[0], 1))]
        for name in self.columns:
            levels = self.coding[name]
            column = X[name]
            if levels is None:
                parts.append(column.to_numpy(dtype=float).reshape(-1, 1))
            elif levels == [True, False]:
                parts.append(column.to_numpy(dtype=bool).astype(float).reshape(-1, 1))
            else:
                values = column.astype(object).to_numpy()
                parts.append(np.column_stack([(values == lev).astype(float) for lev in levels[1:]])
                             if len(levels) > 1 else np.zeros((X.shape[0], 0)))
        return np.hstack(parts)

    def predict(self, X: pd.DataFrame) -> np.ndarray:
        """``predict(type = "response")``."""
        eta = self.design(X[self.columns]) @ self.coef
        return eta if self.family == "gaussian" else _linkinv(eta)


def _response(y: pd.Series, family: str) -> np.ndarray:
    if family == "gaussian":
        return y.to_numpy(dtype=float)
    if pd.api.types.is_bool_dtype(y):
        return y.to_numpy(dtype=float)
    if pd.api.types.is_numeric_dtype(y) and not isinstance(y.dtype, pd.CategoricalDtype):
        values = y.to_numpy(dtype=float)
        if np.any((values < 0) | (values > 1)):
            raise ValueError(f"surrogate glm(binomial): the response {y.name!r} must be within [0, 1] "
                             "or a factor.")
        return values
    first = _levels(y)[0]  # R: a factor's first level is failure, every other level success
    return (y.astype(object).to_numpy() != first).astype(float)


def _linkinv(eta: np.ndarray) -> np.ndarray:
    """R's ``logit_linkinv``: exp(eta) clamped to [eps, 1/eps], then ``t / (1 + t)``."""
    t = np.where(eta < -_THRESH, _EPS, np.where(eta > _THRESH, 1 / _EPS, np.exp(np.clip(eta, -_THRESH, _THRESH))))
    return t / (1 + t)


def _mu_eta(eta: np.ndarray) -> np.ndarray:
    opexp = 1 + np.exp(np.clip(eta, -_THRESH, _THRESH))
    out = np.exp(np.clip(eta, -_THRESH, _THRESH)) / (opexp * opexp)
    return np.where((eta > _THRESH) | (eta < -_THRESH), _EPS, out)


def _deviance(y: np.ndarray, mu: np.ndarray) -> float:
    def ylogy(a, b):
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(a > 0, a * np.log(a / b), 0.0)

    return float(np.sum(2 * (ylogy(y, mu) + ylogy(1 - y, 1 - mu))))


def _wls(design: np.ndarray, z: np.ndarray, w: np.ndarray) -> np.ndarray:
    return np.linalg.lstsq(design * w[:, None], z * w, rcond=None)[0]


def _fit(design: np.ndarray, y: np.ndarray, family: str) -> np.ndarray:
    if family == "gaussian":
        return np.linalg.lstsq(design, y, rcond=None)[0]
    mu = (y + 0.5) / 2
    eta = np.log(mu / (1 - mu))
    dev_old = _deviance(y, mu)
    coef = np.zeros(design.shape[1])
    for _ in range(25):
        mu_eta = _mu_eta(eta)
        z = eta + (y - mu) / mu_eta
        w = np.sqrt(mu_eta ** 2 / (mu * (1 - mu)))
        coef = _wls(design, z, w)
        eta = design @ coef
        mu = _linkinv(eta)
        dev = _deviance(y, mu)
        if abs(dev - dev_old) / (abs(dev) + 0.1) < 1e-8:
            break
        dev_old = dev
    return coef


def surrogate_refit(y_col, family: str) -> Callable[[pd.DataFrame], Callable]:
    """``refit(rand_data)``: the surrogate glm fitted to ``rand_data``, as a ``predict(frame)`` callable."""

    def refit(rand_data: pd.DataFrame):
        return SurrogateGLM(rand_data, y_col, family).predict

    return refit
