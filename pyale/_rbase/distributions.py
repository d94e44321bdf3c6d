"""R's random variates for the residual families of ``ale::ALEpDist``, bit for bit (R 4.2.2).

``univariateML::rml(n, obj)`` calls the ``r*`` function of the fitted family;
each consumes R's ``unif_rand()`` in a fixed pattern, so a block of uniforms
from :class:`pyale._rbase.rng.LecuyerCMRG` gives the whole sample at once:

* ``stats::rnorm`` -- normal kind ``"Inversion"`` (``norm_rand``): two uniforms
  per value, ``u = floor(2^27 u1) + u2``, then ``qnorm5(u / 2^27)`` (AS 241,
  :func:`qnorm`);
* ``stats::runif``, ``stats::rlogis``, ``stats::rcauchy`` -- one uniform each;
* ``extraDistr::rlaplace`` (1.9.1: ``exp_rand()`` times a random sign, the sign
  from one more uniform) and ``extraDistr::rgumbel`` (``mu - sigma log(exp_rand())``),
  where ``exp_rand`` is R's Ahrens-Dieter (1972) algorithm SA, which uses a
  varying number of uniforms (:func:`exp_rand`);
* ``fGarch::rsnorm`` -- ``runif(n)`` first, then ``rnorm(n)``;
* ``stats::rgamma`` (Ahrens-Dieter GD for shape >= 1, GS below; a varying
  number of uniforms) and ``stats::rt`` (``norm_rand() / sqrt(rchisq(df) / df)``),
  behind ``fGarch::rged``, ``rstd``, ``rsged`` and ``rsstd``.

Each function takes the generator, advances it exactly as R does and returns
float64 values.
"""

from __future__ import annotations

import math

import numpy as np

from . import nmath
from .rng import _advance, _uniforms

__all__ = ["qnorm", "exp_rand", "rgamma", "rt", "rged", "rstd", "rsged", "rsstd", "rnorm", "runif", "rlogis", "rcauchy", "rlaplace", "rgumbel", "rsnorm"]

_BIG = 134217728.0  # 2^27, R's norm_rand (INVERSION)


def _poly(coefs, r):
    """Horner's rule as R writes it: ((c0 r + c1) r + c2) ... (c0 is the highest power)."""
    out = coefs[0] * r
    for c in coefs[1:-1]:
        out = (out + c) * r
    return out + coefs[-1]


_CENTRAL_NUM = (2509.0809287301226727, 33430.575583588128105, 67265.770927008700853,
                45921.953931549871457, 13731.693765509461125, 1971.5909503065514427,
                133.14166789178437745, 3.387132872796366608)
_CENTRAL_DEN = (5226.495278852854561, 28729.085735721942674, 39307.89580009271061,
                21213.794301586595867, 5394.1960214247511077, 687.1870074920579083,
                42.313330701600911252, 1.0)
_TAIL_NUM = (7.7454501427834140764e-4, .0227238449892691845833, .24178072517745061177,
             1.27045825245236838258, 3.64784832476320460504, 5.7694972214606914055,
             4.6303378461565452959, 1.42343711074968357734)
_TAIL_DEN = (1.05075007164441684324e-9, 5.475938084995344946e-4, .0151986665636164571966,
             .14810397642748007459, .68976733498510000455, 1.6763848301838038494,
             2.05319162663775882187, 1.0)
_FAR_NUM = (2.01033439929228813265e-7, 2.71155556874348757815e-5, .0012426609473880784386,
            .026532189526576123093, .29656057182850489123, 1.7848265399172913358,
            5.4637849111641143699, 6.6579046435011037772)
_FAR_DEN = (2.04426310338993978564e-15, 1.4215117583164458887e-7, 1.8463183175100546818e-5,
            7.868691311456132591e-4, .0148753612908506148525, .13692988092273580531,
            .59983220655588793769, 1.0)


def qnorm(p) -> np.ndarray:
    """R's ``qnorm(p)`` (``qnorm5``, lower tail, not log; Wichura's AS 241), for 0 < p < 1.

    R 4.2's arithmetic, operation for operation (R >= 4.3 adds a branch for
    ``r > 27``, i.e. p below about 1e-316, which ``norm_rand`` never reaches).

    Examples
    --------
    >>> float(qnorm(0.975))  # R: sprintf("%.17g", qnorm(0.975))
    1.9599639845400536
    """
    p = np.asarray(p, dtype=float)
    q = p - 0.5
    out = np.empty_like(p)
    central = np.abs(q) <= 0.425
    if central.any():
        qc = q[central]
        r = 0.180625 - qc * qc
        out[central] = qc * _poly(_CENTRAL_NUM, r) / _poly(_CENTRAL_DEN, r)
    tail = ~central
    if tail.any():
        qt, pt = q[tail], p[tail]
        r = np.where(qt < 0, pt, 1.0 - pt)
        r = np.sqrt(-np.array([math.log(v) for v in r]))  # C's log (NumPy's SIMD log may differ by an ulp)
        near = r <= 5.0
        val = np.empty_like(r)
        rn = r[near] - 1.6
        val[near] = _poly(_TAIL_NUM, rn) / _poly(_TAIL_DEN, rn)
        rf = r[~near] - 5.0
        val[~near] = _poly(_FAR_NUM, rf) / _poly(_FAR_DEN, rf)
        out[tail] = np.where(qt < 0.0, -val, val)
    return out


