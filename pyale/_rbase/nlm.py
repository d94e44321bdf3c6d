"""R's ``stats::nlm`` (R 4.2.2), iterate for iterate and bit for bit.

``nlm(f, p)`` calls the Dennis-Schnabel minimiser ``optif9`` of R's
``src/appl/uncmin.c`` through ``src/library/stats/src/optimize.c``.  Without
an analytic gradient or Hessian (the only case ported here) R always takes
the same path through it:

- ``optchk``: scale ``sx = 1 / typsize`` (zeros read as 1, signs dropped),
  ``fscale`` likewise, ``ndigit`` checked;
- relative noise ``rnf = max(10^-ndigit, DBL_EPSILON)``;
- gradient by forward differences (``fstofd``: step ``sqrt(rnf) max(|x_j|,
  1/sx_j)``), switched for good to central differences (``fstocd``: step
  ``rnf^(1/3) max(|x_j|, 1/sx_j)``) the first time the line search fails;
- method 1 (line search ``lnsrch``: full Newton step, shortened to
  ``stepmax``, then a quadratic and afterwards cubic backtracking, ten times
  shorter on a non-finite value) with ``iexp = 1``: the Hessian is never
  evaluated; a Cholesky factor ``L`` of its secant (BFGS) approximation starts
  as ``diag(sx)`` (``hsnint``) and is updated by ``secfac`` (``mvmltu``,
  ``mvmltl``, ``qrupdt`` with Jacobi rotations), the Newton step solved by
  ``lltslv`` (LINPACK ``dtrsl`` twice);
- stopping rules ``opt_stop`` (codes 1 to 5, as ``?nlm`` lists them).

The objective's values go through ``optimize.c``'s ``fcn``: a table of the
last five points and values (a point seen again is not re-evaluated), an
error for a non-finite point, and a non-finite value (``NaN``, ``Inf``)
replaced by ``DBL_MAX`` with the warning R gives.

Every floating-point operation is done in R's order in IEEE double (Python
floats; no fused multiply-add, as R's x86-64 builds): sums as the C loops
and the reference BLAS (``ddot`` adds in index order, ``dnrm2`` is LAPACK
3.10+'s, ``daxpy`` skips a zero multiplier), ``sqrt``, ``pow`` and ``hypot``
from the C library (``math.sqrt``, ``math.pow``, ``numpy.hypot``), division
by zero and square roots of negative numbers giving IEEE's ``Inf``/``NaN`` as
C does.  So an objective whose values are R's to the bit gives R's
``estimate``, ``minimum``, ``gradient``, ``code`` and ``iterations`` to the
bit (checked against live R in ``tests/rbase/test_nlm.py``).

Not ported: analytic gradients and Hessians (``attr(value, "gradient")``),
``hessian = TRUE`` (``fdhess``), ``print.level > 0``.  R also evaluates
``f(p)`` once before the minimiser starts, outside the table; that call
cannot change the result of a deterministic objective and is not made here.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from .lapack import _dnrm2
from .summaries import r_sum

__all__ = ["NlmResult", "NlmWarning", "nlm"]

_DBL_MAX = 1.7976931348623157e308
_DBL_EPSILON = 2.220446049250313e-16
_TABLE_SIZE = 5  # FT_SIZE in optimize.c

#: ``?nlm``'s meaning of each termination code.
CODES = {
    1: "relative gradient is close to zero, current iterate is probably solution.",
    2: "successive iterates within tolerance, current iterate is probably solution.",
    3: "last global step failed to locate a point lower than estimate. Either estimate is an approximate "
       "local minimum of the function or steptol is too small.",
    4: "iteration limit exceeded.",
    5: "maximum step size stepmax exceeded five consecutive times. Either the function is unbounded below, "
       "becomes asymptotic to a finite value from above in some direction or stepmax is too small.",
}


class NlmWarning(RuntimeWarning):
    """R's warning for a non-finite objective value (``NA/Inf replaced by maximum positive value``)."""


