"""Write reference/ale_pdist/<library>/<case>.json from R's ale::ALEpDist (run: python scripts/make_pdist_fixtures.py).

Each case's data are generated here from a seed and handed to R as exact
doubles (C99 hex floats, which R's ``as.numeric`` reads exactly); R fits the
model (``lm`` or ``glm``), runs ``ALEpDist(model, data, rand_it = , seed = ,
surrogate = , parallel = 0, output_residuals = TRUE, silent = TRUE)`` and
``ALE(model, data = , p_values = , boot_it = , parallel = 0, silent = TRUE)``,
and writes back (as hex floats): the residuals, the residual distribution
``model_select`` chose (family, parameters, log likelihood), the random
variable of the first two iterations (``set.seed(seed + it)`` under
L'Ecuyer-CMRG, ``rml``), every iteration's statistics (``rand_stats``), and
the ALE's ``get(stats = "all")`` table with its p-values and ``y_summary``; with
ale 0.5.3 and a probability response also ``invert_probs()``'s table and p-value
distribution, and those after ``invert_probs(force = TRUE)``.

A case in ``FAILING`` passes a ``random_model_call_string`` that stops on some
iterations (R drops them: ``rand_it_ok``).

Libraries (one R session each): ``ale-0.5.0`` (``$ALE_R_LIB``, default
``~/Rlib-ale``) and ``ale-0.5.3`` (``$ALE053_R_LIB``, default ``~/Rlib-ale053``).

Usage::

    python scripts/make_pdist_fixtures.py [case ...]

Files are generated: do not edit them.
"""

from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "reference" / "ale_pdist"
LIBRARIES = {"ale-0.5.0": ("ALE_R_LIB", "~/Rlib-ale"), "ale-0.5.3": ("ALE053_R_LIB", "~/Rlib-ale053")}

# name: (data seed, rows, response kind, R model call, ALEpDist seed, surrogate, ALE boot_it)
CASES = {
    "lm_norm": (101, 80, "gaussian", "lm(y ~ x1 + x2 + x3, data = d)", 0, False, 0),
    "lm_norm_boot": (102, 70, "gaussian", "lm(y ~ x1 + x2 + x3, data = d)", 7, False, 10),
    "lm_laplace": (103, 90, "laplace", "lm(y ~ x1 + x2 + x3, data = d)", 3, False, 0),
    "lm_surrogate": (104, 60, "gaussian", "lm(y ~ x1 + x2 + x3, data = d)", 0, True, 0),
    "glm_binomial": (105, 120, "binary", "glm(y ~ x1 + x2 + x3, family = binomial, data = d)", 2, False, 0),
    # 600 rows: the random ALER bands stay inside [0, 1], so ale 0.5.3's invert_probs() accepts the ALE
    "glm_binomial_invert": (107, 600, "binary", "glm(y ~ x1 + x2 + x3, family = binomial, data = d)", 1, False, 0),
    # residual families univariateML fits with nlm (model_select picks Cauchy, logistic here)
    "lm_cauchy": (111, 80, "cauchy", "lm(y ~ x1 + x2 + x3, data = d)", 5, False, 0),
    "lm_logistic": (110, 80, "logistic", "lm(y ~ x1 + x2 + x3, data = d)", 4, False, 0),
}
RAND_IT = 100  # R refuses fewer
# Cases whose refit fails on purpose: (rand_it, threshold): the refit stops when the random variable's first
# value exceeds the threshold (R: a random_model_call_string with stop(); pyale's test refit raises alike).
# R drops those iterations (rand_it_ok < rand_it, with a warning).
FAILING = {"lm_failing_refits": (130, 1.2)}
CASES["lm_failing_refits"] = (108, 80, "gaussian", "lm(y ~ x1 + x2 + x3, data = d)", 5, False, 0)


def random_model_call_string(name: str) -> str:
    """R's random_model_call_string for a FAILING case ('' for the others: R's automatic refit)."""
    if name not in FAILING:
        return ""
    threshold = FAILING[name][1]
    return (f"if (rand_data$random_variable[1] > {threshold!r}) stop('planned failure') else "
            "lm(y ~ x1 + x2 + x3 + random_variable, data = rand_data)")


