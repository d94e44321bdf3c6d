"""``univariateML::model_select`` (univariateML 1.1.1, as ``ale`` 0.5.0 calls it) on real-valued data.

``ale::ALEpDist`` fits every family of ``univariateML_models`` to the model's
residuals and keeps the one with the smallest AIC (``-2 logLik + 2 p``); a
family whose support excludes the data fails and is skipped.  Residuals take
both signs, so the candidates are the families supported on the whole line, in
R's (alphabetical) order: Cauchy, generalised error (``ged``), Gumbel, Laplace,
logistic, normal, skew generalised error (``sged``), skew normal (``snorm``),
skew Student t (``sstd``), Student t (``std``) and uniform.

Closed forms and R's own iterations are reproduced exactly (normal, Laplace,
uniform; Gumbel's Newton iteration step for step), and so are the ``nlm`` fits
of Cauchy, logistic and ``sstd``: R's objective and start evaluated to the bit
(:mod:`pyale._rbase.ml_objectives`) minimised by :func:`pyale._rbase.nlm.nlm`,
R's ``nlm`` ported operation for operation.  The others are R ``nlminb``
results (fGarch's ``ged``, ``sged``, ``snorm``, ``std``): here they are
maximised to full precision, so their parameters equal R's to R's optimiser
tolerance (typically 1e-7 to 1e-5 relative, up to 1e-3 on a flat likelihood),
not to the last digit; pyale's maximum is never below R's.

Each fit returns :class:`Fit` (family, parameters in R's order and names, log
likelihood), and :meth:`Fit.draw` draws from it as ``univariateML::rml`` does
for the same R generator (:mod:`pyale._rbase.distributions`).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np
from scipy import optimize, special

from . import distributions as dist
from . import ml_objectives
from .nlm import NlmWarning, nlm

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
        iteration, and the ``nlm`` fits of Cauchy, logistic and ``sstd``,
        ported to the bit),
        not the result of an optimiser that differs from R's.
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


def _r_mean(x: np.ndarray) -> float:
    """R's ``mean()``: the sum divided by n, plus the mean of the residuals (one refinement)."""
    m = math.fsum(x.tolist()) / x.shape[0]
    return m + math.fsum((x - m).tolist()) / x.shape[0]


def _r_var(x: np.ndarray) -> float:
    m = _r_mean(x)
    return math.fsum(((x - m) ** 2).tolist()) / (x.shape[0] - 1)


def _fit(family: str, estimates, loglik: float, exact: bool) -> Fit:
    return Fit(family, _MODELS[family], dict(zip(_NAMES[family], (float(v) for v in estimates))), float(loglik),
               exact)


# --- closed forms and R's iterations ------------------------------------------------------


def _norm(x):
    n = x.shape[0]
    mu = _r_mean(x)
    sigma = math.sqrt(_r_var(x) * (n - 1) / n)
    return _fit("norm", (mu, sigma), -n / 2 * (1 + math.log(2 * math.pi) + 2 * math.log(sigma)), True)


def _laplace(x):
    mu = float(np.median(x))
    sigma = _r_mean(np.abs(x - mu))
    return _fit("laplace", (mu, sigma), -x.shape[0] * (1 + math.log(2 * sigma)), True)


def _unif(x):
    lo, hi = float(x.min()), float(x.max())
    return _fit("unif", (lo, hi), -x.shape[0] * math.log(hi - lo), True)


def _gumbel(x, sigma0=1.0, rel_tol=np.finfo(float).eps ** 0.25, iterlim=100):
    """``mlgumbel``: Newton's iteration on sigma from 1 until the relative step is below eps^(1/4)."""
    mean_x = _r_mean(x)
    sigma = sigma0
    for _ in range(iterlim):
        e = np.exp(-x / sigma0)
        a, b, c = math.fsum((x * e).tolist()), math.fsum(e.tolist()), math.fsum((x * x * e).tolist())
        top = mean_x - sigma0 - a / b
        bottom = -1 - 1 / sigma0 ** 2 * (c / b - (a / b) ** 2)
        sigma = sigma0 - top / bottom
        if abs((sigma0 - sigma) / sigma0) < rel_tol:
            break
        sigma0 = sigma
    mu = -sigma * math.log(_r_mean(np.exp(-x / sigma)))
    s = _r_mean(np.exp(-(x - mu) / sigma))
    return _fit("gumbel", (mu, sigma), -x.shape[0] * (math.log(sigma) + 1 / sigma * (mean_x - mu) + s), True)


# --- optimiser fits ---------------------------------------------------------------------------


def _ged_log(z, nu):
    """log of fGarch's standardised GED density (unit variance)."""
    lam = np.sqrt(2.0 ** (-2.0 / nu) * np.exp(special.gammaln(1 / nu) - special.gammaln(3 / nu)))
    log_g = np.log(nu) - np.log(lam) - (1 + 1 / nu) * np.log(2.0) - special.gammaln(1 / nu)
    return log_g - 0.5 * np.abs(z / lam) ** nu, lam


def _std_logpdf(z, nu):
    """log of fGarch's standardised Student t density (unit variance), stable for large nu:
    Gamma((nu+1)/2) / (Gamma(nu/2) sqrt(nu pi)) = 1 / (sqrt(nu) B(nu/2, 1/2))."""
    s = math.sqrt(nu / (nu - 2))
    t = z * s
    logdt = -special.betaln(nu / 2, 0.5) - 0.5 * math.log(nu) - (nu + 1) / 2 * np.log1p(t * t / nu)
    return logdt + math.log(s)


