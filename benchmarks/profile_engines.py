"""Where an engine's time goes: ``pyale.ale`` on a Parquet data set, pass by pass and kind by kind.

    python benchmarks/profile_engines.py --dir DIR [--engines dask,polars] [--rows N]

Runs the call of ``bench_engines.py --api`` (five one-feature ALEs and the
pair ``('x0', 'x1')``, K = 40, bench_ale's cheap model) on the Parquet files
under ``DIR/data`` (written by ``bench_engines.py --keep``, or by this script
with ``--rows``), each engine in a fresh process, and reports per pass over
the data (every ``map_reduce``, named by the pyale function that asked for
it):

- wall seconds, and CPU seconds of the whole process (all threads);
- CPU seconds inside the mapped function (each block's thread time, summed),
  of which CPU seconds inside the model (thread time of each call);
- the rest, ``process CPU - function CPU``: reading the files, decoding and
  converting them to pandas blocks, the engine's own scheduling, and the
  work of every other thread: pyale's own row passes (:mod:`pyale._threads`)
  and the threads of the model's libraries (OpenBLAS's, which spin while
  they wait for work, count here).

For polars the main thread's block production is split further into the
wall seconds it waited for polars' batches (its streaming engine: Parquet
decode, in polars' threads) and its CPU seconds joining them and converting
them to pandas (the batch waits' CPU included, which is small).

``PROFILE_CPROFILE=PATH`` also profiles every call of the mapped function
(in the thread that runs it) and writes the merged statistics to
``PATH.<engine>``; ``PROFILE_ROWS_PER_BLOCK`` sets the polars engine's block
size.  On a shared machine compare CPU seconds and the
ratios within one run, not wall time across runs.
"""

from __future__ import annotations

import argparse
import functools
import inspect
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402

from bench_ale import FEATURES  # noqa: E402
from bench_engines import K, PAIR, api_model, first_files, write_dataset  # noqa: E402

_LOCK = threading.Lock()
_COUNTERS = {"func": 0.0, "model": 0.0, "calls": 0, "batches": 0.0, "convert": 0.0, "blocks": 0}
_SKIP = {"map_reduce", "_timed_map_reduce", "wrapper", "<lambda>"}


def _add(key: str, value: float) -> None:
    with _LOCK:
        _COUNTERS[key] += value


def timed_model(frame):
    start = time.thread_time()
    try:
        return api_model(frame)
    finally:
        _add("model", time.thread_time() - start)
        _add("calls", 1)


_PROFILES: list = []


def _timed_func(block, offset, *, func):
    profile = None
    if os.environ.get("PROFILE_CPROFILE"):  # the mapped function under cProfile, in the thread that runs it
        import cProfile

        profile = cProfile.Profile()
        profile.enable()
    start = time.thread_time()
    try:
        return func(block, offset)
    finally:
        _add("func", time.thread_time() - start)
        _add("blocks", 1)
        if profile is not None:
            profile.disable()
            with _LOCK:
                _PROFILES.append(profile)


def _asker() -> str:
    """The pyale function that asked for this pass (outside the engines and their wrappers)."""
    for frame in inspect.stack()[2:]:
        module = frame.frame.f_globals.get("__name__", "")
        if module.startswith("pyale._engines") or frame.function in _SKIP:
            continue
        if module == "pyale._core.run.engine_grid" and frame.function == "map_reduce":
            continue
        return f"{module.removeprefix('pyale.')}.{frame.function}"
    return "?"


def instrument(engine_cls, passes: list) -> None:
    original = engine_cls.map_reduce

    def _timed_map_reduce(self, func, combine=None, *, columns=None):
        asker = _asker()
        before = dict(_COUNTERS)
        wall, cpu = time.perf_counter(), time.process_time()
        kwargs = {} if combine is None else {"combine": combine}
        result = original(self, functools.partial(_timed_func, func=func), columns=columns, **kwargs)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        after = dict(_COUNTERS)
        delta = {k: after[k] - before[k] for k in after}
        passes.append({"asker": asker, "columns": None if columns is None else len(columns),
                       "wall": wall, "cpu": cpu, **delta})
        return result

    engine_cls.map_reduce = _timed_map_reduce


def instrument_polars_blocks() -> None:
    """Split the main thread's block production into polars' batches and the conversion to pandas."""
    from pyale._engines import polars as engine

    original = engine._blocks

    def timed_batches(batches):
        iterator = iter(batches)
        while True:
            start = time.perf_counter()
            try:
                batch = next(iterator)
            except StopIteration:
                _add("batches", time.perf_counter() - start)
                return
            _add("batches", time.perf_counter() - start)
            yield batch

    def blocks(batches, dtypes, rows_per_block):
        iterator = original(timed_batches(batches), dtypes, rows_per_block)
        while True:
            start = time.thread_time()
            try:
                block = next(iterator)
            except StopIteration:
                return
            _add("convert", time.thread_time() - start)
            yield block

    engine._blocks = blocks


