"""Time ALE against the cost of the model's own predictions.

    python benchmarks/bench_ale.py                      # full run, writes docs/performance.md
    python benchmarks/bench_ale.py --n 100000 --repeats 3 --out -   # quicker, print only

Tasks
-----
cheap      n rows (1e6 by default), 5 standard-normal features, a cheap
           vectorised model (the same formula in R); every one-feature ALE,
           K = 40, and one pair (x0, x1).
realistic  100,000 rows, 8 features, scikit-learn HistGradientBoostingRegressor
           (100 trees); every one-feature ALE of the first 5 features and
           one pair.  R cannot evaluate this model, so R has no row here.

For each task the script measures the *bare* predictions (the model called
on exactly the rows ALE needs, built beforehand: every row moved to the lower
and to the upper edge of its interval, two frames of n rows per feature, the
four cell corners for a pair), each ALE's time, their ratio, and peak memory.
A *floor* row times what pyale's design costs at least: per feature a private
copy of X, the two shifted columns written into it, the two predictions and
one sum per interval, with the bins given (see ``floor_run``).  All Python timings of
a task are interleaved (bare, then every variant, repeated) and the medians
are reported, so slow drifts of the machine hit every row alike.  Python peak
memory is tracemalloc's peak above the start for one feature (NumPy and
pandas report their buffers to it); R's is the rise of ``gc()``'s "max used"
over the run.  Both are given as multiples of the size of X.

R's ALEPlot and iml run through rpy2 when R and the packages are present;
PyALE, alibi and effector run when installed (alibi only at 100,000 rows:
it needs minutes beyond that).  Each is given the same data and model and
K = 40 (alibi: at least n / 40 rows per bin); their numbers are not checked here (they differ from ALEPlot's, see
the README), only timed.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import os
import platform
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # time this checkout's pyale, not whichever one is installed

import pyale  # noqa: E402
from pyale import _compiled as pyale_compiled  # noqa: E402
from pyale import _scratch as pyale_scratch  # noqa: E402

WEIGHTS = np.array([1.0, -2.0, 0.5, 3.0, -1.0])
FEATURES = [f"x{j}" for j in range(5)]
K = 40
R_MODEL = ("function(X.model, newdata) as.numeric(as.matrix(newdata) %*% c(1, -2, 0.5, 3, -1)) "
           "+ sin(newdata$x0) * newdata$x1")
ALIBI_MAX_N = 100_000


def cheap_model(frame) -> np.ndarray:
    values = frame.to_numpy() if isinstance(frame, pd.DataFrame) else np.asarray(frame)
    return values @ WEIGHTS + np.sin(values[:, 0]) * values[:, 1]


#: CPU seconds of the last ``interleaved`` call's functions (process time: all threads of
#: this process), beside the wall-clock medians it returns.  On a shared machine the CPU
#: ratio moves less with other tenants' load than the wall-clock one.
CPU: dict = {}


def interleaved(fns: dict, repeats: int) -> dict:
    """Median seconds of each function, the functions run in turn ``repeats`` times."""
    times = {name: [] for name in fns}
    cpu = {name: [] for name in fns}
    for _ in range(repeats):
        for name, fn in fns.items():
            gc.collect()
            start, start_cpu = time.perf_counter(), time.process_time()
            fn()
            times[name].append(time.perf_counter() - start)
            cpu[name].append(time.process_time() - start_cpu)
    CPU.clear()
    CPU.update({name: statistics.median(t) for name, t in cpu.items()})
    return {name: statistics.median(t) for name, t in times.items()}


def numpy_path(fn):
    """``fn`` run with pyale's compiled loops switched off (``PYALE_COMPILED=0``)."""
    def run():
        before = os.environ.get("PYALE_COMPILED")
        os.environ["PYALE_COMPILED"] = "0"
        try:
            return fn()
        finally:
            if before is None:
                del os.environ["PYALE_COMPILED"]
            else:
                os.environ["PYALE_COMPILED"] = before
    return run


def peak_memory(fn) -> int:
    """Peak bytes allocated by ``fn`` above what was allocated before it.

    pyale's kept scratch memory (``pyale/_scratch.py``) is given back first,
    so the buffers the call uses are allocated (and counted) inside it.
    """
    gc.collect()
    pyale_scratch.release()
    tracemalloc.start()
    base, _ = tracemalloc.get_traced_memory()
    fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak - base


