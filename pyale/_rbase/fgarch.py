"""fGarch's residual densities and the objectives its fits minimise, to the last bit (fGarch 4022.89).

``univariateML`` 1.1.1 fits five of ``ale::ALEpDist``'s residual families
with fGarch's exported fitters, which minimise ``-sum(log(d(y, ...)))`` with
``nlminb`` (``snormFit``, ``gedFit``, ``stdFit``, ``sgedFit``) or ``nlm``
(``sstdFit``).  For an optimiser port to stop where R stops, the objective
must be R's to the bit at every point; so each density here repeats the R
code of ``R/dist-*.R`` (commit 7d85dd5) expression by expression, with R's
``gamma``, ``beta``, ``dnorm``, ``dt`` and ``^`` from :mod:`.nmath`, libm's
``exp`` and ``log`` element by element, and R's long double ``sum``
(:func:`.summaries.r_sum`).

The skewed densities use ``xi^sign(z)`` (``sign`` gives 1, 0, -1 or NaN,
each raised with R's ``^``); fGarch's ``Heaviside`` enters only its ``p*`` and
``q*`` functions, not these densities.  ``.dsstd``'s fallback ``beta`` (used
only when no ``beta`` exists) never applies: base R's ``beta`` (nmath's
``beta.c``) is the one called.

Densities take a float64 array ``x`` and scalar parameters, as the fits call
them; they return what R's expression returns, NaN and Inf included (R warns
on NaN; no warning is raised here).
"""

from __future__ import annotations

import math

import numpy as np

from . import nmath
from .summaries import r_mean, r_sum, r_var

__all__ = ["dsnorm", "dged", "dstd", "dsged", "dsstd", "FIT_FAMILIES", "fit_start", "fit_bounds",
           "fit_optimiser", "fit_objective", "PARAMETER_NAMES"]


# Scalar arithmetic runs in NumPy's float64 (IEEE: x/0 is Inf or NaN, as in R), not Python's float
# (which raises on division by zero); nmath's scalar functions are wrapped to return float64.
_F = np.float64


def r_pow(x, y) -> np.float64:
    """R's ``x ^ y`` of two scalars."""
    return _F(nmath.r_pow(float(x), float(y)))


def r_sqrt(x) -> np.float64:
    """R's ``sqrt`` of a scalar."""
    return _F(nmath.r_sqrt(float(x)))


def gammafn(x) -> np.float64:
    """R's ``gamma`` of a scalar."""
    return _F(nmath.gammafn(float(x)))


def beta(a, b) -> np.float64:
    """R's ``beta`` of two scalars."""
    return _F(nmath.beta(float(a), float(b)))


def _sign_power(xi: float, z: np.ndarray) -> np.ndarray:
    """R's ``xi^sign(z)``: ``sign`` is 1, 0, -1 or NaN, and ``^`` is ``R_POW`` of each."""
    sign = np.sign(z)  # NaN stays NaN
    out = np.full(z.shape, r_pow(xi, math.nan))
    out[sign > 0] = r_pow(xi, 1.0)
    out[sign == 0] = r_pow(xi, 0.0)
    out[sign < 0] = r_pow(xi, -1.0)
    return out


def _skew_moments(m1: float, xi: float) -> tuple[float, float]:
    """``mu = m1*(xi-1/xi)``; ``sigma = sqrt((1-m1^2)*(xi^2+1/xi^2) + 2*m1^2 - 1)``."""
    mu = m1 * (xi - 1 / xi)
    sigma = r_sqrt((1 - r_pow(m1, 2.0)) * (r_pow(xi, 2.0) + 1 / r_pow(xi, 2.0)) + 2 * r_pow(m1, 2.0) - 1)
    return mu, sigma


def _skewed(x: np.ndarray, xi: float, m1: float, base) -> np.ndarray:
    """The body shared by ``.dsnorm``, ``.dsged`` and ``.dsstd``: ``g * base(z/Xi) * sigma``."""
    mu, sigma = _skew_moments(m1, xi)
    z = x * sigma + mu
    xi_power = _sign_power(xi, z)
    g = 2 / (xi + 1 / xi)
    density = g * base(z / xi_power)
    return density * sigma


def _ged_lambda(nu: float) -> float:
    """``lambda = sqrt(2^(-2/nu) * gamma(1/nu) / gamma(3/nu))``."""
    return r_sqrt(r_pow(2.0, -2 / nu) * gammafn(1 / nu) / gammafn(3 / nu))


def dsnorm(x, mean: float = 0.0, sd: float = 1.0, xi: float = 1.5) -> np.ndarray:
    """``fGarch::dsnorm(x, mean, sd, xi)``: ``.dsnorm(x = (x-mean)/sd, xi = xi) / sd``."""
    x = np.asarray(x, dtype=float)
    mean, sd, xi = _F(mean), _F(sd), _F(xi)
    with np.errstate(all="ignore"):
        m1 = 2 / r_sqrt(2 * _F(math.pi))
        return _skewed((x - mean) / sd, xi, m1, nmath.dnorm) / sd


def dged(x, mean: float = 0.0, sd: float = 1.0, nu: float = 2.0) -> np.ndarray:
    """``fGarch::dged(x, mean, sd, nu)``: ``g * exp(-0.5*(abs(z/lambda))^nu) / sd``."""
    x = np.asarray(x, dtype=float)
    mean, sd, nu = _F(mean), _F(sd), _F(nu)
    with np.errstate(all="ignore"):
        z = (x - mean) / sd
        lam = _ged_lambda(nu)
        g = nu / (lam * r_pow(2.0, 1 + 1 / nu) * gammafn(1 / nu))
        return g * nmath.exp(-0.5 * nmath.pow(np.abs(z / lam), nu)) / sd