def _norm_rand(gen, n: int) -> np.ndarray:
    u = gen.unif_rand(2 * n).reshape(n, 2)
    return qnorm((np.floor(_BIG * u[:, 0]) + u[:, 1]) / _BIG)


def rnorm(gen, n: int, mean: float = 0.0, sd: float = 1.0) -> np.ndarray:
    """``stats::rnorm(n, mean, sd)`` with normal kind ``"Inversion"`` (R's default)."""
    z = _norm_rand(gen, int(n))
    if sd == 0 or not math.isfinite(mean):
        return np.full(int(n), float(mean))
    return mean + sd * z


def runif(gen, n: int, low: float = 0.0, high: float = 1.0) -> np.ndarray:
    """``stats::runif(n, min, max)`` (L'Ecuyer's uniforms are never 0 or 1, so R never redraws)."""
    if low == high:
        return np.full(int(n), float(low))
    return low + (high - low) * gen.unif_rand(int(n))


def rlogis(gen, n: int, location: float = 0.0, scale: float = 1.0) -> np.ndarray:
    """``stats::rlogis``: ``location + scale * log(u / (1 - u))``."""
    return np.array([location + scale * math.log(u / (1.0 - u)) for u in gen.unif_rand(int(n))])


def rcauchy(gen, n: int, location: float = 0.0, scale: float = 1.0) -> np.ndarray:
    """``stats::rcauchy``: ``location + scale * tan(pi * u)``."""
    return np.array([location + scale * math.tan(math.pi * u) for u in gen.unif_rand(int(n))])


class _UniformStream:
    """R's ``unif_rand()`` one value at a time, made in blocks; :meth:`close` leaves the
    generator exactly as many uniforms on as were used."""

    def __init__(self, gen, expected: int):
        self.gen, self.used, self.block = gen, 0, max(64, int(expected))
        self.values = _uniforms(gen.state, self.block)

    def next(self) -> float:
        if self.used == self.values.shape[0]:
            more = _uniforms(_advance(self.gen.state, self.used), self.block)
            self.values = np.concatenate([self.values, more])
        self.used += 1
        return float(self.values[self.used - 1])

    def close(self) -> None:
        self.gen.state = _advance(self.gen.state, self.used)


# q[k-1] = sum_{i <= k} log(2)^i / i!  (R's sexp.c)
_EXP_Q = (0.6931471805599453, 0.9333736875190459, 0.9888777961838675, 0.9984959252914960040,
          0.9998292811061389, 0.9999833164100727, 0.9999985508193307, 0.9999998906925558,
          0.9999999924734159, 0.9999999995283275, 0.9999999999728814, 0.9999999999985598,
          0.9999999999999289, 0.9999999999999968, 0.9999999999999999, 1.0000000000000000)


def _exp_rand_one(stream: _UniformStream) -> float:
    a = 0.0
    u = stream.next()
    while u <= 0.0 or u >= 1.0:
        u = stream.next()
    while True:
        u += u
        if u > 1.0:
            break
        a += _EXP_Q[0]
    u -= 1.0
    if u <= _EXP_Q[0]:
        return a + u
    i = 0
    umin = stream.next()
    while True:
        ustar = stream.next()
        if umin > ustar:
            umin = ustar
        i += 1
        if not u > _EXP_Q[i]:
            break
    return a + umin * _EXP_Q[0]


def exp_rand(gen, n: int) -> np.ndarray:
    """``n`` values of R's ``exp_rand()`` (standard exponential; Ahrens & Dieter 1972, algorithm SA)."""
    stream = _UniformStream(gen, 2 * int(n) + 16)
    out = np.array([_exp_rand_one(stream) for _ in range(int(n))], dtype=float)
    stream.close()
    return out


