"""Out of core: ALE's passes over a Parquet data set through Dask, Spark and polars, against pandas in memory.

    python benchmarks/bench_engines.py                           # small run (1e6 rows)
    python benchmarks/bench_engines.py --rows 20000000           # moderate run
    python benchmarks/bench_engines.py --rows 200000000 --pandas-rows 20000000 --spark-rows 5000000
                                                                 # the target: ~16 GB on disk

The script writes ``--rows`` rows x 10 float64 columns (standard normal,
seeded) as Parquet files of ``--rows-per-file`` rows in row groups of
``--row-group`` rows with pyarrow, then runs each engine in a fresh child
process (so each one's peak memory is its own) and removes the data unless
``--keep``:

dask    ``dd.read_parquet`` of the whole data set, ``DaskEngine`` on Dask's
        threaded scheduler (``--scheduler`` to change);
pandas  the first ``--pandas-rows`` rows read into memory, ``PandasEngine``
        (one block, as pyale computes today);
spark   the first ``--spark-rows`` rows (files) through ``spark.read.parquet``
        in local mode (``local[2]``, Spark's default memory), ``SparkEngine``;
polars  ``pl.scan_parquet`` of the whole data set, ``PolarsLazyEngine``
        (polars' streaming engine, batches joined into blocks in this process).

Each engine computes the grid and map stages of ALE for five features with
K = 40: the column checks (one pass), ALEPlot's interval edges by exact
order statistics (type-1 quantiles at ``seq(1/K, 1, length.out = K)`` and the
minimum), then one ``map_reduce`` pass that, for every feature, moves each
row of the block to the lower and to the upper edge of its interval, calls
the cheap model of ``bench_ale.py`` on both copies and adds the differences
and the counts per interval (:func:`ale_map_stage`, a plain stand-in for the
estimator core's map stage).  ``--api`` calls the real thing instead:
``pyale.ale(model, data, ["x0", ..., "x4", ("x0", "x1")], n_intervals=40)``
with the data frame of each engine (a pandas, Dask or Spark DataFrame, a
polars LazyFrame, whose blocks reach the model as polars frames), five
one-feature ALEs and one pair, grid and level orders from the engine's
summaries, the model called inside the partitions; ``--doc`` then writes
the table into ``docs/performance.md`` (its own section).

Reported per engine: wall time of the summaries and of the map pass, rows
per second (rows / total), the CPU seconds of the engine's Python process
(all its threads; with ``--api``: Spark's JVM not included), which move less
than wall time with the other tenants of a shared machine, and the peak resident memory of the engine's
whole process tree (the child and all its descendants: Dask workers, the
Spark JVM and its Python workers; RSS summed every 0.1 s, so shared pages
count more than once).  Targets: Dask's peak under 4 GB, and its rows per
second at least half of pandas'; polars' peak under 4 GB, and its rows per
second at least Dask's in the same run.  The edges and interval counts of every
engine are checked to be identical to pandas' where both cover the same rows.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from bench_ale import FEATURES, WEIGHTS, cheap_model  # noqa: E402

from pyale._engines import add_results
from pyale._core.exact import column_checks, order_statistics_of  # noqa: E402
from pyale._rbase import bin_right_closed, quantile_type1_positions, r_seq  # noqa: E402
from sections import write_section  # noqa: E402

N_COLUMNS = 10
K = 40
GB = 1 << 30
PAIR = ("x0", "x1")
ROOT = HERE.parent
BEGIN = "<!-- engines: written by benchmarks/bench_engines.py --api --doc -->"
END = "<!-- end of engines -->"


def api_model(frame) -> np.ndarray:
    """bench_ale's cheap model on its five features (the data holds ten columns)."""
    return cheap_model(frame[FEATURES])


