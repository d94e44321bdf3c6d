"""``univariateML::model_select`` (univariateML 1.1.1, as ``ale`` 0.5.0 calls it) on real-valued data.

``ale::ALEpDist`` fits every family of ``univariateML_models`` to the model's
residuals and keeps the one with the smallest AIC (``-2 logLik + 2 p``); a
family whose support excludes the data fails and is skipped.  Residuals take
both signs, so the candidates are the families supported on the whole line, in
R's (alphabetical) order: Cauchy, generalised error (``ged``), Gumbel, Laplace,
logistic, normal, skew generalised error (``sged``), skew normal (``snorm``),
skew Student t (``sstd``), Student t (``std``) and uniform.

Closed forms and R's own iterations are reproduced exactly (normal, Laplace,
uniform; Gumbel's Newton iteration step for step), and so are the optimiser
fits: R's objective, start and bounds evaluated to the bit
(:mod:`pyale._rbase.ml_objectives`) minimised by the ports of R's optimisers,
operation for operation: ``nlm`` (:mod:`pyale._rbase.nlm`) for Cauchy,
logistic and ``sstd``, ``nlminb`` (:mod:`pyale._rbase.port`) for fGarch's
``ged``, ``sged``, ``snorm`` and ``std``.  Where R's optimiser stops short of
the maximum, pyale stops there too.

Each fit returns :class:`Fit` (family, parameters in R's order and names, log
likelihood), and :meth:`Fit.draw` draws from it as ``univariateML::rml`` does
for the same R generator (:mod:`pyale._rbase.distributions`).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np

from . import distributions as dist
from . import ml_objectives, nmath, port
from .nlm import nlm
from .summaries import r_mean, r_median, r_sum, r_var

__all__ = ["Fit", "FAMILIES", "fit_family", "model_select"]

FAMILIES = ("cauchy", "ged", "gumbel", "laplace", "logis", "norm", "sged", "snorm", "sstd", "std", "unif")
_NAMES = {
    "cauchy": ("location", "scale"), "ged": ("mean", "sd", "nu"), "gumbel": ("mu", "sigma"),
    "laplace": ("mu", "sigma"), "logis": ("location", "scale"), "norm": ("mean", "sd"),
    "sged": ("mean", "sd", "nu", "xi"), "snorm": ("mean", "sd", "xi"), "sstd": ("mean", "sd", "nu", "xi"),
    "std": ("mean", "sd", "nu"), "unif": ("min", "max"),
}
_MODELS = {
    "cauchy": "Cauchy", "ged": "Generalized Error", "gumbel": "Gumbel", "laplace": "Laplace",
    "logis": "Logistic", "norm": "Normal", "sged": "Skew Generalized Error", "snorm": "Skew Normal",
    "sstd": "Skew Student-t", "std": "Student-t", "unif": "Uniform",
}
# each family's r* function, as rml calls it
_DRAWS = {
    "ged": lambda g, n, p: dist.rged(g, n, p[0], p[1], p[2]),
    "std": lambda g, n, p: dist.rstd(g, n, p[0], p[1], p[2]),
    "sged": lambda g, n, p: dist.rsged(g, n, p[0], p[1], p[2], p[3]),
    "sstd": lambda g, n, p: dist.rsstd(g, n, p[0], p[1], p[2], p[3]),
    "norm": lambda g, n, p: dist.rnorm(g, n, p[0], p[1]),
    "unif": lambda g, n, p: dist.runif(g, n, p[0], p[1]),
    "logis": lambda g, n, p: dist.rlogis(g, n, p[0], p[1]),
    "cauchy": lambda g, n, p: dist.rcauchy(g, n, p[0], p[1]),
    "laplace": lambda g, n, p: dist.rlaplace(g, n, p[0], p[1]),
    "gumbel": lambda g, n, p: dist.rgumbel(g, n, p[0], p[1]),
    "snorm": lambda g, n, p: dist.rsnorm(g, n, p[0], p[1], p[2]),
}


@dataclass(frozen=True, eq=False)
class Fit:
    """One fitted family: R's ``univariateML`` object.

    Attributes
    ----------
    family : str
        univariateML's short name (``"norm"``, ``"laplace"``, ...).
    model : str
        R's ``attr(, "model")`` (``"Normal"``, ...).
    estimates : dict
        Parameters by R's names, in R's order.
    loglik : float
        The maximised log likelihood.
    exact : bool
        Whether the parameters are R's to rounding (closed forms, R's own
        iteration, and the optimiser fits, whose objectives and optimisers are
        ported to the bit), not the result of an optimiser that differs from
        R's.
    """

    family: str
    model: str
    estimates: dict
    loglik: float
    exact: bool

    @property
    def aic(self) -> float:
        """``stats::AIC``: ``-2 logLik + 2 p``."""
        return -2.0 * self.loglik + 2.0 * len(self.estimates)

    def draw(self, gen, n: int) -> np.ndarray:
        """``univariateML::rml(n, obj)`` for R's generator ``gen`` (advanced as R advances it)."""
        return _DRAWS[self.family](gen, int(n), tuple(self.estimates.values()))


def _fit(family: str, estimates, loglik: float, exact: bool) -> Fit:
    return Fit(family, _MODELS[family], dict(zip(_NAMES[family], (float(v) for v in estimates))), float(loglik),
               exact)


# --- closed forms and R's iterations ------------------------------------------------------


def _norm(x):
    """``mlnorm``: ``mean(x)``, ``sqrt(var(x) * (n - 1) / n)`` (R's long double mean and var)."""
    n = x.shape[0]
    mu = r_mean(x)
    sigma = math.sqrt(r_var(x) * (n - 1) / n)
    return _fit("norm", (mu, sigma), -n / 2 * (1 + math.log(2 * math.pi) + 2 * math.log(sigma)), True)


