"""The objectives R's optimisers minimise in ``univariateML::model_select``'s iterative fits, to the bit.

Seven of ``ale::ALEpDist``'s residual families are fitted by an optimiser in
R (univariateML 1.1.1, fGarch 4022.89):

========  ========================================================  ==========
family    R's objective (``p`` the parameter vector)                optimiser
========  ========================================================  ==========
cauchy    ``-sum(stats::dcauchy(x, p[1], exp(p[2]), log = TRUE))``   ``nlm``
logis     ``-sum(stats::dlogis(x, p[1], exp(p[2]), log = TRUE))``    ``nlm``
snorm     ``-sum(log(fGarch::dsnorm(x, p[1], p[2], p[3])))``         ``nlminb``
ged       ``-sum(log(fGarch::dged(x, p[1], p[2], p[3])))``           ``nlminb``
std       ``-sum(log(fGarch::dstd(x, p[1], p[2], p[3])))``           ``nlminb``
sged      ``-sum(log(fGarch::dsged(x, p[1], ..., p[4])))``           ``nlminb``
sstd      ``-sum(log(fGarch::dsstd(x, p[1], ..., p[4])))``           ``nlm``
========  ========================================================  ==========

:func:`objective` returns R's value of that expression at any point, bit for
bit (NaN and Inf where R gets them: ``nlminb`` turns NaN into Inf, ``nlm``
replaces non-finite values by ``DBL_MAX``; the optimiser ports do that).
:func:`start`, :func:`bounds` and :func:`optimiser` give the rest of the call
as R makes it; :func:`estimates` maps the optimiser's solution to
univariateML's named parameters.

univariateML 1.1.1 (commit 05eb2a8, unchanged at 1.5.0) starts the Cauchy fit
at ``c(median(x), median(abs(x - median(x))))``: the second entry is the log
scale, but the start is the MAD itself, not its log (the logistic fit takes
``log(mad)``).  R's start is reproduced, quirk included.

Example
-------
>>> from pyale._rbase import ml_objectives
>>> y = [0.3, -1.2, 0.8, 2.1, -0.4]
>>> ml_objectives.optimiser("snorm"), ml_objectives.start("snorm", y).tolist()
('nlminb', [0.32, 1.2477980605851253, 1.0])
>>> f = ml_objectives.objective("snorm", y)  # R: -sum(log(fGarch::dsnorm(y, mean(y), sd(y), 1)))
>>> f(ml_objectives.start("snorm", y))  # R prints 7.7015948981530169 with digits = 17
7.701594898153017
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from . import fgarch, nmath
from .summaries import r_median, r_sum

__all__ = ["FAMILIES", "PARAMETER_NAMES", "objective", "start", "bounds", "optimiser", "estimates"]

FAMILIES = ("cauchy", "ged", "logis", "sged", "snorm", "sstd", "std")
PARAMETER_NAMES = {"cauchy": ("location", "scale"), "logis": ("location", "scale"), **fgarch.PARAMETER_NAMES}
_LOG_DENSITY = {"cauchy": nmath.dcauchy, "logis": nmath.dlogis}


def _check(family: str) -> str:
    if family not in FAMILIES:
        raise ValueError(f"The 'family' parameter must be one of {FAMILIES}. Got {family!r} instead.")
    return family


def objective(family: str, y) -> Callable[[np.ndarray], float]:
    """R's objective of ``family``'s fit to the data ``y``, as a function of the parameter vector."""
    if _check(family) in fgarch.FIT_FAMILIES:
        return fgarch.fit_objective(family, y)
    log_density = _LOG_DENSITY[family]
    y = np.array(y, dtype=float)  # a private copy

    def negative_loglik(par) -> float:
        par = np.asarray(par, dtype=float).ravel()
        if par.shape[0] < 2:
            raise ValueError(f"{family} takes 2 parameters; got {par.shape[0]}.")
        location, log_scale = par[:2].tolist()
        return -r_sum(log_density(y, location, nmath.r_exp(log_scale), give_log=True))

    return negative_loglik


def start(family: str, y) -> np.ndarray:
    """The start vector R hands to the optimiser for ``family`` on ``y``."""
    if _check(family) in fgarch.FIT_FAMILIES:
        return fgarch.fit_start(family, y)
    y = np.asarray(y, dtype=float).ravel()
    m = r_median(y)
    mad = r_median(np.abs(y - m))
    return np.array([m, mad if family == "cauchy" else nmath.r_log(mad)])


def bounds(family: str) -> tuple[np.ndarray, np.ndarray] | None:
    """``nlminb``'s ``(lower, upper)`` for the fGarch families fitted by ``nlminb``; ``None`` for ``nlm``."""
    if _check(family) in fgarch.FIT_FAMILIES:
        return fgarch.fit_bounds(family)
    return None


def optimiser(family: str) -> str:
    """``"nlm"`` or ``"nlminb"``: the optimiser R runs for ``family``."""
    if _check(family) in fgarch.FIT_FAMILIES:
        return fgarch.fit_optimiser(family)
    return "nlm"


def estimates(family: str, par) -> dict:
    """univariateML's named estimates from the optimiser's solution (``scale = exp(p[2])`` for cauchy, logis)."""
    names = PARAMETER_NAMES[_check(family)]
    values = [float(v) for v in np.asarray(par, dtype=float).ravel()[:len(names)]]
    if family in _LOG_DENSITY:
        values[1] = nmath.r_exp(values[1])
    return dict(zip(names, values))
