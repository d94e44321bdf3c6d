"""Cases for the R-exact building blocks, shared by the fixture generator and the live tests.

Each builder takes a NumPy generator and returns a list of cases: a dict with
the Python inputs, the R expression that computes the reference (with the
inputs bound as R variables), and the name of the pyale function to compare.
Inputs are made in Python so the reference never depends on R's RNG.
"""

from __future__ import annotations

import numpy as np


def _sample(rng: np.random.Generator) -> np.ndarray:
    kind = rng.integers(4)
    n = int(rng.integers(1, 400))
    if kind == 0:
        return rng.normal(size=n) * 10.0 ** int(rng.integers(-3, 4))
    if kind == 1:
        return rng.integers(-5, 6, size=n).astype(float)
    if kind == 2:
        return np.round(rng.exponential(size=n), int(rng.integers(0, 3)))
    return np.arange(1, n + 1, dtype=float)


def seq_cases(rng: np.random.Generator, count: int) -> list[dict]:
    cases = []
    for _ in range(count):
        k = int(rng.integers(1, 120))
        if rng.integers(2):
            start, stop, n = 1.0 / k, 1.0, k
        else:
            start, stop, n = float(rng.normal()), float(rng.normal() * 5), k
        cases.append({"fn": "r_seq", "args": {"start": start, "stop": stop, "length_out": n},
                      "r": "seq(start, stop, length.out = length_out)"})
    for k in (40, 7, 1000):
        cases.append({"fn": "r_seq", "args": {"start": 0.0, "stop": 1.0, "length_out": k + 1},
                      "r": "seq(start, stop, length.out = length_out)"})
    return cases


def quantile_cases(rng: np.random.Generator, count: int) -> list[dict]:
    cases = []
    for i in range(count):
        x = _sample(rng)
        k = int(rng.integers(1, 80))
        if i % 3 == 0:
            probs = np.arange(0, k + 1) / k
            r_probs = "seq(0, 1, length.out = k + 1)"
        else:
            probs = None
            r_probs = "seq(1/k, 1, length.out = k)"
        cases.append({"fn": "quantile_type1", "args": {"x": x.tolist(), "k": k},
                      "probs": r_probs, "r": f"quantile(x, {r_probs}, type = 1, names = FALSE)"})
        cases.append({"fn": "quantile_type7", "args": {"x": x.tolist()},
                      "r": "quantile(x, seq(0, 1, length.out = 100), type = 7, names = FALSE)"})
    x = np.arange(1, 1001, dtype=float)
    cases.append({"fn": "quantile_type1", "args": {"x": x.tolist(), "k": 40},
                  "probs": "seq(1/k, 1, length.out = k)",
                  "r": "quantile(x, seq(1/k, 1, length.out = k), type = 1, names = FALSE)"})
    cases.append({"fn": "quantile_type1", "args": {"x": x.tolist(), "k": 40},
                  "probs": "seq(0, 1, length.out = k + 1)",
                  "r": "quantile(x, seq(0, 1, length.out = k + 1), type = 1, names = FALSE)"})
    return cases


def bin_cases(rng: np.random.Generator, count: int) -> list[dict]:
    cases = []
    for _ in range(count):
        x = _sample(rng)
        edges = np.unique(np.concatenate(([x.min()], rng.choice(x, size=min(x.size, 9)), [x.max()])))
        if edges.size < 2:
            continue
        cases.append({"fn": "bin_right_closed", "args": {"x": x.tolist(), "edges": edges.tolist()},
                      "r": "as.numeric(cut(x, breaks = edges, include.lowest = TRUE)) - 1"})
    return cases


def ecdf_cases(rng: np.random.Generator, count: int) -> list[dict]:
    cases = []
    for _ in range(count):
        x = _sample(rng)
        points = np.concatenate((rng.choice(x, size=5), rng.normal(size=5) * x.std() + x.mean()))
        cases.append({"fn": "ecdf_at", "args": {"sample": x.tolist(), "points": points.tolist()},
                      "r": "ecdf(sample)(points)"})
    return cases


