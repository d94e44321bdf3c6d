"""The model measures of R's ``ModelBoot``: ``staccuracy``'s errors and AUC, ``broom``'s glance and tidy.

``staccuracy`` 0.2.2 defines (``actual``, ``pred``; ``na.rm = TRUE`` drops the
rows whose prediction is missing from the error, not from the reference):

* ``mae``: ``mean(|actual - pred|)``; ``rmse``: ``sqrt(mean((actual - pred)^2))``;
* ``sa_mae_mad``: ``1 - mae / (2 * mad)``, ``mad`` the *mean* absolute deviation
  from the mean (staccuracy's ``mad(version = "mean")``, not R's median-based one);
* ``sa_rmse_sd``: ``1 - rmse / (2 * sd)``, ``sd`` with ``n - 1``;
* ``aucroc``: the mean of the optimistic and pessimistic ROC areas (tied
  predictions counted half), on a sample of 10,000 rows drawn with
  ``set.seed(0)`` when there are more.

``broom`` 1.0.3's ``glance`` and ``tidy`` are mirrored for statsmodels' OLS and
GLM results (:func:`glance_statsmodels`, :func:`tidy_statsmodels`).
"""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd

from .._rbase.mersenne import MersenneTwister

__all__ = ["mae", "rmse", "sa_mae_mad", "sa_rmse_sd", "aucroc", "numeric_measures", "glance_statsmodels",
           "tidy_statsmodels", "AUC_SAMPLE_SIZE"]

AUC_SAMPLE_SIZE = 10_000


def _errors(actual, pred) -> np.ndarray:
    error = np.asarray(actual, dtype=float) - np.asarray(pred, dtype=float)
    return error[~np.isnan(error)]


def _r_mean(values: np.ndarray) -> float:
    """R's ``mean``: the sum (exactly rounded here) over n, then one correction pass."""
    if values.shape[0] == 0:
        return math.nan
    mean = math.fsum(values.tolist()) / values.shape[0]
    if not math.isfinite(mean):
        return mean
    return mean + math.fsum((values - mean).tolist()) / values.shape[0]


def mae(actual, pred) -> float:
    """``staccuracy::mae(actual, pred, na.rm = TRUE)``."""
    return _r_mean(np.abs(_errors(actual, pred)))


def rmse(actual, pred) -> float:
    """``staccuracy::rmse(actual, pred, na.rm = TRUE)``."""
    return math.sqrt(_r_mean(_errors(actual, pred) ** 2))


def _mad_mean(actual) -> float:
    values = np.asarray(actual, dtype=float)
    values = values[~np.isnan(values)]
    centre = _r_mean(values)
    return mae(np.full(values.shape[0], centre), values)


def _sd(actual) -> float:
    values = np.asarray(actual, dtype=float)
    values = values[~np.isnan(values)]
    if values.shape[0] < 2:
        return math.nan
    centre = _r_mean(values)
    return math.sqrt(math.fsum(((values - centre) ** 2).tolist()) / (values.shape[0] - 1))


def sa_mae_mad(actual, pred) -> float:
    """``staccuracy::sa_mae_mad``: ``1 - mae / (2 * mean absolute deviation)``."""
    return 1 - mae(actual, pred) / (_mad_mean(actual) * 2)


def sa_rmse_sd(actual, pred) -> float:
    """``staccuracy::sa_rmse_sd``: ``1 - rmse / (2 * sd)``."""
    return 1 - rmse(actual, pred) / (_sd(actual) * 2)


def numeric_measures(actual, pred) -> dict[str, float]:
    """``ModelBoot``'s measures of a numeric response: ``mae``, ``sa_mae``, ``rmse``, ``sa_rmse``."""
    return {"mae": mae(actual, pred), "sa_mae": sa_mae_mad(actual, pred), "rmse": rmse(actual, pred),
            "sa_rmse": sa_rmse_sd(actual, pred)}


def aucroc(actual, pred, *, sample_size: int = AUC_SAMPLE_SIZE, seed: int = 0) -> float:
    """``staccuracy::aucroc(actual, pred, na.rm = TRUE)$auc`` (``actual`` already logical).

    Rows with a missing value are dropped; with more than ``sample_size`` rows, R
    keeps ``sample(1:n, sample_size)`` after ``set.seed(seed)`` (Mersenne-Twister).
    The area is R's trapezoids over the ROC curve sorted by decreasing
    prediction, positives first (optimistic) and last (pessimistic) among ties,
    averaged.
    """
    actual = np.asarray(actual, dtype=float)
    pred = np.asarray(pred, dtype=float)
    keep = ~(np.isnan(actual) | np.isnan(pred))
    actual, pred = actual[keep] != 0, pred[keep]
    if actual.shape[0] > sample_size:
        rows = MersenneTwister.from_seed(seed).sample_int(actual.shape[0], sample_size) - 1
        actual, pred = actual[rows], pred[rows]
    n_pos = int(actual.sum())
    n_neg = actual.shape[0] - n_pos
    areas = []
    for positives_first in (True, False):
        order = np.lexsort((~actual if positives_first else actual, -pred))
        hits = actual[order]
        tp = np.concatenate([[0], np.cumsum(hits)]).astype(float)
        fp = np.concatenate([[0], np.cumsum(~hits)]).astype(float)
        with np.errstate(invalid="ignore", divide="ignore"):
            tpr = tp / n_pos
            fpr = fp / n_neg
        areas.append(float(np.sum(np.diff(fpr) * (tpr[:-1] + tpr[1:]) / 2)))
    tied = pd.Series(actual).groupby(pred).nunique().gt(1).any() if actual.shape[0] else False
    if not tied:
        areas[1] = areas[0]
    return (areas[0] + areas[1]) / 2


