"""Cases for the options of ``ale``'s development version (``fct_order``, ``aled_fun``, per-column ``max_num_bins``).

Used by ``scripts/make_ale_dev_fixtures.py`` (R, the development build) and
``tests/test_ale_dev.py`` (pyale).  The model is written once in R
(``R_MODEL``) and once in Python (``py_model``); it is not additive in the
categorical features, so their level order changes their effects.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = ["DevCase", "CASES", "R_MODEL", "py_model", "make_data", "R_EFFECTS"]

#: The factor's per-level slope on x (levels a, b, c, d).
R_EFFECTS = {"a": 0.0, "b": 2.0, "c": -1.5, "d": 0.7}

R_MODEL = ("fe <- c(a = 0, b = 2, c = -1.5, d = 0.7)[as.character(newdata$f)]; "
           "newdata$x * fe + newdata$z^2 + (newdata$s == 'q') * newdata$x + 0.5 * fe * newdata$z")


def py_model(object, newdata, type="response"):
    fe = newdata["f"].astype(str).map(R_EFFECTS).to_numpy(dtype=float)
    x, z = newdata["x"].to_numpy(dtype=float), newdata["z"].to_numpy(dtype=float)
    return x * fe + z ** 2 + (newdata["s"].astype(str).to_numpy() == "q") * x + 0.5 * fe * z


@dataclass(frozen=True)
class DevCase:
    name: str
    fct_order: object  # a string or {"default": ..., "except": {...}}
    aled_fun: str = "mad"
    max_num_bins: object = 10
    x_cols: tuple = ("x", "f", "s", "z", "x:f")
    seed: int = 20261126
    n: int = 48
    text: bool = False  # s as text (R: character) rather than a factor with levels p, q, r
    unused: bool = False  # f with a fifth level "e" that no row has
    note: str = ""


CASES = [
    DevCase("dev_levels", "levels", note="fct_order = 'levels' (the development version's default)"),
    DevCase("dev_y_col", "y_col", note="fct_order = 'y_col': levels by increasing mean response"),
    DevCase("dev_ksd", "ksd", note="fct_order = 'ksd': ALEPlot's order, 0.5.x's only order"),
    DevCase("dev_sd_bins", {"default": "levels", "except": {"f": "y_col"}}, aled_fun="sd",
            max_num_bins={"default": 5, "except": {"x": 8}},
            note="per-column fct_order and max_num_bins, aled_fun = 'sd'"),
    DevCase("dev_text", "levels", x_cols=("x", "s"), text=True,
            note="a text column under fct_order = 'levels' (the development version bins its rows by first "
                 "appearance)"),
    DevCase("dev_unused_level", "y_col", x_cols=("x", "f", "x:f"), unused=True,
            note="a factor with an unused level under fct_order = 'y_col' (the level is dropped)"),
    DevCase("dev_text_ksd", "ksd", x_cols=("x", "s"), text=True,
            note="a text column under fct_order = 'ksd' (the development version fails: a text column has no levels)"),
]


def make_data(seed: int, n: int, text: bool = False, unused: bool = False) -> pd.DataFrame:
    """x, z numeric; f a factor (levels a-d); s levels p, q, r, first row 'r' (appearance order not sorted),
    a Categorical or (``text``) text; y."""
    rng = np.random.default_rng(seed)
    f = rng.choice(list("abcd"), n)
    s = rng.choice(["p", "q", "r"], n)
    s[0], s[1] = "r", "q"
    data = pd.DataFrame({"x": rng.normal(size=n).round(3), "f": pd.Categorical(f, categories=list("abcde" if unused else "abcd")),
                         "s": pd.Series(s, dtype=object) if text else pd.Categorical(s, categories=["p", "q", "r"]), "z": rng.uniform(-1, 1, n).round(3)})
    data["y"] = py_model(None, data) + rng.normal(scale=0.3, size=n).round(3)
    return data


def r_option(value) -> str:
    """A case's option as R code (``list(default = , except = c(...))`` for the per-column form)."""
    def one(v):
        return f'"{v}"' if isinstance(v, str) else str(v)
    if isinstance(value, dict):
        parts = ", ".join(f"{k} = {one(v)}" for k, v in value["except"].items())
        return f"list(default = {one(value['default'])}, except = c({parts}))"
    return one(value)