def row(task, what, bare, seconds, peak_over_x=None, note="", key=None, cpu_ratio=None):
    return dict(task=task, what=what, bare=bare, seconds=seconds, key=key,
                ratio=None if bare is None else seconds / bare, peak_over_x=peak_over_x, note=note,
                cpu_ratio=cpu_ratio)


# ---------------------------------------------------------------- the rows ALE needs
def _edges_and_bins(x: np.ndarray):
    edges = np.unique(np.quantile(x, np.linspace(0, 1, K + 1)))
    bins = np.searchsorted(edges, x, side="left") - 1
    bins[x == edges[0]] = 0
    return edges, bins


def shifted_frames(X: pd.DataFrame, names) -> list[pd.DataFrame]:
    """The frames ALE predicts, built plainly: every row moved to its interval's edges.

    One name: the lower and the upper frame.  A pair: the four cell corners.
    The model's cost on these (not on X) is the floor: a tree ensemble, for
    one, runs faster on columns that hold only K + 1 distinct values.
    """
    sides = []
    for name in names:
        edges, bins = _edges_and_bins(X[name].to_numpy())
        sides.append((name, edges[bins], edges[bins + 1]))
    frames = []
    for corner in np.ndindex(*(2,) * len(sides)):
        frame = X.copy()  # X's block layout; writing through iloc keeps it (frame[name] = ... would
        for (name, lower, upper), up in zip(sides, corner):  # split the block and slow to_numpy)
            frame.iloc[:, X.columns.get_loc(name)] = upper if up else lower
        frames.append(frame)
    return frames


def floor_run(X: pd.DataFrame, predict, prepared) -> list:
    """What any ALE that predicts on a private copy of X costs at least, per feature.

    For each feature: copy X's rows once (in threads, in X's memory order, as
    pyale does: the model may edit its input and X is the caller's; the
    feature's own column is not copied, it is written next), write the
    lower and then the upper edge of every row's interval into the copied
    column, predict each time, and add the differences per interval.  The
    edges and bins are given (``prepared``): no grid, no bins, no checks, no
    heterogeneity.  With a cheap model this is the floor of pyale's design.
    """
    from pyale._core.map.shifted import _block_of, _copy_rows

    block = _block_of(X)
    if block is None:  # X of several blocks: pyale copies it through pandas; the floor copies its values
        block = np.ascontiguousarray(X.to_numpy().T)
    out = []
    for position, edges, bins in prepared:
        copy = _copy_rows(block, None, [position])
        frame = pd.DataFrame(copy.T, index=X.index, columns=X.columns, copy=False)
        np.take(edges, bins, out=copy[position], mode="clip")
        y_lower = predict(frame)
        np.take(edges, bins + 1, out=copy[position], mode="clip")
        y_upper = predict(frame)
        out.append(np.bincount(bins, weights=y_upper - y_lower, minlength=edges.shape[0] - 1))
    return out


def floor_shallow_run(X: pd.DataFrame, predict, prepared) -> list:
    """The floor with copy-on-write's shallow copy instead of a private copy of X.

    Under pandas >= 3 a model's in-place edits of a shallow copy never reach
    X, so the rows need not be copied: each variant is ``X.copy(deep=False)``
    with the shifted column swapped in (``isetitem``).  The frame then holds
    two blocks, and a model that asks for ``to_numpy()`` interleaves them
    into a new array: the copy moves into the model call instead of going
    away.  Timed beside ``floor_run`` to decide which one pyale uses.
    """
    out = []
    for position, edges, bins in prepared:
        frame = X.copy(deep=False)
        frame.isetitem(position, edges[bins])
        y_lower = predict(frame)
        frame = X.copy(deep=False)
        frame.isetitem(position, edges[bins + 1])
        y_upper = predict(frame)
        out.append(np.bincount(bins, weights=y_upper - y_lower, minlength=edges.shape[0] - 1))
    return out


