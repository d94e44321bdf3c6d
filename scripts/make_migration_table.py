"""Regenerate the generated parts of docs/migrating-from-r.md: R against pyale, call by call.

    python scripts/make_migration_table.py

Needs R with ALEPlot 1.1 and iml 0.11.4, and rpy2; for the ``ale`` rows, R's ale 0.5.0
in the library ``$ALE_R_LIB`` (default ``~/Rlib-ale``: ale needs newer packages than
iml's, so its calls run in a child process whose R starts with that library first).
What it does, in order:

1. R writes ``na.omit(datasets::airquality)`` to docs/examples/airquality.csv,
   every number written so that it reads back as the same double.
2. R sources docs/examples/migration.R and Python runs docs/examples/migration.py;
   their printed tables are captured, and the objects they define (data ``X``,
   the model ``ozone`` and the classifier ``ozone_class``, ``pred.fun`` /
   ``pred_fun``, the iml predictors) are the environment of every call below.
   The two ``X`` are checked to be identical.
   For the ``ale`` rows, ``ALE_R_SETUP`` and ``ALE_PY_SETUP`` then add the data with
   the response (``dat``, ``dat_class``) and R's ``pred_fun`` (``pf``, ``pf_class``).
3. Each entry of ``CASES`` is run in R and in Python; every cell of the two
   answers is compared (labels, levels, ``K`` and column names exactly,
   numbers with rtol 1e-10 and an absolute floor of 1e-10 times the range of
   R's values in that column, as ``pyale validate``).
4. The table, both scripts, both outputs, the ale setup and the versions are written into
   docs/migrating-from-r.md between the ``<!-- BEGIN GENERATED: ... -->`` and
   ``<!-- END GENERATED: ... -->`` markers; the prose around them is kept.

Exit status 1 when any call differs (its row says so), 3 without R.
Importing this module needs neither R nor rpy2 (tests read ``CASES``).
"""

from __future__ import annotations

import contextlib
import datetime
import io
import json
import os
import platform
import re
import runpy
import subprocess
import sys
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "migrating-from-r.md"
EXAMPLES = ROOT / "docs" / "examples"
R_SCRIPT = EXAMPLES / "migration.R"
PY_SCRIPT = EXAMPLES / "migration.py"
CSV = EXAMPLES / "airquality.csv"
RTOL = 1e-10
ATOL_SCALE = 1e-10
SEED = 20261122  # set before every R call


@dataclass(frozen=True)
class Case:
    """One R call and its pyale equivalent, each evaluated in its script's environment."""

    r: str
    py: str