def case_data(seed: int, rows: int, kind: str) -> dict:
    """The columns handed to R: three numeric features and a response."""
    rng = np.random.default_rng(seed)
    x1, x2, x3 = rng.normal(size=rows), rng.uniform(-1, 1, size=rows), rng.normal(size=rows)
    signal = 1.0 + 2.0 * x1 - 1.0 * x2
    if kind == "gaussian":
        y = signal + rng.normal(size=rows)
    elif kind == "laplace":
        y = signal + rng.laplace(size=rows)
    elif kind == "cauchy":
        y = signal + rng.standard_cauchy(size=rows) * 0.5
    elif kind == "logistic":
        y = signal + rng.logistic(size=rows)
    else:
        y = (rng.uniform(size=rows) < 1 / (1 + np.exp(-signal))).astype(float)
    return {"x1": x1, "x2": x2, "x3": x3, "y": y}


R_SCRIPT = r"""
suppressPackageStartupMessages(library(ale))
args <- commandArgs(trailingOnly = TRUE)
d <- read.csv(args[1], colClasses = "character")
for (nm in names(d)) d[[nm]] <- as.numeric(d[[nm]])
out <- file(args[2], "w")
put <- function(key, v) {
  if (is.numeric(v)) v <- sprintf("%a", as.numeric(v)) else v <- as.character(v)
  writeLines(paste(c(key, v), collapse = "\t"), out)
}
put_frame <- function(prefix, df) for (nm in names(df)) put(paste0(prefix, nm), df[[nm]])
model <- eval(parse(text = args[3]))
seed <- as.numeric(args[4]); surrogate <- as.logical(args[5]); boot_it <- as.numeric(args[6])
rand_it <- as.numeric(args[7]); call_string <- if (nzchar(args[8])) args[8] else NULL
pd <- suppressWarnings(ALEpDist(model, d, rand_it = rand_it, seed = seed, surrogate = surrogate, parallel = 0,
               random_model_call_string = call_string, output_residuals = TRUE, silent = TRUE))
rd <- pd@residual_distribution
put("family_model", gsub(" ", "_", attr(rd, "model")))
put("family_params", unclass(rd)[seq_along(rd)])
put("family_param_names", names(rd))
put("family_loglik", attr(rd, "logLik"))
put("residuals", as.numeric(pd@residuals))
put("rand_it_ok", pd@params$rand_it_ok)
put("exactness", pd@params$exactness)
put("y_cats", names(pd@rand_stats))
put_frame("rand_stats.", pd@rand_stats[[1]])
RNGkind("L'Ecuyer-CMRG")
for (it in 1:2) { set.seed(seed + it); put(paste0("random_variable.", it), univariateML::rml(nrow(d), rd)) }
RNGkind("default")
a <- ALE(model, data = d, p_values = pd, boot_it = boot_it, parallel = 0, silent = TRUE)
put_frame("stats_all.", as.data.frame(get(a, stats = "all")))
put("stats_all_columns", names(get(a, stats = "all")))
put_frame("stats_estimate.", as.data.frame(get(a, stats = "estimate")))
ys <- a@params$y_summary
if (exists("invert_probs", envir = asNamespace("ale")) && all(ys[, 1] >= 0 & ys[, 1] <= 1)) {
  # ale >= 0.5.2: invert_probs() inverts the p_values too (invert_probs_p), once; force reverts the ALE only
  ai <- invert_probs(a)
  put_frame("inverted.stats_all.", as.data.frame(get(ai, stats = "all")))
  put_frame("inverted.rand_stats.", ai@params$p_values@rand_stats[[1]])
  ar <- suppressMessages(invert_probs(ai, force = TRUE))
  put_frame("reverted.stats_all.", as.data.frame(get(ar, stats = "all")))
  put_frame("reverted.rand_stats.", ar@params$p_values@rand_stats[[1]])
}
put("y_summary.rows", rownames(ys))
put("y_summary.values", as.numeric(ys[, 1]))
put("versions", c(R.version.string, paste0("ale ", packageVersion("ale")),
                  paste0("univariateML ", packageVersion("univariateML")),
                  paste0("fGarch ", packageVersion("fGarch")), paste0("extraDistr ", packageVersion("extraDistr"))))
close(out)
"""


