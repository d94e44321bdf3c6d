"""The objectives on which pyale's ``nlm`` is compared with R's (reference/nlm, tests/rbase/test_nlm.py).

Each objective is written twice, in R and in Python, so that both evaluate it
with the same IEEE operations in the same order: products written as products
(R's ``x^2`` is ``x * x``; no other powers), sums of vectors with R's long
double ``sum`` (:func:`pyale._rbase.summaries.r_sum`), ``log`` and ``exp``
from the C library (``math``), element by element.  The objectives' data come
from a NumPy seed and travel to R as hex floats.

A case is ``(name, objective, start, nlm arguments)``; together they take
every termination code R's ``nlm`` gives (1 to 5), non-finite values
(``Inf`` and ``NaN`` regions, replaced by ``DBL_MAX``), one and four
parameters, and non-default ``typsize``, ``fscale``, ``ndigit``, ``stepmax``,
``steptol``, ``gradtol`` and ``iterlim``.
"""

from __future__ import annotations

import math

import numpy as np

from pyale._rbase.summaries import r_sum

SEED = 20261126


def data() -> dict:
    """The objectives' data, from :data:`SEED`."""
    rng = np.random.default_rng(SEED)
    t = np.round(rng.uniform(-2, 2, size=60), 3)
    y = 1.5 - 0.7 * t + rng.standard_t(3, size=60) * 0.4
    a = rng.normal(size=(3, 3))
    return {"t": t, "y": y, "A": a @ a.T + 0.5 * np.eye(3), "c": rng.normal(size=3),
            "x": rng.standard_t(4, size=80) * 1.3 + 0.4}


def _log(v: float) -> float:
    return math.log(v) if v > 0 else (-math.inf if v == 0 else math.nan)


def _exp(v: float) -> float:
    try:
        return math.exp(v)
    except OverflowError:
        return math.inf


def _objectives(d: dict) -> dict:
    t, y, x = d["t"].tolist(), d["y"].tolist(), d["x"].tolist()
    a, c = d["A"], d["c"].tolist()

    def rosenbrock(p):
        u = p[1] - p[0] * p[0]
        return 100 * (u * u) + (1 - p[0]) * (1 - p[0])

    def rosenbrock4(p):
        terms = []
        for i in range(3):
            u = p[i + 1] - p[i] * p[i]
            terms.append(100 * (u * u) + (1 - p[i]) * (1 - p[i]))
        return r_sum(terms)

    def quadratic(p):
        return (p[0] - 1) * (p[0] - 1) + 3 * ((p[1] + 2) * (p[1] + 2)) + p[0] * p[1]

    def quadform(p):  # sum(A * outer(p - c, p - c)), column-major like R
        dev = [p[i] - c[i] for i in range(3)]
        return r_sum([float(a[i, j]) * (dev[i] * dev[j]) for j in range(3) for i in range(3)])

    def quartic(p):
        u = p[0] - 2
        return (u * u) * (u * u) + p[0]

    def least_squares(p):
        terms = []
        for ti, yi in zip(t, y):
            r = yi - p[0] - p[1] * ti
            terms.append(r * r)
        return r_sum(terms)

    def robust(p):  # sum(log(1 + ((y - p1 - p2 t) / exp(p3))^2)) + n p3
        s = _exp(p[2])
        terms = []
        for ti, yi in zip(t, y):
            r = (yi - p[0] - p[1] * ti) / s
            terms.append(_log(1 + r * r))
        return r_sum(terms) + len(t) * p[2]

    def skew_t(p, sign=-1):  # four parameters, NaN outside sigma > 0, nu > 2, xi > 0; unbounded as nu grows
        mu, sigma, nu, xi = p
        if not (sigma > 0 and nu > 2 and xi > 0):
            return math.nan
        terms = []
        for xv in x:
            z = (xv - mu) / sigma
            z = z / xi if z >= 0 else z * xi
            terms.append(_log(1 + z * z / (nu - 2)))
        return (nu + 1) / 2 * r_sum(terms) + len(x) * _log(sigma) + sign * (len(x) * _log(nu) / 4) \
            + (xi - 1) * (xi - 1) + _log(xi + 1 / xi)

    def skew_t_bounded(p):  # the same with + n log(nu) / 4: a minimum inside, NaN beyond nu = 2
        return skew_t(p, 1)

    def linear(p):
        return -p[0] - p[1]

    def absolute(p):
        return abs(p[0] - 1.3) + abs(p[1] + 0.7)

    def inf_region(p):
        return math.inf if p[0] < 0.5 else (p[0] - 2) * (p[0] - 2) + p[1] * p[1]

    def nan_region(p):
        return math.nan if p[0] < 1 else _log(p[0]) * _log(p[0]) + p[1] * p[1]

    def plateau(p):  # constant: the relative gradient is 0 at the start (code 1 after no iteration)
        return 3.0 + 0 * p[0]

    return {k: v for k, v in locals().items() if callable(v) and not k.startswith("_")}


