"""Time ALE against the cost of the model's own predictions.

    python benchmarks/bench_ale.py                 # full run (n = 1e6), writes docs/performance.md
    python benchmarks/bench_ale.py --n 100000 --repeats 3 --out -   # quicker, print only

Tasks
-----
cheap      n rows, 5 numeric features, a cheap vectorised model (the same
           formula in R for ALEPlot and iml); every one-feature ALE, one pair.
realistic  ~100,000 rows, scikit-learn HistGradientBoostingRegressor (Python only).

For each task the script measures the *bare* predictions (the model called on
exactly the rows ALE needs: two frames of n rows per feature, four per pair),
pyale's time, their ratio, and peak memory (tracemalloc, Python side); and,
when R with ALEPlot/iml is reachable through rpy2, R's times on the same data
and model; and PyALE/alibi/effector when installed.  Times are medians over
``--repeats`` runs.
"""

from __future__ import annotations

import argparse
import gc
import platform
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np
import pandas as pd

import pyale

ROOT = Path(__file__).resolve().parents[1]
WEIGHTS = np.array([1.0, -2.0, 0.5, 3.0, -1.0])
R_MODEL = "function(X.model, newdata) { as.numeric(as.matrix(newdata) %*% c(1, -2, 0.5, 3, -1)) + sin(newdata$x0) * newdata$x1 }"


def cheap_model(frame: pd.DataFrame) -> np.ndarray:
    values = frame.to_numpy()
    return values @ WEIGHTS + np.sin(values[:, 0]) * values[:, 1]


