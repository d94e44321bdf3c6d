"""What bootstrap bands and statistics cost on top of one ALE (issue 12).

    python benchmarks/bench_uncertainty.py                 # full run, writes docs/performance.md
    python benchmarks/bench_uncertainty.py --n 5000 --replicates 50 --repeats 1 --out -

A realistic model: scikit-learn's HistGradientBoostingRegressor (default
settings, 100 trees) on n rows (100,000 by default) of 5 features.  Timed,
interleaved (median of ``--repeats`` runs each): ``pyale.ale`` of the 5
features, the same with ``n_bootstrap`` replicates (1,000 by default), and
the statistics of every feature (one more model call, for the response
distribution).  The replicates reweight the local differences of the one
ALE, so no model call is added; the ratio says what the resampling itself
costs.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

import pyale

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sections import write_section  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
BEGIN = "<!-- uncertainty: written by benchmarks/bench_uncertainty.py -->"
END = "<!-- end of uncertainty -->"
INTRO = (
    "\n## Bootstrap bands and statistics\n\n"
    "`pyale.ale(..., n_bootstrap=B)` resamples rows with the model fixed: each replicate reweights the\n"
    "local differences of the one ALE (no model call is added), so the bands cost the resampling only.\n"
    "Statistics need the response distribution: one model call on X when `y` is not given.\n\n"
)


def data(n: int, seed: int = 0):
    from sklearn.ensemble import HistGradientBoostingRegressor

    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.normal(size=(n, 5)), columns=[f"x{j}" for j in range(5)])
    y = X["x0"] + X["x1"] ** 2 + X["x2"] * X["x3"] + np.sin(3 * X["x4"]) + rng.normal(size=n)
    return X, HistGradientBoostingRegressor(random_state=0).fit(X, y)


def measure(n: int, replicates: int, repeats: int) -> dict:
    X, model = data(n)
    features = list(X.columns)
    runs = {
        "ale": lambda: pyale.ale(model, X, features),
        "bootstrap": lambda: pyale.ale(model, X, features, n_bootstrap=replicates, random_state=0),
        "statistics": lambda: pyale.ale(model, X, features, n_bootstrap=replicates, random_state=0).statistics,
    }
    times = {name: [] for name in runs}
    for _ in range(repeats):
        for name, fn in runs.items():
            gc.collect()
            start = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(t) for name, t in times.items()}


def report(n: int, replicates: int, repeats: int, medians: dict) -> str:
    import sklearn

    base = medians["ale"]
    lines = [
        f"Generated {datetime.date.today().isoformat()} by `python benchmarks/bench_uncertainty.py --n {n} "
        f"--replicates {replicates} --repeats {repeats}` (medians of {repeats} interleaved runs).",
        "",
        f"Machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}, "
        f"NumPy {np.__version__}, pandas {pd.__version__}, scikit-learn {sklearn.__version__}, "
        f"pyale {pyale.__version__}.",
        "",
        f"| HistGradientBoostingRegressor, n={n:,}, 5 features | time (s) | / one ALE |",
        "|---|---:|---:|",
        f"| `pyale.ale` | {base:.3f} | 1.00 |",
        f"| with `n_bootstrap={replicates:,}` | {medians['bootstrap']:.3f} | {medians['bootstrap'] / base:.2f} |",
        f"| and `.statistics` of every feature | {medians['statistics']:.3f} | {medians['statistics'] / base:.2f} |",
        "",
    ]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Cost of bootstrap bands and statistics")
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--replicates", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--out", default=str(ROOT / "docs" / "performance.md"),
                        help="file whose section is rewritten, or - to print")
    args = parser.parse_args(argv)
    text = report(args.n, args.replicates, args.repeats, measure(args.n, args.replicates, args.repeats))
    if args.out == "-":
        print(text)
    else:
        write_section(Path(args.out), BEGIN, END, text, intro=INTRO)
    return 0


if __name__ == "__main__":
    sys.exit(main())