# ------------------------------------------------------------------------- data
def write_dataset(directory: Path, rows: int, rows_per_file: int, row_group: int, seed: int = 0) -> float:
    """Write the Parquet files; returns their size in bytes."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    directory.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    names = [f"x{j}" for j in range(N_COLUMNS)]
    written = 0
    for index, start in enumerate(range(0, rows, rows_per_file)):
        stop = min(rows, start + rows_per_file)
        path = directory / f"part-{index:05d}.parquet"
        with pq.ParquetWriter(path, pa.schema([(n, pa.float64()) for n in names]), compression="none") as out:
            for group in range(start, stop, row_group):
                size = min(stop, group + row_group) - group
                table = pa.table({n: rng.standard_normal(size) for n in names})
                out.write_table(table, row_group_size=size)
        written += path.stat().st_size
    return written


def first_files(directory: Path, rows: int, rows_per_file: int) -> list[str]:
    files = sorted(str(p) for p in directory.glob("part-*.parquet"))
    return files[: max(1, -(-rows // rows_per_file))]


# ------------------------------------------------------------------------- the ALE stages
def aleplot_edges(engine, features) -> dict:
    """ALEPlot's interval edges of each feature, by exact order statistics (two or three passes)."""
    checks = column_checks(engine, features)
    probs = r_seq(1.0 / K, 1.0, K)
    wanted = {
        name: np.concatenate(([0], quantile_type1_positions(checks[name].n_finite, probs))) for name in features
    }
    stats = order_statistics_of(engine, wanted, checks=checks)
    return {name: np.unique(stats[name]) for name in features}


def ale_block(block: pd.DataFrame, offset: int, *, edges: dict):
    """Per feature: sums of f(upper edge) - f(lower edge) and rows, per interval (the map stage)."""
    values = block[FEATURES].to_numpy(dtype=float)
    out = {}
    for j, name in enumerate(FEATURES):
        z = edges[name]
        bins = bin_right_closed(values[:, j], z)
        frame = pd.DataFrame(values, columns=FEATURES, copy=True)
        frame.iloc[:, j] = z[bins]
        low = cheap_model(frame)
        frame.iloc[:, j] = z[bins + 1]
        high = cheap_model(frame)
        out[name] = (
            np.bincount(bins, weights=high - low, minlength=z.shape[0] - 1),
            np.bincount(bins, minlength=z.shape[0] - 1).astype(np.int64),
        )
    return out


def ale_map_stage(engine, edges: dict) -> dict:
    import functools

    return engine.map_reduce(functools.partial(ale_block, edges=edges), add_results)


def accumulate(sums: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """ALEPlot's accumulation and centring of one feature."""
    effects = np.concatenate(([0.0], np.cumsum(sums / counts)))
    return effects - np.sum((effects[:-1] + effects[1:]) / 2 * counts) / counts.sum()


# ------------------------------------------------------------------------- one engine, in a child
class PeakRSS:
    """Peak resident memory of this process and all its descendants, sampled every 0.1 s."""

    def __init__(self):
        import psutil

        self.process = psutil.Process()
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _sample(self) -> int:
        total = 0
        for proc in [self.process, *self.process.children(recursive=True)]:
            try:
                total += proc.memory_info().rss
            except Exception:  # noqa: BLE001 - a child that just ended
                pass
        return total

    def _run(self):
        while not self._stop.is_set():
            self.peak = max(self.peak, self._sample())
            self._stop.wait(0.1)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, self._sample())


def make_engine(kind: str, files: list[str], args):
    if kind == "pandas":
        from pyale._engines import PandasEngine

        frame = pd.concat([pd.read_parquet(f) for f in files], ignore_index=True)
        return PandasEngine(frame), frame, None
    if kind == "dask":
        import dask.dataframe as dd

        from pyale._engines.dask import DaskEngine

        ddf = dd.read_parquet(files)
        return DaskEngine(ddf, scheduler=args.scheduler), ddf, None
    if kind == "spark":
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        os.environ["PYTHONPATH"] = os.pathsep.join([str(HERE), str(HERE.parent), os.environ.get("PYTHONPATH", "")])
        import warnings

        warnings.filterwarnings("ignore", category=FutureWarning)
        from pyspark.sql import SparkSession

        from pyale._engines.spark import SparkEngine

        spark = (
            SparkSession.builder.master("local[2]")
            .appName("pyale-bench")
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .getOrCreate()
        )
        spark.sparkContext.setLogLevel("ERROR")
        sdf = spark.read.parquet(*files)
        return SparkEngine(sdf), sdf, spark
    if kind == "polars":
        import polars as pl

        from pyale._engines.polars import PolarsLazyEngine

        lf = pl.scan_parquet(files)
        return PolarsLazyEngine(lf), lf, None
    raise ValueError(kind)