# fmt: off
CASES = [
    # ALEPlot::ALEPlot: one numeric (double, integer) or factor feature, pairs numeric x numeric and factor x numeric
    Case("ALEPlot(X, NULL, pred.fun, J = 2, K = 10)", 'pyale.ALEPlot(X, None, pred_fun, J=1, K=10, plot=False)'),
    Case("ALEPlot(X, NULL, pred.fun, J = 3)", 'pyale.ALEPlot(X, None, pred_fun, J="Temp", plot=False)'),
    Case("ALEPlot(X, NULL, pred.fun, J = 4)", 'pyale.ALEPlot(X, None, pred_fun, J="Month", plot=False)'),
    Case("ALEPlot(X, NULL, pred.fun, J = c(2, 3), K = 10)",
         'pyale.ALEPlot(X, None, pred_fun, J=("Wind", "Temp"), K=10, plot=False)'),
    Case("ALEPlot(X, NULL, pred.fun, J = c(4, 3), K = 10, NA.plot = FALSE)",
         'pyale.ALEPlot(X, None, pred_fun, J=(3, 2), K=10, NA_plot=False, plot=False)'),
    # ALEPlot::PDPlot: one feature, pairs
    Case("PDPlot(X, NULL, pred.fun, J = 3, K = 20)", 'pyale.PDPlot(X, None, pred_fun, J="Temp", K=20, plot=False)'),
    Case("PDPlot(X, NULL, pred.fun, J = 4, K = 10)", 'pyale.PDPlot(X, None, pred_fun, J="Month", K=10, plot=False)'),
    Case("PDPlot(X, NULL, pred.fun, J = c(2, 3), K = 10)",
         'pyale.PDPlot(X, None, pred_fun, J=("Wind", "Temp"), K=10, plot=False)'),
    Case("PDPlot(X, NULL, pred.fun, J = c(4, 3), K = 10)",
         'pyale.PDPlot(X, None, pred_fun, J=("Month", "Temp"), K=10, plot=False)'),
    # iml: Predictor$new(data = X, predict.function = ozone) is `predictor`
    Case('predictor$predict(X[1:5, ])', 'predictor.predict(X.iloc[:5])'),
    Case('FeatureEffect$new(predictor, "Temp")$results', 'pyale.FeatureEffect(predictor, "Temp").results'),
    Case('FeatureEffect$new(predictor, "Wind", grid.size = 10)$results',
         'pyale.FeatureEffect(predictor, "Wind", grid_size=10).results'),
    Case('FeatureEffect$new(predictor, "Month")$results', 'pyale.FeatureEffect(predictor, "Month").results'),
    Case('FeatureEffect$new(predictor, "Wind", method = "pdp", grid.size = 10)$results',
         'pyale.FeatureEffect(predictor, "Wind", method="pdp", grid_size=10).results'),
    Case('FeatureEffect$new(predictor, "Temp", method = "ice", grid.size = 5)$results',
         'pyale.FeatureEffect(predictor, "Temp", method="ice", grid_size=5).results'),
    Case('FeatureEffect$new(predictor, "Wind", method = "pdp+ice", center.at = 10, grid.size = 5)$results',
         'pyale.FeatureEffect(predictor, "Wind", method="pdp+ice", center_at=10, grid_size=5).results'),
    Case('FeatureEffect$new(predictor, "Month", method = "pdp")$results',
         'pyale.FeatureEffect(predictor, "Month", method="pdp").results'),
    Case('FeatureEffect$new(predictor, c("Wind", "Temp"), grid.size = 10)$results',
         'pyale.FeatureEffect(predictor, ["Wind", "Temp"], grid_size=10).results'),
    Case('FeatureEffect$new(predictor, c("Month", "Temp"), grid.size = 10)$results',
         'pyale.FeatureEffect(predictor, ["Month", "Temp"], grid_size=10).results'),
    Case('FeatureEffect$new(predictor, c("Wind", "Month"), grid.size = 10)$results',
         'pyale.FeatureEffect(predictor, ["Wind", "Month"], grid_size=10).results'),
    Case('FeatureEffect$new(predictor, c("Wind", "Temp"), method = "pdp", grid.size = 5)$results',
         'pyale.FeatureEffect(predictor, ["Wind", "Temp"], method="pdp", grid_size=5).results'),
    Case('FeatureEffects$new(predictor, grid.size = 10)$results',
         'pyale.FeatureEffects(predictor, grid_size=10).results'),
    Case('FeatureEffects$new(predictor, features = c("Wind", "Month"), method = "pdp")$results',
         'pyale.FeatureEffects(predictor, features=["Wind", "Month"], method="pdp").results'),
    # iml with class probabilities: Predictor$new(data = X, predict.function = ozone_class) is `classifier`
    Case('classifier$predict(X[1:5, ])', 'classifier.predict(X.iloc[:5])'),
    Case('FeatureEffect$new(classifier, "Temp", grid.size = 10)$results',
         'pyale.FeatureEffect(classifier, "Temp", grid_size=10).results'),
    Case('FeatureEffect$new(classifier, "Month", method = "pdp")$results',
         'pyale.FeatureEffect(classifier, "Month", method="pdp").results'),
    Case('FeatureEffect$new(classifier, c("Month", "Temp"), grid.size = 5)$results',
         'pyale.FeatureEffect(classifier, ["Month", "Temp"], grid_size=5).results'),
    Case('FeatureEffect$new(Predictor$new(data = X, predict.function = ozone_class, class = "high"), "Wind")$results',
         'pyale.FeatureEffect(pyale.Predictor(data=X, predict_function=ozone_class, class_="high"), "Wind").results'),
    # pyale.ale(), ALEPlot's conventions (the default)
    Case("ALEPlot(X, NULL, pred.fun, J = 2, K = 10)", 'pyale.ale(ozone, X, "Wind", n_intervals=10)'),
    Case("ALEPlot(X, NULL, pred.fun, J = 4)", 'pyale.ale(ozone, X, "Month")'),
    Case("ALEPlot(X, NULL, pred.fun, J = c(2, 3), K = 10)", 'pyale.ale(ozone, X, ("Wind", "Temp"), n_intervals=10)'),
    Case("ALEPlot(X, NULL, pred.fun, J = c(4, 3), K = 10)", 'pyale.ale(ozone, X, ("Month", "Temp"), n_intervals=10)'),
    # pyale.ale(), iml's conventions
    Case('FeatureEffect$new(predictor, "Temp")$results', 'pyale.ale(ozone, X, "Temp", conventions="iml")'),
    Case('FeatureEffect$new(predictor, "Month")$results', 'pyale.ale(ozone, X, "Month", conventions="iml")'),
    Case('FeatureEffect$new(predictor, c("Wind", "Temp"), grid.size = 10)$results',
         'pyale.ale(ozone, X, ("Wind", "Temp"), conventions="iml", n_intervals=10)'),
    Case('FeatureEffect$new(predictor, c("Month", "Temp"), grid.size = 10)$results',
         'pyale.ale(ozone, X, ("Month", "Temp"), conventions="iml", n_intervals=10)'),
    Case('FeatureEffect$new(predictor, c("Wind", "Month"), grid.size = 10)$results',
         'pyale.ale(ozone, X, ("Wind", "Month"), conventions="iml", n_intervals=10)'),
    Case('FeatureEffect$new(classifier, "Temp", grid.size = 10)$results',
         'pyale.ale(ozone_class, X, "Temp", conventions="iml", n_intervals=10)'),
    # ale::ALE and get(): dat = X with the response Ozone, pf = function(object, newdata, type) ozone(newdata)
    Case('get(ALE(NULL, "Wind", dat, "Ozone", pred_fun = pf, parallel = 0, p_values = NULL), "Wind")',
         'pyale.ALE(None, "Wind", dat, "Ozone", pred_fun=pf).get("Wind")'),
    Case('get(ALE(NULL, "Month", dat, "Ozone", pred_fun = pf, parallel = 0, p_values = NULL), "Month")',
         'pyale.ALE(None, "Month", dat, "Ozone", pred_fun=pf).get("Month")'),
    Case('get(ALE(NULL, c("Solar.R", "Temp"), dat, "Ozone", pred_fun = pf, max_num_bins = 20, parallel = 0, '
         'p_values = NULL))',
         'pyale.ALE(None, ["Solar.R", "Temp"], dat, "Ozone", pred_fun=pf, max_num_bins=20).get()'),
    Case('get(ALE(NULL, "Wind:Temp", dat, "Ozone", pred_fun = pf, max_num_bins = 6, parallel = 0, '
         'p_values = NULL), "Wind:Temp")',
         'pyale.ALE(None, "Wind:Temp", dat, "Ozone", pred_fun=pf, max_num_bins=6).get("Wind:Temp")'),
    Case('get(ALE(NULL, "Month:Temp", dat, "Ozone", pred_fun = pf, max_num_bins = 6, parallel = 0, '
         'p_values = NULL), "Month:Temp")',
         'pyale.ALE(None, "Month:Temp", dat, "Ozone", pred_fun=pf, max_num_bins=6).get("Month:Temp")'),
    Case('get(ALE(NULL, "Temp", dat, "Ozone", pred_fun = pf, boot_it = 50, seed = 7, parallel = 0, '
         'p_values = NULL), "Temp")',
         'pyale.ALE(None, "Temp", dat, "Ozone", pred_fun=pf, boot_it=50, seed=7).get("Temp")'),
    Case('get(ALE(NULL, c("Wind", "Temp"), dat, "Ozone", pred_fun = pf, boot_it = 30, boot_alpha = 0.1, '
         'boot_centre = "median", parallel = 0, p_values = NULL), stats = "estimate")',
         'pyale.ALE(None, ["Wind", "Temp"], dat, "Ozone", pred_fun=pf, boot_it=30, boot_alpha=0.1, '
         'boot_centre="median").get(stats="estimate")'),
    Case('get(ALE(NULL, c("Wind", "Wind:Temp"), dat, "Ozone", pred_fun = pf, max_num_bins = 5, boot_it = 20, '
         'seed = 3, parallel = 0, p_values = NULL), stats = "all")',
         'pyale.ALE(None, ["Wind", "Wind:Temp"], dat, "Ozone", pred_fun=pf, max_num_bins=5, boot_it=20, '
         'seed=3).get(stats="all")'),
    Case('get(ALE(NULL, "Temp", dat_class, "level", pred_fun = pf_class, parallel = 0, p_values = NULL), "Temp")',
         'pyale.ALE(None, "Temp", dat_class, "level", pred_fun=pf_class).get("Temp")'),
    # pyale.ale(), ale's conventions: get()'s .y centred at zero
    Case('get(ALE(NULL, "Wind", dat, "Ozone", pred_fun = pf, parallel = 0, p_values = NULL), "Wind", '
         'ale_centre = "zero")', 'pyale.ale(ozone, X, "Wind", conventions="ale")'),
    Case('get(ALE(NULL, "Month", dat, "Ozone", pred_fun = pf, parallel = 0, p_values = NULL), "Month", '
         'ale_centre = "zero")', 'pyale.ale(ozone, X, "Month", conventions="ale")'),
    Case('get(ALE(NULL, "Wind:Temp", dat, "Ozone", pred_fun = pf, max_num_bins = 6, parallel = 0, '
         'p_values = NULL), "Wind:Temp", ale_centre = "zero")',
         'pyale.ale(ozone, X, ("Wind", "Temp"), conventions="ale", n_intervals=5)'),
]
# fmt: on