@dataclass(frozen=True, eq=False)
class NlmResult:
    """What R's ``nlm`` returns (without ``hessian``).

    Attributes
    ----------
    minimum : float
        The value of the objective at ``estimate``.
    estimate : numpy.ndarray
        The point where the minimiser stopped.
    gradient : numpy.ndarray
        The finite-difference gradient there.
    code : int
        R's termination code, 1 to 5 (see :data:`CODES`).
    iterations : int
        Iterations performed.
    evaluations : int
        Objective evaluations (not counting points found in R's table of the
        last five; R's extra first call ``f(p)`` not counted).  Not part of R's
        result.
    """

    minimum: float
    estimate: np.ndarray
    gradient: np.ndarray
    code: int
    iterations: int
    evaluations: int

    def __repr__(self) -> str:
        return (f"NlmResult(minimum={self.minimum!r}, estimate={self.estimate.tolist()!r}, "
                f"gradient={self.gradient.tolist()!r}, code={self.code}, iterations={self.iterations})")


# --- C arithmetic on Python floats ---------------------------------------------------------


def _div(a: float, b: float) -> float:
    """``a / b`` in IEEE double (``Inf`` or ``NaN`` on a zero divisor, as C; Python would raise)."""
    try:
        return a / b
    except ZeroDivisionError:
        if math.isnan(a) or a == 0.0:
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)


def _sqrt(a: float) -> float:
    """C's ``sqrt``: ``NaN`` for a negative argument (Python would raise)."""
    return math.sqrt(a) if not a < 0.0 else math.nan


def _fmax2(x: float, y: float) -> float:
    """R's ``fmax2``: NaN-propagating maximum."""
    if math.isnan(x) or math.isnan(y):
        return x + y
    return y if x < y else x


def _hypot(a: float, b: float) -> float:
    """The C library's ``hypot`` (``math.hypot`` has its own algorithm since Python 3.10)."""
    return float(np.hypot(a, b))


def _ddot(x: list[float], y: list[float]) -> float:
    """Reference BLAS ``ddot`` (incx = incy = 1): products added in index order from 0."""
    total = 0.0
    for xi, yi in zip(x, y):
        total = total + xi * yi
    return total


def _daxpy(alpha: float, x: list[float], y: list[float], start: int) -> None:
    """Reference BLAS ``daxpy`` on ``y[start:]``: ``y += alpha x``, nothing when ``alpha == 0``."""
    if alpha == 0.0:
        return
    for k, xk in enumerate(x):
        y[start + k] = y[start + k] + alpha * xk


# --- the objective as optimize.c's fcn sees it -----------------------------------------------


class _Objective:
    """``fcn`` of optimize.c: the table of the last five points, non-finite checks."""

    def __init__(self, f: Callable, n: int):
        self.f = f
        self.n = n
        self.points = [[_DBL_MAX] * n for _ in range(_TABLE_SIZE)]
        self.values = [0.0] * _TABLE_SIZE
        self.last = -1
        self.evaluations = 0

    def _lookup(self, x: list[float]) -> int:
        for i in range(_TABLE_SIZE):
            ind = (self.last - i) % _TABLE_SIZE
            if all(a == b for a, b in zip(x, self.points[ind])):
                return ind
        return -1

    def __call__(self, x: list[float]) -> float:
        found = self._lookup(x)
        if found >= 0:
            return self.values[found]
        if not all(math.isfinite(v) for v in x):
            raise ValueError("non-finite value supplied by 'nlm'")
        value = self.f(np.array(x, dtype=float))
        self.evaluations += 1
        value = _as_value(value)
        if not math.isfinite(value):
            warnings.warn("NA/Inf replaced by maximum positive value", NlmWarning, stacklevel=4)
            value = _DBL_MAX
        self.last += 1
        ind = self.last % _TABLE_SIZE
        self.values[ind] = value
        self.points[ind] = list(x)
        return value


def _as_value(value) -> float:
    array = np.asarray(value)
    if array.size != 1 or array.dtype.kind not in "iuf":
        raise ValueError(f"invalid function value in 'nlm' optimizer: {value!r}")
    return float(array.reshape(-1)[0])


