"""Error rates of :func:`pyale.check_shape` by simulation (shared by the tests and the docs' table).

Data: ``x1`` uniform on (0, 1), ``x2`` normal with standard deviation
``NOISE`` and independent of ``x1``; the fixed model
``f(x) = g(x1) + x1 * x2``.  The population ALE of ``x1`` is ``g`` (up to a
constant: ``E[x2 | x1] = 0``), while each data set's estimate of an
increment carries the mean of ``x2`` over the interval's rows, so a data
bootstrap (``pyale.ale(..., n_bootstrap=)``) has real sampling noise to judge.
Each scenario draws data sets, computes the effect with its bootstrap and
counts the verdicts.

Scenarios (``g``):

- ``flat``: ``g = 0``.  The least favourable truth for "non-decreasing"
  (every increment exactly 0): it should fail in about ``level`` of the
  data sets, and "increasing" (false here) should pass in at most ``level``.
- ``linear``: ``g(x) = x``, truly increasing: "increasing" should almost
  never fail, and pass with high power.
- ``dip``: ``g`` rises with slope 1 except over ``(0.4, 0.6]``, where it
  falls by ``depth``: a planted violation of that size (response units),
  caught ("fail") with the reported power.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

import pyale

NOISE = 2.0
N_ROWS = 300
N_INTERVALS = 10
N_BOOTSTRAP = 200


def dip(depth: float):
    """``g`` with slope 1 and a fall of ``depth`` over (0.4, 0.6]."""
    def g(x):
        x = np.asarray(x, dtype=float)
        inside = np.clip(x - 0.4, 0.0, 0.2)
        after = np.clip(x - 0.6, 0.0, None)
        return np.minimum(x, 0.4) - depth * inside / 0.2 + after
    return g


SCENARIOS = {
    "flat": lambda x: np.zeros_like(np.asarray(x, dtype=float)),
    "linear": lambda x: np.asarray(x, dtype=float),
}


def verdict_counts(g, expect: str, n_sets: int, *, seed: int, level: float = 0.05, n_rows: int = N_ROWS) -> dict:
    """How often each verdict comes out over ``n_sets`` data sets for truth ``g``."""
    rng = np.random.default_rng(seed)
    counts = {"pass": 0, "fail": 0, "inconclusive": 0}

    def model(frame):
        x1, x2 = frame["x1"].to_numpy(), frame["x2"].to_numpy()
        return g(x1) + x1 * x2

    for _ in range(n_sets):
        X = pd.DataFrame({"x1": rng.uniform(size=n_rows), "x2": rng.normal(scale=NOISE, size=n_rows)})
        result = pyale.ale(model, X, "x1", n_intervals=N_INTERVALS, n_bootstrap=N_BOOTSTRAP, random_state=rng)
        verdict = pyale.check_shape(result, {"x1": expect}, level=level).table["verdict"].iloc[0]
        counts[verdict] += 1
    return {k: v / n_sets for k, v in counts.items()}


def error_rate_table(n_sets: int, *, seed: int = 2026, level: float = 0.05) -> pd.DataFrame:
    """The docs' table: verdict rates per scenario and expectation."""
    flat, linear = SCENARIOS["flat"], SCENARIOS["linear"]
    cases = [
        ("flat (g = 0)", flat, "non-decreasing", "holds (boundary)", N_ROWS),
        ("flat (g = 0)", flat, "non-decreasing", "holds (boundary)", N_ROWS // 3),
        ("flat (g = 0)", flat, "increasing", "violated (flat)", N_ROWS),
        ("flat (g = 0)", flat, "positive", "violated (boundary)", N_ROWS),
        ("linear (g = x)", linear, "increasing", "holds", N_ROWS),
        ("linear (g = x)", linear, "increasing", "holds", 4 * N_ROWS),
        ("linear (g = x)", linear, "positive", "holds", N_ROWS),
    ] + [
        (f"dip of {depth:g}", dip(depth), "increasing", "violated", N_ROWS) for depth in (0.05, 0.1, 0.2, 0.4)
    ] + [
        ("dip of 0.1", dip(0.1), "increasing", "violated", 4 * N_ROWS),
    ]
    rows = []
    for i, (name, g, expect, truth, n_rows) in enumerate(cases):
        rates = verdict_counts(g, expect, n_sets, seed=seed + i, level=level, n_rows=n_rows)
        rows.append({"truth": name, "rows": n_rows, "expectation": expect, "expectation is": truth, **rates,
                     "data sets": n_sets})
    return pd.DataFrame(rows)


def model_bootstrap_counts(slope: float, expect: str, n_sets: int, *, seed: int, level: float = 0.05,
                           n_rows: int = 200, n_bootstrap: int = 100) -> dict:
    """Verdict rates with a model bootstrap: a straight line refitted (least squares) on every resample.

    ``y = slope * x1 + x2 + noise`` with ``x1``, ``x2`` standard normal and
    noise of standard deviation 2; the true ALE of ``x1`` is ``slope * x1``.
    """
    rng = np.random.default_rng(seed)
    counts = {"pass": 0, "fail": 0, "inconclusive": 0}

    def fit(rows, target):
        design = np.column_stack([np.ones(len(rows)), rows["x1"], rows["x2"]])
        beta = np.linalg.lstsq(design, target, rcond=None)[0]
        return lambda d: beta[0] + beta[1] * d["x1"].to_numpy() + beta[2] * d["x2"].to_numpy()

    for _ in range(n_sets):
        X = pd.DataFrame({"x1": rng.normal(size=n_rows), "x2": rng.normal(size=n_rows)})
        y = slope * X["x1"].to_numpy() + X["x2"].to_numpy() + rng.normal(scale=2.0, size=n_rows)
        result = pyale.model_bootstrap(fit, X, y, "x1", n_bootstrap=n_bootstrap, random_state=rng, n_intervals=5)
        verdict = pyale.check_shape(result, {"x1": expect}, level=level).table["verdict"].iloc[0]
        counts[verdict] += 1
    return {k: v / n_sets for k, v in counts.items()}


def model_bootstrap_table(n_sets: int, *, seed: int = 2027, level: float = 0.05) -> pd.DataFrame:
    """The docs' second table: the same verdicts under a model bootstrap."""
    cases = [(0.0, "non-decreasing", "holds (boundary)"), (0.0, "increasing", "violated (flat)"),
             (0.5, "increasing", "holds"), (-0.3, "non-decreasing", "violated")]
    rows = []
    for i, (slope, expect, truth) in enumerate(cases):
        rates = model_bootstrap_counts(slope, expect, n_sets, seed=seed + i, level=level)
        rows.append({"true slope": slope, "expectation": expect, "expectation is": truth, **rates,
                     "data sets": n_sets})
    return pd.DataFrame(rows)