def run_child(kind: str, files: list[str], args) -> dict:
    """Time one engine; returns a JSON-able dict."""
    with PeakRSS() as rss:
        start = time.perf_counter()
        engine, data, session = make_engine(kind, files, args)
        n_rows = engine.n_rows
        opened = time.perf_counter()
        cpu_opened = time.process_time()
        load_before = os.getloadavg()[0]
        results = None
        if args.api:  # the real thing: pyale.ale on the engine's data frame
            import pyale

            results = pyale.ale(api_model, data, [*FEATURES, PAIR], n_intervals=K)
            summaries = opened
            sums = edges = None
        else:
            edges = aleplot_edges(engine, FEATURES)
            summaries = time.perf_counter()
            sums = ale_map_stage(engine, edges)
        done = time.perf_counter()
        cpu_done = time.process_time()
        if session is not None:
            session.stop()
    out = {
        "engine": kind,
        "rows": n_rows,
        "open_s": opened - start,
        "summaries_s": summaries - opened,
        "map_s": done - summaries,
        "total_s": done - opened,
        "cpu_s": cpu_done - cpu_opened,
        "rows_per_s": n_rows / (done - opened),
        "peak_rss_gb": rss.peak / GB,
        "load": [load_before, os.getloadavg()[0]],
    }
    if results is not None:
        out["edges"] = {" x ".join(r.features): [list(map(float, g)) for g in r.grid] for r in results}
        out["counts"] = {" x ".join(r.features): np.asarray(r.counts).tolist() for r in results}
        out["effects"] = {" x ".join(r.features): r.effects.ravel().tolist() for r in results}
    if sums is not None:
        out["edges"] = {k: v.tolist() for k, v in edges.items()}
        out["counts"] = {k: v[1].tolist() for k, v in sums.items()}
        out["effects"] = {k: accumulate(*v).tolist() for k, v in sums.items()}
    return out


def _memory_gb() -> float:
    import psutil

    return psutil.virtual_memory().total / GB


def _versions() -> str:
    out = []
    for name in ("dask", "pyspark", "polars"):
        try:
            module = __import__(name)
        except ImportError:
            continue
        out.append(f", {name} {module.__version__}")
    return "".join(out)


