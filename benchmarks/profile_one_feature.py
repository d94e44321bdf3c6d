"""Where a one-feature ALE's time goes: cProfile's cumulative time per stage, per feature.

    PYALE_NUM_THREADS=1 python benchmarks/profile_one_feature.py [--checkout DIR] [--what ale|ALEPlot] [--n N]

The cheap model of ``bench_ale.py``, five features one call each, K = 40.
Run with ``PYALE_NUM_THREADS=1`` so that every pass is timed in the thread
that runs it (cProfile sees only the calling thread); ``--checkout`` times
another checkout's pyale (e.g. main's) with this same script.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
from pathlib import Path

import numpy as np
import pandas as pd

WEIGHTS = np.array([1.0, -2.0, 0.5, 3.0, -1.0])
FEATURES = [f"x{j}" for j in range(5)]


def cheap_model(frame) -> np.ndarray:  # the same formula as bench_ale.py's
    values = frame.to_numpy()
    return values @ WEIGHTS + np.sin(values[:, 0]) * values[:, 1]


STAGES = [  # (label, file, function)
    ("model calls (the cheap model itself)", "profile_one_feature.py", "cheap_model"),
    ("model-call wrapper incl. the model (checks, conversions)", "calls.py", "_checked"),
    ("private copy of X (_copy_rows)", "shifted.py", "_copy_rows"),
    ("shifted column writes (_write)", "shifted.py", "_write"),
    ("grid: interval edges (order_statistics)", "cells.py", "order_statistics"),
    ("  of which the slot map (min, max, slots)", "cells.py", "_slot_map"),
    ("bins (bins_right_closed)", "cells.py", "bins_right_closed"),
    ("axis: bins and counts (numeric_axis)", "main_effect.py", "numeric_axis"),
    ("per-interval sums with the spread (group_sums)", "sums.py", "group_sums"),
    ("finish: accumulate and centre", "aleplot.py", "finish"),
]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkout", default=str(Path(__file__).resolve().parents[1]))
    parser.add_argument("--what", choices=["ale", "ALEPlot"], default="ale")
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    sys.path.insert(0, args.checkout)
    import pyale

    rng = np.random.default_rng(0)
    X = pd.DataFrame({f: rng.normal(size=args.n) for f in FEATURES})

    def run():
        for f in FEATURES:
            if args.what == "ale":
                pyale.ale(cheap_model, X, f, n_intervals=40)
            else:
                pyale.ALEPlot(X, None, lambda m, d: cheap_model(d), J=f, K=40, plot=False)

    run()  # warm: imports, compiled loops
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(args.repeats):
        run()
    profile.disable()
    stats = pstats.Stats(profile).stats
    calls = args.repeats * len(FEATURES)
    whole = sum(v[3] for k, v in stats.items() if k[2] == "run" and k[0].endswith("profile_one_feature.py"))
    print(f"pyale from {pyale.__file__}; ms per feature, n = {args.n:,}")
    print(f"{'whole call':60s} {whole * 1e3 / calls:8.2f}")
    for label, file, name in STAGES:
        ms = sum(v[3] for k, v in stats.items() if k[0].endswith(file) and k[2] == name) * 1e3 / calls
        print(f"{label:60s} {ms:8.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
