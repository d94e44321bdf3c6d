"""The ModelBoot cases: data made in Python from a seed, a model both R and statsmodels fit alike.

Used by ``scripts/make_modelboot_fixtures.py`` (R's numbers) and by
``tests/parity/test_modelboot_fixtures.py`` (pyale's).  R fits ``lm`` or ``glm``
(binomial, with ``glm.control(epsilon = 1e-14, maxit = 100)`` so that both
IRLS loops converge to the same doubles); statsmodels fits ``ols`` or ``glm``
(Binomial, ``tol=1e-14``) with the same formula.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

__all__ = ["ModelBootCase", "CASES", "HELD_BACK_SEEDS", "make_data", "statsmodels_fit", "r_fit_code", "with_seeds"]


@dataclass(frozen=True)
class ModelBootCase:
    name: str
    data: str  # a make_data recipe
    seed: int  # of the data
    n: int
    formula: str
    family: str  # "gaussian" (lm) or "binomial" (glm)
    boot_it: int
    boot_seed: int
    ale_options: dict = field(default_factory=dict)  # x_cols (list of terms), max_num_bins
    boot_alpha: float = 0.05
    boot_centre: str = "mean"
    note: str = ""


CASES = [
    ModelBootCase("lm_three_kinds", "mixed", 1, 60, "y ~ x1 + x2 + g", "gaussian", 5, 3,
                  note="x1 has 3 decimals (R's rounded ceilings change nothing), x2 full doubles (they do), "
                       "g a factor whose ALE order differs from its level order"),
    ModelBootCase("lm_pair_logical", "pair", 2, 50, "y ~ x1 * x2 + z", "gaussian", 4, 11,
                  ale_options={"x_cols": ["x1", "z", "x1:x2"], "max_num_bins": 6}, boot_alpha=0.1,
                  boot_centre="median"),
    ModelBootCase("glm_binary", "binary", 3, 80, "y ~ x1 + x2", "binomial", 5, 0),
    ModelBootCase("lm_no_boot", "pair", 4, 30, "y ~ x1 + x2 + z", "gaussian", 0, 0,
                  ale_options={"x_cols": ["x1", "x2"]}),
]


# (data seed, resample seed) pairs no fixture uses: the live tests run R on them
HELD_BACK_SEEDS = [(101, 7), (202, 123456)]


def with_seeds(case: ModelBootCase, data_seed=None, boot_seed=None) -> ModelBootCase:
    """The case with other seeds (held-back variants)."""
    return replace(case, seed=case.seed if data_seed is None else int(data_seed),
                   boot_seed=case.boot_seed if boot_seed is None else int(boot_seed))


def make_data(recipe: str, seed: int, n: int) -> pd.DataFrame:
    """The case's data frame (pure NumPy from ``seed``)."""
    rng = np.random.default_rng(seed)
    if recipe == "mixed":
        x1 = np.round(rng.uniform(size=n), 3)
        x2 = rng.normal(size=n)
        g = pd.Categorical(rng.choice(["a", "b", "c"], size=n), categories=["a", "b", "c"])
        y = 1 + 2 * x1 - x2 + 1.5 * (np.asarray(g) == "b") - 0.5 * (np.asarray(g) == "c") + x2 * (np.asarray(g) == "a") \
            + rng.normal(size=n)
        return pd.DataFrame({"x1": x1, "x2": x2, "g": g, "y": y})
    if recipe == "pair":
        x1 = np.round(rng.uniform(-1, 1, size=n), 2)
        x2 = np.round(rng.normal(size=n), 2)
        z = rng.uniform(size=n) < 0.4
        y = x1 - 0.5 * x2 + 1.5 * x1 * x2 + 0.8 * z + rng.normal(scale=0.5, size=n)
        return pd.DataFrame({"x1": x1, "x2": x2, "z": z, "y": y})
    if recipe == "binary":
        x1 = np.round(rng.normal(size=n), 2)
        x2 = np.round(rng.uniform(size=n), 2)
        eta = -0.3 + 1.2 * x1 - 2 * (x2 - 0.5)
        y = (rng.uniform(size=n) < 1 / (1 + np.exp(-eta))).astype(float)
        return pd.DataFrame({"x1": x1, "x2": x2, "y": y})
    raise ValueError(recipe)


def statsmodels_fit(case: ModelBootCase, data: pd.DataFrame):
    """The case's model fitted by statsmodels on ``data`` (also the refit)."""
    import statsmodels.api as sm
    import statsmodels.formula.api as smf

    if case.family == "gaussian":
        return smf.ols(case.formula, data).fit()
    return smf.glm(case.formula, data, family=sm.families.Binomial()).fit(tol=1e-14, maxiter=100)


def r_fit_code(case: ModelBootCase) -> str:
    """R code fitting the case's model on ``train`` as ``fit`` (its call is what ModelBoot re-evaluates)."""
    if case.family == "gaussian":
        return f"fit <- lm({case.formula}, data = train)"
    return (f"fit <- glm({case.formula}, data = train, family = binomial, "
            "control = glm.control(epsilon = 1e-14, maxit = 100))")
