"""The fixture cases for R's ``ale`` 0.5.0: data sets, models (R and Python twins) and calls.

``scripts/make_ale_fixtures.py`` runs every case in R (``ale::ALE`` then
``get``) and writes ``reference/ale/<name>.json``.  Synthetic data are made
here from a NumPy seed and handed to R; R's own data sets are read from R
and stored exactly.  Models are closed-form functions written once in R and
once in Python (``R_MODELS`` / ``PY_MODELS``), or models fitted in R whose
answers to every row ``ale`` asked about are recorded (``R_FITS``, replayed).

Library: cases that bootstrap a non-numeric (binary, categorical, ordinal)
feature are run with ``ale`` 0.5.0 with its one-line bootstrap fix (R library
``ale-fixed``, see ``docs/ale-package.md`` section 10); all others with ``ale``
0.5.0 as released.  Binary *numeric* features appear only in models additive in
that feature, where ``ale``'s use of the level code as the low value gives the
right answer (``docs/ale-package.md``, section 10, case 2).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

SEED = 20261123

# ----------------------------------------------------------------- synthetic data


def mixed_data(seed: int = SEED, n: int = 72) -> pd.DataFrame:
    """Every column type ale distinguishes, tied to one another so that level orders are not trivial.

    x1 uniform, x2 normal (depends on x1), k integer 1..6 with ties, b numeric 0/1,
    l logical, g factor (4 levels, declared out of alphabetical order), s character
    (3 lower-case strings: no locale question), o ordered factor (3 levels),
    u factor with an unused level, y a numeric response.
    """
    rng = np.random.default_rng(seed)
    x1 = rng.uniform(0, 2, n)
    x2 = 0.5 * x1 + rng.normal(0, 1, n)
    k = rng.integers(1, 7, n).astype(np.int64)
    b = (rng.uniform(0, 1, n) < 0.4).astype(float)
    l = rng.uniform(0, 1, n) < 0.3 + 0.2 * x1
    g_codes = np.clip((x1 * 2 + rng.normal(0, 0.6, n)).astype(int), 0, 3)
    g = pd.Categorical.from_codes(g_codes, categories=["b", "d", "a", "c"])
    s = np.array(["p", "q", "r"], dtype=object)[np.clip((x2 + 1.5).astype(int), 0, 2)]
    o = pd.Categorical.from_codes(rng.integers(0, 3, n), categories=["low", "mid", "high"], ordered=True)
    u = pd.Categorical.from_codes(rng.choice([0, 1, 3], n), categories=["e", "f", "z", "h"])  # "z" unused
    y = x1 ** 2 + x2 + rng.normal(0, 0.5, n)
    return pd.DataFrame({"x1": x1, "x2": x2, "k": k, "b": b, "l": l, "g": g, "s": s, "o": o, "u": u, "y": y})


def small_data(seed: int = SEED, n: int = 15) -> pd.DataFrame:
    """Few rows: bootstrap replicates with empty bins."""
    rng = np.random.default_rng(seed)
    x1 = np.round(rng.uniform(0, 1, n), 3)
    x2 = rng.normal(0, 1, n)
    g = pd.Categorical.from_codes(rng.integers(0, 3, n), categories=["m", "n", "w"])
    y = x1 + x2 + rng.normal(0, 0.1, n)
    return pd.DataFrame({"x1": x1, "x2": x2, "g": g, "y": y})


def class_data(seed: int = SEED, n: int = 60) -> pd.DataFrame:
    """A three-class response (factor) with numeric and categorical features."""
    rng = np.random.default_rng(seed)
    x1 = rng.normal(0, 1, n)
    x2 = rng.uniform(-1, 1, n)
    g = pd.Categorical.from_codes(rng.integers(0, 3, n), categories=["a", "b", "c"])
    cls = pd.Categorical.from_codes(rng.integers(0, 3, n), categories=["A", "B", "C"])
    return pd.DataFrame({"x1": x1, "x2": x2, "g": g, "cls": cls})


SYNTHETIC = {"mixed": mixed_data, "small": small_data, "class": class_data}


def synthetic(name: str, seed: int) -> pd.DataFrame | None:
    """Python-generated data (None for data taken from R)."""
    maker = SYNTHETIC.get(name)
    return None if maker is None else maker(seed)


# R's data sets: R code leaving the data frame in `train`.
R_DATA = {
    "mtcars": "train <- datasets::mtcars; rownames(train) <- NULL; train$cyl <- factor(train$cyl); "
              "train <- train[, c('mpg', 'cyl', 'disp', 'hp', 'wt', 'qsec')]",
    "mtcars_am": "train <- datasets::mtcars; rownames(train) <- NULL; train$am <- factor(train$am, labels = c('auto', 'manual')); "
                 "train <- train[, c('am', 'wt', 'hp', 'qsec')]",
    "airquality": "train <- na.omit(datasets::airquality); rownames(train) <- NULL; "
                  "train <- train[, c('Ozone', 'Solar.R', 'Wind', 'Temp', 'Month')]",
    "toothgrowth": "train <- datasets::ToothGrowth",
    "iris": "train <- datasets::iris",
}

# --------------------------------------------------------------------- models

G_EFFECT = {"a": 0.0, "b": 1.0, "c": -0.5, "d": 2.0}
S_EFFECT = {"p": 0.3, "q": -0.2, "r": 0.9}
O_EFFECT = {"low": 0.0, "mid": 0.7, "high": 0.4}
U_EFFECT = {"e": 0.1, "f": -0.4, "z": 5.0, "h": 0.6}

# Closed-form models: R body of function(object, newdata, type), and the Python twin below.
R_MODELS = {
    "mixed_smooth": """
        ge <- c(a = 0, b = 1, c = -0.5, d = 2)[as.character(newdata$g)]
        se <- c(p = 0.3, q = -0.2, r = 0.9)[as.character(newdata$s)]
        oe <- c(low = 0, mid = 0.7, high = 0.4)[as.character(newdata$o)]
        ue <- c(e = 0.1, f = -0.4, z = 5, h = 0.6)[as.character(newdata$u)]
        unname(newdata$x1^2 + sin(3 * newdata$x2) + 0.3 * newdata$k + 0.5 * newdata$b +
          newdata$l * (1 + newdata$x1) + ge + se + oe + ue + newdata$x1 * newdata$x2 +
          ge * newdata$x2 + oe * newdata$x1 + se * newdata$k / 4)""",
    "small_smooth": """
        ge <- c(m = 0, n = 1.5, w = -1)[as.character(newdata$g)]
        unname(newdata$x1^3 + newdata$x2 * newdata$x1 + ge * newdata$x1 + ge)""",
    "class_probs": """
        ge <- c(a = 0, b = 1, c = -1)[as.character(newdata$g)]
        s1 <- exp(newdata$x1 + 0.5 * ge)
        s2 <- exp(newdata$x2 * newdata$x1)
        s3 <- exp(0.3 * ge - newdata$x2)
        total <- s1 + s2 + s3
        out <- cbind(s1 / total, s2 / total, s3 / total)
        colnames(out) <- c("A", "B", "C")
        out""",
    "iris_probs": """
        s1 <- exp(2 - newdata$Petal.Length)
        s2 <- exp(newdata$Sepal.Width - 2 + 0.2 * newdata$Petal.Length * newdata$Petal.Width)
        s3 <- exp(newdata$Petal.Width * 1.5 - 1 + 0.3 * newdata$Sepal.Length)
        total <- s1 + s2 + s3
        out <- cbind(s1 / total, s2 / total, s3 / total)
        colnames(out) <- c("setosa", "versicolor", "virginica")
        out""",
}


def _effect(column, table: dict) -> np.ndarray:
    return np.array([table[str(v)] for v in column], dtype=float)


def _num(frame: pd.DataFrame, name: str) -> np.ndarray:
    return frame[name].to_numpy(dtype=float)


def mixed_smooth(newdata: pd.DataFrame) -> np.ndarray:
    ge = _effect(newdata["g"], G_EFFECT)
    se = _effect(newdata["s"], S_EFFECT)
    oe = _effect(newdata["o"], O_EFFECT)
    ue = _effect(newdata["u"], U_EFFECT)
    x1, x2, k, b = (_num(newdata, c) for c in ("x1", "x2", "k", "b"))
    l_ = newdata["l"].to_numpy(dtype=float)
    return (x1 ** 2 + np.sin(3 * x2) + 0.3 * k + 0.5 * b + l_ * (1 + x1) + ge + se + oe + ue + x1 * x2
            + ge * x2 + oe * x1 + se * k / 4)


def small_smooth(newdata: pd.DataFrame) -> np.ndarray:
    ge = _effect(newdata["g"], {"m": 0.0, "n": 1.5, "w": -1.0})
    x1, x2 = _num(newdata, "x1"), _num(newdata, "x2")
    return x1 ** 3 + x2 * x1 + ge * x1 + ge


def class_probs(newdata: pd.DataFrame) -> pd.DataFrame:
    ge = _effect(newdata["g"], {"a": 0.0, "b": 1.0, "c": -1.0})
    x1, x2 = _num(newdata, "x1"), _num(newdata, "x2")
    s1, s2, s3 = np.exp(x1 + 0.5 * ge), np.exp(x2 * x1), np.exp(0.3 * ge - x2)
    total = s1 + s2 + s3
    return pd.DataFrame({"A": s1 / total, "B": s2 / total, "C": s3 / total})


def iris_probs(newdata: pd.DataFrame) -> pd.DataFrame:
    pl, pw, sw, sl = (_num(newdata, c) for c in ("Petal.Length", "Petal.Width", "Sepal.Width", "Sepal.Length"))
    s1 = np.exp(2 - pl)
    s2 = np.exp(sw - 2 + 0.2 * pl * pw)
    s3 = np.exp(pw * 1.5 - 1 + 0.3 * sl)
    total = s1 + s2 + s3
    return pd.DataFrame({"setosa": s1 / total, "versicolor": s2 / total, "virginica": s3 / total})


PY_MODELS = {"mixed_smooth": mixed_smooth, "small_smooth": small_smooth, "class_probs": class_probs,
             "iris_probs": iris_probs}

# R-fitted models, replayed: R code fitting `fit` on `train`.
R_FITS = {
    "lm_mtcars": "fit <- lm(mpg ~ wt + hp + qsec + cyl + I(wt^2) + wt:hp, data = train)",
    "glm_mtcars_am": "fit <- suppressWarnings(glm(am ~ wt + hp, data = train, family = binomial))",
    "lm_airquality": "fit <- lm(Ozone ~ Solar.R + Wind + Temp + Month + Temp:Wind, data = train)",
    "lm_toothgrowth": "fit <- lm(len ~ supp * dose + I(dose^2), data = train)",
}


@dataclass(frozen=True)
class Case:
    """One ``ale::ALE`` call.

    data : a key of SYNTHETIC (made in Python from ``seed``) or R_DATA (taken from R)
    model : a key of R_MODELS (closed form) or R_FITS (fitted in R, replayed)
    x_cols : the terms: names, ``"a:b"`` for 2-D terms; ``("d1",)`` for ``list(d1 = TRUE)``
    y_col : the response column
    max_num_bins, boot_it, boot_alpha, boot_centre, ale_seed, pred_type : ALE()'s arguments
        (``ale_seed`` is ALE()'s ``seed``)
    library : "ale" (0.5.0 as released) or "ale-fixed" (with the bootstrap fix)
    note : why the case exists
    known_faults : {term: reason} for terms where R's stored answer is wrong (pyale's
        right answer must differ there; docs/ale-package.md, section 10)
    """

    name: str
    data: str
    model: str
    x_cols: tuple
    y_col: str
    max_num_bins: int = 10
    boot_it: int = 0
    boot_alpha: float = 0.05
    boot_centre: str = "mean"
    ale_seed: int = 0
    pred_type: str = "response"
    library: str = "ale"
    note: str = ""
    seed: int = SEED
    known_faults: dict = field(default_factory=dict)


def _mixed(name, x_cols, **kw):
    return Case(name, "mixed", "mixed_smooth", tuple(x_cols), "y", **kw)


CASES = [
    # --- one feature, no bootstrap
    _mixed("num_x1", ["x1"], note="numeric, default max_num_bins 10"),
    _mixed("num_x2_b5", ["x2"], max_num_bins=5, note="numeric, 5 bins"),
    _mixed("num_x1_b2", ["x1"], max_num_bins=2, note="the smallest max_num_bins: ceilings min and max"),
    _mixed("num_x2_b40", ["x2"], max_num_bins=40, note="many bins on 72 rows"),
    _mixed("int_k", ["k"], note="integer 1..6 with ties: fewer ceilings than max_num_bins"),
    _mixed("int_k_b4", ["k"], max_num_bins=4, note="integer with ties, 4 bins"),
    _mixed("binary_num_b", ["b"], note="numeric 0/1 -> binary (model additive in b)"),
    _mixed("binary_logical_l", ["l"], note="logical -> binary, with an interaction"),
    _mixed("cat_factor_g", ["g"], note="factor with 4 levels: MDS order, backward differences"),
    _mixed("cat_character_s", ["s"], note="character column -> categorical"),
    _mixed("ord_o", ["o"], note="ordered factor: level order kept"),
    _mixed("unused_levels_u", ["u"], note="factor with an unused level (droplevels)"),
    _mixed("all_d1", ["d1"], max_num_bins=6, note="x_cols = list(d1 = TRUE): every column but y"),
    # --- two features
    _mixed("pair_num_num", ["x1:x2"], max_num_bins=5, note="numeric x numeric"),
    _mixed("pair_num_num_b9", ["x1:x2"], max_num_bins=9, note="numeric x numeric with empty cells: intrapolation"),
    _mixed("pair_cat_num", ["g:x2"], max_num_bins=5, note="categorical x numeric"),
    _mixed("pair_num_cat", ["x1:g"], max_num_bins=4, note="numeric x categorical"),
    _mixed("pair_logical_num", ["l:x1"], max_num_bins=6, note="binary x numeric"),
    _mixed("pair_ord_cat", ["o:g"], note="ordinal x categorical"),
    _mixed("pair_and_singles", ["x1", "g", "x2:k", "x1:x2"], max_num_bins=5,
           note="1-D and 2-D terms together; terms requested out of data order"),
    # --- R data and R fits (replayed)
    Case("mtcars_lm_wt", "mtcars", "lm_mtcars", ("wt", "hp"), "mpg", note="lm fitted in R, replayed"),
    Case("mtcars_lm_cyl", "mtcars", "lm_mtcars", ("cyl", "wt:cyl"), "mpg", max_num_bins=5,
         note="factor with 3 levels from mtcars; numeric x categorical pair"),
    Case("mtcars_glm_response", "mtcars_am", "glm_mtcars_am", ("wt", "hp"), "am", max_num_bins=6,
         note="binary response: y_vals are the predicted probabilities"),
    Case("mtcars_glm_link", "mtcars_am", "glm_mtcars_am", ("wt",), "am", pred_type="link",
         note="binary response, pred_type 'link'"),
    Case("airquality_lm", "airquality", "lm_airquality", ("Temp", "Month", "Wind:Temp"), "Ozone", max_num_bins=8,
         note="R's airquality (complete rows): ties, integer Month"),
    Case("toothgrowth_lm", "toothgrowth", "lm_toothgrowth", ("supp", "dose", "supp:dose"), "len",
         note="two-level factor supp -> binary; dose has three values"),
    Case("iris_multiclass", "iris", "iris_probs", ("Petal.Length", "Sepal.Width", "Sepal.Width:Petal.Width"), "Species",
         max_num_bins=6, note="class probabilities: one table per class (categorical response)",
         known_faults={"Sepal.Width:Petal.Width": "2-D term with several response classes: ale subtracts the "
                       "lower-order parts of other classes and cells (docs/ale-package.md, section 10, case 13)"}),
    Case("class_multiclass", "class", "class_probs", ("x1", "g"), "cls", note="three-class response, synthetic"),
    # --- bootstrap, numeric features (ale as released)
    _mixed("boot_num_x1_s0", ["x1"], boot_it=20, note="bootstrap, default seed 0"),
    _mixed("boot_num_x2_s7", ["x2"], boot_it=15, ale_seed=7, boot_alpha=0.1, max_num_bins=6,
           note="bootstrap, seed 7, boot_alpha 0.1"),
    _mixed("boot_num_median", ["x1", "k"], boot_it=12, ale_seed=3, boot_centre="median",
           note="boot_centre median; two terms share the resamples"),
    _mixed("boot_pair_num", ["x1:x2"], boot_it=8, ale_seed=11, max_num_bins=4, note="bootstrapped 2-D term"),
    Case("boot_small_empty_bins", "small", "small_smooth", ("x1",), "y", boot_it=25, ale_seed=5,
         note="15 rows, 10 bins: replicates with empty bins (NA to the end of the curve)"),
    Case("boot_multiclass_num", "class", "class_probs", ("x2",), "cls", boot_it=10, ale_seed=2, max_num_bins=5,
         note="bootstrap with class probabilities"),
    Case("boot_mtcars_lm", "mtcars", "lm_mtcars", ("wt",), "mpg", boot_it=10, ale_seed=4, max_num_bins=6,
         note="bootstrap of an R fit (replayed)"),
    # --- bootstrap, non-numeric features (ale with the one-line fix)
    _mixed("boot_cat_g_s1", ["g"], boot_it=20, ale_seed=1, library="ale-fixed",
           note="bootstrapped categorical feature (fixed ale)"),
    _mixed("boot_cat_g_s2_a20", ["g"], boot_it=15, ale_seed=2, boot_alpha=0.2, library="ale-fixed",
           note="bootstrapped categorical, seed 2, boot_alpha 0.2 (fixed ale)"),
    _mixed("boot_ord_o", ["o"], boot_it=12, ale_seed=9, boot_centre="median", library="ale-fixed",
           note="bootstrapped ordinal, boot_centre median (fixed ale)"),
    _mixed("boot_logical_l", ["l"], boot_it=12, ale_seed=4, library="ale-fixed",
           note="bootstrapped binary (logical) feature (fixed ale)"),
    _mixed("boot_char_s", ["s", "x1"], boot_it=10, ale_seed=6, library="ale-fixed",
           note="bootstrapped character feature beside a numeric one (fixed ale)"),
    _mixed("boot_pair_cat_num", ["g:x2"], boot_it=8, ale_seed=8, max_num_bins=4, library="ale-fixed",
           note="bootstrapped categorical x numeric (fixed ale)"),
    Case("boot_small_cat", "small", "small_smooth", ("g",), "y", boot_it=25, ale_seed=12, library="ale-fixed",
         note="15 rows: replicates missing a level (NA to the end of the curve) (fixed ale)"),
]

HELD_BACK_SEEDS = [(31, 1001), (32, 1002)]  # (data seed, ale seed) pairs no fixture uses
HELD_BACK = ["num_x1", "int_k", "cat_factor_g", "pair_num_num_b9", "pair_cat_num", "class_multiclass",
             "boot_num_x1_s0", "boot_small_empty_bins", "boot_cat_g_s1", "boot_pair_cat_num"]