def count_cases(rng: np.random.Generator, count: int) -> list[dict]:
    cases = []
    for _ in range(count):
        n_levels = int(rng.integers(1, 9))
        codes = rng.integers(0, n_levels, size=int(rng.integers(1, 50)))
        cases.append({"fn": "level_counts", "args": {"codes": codes.tolist(), "n_levels": n_levels},
                      "r": "as.numeric(table(factor(codes, levels = 0:(n_levels - 1))))"})
    return cases


def cmdscale_cases(rng: np.random.Generator, count: int) -> list[dict]:
    cases = []
    for _ in range(count):
        n = int(rng.integers(2, 12))
        points = rng.normal(size=(n, int(rng.integers(1, 4))))
        d = np.sqrt(((points[:, None, :] - points[None, :, :]) ** 2).sum(axis=2))
        if rng.integers(2):
            d = np.round(d, 1)
        cases.append({"fn": "cmdscale_1d", "args": {"distances": d.tolist()},
                      "r": "as.numeric(cmdscale(matrix(unlist(distances), nrow = length(distances), byrow = TRUE), k = 1))"})
    return cases


def pretty_cases(rng: np.random.Generator, count: int) -> list[dict]:
    cases = []
    fixed = [(0.0, 0.0, 10), (5.0, 5.0, 10), (-3.0, -2.9999999999, 10), (0.0, 1e-17, 10), (0.0, 1.0, 1)]
    for _ in range(count):
        low = float(rng.normal() * 10.0 ** int(rng.integers(-8, 9)))
        high = low + float(abs(rng.normal()) * 10.0 ** int(rng.integers(-12, 9)))
        fixed.append((low, high, int(rng.integers(1, 15))))
    for low, high, n in fixed:
        cases.append({"fn": "r_pretty", "args": {"low": low, "high": high, "n": n},
                      "r": "pretty(c(low, high), n)"})
    return cases


BUILDERS = {
    "seq": seq_cases,
    "quantile": quantile_cases,
    "bins": bin_cases,
    "ecdf": ecdf_cases,
    "counts": count_cases,
    "cmdscale": cmdscale_cases,
    "pretty": pretty_cases,
}


def pyale_value(case: dict) -> np.ndarray:
    """Evaluate a case with pyale's building block."""
    from pyale import _rbase

    args = dict(case["args"])
    fn = case["fn"]
    if fn == "r_seq":
        return _rbase.r_seq(**args)
    if fn == "quantile_type1":
        k = args["k"]
        if case["probs"].startswith("seq(0"):
            probs = _rbase.r_seq(0.0, 1.0, k + 1)
        else:
            probs = _rbase.r_seq(1.0 / k, 1.0, k)
        return _rbase.quantile_type1(np.asarray(args["x"]), probs)
    if fn == "quantile_type7":
        return _rbase.quantile_type7(np.asarray(args["x"]), _rbase.r_seq(0.0, 1.0, 100))
    if fn == "bin_right_closed":
        return _rbase.bin_right_closed(np.asarray(args["x"]), np.asarray(args["edges"])).astype(float)
    if fn == "ecdf_at":
        return _rbase.ecdf_at(np.asarray(args["sample"]), np.asarray(args["points"]))
    if fn == "level_counts":
        return _rbase.level_counts(np.asarray(args["codes"]), args["n_levels"]).astype(float)
    if fn == "cmdscale_1d":
        return _rbase.cmdscale_1d(np.asarray(args["distances"]))
    if fn == "r_pretty":
        return _rbase.r_pretty(**args)
    raise KeyError(fn)


def r_value(robjects, case: dict) -> np.ndarray:
    """Evaluate a case in R (through rpy2) and return doubles."""
    env = robjects.globalenv
    for name, value in case["args"].items():
        if isinstance(value, list) and value and isinstance(value[0], list):
            env[name] = robjects.r["list"](*[robjects.FloatVector(row) for row in value])
        elif isinstance(value, list):
            env[name] = robjects.FloatVector(value)
        elif isinstance(value, int):
            env[name] = robjects.IntVector([value])
        else:
            env[name] = robjects.FloatVector([value])
    out = robjects.r(f"suppressWarnings(as.double({case['r']}))")
    return np.asarray(out, dtype=float)
