"""The ALEPlot / PDPlot fixture cases: data sets, models (R and Python twins) and calls.

``scripts/make_aleplot_fixtures.py`` runs every case in R (ALEPlot 1.1) and
writes ``reference/aleplot/<name>.json``; ``tests/parity/test_parity_aleplot.py``
replays them in pyale.  Synthetic data are generated here from a seed and
handed to R; R's own data sets are read from R and stored exactly.  Models
are closed-form functions written once in R and once in Python, or models
fitted in R whose answers on every row ALEPlot asked about are recorded
(``"replay"``), so the tests need no R.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

SEED = 20261122

# ----------------------------------------------------------------- synthetic data


def smooth_data(seed: int, n: int = 300) -> pd.DataFrame:
    """Correlated numerics (negative values), a few-valued integer, a factor tied to x1 with an unused level."""
    rng = np.random.default_rng(seed)
    x1 = rng.uniform(-2, 2, n)
    x2 = 0.6 * x1 + rng.normal(0, 0.5, n)
    x3 = rng.integers(0, 5, n).astype(np.int64)
    codes = np.clip(((x1 + 2) * 1.1 + rng.normal(0, 0.7, n)).astype(int), 0, 3)
    g = pd.Categorical.from_codes(codes, categories=["b", "d", "a", "c", "unused"])
    return pd.DataFrame({"x1": x1, "x2": x2, "x3": x3, "g": g})


def ties_data(seed: int, n: int = 200) -> pd.DataFrame:
    """Heavy ties: values rounded to one decimal, and a column with two distinct values."""
    rng = np.random.default_rng(seed)
    x1 = np.round(rng.normal(0, 1, n), 1)
    x2 = np.round(rng.exponential(1.0, n), 1)
    x3 = rng.choice([-1.5, 2.25], n)
    g = pd.Categorical(rng.choice(["lo", "hi"], n, p=[0.7, 0.3]), categories=["hi", "lo"])
    return pd.DataFrame({"x1": x1, "x2": x2, "x3": x3, "g": g})


def negative_data(seed: int, n: int = 120) -> pd.DataFrame:
    """Only negative values, on very different scales."""
    rng = np.random.default_rng(seed)
    x1 = -rng.exponential(3.0, n) - 0.01
    x2 = -1e-3 * rng.uniform(1, 2, n)
    x3 = -rng.integers(1, 4, n).astype(np.int64)
    g = pd.Categorical(rng.choice(["p", "q", "r"], n))
    return pd.DataFrame({"x1": x1, "x2": x2, "x3": x3, "g": g})


def tiny_data(seed: int, n: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    x1 = rng.normal(0, 1, n)
    x2 = rng.normal(0, 1, n)
    x3 = rng.integers(0, 3, n).astype(np.int64)
    g = pd.Categorical(["u", "v", "w"] * (n // 3) + ["u"] * (n % 3))
    return pd.DataFrame({"x1": x1, "x2": x2, "x3": x3, "g": g})


def corr_data(seed: int, n: int = 400) -> pd.DataFrame:
    """A strongly correlated pair (many empty cells) and a factor almost determined by x1."""
    rng = np.random.default_rng(seed)
    x1 = rng.normal(0, 1, n)
    x2 = x1 + rng.normal(0, 0.08, n)
    x3 = rng.integers(0, 5, n).astype(np.int64)
    codes = np.digitize(x1 + rng.normal(0, 0.05, n), [-0.7, 0.0, 0.7])
    g = pd.Categorical.from_codes(codes, categories=["w", "x", "y", "z"])
    return pd.DataFrame({"x1": x1, "x2": x2, "x3": x3, "g": g})


def intgrid_data(seed: int, n: int = 150) -> pd.DataFrame:
    """Integers on a small grid: ties everywhere, empty cells at equal distances (nearest-cell ties)."""
    rng = np.random.default_rng(seed)
    x1 = rng.integers(0, 7, n)
    x2 = np.clip(x1 + rng.integers(-1, 2, n), 0, 6)
    x3 = rng.integers(0, 3, n)
    g = pd.Categorical.from_codes(np.clip(x1 // 2, 0, 3), categories=["a", "b", "c", "d"])
    return pd.DataFrame({"x1": x1.astype(np.int64), "x2": x2.astype(np.int64), "x3": x3.astype(np.int64), "g": g})


def many_levels_data(seed: int, n: int = 250) -> pd.DataFrame:
    """A six-level factor whose levels differ in the other covariates (numeric and factor)."""
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, 6, n)
    x1 = codes * 0.4 + rng.normal(0, 0.5, n)
    x2 = rng.normal(0, 1, n) - 0.2 * codes
    h = pd.Categorical(np.where(rng.uniform(size=n) < 0.15 * codes, "yes", "no"))
    g = pd.Categorical.from_codes(codes, categories=["f1", "f2", "f3", "f4", "f5", "f6"])
    return pd.DataFrame({"x1": x1, "x2": x2, "h": h, "g": g})


SYNTHETIC = {
    "smooth": lambda seed: smooth_data(seed),
    "ties": lambda seed: ties_data(seed),
    "negative": lambda seed: negative_data(seed),
    "tiny5": lambda seed: tiny_data(seed, 5),
    "tiny3": lambda seed: tiny_data(seed, 3),
    "tiny6": lambda seed: tiny_data(seed, 6),
    "corr": lambda seed: corr_data(seed),
    "intgrid": lambda seed: intgrid_data(seed),
    "many_levels": lambda seed: many_levels_data(seed),
}

# R's own data sets: R code leaving the predictors in `X` and the fitting frame in `train`.
R_DATA = {
    "airquality": "train <- na.omit(datasets::airquality); rownames(train) <- NULL; "
                  "X <- train[, c('Solar.R', 'Wind', 'Temp', 'Month')]",
    "airquality_month": "train <- na.omit(datasets::airquality); rownames(train) <- NULL; "
                        "train$Month <- factor(month.abb[train$Month], levels = month.abb[5:9]); "
                        "X <- train[, c('Solar.R', 'Wind', 'Temp', 'Month')]",
    "mtcars": "train <- datasets::mtcars; rownames(train) <- NULL; train$cyl <- factor(train$cyl); "
              "X <- train[, c('cyl', 'disp', 'hp', 'wt', 'qsec')]",
    "mtcars_am": "train <- datasets::mtcars; rownames(train) <- NULL; X <- train[, c('wt', 'hp', 'qsec')]",
    "iris": "train <- datasets::iris; X <- train[, c('Sepal.Width', 'Petal.Length', 'Petal.Width', 'Species')]",
    "boston": "train <- MASS::Boston; X <- train[, setdiff(names(train), 'medv')]",
    "boston_small": "train <- MASS::Boston[seq(1, 506, by = 4), ]; rownames(train) <- NULL; "
                    "X <- train[, c('crim', 'rm', 'age', 'dis', 'lstat')]",
    # Rows 1-5 dropped: in the full, balanced data both supp levels have the same doses,
    # their distance is 0 and ALEPlot fails (docs/deviations.md, levels that all look alike).
    "toothgrowth": "train <- datasets::ToothGrowth[-(1:5), ]; rownames(train) <- NULL; "
                   "X <- train[, c('supp', 'dose')]",
}

# ----------------------------------------------------------------- models

# Closed-form models: the R body of function(X.model, newdata) and the Python twin below.
R_MODELS = {
    "smooth": """
        ge <- c(a = 0, b = 1, c = -0.5, d = 2, unused = 0)[as.character(newdata$g)]
        unname(newdata$x1^2 + 2 * sin(2 * newdata$x2) * newdata$x1 + 0.3 * newdata$x3 * newdata$x1 +
          ge + ge * newdata$x2)""",
    "ties": """
        ge <- c(lo = 0, hi = 1.5)[as.character(newdata$g)]
        unname(newdata$x1 * newdata$x2 + exp(-newdata$x2) + newdata$x3 * newdata$x1 + ge * newdata$x1)""",
    "negative": """
        ge <- c(p = 0, q = -1, r = 0.5)[as.character(newdata$g)]
        unname(log(-newdata$x1) + 1000 * newdata$x2 * newdata$x3 + ge * newdata$x1)""",
    "tiny": """
        ge <- c(u = 0, v = 1, w = -2)[as.character(newdata$g)]
        unname(newdata$x1 * newdata$x2 + newdata$x3 + ge * newdata$x1)""",
    "corr": """
        ge <- c(w = 0, x = 1, y = -1, z = 0.5)[as.character(newdata$g)]
        unname(newdata$x1 * newdata$x2 + newdata$x2^3 + ge * newdata$x2 + 0.2 * newdata$x3)""",
    "intgrid": """
        ge <- c(a = 0, b = 1, c = 3, d = -1)[as.character(newdata$g)]
        unname(newdata$x1 * newdata$x2 - 0.5 * newdata$x2^2 + newdata$x3 * newdata$x1 + ge * newdata$x2)""",
    "many_levels": """
        ge <- c(f1 = 0, f2 = 0.3, f3 = -0.4, f4 = 1.1, f5 = 0.2, f6 = -1)[as.character(newdata$g)]
        he <- ifelse(as.character(newdata$h) == "yes", 0.7, 0)
        unname(ge + he + newdata$x1 * newdata$x2 + ge * newdata$x1)""",
}


def _lookup(column: pd.Series, table: dict) -> np.ndarray:
    return np.array([table[str(v)] for v in column], dtype=float)


def _num(frame: pd.DataFrame, name: str) -> np.ndarray:
    return frame[name].to_numpy(dtype=float)


def smooth(newdata: pd.DataFrame) -> np.ndarray:
    ge = _lookup(newdata["g"], {"a": 0, "b": 1, "c": -0.5, "d": 2, "unused": 0})
    x1, x2, x3 = _num(newdata, "x1"), _num(newdata, "x2"), _num(newdata, "x3")
    return x1**2 + 2 * np.sin(2 * x2) * x1 + 0.3 * x3 * x1 + ge + ge * x2


def ties(newdata: pd.DataFrame) -> np.ndarray:
    ge = _lookup(newdata["g"], {"lo": 0, "hi": 1.5})
    x1, x2, x3 = _num(newdata, "x1"), _num(newdata, "x2"), _num(newdata, "x3")
    return x1 * x2 + np.exp(-x2) + x3 * x1 + ge * x1


def negative(newdata: pd.DataFrame) -> np.ndarray:
    ge = _lookup(newdata["g"], {"p": 0, "q": -1, "r": 0.5})
    x1, x2, x3 = _num(newdata, "x1"), _num(newdata, "x2"), _num(newdata, "x3")
    return np.log(-x1) + 1000 * x2 * x3 + ge * x1


def tiny(newdata: pd.DataFrame) -> np.ndarray:
    ge = _lookup(newdata["g"], {"u": 0, "v": 1, "w": -2})
    x1, x2, x3 = _num(newdata, "x1"), _num(newdata, "x2"), _num(newdata, "x3")
    return x1 * x2 + x3 + ge * x1


def corr(newdata: pd.DataFrame) -> np.ndarray:
    ge = _lookup(newdata["g"], {"w": 0, "x": 1, "y": -1, "z": 0.5})
    x1, x2, x3 = _num(newdata, "x1"), _num(newdata, "x2"), _num(newdata, "x3")
    return x1 * x2 + x2**3 + ge * x2 + 0.2 * x3


def intgrid(newdata: pd.DataFrame) -> np.ndarray:
    ge = _lookup(newdata["g"], {"a": 0, "b": 1, "c": 3, "d": -1})
    x1, x2, x3 = _num(newdata, "x1"), _num(newdata, "x2"), _num(newdata, "x3")
    return x1 * x2 - 0.5 * x2**2 + x3 * x1 + ge * x2


def many_levels(newdata: pd.DataFrame) -> np.ndarray:
    ge = _lookup(newdata["g"], {"f1": 0, "f2": 0.3, "f3": -0.4, "f4": 1.1, "f5": 0.2, "f6": -1})
    he = np.where(newdata["h"].astype(str).to_numpy() == "yes", 0.7, 0.0)
    x1, x2 = _num(newdata, "x1"), _num(newdata, "x2")
    return ge + he + x1 * x2 + ge * x1


PY_MODELS = {
    "smooth": smooth, "ties": ties, "negative": negative, "tiny": tiny, "corr": corr,
    "intgrid": intgrid, "many_levels": many_levels,
}

# Models fitted in R on `train`; (fitting code, predict call on `newdata`).  Replayed in Python.
R_FITS = {
    "lm_airquality": ("fit <- lm(Ozone ~ Solar.R + Wind * Temp + Month, data = train)",
                      "as.numeric(predict(fit, newdata))"),
    "rpart_airquality": ("library(rpart); fit <- rpart(Ozone ~ Solar.R + Wind + Temp + Month, data = train)",
                         "as.numeric(predict(fit, newdata))"),
    "lm_mtcars": ("fit <- lm(mpg ~ cyl + disp + hp + wt + qsec, data = train)",
                  "as.numeric(predict(fit, newdata))"),
    "glm_mtcars": ("fit <- glm(am ~ wt + hp + qsec, family = binomial, data = train)",
                   "as.numeric(predict(fit, newdata, type = 'response'))"),
    "lm_iris": ("fit <- lm(Sepal.Length ~ Sepal.Width + Petal.Length * Petal.Width + Species, data = train)",
                "as.numeric(predict(fit, newdata))"),
    "rf_boston": ("library(randomForest); set.seed(2026); fit <- randomForest(medv ~ ., data = train, ntree = 60)",
                  "as.numeric(predict(fit, newdata))"),
    "rf_boston_small": ("library(randomForest); set.seed(7); "
                        "fit <- randomForest(medv ~ crim + rm + age + dis + lstat, data = train, ntree = 40)",
                        "as.numeric(predict(fit, newdata))"),
    "rpart_boston": ("library(rpart); fit <- rpart(medv ~ ., data = train)",
                     "as.numeric(predict(fit, newdata))"),
    "glm_toothgrowth": ("fit <- glm(len ~ supp * dose, family = Gamma(link = 'log'), data = train)",
                        "as.numeric(predict(fit, newdata, type = 'response'))"),
}

# R packages a model needs (their versions go into the fixture).
FIT_PACKAGES = {"rpart_airquality": ["rpart"], "rf_boston": ["randomForest"], "rf_boston_small": ["randomForest"],
                "rpart_boston": ["rpart"], "boston": ["MASS"]}


@dataclass(frozen=True)
class Case:
    """One ALEPlot or PDPlot call.

    data : a key of SYNTHETIC (made in Python from ``seed``) or R_DATA (taken from R)
    model : a key of R_MODELS (closed form) or R_FITS (fitted in R, replayed)
    function : "ALEPlot" or "PDPlot"
    J : feature name, or a pair of names (pyale's spelling; R gets 1-based positions)
    K : ALEPlot's / PDPlot's K
    NA_plot : ALEPlot's NA.plot
    note : why the case exists
    """

    name: str
    data: str
    model: str
    function: str
    J: object
    K: int
    note: str
    NA_plot: bool = True
    seed: int = SEED


def _c(name, data, model, function, J, K, note, **kw) -> Case:
    return Case(name=name, data=data, model=model, function=function, J=J, K=K, note=note, **kw)


ONE_FEATURE = [
    _c("ale_smooth_x1", "smooth", "smooth", "ALEPlot", "x1", 40, "numeric, negative values, default K"),
    _c("ale_smooth_x1_k7", "smooth", "smooth", "ALEPlot", "x1", 7, "odd K"),
    _c("ale_smooth_x1_k1", "smooth", "smooth", "ALEPlot", "x1", 1, "K = 1: one interval"),
    _c("ale_smooth_x2_k500", "smooth", "smooth", "ALEPlot", "x2", 500, "K larger than n"),
    _c("ale_smooth_x3_int", "smooth", "smooth", "ALEPlot", "x3", 40, "integer column with five values: K shrinks"),
    _c("ale_smooth_x3_int_k3", "smooth", "smooth", "ALEPlot", "x3", 3, "integer column, K below its distinct values"),
    _c("ale_smooth_g", "smooth", "smooth", "ALEPlot", "g", 40,
       "factor with an unused level; order from MDS on numeric and integer covariates"),
    _c("ale_ties_x1", "ties", "ties", "ALEPlot", "x1", 20, "heavy ties at one decimal"),
    _c("ale_ties_x2_k13", "ties", "ties", "ALEPlot", "x2", 13, "ties in a skewed column, odd K"),
    _c("ale_ties_x3_two_values", "ties", "ties", "ALEPlot", "x3", 40, "numeric column with two distinct values"),
    _c("ale_ties_g_two_levels", "ties", "ties", "ALEPlot", "g", 40, "two-level factor, levels not in sorted order"),
    _c("ale_negative_x1", "negative", "negative", "ALEPlot", "x1", 25, "all values negative"),
    _c("ale_negative_x2", "negative", "negative", "ALEPlot", "x2", 10, "tiny negative scale"),
    _c("ale_negative_x3", "negative", "negative", "ALEPlot", "x3", 10, "negative integers, three values"),
    _c("ale_tiny5_x1", "tiny5", "tiny", "ALEPlot", "x1", 40, "n = 5, K = 40"),
    _c("ale_tiny3_x2_k2", "tiny3", "tiny", "ALEPlot", "x2", 2, "n = 3"),
    _c("ale_tiny6_g", "tiny6", "tiny", "ALEPlot", "g", 40, "factor in n = 6"),
    _c("ale_many_levels_g", "many_levels", "many_levels", "ALEPlot", "g", 40,
       "six levels ordered by MDS on numeric and factor covariates"),
    _c("ale_many_levels_h", "many_levels", "many_levels", "ALEPlot", "h", 40, "two-level factor among factors"),
    _c("ale_airquality_temp", "airquality", "lm_airquality", "ALEPlot", "Temp", 40, "lm with an interaction"),
    _c("ale_airquality_wind_k10", "airquality", "lm_airquality", "ALEPlot", "Wind", 10, "lm, ties in Wind"),
    _c("ale_airquality_month_int", "airquality", "lm_airquality", "ALEPlot", "Month", 40, "integer month, 5 values"),
    _c("ale_airquality_month_factor", "airquality_month", "rpart_airquality", "ALEPlot", "Month", 40,
       "rpart; month as a factor"),
    _c("ale_airquality_solar_rpart", "airquality_month", "rpart_airquality", "ALEPlot", "Solar.R", 20,
       "rpart: a step function"),
    _c("ale_mtcars_wt", "mtcars", "lm_mtcars", "ALEPlot", "wt", 40, "n = 32, K > n"),
    _c("ale_mtcars_cyl", "mtcars", "lm_mtcars", "ALEPlot", "cyl", 40, "factor from numbers, MDS order"),
    _c("ale_mtcars_glm_hp", "mtcars_am", "glm_mtcars", "ALEPlot", "hp", 15, "logistic glm, response scale"),
    _c("ale_iris_petal_width", "iris", "lm_iris", "ALEPlot", "Petal.Width", 40, "ties in iris"),
    _c("ale_iris_species", "iris", "lm_iris", "ALEPlot", "Species", 40, "factor with a real model"),
    _c("ale_boston_lstat_rf", "boston", "rf_boston", "ALEPlot", "lstat", 30, "randomForest on Boston"),
    _c("ale_boston_rad_rf", "boston", "rf_boston", "ALEPlot", "rad", 40, "integer with 9 values, randomForest"),
    _c("ale_boston_rm_rpart", "boston", "rpart_boston", "ALEPlot", "rm", 40, "rpart on Boston"),
    _c("ale_boston_chas_rpart", "boston", "rpart_boston", "ALEPlot", "chas", 40, "0/1 integer column"),
    _c("ale_toothgrowth_supp", "toothgrowth", "glm_toothgrowth", "ALEPlot", "supp", 40,
       "two-level factor, Gamma glm"),
    _c("ale_toothgrowth_dose", "toothgrowth", "glm_toothgrowth", "ALEPlot", "dose", 40, "numeric with 3 values"),
]

PAIRS = [
    _c("ale2_smooth_x1_x2", "smooth", "smooth", "ALEPlot", ("x1", "x2"), 10, "correlated numeric pair"),
    _c("ale2_corr_x1_x2", "corr", "corr", "ALEPlot", ("x1", "x2"), 20, "strong correlation: many empty cells"),
    _c("ale2_corr_x1_x2_na_plot", "corr", "corr", "ALEPlot", ("x1", "x2"), 20,
       "NA.plot = FALSE: numbers as with TRUE", NA_plot=False),
    _c("ale2_corr_x2_x3", "corr", "corr", "ALEPlot", ("x2", "x3"), 12, "K1 != K2 after unique (integer second)"),
    _c("ale2_intgrid_x1_x2", "intgrid", "intgrid", "ALEPlot", ("x1", "x2"), 10,
       "integer grid: ties among nearest cells"),
    _c("ale2_intgrid_x1_x3", "intgrid", "intgrid", "ALEPlot", ("x1", "x3"), 40, "integer pair, K shrinks to 6 x 2"),
    _c("ale2_smooth_g_x1", "smooth", "smooth", "ALEPlot", ("g", "x1"), 10, "factor x numeric"),
    _c("ale2_corr_g_x2", "corr", "corr", "ALEPlot", ("g", "x2"), 15, "factor x numeric with empty cells"),
    _c("ale2_intgrid_g_x2", "intgrid", "intgrid", "ALEPlot", ("g", "x2"), 10,
       "factor x integer: empty cells, nearest-cell ties"),
    _c("ale2_tiny6_x1_x2", "tiny6", "tiny", "ALEPlot", ("x1", "x2"), 3, "pair in n = 6"),
    _c("ale2_boston_lstat_rm_rf", "boston_small", "rf_boston_small", "ALEPlot", ("lstat", "rm"), 8,
       "randomForest pair on Boston"),
    _c("ale2_iris_petals_lm", "iris", "lm_iris", "ALEPlot", ("Petal.Length", "Petal.Width"), 10,
       "lm with an interaction; ties"),
    _c("ale2_iris_species_sepal", "iris", "lm_iris", "ALEPlot", ("Species", "Sepal.Width"), 10,
       "factor x numeric on iris"),
    _c("ale2_airquality_temp_wind", "airquality", "lm_airquality", "ALEPlot", ("Temp", "Wind"), 8,
       "interaction in lm"),
    _c("ale2_mtcars_cyl_wt", "mtcars", "lm_mtcars", "ALEPlot", ("cyl", "wt"), 6, "factor x numeric, n = 32"),
    _c("pd_smooth_x1", "smooth", "smooth", "PDPlot", "x1", 20, "numeric PDP"),
    _c("pd_smooth_g", "smooth", "smooth", "PDPlot", "g", 10, "factor PDP, unused level"),
    _c("pd_smooth_x3_int", "smooth", "smooth", "PDPlot", "x3", 40, "integer PDP"),
    _c("pd_smooth_x1_k1", "smooth", "smooth", "PDPlot", "x1", 1, "PDP with K = 1"),
    _c("pd2_smooth_x1_x2", "smooth", "smooth", "PDPlot", ("x1", "x2"), 8, "numeric pair PDP"),
    _c("pd2_smooth_g_x2", "smooth", "smooth", "PDPlot", ("g", "x2"), 8, "factor x numeric PDP"),
    _c("pd_iris_petal_width", "iris", "lm_iris", "PDPlot", "Petal.Width", 15, "lm PDP"),
    _c("pd_mtcars_cyl", "mtcars", "lm_mtcars", "PDPlot", "cyl", 5, "factor PDP, lm"),
    _c("pd_boston_lstat_rf", "boston_small", "rf_boston_small", "PDPlot", "lstat", 10, "randomForest PDP"),
    _c("pd2_airquality_temp_wind", "airquality", "lm_airquality", "PDPlot", ("Temp", "Wind"), 5, "lm pair PDP"),
]

CASES = ONE_FEATURE + PAIRS


def synthetic(name: str, seed: int) -> pd.DataFrame | None:
    """The Python-generated data set (None for data taken from R)."""
    make = SYNTHETIC.get(name)
    return None if make is None else make(seed)
