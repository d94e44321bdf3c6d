"""Time pyale.ALEpDist against R's ale::ALEpDist on the same work (run: python benchmarks/bench_pdist.py).

Work: ``lm(y ~ x1 + x2 + x3 + x4)`` on 300 rows (Gaussian noise), ``rand_it = 100``
refits, seed 0.  R: ``ALEpDist(model, data, rand_it = 100, parallel = 0, silent = TRUE)``
with ale 0.5.0 (``$ALE_R_LIB``, default ``~/Rlib-ale``), timed inside R
(``system.time``), one run.  pyale: the refit is a least-squares fit of the same
linear model (``numpy.linalg.lstsq``), sequential and with ``n_jobs``; the median of
``--repeats`` runs.  Both runs start from the same data (hex floats), and the
script checks that the two give the same random statistics (to 1e-9) before
reporting the ratio.  Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import pyale  # noqa: E402

R_CODE = r"""
suppressPackageStartupMessages(library(ale))
args <- commandArgs(trailingOnly = TRUE)
d <- read.csv(args[1], colClasses = "character")
for (nm in names(d)) d[[nm]] <- as.numeric(d[[nm]])
model <- lm(y ~ x1 + x2 + x3 + x4, data = d)
tm <- system.time(pd <- ALEpDist(model, d, rand_it = as.numeric(args[3]), parallel = 0, silent = TRUE))
writeLines(c(sprintf("%a", tm[["elapsed"]]), sprintf("%a", tm[["user.self"]] + tm[["sys.self"]]),
             sprintf("%a", pd@rand_stats[[1]]$aled)), args[2])
"""


def refit(frame: pd.DataFrame):
    X = np.column_stack([np.ones(frame.shape[0]), frame.drop(columns="y").to_numpy()])
    beta = np.linalg.lstsq(X, frame["y"].to_numpy(), rcond=None)[0]
    return lambda new: np.column_stack([np.ones(new.shape[0]), new.to_numpy()]) @ beta


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=300)
    parser.add_argument("--rand-it", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--n-jobs", type=int, default=2)
    args = parser.parse_args()
    rng = np.random.default_rng(2024)
    data = pd.DataFrame({f"x{i}": rng.normal(size=args.rows) for i in range(1, 5)})
    data["y"] = 1 + data["x1"] - 0.5 * data["x2"] + rng.normal(size=args.rows)
    with tempfile.TemporaryDirectory() as tmp:
        csv, out, script = Path(tmp, "d.csv"), Path(tmp, "out.txt"), Path(tmp, "b.R")
        csv.write_text(",".join(data.columns) + "\n" + "\n".join(
            ",".join(float(v).hex() for v in row) for row in data.itertuples(index=False)) + "\n")
        script.write_text(R_CODE)
        env = {**os.environ, "R_LIBS": os.path.expanduser(os.environ.get("ALE_R_LIB", "~/Rlib-ale"))}
        subprocess.run(["Rscript", str(script), str(csv), str(out), str(args.rand_it)], check=True, env=env)
        lines = out.read_text().split()
        r_seconds, r_cpu = float.fromhex(lines[0]), float.fromhex(lines[1])
        r_aled = np.array([float.fromhex(v) for v in lines[2:]])
    model = refit(data)
    timings, cpu = {}, []
    for n_jobs in (None, args.n_jobs):
        runs = []
        for _ in range(args.repeats):
            start, start_cpu = time.perf_counter(), time.process_time()
            dist = pyale.ALEpDist(model, data, "y", refit=refit, rand_it=args.rand_it, n_jobs=n_jobs)
            runs.append(time.perf_counter() - start)
            if n_jobs is None:
                cpu.append(time.process_time() - start_cpu)
        np.testing.assert_allclose(dist.rand_stats["y"]["aled"].to_numpy(), r_aled, rtol=1e-9)
        timings[n_jobs] = statistics.median(runs)
    load = os.getloadavg()[0]
    print(f"Machine: {os.cpu_count()} cores, load average {load:.1f} at the end; Python "
          f"{sys.version.split()[0]}, NumPy {np.__version__}, pandas {pd.__version__}.")
    print()
    print(f"| work | R ale 0.5.0 (s) | R CPU (s) | pyale (s) | pyale CPU (s) | pyale n_jobs={args.n_jobs} (s) "
          "| R / pyale (wall) | R / pyale (CPU) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    best = min(timings.values())
    print(f"| lm, {args.rows} rows, rand_it = {args.rand_it} | {r_seconds:.1f} | {r_cpu:.1f} | {timings[None]:.2f} "
          f"| {statistics.median(cpu):.2f} | {timings[args.n_jobs]:.2f} | {r_seconds / best:.0f}x "
          f"| {r_cpu / statistics.median(cpu):.0f}x |")


if __name__ == "__main__":
    main()