# ------------------------------------------------------------------------- driver
def child(kind: str, files: list[str], args) -> dict:
    command = [sys.executable, __file__, "--child", kind, "--files-json", json.dumps(files),
               "--scheduler", args.scheduler] + (["--api"] if args.api else [])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(HERE.parent), env.get("PYTHONPATH", "")])
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise RuntimeError(f"the {kind} run failed:\n{done.stderr[-4000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def compare(a: dict, b: dict) -> str:
    """Edges and counts identical, effects close (sums added in another order)."""
    if a.get("edges") is None or b.get("edges") is None or a["rows"] != b["rows"]:
        return ""
    keys = list(b["edges"])
    same = all(a["edges"][f] == b["edges"][f] and a["counts"][f] == b["counts"][f] for f in keys)
    gap = max(
        float(np.max(np.abs(np.subtract(a["effects"][f], b["effects"][f])))
              / max(float(np.max(np.abs(b["effects"][f]))), 1e-300)) for f in keys
    )
    return f"edges and counts {'identical' if same else 'DIFFER'}; effects within {gap:.1e} of their largest value"


def table(results: list[dict], notes: list[str], api: bool = False) -> str:
    if api:
        lines = ["| engine | rows | open (s) | pyale.ale (s) | CPU (s) | rows/s | peak RSS (GB) | load before, after |",
                 "|---|---:|---:|---:|---:|---:|---:|---|"]
        for r in results:
            load = r.get("load", [float("nan")] * 2)
            cpu = f"{r['cpu_s']:.1f}" if "cpu_s" in r else ""
            lines.append(
                f"| {r['engine']} | {r['rows']:,} | {r['open_s']:.1f} | {r['total_s']:.1f} | {cpu} | {r['rows_per_s']:,.0f} "
                f"| {r['peak_rss_gb']:.2f} | {load[0]:.1f}, {load[1]:.1f} |"
            )
        return "\n".join(lines + [""] + [f"- {n}" for n in notes if n])
    lines = [
        "| engine | rows | open (s) | summaries (s) | map (s) | total (s) | rows/s | peak RSS (GB) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        lines.append(
            f"| {r['engine']} | {r['rows']:,} | {r['open_s']:.1f} | {r['summaries_s']:.1f} | {r['map_s']:.1f} "
            f"| {r['total_s']:.1f} | {r['rows_per_s']:,.0f} | {r['peak_rss_gb']:.2f} |"
        )
    return "\n".join(lines + [""] + [f"- {n}" for n in notes if n])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--rows-per-file", type=int, default=2_000_000)
    parser.add_argument("--row-group", type=int, default=500_000)
    parser.add_argument("--pandas-rows", type=int, default=None, help="rows for pandas (default: all)")
    parser.add_argument("--spark-rows", type=int, default=None, help="rows for Spark (default: min(rows, 5e6))")
    parser.add_argument("--engines", default="dask,pandas,spark")
    parser.add_argument("--scheduler", default="threads")
    parser.add_argument("--dir", type=Path, default=None, help="where to write the data (a temporary directory)")
    parser.add_argument("--keep", action="store_true", help="keep the data")
    parser.add_argument("--api", action="store_true", help="call pyale.ale on the engine's data frame")
    parser.add_argument("--json", type=Path, default=None, help="also write the results as JSON")
    parser.add_argument("--doc", action="store_true", help="with --api: write the table into docs/performance.md")
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--files-json", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.child:
        print(json.dumps(run_child(args.child, json.loads(args.files_json), args)))
        return 0

    directory = args.dir or Path(tempfile.mkdtemp(prefix="pyale-bench-"))
    data_dir = directory / "data"
    try:
        start = time.perf_counter()
        size = write_dataset(data_dir, args.rows, args.rows_per_file, args.row_group)
        notes = [f"data: {args.rows:,} rows x {N_COLUMNS} float64 columns, {size / GB:.2f} GB of Parquet "
                 f"({args.rows_per_file:,} rows per file, row groups of {args.row_group:,}), written in "
                 f"{time.perf_counter() - start:.0f} s; model: bench_ale.cheap_model on {len(FEATURES)} "
                 f"columns; {len(FEATURES)} features{' and the pair ' + repr(PAIR) + ' (pyale.ale)' if args.api else ''}, "
                 f"K = {K}; {os.cpu_count()} CPUs; Dask scheduler "
                 f"{args.scheduler!r}; Spark local[2]"]
        rows_for = {
            "dask": args.rows,
            "pandas": args.pandas_rows or args.rows,
            "spark": args.spark_rows or min(args.rows, 5_000_000),
            "polars": args.rows,
        }
        results = {}
        for kind in args.engines.split(","):
            files = first_files(data_dir, rows_for[kind], args.rows_per_file)
            print(f"running {kind} on {len(files)} file(s) ...", file=sys.stderr, flush=True)
            results[kind] = child(kind, files, args)
        if "pandas" in results:
            for kind in ("dask", "spark", "polars"):
                if kind in results:
                    ratio = results[kind]["rows_per_s"] / results["pandas"]["rows_per_s"]
                    agree = compare(results[kind], results["pandas"])
                    notes.append(f"{kind}: {ratio:.2f}x pandas' rows/s" + (f"; {agree}" if agree else ""))
        if "dask" in results:
            peak = results["dask"]["peak_rss_gb"]
            notes.append(f"dask peak RSS {peak:.2f} GB ({'under' if peak < 4 else 'OVER'} the 4 GB target)")
        if "polars" in results:
            peak = results["polars"]["peak_rss_gb"]
            notes.append(f"polars peak RSS {peak:.2f} GB ({'under' if peak < 4 else 'OVER'} the 4 GB target)")
            if "dask" in results:
                ratio = results["polars"]["rows_per_s"] / results["dask"]["rows_per_s"]
                agree = compare(results["polars"], results["dask"])
                cpu = results["dask"]["cpu_s"] / results["polars"]["cpu_s"]
                notes.append(f"polars: {ratio:.2f}x dask's rows/s ({cpu:.2f}x per CPU second), "
                             f"{peak / results['dask']['peak_rss_gb']:.2f}x its peak RSS"
                             + (f"; against dask: {agree}" if agree else ""))
        ordered = list(results.values())
        text = table(ordered, notes, api=args.api)
        print(text)
        if args.doc and args.api:
            import datetime
            import platform

            command = "python benchmarks/bench_engines.py " + " ".join(argv if argv is not None else sys.argv[1:])
            header = (f"Generated {datetime.date.today().isoformat()} by `{command}`.\n\n"
                      f"Machine: {platform.machine()}, {os.cpu_count()} cores, "
                      f"{_memory_gb():.0f} GB of memory, {platform.system()}; Python {platform.python_version()}, "
                      f"pandas {pd.__version__}, NumPy {np.__version__}{_versions()}.\n\n")
            write_section(ROOT / "docs" / "performance.md", BEGIN, END, header + text + "\n")
        if args.json:
            args.json.write_text(json.dumps({"results": ordered, "notes": notes}, indent=1))
    finally:
        if not args.keep:
            shutil.rmtree(data_dir, ignore_errors=True)
            if args.dir is None:
                shutil.rmtree(directory, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
