"""The cases of reference/effector/: seeded data, closed-form models with their Jacobians, and truths.

NumPy only, so that the generator (run with effector's Python) and the
tests (run without effector) read the same definitions.  The models are
effector 0.6.0's benchmark models (``effector.models``), written out here,
plus two whose ALE has a closed form on correlated data.
"""

from __future__ import annotations

import numpy as np

__all__ = ["MODELS", "DATA", "CASES", "model_predict", "model_jacobian", "make_data", "TRUTHS"]


# -- models: predict(x (n, p)) -> (n,), jacobian(x) -> (n, p)

def _conditional_interaction(x):
    """effector.models.ConditionalInteraction: -x1^2 [x2 < 0] + x1^2 [x2 >= 0] + exp(x3)."""
    y = np.exp(x[:, 2])
    ind = x[:, 1] < 0
    y[ind] += -(x[ind, 0] ** 2)
    y[~ind] += x[~ind, 0] ** 2
    return y


def _conditional_interaction_jac(x):
    y = np.zeros_like(x)
    y[:, 2] = np.exp(x[:, 2])
    ind = x[:, 1] < 0
    y[ind, 0] = -2 * x[ind, 0]
    y[~ind, 0] = 2 * x[~ind, 0]
    return y


def _four_regions(x):
    """effector.models.ConditionalInteraction4Regions."""
    y = np.exp(x[:, 3])
    m1 = (x[:, 1] < 0) & (x[:, 2] < 0)
    m2 = (x[:, 1] < 0) & (x[:, 2] >= 0)
    m3 = (x[:, 1] >= 0) & (x[:, 2] < 0)
    m4 = (x[:, 1] >= 0) & (x[:, 2] >= 0)
    y[m1] += -(x[m1, 0] ** 2)
    y[m2] += x[m2, 0] ** 2
    y[m3] += -(x[m3, 0] ** 4)
    y[m4] += x[m4, 0] ** 4
    return y


def _four_regions_jac(x):
    y = np.zeros(x.shape)
    y[:, 3] = np.exp(x[:, 3])
    m1 = (x[:, 1] < 0) & (x[:, 2] < 0)
    m2 = (x[:, 1] < 0) & (x[:, 2] >= 0)
    m3 = (x[:, 1] >= 0) & (x[:, 2] < 0)
    m4 = (x[:, 1] >= 0) & (x[:, 2] >= 0)
    y[m1, 0] = -2 * x[m1, 0]
    y[m2, 0] = 2 * x[m2, 0]
    y[m3, 0] = -4 * x[m3, 0] ** 3
    y[m4, 0] = 4 * x[m4, 0] ** 3
    return y


def _product(x):
    """x1 * x2 + sin(3 x3): on data with x2 = x1 + noise the ALE of x1 is x1^2 / 2 (centred)."""
    return x[:, 0] * x[:, 1] + np.sin(3 * x[:, 2])


def _product_jac(x):
    y = np.zeros_like(x)
    y[:, 0] = x[:, 1]
    y[:, 1] = x[:, 0]
    y[:, 2] = 3 * np.cos(3 * x[:, 2])
    return y


def _kinked(x):
    """A kink at x1 = 0.3 with a heterogeneous slope beyond it: x1 + 4 (x1 - 0.3)_+ (1 + x2) + x3^2."""
    return x[:, 0] + 4 * np.maximum(x[:, 0] - 0.3, 0) * (1 + x[:, 1]) + x[:, 2] ** 2


def _kinked_jac(x):
    y = np.zeros_like(x)
    y[:, 0] = 1 + 4 * (x[:, 0] > 0.3) * (1 + x[:, 1])
    y[:, 1] = 4 * np.maximum(x[:, 0] - 0.3, 0)
    y[:, 2] = 2 * x[:, 2]
    return y


def _discrete_kink(x):
    """On x1 in 0..10: a slope of 1 up to 6, then 1 + (1 + x2) (heterogeneous): x1 + (x1 - 6)_+ (1 + x2) + x3."""
    return x[:, 0] + np.maximum(x[:, 0] - 6, 0) * (1 + x[:, 1]) + x[:, 2]


def _discrete_kink_jac(x):
    y = np.ones_like(x)
    y[:, 0] = 1 + (x[:, 0] > 6) * (1 + x[:, 1])
    y[:, 1] = np.maximum(x[:, 0] - 6, 0)
    return y


MODELS = {
    "conditional_interaction": (_conditional_interaction, _conditional_interaction_jac),
    "four_regions": (_four_regions, _four_regions_jac),
    "product": (_product, _product_jac),
    "kinked": (_kinked, _kinked_jac),
    "discrete_kink": (_discrete_kink, _discrete_kink_jac),
}


