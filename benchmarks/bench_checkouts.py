"""One checkout's pyale against the bare predictions, in a process of its own (a lean harness).

    python benchmarks/bench_checkouts.py --checkout DIR [--n N] [--repeats R]

Prints one JSON line: for five one-feature ``pyale.ale`` calls, five
``pyale.ALEPlot`` calls, five ``pyale.FeatureEffect`` calls and one
``pyale.ale`` pair, the median wall and CPU time over the median of their
bare predictions (the frames ALE predicts, built beforehand as in
``bench_ale.py``), and for the one-feature calls pyale's own time per
feature: each call's wall time less the model's own time inside it (the
model's speed drifts on a shared machine; this does not move with it).  Run it for two checkouts (or with
``PYALE_COMPILED=0`` and without) in turn, several rounds, to compare code
versions on a machine whose speed drifts: each process holds only what it
times.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

WEIGHTS = np.array([1.0, -2.0, 0.5, 3.0, -1.0])
FEATURES = [f"x{j}" for j in range(5)]


_MODEL_SECONDS = [0.0]  # the model's own time, added up by every call


def cheap_model(frame) -> np.ndarray:  # the same formula as bench_ale.py's
    start = time.perf_counter()
    values = frame.to_numpy()
    out = values @ WEIGHTS + np.sin(values[:, 0]) * values[:, 1]
    _MODEL_SECONDS[0] += time.perf_counter() - start
    return out


def shifted_frames(X: pd.DataFrame, names) -> list:
    """The frames ALE predicts (as ``bench_ale.shifted_frames``, K = 40)."""
    sides = []
    for name in names:
        x = X[name].to_numpy()
        edges = np.unique(np.quantile(x, np.linspace(0, 1, 41)))
        bins = np.searchsorted(edges, x, side="left") - 1
        bins[x == edges[0]] = 0
        sides.append((name, edges[bins], edges[bins + 1]))
    frames = []
    for corner in np.ndindex(*(2,) * len(sides)):
        frame = X.copy()
        for (name, lower, upper), up in zip(sides, corner):
            frame.iloc[:, X.columns.get_loc(name)] = upper if up else lower
        frames.append(frame)
    return frames


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkout", default=str(Path(__file__).resolve().parents[1]))
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args(argv)
    sys.path.insert(0, args.checkout)
    import pyale

    rng = np.random.default_rng(0)
    X = pd.DataFrame({f: rng.normal(size=args.n) for f in FEATURES})
    singles = [frame for f in FEATURES for frame in shifted_frames(X, [f])]
    corners = shifted_frames(X, ["x0", "x1"])
    predictor = pyale.Predictor(data=X, predict_function=cheap_model)
    fns = {
        "bare": lambda: [cheap_model(frame) for frame in singles],
        "ale": lambda: [pyale.ale(cheap_model, X, f, n_intervals=40) for f in FEATURES],
        "ALEPlot": lambda: [pyale.ALEPlot(X, None, lambda m, d: cheap_model(d), J=f, K=40, plot=False)
                            for f in FEATURES],
        "FeatureEffect": lambda: [pyale.FeatureEffect(predictor, f, grid_size=40) for f in FEATURES],
        "bare pair": lambda: [cheap_model(frame) for frame in corners],
        "ale pair": lambda: pyale.ale(cheap_model, X, ("x0", "x1"), n_intervals=40),
    }
    for fn in fns.values():
        fn()  # warm
    wall = {name: [] for name in fns}
    cpu = {name: [] for name in fns}
    own = {name: [] for name in fns}
    for _ in range(args.repeats):
        for name, fn in fns.items():
            _MODEL_SECONDS[0] = 0.0
            start, start_cpu = time.perf_counter(), time.process_time()
            fn()
            wall[name].append(time.perf_counter() - start)
            cpu[name].append(time.process_time() - start_cpu)
            own[name].append(wall[name][-1] - _MODEL_SECONDS[0])
    out = {"pyale": pyale.__file__, "PYALE_COMPILED": os.environ.get("PYALE_COMPILED", ""), "n": args.n,
           "bare ms per feature": round(statistics.median(wall["bare"]) / len(FEATURES) * 1e3, 2)}
    for name in ("ale", "ALEPlot", "FeatureEffect", "ale pair"):
        bare = "bare pair" if "pair" in name else "bare"
        out[name] = [round(statistics.median(wall[name]) / statistics.median(wall[bare]), 3),
                     round(statistics.median(cpu[name]) / statistics.median(cpu[bare]), 3)]
        if "pair" not in name:  # pyale's own time per feature: each call's wall time less the model's inside it
            out[name + " own ms per feature"] = round(statistics.median(own[name]) / len(FEATURES) * 1e3, 2)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