def dstd(x, mean: float = 0.0, sd: float = 1.0, nu: float = 5.0) -> np.ndarray:
    """``fGarch::dstd(x, mean, sd, nu)``: ``dt(x = z*s, df = nu) * s / sd`` with ``s = sqrt(nu/(nu-2))``."""
    x = np.asarray(x, dtype=float)
    mean, sd, nu = _F(mean), _F(sd), _F(nu)
    with np.errstate(all="ignore"):
        s = r_sqrt(nu / (nu - 2))
        z = (x - mean) / sd
        return nmath.dt(z * s, nu) * s / sd


def dsged(x, mean: float = 0.0, sd: float = 1.0, nu: float = 2.0, xi: float = 1.5) -> np.ndarray:
    """``fGarch::dsged(x, mean, sd, nu, xi)``: ``.dsged(x = (x-mean)/sd, nu, xi) / sd``."""
    x = np.asarray(x, dtype=float)
    mean, sd, nu, xi = _F(mean), _F(sd), _F(nu), _F(xi)
    with np.errstate(all="ignore"):
        lam = _ged_lambda(nu)
        m1 = r_pow(2.0, 1 / nu) * lam * gammafn(2 / nu) / gammafn(1 / nu)
        return _skewed((x - mean) / sd, xi, m1, lambda v: dged(v, 0.0, 1.0, nu)) / sd


def dsstd(x, mean: float = 0.0, sd: float = 1.0, nu: float = 5.0, xi: float = 1.5) -> np.ndarray:
    """``fGarch::dsstd(x, mean, sd, nu, xi)``: ``.dsstd(x = (x-mean)/sd, nu, xi) / sd`` (base R's ``beta``)."""
    x = np.asarray(x, dtype=float)
    mean, sd, nu, xi = _F(mean), _F(sd), _F(nu), _F(xi)
    with np.errstate(all="ignore"):
        m1 = 2 * r_sqrt(nu - 2) / (nu - 1) / beta(0.5, nu / 2)
        return _skewed((x - mean) / sd, xi, m1, lambda v: dstd(v, 0.0, 1.0, nu)) / sd


# --- the exported fitters: snormFit, gedFit, stdFit, sgedFit (nlminb) and sstdFit (nlm) -------

FIT_FAMILIES = ("snorm", "ged", "std", "sged", "sstd")
PARAMETER_NAMES = {
    "snorm": ("mean", "sd", "xi"), "ged": ("mean", "sd", "nu"), "std": ("mean", "sd", "nu"),
    "sged": ("mean", "sd", "nu", "xi"), "sstd": ("mean", "sd", "nu", "xi"),
}
_DENSITY = {"snorm": dsnorm, "ged": dged, "std": dstd, "sged": dsged, "sstd": dsstd}
_START_TAIL = {"snorm": (1.0,), "ged": (2.0,), "std": (4.0,), "sged": (2.0, 1.0), "sstd": (4.0, 1.0)}
_LOWER = {"snorm": (-math.inf, 0.0, 0.0), "ged": (-math.inf, 0.0, 0.0), "std": (-math.inf, 0.0, 2.0),
          "sged": (-math.inf, 0.0, 0.0, 0.0)}


def _check(family: str) -> str:
    if family not in FIT_FAMILIES:
        raise ValueError(f"The 'family' parameter must be one of {FIT_FAMILIES}. Got {family!r} instead.")
    return family


def fit_start(family: str, y) -> np.ndarray:
    """The start vector of ``fGarch::<family>Fit(y)``: ``c(mean(y), sqrt(var(y)), ...)``.

    ``snormFit``: xi = 1; ``gedFit``: nu = 2; ``stdFit``: nu = 4;
    ``sgedFit``: nu = 2, xi = 1; ``sstdFit``: nu = 4, xi = 1.
    """
    y = np.asarray(y, dtype=float)
    return np.array((r_mean(y), r_sqrt(r_var(y))) + _START_TAIL[_check(family)])


def fit_bounds(family: str) -> tuple[np.ndarray, np.ndarray] | None:
    """``nlminb``'s ``(lower, upper)`` in ``fGarch::<family>Fit``; ``None`` for ``sstdFit`` (``nlm``)."""
    lower = _LOWER.get(_check(family))
    if lower is None:
        return None
    return np.array(lower), np.full(len(lower), math.inf)


def fit_optimiser(family: str) -> str:
    """``"nlminb"`` or ``"nlm"``: the optimiser ``fGarch::<family>Fit`` calls."""
    return "nlm" if _check(family) == "sstd" else "nlminb"


def fit_objective(family: str, y):
    """``loglik`` of ``fGarch::<family>Fit``: ``function(x) -sum(log(d<family>(y, x[1], x[2], ...)))``.

    Returns a callable of the parameter vector (R's order:
    :data:`PARAMETER_NAMES`) giving R's value to the bit, NaN and Inf included.
    """
    density = _DENSITY[_check(family)]
    y = np.array(y, dtype=float)  # a private copy: the caller's data may change, R's y does not
    size = len(PARAMETER_NAMES[family])

    def objective(par) -> float:
        par = np.asarray(par, dtype=float).ravel()
        if par.shape[0] < size:
            raise ValueError(f"{family} takes {size} parameters; got {par.shape[0]}.")
        return -r_sum(nmath.log(density(y, *par[:size].tolist())))

    return objective