def median_time(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        gc.collect()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def peak_memory(fn) -> int:
    gc.collect()
    tracemalloc.start()
    fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def cheap_task(n: int, repeats: int) -> list[dict]:
    rng = np.random.default_rng(0)
    X = pd.DataFrame({f"x{j}": rng.normal(size=n) for j in range(5)})
    rows = []

    def bare_one():
        for _ in range(5):
            cheap_model(X)
            cheap_model(X)

    def pyale_aleplot():
        for j in range(5):
            pyale.ALEPlot(X, None, lambda m, d: cheap_model(d), J=j, K=40, plot=False)

    def pyale_ale():
        for j in range(5):
            pyale.ale(cheap_model, X, f"x{j}", n_intervals=40)

    bare = median_time(bare_one, repeats)
    size_x = X.memory_usage(index=False).sum()
    for label, fn in (("pyale.ALEPlot, 5 features", pyale_aleplot), ("pyale.ale, 5 features", pyale_ale)):
        t = median_time(fn, repeats)
        peak = peak_memory(lambda: pyale.ALEPlot(X, None, lambda m, d: cheap_model(d), J=0, K=40, plot=False))
        rows.append(dict(task=f"cheap, n={n:,}", what=label, bare=bare, seconds=t, ratio=t / bare,
                         peak_over_x=peak / size_x))

    def bare_pair():
        for _ in range(4):
            cheap_model(X)

    bare2 = median_time(bare_pair, repeats)
    t2 = median_time(lambda: pyale.ALEPlot(X, None, lambda m, d: cheap_model(d), J=(0, 1), K=40, plot=False), repeats)
    rows.append(dict(task=f"cheap, n={n:,}", what="pyale.ALEPlot, pair (x0, x1)", bare=bare2, seconds=t2,
                     ratio=t2 / bare2, peak_over_x=None))
    rows.extend(r_rows(X, n, repeats, bare, bare2))
    rows.extend(python_package_rows(X, n, repeats, bare))
    return rows


def r_rows(X: pd.DataFrame, n: int, repeats: int, bare: float, bare2: float) -> list[dict]:
    try:
        import rpy2.robjects as ro

        from pyale.r import to_r_dataframe
    except Exception as exc:  # noqa: BLE001 - R is optional here
        print(f"R skipped: {exc}", file=sys.stderr)
        return []
    ro.globalenv["X"] = to_r_dataframe(X)
    rows = []
    have = {p: bool(ro.r(f'isTRUE(requireNamespace("{p}", quietly = TRUE))')[0]) for p in ("ALEPlot", "iml")}
    ro.r("pdf(NULL)")
    if have["ALEPlot"]:
        secs = ro.r(f"""function(reps) {{ pf <- {R_MODEL}
            median(replicate(reps, system.time(for (j in 1:5) ALEPlot::ALEPlot(X, NULL, pf, J = j, K = 40))[["elapsed"]])) }}""")(repeats)[0]
        rows.append(dict(task=f"cheap, n={n:,}", what="R ALEPlot 1.1, 5 features", bare=bare, seconds=secs, ratio=secs / bare, peak_over_x=None))
        secs = ro.r(f"""function(reps) {{ pf <- {R_MODEL}
            median(replicate(reps, system.time(ALEPlot::ALEPlot(X, NULL, pf, J = c(1, 2), K = 40))[["elapsed"]])) }}""")(repeats)[0]
        rows.append(dict(task=f"cheap, n={n:,}", what="R ALEPlot 1.1, pair", bare=bare2, seconds=secs, ratio=secs / bare2, peak_over_x=None))
    if have["iml"]:
        secs = ro.r(f"""function(reps) {{ pf <- {R_MODEL}
            pred <- iml::Predictor$new(data = X, y = rep(0, nrow(X)), predict.function = function(model, newdata) pf(NULL, newdata))
            median(replicate(reps, system.time(for (f in names(X)) iml::FeatureEffect$new(pred, f, method = "ale", grid.size = 40))[["elapsed"]])) }}""")(repeats)[0]
        rows.append(dict(task=f"cheap, n={n:,}", what="R iml 0.11.4, 5 features", bare=bare, seconds=secs, ratio=secs / bare, peak_over_x=None))
    return rows


def python_package_rows(X, n, repeats, bare) -> list[dict]:
    rows = []
    try:
        from PyALE import ale as pyale_ale_pkg

        class Wrapped:
            def predict(self, frame):
                return cheap_model(frame)

        secs = median_time(lambda: [pyale_ale_pkg(X, Wrapped(), [f"x{j}"], grid_size=40, include_CI=False, plot=False) for j in range(5)], repeats)
        rows.append(dict(task=f"cheap, n={n:,}", what="PyALE, 5 features", bare=bare, seconds=secs, ratio=secs / bare, peak_over_x=None))
    except ImportError:
        pass
    return rows


def realistic_task(n: int, repeats: int) -> list[dict]:
    try:
        from sklearn.ensemble import HistGradientBoostingRegressor
    except ImportError:
        print("scikit-learn missing: realistic task skipped", file=sys.stderr)
        return []
    rng = np.random.default_rng(1)
    X = pd.DataFrame({f"x{j}": rng.normal(size=n) for j in range(8)})
    y = np.sin(X["x0"]) + X["x1"] * X["x2"] + rng.normal(scale=0.1, size=n)
    model = HistGradientBoostingRegressor(max_iter=100, random_state=0).fit(X, y)
    bare = median_time(lambda: [model.predict(X) for _ in range(2 * 5)], repeats)
    t = median_time(lambda: [pyale.ale(model, X, f"x{j}", n_intervals=40) for j in range(5)], repeats)
    rows = [dict(task=f"HistGradientBoosting, n={n:,}", what="pyale.ale, 5 features", bare=bare, seconds=t, ratio=t / bare, peak_over_x=None)]
    t = median_time(lambda: [pyale.ALEPlot(X, model, lambda m, d: m.predict(d), J=j, K=40, plot=False) for j in range(5)], repeats)
    rows.append(dict(task=f"HistGradientBoosting, n={n:,}", what="pyale.ALEPlot, 5 features", bare=bare, seconds=t, ratio=t / bare, peak_over_x=None))
    return rows


def to_markdown(rows: list[dict], args) -> str:
    lines = [
        "# Performance",
        "",
        f"Generated by `python benchmarks/bench_ale.py --n {args.n} --realistic-n {args.realistic_n} --repeats {args.repeats}`.",
        f"Machine: {platform.machine()}, {platform.processor() or 'cpu'}, {__import__('os').cpu_count()} cores; "
        f"Python {platform.python_version()}, NumPy {np.__version__}, pandas {pd.__version__}, pyale {pyale.__version__}.",
        "",
        "*bare* is the model's own predictions on exactly the rows ALE needs; *ratio* is time / bare.",
        "",
        "| task | what | bare (s) | time (s) | ratio | peak memory / size of X |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for r in rows:
        peak = "" if r["peak_over_x"] is None else f"{r['peak_over_x']:.2f}"
        lines.append(f"| {r['task']} | {r['what']} | {r['bare']:.3f} | {r['seconds']:.3f} | {r['ratio']:.2f} | {peak} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="ALE timing against bare predictions")
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--realistic-n", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", default=str(ROOT / "docs" / "performance.md"), help="'-' prints only")
    args = parser.parse_args(argv)
    rows = cheap_task(args.n, args.repeats) + realistic_task(args.realistic_n, args.repeats)
    text = to_markdown(rows, args)
    print(text)
    if args.out != "-":
        Path(args.out).write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
