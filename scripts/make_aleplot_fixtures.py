"""Write reference/aleplot/<case>.json from R's ALEPlot 1.1 (run: python scripts/make_aleplot_fixtures.py).

Every case of ``scripts/aleplot_cases.py`` is run in R through rpy2.  A
fixture holds the data exactly as R saw it (doubles travel through rpy2 and
are written by Python's json, so they read back exactly), the model (a
closed-form name, or the rows an R-fitted model was asked about with R's
answers), the call, R's result (``K``, ``x.values``, ``f.values``), the
intermediates ALEPlot computes on the way (interval edges after ``unique``,
counts per interval, cell or level, the level order) and metadata.  Files are
generated: do not edit them.

Usage: python scripts/make_aleplot_fixtures.py [case-name ...]

Needs R with ALEPlot, yaImpute, MASS, rpart and randomForest installed, and rpy2.
"""

from __future__ import annotations

import datetime
import sys
from dataclasses import asdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from aleplot_cases import CASES, FIT_PACKAGES, R_DATA, R_FITS, R_MODELS, synthetic  # noqa: E402
from make_iml_fixtures import R_HELPERS, _export_to_table, _recorded, write_fixtures  # noqa: E402

OUT = ROOT / "reference" / "aleplot"
TOLERANCE = {"rtol": 1e-10, "atol_scale": 1e-10}
REQUIRED = ("ALEPlot", "yaImpute", "MASS", "rpart", "randomForest")

R_INTERMEDIATES = r"""
.pyale_edges <- function(x, K) unique(c(min(x), as.numeric(quantile(x, seq(1/K, 1, length.out = K), type = 1))))
.pyale_bins <- function(x, z) cut(x, breaks = z, include.lowest = TRUE)
"""


def _r():
    import rpy2.robjects as ro

    ro.r(R_HELPERS)
    ro.r(R_INTERMEDIATES)
    missing = [p for p in REQUIRED if not ro.r(f'isTRUE(requireNamespace("{p}", quietly = TRUE))')[0]]
    if missing:
        raise SystemExit(f"R is missing package(s) {', '.join(missing)}; install them in R first.")
    ro.r("suppressPackageStartupMessages(library(ALEPlot))")
    return ro


def _version(ro, package: str) -> str:
    return str(ro.r(f'as.character(packageVersion("{package}"))')[0])


def _data_code(ro, case) -> str:
    """Put the case's data in R as `X` (predictors) and `train` (fitting frame); return the R code used."""
    from pyale.r import to_r_dataframe

    frame = synthetic(case.data, case.seed)
    if frame is None:
        code = R_DATA[case.data]
        ro.r(code)
        return code
    ro.globalenv["X"] = to_r_dataframe(frame)
    ro.r("train <- X")
    return f"X <- <aleplot_cases.synthetic({case.data!r}, seed={case.seed})>; train <- X"


def _model_code(case) -> str:
    if case.model in R_MODELS:
        return f"fit <- NULL\npf <- function(X.model, newdata) {{{R_MODELS[case.model]}\n}}"
    fit_code, predict_call = R_FITS[case.model]
    return (
        f"{fit_code}\n.pyale_rec <- list()\n"
        "pf <- function(X.model, newdata) {\n"
        f"  p <- {predict_call}\n"
        "  .pyale_rec[[length(.pyale_rec) + 1]] <<- list(x = .pyale_export(newdata), y = as.matrix(p))\n"
        "  p\n}"
    )


def _j(ro, J) -> list[int]:
    names = list(ro.r("names(X)"))
    return [names.index(j) + 1 for j in ([J] if isinstance(J, str) else J)]


def _call_code(ro, case) -> str:
    positions = _j(ro, case.J)
    j = str(positions[0]) if len(positions) == 1 else f"c({positions[0]}, {positions[1]})"
    if case.function == "ALEPlot":
        na = "TRUE" if case.NA_plot else "FALSE"
        return f"res <- ALEPlot(X, fit, pf, J = {j}, K = {case.K}, NA.plot = {na})"
    return f"res <- PDPlot(X, fit, pf, J = {j}, K = {case.K})"


def _values(ro, obj):
    """An R vector or matrix as JSON: numbers, strings, or a nested list (rows) for a matrix."""
    if ro.r["is.character"](obj)[0] or ro.r["is.factor"](obj)[0]:
        return [str(v) for v in ro.r["as.character"](obj)]
    arr = np.asarray(obj, dtype=float)
    dims = ro.r["dim"](obj)
    if dims is not ro.NULL:
        arr = arr.reshape(list(dims), order="F")
        return arr.tolist()
    return arr.tolist()