#: Added, after migration.R and migration.py, for the ale rows (shown in the document).
ALE_R_SETUP = """\
library(ale)
dat <- cbind(X, Ozone = aq$Ozone)  # ALE() takes the data with the response
dat_class <- cbind(X, level = cut(aq$Ozone, c(-Inf, 30, 70, Inf), labels = c("low", "mid", "high")))
pf <- function(object, newdata, type) ozone(newdata)
pf_class <- function(object, newdata, type) as.matrix(ozone_class(newdata))
"""
ALE_PY_SETUP = """\
dat = X.assign(Ozone=aq["Ozone"])  # ALE() takes the data with the response
dat_class = X.assign(level=pd.cut(aq["Ozone"], [-np.inf, 30, 70, np.inf], labels=["low", "mid", "high"],
                                  ordered=False))  # R's cut() gives an unordered factor


def pf(object, newdata, type):
    return ozone(newdata)


def pf_class(object, newdata, type):
    return ozone_class(newdata)
"""


def is_ale(case: Case) -> bool:
    """Whether the R side of a case needs R's ale (run in the child process)."""
    return "ALE(" in case.r

R_HELPERS = r"""
.mig_column <- function(col) {
  if (is.factor(col)) list(kind = "factor", levels = levels(col), values = as.character(col))
  else if (is.character(col)) list(kind = "character", levels = character(0), values = col)
  else list(kind = typeof(col), levels = character(0), values = as.double(col))
}
.mig_export <- function(x) {
  if (is.data.frame(x)) return(list(kind = "frame", columns = lapply(x, .mig_column)))
  if (!is.null(x$f.values)) {
    xv <- if (is.list(x$x.values)) x$x.values else list(x$x.values)
    return(list(kind = "effect", K = if (is.null(x$K)) double(0) else as.double(x$K),
                x = lapply(xv, .mig_column), f = as.double(x$f.values),
                dim = if (is.null(dim(x$f.values))) length(x$f.values) else dim(x$f.values)))
  }
  list(kind = "frames", frames = lapply(x, .mig_export))
}
.mig_exact <- function(x) {  # every double written so that it reads back as the same double
  if (!is.double(x)) return(as.character(x))
  out <- sprintf("%.15g", x)
  bad <- as.numeric(out) != x
  out[bad] <- sprintf("%.17g", x[bad])
  out
}
"""