def _laplace(x):
    """``mllaplace``: R's ``median(x)`` and ``mean(abs(x - median))``."""
    mu = r_median(x)
    sigma = r_mean(np.abs(x - mu))
    return _fit("laplace", (mu, sigma), -x.shape[0] * (1 + math.log(2 * sigma)), True)


def _unif(x):
    lo, hi = float(x.min()), float(x.max())
    return _fit("unif", (lo, hi), -x.shape[0] * math.log(hi - lo), True)


def _gumbel(x, sigma0=1.0, rel_tol=np.finfo(float).eps ** 0.25, iterlim=100):
    """``mlgumbel``: Newton's iteration on sigma from 1 until the relative step is below eps^(1/4).

    R's operations in R's order: ``exp`` from the C library element by element,
    long double ``sum`` and ``mean``, ``^2`` as a product.
    """
    mean_x = r_mean(x)
    sigma = sigma0
    for _ in range(iterlim):
        e = nmath.exp(-x / sigma0)
        a, b, c = r_sum(x * e), r_sum(e), r_sum((x * x) * e)
        try:
            top = mean_x - sigma0 - a / b
            bottom = -1 - 1 / (sigma0 * sigma0) * (c / b - (a / b) * (a / b))
            sigma = sigma0 - top / bottom
            step = abs((sigma0 - sigma) / sigma0)
        except ZeroDivisionError:  # R: 0/0 is NaN, and the test below fails on it
            step = math.nan
        if math.isnan(step):  # R: if (NA < rel.tol) is an error, and model_select skips the family
            raise ValueError("mlgumbel: missing value where TRUE/FALSE needed (exp(-x / sigma) under- or "
                             "overflowed).")
        if step < rel_tol:
            break
        sigma0 = sigma
    mu = -sigma * math.log(r_mean(nmath.exp(-x / sigma)))
    s = r_mean(nmath.exp(-(x - mu) / sigma))
    return _fit("gumbel", (mu, sigma), -x.shape[0] * (math.log(sigma) + 1 / sigma * (mean_x - mu) + s), True)


# --- optimiser fits: R's objective, start and optimiser, to the bit -------------------------------


def _optimised(family: str, x: np.ndarray) -> Fit:
    """``ml<family>`` of univariateML 1.1.1 for the families R fits with an optimiser.

    ``mlcauchy``/``mllogis`` (``nlm``) and fGarch's ``*Fit`` (``nlminb`` for
    ``ged``, ``sged``, ``snorm``, ``std``; ``nlm`` for ``sstd``): R's objective
    and start (and ``nlminb``'s bounds) evaluated to the bit
    (:mod:`pyale._rbase.ml_objectives`), minimised by the ports of R's
    optimisers (:func:`pyale._rbase.nlm.nlm`, :func:`pyale._rbase.port.nlminb`),
    so the estimates and the log likelihood (minus the minimum) are R's to the
    bit.  As in R, a start ``nlm`` rejects (logistic's ``log(0)`` when the MAD is
    0) or a non-finite point raises ``ValueError``, and ``model_select`` skips
    the family.
    """
    objective, start = ml_objectives.objective(family, x), ml_objectives.start(family, x)
    with warnings.catch_warnings(), np.errstate(all="ignore"):  # univariateML wraps the fits in suppressWarnings()
        warnings.simplefilter("ignore")
        if ml_objectives.optimiser(family) == "nlminb":
            lower, upper = ml_objectives.bounds(family)
            result = port.nlminb(start, objective, lower=lower, upper=upper, trace_out=None)
            par, minimum = result.par, result.objective
        else:
            result = nlm(objective, start)
            par, minimum = result.estimate, result.minimum
    return _fit(family, ml_objectives.estimates(family, par).values(), -minimum, True)


def fit_family(x, family: str) -> Fit:
    """``univariateML::ml<family>(x)`` for one family of :data:`FAMILIES`.

    Parameters
    ----------
    x : array-like
        Finite real values (at least two distinct).
    family : str

    Returns
    -------
    Fit
    """
    x = np.asarray(x, dtype=float).ravel()
    if family == "norm":
        return _norm(x)
    if family == "laplace":
        return _laplace(x)
    if family == "unif":
        return _unif(x)
    if family == "gumbel":
        return _gumbel(x)
    return _optimised(family, x)


def model_select(x, families=FAMILIES) -> Fit:
    """``univariateML::model_select(x)``: the family with the smallest AIC (the first on ties).

    Parameters
    ----------
    x : array-like
        Real values taking both signs (as residuals do).
    families : sequence of str, optional
        Candidates, in R's order (default: every family supported on the whole line).

    Returns
    -------
    Fit

    Raises
    ------
    ValueError
        When ``x`` has non-finite values, fewer than two distinct values, or no
        negative value (R would then also try the families of positive support,
        which are not ported).

    Examples
    --------
    >>> x = np.random.default_rng(0).normal(size=200)
    >>> model_select(x).family
    'norm'
    """
    x = np.asarray(x, dtype=float).ravel()
    if x.shape[0] < 2 or not np.all(np.isfinite(x)) or np.unique(x).shape[0] < 2:
        raise ValueError("model_select needs at least two distinct finite values.")
    if x.min() >= 0:
        raise ValueError("model_select here fits families supported on the whole real line; the values are "
                         f"all >= 0 (minimum {float(x.min())!r}), where R would also try families on (0, Inf).")
    fits = []
    for family in families:
        try:
            fit = fit_family(x, family)
        except (ValueError, FloatingPointError, OverflowError, ZeroDivisionError):
            continue
        if math.isfinite(fit.loglik):
            fits.append(fit)
    aics = [fit.aic for fit in fits]
    return fits[int(np.argmin(aics))]
