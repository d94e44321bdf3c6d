"""Problems for R's ``nlminb``, written the same way in R and in Python.

Shared by ``scripts/make_port_fixtures.py`` (which asks R) and
``tests/rbase/test_port.py`` (which asks ``pyale._rbase.port.nlminb``).  Each
objective evaluates to the same bits in both languages: elementwise ``+ - * /``
(R's ``x^2`` is ``x*x``), R's long double ``sum`` (``r_sum``) and C's ``log``
(R's ``log`` and Python's ``math.log`` are both glibc's).  Inputs (data,
starts, bounds) come from a NumPy seed and travel to R as hex floats.
"""

from __future__ import annotations

import math

import numpy as np

from pyale._rbase.summaries import r_sum

INF = math.inf


def _log(x: float) -> float:
    """R's ``log`` of a double: -Inf at 0, NaN below (Python's math.log raises there)."""
    if x > 0.0:
        return math.log(x)
    return -INF if x == 0.0 else math.nan


def _vec(values) -> str:
    return "c(" + ", ".join(_num(v) for v in values) + ")"


def _num(v: float) -> str:
    v = float(v)
    if math.isinf(v):
        return "Inf" if v > 0 else "-Inf"
    return v.hex()


# --- objectives: (R source with the data bound as `y`/`cc`/`ww`, Python factory) --------------

def quad(cc, ww):
    """Weighted squared distance to ``cc`` plus 1.5."""
    cc, ww = np.asarray(cc, float), np.asarray(ww, float)

    def f(p):
        d = p - cc
        return r_sum(d * d * ww) + 1.5
    return f, f"local({{cc <- {_vec(cc)}; ww <- {_vec(ww)}; function(p) {{ d <- p - cc; sum(d * d * ww) + 1.5 }}}})"


def zero_min(cc):
    """Squared distance to ``cc``: minimum exactly 0 (absolute function convergence with abs.tol)."""
    cc = np.asarray(cc, float)

    def f(p):
        d = p - cc
        return r_sum(d * d)
    return f, f"local({{cc <- {_vec(cc)}; function(p) {{ d <- p - cc; sum(d * d) }}}})"


def rosenbrock():
    def f(p):
        a = p[1] - p[0] * p[0]
        b = 1.0 - p[0]
        return 100.0 * (a * a) + b * b
    return f, "function(p) { a <- p[2] - p[1] * p[1]; b <- 1 - p[1]; 100 * (a * a) + b * b }"


def nan_region():
    """NaN where p[1] > 1.5 (R's port.c turns it into +Inf); the minimum (2, 1) lies inside it."""
    def f(p):
        if p[0] > 1.5:
            return math.nan
        a = p[0] - 2.0
        b = p[1] - 1.0
        return a * a * 3.0 + b * b + p[0] * p[1]
    return f, ("function(p) { if (p[1] > 1.5) return(NaN); a <- p[1] - 2; b <- p[2] - 1; "
               "a * a * 3 + b * b + p[1] * p[2] }")


def absolute():
    """|p1| + |p2 - 1|: a kink at the minimum, where PORT reports false convergence."""
    def f(p):
        return abs(p[0]) + abs(p[1] - 1.0)
    return f, "function(p) abs(p[1]) + abs(p[2] - 1)"


def linear():
    """p1 + 2 p2: no minimum; PORT reports singular convergence unbounded, a corner with bounds."""
    def f(p):
        return p[0] + 2.0 * p[1]
    return f, "function(p) p[1] + 2 * p[2]"


def normal_nll(y):
    """Normal negative log-likelihood without its constant, parameters (mean, sd)."""
    y = np.asarray(y, float)
    n = float(y.shape[0])

    def f(p):
        with np.errstate(all="ignore"):
            z = (y - p[0]) / p[1]
        return r_sum(z * z) / 2.0 + n * _log(p[1])
    return f, (f"local({{y <- {_vec(y)}; n <- length(y); function(p) {{ z <- (y - p[1]) / p[2]; "
               "sum(z * z) / 2 + n * log(p[2]) }})")