# --- broom --------------------------------------------------------------------------------


def _is_glm(results) -> bool:
    return hasattr(results, "null_deviance") and hasattr(results, "deviance")


def glance_statsmodels(results) -> dict | None:
    """``broom::glance`` of a statsmodels OLS or GLM result, without the rows ``ModelBoot`` drops.

    OLS (``glance.lm``): ``r.squared``, ``adj.r.squared``, ``sigma``, ``statistic``
    (F), ``p.value``, ``df`` (numerator degrees of freedom), ``df.residual``,
    ``nobs``.  GLM (``glance.glm``): ``null.deviance``, ``df.null``,
    ``df.residual``, ``nobs``.  ``logLik``, ``AIC``, ``BIC`` and ``deviance``
    are left out as R's ``ModelBoot`` leaves them out.  None for other models.
    """
    if _is_glm(results):
        nobs = float(results.nobs)
        df_null = nobs - (1.0 if _has_intercept(results) else 0.0)
        return {"null.deviance": float(results.null_deviance), "df.null": df_null,
                "df.residual": float(results.df_resid), "nobs": nobs}
    if all(hasattr(results, a) for a in ("rsquared", "rsquared_adj", "fvalue", "f_pvalue", "scale")):
        return {"r.squared": float(results.rsquared), "adj.r.squared": float(results.rsquared_adj),
                "sigma": math.sqrt(float(results.scale)), "statistic": float(results.fvalue),
                "p.value": float(results.f_pvalue), "df": float(results.df_model),
                "df.residual": float(results.df_resid), "nobs": float(results.nobs)}
    return None


def _has_intercept(results) -> bool:
    model = getattr(results, "model", None)
    return bool(getattr(model, "k_constant", 0))


_FACTOR_TERM = re.compile(r"^(?:C\((?P<inner>[^,)]+)[^)]*\)|(?P<name>[^\[]+))\[T\.(?P<level>.*)\]$")
_LOGICAL = {"True": "TRUE", "False": "FALSE"}


_QUOTED = re.compile(r"""Q\(\s*(["'])(?P<column>.*?)\1\s*\)""")
_R_SYNTACTIC = re.compile(r"^((([A-Za-z]|[.][._A-Za-z])[._A-Za-z0-9]*)|[.])$")
_R_RESERVED = {"if", "else", "repeat", "while", "function", "for", "next", "break", "TRUE", "FALSE", "NULL", "Inf",
               "NaN", "NA", "NA_integer_", "NA_real_", "NA_character_", "NA_complex_", "in"}


def _r_symbol(column: str) -> str:
    """A column name as R writes it in a coefficient: as is when syntactic, else in backticks."""
    return column if _R_SYNTACTIC.match(column) and column not in _R_RESERVED else f"`{column}`"


def _unquoted(name: str) -> str:
    """patsy's ``Q("class")`` (a column named like a keyword) as R names the variable: ``class``."""
    return _QUOTED.sub(lambda m: _r_symbol(m.group("column")), name)


def r_term_name(name: str) -> str:
    """The coefficient's name as R prints it: ``Intercept`` -> ``(Intercept)``, ``g[T.b]`` -> ``gb``,
    ``z[T.True]`` -> ``zTRUE``, ``g[T.b]:x`` -> ``gb:x``, ``Q("class")`` -> ``class``,
    ``Q("my var")`` -> the name in backticks."""
    if name == "Intercept":
        return "(Intercept)"
    name = _unquoted(name)
    parts = []
    for part in name.split(":"):
        match = _FACTOR_TERM.match(part)
        if match:
            level = match.group("level")
            part = (match.group("inner") or match.group("name")) + _LOGICAL.get(level, level)
        parts.append(part)
    return ":".join(parts)


def _variable(part: str) -> str:
    part = _unquoted(part)
    match = _FACTOR_TERM.match(part)
    return (match.group("inner") or match.group("name")) if match else part


def _r_coefficient_order(results) -> list[int]:
    """Positions of the coefficients in R's order: terms by degree, then as the formula names their variables.

    statsmodels' formula engines put terms without numeric variables first;
    R's ``terms()`` keeps the formula's order within each degree (main effects,
    then two-way terms, ...).  Read from the coefficient names, so that patsy
    and formulaic name them alike.
    """
    names = [str(n) for n in results.params.index]
    formula = getattr(getattr(results, "model", None), "formula", None)
    if not isinstance(formula, str):
        return list(range(len(names)))
    found = re.findall(r"""Q\(\s*["'](.*?)["']\s*\)|([A-Za-z_.][A-Za-z0-9_.]*)""", formula.split("~", 1)[-1])
    tokens = [_r_symbol(quoted) if quoted else plain for quoted, plain in found]

    def key(i: int):
        if names[i] == "Intercept":
            return (0, ())
        variables = [_variable(part) for part in names[i].split(":")]
        return (len(variables), tuple(tokens.index(v) if v in tokens else len(tokens) for v in variables))

    return sorted(range(len(names)), key=key)


def tidy_statsmodels(results) -> pd.DataFrame | None:
    """``broom::tidy(conf.int = FALSE)`` of a statsmodels result: ``term`` and ``estimate`` (what ``ModelBoot`` uses).

    Terms are named (:func:`r_term_name`) and ordered as R's formula orders them;
    None when the result has no named ``params``.
    """
    params = getattr(results, "params", None)
    if not isinstance(params, pd.Series):
        return None
    order = _r_coefficient_order(results)
    return pd.DataFrame({"term": [r_term_name(str(params.index[i])) for i in order],
                         "estimate": params.to_numpy(dtype=float)[order]})
