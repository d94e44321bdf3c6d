"""Write reference/rdist/fgarch.json: R's nmath functions, fGarch's densities and the fit objectives, to the bit.

For ``pyale._rbase.nmath``, ``pyale._rbase.fgarch`` and
``pyale._rbase.ml_objectives`` (run: python scripts/make_fgarch_fixtures.py).

Every input is generated here from a seed (plus fixed boundary points) and
handed to R as a hex float; every output comes back through
``sprintf('%a')``, so the comparison is bit for bit:

- ``nmath``: ``gamma``, ``lgamma``, ``beta``, ``lbeta``, ``dnorm``, ``dt``,
  ``dcauchy``, ``dlogis``, ``^``, ``exp`` and ``log`` on vectors of arguments;
- ``densities``: ``fGarch::dsnorm``, ``dged``, ``dstd``, ``dsged``, ``dsstd`` on
  one grid of x at parameter points near and on the boundaries;
- ``fits``: for each fitted family and sample, the optimiser call R makes,
  captured from R's own code: the fitter's body (``fGarch::snormFit``, ...,
  ``univariateML::mlcauchy``, ``mllogis``) is run with its ``nlminb``/``nlm``
  call replaced by a function that records the start, the bounds and the
  objective closure; the closure is then evaluated at parameter points.

R needs fGarch and univariateML (``$ALE_R_LIB``, default ``~/Rlib-ale``).
Files are generated: do not edit them.
"""

from __future__ import annotations

import datetime
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "reference" / "rdist" / "fgarch.json"
SEED = 20251126

FITTERS = {  # family: R fitter whose optimiser call is captured
    "snorm": "fGarch::snormFit", "ged": "fGarch::gedFit", "std": "fGarch::stdFit",
    "sged": "fGarch::sgedFit", "sstd": "fGarch::sstdFit",
    "cauchy": "univariateML::mlcauchy", "logis": "univariateML::mllogis",
}
DENSITY_POINTS = {  # fGarch density: parameter points (mean, sd, shape...)
    "dsnorm": [(0, 1, 1.5), (0.2, 1e-3, 1), (0.1, 3, 0.05), (0, 1, 20), (0.3, 1e5, 1.0001), (0, 1, 0), (0, 0, 1)],
    "dged": [(0, 1, 2), (0.1, 1.3, 0.3), (0, 1, 0.05), (0, 0.01, 7), (0, 1, 50), (0, 2, 1), (0, 1, 1e-3),
             (0, 1, 0)],
    "dstd": [(0, 1, 5), (0.1, 1.3, 2.0000001), (0, 1, 2.01), (0, 0.01, 4), (0, 1, 300), (0, 2, 3.7), (0, 1, 1e7),
             (0, 1, 2)],
    "dsged": [(0, 1, 2, 1.5), (0.1, 1.3, 0.3, 0.2), (0, 1, 0.05, 5), (0, 0.01, 7, 1), (0, 1, 50, 0.9),
              (0, 1, 1.2, 100)],
    "dsstd": [(0, 1, 5, 1.5), (0.1, 1.3, 2.0000001, 0.2), (0, 1, 2.01, 5), (0, 0.01, 4, 1), (0, 1, 300, 0.9),
              (0, 1, 1.5, 1), (0, 1, 4, -1), (0, 1, 4, 0.01)],
}
DT_DF = (0.7, 1, 2.0000001, 3, 4.37, 30, 31.3, 1e6, float("inf"))
POWERS = (0.5, -1, 2, 0.37, -2.5, 150.3)
LOCATION_SCALE = ((0, 1), (0.3, 2.5), (-1, 1e-3), (2, 1e5))


def _hex(values) -> list[str]:
    return [float(v).hex() for v in np.atleast_1d(np.asarray(values, dtype=float))]


def inputs() -> dict:
    """The arguments, samples and parameter points, from the seed."""
    rng = np.random.default_rng(SEED)
    specials = [0.5, 1, 1.5, 2, 10, 10.5, 15, 15.5, 35.2, 50, 50.5, 80.3, 171.5, 171.7, -0.5, -1.5, -10.5, -170.6,
                -171.2, 1e-300, 1e-310, 5e6, 1e17, 1e18, 0, -3, float("inf"), float("-inf"), float("nan")]
    args = np.concatenate([rng.uniform(-12, 12, 70), np.exp(rng.uniform(-8, 6, 90)),
                           -np.exp(rng.uniform(-8, 6, 30)), specials])
    positive = np.exp(rng.uniform(-6, 6, 120))
    grid = np.concatenate([rng.standard_t(3, 100) * 2, rng.uniform(-40, 40, 20),
                           [0.0, 1e-300, -1e-300, 4.99, 5.01, 38, 39, 1e10, -1e10, 1e200, 0.1]])
    samples = {"normal": rng.normal(0.3, 1.7, 150), "heavy": rng.standard_t(3, 151),
               "skewed": rng.gamma(2.0, size=120) - 2.0, "small": rng.normal(size=8),
               "outlier": np.append(rng.normal(size=60), 40.0)}
    return {"args": args, "positive": positive, "grid": grid, "samples": samples, "rng": rng}