def two_piece_nll(y):
    """Two-piece normal (mean, sd, skew xi > 0), fGarch's snorm-like shape: 3 bounded parameters."""
    y = np.asarray(y, float)
    n = float(y.shape[0])

    def f(p):
        with np.errstate(all="ignore"):
            z = (y - p[0]) / p[1]
            zz = np.where(z >= 0.0, z / p[2], z * p[2])
            return n * _log(p[2] + 1.0 / p[2]) + r_sum(zz * zz) / 2.0 + n * _log(p[1])
    return f, (f"local({{y <- {_vec(y)}; n <- length(y); function(p) {{ z <- (y - p[1]) / p[2]; "
               "zz <- ifelse(z >= 0, z / p[3], z * p[3]); n * log(p[3] + 1 / p[3]) + sum(zz * zz) / 2 + "
               "n * log(p[2]) }})")


def two_piece_t4_nll(y):
    """Four bounded parameters (mean, sd, skew, weight of a heavier tail), rational in the data."""
    y = np.asarray(y, float)
    n = float(y.shape[0])

    def f(p):
        with np.errstate(all="ignore"):
            z = (y - p[0]) / p[1]
            zz = np.where(z >= 0.0, z / p[2], z * p[2])
            q = zz * zz
            return (n * _log(p[2] + 1.0 / p[2]) + r_sum(q / (1.0 + p[3] * q)) / 2.0
                    + n * _log(p[1]) + n * p[3])
    return f, (f"local({{y <- {_vec(y)}; n <- length(y); function(p) {{ z <- (y - p[1]) / p[2]; "
               "zz <- ifelse(z >= 0, z / p[3], z * p[3]); q <- zz * zz; "
               "n * log(p[3] + 1 / p[3]) + sum(q / (1 + p[4] * q)) / 2 + n * log(p[2]) + n * p[4] }})")


def build(case: dict):
    """The Python objective and its R source for a case (its ``objective`` and ``data``)."""
    kind, data = case["objective"], case.get("data", {})
    args = {k: [float.fromhex(v) if isinstance(v, str) else v for v in vals] for k, vals in data.items()}
    return OBJECTIVES[kind](**args)


OBJECTIVES = {"quad": quad, "zero_min": zero_min, "rosenbrock": rosenbrock, "nan_region": nan_region,
              "absolute": absolute, "linear": linear, "normal_nll": normal_nll, "two_piece_nll": two_piece_nll,
              "two_piece_t4_nll": two_piece_t4_nll}


def _hex(values) -> list[str]:
    return [float(v).hex() for v in np.atleast_1d(np.asarray(values, float))]