# ---------------------------------------------------------------- answers as plain Python
def _r_column(col) -> dict:
    kind = str(col.rx2("kind")[0])
    raw = col.rx2("values")
    if kind in ("factor", "character"):
        values = [None if v is None or type(v).__name__ == "NACharacterType" else str(v) for v in raw]
        return {"kind": kind, "levels": [str(v) for v in col.rx2("levels")], "values": values}
    return {"kind": kind, "values": np.asarray(raw, dtype=float)}


def _from_r(exported) -> dict:
    kind = str(exported.rx2("kind")[0])
    if kind == "frame":
        columns = exported.rx2("columns")
        return {"kind": "frame", "columns": {str(n): _r_column(c) for n, c in zip(columns.names, columns)}}
    if kind == "effect":
        dim = tuple(int(d) for d in exported.rx2("dim"))
        return {"kind": "effect", "K": [int(k) for k in exported.rx2("K")],
                "x": [_r_column(c) for c in exported.rx2("x")],
                "f": np.asarray(exported.rx2("f"), dtype=float).reshape(dim, order="F")}
    frames = exported.rx2("frames")
    return {"kind": "frames", "frames": {str(n): _from_r(f) for n, f in zip(frames.names, frames)}}


def _py_column(series: pd.Series) -> dict:
    if isinstance(series.dtype, pd.CategoricalDtype):
        return {"kind": "factor", "levels": [str(v) for v in series.cat.categories],
                "values": [None if pd.isna(v) else str(v) for v in series]}
    if pd.api.types.is_numeric_dtype(series.dtype) and not pd.api.types.is_bool_dtype(series.dtype):
        kind = "integer" if pd.api.types.is_integer_dtype(series.dtype) else "double"
        return {"kind": kind, "values": series.to_numpy(dtype=float, na_value=np.nan)}
    return {"kind": "character", "levels": [], "values": [None if pd.isna(v) else str(v) for v in series]}


def _py_frame(frame: pd.DataFrame) -> dict:
    return {"kind": "frame", "columns": {str(n): _py_column(frame[n]) for n in frame.columns}}