def _skew_log(z, xi, base_log, m1):
    """Fernandez-Steel skewing of a standardised density, as fGarch's ``.ds*`` functions."""
    mu = m1 * (xi - 1 / xi)
    sigma = math.sqrt((1 - m1 ** 2) * (xi ** 2 + 1 / xi ** 2) + 2 * m1 ** 2 - 1)
    zz = z * sigma + mu
    xi_pow = xi ** np.sign(zz)
    return math.log(2 / (xi + 1 / xi)) + base_log(zz / xi_pow) + math.log(sigma)


_LOG_NU_CAP = math.log(1e4)


def _negloglik(family, x):
    def norm_log(z):
        return -0.5 * z * z - 0.5 * math.log(2 * math.pi)

    def f(theta):
        if len(theta) > 2 and family in ("std", "sstd") and theta[2] > _LOG_NU_CAP:
            # beyond nu - 2 = 1e4 the t is the normal to 1e-4 in log likelihood: a boundary, not a walk to infinity
            theta = np.array(theta, dtype=float)
            theta[2] = _LOG_NU_CAP
        mean, sd = theta[0], math.exp(theta[1])
        z = (x - mean) / sd
        if family == "ged":
            nu = math.exp(theta[2])
            ll = _ged_log(z, nu)[0]
        elif family == "std":
            nu = 2 + math.exp(theta[2])
            ll = _std_logpdf(z, nu)
        elif family == "snorm":
            xi = math.exp(theta[2])
            ll = _skew_log(z, xi, norm_log, 2 / math.sqrt(2 * math.pi))
        elif family == "sged":
            nu, xi = math.exp(theta[2]), math.exp(theta[3])
            lam = _ged_log(np.zeros(1), nu)[1]
            m1 = 2 ** (1 / nu) * lam * math.exp(special.gammaln(2 / nu) - special.gammaln(1 / nu))
            ll = _skew_log(z, xi, lambda v: _ged_log(v, nu)[0], m1)
        elif family == "sstd":
            nu, xi = 2 + math.exp(theta[2]), math.exp(theta[3])
            m1 = 2 * math.sqrt(nu - 2) / (nu - 1) / math.exp(special.betaln(0.5, nu / 2))
            ll = _skew_log(z, xi, lambda v: _std_logpdf(v, nu), m1)
        else:  # pragma: no cover
            raise ValueError(family)
        value = -(float(np.sum(ll)) - x.shape[0] * math.log(sd))
        return value if math.isfinite(value) else 1e300

    return f


# --- univariateML's nlm fits (Cauchy, logistic, sstd), to the bit -----------------------------

_NLM_FAMILIES = ("cauchy", "logis", "sstd")


def _nlm_fit(family: str, x: np.ndarray) -> Fit:
    """``mlcauchy``/``mllogis``/``mlsstd`` (``fGarch::sstdFit``) of univariateML 1.1.1: R's ``nlm`` from R's start.

    The objective and start are R's to the bit (:mod:`pyale._rbase.ml_objectives`)
    and :func:`pyale._rbase.nlm.nlm` is R's ``nlm``, so the estimates and the log
    likelihood (``-minimum``) are R's to the bit.  As in R, a start ``nlm``
    rejects (logistic's ``log(0)`` when the MAD is 0) or a non-finite point
    raises ``ValueError``, and ``model_select`` skips the family.
    """
    with warnings.catch_warnings():  # univariateML and fGarch wrap nlm in suppressWarnings()
        warnings.simplefilter("ignore", NlmWarning)
        with np.errstate(all="ignore"):
            values = nlm(ml_objectives.objective(family, x), ml_objectives.start(family, x))
    return _fit(family, ml_objectives.estimates(family, values.estimate).values(), -values.minimum, True)


def _optimised(family, x):
    m, s = _r_mean(x), math.sqrt(_r_var(x))
    extra = {"ged": [math.log(2.0)], "std": [math.log(2.0)], "snorm": [0.0],
             "sged": [math.log(2.0), 0.0], "sstd": [math.log(2.0), 0.0]}[family]
    start = [m, math.log(s), *extra]

    def to_r(t, family=family):
        t = np.array(t, dtype=float)
        if family in ("std", "sstd"):
            t[2] = min(t[2], _LOG_NU_CAP)
        base = [t[0], math.exp(t[1])]
        if family in ("ged", "sged"):
            base.append(math.exp(t[2]))
        elif family in ("std", "sstd"):
            base.append(2 + math.exp(t[2]))
        if family == "snorm":
            base.append(math.exp(t[2]))
        elif family in ("sged", "sstd"):
            base.append(math.exp(t[3]))
        return tuple(base)
    f = _negloglik(family, x)
    starts = [np.array(start)]
    if family in ("ged", "sged"):  # the GED shape's likelihood is flat and can have several modes below 1
        for shape in (math.log(0.5), 0.0, math.log(4.0)):
            alt = np.array(start)
            alt[2] = shape
            starts.append(alt)
    best = None
    simplex = {"xatol": 1e-11, "fatol": 1e-13, "maxiter": 2000, "maxfev": 2000}
    for point in starts:  # quasi-Newton from each start, then Nelder-Mead from there (the GED's flat,
        # non-smooth shape likelihood stops BFGS early)
        methods = (("BFGS", {"gtol": 1e-9, "maxiter": 400}),)
        if family in ("ged", "sged"):
            methods += (("Nelder-Mead", simplex),)
        for method, options in methods:
            found = optimize.minimize(f, point, method=method, options=options)
            if found.fun <= f(point):
                point = found.x
            if best is None or found.fun < best.fun:
                best = found
    found = optimize.minimize(f, best.x, method="BFGS", options={"gtol": 1e-10, "maxiter": 200})
    if found.fun <= best.fun:
        best = found
    return _fit(family, to_r(best.x), -best.fun, False)


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
    if family in _NLM_FAMILIES:
        return _nlm_fit(family, x)
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
