"""More ``ale::ALE`` cases: where released ``ale`` is wrong (``pyale.ALE(..., replicate_r_bugs=True)`` repeats
it), and the rest of ALE's surface (``exclude_cols``, ``output_boot_data``, ``sample_size``).

Used by ``scripts/make_ale_extra_fixtures.py`` (R) and
``tests/parity/test_ale_extra.py`` (pyale).  Each model is written once in R
(``R_MODELS``) and once in Python (``PY_MODELS``); factor codes are R's
``as.integer`` (1-based, in level order).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = ["RBugCase", "CASES", "R_MODELS", "PY_MODELS", "make_data"]


@dataclass(frozen=True)
class RBugCase:
    name: str
    model: str
    x_cols: tuple
    boot_it: int = 0
    seed_ale: int = 0
    max_num_bins: int = 10
    seed: int = 20261125
    n: int = 40
    affected: tuple = ()  # terms whose numbers R gets wrong
    exclude_cols: tuple = ()
    output_boot_data: bool = False
    sample_size: int = 500
    invert: bool = False  # also record invert_probs(res) (ale >= 0.5.2)
    y: str = "y"
    note: str = ""


CASES = [
    RBugCase("rb_binary_numbers", "binary_num", ("b", "x:b"), affected=("b", "x:b"),
             note="case 2: b is 0/1 as numbers and the model is not additive in b"),
    RBugCase("rb_binary_numbers_boot", "binary_num", ("b", "x"), boot_it=6, seed_ale=4, affected=("b",),
             note="cases 1 and 2 together; x's bootstrap is right"),
    RBugCase("rb_categorical_boot", "levels", ("g", "l", "o", "x:g"), boot_it=8, seed_ale=1, max_num_bins=6,
             affected=("g", "l", "o", "x:g"),
             note="case 1: the bootstrap of a factor, a logical and an ordered factor, and of a pair with a factor"),
    RBugCase("surface_boot_data", "levels", ("x", "g", "l", "x:g", "x:l"), boot_it=5, seed_ale=9, max_num_bins=5,
             exclude_cols=("l", "x:l"), output_boot_data=True, sample_size=25, n=30, affected=("g", "x:g"),
             note="exclude_cols, output_boot_data (1-D and 2-D, numeric and factor) and sample_size < n"),
    RBugCase("probabilities_inverted", "probability", ("x", "g", "x:g"), boot_it=4, seed_ale=2, max_num_bins=6,
             invert=True, y="yb", affected=("g", "x:g"),
             note="a probability model of a 0/1 response; invert_probs() (ale 0.5.2) on it"),
    RBugCase("binary_predictions", "two_values", ("x", "g"), y="yb",
             note="predictions with two values: ale 0.5.0 refuses them, 0.5.2 accepts numeric binary predictions"),
]

R_MODELS = {
    "probability": "stats::plogis(newdata$x - 1 + 0.5 * as.integer(newdata$g) - newdata$b)",
    "two_values": "as.numeric(newdata$x + 0.3 * as.integer(newdata$g) > 1.2)",
    "binary_num": "newdata$x * (1 + 2 * newdata$b) + newdata$b",
    "levels": ("newdata$x * as.integer(newdata$g) + 0.5 * as.integer(newdata$g)^2 + newdata$l * newdata$x + "
               "newdata$x * as.integer(newdata$o)"),
}


def _codes(column: pd.Series) -> np.ndarray:
    return column.cat.codes.to_numpy(dtype=float) + 1.0


PY_MODELS = {
    "probability": lambda object, newdata, type: 1 / (1 + np.exp(-(
        newdata["x"].to_numpy(dtype=float) - 1 + 0.5 * _codes(newdata["g"]) - newdata["b"].to_numpy(dtype=float)))),
    "two_values": lambda object, newdata, type: (
        newdata["x"].to_numpy(dtype=float) + 0.3 * _codes(newdata["g"]) > 1.2).astype(float),
    "binary_num": lambda object, newdata, type: newdata["x"].to_numpy(dtype=float) * (
        1 + 2 * newdata["b"].to_numpy(dtype=float)) + newdata["b"].to_numpy(dtype=float),
    "levels": lambda object, newdata, type: (
        newdata["x"].to_numpy(dtype=float) * _codes(newdata["g"]) + 0.5 * _codes(newdata["g"]) ** 2
        + newdata["l"].to_numpy(dtype=float) * newdata["x"].to_numpy(dtype=float)
        + newdata["x"].to_numpy(dtype=float) * _codes(newdata["o"])),
}


def make_data(seed: int, n: int) -> pd.DataFrame:
    """x (3 decimals), b (0/1 numbers), g (factor), l (logical), o (ordered factor) tied to x, and y."""
    rng = np.random.default_rng(seed)
    x = np.round(rng.uniform(0, 2, n), 3)
    b = (rng.uniform(size=n) < 0.3 + 0.2 * x).astype(float)
    g = pd.Categorical.from_codes(np.clip((x * 1.5 + rng.normal(0, 0.5, n)).astype(int), 0, 2),
                                  categories=["p", "q", "r"])
    l = rng.uniform(size=n) < 0.5
    o = pd.Categorical.from_codes(rng.integers(0, 3, n), categories=["low", "mid", "high"], ordered=True)
    y = x + b + rng.normal(0, 0.3, n)
    yb = (rng.uniform(size=n) < 1 / (1 + np.exp(-(x - 1)))).astype(float)
    return pd.DataFrame({"x": x, "b": b, "g": g, "l": l, "o": o, "y": y, "yb": yb})