# ---------------------------------------------------------------- comparison
@dataclass
class Outcome:
    """Cells compared, the largest differences, and every problem found."""

    cells: int = 0
    max_abs: float = 0.0
    max_rel: float = 0.0
    problems: list = field(default_factory=list)

    @property
    def match(self) -> bool:
        return not self.problems and self.cells > 0

    def numbers(self, r_values, py_values, what: str) -> None:
        r_values = np.asarray(r_values, dtype=float)
        py_values = np.asarray(py_values, dtype=float)
        if r_values.shape != py_values.shape:
            self.problems.append(f"{what}: shape {py_values.shape}, R {r_values.shape}")
            return
        self.cells += r_values.size
        both_nan = np.isnan(r_values) & np.isnan(py_values)
        with np.errstate(invalid="ignore"):
            diff = np.where(both_nan, 0.0, np.abs(r_values - py_values))
        if np.isnan(diff).any():
            self.problems.append(f"{what}: NA in one answer only")
            return
        if diff.size:
            self.max_abs = max(self.max_abs, float(diff.max()))
            nonzero = r_values != 0
            nonzero &= ~both_nan
            if nonzero.any():
                self.max_rel = max(self.max_rel, float((diff[nonzero] / np.abs(r_values[nonzero])).max()))
        finite = r_values[np.isfinite(r_values)]
        atol = ATOL_SCALE * max(1.0, float(np.ptp(finite)) if finite.size else 0.0)
        if not np.allclose(py_values, r_values, rtol=RTOL, atol=atol, equal_nan=True):
            self.problems.append(f"{what}: differs")

    def labels(self, r_values, py_values, what: str) -> None:
        self.cells += len(r_values)
        if list(r_values) != list(py_values):
            self.problems.append(f"{what}: {list(py_values)[:6]}, R {list(r_values)[:6]}")

    def column(self, r_col: dict, py_col: dict, what: str) -> None:
        r_kind, py_kind = r_col["kind"], py_col["kind"]
        if r_kind != py_kind:
            self.problems.append(f"{what}: type {py_kind}, R {r_kind}")
        if r_kind in ("factor", "character") or py_kind in ("factor", "character"):
            if r_kind == "factor" and py_kind == "factor" and r_col["levels"] != py_col["levels"]:
                self.problems.append(f"{what}: levels {py_col['levels']}, R {r_col['levels']}")
            self.labels(r_col["values"], py_col["values"], what)
        else:
            self.numbers(r_col["values"], py_col["values"], what)


def _compare_frames(r: dict, py: dict, out: Outcome, what: str = "results") -> None:
    if list(r["columns"]) != list(py["columns"]):
        out.problems.append(f"{what} columns {list(py['columns'])}, R {list(r['columns'])}")
        return
    out.cells += len(r["columns"])  # the column names
    for name in r["columns"]:
        out.column(r["columns"][name], py["columns"][name], f"{what}[{name!r}]")


def _compare_effect(r: dict, result, out: Outcome) -> None:
    """R's list(K, x.values, f.values) against an ALEPlotResult / PDPlotResult."""
    pair = result.is_pair
    if r["K"]:
        k = list(result.K) if pair else [result.K]
        out.labels(r["K"], [int(v) for v in k], "K")
    x_values = list(result.x_values) if pair else [result.x_values]
    for axis, (r_col, values) in enumerate(zip(r["x"], x_values)):
        if r_col["kind"] in ("factor", "character"):
            out.labels(r_col["values"], [str(v) for v in values], f"x.values[{axis}]")
        else:
            out.numbers(r_col["values"], values, f"x.values[{axis}]")
    out.numbers(r["f"], np.asarray(result.f_values, dtype=float), "f.values")


def _compare_ale_with_list(r: dict, result, out: Outcome) -> None:
    """R's ALEPlot list against pyale.ale(conventions="aleplot")."""
    for axis, (r_col, values) in enumerate(zip(r["x"], result.grid)):
        if r_col["kind"] in ("factor", "character"):
            out.labels(r_col["values"], [str(v) for v in values], f"grid[{axis}]")
        else:
            out.numbers(r_col["values"], values, f"grid[{axis}]")
    out.numbers(r["f"], result.effects[..., 0], "effects")


def _compare_ale_with_results(r: dict, result, out: Outcome) -> None:
    """iml's results table against pyale.ale(conventions="iml"), row by row through the feature values."""
    columns = r["columns"]
    value = ".ale" if ".ale" in columns else ".value"
    frame = result.to_frame()

    def key_part(col: dict, i: int):
        v = col["values"][i]
        return str(v) if col["kind"] in ("factor", "character") else float(v)

    n_features = len(result.features)
    ours = {}
    for values in frame.itertuples(index=False, name=None):  # features..., output, ale, ...
        key = tuple(str(v) if isinstance(v, str) else float(v) for v in values[:n_features])
        ours[key + (str(values[n_features]),)] = float(values[n_features + 1])
    n = len(columns[value]["values"])
    r_values, py_values, missing = [], [], 0
    for i in range(n):
        key = tuple(key_part(columns[str(f)], i) for f in result.features)
        output = columns[".class"]["values"][i] if ".class" in columns else "yhat"
        found = ours.get(key + (str(output),))
        if found is None:
            missing += 1
            continue
        r_values.append(columns[value]["values"][i])
        py_values.append(found)
    if missing or n != len(ours):
        out.problems.append(f"{missing} of R's {n} rows have no pyale node; pyale has {len(ours)} nodes")
    out.cells += len(r_values) * (n_features + (2 if ".class" in columns else 1))
    out.numbers(r_values, py_values, value)


