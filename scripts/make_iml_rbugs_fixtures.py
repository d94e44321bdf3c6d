"""Write reference/iml_rbugs/<case>.json: iml 0.11.4's wrong numbers (run: python scripts/make_iml_rbugs_fixtures.py).

The cases of docs/deviations.md where iml returns a (wrong) number rather than
failing, for ``pyale.FeatureEffect(..., replicate_r_bugs=True)``:

* ``empty_interval*``: ``grid.points`` with an interval that holds no row
  (iml drops it and pairs the shorter curve with the grid by position);
* ``unused_level*``: a factor with categories that no row uses (iml centres
  with ``table(x)`` of the undropped factor indexed by the dropped one's order).

The data are made here from a seed and handed to R as exact doubles (C99 hex
floats); the model is a closed form both sides evaluate (``MODELS``: R and
Python code side by side).  R runs ``FeatureEffect$new(Predictor$new(data = d,
predict.function = f), feature, method = "ale", grid.points = )$results``
and writes the table back as hex floats.

Usage::

    python scripts/make_iml_rbugs_fixtures.py [case ...]

Files are generated: do not edit them.
"""

from __future__ import annotations

import datetime
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "reference" / "iml_rbugs"

# model name: (R predict.function body on `newdata`, Python function of a DataFrame)
MODELS = {
    "smooth": ("newdata$x^2 + newdata$x * newdata$z + newdata$z",
               lambda d: d["x"].to_numpy(float) ** 2 + d["x"].to_numpy(float) * d["z"].to_numpy(float)
               + d["z"].to_numpy(float)),
    "two_outputs": ("data.frame(a = newdata$x^2 + newdata$z, b = sin(3 * newdata$x) - newdata$z)",
                    lambda d: pd.DataFrame({"a": d["x"].to_numpy(float) ** 2 + d["z"].to_numpy(float),
                                            "b": np.sin(3 * d["x"].to_numpy(float)) - d["z"].to_numpy(float)})),
    "levels": ("newdata$x + c(a = 0, b = 1, c = 3, d = -2)[as.character(newdata$g)] + "
               "newdata$x * (newdata$g == 'c')",
               lambda d: d["x"].to_numpy(float) + d["g"].astype(str).map({"a": 0.0, "b": 1.0, "c": 3.0, "d": -2.0})
               .to_numpy(float) + d["x"].to_numpy(float) * (d["g"].astype(str) == "c").to_numpy(float)),
}

# name: (data seed, rows, model, feature, grid points or None, unused categories, ordered factor)
CASES = {
    "empty_interval": (11, 60, "smooth", "x", [0.0, 0.3, 0.5, 0.55, 0.7, 1.0], (), False),
    "empty_interval_two": (12, 50, "smooth", "x", [0.0, 0.2, 0.25, 0.4, 0.45, 0.8, 1.0], (), False),
    "empty_interval_two_outputs": (13, 40, "two_outputs", "x", [0.0, 0.5, 0.55, 1.0], (), False),
    "unused_level_ordered": (21, 80, "levels", "g", None, ("b",), True),
    "unused_level_first": (22, 80, "levels", "g", None, ("a",), False),
}


def case_data(name: str, seed: int | None = None) -> pd.DataFrame:
    """The case's data: x in [0, 1] (kept out of the empty intervals), z, and a factor g (``seed``: another
    seed than the case's, for held-back variants)."""
    default_seed, rows, _, _, grid, unused, ordered = CASES[name]
    seed = default_seed if seed is None else seed
    rng = np.random.default_rng(seed)
    x = rng.uniform(size=rows)
    if grid is not None:  # the second interval of every pair (0.5, 0.55], (0.25, 0.4]... left empty
        for low, high in ((0.5, 0.55), (0.2, 0.25), (0.4, 0.45)):
            if [low, high] == [g for g in grid if g in (low, high)]:
                inside = (x > low) & (x <= high)
                x[inside] = high + (x[inside] - low) * 0.01 + 1e-3
        x[0], x[1] = 0.0, 1.0  # the grid covers the data exactly
    used = [c for c in "abcd" if c not in unused]
    g = pd.Categorical(rng.choice(used, size=rows), categories=list("abcd"), ordered=ordered)
    z = rng.normal(size=rows) + 0.8 * x
    if grid is None:  # levels told apart by z (a < b < c < d), so that their similarity order is no near-tie
        z = z + 2.0 * np.asarray(g.codes, dtype=float)
    return pd.DataFrame({"x": x, "z": z, "g": g})