def cases(seed: int = 20261126, random_count: int = 8) -> list[dict]:
    """The fixture's cases: hand-picked ones for each PORT message, then random ones."""
    rng = np.random.default_rng(seed)
    y = rng.normal(1.0, 2.0, size=200)
    skewed = np.concatenate([rng.normal(0.0, 1.0, 120) * 0.7, np.abs(rng.normal(0.0, 1.0, 80)) * 2.5])
    out = [
        dict(name="rosenbrock_unbounded", objective="rosenbrock", start=[-1.2, 1.0]),
        dict(name="rosenbrock_box_inactive", objective="rosenbrock", start=[-1.2, 1.0], lower=[-2, -2],
             upper=[2, 2], trace=1),
        dict(name="rosenbrock_bound_active", objective="rosenbrock", start=[-1.2, 1.0], lower=[-2, -2],
             upper=[0.5, 2]),
        dict(name="quad_lower_active", objective="quad", data={"cc": _hex([3.0, -1.0]), "ww": _hex([1.0, 1.0])},
             start=[1.0, 1.0], lower=[0.0, 0.0]),
        dict(name="quad_start_outside", objective="quad", data={"cc": _hex([3.0, -1.0]), "ww": _hex([1.0, 2.0])},
             start=[-5.0, 10.0], lower=[0.0, -2.0], upper=[2.0, 2.0]),
        dict(name="quad_start_on_bounds", objective="quad", data={"cc": _hex([3.0, -1.0, 0.5]),
                                                                 "ww": _hex([1.0, 2.0, 4.0])},
             start=[0.0, 0.0, 0.5], lower=[0.0, 0.0, -1.0], upper=[2.0, 2.0, 0.5]),
        dict(name="quad_fixed_variable", objective="quad",
             data={"cc": _hex([3.0, -1.0, 0.5]), "ww": _hex([1.0, 2.0, 0.5])},
             start=[0.0, 0.0, 0.0], lower=[-5.0, 0.25, -5.0], upper=[5.0, 0.25, 5.0]),
        dict(name="quad_scaled", objective="quad", data={"cc": _hex([3.0, -1.0]), "ww": _hex([1.0, 50.0])},
             start=[0.0, 0.0], scale=[1.0, 7.0]),
        dict(name="quad_one_parameter_at_bound", objective="quad", data={"cc": _hex([1.0]), "ww": _hex([1.0])},
             start=[-0.5], lower=[-0.25], upper=[0.5]),
        dict(name="nan_region_bounded", objective="nan_region", start=[0.0, 0.0], lower=[-5.0, -5.0],
             upper=[5.0, 5.0]),
        dict(name="nan_region_unbounded", objective="nan_region", start=[0.0, 0.0]),
        dict(name="false_convergence", objective="absolute", start=[1.0, -2.0]),
        dict(name="singular_convergence", objective="linear", start=[1.0, 1.0]),
        # every parameter ends on a bound: PORT's dd7dgb then stores an uninitialised local into
        # V(NREDUC), so R's message (3 or 5) varies between runs; the rest is defined
        dict(name="linear_corner", objective="linear", start=[1.0, 1.0], lower=[0.0, 0.0], upper=[3.0, 3.0],
             message_undefined=True),
        dict(name="absolute_function_convergence", objective="zero_min", data={"cc": _hex([1.0, 2.0])},
             start=[0.0, 0.0], control={"abs.tol": 1e-10}),
        dict(name="x_convergence_loose", objective="quad", data={"cc": _hex([3.0, -1.0]), "ww": _hex([1.0, 3.0])},
             start=[0.0, 0.0], control={"x.tol": 0.1, "rel.tol": 1e-15}),
        dict(name="iteration_limit", objective="rosenbrock", start=[-1.2, 1.0], lower=[-2, -2], upper=[2, 2],
             control={"iter.max": 5}),
        dict(name="evaluation_limit", objective="rosenbrock", start=[-1.2, 1.0], control={"eval.max": 7}),
        dict(name="control_out_of_range", objective="rosenbrock", start=[-1.2, 1.0], control={"rel.tol": -1.0}),
        dict(name="bad_bounds", objective="rosenbrock", start=[0.0, 0.0], lower=[1.0, 0.0], upper=[0.0, 1.0]),
        dict(name="normal_sd_bound", objective="normal_nll", data={"y": _hex(y)}, start=[0.0, 1.0],
             lower=[-INF, 0.0], upper=[INF, INF]),
        dict(name="normal_far_start", objective="normal_nll", data={"y": _hex(y)}, start=[5.0, 0.1],
             lower=[-INF, 0.0], upper=[INF, INF]),
        dict(name="two_piece_3_parameters", objective="two_piece_nll", data={"y": _hex(skewed)},
             start=[0.0, 1.0, 1.0], lower=[-INF, 0.0, 0.0], upper=[INF, INF, INF]),
        dict(name="two_piece_4_parameters", objective="two_piece_t4_nll", data={"y": _hex(skewed)},
             start=[0.0, 1.0, 1.0, 0.1], lower=[-INF, 0.0, 0.0, 0.0], upper=[INF, INF, INF, INF]),
    ]
    for i in range(random_count):
        n = int(rng.integers(1, 5))
        cc, ww = rng.normal(0.0, 2.0, n), rng.uniform(0.5, 20.0, n)
        lower = rng.normal(0.0, 1.0, n) - 1.0
        upper = lower + rng.uniform(0.2, 3.0, n)
        start = rng.normal(0.0, 2.0, n)
        bounded = i % 2 == 0
        out.append(dict(name=f"random_quad_{i}", objective="quad", data={"cc": _hex(cc), "ww": _hex(ww)},
                        start=start.tolist(), **({"lower": lower.tolist(), "upper": upper.tolist()} if bounded else {})))
        rstart = rng.uniform(-2.0, 2.0, 2)
        out.append(dict(name=f"random_rosenbrock_{i}", objective="rosenbrock", start=rstart.tolist(),
                        **({"lower": [-1.5, -0.5], "upper": [0.8, 2.0]} if bounded else {})))
    for case in out:
        case["start"] = _hex(case["start"])
        for key in ("lower", "upper", "scale"):
            if key in case:
                case[key] = _hex(case[key])
    return out


