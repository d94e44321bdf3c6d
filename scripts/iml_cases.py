"""The iml fixture cases: data sets, closed-form models (R and Python twins) and calls.

``scripts/make_iml_fixtures.py`` runs every case in R (iml 0.11.4) and writes
``reference/iml/<name>.json``; ``tests/parity/test_parity_iml.py`` replays them in
pyale.  Data are generated here from a seed (iris comes from R's datasets
and is stored in the fixture).  Models are closed-form functions written
once in R and once in Python, or R-fitted models whose answers are recorded
(``"replay"``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

SEED = 20240611


def mixed_data(seed: int = SEED, n: int = 80) -> pd.DataFrame:
    """Numeric, integer, categorical and ordered columns, with the category tied to x1."""
    rng = np.random.default_rng(seed)
    x1 = rng.uniform(0, 2, n)
    g_codes = np.clip((x1 * 2 + rng.normal(0, 0.6, n)).astype(int), 0, 3)
    g = pd.Categorical.from_codes(g_codes, categories=["b", "d", "a", "c"])
    x2 = rng.normal(0, 1, n) + 0.3 * g_codes
    k = rng.integers(1, 13, n)
    o = pd.Categorical.from_codes(rng.integers(0, 3, n), categories=["low", "mid", "high"], ordered=True)
    return pd.DataFrame({"x1": x1, "x2": x2, "k": k.astype(np.int64), "g": g, "o": o})


def data_set(name: str, seed: int) -> pd.DataFrame | None:
    """Python-generated data (None for data taken from R)."""
    if name == "mixed":
        return mixed_data(seed)
    if name == "mixed_str":
        frame = mixed_data(seed)
        frame["g"] = frame["g"].astype(str).astype(object)
        return frame
    return None


G_EFFECT = {"a": 0.0, "b": 1.0, "c": -0.5, "d": 2.0}
O_EFFECT = {"low": 0.0, "mid": 0.7, "high": 0.4}

# Closed-form models: R body of function(newdata), and the Python twin.
R_MODELS = {
    "smooth": """
        ge <- c(a = 0, b = 1, c = -0.5, d = 2)[as.character(newdata$g)]
        oe <- c(low = 0, mid = 0.7, high = 0.4)[as.character(newdata$o)]
        unname(newdata$x1 * newdata$x1 + sin(3 * newdata$x2) + 0.3 * newdata$k + ge + oe +
          newdata$x1 * newdata$x2 + ge * newdata$x2)""",
    "multi": """
        ge <- c(a = 0, b = 1, c = -0.5, d = 2)[as.character(newdata$g)]
        s1 <- exp(unname(newdata$x1 + 0.5 * ge))
        s2 <- exp(newdata$x2 * newdata$x1)
        s3 <- exp(0.2 * newdata$k)
        total <- s1 + s2 + s3
        out <- cbind(s1 / total, s2 / total, s3 / total)
        colnames(out) <- c("A", "B", "C")
        out""",
}


def _effect(column: pd.Series, table: dict) -> np.ndarray:
    return np.array([table[str(v)] for v in column], dtype=float)


def smooth(newdata: pd.DataFrame) -> np.ndarray:
    ge = _effect(newdata["g"], G_EFFECT)
    oe = _effect(newdata["o"], O_EFFECT)
    x1 = newdata["x1"].to_numpy(dtype=float)
    x2 = newdata["x2"].to_numpy(dtype=float)
    k = newdata["k"].to_numpy(dtype=float)
    return x1 * x1 + np.sin(3 * x2) + 0.3 * k + ge + oe + x1 * x2 + ge * x2


def multi(newdata: pd.DataFrame) -> pd.DataFrame:
    ge = _effect(newdata["g"], G_EFFECT)
    x1 = newdata["x1"].to_numpy(dtype=float)
    x2 = newdata["x2"].to_numpy(dtype=float)
    k = newdata["k"].to_numpy(dtype=float)
    s1, s2, s3 = np.exp(x1 + 0.5 * ge), np.exp(x2 * x1), np.exp(0.2 * k)
    total = s1 + s2 + s3
    return pd.DataFrame({"A": s1 / total, "B": s2 / total, "C": s3 / total})


PY_MODELS = {"smooth": smooth, "multi": multi}

# R-fitted models, recorded: R code fitting `fit` on `train`, and the predict call.
R_FITS = {
    "rpart_iris": ("library(rpart); fit <- rpart(Species ~ ., data = train)", "prob"),
    "lm_mixed": ("fit <- lm(x1 ~ x2 + k + g + o + I(x2^2), data = train)", None),
}


@dataclass(frozen=True)
class Case:
    """One iml call.

    data : "mixed", "mixed_str" (g as strings) or "iris"
    model : a key of R_MODELS (closed form) or R_FITS (replayed)
    call : "FeatureEffect" or "FeatureEffects"
    args : keyword arguments in pyale's spelling (feature, method, center_at,
        grid_size, grid_points, features)
    predictor : keyword arguments of Predictor in pyale's spelling (y, class_, batch_size)
    r_feature_swap : run R with the pair in the other order (iml fails in pyale's order)
    r_factor : columns R receives as factors although pyale gets strings (iml fails on them)
    note : why the case exists
    ice_rows_by_key : iml's order of multi-output ICE rows within an id depends on
        R's random permutation here (a batch splits a grid point's rows): compare
        ICE rows sorted by (.id, .class, grid value)
    """

    name: str
    data: str
    model: str
    args: dict
    call: str = "FeatureEffect"
    predictor: dict = field(default_factory=dict)
    r_feature_swap: bool = False
    r_factor: tuple = ()
    note: str = ""
    seed: int = SEED
    ice_rows_by_key: bool = False


CASES = [
    # --- ALE, one feature
    Case("ale_num_x1", "mixed", "smooth", {"feature": "x1"}, note="numeric, default grid.size 20"),
    Case("ale_num_x2_g5", "mixed", "smooth", {"feature": "x2", "grid_size": 5}),
    Case("ale_num_g1", "mixed", "smooth", {"feature": "x2", "grid_size": 1}, note="grid.size 1"),
    Case("ale_num_g200", "mixed", "smooth", {"feature": "x1", "grid_size": 200}, note="more intervals than rows"),
    Case("ale_int_k", "mixed", "smooth", {"feature": "k"}, note="integer: grid rounded, then unique"),
    Case("ale_int_k_g7", "mixed", "smooth", {"feature": "k", "grid_size": 7}),
    Case("ale_cat_g", "mixed", "smooth", {"feature": "g"}, note="factor ordered by MDS"),
    Case("ale_ord_o", "mixed", "smooth", {"feature": "o"}, note="ordered factor keeps its order"),
    Case("ale_num_multi", "mixed", "multi", {"feature": "x1", "grid_size": 8}, note="three outputs -> .class"),
    Case("ale_cat_multi", "mixed", "multi", {"feature": "g"}),
    Case("ale_num_class", "mixed", "multi", {"feature": "x2", "grid_size": 6}, predictor={"class_": "B"}),
    Case("ale_num_user_grid", "mixed", "smooth", {"feature": "x1", "grid_points": [2.0, 0.0, 0.5, 1.0, 1.5, 0.5]},
         note="user grid covering the data, unsorted with a repeat"),
    Case("ale_num_batch7", "mixed", "smooth", {"feature": "x2", "grid_size": 9}, predictor={"batch_size": 7}),
    Case("ale_rpart_pw", "iris", "rpart_iris", {"feature": "Petal.Width"}, predictor={"y": "Species"},
         note="real classifier, class probabilities"),
    Case("ale_rpart_sl_g10", "iris", "rpart_iris", {"feature": "Sepal.Length", "grid_size": 10},
         predictor={"y": "Species", "class_": "virginica"}),
    Case("ale_lm_x2", "mixed", "lm_mixed", {"feature": "x2", "grid_size": 10}, predictor={"y": "x1"},
         note="R-fitted regression, replayed"),
    Case("ale_lm_g", "mixed", "lm_mixed", {"feature": "g"}, predictor={"y": "x1"}),
    Case("ale_str_g", "mixed_str", "smooth", {"feature": "g"}, r_factor=("g",),
         note="string column: iml fails (droplevels on character); R gets a factor"),
    # --- PDP / ICE
    Case("pdp_num_x1", "mixed", "smooth", {"feature": "x1", "method": "pdp"}),
    Case("ice_num_x1_g5", "mixed", "smooth", {"feature": "x1", "method": "ice", "grid_size": 5}),
    Case("pdpice_num_x2_g4", "mixed", "smooth", {"feature": "x2", "method": "pdp+ice", "grid_size": 4}),
    Case("pdpice_int_k_g15", "mixed", "smooth", {"feature": "k", "method": "pdp+ice", "grid_size": 15},
         note="integer grid rounded with repeats"),
    Case("pdp_cat_g", "mixed", "smooth", {"feature": "g", "method": "pdp"}, note="levels in order of appearance"),
    Case("pdpice_cat_g", "mixed", "smooth", {"feature": "g", "method": "pdp+ice"}),
    Case("pdp_ord_o", "mixed", "smooth", {"feature": "o", "method": "pdp"}),
    Case("pdp_center_x1", "mixed", "smooth", {"feature": "x1", "method": "pdp", "grid_size": 6, "center_at": 0.5}),
    Case("ice_center_x1", "mixed", "smooth", {"feature": "x1", "method": "ice", "grid_size": 4, "center_at": 1.0}),
    Case("pdpice_center_x2", "mixed", "smooth", {"feature": "x2", "method": "pdp+ice", "grid_size": 4, "center_at": 0}),
    Case("pdp_multi_x1", "mixed", "multi", {"feature": "x1", "method": "pdp"},
         note="1600 rows in batches of 1000: iml's row order follows the batches"),
    Case("pdpice_multi_x2_g5", "mixed", "multi", {"feature": "x2", "method": "pdp+ice", "grid_size": 5}),
    Case("pdp_multi_center", "mixed", "multi", {"feature": "x1", "method": "pdp+ice", "grid_size": 3, "center_at": 1.0}),
    Case("ice_multi_center", "mixed", "multi", {"feature": "x1", "method": "ice", "grid_size": 3, "center_at": 1.0}),
    Case("pdpice_multi_split", "mixed", "multi", {"feature": "x1", "method": "pdp+ice"}, ice_rows_by_key=True,
         note="batches of 1000 split grid point 13's 80 rows: iml's ICE row order there follows R's RNG"),
    Case("pdpice_multi_batch160", "mixed", "multi", {"feature": "x2", "method": "pdp+ice", "grid_size": 6},
         predictor={"batch_size": 160}, note="batches of two whole grid points: iml's order is deterministic"),
    Case("pdp_multi_batch", "mixed", "multi", {"feature": "k", "method": "pdp", "grid_size": 7},
         predictor={"batch_size": 100}),
    Case("pdp_user_grid", "mixed", "smooth", {"feature": "x2", "method": "pdp", "grid_points": [1.0, -1.0, 0.0, 1.0]},
         note="user grid kept in the given order without repeats"),
    Case("pdpice_rpart_pl", "iris", "rpart_iris", {"feature": "Petal.Length", "method": "pdp+ice", "grid_size": 5},
         predictor={"y": "Species"}),
    Case("pdp_pair_num", "mixed", "smooth", {"feature": ["x1", "x2"], "method": "pdp", "grid_size": 4}),
    Case("pdp_pair_numcat", "mixed", "smooth", {"feature": ["x2", "g"], "method": "pdp", "grid_size": [3, 4]}),
    Case("pdp_pair_multi", "mixed", "multi", {"feature": ["g", "k"], "method": "pdp", "grid_size": 3}),
    # --- FeatureEffects
    Case("effects_ale_all", "mixed", "smooth", {"grid_size": 6}, call="FeatureEffects"),
    Case("effects_pdp_some", "mixed", "smooth", {"features": ["x2", "g"], "method": "pdp", "grid_size": 5},
         call="FeatureEffects"),
    Case("effects_ale_rpart", "iris", "rpart_iris", {"grid_size": 8}, call="FeatureEffects",
         predictor={"y": "Species"}),
    # --- ALE, two features
    Case("ale_pair_num", "mixed", "smooth", {"feature": ["x1", "x2"], "grid_size": 5}),
    Case("ale_pair_num_g10", "mixed", "smooth", {"feature": ["x2", "x1"], "grid_size": [10, 4]},
         note="empty cells filled from the nearest cell"),
    Case("ale_pair_catnum", "mixed", "smooth", {"feature": ["g", "x2"], "grid_size": 5}),
    Case("ale_pair_numcat", "mixed", "smooth", {"feature": ["x1", "g"], "grid_size": 6}),
    Case("ale_pair_multi", "mixed", "multi", {"feature": ["x1", "x2"], "grid_size": 4}),
    Case("ale_pair_rpart", "iris", "rpart_iris", {"feature": ["Petal.Width", "Sepal.Width"], "grid_size": 5},
         predictor={"y": "Species"}),
    Case("ale_pair_intcat", "mixed", "smooth", {"feature": ["k", "g"], "grid_size": 4}, r_feature_swap=True,
         note="integer first, factor second: iml fails ('min' not meaningful for factors); R gets the swap"),
]