def run_child(kind: str, files: list[str]) -> dict:
    import pyale

    passes: list = []
    if kind == "polars":
        import polars as pl

        from pyale._engines.polars import PolarsLazyEngine

        from pyale._engines import polars as engine_module

        if os.environ.get("PROFILE_ROWS_PER_BLOCK"):  # try another block size
            engine_module.ROWS_PER_BLOCK = int(os.environ["PROFILE_ROWS_PER_BLOCK"])
        instrument(PolarsLazyEngine, passes)
        instrument_polars_blocks()
        data = pl.scan_parquet(files)
    else:
        import dask
        import dask.dataframe as dd

        from pyale._engines.dask import DaskEngine

        dask.config.set(scheduler="threads")
        instrument(DaskEngine, passes)
        data = dd.read_parquet(files)
    wall, cpu = time.perf_counter(), time.process_time()
    results = pyale.ale(timed_model, data, [*FEATURES, PAIR], n_intervals=K)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if _PROFILES:
        import pstats

        stats = pstats.Stats(_PROFILES[0])
        for profile in _PROFILES[1:]:
            stats.add(profile)
        stats.dump_stats(f"{os.environ['PROFILE_CPROFILE']}.{kind}")
    return {"engine": kind, "wall": wall, "cpu": cpu, "passes": passes, "load": os.getloadavg()[0],
            "effects": {" x ".join(r.features): r.effects.ravel().tolist() for r in results},
            "counts": {" x ".join(r.features): np.asarray(r.counts).tolist() for r in results}}


def report(result: dict) -> str:
    lines = [f"{result['engine']}: pyale.ale {result['wall']:.1f} s wall, {result['cpu']:.1f} s CPU "
             f"(load {result['load']:.1f} at the end)",
             "| pass (asked by) | cols | blocks | wall (s) | CPU (s) | function CPU | model calls | of which model | rest CPU "
             "| batches wait | to pandas |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    total = {k: 0.0 for k in ("wall", "cpu", "func", "model", "batches", "convert")}
    for p in result["passes"]:
        for k in total:
            total[k] += p[k]
        lines.append(f"| {p['asker']} | {p['columns'] if p['columns'] is not None else 'all'} | {p['blocks']} "
                     f"| {p['wall']:.1f} | {p['cpu']:.1f} | {p['func']:.1f} | {p['calls']} | {p['model']:.1f} "
                     f"| {p['cpu'] - p['func']:.1f} | {p['batches']:.1f} | {p['convert']:.1f} |")
    lines.append(f"| all {len(result['passes'])} passes | | | {total['wall']:.1f} | {total['cpu']:.1f} "
                 f"| {total['func']:.1f} | | {total['model']:.1f} | {total['cpu'] - total['func']:.1f} "
                 f"| {total['batches']:.1f} | {total['convert']:.1f} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, required=True)
    parser.add_argument("--rows", type=int, default=None, help="write this many rows first (else use DIR/data)")
    parser.add_argument("--engines", default="dask,polars")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--files-json", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(run_child(args.child, json.loads(args.files_json))))
        return 0
    data_dir = args.dir / "data"
    if args.rows:
        write_dataset(data_dir, args.rows, 2_000_000, 500_000)
    files = sorted(str(p) for p in data_dir.glob("part-*.parquet"))
    results = []
    for kind in args.engines.split(","):
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE.parent), os.environ.get("PYTHONPATH", "")]))
        done = subprocess.run([sys.executable, __file__, "--dir", str(args.dir), "--child", kind,
                               "--files-json", json.dumps(files)], capture_output=True, text=True, env=env)
        if done.returncode:
            raise RuntimeError(done.stderr[-4000:])
        result = json.loads(done.stdout.strip().splitlines()[-1])
        results.append(result)
        print(report(result), "\n", flush=True)
    if len(results) == 2:
        a, b = results
        same = a["counts"] == b["counts"]
        gap = max(float(np.max(np.abs(np.subtract(a["effects"][f], b["effects"][f])))
                      / max(float(np.max(np.abs(b["effects"][f]))), 1e-300)) for f in b["effects"])
        print(f"counts {'identical' if same else 'DIFFER'}; effects within {gap:.1e} of their largest value")
        print(f"{a['engine']}/{b['engine']} CPU {a['cpu'] / b['cpu']:.2f}, wall {a['wall'] / b['wall']:.2f}")
    if args.json:
        args.json.write_text(json.dumps(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
