"""Cases for the regional-effect fixtures from effector (``scripts/make_effector_regional_fixtures.py``).

Plain NumPy only, so the same file serves the generator (run with effector's
Python) and pyale's tests.  Each model is a closed form written once here,
``f(array (n, d)) -> (n,)`` with its Jacobian; the data are drawn from a
seed with ``numpy.random.default_rng``.  The true regional effects are known
(``TRUTH``), so the tests also check that the curves approach them as n grows.
"""

from __future__ import annotations

import numpy as np

__all__ = ["MODELS", "JACOBIANS", "CASES", "make_data", "TRUTH"]


def conditional_interaction(x):
    """effector's ``models.ConditionalInteraction``: -x1^2 if x2 < 0 else x1^2, plus exp(x3)."""
    return np.where(x[:, 1] < 0, -x[:, 0] ** 2, x[:, 0] ** 2) + np.exp(x[:, 2])


def conditional_interaction_jacobian(x):
    out = np.zeros(x.shape)
    out[:, 0] = np.where(x[:, 1] < 0, -2 * x[:, 0], 2 * x[:, 0])
    out[:, 2] = np.exp(x[:, 2])
    return out


def four_regions(x):
    """effector's ``models.ConditionalInteraction4Regions``: the sign of x1's power set by x3, the power by x2."""
    sign = np.where(x[:, 2] < 0, -1.0, 1.0)
    power = np.where(x[:, 1] < 0, x[:, 0] ** 2, x[:, 0] ** 4)
    return sign * power + np.exp(x[:, 3])


def four_regions_jacobian(x):
    out = np.zeros(x.shape)
    sign = np.where(x[:, 2] < 0, -1.0, 1.0)
    out[:, 0] = sign * np.where(x[:, 1] < 0, 2 * x[:, 0], 4 * x[:, 0] ** 3)
    out[:, 3] = np.exp(x[:, 3])
    return out


def linear_gate(x):
    """3 x1 1[x3 > 0] - 3 x1 1[x3 <= 0] + x2: linear in x1 in each region (exact secants)."""
    return np.where(x[:, 2] > 0, 3 * x[:, 0], -3 * x[:, 0]) + x[:, 1]


def linear_gate_jacobian(x):
    out = np.zeros(x.shape)
    out[:, 0] = np.where(x[:, 2] > 0, 3.0, -3.0)
    out[:, 1] = 1.0
    return out


def level_gate(x):
    """x1 times a slope set by an integer column x4 in {0, 1, 2, 3}: 2 at level 2, else -1; plus x2^2."""
    return np.where(x[:, 3] == 2, 2 * x[:, 0], -x[:, 0]) + x[:, 1] ** 2


def level_gate_jacobian(x):
    out = np.zeros(x.shape)
    out[:, 0] = np.where(x[:, 3] == 2, 2.0, -1.0)
    out[:, 1] = 2 * x[:, 1]
    return out


def level_square(x):
    """x1 (levels 0..4) squared, its sign set by x2 < 0; plus x3: a categorical (ordinal) feature of interest."""
    return np.where(x[:, 1] < 0, -1.0, 1.0) * x[:, 0] ** 2 + x[:, 2]


def level_square_jacobian(x):
    out = np.zeros(x.shape)
    out[:, 0] = np.where(x[:, 1] < 0, -2.0, 2.0) * x[:, 0]
    out[:, 2] = 1.0
    return out


#: Per level of x1 (0..5): its value when x4 == 2, and otherwise (no order of the levels makes either monotone).
LEVEL_TABLE = np.array([[0.0, 3.0, -1.0, 4.0, 1.0, 2.0], [2.0, -2.0, 1.0, 0.0, 3.0, -1.0]])


def level_table(x):
    """A nominal x1 (levels 0..5): its effect read from ``LEVEL_TABLE`` (the row set by x4 == 2), doubled where
    x3 > 0.25 (between two candidate thresholds); plus x2^2."""
    gain = np.where(x[:, 2] > 0.25, 2.0, 1.0)
    return gain * LEVEL_TABLE[np.where(x[:, 3] == 2, 0, 1), x[:, 0].astype(int)] + x[:, 1] ** 2