# --- uncmin.c -----------------------------------------------------------------------------------


def _forward_gradient(fcn, x, fx, sx, rnoise):
    """``fstofd`` with m = 1 (the gradient)."""
    gradient = []
    root = math.sqrt(rnoise)
    for j in range(len(x)):
        stepsz = root * _fmax2(abs(x[j]), _div(1.0, sx[j]))
        xj = x[j]
        x[j] = xj + stepsz
        fhat = fcn(x)
        x[j] = xj
        gradient.append(_div(fhat - fx, stepsz))
    return gradient


def _central_gradient(fcn, x, sx, rnoise):
    """``fstocd``."""
    gradient = []
    third = math.pow(rnoise, 1.0 / 3.0)
    for i in range(len(x)):
        xi = x[i]
        stepi = third * _fmax2(abs(xi), _div(1.0, sx[i]))
        x[i] = xi + stepi
        fplus = fcn(x)
        x[i] = xi - stepi
        fminus = fcn(x)
        x[i] = xi
        gradient.append(_div(fplus - fminus, stepi * 2.0))
    return gradient


def _lltslv(a, b):
    """``lltslv``: solve ``L L^T x = b`` by LINPACK ``dtrsl`` (job 00, then job 10); ``a[i][j]`` is ``L[i, j]``."""
    n = len(b)
    x = list(b)
    if any(a[i][i] == 0.0 for i in range(n)):  # dtrsl returns info > 0 and leaves b alone
        return x
    # job 00: L x = b, column-oriented with daxpy
    x[0] = _div(x[0], a[0][0])
    for j in range(1, n):
        temp = -x[j - 1]
        _daxpy(temp, [a[i][j - 1] for i in range(j, n)], x, j)
        x[j] = _div(x[j], a[j][j])
    # job 10: L^T x = b, with ddot
    x[n - 1] = _div(x[n - 1], a[n - 1][n - 1])
    for jj in range(2, n + 1):
        j = n - jj
        x[j] = x[j] - _ddot([a[i][j] for i in range(j + 1, n)], x[j + 1:])
        x[j] = _div(x[j], a[j][j])
    return x


def _line_search(fcn, x, f, g, p, stepmx, steptl, sx):
    """``lnsrch``: returns (xpls, fpls, iretcd, mxtake)."""
    n = len(x)
    temp1 = 0.0
    for i in range(n):
        temp1 += sx[i] * sx[i] * p[i] * p[i]
    sln = _sqrt(temp1)
    if sln > stepmx:  # Newton step longer than allowed: dscal
        scl = _div(stepmx, sln)
        p = [scl * v for v in p]
        sln = stepmx
    slp = _ddot(g, p)
    rln = 0.0
    for i in range(n):
        temp1 = _div(abs(p[i]), _fmax2(abs(x[i]), _div(1.0, sx[i])))
        if rln < temp1:
            rln = temp1
    rmnlmb = _div(steptl, rln)
    lam = 1.0
    firstback = True
    pfpls = plmbda = 0.0
    while True:
        xpls = [x[i] + lam * p[i] for i in range(n)]
        fpls = fcn(xpls)
        if fpls <= f + slp * 1e-4 * lam:
            return xpls, fpls, 0, (lam == 1.0 and sln > stepmx * 0.99)
        if lam < rmnlmb:
            return xpls, fpls, 1, False
        if fpls >= _DBL_MAX:
            lam *= 0.1
            firstback = True
            continue
        if firstback:  # quadratic fit
            tlmbda = _div(-lam * slp, (fpls - f - slp) * 2.0)
            firstback = False
        else:  # cubic fit
            t1 = fpls - f - lam * slp
            t2 = pfpls - f - plmbda * slp
            t3 = _div(1.0, lam - plmbda)
            a3 = 3.0 * t3 * (_div(t1, lam * lam) - _div(t2, plmbda * plmbda))
            b = t3 * (_div(t2 * lam, plmbda * plmbda) - _div(t1 * plmbda, lam * lam))
            disc = b * b - a3 * slp
            if disc > b * b:  # only one positive critical point, must be minimum
                tlmbda = _div(-b + (-_sqrt(disc) if a3 < 0 else _sqrt(disc)), a3)
            else:  # both critical points positive, first is minimum
                tlmbda = _div(-b + (_sqrt(disc) if a3 < 0 else -_sqrt(disc)), a3)
            if tlmbda > lam * 0.5:
                tlmbda = lam * 0.5
        plmbda = lam
        pfpls = fpls
        if tlmbda < lam * 0.1:
            lam *= 0.1
        else:
            lam = tlmbda