R_SCRIPT = r"""
suppressPackageStartupMessages(library(iml))
args <- commandArgs(trailingOnly = TRUE)
d <- read.csv(args[1], colClasses = "character")
d$x <- as.numeric(d$x); d$z <- as.numeric(d$z)
d$g <- factor(d$g, levels = c("a", "b", "c", "d"), ordered = as.logical(args[6]))
f <- eval(parse(text = paste0("function(newdata) ", args[3])))
p <- Predictor$new(data = d, predict.function = f)
grid <- if (nzchar(args[5])) as.numeric(strsplit(args[5], ",")[[1]]) else NULL
res <- FeatureEffect$new(p, args[4], method = "ale", grid.points = grid)$results
out <- file(args[2], "w")
for (nm in names(res)) {
  v <- res[[nm]]
  v <- if (is.numeric(v)) sprintf("%a", as.numeric(v)) else as.character(v)
  writeLines(paste(c(nm, v), collapse = "\t"), out)
}
writeLines(paste(c(".columns", names(res)), collapse = "\t"), out)
if (is.factor(res[[args[4]]])) writeLines(paste(c(".levels", levels(res[[args[4]]])), collapse = "\t"), out)
writeLines(paste(c(".versions", R.version.string, paste0("iml ", packageVersion("iml")),
                   paste0("data.table ", packageVersion("data.table"))), collapse = "\t"), out)
close(out)
"""


def _parse(path: Path) -> dict:
    out = {}
    for line in path.read_text().splitlines():
        key, *values = line.split("\t")
        out[key] = [float.fromhex(v) if v.startswith(("0x", "-0x")) else v for v in values]
    return out


def run_case(name: str, tmp: Path, seed: int | None = None) -> dict:
    """One case through R (``seed``: a held-back data seed instead of the case's)."""
    default_seed, rows, model, feature, grid, unused, ordered = CASES[name]
    seed = default_seed if seed is None else seed
    data = case_data(name, seed)
    csv = tmp / f"{name}.csv"
    lines = ["x,z,g"] + [f"{float(a).hex()},{float(b).hex()},{c}" for a, b, c in zip(data["x"], data["z"], data["g"])]
    csv.write_text("\n".join(lines) + "\n")
    script = tmp / "iml_rbugs.R"
    script.write_text(R_SCRIPT)
    result = tmp / f"{name}.txt"
    grid_arg = ",".join(float(g).hex() for g in grid) if grid is not None else ""
    subprocess.run(["Rscript", str(script), str(csv), str(result), MODELS[model][0], feature, grid_arg,
                    str(ordered).upper()], check=True)
    r = _parse(result)
    versions = r.pop(".versions")
    return {
        "meta": {"generator": "scripts/make_iml_rbugs_fixtures.py", "arguments": [name], "case_name": name,
                 "r_version": versions[0], "packages": dict(v.split(" ", 1) for v in versions[1:]),
                 "seed": seed, "rows": rows, "model": model, "r_predict_function": MODELS[model][0],
                 "feature": feature, "grid_points": grid, "unused_categories": list(unused), "ordered": ordered,
                 "rtol": 1e-10, "created": datetime.date.today().isoformat(),
                 "note": "iml's wrong numbers (docs/deviations.md); generated: do not edit"},
        "data": {"x": [float(v).hex() for v in data["x"]], "z": [float(v).hex() for v in data["z"]],
                 "g": [str(v) for v in data["g"]]},
        "results": {k: [v.hex() if isinstance(v, float) else v for v in vals] for k, vals in r.items()},
    }


def main(argv: list[str]) -> None:
    names = argv or list(CASES)
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            fixture = run_case(name, Path(tmp))
            (OUT / f"{name}.json").write_text(json.dumps(fixture, indent=1) + "\n")
            print(f"wrote reference/iml_rbugs/{name}.json", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