R_OBJECTIVES = {
    "rosenbrock": "function(p) 100*(p[2]-p[1]^2)^2 + (1-p[1])^2",
    "rosenbrock4": "function(p) sum(100*(p[2:4]-p[1:3]^2)^2 + (1-p[1:3])^2)",
    "quadratic": "function(p) (p[1]-1)^2 + 3*(p[2]+2)^2 + p[1]*p[2]",
    "quadform": "function(p) sum(A * outer(p - cc, p - cc))",
    "quartic": "function(p) (p-2)^2*(p-2)^2 + p",
    "least_squares": "function(p) sum((y - p[1] - p[2]*t)^2)",
    "robust": "function(p) sum(log(1 + ((y - p[1] - p[2]*t)/exp(p[3]))^2)) + length(t)*p[3]",
    "skew_t": ("function(p) { mu <- p[1]; sigma <- p[2]; nu <- p[3]; xi <- p[4]\n"
               "  if (!(sigma > 0 && nu > 2 && xi > 0)) return(NaN)\n"
               "  z <- (x - mu)/sigma; z <- ifelse(z >= 0, z/xi, z*xi)\n"
               "  (nu + 1)/2*sum(log(1 + z^2/(nu - 2))) + length(x)*log(sigma) - length(x)*log(nu)/4 + "
               "(xi - 1)^2 + log(xi + 1/xi) }"),
    "skew_t_bounded": ("function(p) { mu <- p[1]; sigma <- p[2]; nu <- p[3]; xi <- p[4]\n"
                       "  if (!(sigma > 0 && nu > 2 && xi > 0)) return(NaN)\n"
                       "  z <- (x - mu)/sigma; z <- ifelse(z >= 0, z/xi, z*xi)\n"
                       "  (nu + 1)/2*sum(log(1 + z^2/(nu - 2))) + length(x)*log(sigma) + length(x)*log(nu)/4 + "
                       "(xi - 1)^2 + log(xi + 1/xi) }"),
    "linear": "function(p) -p[1] - p[2]",
    "absolute": "function(p) abs(p[1] - 1.3) + abs(p[2] + 0.7)",
    "inf_region": "function(p) if (p[1] < 0.5) Inf else (p[1]-2)^2 + p[2]^2",
    "nan_region": "function(p) if (p[1] < 1) NaN else log(p[1])^2 + p[2]^2",
    "plateau": "function(p) 3 + 0*p[1]",
}