def arguments(case: dict) -> dict:
    """Keyword arguments of ``nlminb`` for a case (floats decoded)."""
    kw = {}
    for key in ("lower", "upper", "scale"):
        if key in case:
            kw[key] = [float.fromhex(v) for v in case[key]]
    control = dict(case.get("control", {}))
    if case.get("trace"):
        control["trace"] = case["trace"]
    if control:
        kw["control"] = control
    return kw


def r_call(case: dict) -> str:
    """R code that runs ``nlminb`` on the case and returns its answers as a character vector.

    Lines: ``par``, ``objective``, ``convergence``, ``iterations``, ``evaluations``,
    ``message``, one ``point`` per objective call (hex floats) and one ``trace`` per line
    that ``control = list(trace = k)`` prints.
    """
    _, source = build(case)
    args = [f"start = {_vec(float.fromhex(v) for v in case['start'])}", "objective = pyale_g"]
    for key in ("lower", "upper", "scale"):
        if key in case:
            args.append(f"{key} = {_vec(float.fromhex(v) for v in case[key])}")
    control = dict(case.get("control", {}))
    if case.get("trace"):
        control["trace"] = case["trace"]
    if control:
        args.append("control = list(" + ", ".join(f"{k} = {v!r}" for k, v in control.items()) + ")")
    return (
        "local({ pyale_f <- " + source + "; pyale_pts <- character(0); "
        "pyale_g <- function(p) { pyale_pts <<- c(pyale_pts, paste(sprintf('%a', p), collapse = ' ')); "
        "pyale_f(p) }; "
        "pyale_tr <- capture.output(r <- suppressWarnings(nlminb(" + ", ".join(args) + "))); "
        "c(paste('par', paste(sprintf('%a', r$par), collapse = ' ')), paste('objective', sprintf('%a', r$objective)), "
        "paste('convergence', r$convergence), paste('iterations', r$iterations), "
        "paste('evaluations', r$evaluations[[1]], r$evaluations[[2]]), paste('message', r$message), "
        "paste('point', pyale_pts), if (length(pyale_tr)) paste('trace', pyale_tr)) })"
    )


def parse_r_answer(lines) -> dict:
    """R's answer lines as a dict (floats left as hex strings as R wrote them; a point is one string)."""
    out: dict = {"points": [], "trace": []}
    for line in lines:
        key, _, rest = str(line).partition(" ")
        if key == "point":
            out["points"].append(rest)
        elif key == "trace":
            out["trace"].append(rest)
        elif key == "par":
            out["par"] = rest.split(" ")
        elif key == "objective":
            out["objective"] = rest
        elif key in ("convergence", "iterations"):
            out[key] = int(rest)
        elif key == "evaluations":
            fn, gr = rest.split(" ")
            out["evaluations"] = {"function": int(fn), "gradient": int(gr)}
        elif key == "message":
            out["message"] = rest
    return out