def _stop(xpls, fpls, gpls, x, itncnt, icscmx, gradtl, steptl, sx, fscale, itnlim, iretcd, mxtake):
    """``opt_stop``: returns (termination code, icscmx)."""
    if iretcd == 1:
        return 3, icscmx
    n = len(xpls)
    d = _fmax2(abs(fpls), fscale)
    rgx = 0.0
    for i in range(n):
        relgrd = _div(abs(gpls[i]) * _fmax2(abs(xpls[i]), _div(1.0, sx[i])), d)
        if rgx < relgrd:
            rgx = relgrd
    if not rgx > gradtl:
        return 1, icscmx
    if itncnt == 0:
        return 0, icscmx
    rsx = 0.0
    for i in range(n):
        relstp = _div(abs(xpls[i] - x[i]), _fmax2(abs(xpls[i]), _div(1.0, sx[i])))
        if rsx < relstp:
            rsx = relstp
    if not rsx > steptl:
        return 2, icscmx
    if not itncnt < itnlim:
        return 4, icscmx
    if not mxtake:
        return 0, 0
    icscmx += 1
    if icscmx < 5:
        return 0, icscmx
    return 5, icscmx


def _qraux1(r, i):
    """Interchange rows i, i+1 of ``r`` (columns i to n-1)."""
    for col in range(i, len(r)):
        r[i][col], r[i + 1][col] = r[i + 1][col], r[i][col]


def _qraux2(r, i, a, b):
    """Pre-multiply ``r`` by the Jacobi rotation J(i, i+1, a, b)."""
    den = _hypot(a, b)
    c = _div(a, den)
    s = _div(b, den)
    for col in range(i, len(r)):
        y = r[i][col]
        z = r[i + 1][col]
        r[i][col] = c * y - s * z
        r[i + 1][col] = s * y + c * z


def _qrupdt(a, u, v):
    """``qrupdt``: ``Q* R* = R + u v^T`` for the upper triangle ``R`` held in ``a``."""
    n = len(u)
    k = n - 1
    while k > 0 and u[k] == 0.0:
        k -= 1
    ii = k
    while ii > 0:
        i = ii - 1
        if u[i] == 0.0:
            _qraux1(a, i)
            u[i] = u[ii]
        else:
            _qraux2(a, i, u[i], -u[ii])
            u[i] = _hypot(u[i], u[ii])
        ii = i
    for j in range(n):
        a[0][j] += u[0] * v[j]
    for i in range(k):
        if a[i][i] == 0.0:
            _qraux1(a, i)
        else:
            _qraux2(a, i, a[i][i], -a[i + 1][i])