MODELS = {"conditional_interaction": conditional_interaction, "four_regions": four_regions,
          "linear_gate": linear_gate, "level_gate": level_gate, "level_square": level_square,
          "level_table": level_table}
JACOBIANS = {"level_square": level_square_jacobian, "conditional_interaction": conditional_interaction_jacobian, "four_regions": four_regions_jacobian,
             "linear_gate": linear_gate_jacobian, "level_gate": level_gate_jacobian}


def make_data(kind: str, n: int, seed: int) -> np.ndarray:
    """``uniform3`` / ``uniform4``: iid U[-1, 1]; ``levels4``: three U[-1, 1] and an integer 0..3."""
    rng = np.random.default_rng(seed)
    if kind == "uniform3":
        return rng.uniform(-1, 1, (n, 3))
    if kind == "uniform4":
        return rng.uniform(-1, 1, (n, 4))
    if kind == "integers_first3":
        x = rng.uniform(-1, 1, (n, 3))
        x[:, 0] = rng.integers(0, 15, n).astype(float)
        return x
    if kind == "levels_first3":
        x = rng.uniform(-1, 1, (n, 3))
        x[:, 0] = rng.integers(0, 5, n).astype(float)
        return x
    if kind == "levels_first4":
        x = rng.uniform(-1, 1, (n, 4))
        x[:, 0] = rng.integers(0, 6, n).astype(float)
        x[:, 3] = rng.integers(0, 4, n).astype(float)
        return x
    if kind == "levels4":
        x = rng.uniform(-1, 1, (n, 4))
        x[:, 3] = rng.integers(0, 4, n).astype(float)
        return x
    raise ValueError(kind)


