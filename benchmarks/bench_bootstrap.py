"""R's ale::ALE with boot_it against pyale.ALE on the same data and model (issue 13, point 6).

    python benchmarks/bench_bootstrap.py              # rewrites its section of docs/performance.md
    python benchmarks/bench_bootstrap.py --quick --no-r --out -     # small, pyale only, print

Both sides get the same data (written by Python with every digit) and the
same closed-form model, written once in R and once in Python
(``pred_fun(object, newdata, type)``).  R runs ``ALE(NULL, x_cols, data, "y",
pred_fun = pf, boot_it = B, seed = 0, parallel = 0, p_values = NULL)`` in an
Rscript process started with ale's library (``$ALE_R_LIB``, default
``~/Rlib-ale``), timed by ``system.time`` after a warm-up call; pyale runs
``pyale.ALE`` with the same arguments (best of two).  Each side then builds
every ``get()`` table and the statistics table, and the benchmark reports
the largest difference between R's and pyale's numbers: the two sides do
the same computation (R predicts every replicate's resampled rows again;
pyale reweights the full data's local differences).

R runs sequentially (``parallel = 0``); its default ``parallel = "all"``
starts a cluster of R sessions, which on this 2-core machine only adds the
cluster's start-up.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
import sections  # noqa: E402
sys.path.insert(0, str(ROOT))
BEGIN = "<!-- ale-bootstrap: written by benchmarks/bench_bootstrap.py -->"
END = "<!-- end of ale-bootstrap -->"

R_MODEL = """
pf <- function(object, newdata, type) {
  ge <- c(a = 0, b = 1, c = -0.5, d = 2)[as.character(newdata$g)]
  unname(newdata$x1^2 + sin(3 * newdata$x2) + newdata$x2 * newdata$x3 + ge * newdata$x1)
}
"""
G_EFFECT = {"a": 0.0, "b": 1.0, "c": -0.5, "d": 2.0}


def pf(object, newdata, type):  # noqa: A002 - R's argument names
    """The Python twin of ``R_MODEL``."""
    g = newdata["g"].astype(str).map(G_EFFECT).to_numpy(dtype=float)
    x1, x2, x3 = (newdata[c].to_numpy(dtype=float) for c in ("x1", "x2", "x3"))
    return x1**2 + np.sin(3 * x2) + x2 * x3 + g * x1


@dataclass(frozen=True)
class Case:
    n: int
    x_cols: tuple
    boot_it: int

    @property
    def label(self) -> str:
        return f"{self.n:,} rows, {', '.join(self.x_cols)}, boot_it = {self.boot_it}"


CASES = [
    Case(500, ("x1", "x2", "x3"), 50),
    Case(500, ("x1", "x2", "x3"), 200),
    Case(5_000, ("x1", "x2", "x3", "g"), 100),
    Case(5_000, ("x2:x3",), 50),
    Case(50_000, ("x1", "x2", "x3"), 100),
]
QUICK = [Case(300, ("x1", "g"), 10), Case(400, ("x2:x3",), 5)]


def data(n: int, seed: int = 20261124) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame({"x1": rng.uniform(0, 1, n), "x2": rng.normal(0, 1, n), "x3": rng.uniform(0, 1, n),
                          "g": pd.Categorical(rng.choice(list("abcd"), n), categories=list("abcd"))})
    frame["y"] = pf(None, frame, None) + rng.normal(0, 0.3, n)
    return frame


def _r_vector(values) -> str:
    return "c(" + ", ".join(json.dumps(v) for v in values) + ")"


def _library(case: Case) -> str:
    """ale as released, or with its bootstrap of non-numeric features corrected for a case that has one.

    ale 0.5.0 bootstraps a categorical feature with other rows' categories
    (docs/deviations.md); the corrected copy (``$ALE_R_LIB_FIXED``, default
    ``~/Rlib-ale-fixed``: one line changed, the same work) gives the numbers
    pyale gives, so the comparison shows the same computation.
    """
    released = str(Path(os.environ.get("ALE_R_LIB", "~/Rlib-ale")).expanduser())
    fixed = str(Path(os.environ.get("ALE_R_LIB_FIXED", "~/Rlib-ale-fixed")).expanduser())
    if case.boot_it and "g" in ":".join(case.x_cols).split(":") and (Path(fixed) / "ale").is_dir():
        return fixed
    return released


def r_side(case: Case, folder: Path) -> dict:
    """R's time and tables (each ``get()`` table and the statistics) for one case."""
    code = f"""
suppressPackageStartupMessages(library(ale))
d <- read.csv("{folder / 'data.csv'}", colClasses = c(g = "factor"))
{R_MODEL}
run <- function(B) ALE(NULL, {_r_vector(case.x_cols)}, d, "y", pred_fun = pf, boot_it = B, seed = 0,
                      parallel = 0, p_values = NULL, silent = TRUE)
invisible(run(2))
t <- system.time(a <- run({case.boot_it}))
for (term in {_r_vector(case.x_cols)}) {{
  tab <- as.data.frame(get(a, term))
  tab[] <- lapply(tab, function(col) if (is.double(col)) sprintf("%.17g", col) else as.character(col))
  write.csv(tab, file.path("{folder}", paste0("r_", gsub(":", "_x_", term), ".csv")), row.names = FALSE)
}}
# the statistics as get(a, stats = "all") gives them (which fails with only 2-D terms in ale 0.5.0)
stats <- do.call(rbind, lapply(Filter(is.data.frame, a@effect[[1]]$stats), as.data.frame))
stats[] <- lapply(stats, function(col) if (is.double(col)) sprintf("%.17g", col) else as.character(col))
write.csv(stats, file.path("{folder}", "r_stats.csv"), row.names = FALSE)
cat(sprintf('{{"elapsed": %.6f, "cpu": %.6f, "ale": "%s"}}\\n', t[["elapsed"]],
            t[["user.self"]] + t[["sys.self"]], as.character(packageVersion("ale"))))
"""
    script = folder / "run.R"
    script.write_text(code)
    library = _library(case)
    done = subprocess.run(["Rscript", str(script)], capture_output=True, text=True, timeout=7200,
                          env=dict(os.environ, R_LIBS=library))
    if done.returncode != 0:
        raise RuntimeError(f"R failed on {case.label}: {done.stderr[-1500:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def py_side(case: Case, frame: pd.DataFrame, repeats: int) -> tuple[float, float, object]:
    """pyale's best wall time and its CPU time over ``repeats`` runs, and the last result."""
    import pyale

    pyale.ALE(None, list(case.x_cols), frame.iloc[:200], "y", pred_fun=pf, boot_it=2)  # warm-up
    best = (np.inf, np.inf)
    for _ in range(repeats):
        start, cpu = time.perf_counter(), time.process_time()
        res = pyale.ALE(None, list(case.x_cols), frame, "y", pred_fun=pf, boot_it=case.boot_it, seed=0)
        for term in case.x_cols:
            res.get(term)
        res.get(stats="all", simplify=False)
        best = min(best, (time.perf_counter() - start, time.process_time() - cpu))
    return best[0], best[1], res


def largest_difference(case: Case, res, folder: Path) -> float:
    """The largest difference between R's and pyale's numbers (tables and statistics)."""
    worst = 0.0
    for term in case.x_cols:
        r_table = pd.read_csv(folder / f"r_{term.replace(':', '_x_')}.csv")
        mine = res.get(term)
        for column in (".y", ".y_lo", ".y_mean", ".y_median", ".y_hi"):
            worst = max(worst, float(np.max(np.abs(r_table[column].to_numpy(float) - mine[column].to_numpy(float)))))
        if r_table[".n"].tolist() != mine[".n"].tolist():
            return float("inf")
    r_stats = pd.read_csv(folder / "r_stats.csv")
    mine = pd.concat(list(res.get(stats="all", simplify=False).values()), ignore_index=True)
    for column in ("estimate", "conf.low", "mean", "median", "conf.high"):
        worst = max(worst, float(np.max(np.abs(r_stats[column].to_numpy(float) - mine[column].to_numpy(float)))))
    return worst


def report(rows: list[dict], argv: list[str], ale_version: str) -> str:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    lines = [
        f"Generated {datetime.date.today().isoformat()} by `python benchmarks/bench_bootstrap.py"
        f"{' ' + ' '.join(argv) if argv else ''}`.  A task with the factor `g` ran R's ale with its "
        "bootstrap of categorical features corrected (one line; the released 0.5.0 gives other numbers "
        "there, docs/deviations.md).",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, {platform.system()}; R with ale "
        f"{ale_version or '(not run)'}; Python {platform.python_version()}, NumPy {np.__version__}, "
        f"pandas {pd.__version__}; load average {load:.1f} at the end.",
        "",
        "| task | R ale::ALE (s) | R CPU (s) | pyale.ALE (s) | pyale CPU (s) | R / pyale | largest difference |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        r_time = "not run" if row["r"] is None else f"{row['r']['elapsed']:.2f}"
        r_cpu = "" if row["r"] is None else f"{row['r']['cpu']:.2f}"
        ratio = "" if row["r"] is None else f"{row['r']['elapsed'] / row['py']:.0f}x"
        diff = "" if row["diff"] is None else f"{row['diff']:.1e}"
        lines.append(f"| {row['case'].label} | {r_time} | {r_cpu} | {row['py']:.3f} | {row['py_cpu']:.3f} | "
                     f"{ratio} | {diff} |")
    lines.append("")
    return "\n".join(lines) + "\n"


INTRO = (
    "\n## R's ale package: bootstrap\n\n"
    "R's `ale::ALE()` with `boot_it` replicates against `pyale.ALE` with the same arguments, on the\n"
    "same data and a closed-form model written in both languages.  R predicts each replicate's\n"
    "resampled rows again (two model calls per term and replicate, and a table pipeline per\n"
    "replicate); pyale draws the same resampled rows (R's generator, ported) and reweights the full\n"
    "data's local differences, so its model calls do not grow with `boot_it`.  Both sides also build\n"
    "every `get()` table and the statistics; \"largest difference\" is over all their numbers.\n"
    "pyale's time includes drawing R's resamples (its port of R's L'Ecuyer-CMRG and `sample.int`,\n"
    "about 10 ms per replicate of 50,000 rows).  Run `python benchmarks/bench_bootstrap.py`.\n\n"
)


def write_section(path: Path, text: str) -> None:
    """Replace this script's section of ``path`` (between its markers), or append it with its heading."""
    sections.write_section(path, BEGIN, END, text, intro=INTRO)


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="two small cases (for tests)")
    parser.add_argument("--no-r", action="store_true", help="time pyale only")
    parser.add_argument("--repeats", type=int, default=2, help="pyale runs per case (best is kept)")
    parser.add_argument("--out", default=str(ROOT / "docs" / "performance.md"),
                        help="file whose section is rewritten, or - to print")
    args = parser.parse_args(argv)
    rows, ale_version = [], ""
    for case in QUICK if args.quick else CASES:
        frame = data(case.n)
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            r = diff = None
            if not args.no_r:
                frame.to_csv(folder / "data.csv", index=False, float_format="%.17g")
                r = r_side(case, folder)
                ale_version = r["ale"]
            py, py_cpu, res = py_side(case, frame, args.repeats)
            if r is not None:
                diff = largest_difference(case, res, folder)
        rows.append({"case": case, "r": r, "py": py, "py_cpu": py_cpu, "diff": diff})
        print(f"{case.label}: R {'-' if r is None else round(r['elapsed'], 2)} s, pyale {py:.3f} s"
              f"{'' if diff is None else f', largest difference {diff:.1e}'}", file=sys.stderr)
    shown = [a for a in argv if not a.startswith("--out") and a != args.out]
    text = report(rows, shown, ale_version)
    if args.out == "-":
        print(text)
    else:
        write_section(Path(args.out), text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