def points(family: str, start: np.ndarray, rng) -> np.ndarray:
    """Parameter points for one fit: R's start, random points around it and boundary points."""
    inf, nan = float("inf"), float("nan")
    if family in ("cauchy", "logis"):
        m, s = start
        rows = [start, (m, -50), (m, 50), (m, 710), (m + 3, s - 2), (m, -745), (inf, s), (m, inf), (m, -inf), (nan, s)]
        rows += [(m + rng.normal(), s + rng.normal()) for _ in range(10)]
        return np.array(rows, dtype=float)
    mean, sd, *shape = start
    rows = [start]
    for _ in range(10):
        rows.append([mean + 0.3 * rng.normal() * sd, sd * np.exp(0.5 * rng.normal())]
                    + [v * np.exp(0.5 * rng.normal()) for v in shape])
    low_nu = {"ged": 0.05, "sged": 0.05, "std": 2 + 1e-12, "sstd": 2 + 1e-9}.get(family)
    edges = [[mean, 1e-8] + shape, [mean, 0.0] + shape, [1e3, sd] + shape]
    if family in ("snorm",):
        edges += [[mean, sd, 0.01], [mean, sd, 100.0], [mean, sd, 0.0]]
    else:
        edges += [[mean, sd, low_nu] + shape[1:], [mean, sd, 60.0] + shape[1:]]
        if family in ("std", "sstd"):
            edges += [[mean, sd, 2.0] + shape[1:], [mean, sd, 1.5] + shape[1:]]
        if family in ("sged", "sstd"):
            edges += [[mean, sd, shape[0], 0.01], [mean, sd, shape[0], 50.0], [mean, sd, shape[0], -1.0]]
    width = len(start)
    for column in range(width):  # non-finite values in each position
        for value in (inf, -inf, nan):
            row = list(start)
            row[column] = value
            edges.append(row)
    return np.array(rows + edges, dtype=float)


def _r_vector(values) -> str:
    return "c(" + ", ".join(repr(h) for h in _hex(values)) + ")"


def r_script(data: dict) -> tuple[str, list]:
    """The R script, and the nmath cases (name, R expression) it evaluates."""
    lines = [
        "suppressPackageStartupMessages({library(fGarch); library(univariateML)})",
        "out <- file(commandArgs(TRUE)[1], 'w')",
        "put <- function(k, v) writeLines(paste(c(k, if (is.numeric(v)) sprintf('%a', as.double(v)) else v), "
        "collapse = '\\t'), out)",
        "h <- function(s) as.numeric(s)",
        f"x <- h({_r_vector(data['args'])})",
        f"pos <- h({_r_vector(data['positive'])})",
        "q <- rev(pos)",
        f"grid <- h({_r_vector(data['grid'])})",
        # R's own optimiser calls, captured
        ".captured <- NULL",
        ".fake_nlminb <- function(start, objective, gradient = NULL, hessian = NULL, ..., scale = 1, "
        "control = list(), lower = -Inf, upper = Inf) { .captured <<- list(optimiser = 'nlminb', start = start, "
        "objective = objective, dots = list(...), lower = lower, upper = upper); list(par = start, objective = 0) }",
        ".fake_nlm <- function(f, p, ...) { .captured <<- list(optimiser = 'nlm', start = p, objective = f, "
        "dots = list(...), lower = NULL, upper = NULL); list(estimate = p, gradient = p, minimum = 0) }",
        "swap <- function(e) { if (is.call(e)) { head <- e[[1]]",
        "  if (identical(head, quote(nlminb)) || identical(head, quote(stats::nlminb))) e[[1]] <- quote(.fake_nlminb)",
        "  else if (identical(head, quote(nlm)) || identical(head, quote(stats::nlm))) e[[1]] <- quote(.fake_nlm)",
        "  for (i in seq_along(e)[-1]) if (!identical(e[[i]], quote(expr = )) && !is.null(e[[i]])) "
        "e[[i]] <- swap(e[[i]]) }",
        "  e }",
        "capture <- function(fun, y) { f <- fun; body(f) <- swap(body(f)); .captured <<- NULL; "
        "suppressWarnings(f(y)); .captured }",
        "value_at <- function(cap, p) suppressWarnings(do.call(cap$objective, c(list(p), cap$dots)))",
    ]
    cases = [("gamma", "suppressWarnings(gamma(x))"), ("lgamma", "suppressWarnings(lgamma(x))"),
             ("beta", "suppressWarnings(beta(pos, q))"), ("lbeta", "suppressWarnings(lbeta(pos, q))"),
             ("beta_half", "beta(1/2, pos)"), ("exp", "exp(x)"), ("log", "suppressWarnings(log(x))"),
             ("dnorm", "dnorm(x)"), ("dnorm_ms", "dnorm(x, 0.3, 2.5)"), ("dnorm_log", "dnorm(x, 0.3, 2.5, log = TRUE)")]
    for df in DT_DF:
        cases += [(f"dt:{df!r}", f"dt(x, {df!r:s})".replace("inf", "Inf")),
                  (f"dt_log:{df!r}", f"dt(x, {df!r:s}, log = TRUE)".replace("inf", "Inf"))]
    for loc, scale in LOCATION_SCALE:
        cases += [(f"dcauchy_log:{loc!r}:{scale!r}", f"dcauchy(x, {loc!r}, {scale!r}, log = TRUE)"),
                  (f"dlogis_log:{loc!r}:{scale!r}", f"dlogis(x, {loc!r}, {scale!r}, log = TRUE)"),
                  (f"dlogis:{loc!r}:{scale!r}", f"dlogis(x, {loc!r}, {scale!r})")]
    for power in POWERS:
        cases.append((f"pow:{power!r}", f"x^{power!r}"))
    for name, call in cases:
        lines.append(f"put('nmath.{name}', {call})")
    for density, plist in DENSITY_POINTS.items():
        for k, par in enumerate(plist):
            lines.append(f"put('density.{density}.{k}', suppressWarnings(do.call({density}, "
                         f"c(list(grid), as.list(h({_r_vector(par)}))))))")
    rng = data["rng"]
    fits = {}
    for sample, values in data["samples"].items():
        lines.append(f"y <- h({_r_vector(values)})")
        for family, fitter in FITTERS.items():
            key = f"{family}.{sample}"
            lines.append(f"cap <- capture({fitter}, y); put('start.{key}', as.numeric(cap$start)); "
                         f"put('optimiser.{key}', cap$optimiser); put('lower.{key}', as.numeric(cap$lower)); "
                         f"put('upper.{key}', as.numeric(cap$upper))")
            fits[key] = None  # points need R's start: second pass below
    return "\n".join(lines), cases, fits