#: Each case: model, data (kind, n, seed), effector method ("ale" or "rhale"), RHALE's binning ("fixed": 20 equal
#: bins, the default here; "dp" or "agglomerative": re-found in every region), finder and its settings.
#: ``categorical_feature``: x1 is effector's ordinal feature (integer levels); ``nominal_feature``: x1 is declared
#: nominal to effector (its all-pairs criterion), an unordered categorical to pyale.
CASES = [
    {"name": "ci_ale_best", "model": "conditional_interaction", "data": ["uniform3", 500, 1], "method": "ale",
     "finder": "best", "settings": {}},
    {"name": "ci_ale_levelwise", "model": "conditional_interaction", "data": ["uniform3", 500, 2],
     "method": "ale", "finder": "best_level_wise", "settings": {}},
    {"name": "four_ale_best", "model": "four_regions", "data": ["uniform4", 800, 3], "method": "ale",
     "finder": "best", "settings": {"max_depth": 2}},
    {"name": "four_ale_levelwise_depth3", "model": "four_regions", "data": ["uniform4", 800, 4], "method": "ale",
     "finder": "best_level_wise", "settings": {"max_depth": 3}},
    {"name": "linear_ale_best", "model": "linear_gate", "data": ["uniform3", 400, 5], "method": "ale",
     "finder": "best", "settings": {"numerical_features_grid_size": 10, "min_samples_leaf": 20}},
    {"name": "levels_ale_best", "model": "level_gate", "data": ["levels4", 600, 6], "method": "ale",
     "finder": "best", "settings": {}},
    {"name": "ci_ale_small_nodes", "model": "conditional_interaction", "data": ["uniform3", 120, 7],
     "method": "ale", "finder": "best", "settings": {"max_depth": 3, "min_samples_leaf": 25,
                                                     "min_heterogeneity_decrease_pcg": 0.01}},
    {"name": "ci_rhale_fixed_best", "model": "conditional_interaction", "data": ["uniform3", 500, 8],
     "method": "rhale", "finder": "best", "settings": {}},
    {"name": "four_rhale_fixed_levelwise", "model": "four_regions", "data": ["uniform4", 600, 9],
     "method": "rhale", "finder": "best_level_wise", "settings": {}},
    {"name": "ci_rhale_dp_best", "model": "conditional_interaction", "data": ["uniform3", 600, 10],
     "method": "rhale", "binning": "dp", "finder": "best", "settings": {}},
    {"name": "four_rhale_dp_best", "model": "four_regions", "data": ["uniform4", 700, 11],
     "method": "rhale", "binning": "dp", "finder": "best", "settings": {}},
    {"name": "four_rhale_agglomerative_levelwise", "model": "four_regions", "data": ["uniform4", 500, 12],
     "method": "rhale", "binning": "agglomerative", "finder": "best_level_wise", "settings": {}},
    {"name": "catfocus_ale_best", "model": "level_square", "data": ["levels_first3", 600, 14], "method": "ale",
     "finder": "best", "settings": {}, "categorical_feature": True},
    {"name": "catfocus_ale_levelwise", "model": "level_square", "data": ["levels_first3", 300, 15], "method": "ale",
     "finder": "best_level_wise", "settings": {"max_depth": 3}, "categorical_feature": True},
    {"name": "int_rhale_dp_best", "model": "conditional_interaction", "data": ["integers_first3", 600, 16],
     "method": "rhale", "binning": "dp", "finder": "best", "settings": {}},
    {"name": "levels_rhale_dp_best", "model": "level_gate", "data": ["levels4", 500, 13],
     "method": "rhale", "binning": "dp", "finder": "best", "settings": {"max_depth": 1}},
    {"name": "nominal_ale_best", "model": "level_square", "data": ["levels_first3", 600, 14], "method": "ale",
     "finder": "best", "settings": {}, "nominal_feature": True},
    {"name": "nominal_ale_levelwise", "model": "level_square", "data": ["levels_first3", 300, 17], "method": "ale",
     "finder": "best_level_wise", "settings": {"max_depth": 3}, "nominal_feature": True},
    {"name": "nominal_table_best", "model": "level_table", "data": ["levels_first4", 700, 18], "method": "ale",
     "finder": "best", "settings": {"max_depth": 3}, "nominal_feature": True},
    {"name": "nominal_table_small_nodes", "model": "level_table", "data": ["levels_first4", 150, 19],
     "method": "ale", "finder": "best", "settings": {"min_samples_leaf": 30, "min_heterogeneity_decrease_pcg": 0.2},
     "nominal_feature": True},
]

#: pyale's names for effector's finder settings.
SETTING_NAMES = {"max_depth": "max_depth", "min_samples_leaf": "min_samples_leaf",
                 "min_heterogeneity_decrease_pcg": "min_decrease", "heter_small_enough": "min_heterogeneity",
                 "numerical_features_grid_size": "n_positions"}


def TRUTH(model: str, x: np.ndarray, x1: np.ndarray) -> np.ndarray:
    """Uncentred true effect of x1 at the points ``x1`` for each row of ``x``: shape ``(len(x), len(x1))``.

    A region's true ALE (the mean of its rows' local effects) is the mean of these rows.
    """
    x1 = np.asarray(x1, dtype=float)[None, :]
    if model == "conditional_interaction":
        return np.where(x[:, [1]] < 0, -1.0, 1.0) * x1 ** 2
    if model == "four_regions":
        sign = np.where(x[:, [2]] < 0, -1.0, 1.0)
        return sign * np.where(x[:, [1]] < 0, x1 ** 2, x1 ** 4)
    if model == "linear_gate":
        return np.where(x[:, [2]] > 0, 3.0, -3.0) * x1
    if model == "level_gate":
        return np.where(x[:, [3]] == 2, 2.0, -1.0) * x1
    if model == "level_square":
        return np.where(x[:, [1]] < 0, -1.0, 1.0) * x1 ** 2
    if model == "level_table":
        return np.where(x[:, [2]] > 0.25, 2.0, 1.0) * LEVEL_TABLE[np.where(x[:, [3]] == 2, 0, 1), x1.astype(int)]
    raise ValueError(model)