def _secant_update(x, g, a, xpls, gpls, itncnt, rnf, iagflg):
    """``secfac``: BFGS update of the Cholesky factor ``a`` (lower triangle), in place."""
    n = len(x)
    noupdt = itncnt == 1
    s = [xpls[i] - x[i] for i in range(n)]
    y = [gpls[i] - g[i] for i in range(n)]
    den1 = _ddot(s, y)
    snorm2 = _dnrm2(np.array(s))
    ynrm2 = _dnrm2(np.array(y))
    if den1 < math.sqrt(_DBL_EPSILON) * snorm2 * ynrm2:
        return
    # u = L^T s (mvmltu)
    u = [_ddot([a[k][i] for k in range(i, n)], s[i:]) for i in range(n)]
    den2 = _ddot(u, u)
    alp = _sqrt(_div(den1, den2))
    if noupdt:
        for j in range(n):
            u[j] = alp * u[j]
            for i in range(j, n):
                a[i][j] *= alp
        den2 = den1
        alp = 1.0
    # w = L u (mvmltl)
    w = []
    for i in range(n):
        total = 0.0
        for j in range(i + 1):
            total += a[i][j] * u[j]
        w.append(total)
    reltol = math.sqrt(rnf) if iagflg == 0 else rnf
    skip = True
    for i in range(n):
        skip = abs(y[i] - w[i]) < reltol * _fmax2(abs(g[i]), abs(gpls[i]))
        if not skip:
            break
    if skip:
        return
    w = [y[i] - alp * w[i] for i in range(n)]
    alp = _div(alp, den1)
    u = [v * alp for v in u]
    for i in range(1, n):  # copy L into the upper triangle, zero L
        for j in range(i):
            a[j][i] = a[i][j]
            a[i][j] = 0.0
    _qrupdt(a, u, w)
    for i in range(1, n):
        for j in range(i):
            a[i][j] = a[j][i]


def nlm(f: Callable, p: Sequence[float], *, typsize: Sequence[float] | None = None, fscale: float = 1.0,
        ndigit: int = 12, gradtol: float = 1e-6, stepmax: float | None = None, steptol: float = 1e-6,
        iterlim: int = 100, hessian: bool = False) -> NlmResult:
    """R's ``nlm(f, p, ...)`` without analytic derivatives, to the bit.

    Parameters
    ----------
    f : callable
        ``f(x) -> float`` for a 1-D float array ``x`` (a fresh copy each
        call).  A non-finite value is replaced by ``DBL_MAX`` with an
        :class:`NlmWarning`, as R does.
    p : sequence of float
        Starting point (finite).
    typsize, fscale, ndigit, gradtol, stepmax, steptol, iterlim
        R's arguments and defaults (``typsize = rep(1, length(p))``,
        ``stepmax = max(1000 * sqrt(sum((p/typsize)^2)), 1000)`` with R's
        long double ``sum``).
    hessian : bool
        Only ``False`` (R's default) is ported.

    Returns
    -------
    NlmResult

    Raises
    ------
    ValueError
        R's errors: a non-finite start (``missing value in parameter``),
        lengths that differ, ``gradtol < 0``, ``iterlim <= 0``, ``ndigit == 0``,
        a non-finite point reached by the iteration, an objective value that
        is not one number.

    Notes
    -----
    Ports ``nlm`` of R 4.2.2 (``src/library/stats/R/nlm.R``,
    ``src/library/stats/src/optimize.c``, ``src/appl/uncmin.c``; unchanged in
    what runs here up to R-devel of 2024), with ``print.level = 0`` and no
    ``gradient`` attribute: method 1, secant (BFGS) updates, forward then
    central finite differences.

    Examples
    --------
    >>> res = nlm(lambda x: (x[0] - 1.0) ** 2 + (x[1] + 2.0) ** 2, [0.0, 0.0])
    >>> res.code, [round(v, 6) for v in res.estimate.tolist()]
    (1, [1.0, -2.0])
    """
    if hessian:
        raise NotImplementedError("nlm(hessian=TRUE) is not ported; only R's default hessian=FALSE is.")
    x = _parameter(p, "p")
    n = len(x)
    typ = [1.0] * n if typsize is None else _parameter(typsize, "typsize")
    if len(typ) != n:
        raise ValueError(f"nlm: conflicting parameter lengths: p has {n}, typsize has {len(typ)}.")
    if stepmax is None:  # R: max(1000 * sqrt(sum((p/typsize)^2)), 1000)
        ratios = np.array([_div(a, b) for a, b in zip(x, typ)])
        stepmax = max(1000.0 * _sqrt(r_sum(ratios * ratios)), 1000.0)
    # a NaN here is R's NaN, not NA: R goes on with it (a NaN stepmax, from p / typsize = 0 / 0, never limits a step)
    fscale, gradtol, stepmax, steptol = (float(v) for v in (fscale, gradtol, stepmax, steptol))
    ndigit, iterlim = int(ndigit), int(iterlim)
    # optchk
    sx = []
    for i in range(n):
        if typ[i] == 0.0:
            typ[i] = 1.0
        elif typ[i] < 0.0:
            typ[i] = -typ[i]
        sx.append(1.0 / typ[i])
    if stepmax <= 0.0:
        total = 0.0
        for i in range(n):
            total += x[i] * x[i] * sx[i] * sx[i]
        stepmax = 1000.0 * _fmax2(_sqrt(total), 1.0)
    if fscale == 0.0:
        fscale = 1.0
    elif fscale < 0.0:
        fscale = -fscale
    if gradtol < 0.0:
        raise ValueError(f"invalid gradient tolerance in nlm: gradtol must be >= 0. Got {gradtol!r} instead.")
    if iterlim <= 0:
        raise ValueError(f"invalid iteration limit in nlm: iterlim must be >= 1. Got {iterlim!r} instead.")
    if ndigit == 0:
        raise ValueError("minimization function has no good digits in nlm: ndigit must not be 0.")
    if ndigit < 0:
        ndigit = 15  # (int) -log10(DBL_EPSILON)
    return _optdrv(_Objective(f, n), x, sx, fscale, ndigit, iterlim, gradtol, stepmax, steptol)