def _compare_ale_with_get(r: dict, result, out: Outcome) -> None:
    """ale's get(..., ale_centre = "zero") table against pyale.ale(conventions="ale"): bins and .y."""
    columns = r["columns"]
    shape = result.effects.shape[:-1]
    for axis, (name, values) in enumerate(zip(result.features, result.grid)):
        key = f"{name}.ceil" if f"{name}.ceil" in columns else f"{name}.bin"
        if key not in columns:
            out.problems.append(f"R's table has no column {name}.ceil or {name}.bin")
            return
        step = int(np.prod(shape[:axis]))
        r_col = columns[key]
        taken = {"kind": r_col["kind"], "levels": r_col.get("levels", []),
                 "values": r_col["values"][::step][: shape[axis]]}
        if r_col["kind"] in ("factor", "character"):
            out.labels(taken["values"], [str(v) for v in values], f"grid[{axis}]")
        else:
            out.numbers(taken["values"], values, f"grid[{axis}]")
    out.numbers(columns[".y"]["values"], result.effects[..., 0].ravel(order="F"), ".y")


def compare(r: dict, py) -> Outcome:
    """Every cell of R's answer against pyale's."""
    import pyale

    out = Outcome()
    if isinstance(py, pyale.ALEResult) and py.conventions == "ale":
        _compare_ale_with_get(r, py, out)
    elif isinstance(py, pyale.ALEResult):
        if r["kind"] == "effect":
            _compare_ale_with_list(r, py, out)
        else:
            _compare_ale_with_results(r, py, out)
    elif r["kind"] == "effect":
        _compare_effect(r, py, out)
    elif r["kind"] == "frame":
        _compare_frames(r, _py_frame(py), out)
    else:
        if list(r["frames"]) != list(py):
            out.problems.append(f"features {list(py)}, R {list(r['frames'])}")
            return out
        for name, frame in r["frames"].items():
            _compare_frames(frame, _py_frame(py[name]), out, what=f"results[{name!r}]")
    return out


# ---------------------------------------------------------------- running both sides
def _start_r():
    import rpy2.robjects as ro

    ro.r(R_HELPERS)
    for package in ("ALEPlot", "iml"):
        if not ro.r(f'isTRUE(suppressWarnings(requireNamespace("{package}", quietly = TRUE)))')[0]:
            raise RuntimeError(f"R package {package} is not installed")
    return ro


def _write_csv(ro) -> None:
    ro.r(f"""
      .aq <- na.omit(datasets::airquality); rownames(.aq) <- NULL
      .lines <- c(paste0('"', names(.aq), '"', collapse = ","),
                  do.call(paste, c(lapply(.aq, .mig_exact), sep = ",")))
      writeLines(.lines, "{CSV.as_posix()}")
    """)


def _run_scripts(ro) -> tuple[list[str], list[str], dict]:
    r_lines = [str(v) for v in ro.r(f'capture.output(source("{R_SCRIPT.as_posix()}", echo = FALSE))')]
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        namespace = runpy.run_path(str(PY_SCRIPT), run_name="migration")
    return r_lines, buffer.getvalue().splitlines(), namespace


def _r_answer(ro, call: str) -> dict:
    # iml's PDP/ICE draw random numbers that only change R's order of summation (about 1e-14);
    # a fixed seed makes the table reproduce byte for byte.
    ro.r(f"set.seed({SEED}); pdf(NULL); .mig_res <- ({call}); invisible(dev.off())")
    return _from_r(ro.r(".mig_export(.mig_res)"))


def run_case(ro, case: Case, namespace: dict, r_answer: dict | None = None) -> Outcome:
    """One row: R's answer (given, for the ale rows run in the child) against pyale's."""
    if r_answer is None:
        try:
            r_answer = _r_answer(ro, case.r)
        except Exception as exc:  # noqa: BLE001 - a failing R call is reported in its row
            return Outcome(problems=[f"R failed: {str(exc).strip()[:200]}"])
    if "error" in r_answer:
        return Outcome(problems=[f"R failed: {r_answer['error'][:200]}"])
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            py_answer = eval(case.py, dict(namespace))  # noqa: S307 - our own table of calls
    except Exception as exc:  # noqa: BLE001 - a failing pyale call is reported in its row
        return Outcome(problems=[f"pyale raised {type(exc).__name__}: {str(exc)[:200]}"])
    try:
        return compare(r_answer, py_answer)
    except Exception as exc:  # noqa: BLE001 - an answer of the wrong shape is a failure, shown as such
        return Outcome(problems=[f"answers not comparable: {type(exc).__name__}: {exc}"])