def rlaplace(gen, n: int, mu: float = 0.0, sigma: float = 1.0) -> np.ndarray:
    """``extraDistr::rlaplace`` (1.9.1): per value ``exp_rand()``, then a sign (+1 when a uniform > 1/2);
    ``u * s * sigma + mu``."""
    stream = _UniformStream(gen, 3 * int(n) + 16)
    out = np.empty(int(n))
    for i in range(int(n)):
        e = _exp_rand_one(stream)
        sign = 1.0 if stream.next() > 0.5 else -1.0
        out[i] = e * sign * sigma + mu
    stream.close()
    return out


def rgumbel(gen, n: int, mu: float = 0.0, sigma: float = 1.0) -> np.ndarray:
    """``extraDistr::rgumbel`` (1.9.1): ``mu - sigma * log(exp_rand())``."""
    e = exp_rand(gen, n)
    return np.array([mu - sigma * math.log(v) for v in e])


def rsnorm(gen, n: int, mean: float = 0.0, sd: float = 1.0, xi: float = 1.5) -> np.ndarray:
    """``fGarch::rsnorm`` (Fernandez-Steel skew normal, unit variance before ``sd``).

    ``z = runif(n, -w, 1 - w)`` with ``w = xi / (xi + 1/xi)``, then ``rnorm(n)``;
    ``-|N| / xi^sign(z) * sign(z)``, standardised by the skewed mean and sd.
    """
    n = int(n)
    weight = xi / (xi + 1.0 / xi)
    z = runif(gen, n, -weight, 1.0 - weight)
    xi_pow = np.array([math.pow(xi, v) for v in np.sign(z)])  # C's pow, as R's xi^sign(z)
    draws = -np.abs(rnorm(gen, n)) / xi_pow * np.sign(z)
    m1 = 2.0 / math.sqrt(2.0 * math.pi)
    mu = m1 * (xi - 1.0 / xi)
    sigma = math.sqrt((1.0 - m1 ** 2) * (xi ** 2 + 1.0 / xi ** 2) + 2.0 * m1 ** 2 - 1.0)
    return (draws - mu) / sigma * sd + mean


# --- rgamma, rt and the fGarch families built on them ------------------------------------------

_GD_Q = (0.04166669, 0.02083148, 0.00801191, 0.00144121, -7.388e-5, 2.4511e-4, 2.424e-4)
_GD_A = (0.3333333, -0.250003, 0.2000062, -0.1662921, 0.1423657, -0.1367177, 0.1233795)


def _norm_one(stream: _UniformStream) -> float:
    u = stream.next()
    u = math.floor(_BIG * u) + stream.next()
    return float(qnorm(np.array([u / _BIG]))[0])


def _gd_quotient(t: float, s: float, s2: float, q0: float) -> float:
    v = t / (s + s)
    if abs(v) <= 0.25:
        a1, a2, a3, a4, a5, a6, a7 = _GD_A
        return q0 + 0.5 * t * t * ((((((a7 * v + a6) * v + a5) * v + a4) * v + a3) * v + a2) * v + a1) * v
    return q0 - s * t + 0.25 * t * t + (s2 + s2) * math.log(1.0 + v)


def _rgamma_one(stream: _UniformStream, a: float, scale: float) -> float:
    """R's ``rgamma(a, scale)`` (nmath/rgamma.c), one value."""
    if a < 1.0:  # GS algorithm
        e = 1.0 + 0.36787944117144232159 * a
        while True:
            p = e * stream.next()
            if p >= 1.0:
                x = -math.log((e - p) / a)
                if _exp_rand_one(stream) >= (1.0 - a) * math.log(x):
                    break
            else:
                x = math.exp(math.log(p) / a)
                if _exp_rand_one(stream) >= x:
                    break
        return scale * x
    s2 = a - 0.5
    s = math.sqrt(s2)
    d = 5.656854 - s * 12.0
    t = _norm_one(stream)
    x = s + 0.5 * t
    ret_val = x * x
    if t >= 0.0:
        return scale * ret_val
    u = stream.next()
    if d * u <= t * t * t:
        return scale * ret_val
    r = 1.0 / a
    q1, q2, q3, q4, q5, q6, q7 = _GD_Q
    q0 = ((((((q7 * r + q6) * r + q5) * r + q4) * r + q3) * r + q2) * r + q1) * r
    if a <= 3.686:
        b, si, c = 0.463 + s + 0.178 * s2, 1.235, 0.195 / s - 0.079 + 0.16 * s
    elif a <= 13.022:
        b, si, c = 1.654 + 0.0076 * s2, 1.68 / s + 0.275, 0.062 / s + 0.024
    else:
        b, si, c = 1.77, 0.75, 0.1515 / s
    if x > 0.0:
        q = _gd_quotient(t, s, s2, q0)
        if math.log(1.0 - u) <= q:
            return scale * ret_val
    while True:
        e = _exp_rand_one(stream)
        u = stream.next()
        u = u + u - 1.0
        t = b - si * e if u < 0.0 else b + si * e
        if t >= -0.71874483771719:
            q = _gd_quotient(t, s, s2, q0)
            if q > 0.0:
                w = math.expm1(q)
                if c * abs(u) <= w * math.exp(e - 0.5 * t * t):
                    break
    x = s + 0.5 * t
    return scale * x * x


