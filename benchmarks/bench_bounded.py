"""Time and peak memory of inputs that used to run away (issue 11, point 5).

    python benchmarks/bench_bounded.py                 # full size, rewrites its section of docs/performance.md
    python benchmarks/bench_bounded.py --scale 0.05 --out -   # small, print only

Each case runs in a fresh Python process (``--case NAME``), so the peak
resident memory (``ru_maxrss``) belongs to that case alone; tracemalloc's
peak (what NumPy and pandas allocate, above what was allocated before the
call) is reported beside it.  Times are wall-clock for the one call.

Cases (full size; ``--scale`` multiplies the row counts and the pair's K):

categorical    ALEPlot of a categorical feature with 1,000 levels, 100,000 rows,
               beside a 1,000-level string column and 3 numeric columns
               (level ordering: 1,000 x 1,000 distances).
long-text      ALEPlot of a 5-level categorical feature, 100,000 rows, beside a
               text column whose 1,000 rows hold 2,000-character strings.
pair           ALEPlot and FeatureEffect of a numeric pair with K = 2,000 x 2,000
               on 20,000 correlated rows (almost every cell empty: the
               nearest-cell search).
huge-K         ALEPlot, ale() and FeatureEffect with K = 10**8 and 10**12 on 100
               rows (capped to the distinct values), PDPlot with K = 10**8
               (refused).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import resource
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
import sections  # noqa: E402
BEGIN = "<!-- bounded: written by benchmarks/bench_bounded.py -->"
END = "<!-- end of bounded -->"
# What the same inputs cost before (issue 11, measured on the main branch of 2026-11-23).
BEFORE = {
    "categorical": "600 levels beside a 600-level string column: 5 GiB; 2,000 levels: MemoryError",
    "long-text": "one 2,000-character string in the text column: 4.6 GiB",
    "pair": "about 30 s in the pure-Python nearest-cell search",
    "huge-K": "K = 10**8: 14 s and 5.3 GiB; K = 10**12: MemoryError",
}


def _rows(n: int, scale: float) -> int:
    return max(200, int(n * scale))


def case_categorical(scale: float):
    rng = np.random.default_rng(0)
    n = _rows(100_000, scale)
    levels = max(20, int(1000 * min(1.0, scale * 4)))
    X = pd.DataFrame({
        "g": pd.Categorical(rng.integers(0, levels, n).astype(str)),
        "s": rng.integers(0, levels, n).astype(str).astype(object),
        "x1": rng.normal(size=n), "x2": rng.normal(size=n), "x3": rng.normal(size=n),
    })

    def model(_, d):
        return d["x1"].to_numpy() + 0.01 * d["g"].cat.codes.to_numpy()

    import pyale

    def run():
        return pyale.ALEPlot(X, None, model, J="g", plot=False)

    return run, f"{levels:,} levels, {n:,} rows, beside a {levels:,}-level string column"


def case_long_text(scale: float):
    rng = np.random.default_rng(1)
    n = _rows(100_000, scale)
    long = [chr(65 + i % 26) * 2000 + str(i) for i in range(100)]
    text = np.array([f"t{i % 500}" for i in range(n)], dtype=object)
    chosen = rng.choice(n, max(1, n // 100), replace=False)
    text[chosen] = [long[i % 100] for i in range(chosen.shape[0])]
    X = pd.DataFrame({"g": rng.choice(list("abcde"), n), "text": text, "x": rng.normal(size=n)})

    import pyale

    def run():
        return pyale.ALEPlot(X, None, lambda _, d: d["x"].to_numpy() + (d["g"] == "c").to_numpy(), J="g",
                             plot=False)

    return run, f"{n:,} rows, {chosen.shape[0]:,} of them with 2,000-character strings"


def _pair_data(scale: float):
    rng = np.random.default_rng(2)
    n = _rows(20_000, scale)
    x1 = rng.normal(size=n)
    return pd.DataFrame({"x1": x1, "x2": x1 + 0.3 * rng.normal(size=n), "x3": rng.normal(size=n)})


def case_pair(scale: float):
    X = _pair_data(scale)
    K = max(20, int(2000 * scale))

    import pyale

    def run():
        return pyale.ALEPlot(X, None, lambda _, d: d["x1"].to_numpy() * d["x2"].to_numpy() + d["x3"].to_numpy(),
                             J=("x1", "x2"), K=K, plot=False)

    return run, f"ALEPlot, K = {K:,} x {K:,}, {X.shape[0]:,} rows"


def case_pair_iml(scale: float):
    X = _pair_data(scale)
    K = max(20, int(2000 * scale))

    import pyale

    predictor = pyale.Predictor(
        predict_function=lambda newdata: newdata["x1"] * newdata["x2"] + newdata["x3"], data=X)

    def run():
        return pyale.FeatureEffect(predictor, ["x1", "x2"], grid_size=K)

    return run, f"FeatureEffect, grid_size = {K:,} x {K:,}, {X.shape[0]:,} rows"


def _small():
    rng = np.random.default_rng(3)
    return pd.DataFrame({"x1": rng.normal(size=100), "x2": rng.normal(size=100)})


def _huge(front_end: str, K: int):
    def case(scale: float):
        X = _small()

        import pyale

        def model(d):
            return d["x1"].to_numpy() ** 2 + d["x2"].to_numpy()

        if front_end == "ALEPlot":
            def run():
                return pyale.ALEPlot(X, None, lambda _, d: model(d), J="x1", K=K, plot=False)
        elif front_end == "ale":
            def run():
                return pyale.ale(model, X, "x1", n_intervals=K)
        elif front_end == "FeatureEffect":
            predictor = pyale.Predictor(predict_function=model, data=X)

            def run():
                return pyale.FeatureEffect(predictor, "x1", grid_size=K)
        else:  # PDPlot: refused
            def run():
                try:
                    pyale.PDPlot(X, None, lambda _, d: model(d), J="x1", K=K, plot=False)
                except ValueError as exc:
                    return str(exc).split(":")[0]
                raise AssertionError("PDPlot did not refuse")

        exponent = len(str(K)) - 1
        return run, f"{front_end}, K = 10**{exponent}, 100 rows"
    return case


CASES = {
    "categorical": ("categorical", case_categorical),
    "long-text": ("long-text", case_long_text),
    "pair-aleplot": ("pair", case_pair),
    "pair-iml": ("pair", case_pair_iml),
    "huge-aleplot-8": ("huge-K", _huge("ALEPlot", 10 ** 8)),
    "huge-aleplot-12": ("huge-K", _huge("ALEPlot", 10 ** 12)),
    "huge-ale-12": ("huge-K", _huge("ale", 10 ** 12)),
    "huge-iml-12": ("huge-K", _huge("FeatureEffect", 10 ** 12)),
    "huge-pdplot-8": ("huge-K", _huge("PDPlot", 10 ** 8)),
}


def run_case(name: str, scale: float) -> dict:
    """Run one case in this process; time, tracemalloc peak and maximum resident size."""
    run, label = CASES[name][1](scale)
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    start, cpu = time.perf_counter(), time.process_time()
    result = run()
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    note = result if isinstance(result, str) else ""
    return {"case": name, "label": label, "seconds": seconds, "cpu": cpu, "traced_peak": peak,
            "maxrss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, "note": note}


def measure(name: str, scale: float) -> dict:
    """Run one case in a fresh Python process."""
    env = dict(os.environ)
    # Importing rpy2 (the test suite does) prepends R's library path, which can make a
    # child Python load another libpython and lose its site-packages: take it off.
    openrlib = sys.modules.get("rpy2.rinterface_lib.openrlib")
    added = getattr(openrlib, "LD_LIBRARY_PATH", "") if openrlib is not None else ""
    if added and env.get("LD_LIBRARY_PATH", "").startswith(added + ":"):
        env["LD_LIBRARY_PATH"] = env["LD_LIBRARY_PATH"][len(added) + 1:]
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--case", name, "--scale", str(scale)],
        capture_output=True, text=True, env=env, check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"case {name} failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _mib(value: float) -> str:
    return f"{value / 2 ** 20:,.2f}"


def report(rows: list[dict], argv: list[str]) -> str:
    import pyale

    lines = [
        f"Generated {datetime.date.today().isoformat()} by `python benchmarks/bench_bounded.py"
        f"{' ' + ' '.join(argv) if argv else ''}`; each case in a fresh process.",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, {platform.system()}; Python "
        f"{platform.python_version()}, NumPy {np.__version__}, pandas {pd.__version__}, pyale {pyale.__version__}; "
        f"load average {os.getloadavg()[0]:.1f} at the end (time is wall-clock and grows with the load; CPU "
        "is the process's, all threads).",
        "",
        "| input | what | time (s) | CPU (s) | peak traced (MiB) | peak resident (MiB) | before (issue 11) |",
        "|---|---|---:|---:|---:|---:|---|",
    ]
    shown = set()
    for row in rows:
        group = CASES[row["case"]][0]
        what = row["label"] + (f" ({row['note']})" if row["note"] else "")
        before = "" if group in shown else BEFORE[group]
        shown.add(group)
        lines.append(f"| {group} | {what} | {row['seconds']:.2f} | {row['cpu']:.2f} | {_mib(row['traced_peak'])} | "
                     f"{_mib(row['maxrss'])} | {before} |")
    lines.append("")
    return "\n".join(lines) + "\n"


INTRO = (
    "\n## Bounded cost\n\n"
    "Inputs that used to exhaust memory or time (issue 11): a high-cardinality categorical\n"
    "feature, long strings in another column, a fine pair grid, and K far beyond the data.\n"
    "K is capped as R's `unique` would cap it before anything of size K is allocated; level\n"
    "distances are computed a block of levels at a time; text is factorised; the nearest-cell\n"
    "search replays ANN's tree only where distances tie.  Grids the data cannot bound (a\n"
    "pair's cells, a partial dependence's grid points) are refused past the rules of\n"
    "`pyale/_core/grid/bounds.py` (see docs/deviations.md).  Peak resident memory includes Python,\n"
    "NumPy and pandas themselves (about 130 MiB); FeatureEffect's pair table has one row per\n"
    "grid node, 4 million here.  Run `python benchmarks/bench_bounded.py` (a few minutes).\n\n"
)


def write_section(path: Path, text: str) -> None:
    """Replace this script's section of ``path`` (between its markers), or append it with its heading."""
    sections.write_section(path, BEGIN, END, text, intro=INTRO)


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply rows and the pair's K (default 1)")
    parser.add_argument("--case", choices=sorted(CASES), help="run one case here and print JSON (internal)")
    parser.add_argument("--only", nargs="+", choices=sorted(CASES), help="run these cases only")
    parser.add_argument("--out", default=str(ROOT / "docs" / "performance.md"),
                        help="file whose bounded-cost section is rewritten, or - to print")
    args = parser.parse_args(argv)
    if args.case:
        print(json.dumps(run_case(args.case, args.scale)))
        return 0
    rows = []
    for name in args.only or list(CASES):
        row = measure(name, args.scale)
        print(f"{name}: {row['seconds']:.2f} s, traced {_mib(row['traced_peak'])} MiB, "
              f"resident {_mib(row['maxrss'])} MiB", file=sys.stderr)
        rows.append(row)
    shown = [a for a in argv if not a.startswith("--out") and a != args.out]
    text = report(rows, shown)
    if args.out == "-":
        print(text)
    else:
        write_section(Path(args.out), text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