# ---------------------------------------------------------------- R's ale, in a child process
def ale_library() -> str:
    return str(Path(os.environ.get("ALE_R_LIB", "~/Rlib-ale")).expanduser())


def _jsonable(obj):
    if isinstance(obj, np.ndarray):
        return {"__array__": [None if np.isnan(v) else float(v) for v in obj.ravel(order="F")],
                "shape": list(obj.shape)}
    if isinstance(obj, dict):
        return {k: _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_jsonable(v) for v in obj]
    return obj


def _unjson(obj):
    if isinstance(obj, dict) and "__array__" in obj:
        values = np.array([np.nan if v is None else v for v in obj["__array__"]], dtype=float)
        return values.reshape(obj["shape"], order="F")
    if isinstance(obj, dict):
        return {k: _unjson(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_unjson(v) for v in obj]
    return obj


def _ale_child() -> int:
    """Child process: R (started with ale's library first) answers the ale calls read from stdin."""
    calls = json.loads(sys.stdin.read())
    ro = _start_r()
    ro.r(f'invisible(capture.output(source("{R_SCRIPT.as_posix()}", echo = FALSE)))')
    # ale's progress bar (cli) asks for an option RStudio sets; embedded R through rpy2 has none.
    ro.r("options(rstudio.notebook.executing = FALSE)")
    ro.r(ALE_R_SETUP)
    answers = {}
    for call in calls:
        try:
            answers[call] = _jsonable(_r_answer(ro, call))
        except Exception as exc:  # noqa: BLE001 - reported in the call's row
            answers[call] = {"error": str(exc).strip()}
    version = str(ro.r('as.character(packageVersion("ale"))')[0])
    print(json.dumps({"answers": answers, "ale": version}))
    return 0


def ale_answers(cases: list[Case], env: dict | None = None) -> tuple[dict, str]:
    """R's answers to the ale rows (``{call: answer}``) and ale's version, from one child process.

    ``env`` is the child's environment (this process's by default; a process
    that already runs R through rpy2 must pass one without the library path
    rpy2 added, see tests/subprocess_env.py).
    """
    calls = [case.r for case in cases if is_ale(case)]
    library = ale_library()
    if not (Path(library) / "ale").is_dir():
        raise RuntimeError(f"no R package 'ale' in {library} (set ALE_R_LIB)")
    env = dict(os.environ if env is None else env, R_LIBS=library)
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--ale-child"], input=json.dumps(calls),
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=3600)
    if done.returncode != 0:
        raise RuntimeError(f"the ale child process failed: {done.stderr[-2000:]}")
    found = json.loads(done.stdout.strip().splitlines()[-1])
    return {call: _unjson(answer) for call, answer in found["answers"].items()}, found["ale"]


def _versions(ro, data_check: Outcome, ale_version: str = "") -> dict:
    import numpy
    import pandas
    import scipy

    import pyale

    def pkg(name):
        return str(ro.r(f'as.character(packageVersion("{name}"))')[0])

    return {
        "R": str(ro.r("R.version.string")[0]),
        "R packages": f"ALEPlot {pkg('ALEPlot')}, iml {pkg('iml')}, data.table {pkg('data.table')}, "
                      f"yaImpute {pkg('yaImpute')}, ale {ale_version}",
        "Python": f"{platform.python_version()}, pyale {pyale.__version__}, numpy {numpy.__version__}, "
                  f"pandas {pandas.__version__}, scipy {scipy.__version__}",
        "Data": f"X identical in R and Python ({data_check.cells} cells: names, types, levels, values)"
                if data_check.match else f"X DIFFERS between R and Python: {data_check.problems}",
        "Generated": f"{datetime.date.today().isoformat()} by `python scripts/make_migration_table.py`",
    }


# ---------------------------------------------------------------- writing the document
def _number(value: float) -> str:
    return "0" if value == 0 else f"{value:.1e}"


def table_markdown(outcomes: list[Outcome]) -> str:
    lines = ["| R call | pyale call | cells compared | max abs diff | max rel diff | match (rtol 1e-10) |",
             "|---|---|---:|---:|---:|---|"]
    for case, out in zip(CASES, outcomes):
        verdict = "yes" if out.match else "**NO**: " + "; ".join(out.problems).replace("|", "\\|")
        lines.append(f"| `{case.r}` | `{case.py}` | {out.cells} | {_number(out.max_abs)} | "
                     f"{_number(out.max_rel)} | {verdict} |")
    return "\n".join(lines)