def model_predict(name):
    return MODELS[name][0]


def model_jacobian(name):
    return MODELS[name][1]


# -- data


def make_data(kind: str, n: int, seed: int) -> np.ndarray:
    """Seeded data: ``uniform3``/``uniform4`` (U(-1, 1) columns, effector's benchmarks' design) or
    ``correlated`` (x1 ~ U(-1, 1), x2 = x1 + N(0, 0.3^2), x3 ~ U(-1, 1))."""
    rng = np.random.default_rng(seed)
    if kind == "uniform3":
        return rng.uniform(-1, 1, size=(n, 3))
    if kind == "uniform4":
        return rng.uniform(-1, 1, size=(n, 4))
    if kind == "discrete3":  # x1 on the integers 0..10: heterogeneity-aware edges fall on data values
        return np.column_stack([rng.integers(0, 11, n).astype(float), rng.uniform(-1, 1, size=(n, 2))])
    if kind == "correlated":
        x1 = rng.uniform(-1, 1, n)
        return np.column_stack([x1, x1 + rng.normal(0, 0.3, n), rng.uniform(-1, 1, n)])
    raise ValueError(kind)


DATA = ("uniform3", "uniform4", "correlated", "discrete3")


# -- closed-form ALE (uncentred, 0 at the feature's lower bound -1), for the convergence tests


def _truth_product_x1(x):
    return (x**2 - 1) / 2  # integral of E[x2 | x1 = t] = t from -1


def _truth_kinked_x1(x):
    return x + 1 + 4 * np.maximum(x - 0.3, 0)  # E[x2 | x1] = 0 on independent uniform data: slopes 1, then 5


def _truth_conditional_x3(x):
    return np.exp(x) - np.exp(-1.0)


TRUTHS = {
    ("product", "correlated", 0): _truth_product_x1,
    ("kinked", "uniform3", 0): _truth_kinked_x1,
    ("conditional_interaction", "uniform3", 2): _truth_conditional_x3,
}


# -- the cases: (name, model, data, n, seed, feature, method, settings)
#    method: "dp" / "agglomerative" (RHALE with that binner), "dale" (RHALE with Fixed bins:
#    DALE), "ale" (effector.ALE, finite differences on Fixed bins)

CASES = [
    ("ci_x1_dp", "conditional_interaction", "uniform3", 800, 1, 0, "dp", {"max_intervals": 20}),
    ("ci_x3_dp", "conditional_interaction", "uniform3", 800, 1, 2, "dp", {"max_intervals": 20}),
    ("ci_x1_agglo", "conditional_interaction", "uniform3", 800, 2, 0, "agglomerative", {"max_intervals": 20}),
    ("ci_x3_agglo", "conditional_interaction", "uniform3", 800, 2, 2, "agglomerative", {"max_intervals": 25}),
    ("four_x1_dp", "four_regions", "uniform4", 1500, 3, 0, "dp", {"max_intervals": 30, "discount": 0.1}),
    ("four_x4_dp_minrows", "four_regions", "uniform4", 600, 4, 3, "dp",
     {"max_intervals": 15, "min_rows": 10, "discount": 0.5}),
    ("product_x1_dp", "product", "correlated", 1000, 5, 0, "dp", {"max_intervals": 20}),
    ("product_x3_agglo", "product", "correlated", 1000, 5, 2, "agglomerative", {"max_intervals": 40,
                                                                                "discount": 0.0}),
    ("kinked_x1_dp", "kinked", "uniform3", 1200, 6, 0, "dp", {"max_intervals": 20}),
    ("kinked_x1_agglo", "kinked", "uniform3", 1200, 6, 0, "agglomerative", {"max_intervals": 20}),
    ("kinked_x1_dp_fine", "kinked", "uniform3", 3000, 7, 0, "dp", {"max_intervals": 60, "min_rows": 5}),
    ("kinked_discrete_x1_dp", "discrete_kink", "discrete3", 900, 8, 0, "dp", {"max_intervals": 20}),
    ("kinked_discrete_x1_agglo", "discrete_kink", "discrete3", 900, 8, 0, "agglomerative", {"max_intervals": 10}),
    ("ci_x1_dale", "conditional_interaction", "uniform3", 800, 1, 0, "dale", {"n_intervals": 20}),
    ("product_x1_dale", "product", "correlated", 1000, 5, 0, "dale", {"n_intervals": 15}),
    ("kinked_x3_dale", "kinked", "uniform3", 1200, 6, 2, "dale", {"n_intervals": 10}),
    ("product_x1_ale", "product", "correlated", 1000, 5, 0, "ale", {"n_intervals": 15}),
    ("kinked_x1_ale", "kinked", "uniform3", 1200, 6, 0, "ale", {"n_intervals": 20}),
]