def _result(ro) -> dict:
    res = ro.r("res")
    x_values = res.rx2("x.values")
    if ro.r["is.list"](x_values)[0]:
        x = [_values(ro, x_values[0]), _values(ro, x_values[1])]
    else:
        x = _values(ro, x_values)
    out = {"x_values": x, "f_values": _values(ro, res.rx2("f.values"))}
    if "K" in list(res.names):  # PDPlot returns no K
        K = [int(v) for v in np.asarray(res.rx2("K"), dtype=float)]
        out["K"] = K[0] if len(K) == 1 else K
    return out


def _intermediates(ro, case) -> dict:
    """What ALEPlot computes on the way, recomputed in R with ALEPlot's own formulas."""
    names = [case.J] if isinstance(case.J, str) else list(case.J)
    out = {"features": []}
    for name in names:
        col = f'X[["{name}"]]'
        if ro.r(f"is.factor({col})")[0]:
            out["features"].append({"name": name, "type": "factor",
                                    "levels_after_drop": list(ro.r(f"levels(droplevels({col}))"))})
        else:
            entry = {"name": name, "type": "numeric"}
            if case.function == "ALEPlot":
                entry["edges"] = [float(v) for v in ro.r(f".pyale_edges({col}, {case.K})")]
            out["features"].append(entry)
    if case.function != "ALEPlot":
        return out
    res_x = "res$x.values" if len(names) == 1 else "res$x.values[[1]]"
    first = out["features"][0]
    if first["type"] == "factor":
        first["level_order"] = [str(v) for v in ro.r(f"as.character({res_x})")]
        axis1 = f'factor(as.character(X[["{names[0]}"]]), levels = {res_x})'
    else:
        axis1 = f'.pyale_bins(X[["{names[0]}"]], .pyale_edges(X[["{names[0]}"]], {case.K}))'
    if len(names) == 1:
        out["counts"] = [int(v) for v in ro.r(f"as.numeric(table({axis1}))")]
    else:
        axis2 = f'.pyale_bins(X[["{names[1]}"]], .pyale_edges(X[["{names[1]}"]], {case.K}))'
        counts = np.asarray(ro.r(f"as.matrix(unclass(table({axis1}, {axis2})))"), dtype=float)
        dims = list(ro.r(f"dim(table({axis1}, {axis2}))"))
        out["counts"] = counts.reshape(dims, order="F").astype(int).tolist()
    return out


def run_case(ro, case) -> dict:
    ro.r("rm(list = intersect(c('X', 'train', 'fit', 'pf', 'res'), ls()))")
    data_code = _data_code(ro, case)
    model_code = _model_code(case)
    ro.r(model_code)
    call_code = _call_code(ro, case)
    ro.r(f"png(tempfile(fileext = '.png')); {call_code}; invisible(dev.off())")
    packages = {p: _version(ro, p) for p in ("ALEPlot", "yaImpute")}
    for p in FIT_PACKAGES.get(case.model, []) + FIT_PACKAGES.get(case.data, []):
        packages[p] = _version(ro, p)
    return {
        "meta": {
            "do_not_edit": "Generated by scripts/make_aleplot_fixtures.py from R's ALEPlot; rerun it, never edit.",
            "generator": "scripts/make_aleplot_fixtures.py",
            "arguments": [case.name],
            "case": asdict(case),
            "description": case.note,
            "seed": case.seed if synthetic(case.data, case.seed) is not None else None,
            "r_version": str(ro.r("R.version.string")[0]),
            "packages": packages,
            "created": datetime.date.today().isoformat(),
            "rtol": TOLERANCE["rtol"],
            "atol_scale": TOLERANCE["atol_scale"],
            "tolerance_reason": "default: rtol 1e-10, absolute floor 1e-10 times the effect's range",
        },
        "call": {"function": case.function, "J_names": case.J, "J": _j(ro, case.J), "K": case.K,
                 "NA.plot": case.NA_plot, "r_code": "\n".join([data_code, model_code, call_code])},
        "data": _export_to_table(ro, ro.r(".pyale_export(X)")),
        "model": ({"kind": "closed_form", "name": case.model} if case.model in R_MODELS
                  else {"kind": "replay", "name": case.model, "recorded": _recorded(ro)}),
        "result": _result(ro),
        "intermediates": _intermediates(ro, case),
    }


def main(argv: list[str]) -> int:
    return write_fixtures(_r(), CASES, run_case, OUT, argv)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