def _sections(lines: list[str]) -> list[tuple[str, list[str]]]:
    sections = []
    for line in lines:
        if line.startswith("== "):
            sections.append((line[3:].strip(), []))
        elif sections:
            sections[-1][1].append(line)
    return sections


def example_markdown(r_lines: list[str], py_lines: list[str]) -> str:
    parts = ["<table>", "<tr><th>R: docs/examples/migration.R</th><th>Python: docs/examples/migration.py</th></tr>",
             "<tr>", "<td>", "", "```r", R_SCRIPT.read_text().rstrip("\n"), "```", "", "</td>", "<td>", "",
             "```python", PY_SCRIPT.read_text().rstrip("\n"), "```", "", "</td>", "</tr>", "</table>", "",
             "Their output, table by table (`Rscript docs/examples/migration.R` and "
             "`python docs/examples/migration.py`):", "", "<table>", "<tr><th>R</th><th>pyale</th></tr>"]
    for (title, r_rows), (py_title, py_rows) in zip(_sections(r_lines), _sections(py_lines)):
        parts += [f"<tr><td colspan=\"2\"><b>{title}</b></td></tr>", "<tr>"]
        for side, rows in (("R", r_rows), ("Python", py_rows)):
            parts += ["<td>", "", f"<!-- {side} output: {title if side == 'R' else py_title} -->", "", "```text",
                      *rows, "```", "", "</td>"]
        parts.append("</tr>")
    parts.append("</table>")
    return "\n".join(parts)


def ale_setup_markdown() -> str:
    return "\n".join(["<table>", "<tr><th>R (after migration.R)</th><th>Python (after migration.py)</th></tr>",
                      "<tr>", "<td>", "", "```r", ALE_R_SETUP.rstrip("\n"), "```", "", "</td>", "<td>", "",
                      "```python", ALE_PY_SETUP.rstrip("\n"), "```", "", "</td>", "</tr>", "</table>"])


def versions_markdown(versions: dict) -> str:
    return "\n".join(f"- {key}: {value}" for key, value in versions.items())


def replace_block(text: str, name: str, body: str) -> str:
    pattern = re.compile(rf"(<!-- BEGIN GENERATED: {name} -->\n).*?(<!-- END GENERATED: {name} -->)", re.S)
    if not pattern.search(text):
        raise RuntimeError(f"{DOC} has no '{name}' markers")
    return pattern.sub(lambda m: m.group(1) + body.rstrip("\n") + "\n" + m.group(2), text)


def main() -> int:
    # R's ale first, in a child process, before rpy2 changes this process's library path
    try:
        answers, ale_version = ale_answers(CASES)
    except (RuntimeError, subprocess.TimeoutExpired) as exc:
        print(f"make_migration_table: needs R's ale 0.5.0: {exc}", file=sys.stderr)
        return 3
    try:
        ro = _start_r()
    except (ImportError, ValueError, RuntimeError, OSError) as exc:
        print(f"make_migration_table: needs R with ALEPlot and iml, and rpy2: {exc}", file=sys.stderr)
        return 3
    _write_csv(ro)
    r_lines, py_lines, namespace = _run_scripts(ro)
    exec(ALE_PY_SETUP, namespace)  # noqa: S102 - our own setup code
    data_check = Outcome()
    _compare_frames(_from_r(ro.r(".mig_export(X)")), _py_frame(namespace["X"]), data_check, what="X")
    outcomes = []
    for case in CASES:
        out = run_case(ro, case, namespace, answers.get(case.r) if is_ale(case) else None)
        outcomes.append(out)
        status = "ok" if out.match else "DIFFERS " + "; ".join(out.problems)
        print(f"{out.cells:6d} cells  abs {_number(out.max_abs):>8}  rel {_number(out.max_rel):>8}  "
              f"{status:<8} {case.py}")
    text = DOC.read_text()
    text = replace_block(text, "versions", versions_markdown(_versions(ro, data_check, ale_version)))
    text = replace_block(text, "ale-setup", ale_setup_markdown())
    text = replace_block(text, "table", table_markdown(outcomes))
    text = replace_block(text, "example", example_markdown(r_lines, py_lines))
    DOC.write_text(text)
    matched = sum(out.match for out in outcomes)
    print(f"{matched} of {len(CASES)} calls match; X identical: {data_check.match}; wrote {DOC.relative_to(ROOT)}")
    return 0 if matched == len(CASES) and data_check.match else 1


if __name__ == "__main__":
    raise SystemExit(_ale_child() if sys.argv[1:] == ["--ale-child"] else main())