CASES = [  # (name, objective, start, nlm arguments)
    ("rosenbrock_classic", "rosenbrock", [-1.2, 1.0], {}),
    ("rosenbrock_origin", "rosenbrock", [0.0, 0.0], {}),
    ("rosenbrock_far", "rosenbrock", [-5.0, 7.0], {}),
    ("rosenbrock_right", "rosenbrock", [3.0, -2.0], {}),
    ("rosenbrock4_classic", "rosenbrock4", [-1.2, 1.0, -1.2, 1.0], {}),
    ("rosenbrock4_origin", "rosenbrock4", [0.0, 0.0, 0.0, 0.0], {}),
    ("rosenbrock4_mixed", "rosenbrock4", [2.0, -1.0, 0.5, 3.0], {}),
    ("quadratic", "quadratic", [0.0, 0.0], {}),
    ("quadform_origin", "quadform", [0.0, 0.0, 0.0], {}),
    ("quadform_far", "quadform", [10.0, -20.0, 5.0], {}),
    ("quartic_1d", "quartic", [10.0], {}),
    ("least_squares", "least_squares", [0.0, 0.0], {}),
    ("least_squares_far", "least_squares", [50.0, -30.0], {}),
    ("robust", "robust", [0.0, 0.0, 0.0], {}),
    ("robust_start_scale", "robust", [1.0, -1.0, 2.0], {}),
    ("skew_t", "skew_t", [0.0, 1.0, 5.0, 1.0], {}),
    ("skew_t_near_edge", "skew_t", [1.0, 3.0, 2.5, 0.5], {}),
    ("skew_t_bounded", "skew_t_bounded", [0.0, 1.0, 5.0, 1.0], {}),
    ("skew_t_bounded_edge", "skew_t_bounded", [0.5, 2.0, 2.2, 1.5], {}),
    ("code2_steptol", "rosenbrock", [-1.2, 1.0], {"steptol": 1e-2}),
    ("code3_kink", "absolute", [0.0, 0.0], {}),
    ("code3_gradtol0", "rosenbrock", [-1.2, 1.0], {"gradtol": 0.0}),
    ("code4_iterlim", "rosenbrock", [-1.2, 1.0], {"iterlim": 5}),
    ("code5_unbounded", "linear", [1.0, 1.0], {}),
    ("code1_no_iteration", "plateau", [1.0, 2.0], {}),
    ("inf_region", "inf_region", [3.0, 1.0], {}),
    ("nan_region", "nan_region", [5.0, 1.0], {}),
    ("options", "rosenbrock", [-1.2, 1.0], {"typsize": [2.0, 0.5], "fscale": 10.0, "ndigit": 8, "stepmax": 0.5}),
    ("options_negative", "quadform", [1.0, 1.0, 1.0], {"typsize": [-3.0, 0.0, 1e-3], "fscale": -2.0}),
    ("stepmax_nan", "quadform", [0.0, 1.0, 0.0], {"typsize": [0.0, 1.0, 1.0]}),  # R's stepmax: 0/0 -> NaN
    ("gradtol_nan", "rosenbrock", [-1.2, 1.0], {"gradtol": float("nan")}),
]


def objectives() -> dict:
    """Python's objective of each name (on :func:`data`)."""
    return _objectives(data())


def r_setup(d: dict) -> str:
    """R code defining the objectives' data (hex floats, read exactly)."""
    def vec(v):
        return "as.numeric(c(" + ", ".join(repr(float(e).hex()) for e in np.ravel(v, order="F")) + "))"

    return "\n".join([f"t <- {vec(d['t'])}", f"y <- {vec(d['y'])}", f"x <- {vec(d['x'])}",
                      f"A <- matrix({vec(d['A'])}, 3, 3)", f"cc <- {vec(d['c'])}"])


def r_call(objective: str, start: list, args: dict) -> str:
    """R's ``nlm`` call for a case."""
    def number(e):
        return "NaN" if math.isnan(e) else repr(float(e))

    def value(v):
        if isinstance(v, list):
            return "c(" + ", ".join(number(e) for e in v) + ")"
        return repr(v) if isinstance(v, int) else number(v)

    extra = "".join(f", {k} = {value(v)}" for k, v in args.items())
    return f"nlm({R_OBJECTIVES[objective]}, {value(start)}{extra})"
