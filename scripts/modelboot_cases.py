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

__all__ = ["ModelBootCase", "CASES", "HELD_BACK_SEEDS", "make_data", "statsmodels_fit", "statsmodels_refit",
           "statsmodels_random_refit", "r_fit_code", "r_model_call_string", "with_seeds"]


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
    # R's ale_p: ALEpDist(fit, train, rand_it = , seed = , parallel = 0) passed to ModelBoot; {"auto": True} is
    # R's default ale_p = 'auto'; {} is ale_p = NULL
    ale_p: dict = field(default_factory=dict)
    # a refit that fails on every resample without this (0-based) row of the data (R: model_call_string
    # 'if (!any(boot_data$x2 == <its x2>)) stop(...) else <the fit>'); None: no planned failures
    fail_without_row: int | None = None


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
    ModelBootCase("lm_ale_p", "mixed", 12, 70, "y ~ x1 + x2 + g", "gaussian", 4, 2,
                  ale_options={"aler_alpha": [0.02, 0.1]}, ale_p={"rand_it": 100, "seed": 3},
                  note="ale_p: an ALEpDist of the same lm (100 refits); R's y_summary gains the ALER rows, its "
                       "statistics no p-values (data seed 12: model_select picks the normal family, whose fit is R's to rounding)"),
    ModelBootCase("lm_ale_p_auto", "mixed", 13, 60, "y ~ x1 + x2 + g", "gaussian", 3, 5,
                  ale_p={"auto": True},
                  note="R's default ale_p = 'auto': a surrogate ALEpDist (100 refits of R's surrogate glm, ModelBoot's "
                       "seed) made before the refits (data seed 13: the normal family)"),
    ModelBootCase("lm_failing_refits", "mixed", 6, 50, "y ~ x1 + x2 + g", "gaussian", 6, 4, fail_without_row=9,
                  note="the refit fails on the resamples without row 10 (R: model_call_string that stops); R "
                       "skips those iterations"),
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


def statsmodels_refit(case: ModelBootCase, data: pd.DataFrame):
    """The refit pyale.ModelBoot gets: the case's fit, raising where R's model_call_string stops."""
    if case.fail_without_row is None:
        return lambda d: statsmodels_fit(case, d)
    marker = float(data["x2"].iloc[case.fail_without_row])

    def refit(boot_data: pd.DataFrame):
        if not (boot_data["x2"] == marker).any():
            raise RuntimeError(f"planned failure: row {case.fail_without_row + 1} is not in the resample")
        return statsmodels_fit(case, boot_data)

    return refit


def statsmodels_random_refit(case: ModelBootCase):
    """ALEpDist's refit: the case's model with ``+ random_variable`` (R's automatic random model call)."""
    import statsmodels.api as sm
    import statsmodels.formula.api as smf

    formula = case.formula + " + random_variable"
    if case.family == "gaussian":
        return lambda d: smf.ols(formula, d).fit()
    return lambda d: smf.glm(formula, d, family=sm.families.Binomial()).fit(tol=1e-14, maxiter=100)


def r_model_call_string(case: ModelBootCase, data: pd.DataFrame) -> str | None:
    """R's ``model_call_string`` for a case with planned failures (the same test as statsmodels_refit)."""
    if case.fail_without_row is None:
        return None
    marker = float(data["x2"].iloc[case.fail_without_row]).hex()
    fit = r_fit_code(case).split("<- ", 1)[1].replace("data = train", "data = boot_data")
    return (f"if (!any(boot_data$x2 == {marker})) stop('planned failure: row {case.fail_without_row + 1} is not "
            f"in the resample') else {fit}")


def r_fit_code(case: ModelBootCase) -> str:
    """R code fitting the case's model on ``train`` as ``fit`` (its call is what ModelBoot re-evaluates)."""
    if case.family == "gaussian":
        return f"fit <- lm({case.formula}, data = train)"
    return (f"fit <- glm({case.formula}, data = train, family = binomial, "
            "control = glm.control(epsilon = 1e-14, maxit = 100))")