def _parse(path: Path) -> dict:
    out = {}
    for line in path.read_text().splitlines():
        key, *values = line.split("\t")
        parsed = []
        for v in values:
            try:
                parsed.append(float.fromhex(v) if v.startswith(("0x", "-0x")) or v in ("Inf", "-Inf", "NaN")
                              else v)
            except ValueError:
                parsed.append(v)
        out[key] = parsed
    return out


def _hexed(value):
    if isinstance(value, float):
        return value.hex()
    if isinstance(value, list):
        return [_hexed(v) for v in value]
    if isinstance(value, dict):
        return {k: _hexed(v) for k, v in value.items()}
    return value


def run_case(name: str, library: str, tmp: Path, data_seed: int | None = None, seed: int | None = None) -> dict:
    """One case in one library; ``data_seed``/``seed`` override the case's (held-back variants)."""
    default_data_seed, rows, kind, call, default_seed, surrogate, boot_it = CASES[name]
    data_seed = default_data_seed if data_seed is None else data_seed
    seed = default_seed if seed is None else seed
    data = case_data(data_seed, rows, kind)
    csv = tmp / f"{name}.csv"
    cols = list(data)
    lines = [",".join(cols)] + [",".join(float(data[c][i]).hex() for c in cols) for i in range(rows)]
    csv.write_text("\n".join(lines) + "\n")
    script = tmp / "pdist.R"
    script.write_text(R_SCRIPT)
    rand_it = FAILING[name][0] if name in FAILING else RAND_IT
    result = tmp / f"{name}.{library}.txt"
    env_name, default = LIBRARIES[library]
    env = {**os.environ, "R_LIBS": os.path.expanduser(os.environ.get(env_name, default))}
    subprocess.run(["Rscript", str(script), str(csv), str(result), call, str(seed), str(surrogate).upper(),
                    str(boot_it), str(rand_it), random_model_call_string(name)], check=True, env=env)
    r = _parse(result)
    versions = r.pop("versions")
    packages = dict(v.split(" ", 1) for v in versions[1:])
    return {
        "meta": {"generator": "scripts/make_pdist_fixtures.py", "case_name": name, "r_library": library,
                 "r_version": versions[0], "packages": packages, "data_seed": data_seed, "rows": rows,
                 "response": kind, "r_call": call, "rand_it": rand_it, "seed": seed,
                 "fail_above": FAILING[name][1] if name in FAILING else None,
                 "random_model_call_string": random_model_call_string(name) or None, "surrogate": surrogate,
                 "boot_it": boot_it, "rtol": 1e-9,
                 "tolerance_reason": "1e-9: the residual family's fit to R's residuals is R's to the bit (R's "
                                     "nlm/nlminb ported); the refits (statsmodels/NumPy against R's QR) agree "
                                     "to about 1e-13",
                 "description": f"ale::ALEpDist + ALE(p_values = ) ({call}, seed {seed}, surrogate {surrogate})",
                 "generated": datetime.date.today().isoformat(), "note": "generated: do not edit"},
        "data": {c: [float(v) for v in data[c]] for c in cols},
        "r": r,
    }


def main(argv: list[str]) -> None:
    names = argv or list(CASES)
    with tempfile.TemporaryDirectory() as tmp:
        for library in LIBRARIES:
            target = OUT / library
            target.mkdir(parents=True, exist_ok=True)
            for name in names:
                fixture = run_case(name, library, Path(tmp))
                (target / f"{name}.json").write_text(json.dumps(_hexed(fixture), indent=1) + "\n")
                print(f"{library}/{name}: {fixture['r']['family_model']}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
