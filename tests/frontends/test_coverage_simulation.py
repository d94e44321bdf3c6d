"""Do the bootstrap bands cover what they claim, at about the nominal rate?

A known model and data distribution: x1 uniform on (0, 1), x2 standard
normal and independent of x1, the fixed model ``f(x) = x1**2 + x1 * x2``.
Given the grid ``z`` (the full data's), the ALE difference between grid
points ``a`` and ``b`` estimates ``z_b**2 - z_a**2`` exactly, up to the
within-interval means of x2 (``sum_k (z_k - z_{k-1}) * mean_k(x2)``), whose
expectation is 0.  A data bootstrap with the model fixed should cover that
difference in about ``ci_level`` of the data sets.

The default run draws 400 data sets (binomial standard error about 0.011 at
0.95); set ``PYALE_SIMULATIONS`` to a larger number for a tighter check
(e.g. 4000: about 0.0034).
"""

from __future__ import annotations

import os

import numpy as np
import pandas as pd

import pyale

SIMULATIONS = int(os.environ.get("PYALE_SIMULATIONS", "400"))


def _model(frame: pd.DataFrame) -> np.ndarray:
    x1, x2 = frame["x1"].to_numpy(), frame["x2"].to_numpy()
    return x1**2 + x1 * x2


def test_data_bootstrap_covers_the_difference_at_the_nominal_rate():
    rng = np.random.default_rng(20261123)
    level = 0.9
    a, b = 1, 5
    covered = 0
    for _ in range(SIMULATIONS):
        n = 300
        X = pd.DataFrame({"x1": rng.uniform(size=n), "x2": rng.normal(size=n)})
        result = pyale.ale(_model, X, "x1", n_intervals=6, n_bootstrap=200, random_state=rng, ci_level=level)
        z = result.grid[0]
        truth = z[b] ** 2 - z[a] ** 2
        differences = result.replicates[:, b, 0] - result.replicates[:, a, 0]
        low, high = np.quantile(differences, [(1 - level) / 2, (1 + level) / 2])
        covered += low <= truth <= high
    rate = covered / SIMULATIONS
    standard_error = np.sqrt(level * (1 - level) / SIMULATIONS)
    # The percentile bootstrap of a mean is slightly narrow in small samples (it
    # uses n, not n - 1, and ignores skewness): allow 4 standard errors below.
    assert level - 4 * standard_error - 0.01 <= rate <= level + 3 * standard_error, rate


def test_model_bootstrap_covers_the_true_slope_of_a_linear_model():
    from sklearn.linear_model import LinearRegression

    rng = np.random.default_rng(7)
    level = 0.9
    covered = 0
    runs = max(SIMULATIONS // 4, 60)
    for _ in range(runs):
        n = 120
        X = pd.DataFrame({"x1": rng.normal(size=n), "x2": rng.normal(size=n)})
        y = 2.0 * X["x1"] - X["x2"] + rng.normal(scale=2.0, size=n)
        result = pyale.model_bootstrap(
            lambda rows, target: LinearRegression().fit(rows, target), X, y.to_numpy(), "x1",
            n_bootstrap=150, random_state=rng, ci_level=level, n_intervals=4,
        )
        z = result.grid[0]
        truth = 2.0 * (z[-1] - z[0])  # the true model's ALE difference across the grid
        differences = result.replicates[:, -1, 0] - result.replicates[:, 0, 0]
        low, high = np.quantile(differences, [(1 - level) / 2, (1 + level) / 2])
        covered += low <= truth <= high
    rate = covered / runs
    standard_error = np.sqrt(level * (1 - level) / runs)
    assert level - 4 * standard_error - 0.02 <= rate <= level + 4 * standard_error, rate
