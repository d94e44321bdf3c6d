"""Error rates of pyale.compare by simulation: the permutation test's size and power, the bands' coverage.

    python scripts/compare_error_rates.py [--simulations 1000]

Writes the tables of docs/validation.md ("Error rates of the stability check") to stdout as Markdown.
Model: f(x, z) = x z + sin(3 x); x, z uniform on (0, 1); two segments of equal expected size.
Size: labels independent of the rows (exchangeable segments).  Power: segment 1's z shifted by
``shift`` (the effect of x in segment 1 is steeper by ``shift`` per unit of x).  Coverage: the
simultaneous band of the difference covers the true difference of the two segments' effects
(computed from the model and the segments' distributions on the same grid) at every grid point.
"""

from __future__ import annotations

import argparse

import numpy as np
import pandas as pd

import pyale
from pyale._core.accumulate import numeric_centre


def model(d):
    return d["x"] * d["z"] + np.sin(3 * d["x"])


def data(n, shift, seed):
    rng = np.random.default_rng(seed)
    by = rng.integers(0, 2, size=n)
    return pd.DataFrame({"x": rng.uniform(size=n), "z": rng.uniform(size=n) + shift * by}), by


def size_and_power(simulations, n, shift, permutations):
    p = []
    for sim in range(simulations):
        X, by = data(n, shift, 50_000 + sim)
        r = pyale.compare(model, X, "x", by=by, n_intervals=10, n_bootstrap=0, n_permutations=permutations,
                          random_state=sim)
        p.append(r.p_value[0, 0])
    p = np.array(p)
    return (p <= 0.05).mean(), (p <= 0.10).mean()


def coverage(simulations, n, shift, bootstrap):
    hits = []
    for sim in range(simulations):
        X, by = data(n, shift, 90_000 + sim)
        r = pyale.compare(model, X, "x", by=by, n_intervals=10, n_bootstrap=bootstrap, n_permutations=0,
                          random_state=sim)
        # true effects: E[z | segment] is 0.5 and 0.5 + shift, so f_0 - f_1 = -shift * x (centred)
        truth = numeric_centre((-shift * np.asarray(r.grid))[:, None], r.pooled_counts)[:, 0]
        low, high = r.difference_low[0, :, 0], r.difference_high[0, :, 0]
        hits.append(bool(((low <= truth) & (truth <= high)).all()))
    return np.mean(hits)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--simulations", type=int, default=1000)
    parser.add_argument("--no-coverage", action="store_true", help="only the size and power table")
    args = parser.parse_args()
    S = args.simulations
    print(f"Simulations per cell: {S} (binomial standard error at 5%: {np.sqrt(0.05 * 0.95 / S):.3f})\n")
    print("| rows | shift of z in segment 1 | rejected at 5% | rejected at 10% |")
    print("|---|---|---|---|")
    for n in (200, 1000):
        for shift in (0.0, 0.05, 0.1, 0.2, 0.4):
            five, ten = size_and_power(S, n, shift, 199)
            print(f"| {n} | {shift} | {five:.3f} | {ten:.3f} |", flush=True)
    if args.no_coverage:
        return
    print("\n| rows | bootstrap replicates per segment | shift | simultaneous 95% band covers the true difference |")
    print("|---|---|---|---|")
    for n in (400, 2000):
        for shift in (0.0, 0.4):
            print(f"| {n} | 200 | {shift} | {coverage(S // 2, n, shift, 200):.3f} |", flush=True)


if __name__ == "__main__":
    main()