def run_r(script: str) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        path, result = Path(tmp, "f.R"), Path(tmp, "out.txt")
        path.write_text(script + "\nclose(out)\n")
        env = {**os.environ, "R_LIBS": os.path.expanduser(os.environ.get("ALE_R_LIB", "~/Rlib-ale"))}
        subprocess.run(["Rscript", str(path), str(result)], check=True, env=env)
        r = {}
        for line in result.read_text().splitlines():
            key, *values = line.split("\t")
            r[key] = values
    return r


def main() -> None:
    data = inputs()
    script, cases, fits = r_script(data)
    first = run_r(script)
    # second pass: the objective at points around R's start (from the first pass)
    lines = [script]
    point_sets = {}
    for key in fits:
        family, sample = key.split(".")
        start = np.array([float.fromhex(v) for v in first[f"start.{key}"]])
        pts = points(family, start, data["rng"])
        point_sets[key] = pts
        lines.append(f"y <- h({_r_vector(data['samples'][sample])}); cap <- capture({FITTERS[family]}, y)")
        lines.append(f"P <- matrix(h({_r_vector(pts.ravel())}), ncol = {pts.shape[1]}, byrow = TRUE)")
        lines.append(f"put('objective.{key}', apply(P, 1, function(p) value_at(cap, p)))")
    lines.append("put('versions', c(R.version.string, paste('fGarch', packageVersion('fGarch')), "
                 "paste('univariateML', packageVersion('univariateML'))))")
    r = run_r("\n".join(lines))
    versions = r.pop("versions")
    fixture = {
        "meta": {"generator": "scripts/make_fgarch_fixtures.py", "arguments": sys.argv[1:],
                 "r_version": versions[0], "packages": dict(v.split(" ", 1) for v in versions[1:]),
                 "seed": SEED, "rtol": 0.0,
                 "tolerance_reason": "bit for bit: every value is compared as a hex float",
                 "description": "R's nmath functions, fGarch's densities and the objectives, starts and bounds "
                                "of fGarch's *Fit and univariateML's mlcauchy/mllogis optimiser calls",
                 "created": datetime.date.today().isoformat(), "note": "generated: do not edit"},
        "inputs": {"x": _hex(data["args"]), "pos": _hex(data["positive"]), "grid": _hex(data["grid"]),
                   "samples": {k: _hex(v) for k, v in data["samples"].items()}},
        "nmath": {name: {"r_call": call, "r": r[f"nmath.{name}"]} for name, call in cases},
        "densities": {f"{d}.{k}": {"density": d, "par": _hex(par), "r": r[f"density.{d}.{k}"]}
                      for d, plist in DENSITY_POINTS.items() for k, par in enumerate(plist)},
        "fits": {key: {"family": key.split(".")[0], "sample": key.split(".")[1], "fitter": FITTERS[key.split(".")[0]],
                       "optimiser": r[f"optimiser.{key}"][0], "start": r[f"start.{key}"],
                       "lower": r[f"lower.{key}"], "upper": r[f"upper.{key}"],
                       "points": [_hex(row) for row in point_sets[key]], "objective": r[f"objective.{key}"]}
                 for key in fits},
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(fixture, indent=1)
    text = re.sub(r"\[\n\s*(\"[^\]]*?)\n\s*\]", lambda m: "[" + re.sub(r",\n\s*", ", ", m.group(1)) + "]", text)
    OUT.write_text(text + "\n")  # one line per vector
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