def rgamma(gen, n: int, shape: float, scale: float = 1.0) -> np.ndarray:
    """``stats::rgamma(n, shape, scale = scale)``."""
    stream = _UniformStream(gen, 4 * int(n) + 16)
    out = np.array([_rgamma_one(stream, shape, scale) for _ in range(int(n))], dtype=float)
    stream.close()
    return out


def rt(gen, n: int, df: float) -> np.ndarray:
    """``stats::rt(n, df)``: per value ``norm_rand()`` then ``rchisq(df) = rgamma(df / 2, 2)``."""
    stream = _UniformStream(gen, 6 * int(n) + 16)
    out = np.empty(int(n))
    for i in range(int(n)):
        num = _norm_one(stream)
        out[i] = num / math.sqrt(_rgamma_one(stream, df / 2.0, 2.0) / df)
    stream.close()
    return out


def _ged_constants(nu: float) -> tuple[float, float]:
    """fGarch's ``lambda`` and ``m1``, with R's ``gamma`` and ``^`` (nmath), so the draws are R's to the bit."""
    lam = math.sqrt(nmath.r_pow(2.0, -2 / nu) * nmath.gammafn(1 / nu) / nmath.gammafn(3 / nu))
    m1 = nmath.r_pow(2.0, 1 / nu) * lam * nmath.gammafn(2 / nu) / nmath.gammafn(1 / nu)
    return lam, m1


def _rged_standard(gen, n: int, nu: float) -> np.ndarray:
    lam = _ged_constants(nu)[0]
    r = rgamma(gen, n, 1 / nu)
    u = gen.unif_rand(int(n))
    powered = np.array([math.pow(2 * v, 1 / nu) for v in r])  # C's pow, as R's R_pow
    return lam * powered * np.sign(u - 0.5)


def rged(gen, n: int, mean: float = 0.0, sd: float = 1.0, nu: float = 2.0) -> np.ndarray:
    """``fGarch::rged``: ``rgamma(n, 1/nu)``, then ``runif(n)`` for the signs."""
    return _rged_standard(gen, n, nu) * sd + mean


def rstd(gen, n: int, mean: float = 0.0, sd: float = 1.0, nu: float = 5.0) -> np.ndarray:
    """``fGarch::rstd``: ``rt(n, nu) * sd / sqrt(nu / (nu - 2)) + mean``."""
    return rt(gen, n, nu) * sd / math.sqrt(nu / (nu - 2)) + mean


def _skewed(gen, n: int, xi: float, base, m1: float) -> np.ndarray:
    weight = xi / (xi + 1 / xi)
    z = runif(gen, n, -weight, 1 - weight)
    xi_pow = np.array([math.pow(xi, v) for v in np.sign(z)])  # C's pow, as R's xi^sign(z)
    draws = -np.abs(base(gen, n)) / xi_pow * np.sign(z)
    mu = m1 * (xi - 1 / xi)
    sigma = math.sqrt((1 - m1 ** 2) * (xi ** 2 + 1 / xi ** 2) + 2 * m1 ** 2 - 1)
    return (draws - mu) / sigma


def rsged(gen, n: int, mean: float = 0.0, sd: float = 1.0, nu: float = 2.0, xi: float = 1.5) -> np.ndarray:
    """``fGarch::rsged``: ``runif(n, -w, 1 - w)``, then ``rged(n, nu = nu)``, skewed and standardised."""
    m1 = _ged_constants(nu)[1]
    return _skewed(gen, int(n), xi, lambda g, k: rged(g, k, nu=nu), m1) * sd + mean


def rsstd(gen, n: int, mean: float = 0.0, sd: float = 1.0, nu: float = 5.0, xi: float = 1.5) -> np.ndarray:
    """``fGarch::rsstd``: ``runif(n, -w, 1 - w)``, then ``rstd(n, nu = nu)``, skewed and standardised."""
    m1 = 2 * math.sqrt(nu - 2) / (nu - 1) / nmath.beta(0.5, nu / 2)  # R's beta(), nmath's beta.c
    return _skewed(gen, int(n), xi, lambda g, k: rstd(g, k, nu=nu), m1) * sd + mean