# ---------------------------------------------------------------- pyale
def pyale_rows(task, X, predict, model, repeats, *, pair=("x0", "x1"), features=FEATURES,
               memory_rows_per_call=None):
    """pyale's ALEPlot, ale() and FeatureEffect on ``X``: 5 one-feature ALEs and a pair."""
    predictor = pyale.Predictor(model, data=X) if model is not None else pyale.Predictor(
        data=X, predict_function=predict)
    ale_model = model if model is not None else predict

    def aleplot(j, **kw):
        return pyale.ALEPlot(X, model, lambda m, d: predict(d), J=j, K=K, plot=False, **kw)

    single_frames = [frame for f in features for frame in shifted_frames(X, [f])]
    pair_frames = shifted_frames(X, list(pair))
    prepared = [(X.columns.get_loc(f), *_edges_and_bins(X[f].to_numpy())) for f in features]
    singles = {
        "bare": lambda: [predict(frame) for frame in single_frames],
        "floor": lambda: floor_run(X, predict, prepared),
        "floor, shallow": lambda: floor_shallow_run(X, predict, prepared),
        "ALEPlot": lambda: [aleplot(f) for f in features],
        "ale": lambda: [pyale.ale(ale_model, X, f, n_intervals=K) for f in features],
        "FeatureEffect": lambda: [pyale.FeatureEffect(predictor, f, grid_size=K) for f in features],
        "ale list": lambda: pyale.ale(ale_model, X, list(features), n_intervals=K),
    }
    pairs = {
        "bare": lambda: [predict(frame) for frame in pair_frames],
        "ALEPlot": lambda: aleplot(pair),
        "ale": lambda: pyale.ale(ale_model, X, pair, n_intervals=K),
        "FeatureEffect": lambda: pyale.FeatureEffect(predictor, list(pair), grid_size=K),
    }
    if pyale_compiled.numba is not None:  # the same calls on the NumPy path, to measure what numba earns
        for name in ("ALEPlot", "ale", "FeatureEffect"):
            singles[name + ", NumPy"] = numpy_path(singles[name])
            pairs[name + ", NumPy"] = numpy_path(pairs[name])
    t1 = interleaved(singles, repeats)
    c1 = {k: CPU[k] / CPU["bare"] for k in CPU}
    t2 = interleaved(pairs, repeats)
    c2 = {k: CPU[k] / CPU["bare"] for k in CPU}
    del single_frames, pair_frames
    size_x = int(X.memory_usage(index=False, deep=True).sum())
    memory = {
        "ALEPlot": peak_memory(lambda: aleplot(features[0])),
        "ale": peak_memory(lambda: pyale.ale(ale_model, X, features[0], n_intervals=K)),
        "FeatureEffect": peak_memory(lambda: pyale.FeatureEffect(predictor, features[0], grid_size=K)),
    }
    labels = {"ALEPlot": "pyale.ALEPlot", "ale": "pyale.ale", "FeatureEffect": "pyale.FeatureEffect (iml)"}
    rows = [row(task, f"{labels[k]}, {len(features)} features one at a time", t1["bare"], t1[k],
                memory[k] / size_x, key=(k, "one"), cpu_ratio=c1[k]) for k in labels]
    rows.append(row(task, f"pyale.ale, the {len(features)} features in one call", t1["bare"], t1["ale list"],
                    key=("ale", "list"), cpu_ratio=c1["ale list"]))
    rows.append(row(task, f"floor: a private copy of X, the shifted columns and one sum per interval, "
                          f"{len(features)} features (no grid, no bins)", t1["bare"], t1["floor"],
                    note="see floor_run", cpu_ratio=c1["floor"]))
    rows.append(row(task, f"floor with copy-on-write's shallow copy of X instead, "
                          f"{len(features)} features (no grid, no bins)", t1["bare"], t1["floor, shallow"],
                    note="see floor_shallow_run", cpu_ratio=c1["floor, shallow"]))
    if memory_rows_per_call:
        capped = peak_memory(lambda: aleplot(features[0], max_rows_per_call=memory_rows_per_call))
        seconds = interleaved({"capped": lambda: [aleplot(f, max_rows_per_call=memory_rows_per_call)
                                                  for f in features]}, max(1, repeats // 2))["capped"]
        rows.append(row(task, f"pyale.ALEPlot, max_rows_per_call={memory_rows_per_call:,}", t1["bare"],
                        seconds, capped / size_x, "memory capped"))
    rows += [row(task, f"{labels[k]}, pair {pair}", t2["bare"], t2[k], key=(k, "pair"), cpu_ratio=c2[k])
             for k in labels]
    if pyale_compiled.numba is not None:
        rows += [row(task, f"{labels[k]}, {len(features)} features one at a time, NumPy path "
                           "(PYALE_COMPILED=0)", t1["bare"], t1[k + ", NumPy"], cpu_ratio=c1[k + ", NumPy"])
                 for k in labels]
        rows += [row(task, f"{labels[k]}, pair {pair}, NumPy path (PYALE_COMPILED=0)", t2["bare"],
                     t2[k + ", NumPy"], cpu_ratio=c2[k + ", NumPy"]) for k in labels]
    return rows


# ---------------------------------------------------------------- R
def r_rows(task, X, repeats, n_features):
    try:
        import rpy2.robjects as ro

        from pyale.r import to_r_dataframe
    except Exception as exc:  # noqa: BLE001 - R is optional
        return [], f"R not run: {exc}"
    have = {p: bool(ro.r(f'isTRUE(requireNamespace("{p}", quietly = TRUE))')[0]) for p in ("ALEPlot", "iml")}
    ro.globalenv["X"] = to_r_dataframe(X)
    ro.r("pdf(NULL)")
    ro.r(f"pf <- {R_MODEL}")
    # R's own bare predictions and, for every run, the rise of gc()'s max used (Mb).
    ro.r("""
      timed <- function(expr_fun, reps) {
        secs <- numeric(reps); mem <- numeric(reps)
        for (i in seq_len(reps)) {
          gc(); before <- sum(gc(reset = TRUE)[, 2])
          secs[i] <- system.time(expr_fun())[["elapsed"]]
          mem[i] <- sum(gc()[, 6]) - before
        }
        c(median(secs), max(mem))
      }""")
    size_mb = X.memory_usage(index=False).sum() / 2**20
    bare1 = ro.r(f"timed(function() for (i in 1:{2 * n_features}) pf(NULL, X), {repeats})")[0]
    bare2 = ro.r(f"timed(function() for (i in 1:4) pf(NULL, X), {repeats})")[0]
    rows = []
    version = ro.r("paste(R.version$major, R.version$minor, sep = '.')")[0]
    if have["ALEPlot"]:
        secs, mem = ro.r(f"timed(function() for (j in 1:{n_features}) ALEPlot::ALEPlot(X, NULL, pf, J = j, K = {K}), {repeats})")
        rows.append(row(task, f"R {version} ALEPlot 1.1, {n_features} features one at a time", bare1, secs,
                        mem / size_mb, "R's own bare predictions", key=("R ALEPlot", "one")))
        secs, mem = ro.r(f"timed(function() ALEPlot::ALEPlot(X, NULL, pf, J = c(1, 2), K = {K}), {repeats})")
        rows.append(row(task, "R ALEPlot 1.1, pair ('x0', 'x1')", bare2, secs, mem / size_mb,
                        "R's own bare predictions", key=("R ALEPlot", "pair")))
    if have["iml"]:
        ro.r("pred <- iml::Predictor$new(data = X, predict.function = function(model, newdata) pf(NULL, newdata))")
        secs, mem = ro.r(f"timed(function() for (f in names(X)[1:{n_features}]) "
                         f"iml::FeatureEffect$new(pred, f, method = 'ale', grid.size = {K}), {repeats})")
        rows.append(row(task, f"R iml 0.11.4 FeatureEffect, {n_features} features one at a time", bare1, secs,
                        mem / size_mb, "R's own bare predictions", key=("R FeatureEffect", "one")))
        secs, mem = ro.r(f"timed(function() iml::FeatureEffect$new(pred, c('x0', 'x1'), method = 'ale', "
                         f"grid.size = {K}), {repeats})")
        rows.append(row(task, "R iml 0.11.4 FeatureEffect, pair ('x0', 'x1')", bare2, secs, mem / size_mb,
                        "R's own bare predictions", key=("R FeatureEffect", "pair")))
    missing = [p for p, ok in have.items() if not ok]
    return rows, (f"R packages not installed: {', '.join(missing)}" if missing else "")


# ---------------------------------------------------------------- other Python packages
def package_rows(task, X, bare, repeats):
    rows, notes = [], []
    n = X.shape[0]

    class Wrapped:
        def predict(self, frame):
            return cheap_model(frame)

    try:
        import PyALE

        secs = interleaved({"PyALE": lambda: [PyALE.ale(X, Wrapped(), [f], grid_size=K, include_CI=False,
                                                        plot=False) for f in FEATURES]}, repeats)["PyALE"]
        rows.append(row(task, f"PyALE {_version('PyALE')}, 5 features", bare, secs))
    except ImportError:
        notes.append("PyALE not installed")
    try:
        import effector

        def run_effector():
            values = X.to_numpy()
            for j in range(5):
                effect = effector.ALE(values, cheap_model, nof_instances="all")
                effect.fit(features=[j], binning_method=effector.axis_partitioning.Fixed(nof_bins=K))
        secs = interleaved({"effector": run_effector}, repeats)["effector"]
        rows.append(row(task, f"effector {_version('effector')}, 5 features", bare, secs))
    except ImportError:
        notes.append("effector not installed")
    try:
        from alibi.explainers import ALE as AlibiALE

        m = min(n, ALIBI_MAX_N)
        small = X.iloc[:m].to_numpy()
        explainer = AlibiALE(cheap_model, feature_names=FEATURES)
        secs = interleaved({"alibi": lambda: explainer.explain(small, features=list(range(5)), min_bin_points=m // K)}, 1)["alibi"]
        bare_small = interleaved({"b": lambda: [cheap_model(small) for _ in range(10)]}, repeats)["b"]
        rows.append(row(f"cheap, n={m:,}" if m < n else task, f"alibi {_version('alibi')}, 5 features",
                        bare_small, secs, note="one run" + (f"; n={m:,} only" if m < n else "")))
    except ImportError:
        notes.append("alibi not installed")
    return rows, notes


def _version(dist: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(dist)
    except PackageNotFoundError:
        return "?"


# ---------------------------------------------------------------- tasks
def cheap_task(n, repeats, *, with_r=True, with_packages=True):
    rng = np.random.default_rng(0)
    X = pd.DataFrame({f: rng.normal(size=n) for f in FEATURES})
    task = f"cheap, n={n:,}"
    rows = pyale_rows(task, X, cheap_model, None, repeats, memory_rows_per_call=max(1, n // 10))
    notes = []
    if with_r:
        more, note = r_rows(task, X, max(1, repeats // 2), len(FEATURES))
        rows += more
        notes += [note] if note else []
    if with_packages:
        more, note = package_rows(task, X, rows[0]["bare"], max(1, repeats // 2))
        rows += more
        notes += note
    return rows, notes


def realistic_task(n, repeats):
    from sklearn.ensemble import HistGradientBoostingRegressor

    rng = np.random.default_rng(1)
    X = pd.DataFrame({f"x{j}": rng.normal(size=n) for j in range(8)})
    y = np.sin(X["x0"]) + X["x1"] * X["x2"] + X["x3"] ** 2 + rng.normal(scale=0.1, size=n)
    model = HistGradientBoostingRegressor(max_iter=100, random_state=0).fit(X, y)
    return pyale_rows(f"HistGradientBoostingRegressor, n={n:,}", X, model.predict, model, repeats)


# ---------------------------------------------------------------- report
def _versions() -> str:
    parts = [f"Python {platform.python_version()}", f"NumPy {np.__version__}", f"pandas {pd.__version__}",
             f"pyale {pyale.__version__}"]
    try:
        import sklearn

        parts.append(f"scikit-learn {sklearn.__version__}")
    except ImportError:
        pass
    if pyale_compiled.numba is not None:
        parts.append(f"numba {pyale_compiled.numba.__version__}")
    try:
        import rpy2

        parts.append(f"rpy2 {rpy2.__version__}")
    except ImportError:
        pass
    return ", ".join(parts)


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def speedups(rows) -> list[str]:
    """pyale's time against R's for the same function on the same task."""
    seconds = {(r["task"], r["key"]): r["seconds"] for r in rows if r.get("key")}
    out = []
    for (task, (name, kind)), secs in seconds.items():
        r_secs = seconds.get((task, ("R " + name, kind)))
        if r_secs is not None:
            what = "5 one-feature ALEs" if kind == "one" else "the pair"
            out.append(f"- {task}, {what}: pyale's {name} takes {secs:.3f} s, R's {r_secs:.3f} s "
                       f"({r_secs / secs:.0f}x faster).")
    return out


def to_markdown(rows, notes, args) -> str:
    command = f"python benchmarks/bench_ale.py --n {args.n} --realistic-n {args.realistic_n} --repeats {args.repeats}"
    if args.large_n:
        command += f" --large-n {args.large_n}"
    if args.allocator != "fixed":
        command += f" --allocator {args.allocator}"
    lines = [
        "| task | what | bare (s) | time (s) | ratio | CPU ratio | peak memory / size of X | note |",
        "|---|---|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        peak = "" if r["peak_over_x"] is None else f"{r['peak_over_x']:.2f}"
        bare = "" if r["bare"] is None else f"{r['bare']:.3f}"
        ratio = "" if r["ratio"] is None else f"{r['ratio']:.2f}"
        cpu = "" if r.get("cpu_ratio") is None else f"{r['cpu_ratio']:.2f}"
        lines.append(f"| {r['task']} | {r['what']} | {bare} | {r['seconds']:.3f} | {ratio} | {cpu} | {peak} "
                     f"| {r['note']} |")
    lines += [""] + speedups(rows)
    header = [
        f"Generated {datetime.date.today().isoformat()} by `{command}`.",
        "",
        f"Machine: {_cpu()}, {os.cpu_count()} cores, {platform.system()} {platform.machine()}; {_versions()}.",
        "",
        "Allocator: " + ("glibc's large-allocation thresholds pinned (" + ", ".join(
            f"{k}={v}" for k, v in ALLOCATOR.items()) + "; see `_pin_allocator`)."
            if all(os.environ.get(k) == v for k, v in ALLOCATOR.items()) else "the platform's own settings."),
        "",
    ]
    if notes:
        header += ["Not run: " + "; ".join(notes) + ".", ""]
    return "\n".join(header + lines) + "\n"


BEGIN, END = "<!-- results: written by benchmarks/bench_ale.py -->", "<!-- end of results -->"


def write_results(path: Path, text: str) -> None:
    """Replace the results section of ``path`` (between the markers), or write a new file."""
    section = f"{BEGIN}\n{text}{END}"
    old = path.read_text() if path.exists() else ""
    if BEGIN in old and END in old:
        before, rest = old.split(BEGIN, 1)
        after = rest.split(END, 1)[1]
        path.write_text(before + section + after)
    else:
        path.write_text(f"# Performance\n\n{section}\n")


#: glibc's thresholds for the ``fixed`` allocator: every large array from the heap, freed memory kept.
ALLOCATOR = {"MALLOC_MMAP_THRESHOLD_": str(1 << 30), "MALLOC_TRIM_THRESHOLD_": str(1 << 32)}


def _pin_allocator(argv) -> bool:
    """Re-run this script with glibc's thresholds pinned (``ALLOCATOR``); True when it did.

    glibc serves large arrays from fresh mappings until a freed one raises
    its threshold, so the cost of the same model call (page faults, zeroed
    pages) depends on the process's earlier allocations: with glibc's own
    settings, the bare predictions at n = 1e6 measured 0.13 s (steady) in a
    run with pyale's scratch memory off (``PYALE_SCRATCH_MB=0``) and 0.19 s
    (0.13 to 0.25 s from repeat to repeat) in the same run with it on,
    though pyale is not running while they are timed.  Pinned, every large array reuses freed memory,
    the model's bare predictions are at their cheapest and steady, and every
    ratio is against that strictest baseline.  Only on Linux with glibc; the
    variables are read at process start, hence the re-run.
    """
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return False
    if all(os.environ.get(k) == v for k, v in ALLOCATOR.items()):
        return False
    import subprocess

    env = dict(os.environ, **ALLOCATOR)
    subprocess.run([sys.executable, __file__, *(sys.argv[1:] if argv is None else argv)], env=env, check=True)
    return True


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="ALE timing against the model's bare predictions")
    parser.add_argument("--n", type=int, default=1_000_000, help="rows of the cheap task")
    parser.add_argument("--realistic-n", type=int, default=100_000, help="rows of the gradient-boosting task")
    parser.add_argument("--repeats", type=int, default=7, help="runs per timing (R and other packages: half)")
    parser.add_argument("--large-n", type=int, default=0,
                        help="also the cheap task's pyale rows at this many rows (e.g. 10000000; no R)")
    parser.add_argument("--no-r", action="store_true", help="skip R's ALEPlot and iml")
    parser.add_argument("--no-packages", action="store_true", help="skip PyALE, alibi and effector")
    parser.add_argument("--out", default=str(ROOT / "docs" / "performance.md"),
                        help="markdown file whose results section is replaced ('-': print only)")
    parser.add_argument("--allocator", choices=["fixed", "default"], default="fixed",
                        help="fixed (default): glibc's large-allocation thresholds pinned (see ALLOCATOR), "
                             "so a model's cost does not depend on which calls ran before; default: glibc's own")
    args = parser.parse_args(argv)
    if args.allocator == "fixed" and _pin_allocator(argv):
        return 0  # the run happened in the re-executed process
    rows, notes = cheap_task(args.n, args.repeats, with_r=not args.no_r, with_packages=not args.no_packages)
    if args.large_n:
        more, _ = cheap_task(args.large_n, max(1, args.repeats // 2), with_r=False, with_packages=False)
        rows += more
    try:
        rows += realistic_task(args.realistic_n, args.repeats)
    except ImportError as exc:
        notes.append(f"realistic task needs scikit-learn ({exc})")
    text = to_markdown(rows, notes, args)
    print(text)
    if args.out != "-":
        write_results(Path(args.out), text)
        print(f"written to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
