"""Write reference/rdist/draws.json: R's random variates and univariateML fits (run: python scripts/make_distribution_fixtures.py).

For ``pyale._rbase.distributions`` and ``pyale._rbase.univariate_ml``: under
``RNGkind("L'Ecuyer-CMRG")`` and ``set.seed(s)``, 200 values of each ``r*``
function ``ale::ALEpDist`` can call through ``univariateML::rml`` (stats,
extraDistr, fGarch), followed by three ``runif`` values (so the generator's
state after the draws is checked too); and every ``ml*`` fit of
``model_select``'s real-line families on three samples (generated here from a
seed and handed to R as hex floats), with ``model_select``'s choice.
R needs univariateML (``$ALE_R_LIB``, default ``~/Rlib-ale``), extraDistr and fGarch.

Files are generated: do not edit them.
"""

from __future__ import annotations

import datetime
import json
import os
import subprocess
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "reference" / "rdist" / "draws.json"
SEED = 20251125

DRAWS = {  # name: (seed, R call)
    "rnorm": (11, "rnorm(200, 0.3, 2)"),
    "runif": (12, "runif(200, -1, 2)"),
    "rlogis": (13, "rlogis(200, 0.2, 1.5)"),
    "rcauchy": (14, "rcauchy(200, 0.2, 1.5)"),
    "rlaplace": (15, "extraDistr::rlaplace(200, 0.2, 1.5)"),
    "rgumbel": (16, "extraDistr::rgumbel(200, 0.2, 1.5)"),
    "rsnorm": (17, "fGarch::rsnorm(200, 0.2, 1.5, 1.3)"),
    "rgamma_small": (21, "rgamma(200, 0.5)"),
    "rgamma": (22, "rgamma(200, 2.5, scale = 2)"),
    "rgamma_large": (24, "rgamma(200, 20)"),
    "rt": (25, "rt(200, 4.5)"),
    "rged": (26, "fGarch::rged(200, 0.1, 1.2, 1.7)"),
    "rstd": (27, "fGarch::rstd(200, 0.1, 1.2, 6.5)"),
    "rsged": (28, "fGarch::rsged(200, 0.1, 1.2, 1.7, 1.2)"),
    "rsstd": (29, "fGarch::rsstd(200, 0.1, 1.2, 6.5, 0.9)"),
}
FAMILIES = ("cauchy", "ged", "gumbel", "laplace", "logis", "norm", "sged", "snorm", "sstd", "std", "unif")


def samples() -> dict:
    rng = np.random.default_rng(SEED)
    return {"normal": rng.normal(size=150), "laplace": rng.laplace(size=150),
            "skewed": rng.gamma(2.0, size=150) - 2.0}


def main() -> None:
    data = samples()
    lines = ["suppressPackageStartupMessages(library(univariateML))", "out <- file(commandArgs(TRUE)[1], 'w')",
             "put <- function(k, v) writeLines(paste(c(k, if (is.numeric(v)) sprintf('%a', v) else v), "
             "collapse = '\\t'), out)", "RNGkind(\"L'Ecuyer-CMRG\")"]
    for name, (seed, call) in DRAWS.items():
        lines.append(f"set.seed({seed}); put('draw.{name}', c({call}, runif(3)))")
    lines.append("RNGkind('default')")
    for sample, values in data.items():
        lines.append(f"x <- as.numeric(c({', '.join(repr(float(v).hex()) for v in values)}))")
        lines.append(f"put('sample.{sample}', x)")
        for fam in FAMILIES:
            lines.append(f"f <- ml{fam}(x); put('fit.{sample}.{fam}', c(unclass(f)[seq_along(f)], attr(f, 'logLik')))")
        lines.append(f"put('select.{sample}', attr(model_select(x), 'model'))")
    lines.append("put('versions', c(R.version.string, paste('univariateML', packageVersion('univariateML')), "
                 "paste('extraDistr', packageVersion('extraDistr')), paste('fGarch', packageVersion('fGarch'))))")
    lines.append("close(out)")
    with tempfile.TemporaryDirectory() as tmp:
        script, result = Path(tmp, "d.R"), Path(tmp, "out.txt")
        script.write_text("\n".join(lines) + "\n")
        env = {**os.environ, "R_LIBS": os.path.expanduser(os.environ.get("ALE_R_LIB", "~/Rlib-ale"))}
        subprocess.run(["Rscript", str(script), str(result)], check=True, env=env)
        r = {}
        for line in result.read_text().splitlines():
            key, *values = line.split("\t")
            r[key] = values
    versions = r.pop("versions")
    fixture = {
        "meta": {"generator": "scripts/make_distribution_fixtures.py", "r_version": versions[0],
                 "packages": dict(v.split(" ", 1) for v in versions[1:]), "seed": SEED, "rtol": 0.0,
                 "tolerance_reason": "draws bit for bit (fGarch's constants through nmath's gamma() and beta()); fits of "
                                     "every family, optimiser fits (nlm/nlminb) included, bit for bit",
                 "description": "R's r* functions under L'Ecuyer-CMRG and univariateML's ml* fits",
                 "calls": {name: call for name, (_, call) in DRAWS.items()},
                 "draw_seeds": {name: seed for name, (seed, _) in DRAWS.items()},
                 "created": datetime.date.today().isoformat(), "note": "generated: do not edit"},
        "r": r,
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(fixture, indent=1) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