def _parameter(values, name: str) -> list[float]:
    array = np.asarray(values)
    if array.ndim > 1 or array.size == 0 or array.dtype.kind not in "biuf":
        raise ValueError(f"nlm: the {name!r} argument must be a non-empty numeric vector. Got {values!r} instead.")
    out = [float(v) for v in array.reshape(-1)]
    if not all(math.isfinite(v) for v in out):
        raise ValueError(f"nlm: missing value in parameter {name!r}: {out!r}.")
    return out


def _optdrv(fcn: _Objective, x, sx, fscale, ndigit, itnlim, gradtl, stepmx, steptl) -> NlmResult:
    """``optdrv`` for method 1, iexp = 1, no analytic gradient."""
    n = len(x)
    rnf = _fmax2(math.pow(10.0, -float(ndigit)), _DBL_EPSILON)
    itncnt = 0
    icscmx = 0
    iagflg = 0
    f = fcn(x)
    g = _forward_gradient(fcn, x, f, sx, rnf)
    code, icscmx = _stop(x, f, g, None, itncnt, icscmx, gradtl, steptl, sx, fscale, itnlim, -1, False)
    if code != 0:
        return NlmResult(f, np.array(x), np.array(g), code, itncnt, fcn.evaluations)
    a = [[0.0] * n for _ in range(n)]  # hsnint: L = diag(sx)
    for i in range(n):
        a[i][i] = sx[i]
    while True:
        itncnt += 1
        while True:  # L105
            step = _lltslv(a, [-v for v in g])
            xpls, fpls, iretcd, mxtake = _line_search(fcn, x, f, g, step, stepmx, steptl, sx)
            if iretcd == 1 and iagflg == 0:
                iagflg = -1  # central differences from now on
                g = _central_gradient(fcn, x, sx, rnf)
                continue
            break
        if iagflg == -1:
            gpls = _central_gradient(fcn, xpls, sx, rnf)
        else:
            gpls = _forward_gradient(fcn, xpls, fpls, sx, rnf)
        code, icscmx = _stop(xpls, fpls, gpls, x, itncnt, icscmx, gradtl, steptl, sx, fscale, itnlim, iretcd,
                             mxtake)
        if code != 0:
            break
        _secant_update(x, g, a, xpls, gpls, itncnt, rnf, iagflg)
        f, x, g = fpls, xpls, gpls
    if code == 3:  # the last step failed: the previous iterate is the answer
        xpls, fpls, gpls = x, f, g
    return NlmResult(fpls, np.array(xpls), np.array(gpls), code, itncnt, fcn.evaluations)
