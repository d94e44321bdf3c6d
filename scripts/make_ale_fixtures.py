"""Write reference/ale/<case>.json from R's ale 0.5.0 (run: python scripts/make_ale_fixtures.py).

Every case of ``scripts/ale_cases.py`` is run in R through rpy2:
``ale::ALE(model, x_cols, data, y_col, pred_fun = , pred_type = , max_num_bins = ,
boot_it = , boot_alpha = , boot_centre = , seed = , parallel = 0, p_values = NULL)``.
A fixture holds the data exactly as R saw it, the model (closed form, or every
row R asked an R-fitted model about with R's answer), the call, ``get()``'s
table for every term and response category, the
statistics (``effect$stats`` and ``get(stats = "estimate")``), the raw
bootstrap curves, and the intermediates ale computes on the way (variable
types, ceilings, bins and level order, counts, the response summary) -- and,
for bootstraps, the rows R resampled for each replicate, captured by tracing
``sample.int`` during the call and checked against a recomputation.

``ale`` exists in two R libraries (only one can be loaded per R session), so
each library's cases run in a child process of this script:

* ``ale``: ale 0.5.0 as released (``$ALE_R_LIB``, default ``~/Rlib-ale``);
* ``ale-fixed``: ale 0.5.0 with its bootstrap of non-numeric features corrected
  (``$ALE_R_LIB_FIXED``, default ``~/Rlib-ale-fixed``), for the cases that
  bootstrap a binary, categorical or ordinal feature (docs/ale-package.md, s. 10).

Usage::

    python scripts/make_ale_fixtures.py [case ...] [--out DIR] [--version 0.5.0|0.5.3]
        [--data-seed N --ale-seed M]     # held-back variants (live tests)

Files are generated: do not edit them.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
from dataclasses import asdict, replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from ale_cases import CASES, R_DATA, R_FITS, R_MODELS, synthetic  # noqa: E402

OUT = ROOT / "reference" / "ale"
RTOL = 1e-9
LIBRARIES = {
    "ale": ("ALE_R_LIB", "~/Rlib-ale"),
    "ale-fixed": ("ALE_R_LIB_FIXED", "~/Rlib-ale-fixed"),
    "ale-0.5.3": ("ALE_R_LIB_053", "~/Rlib-ale053"),
}
OUT_053 = ROOT / "reference" / "ale-0.5.3"
LIBRARY_REASON = {
    "ale": "ale 0.5.0 as released on CRAN",
    "ale-fixed": ("ale 0.5.0 with one line of R/calc_ale.R corrected (bin_idxs <- "
                  "xd[[it.x_col]]$x_ordered_idx[btit.row_idxs]): as released, the bootstrap of a "
                  "non-numeric feature bins each resampled row by another row's category "
                  "(docs/ale-package.md, section 10, case 1)"),
    "ale-0.5.3": ("ale 0.5.3 as released on CRAN (every case, the bootstrap of non-numeric features with its "
                  "bug: pyale.ALE(..., replicate_r_bugs=True) reproduces those)"),
}
PACKAGES = ("ale", "dplyr", "tibble", "S7", "purrr", "rlang", "furrr", "future", "stringr", "tidyr")

R_HELPERS = r"""
.pyale_export <- function(df) {
  df <- as.data.frame(df)
  lapply(df, function(col) {
    list(class = class(col)[1],
         levels = if (is.factor(col)) levels(col) else character(0),
         values = if (is.factor(col)) as.character(col) else col,
         na = is.na(col))
  })
}
.pyale_rec <- list()
.pyale_rows <- list()
.pyale_trace_on <- function() {
  suppressMessages(trace(base::sample.int, print = FALSE, where = baseenv(), exit = quote({
    if (RNGkind()[1L] == "L'Ecuyer-CMRG" && isTRUE(replace))
      .pyale_rows[[length(.pyale_rows) + 1L]] <<- returnValue()
  })))
  invisible(NULL)
}
.pyale_trace_off <- function() suppressMessages(untrace(base::sample.int, where = baseenv()))
.pyale_prep <- function(X, col, B) {
  xt <- ale:::var_type(X[[col]])
  p <- ale:::prep_var_for_ale(x_col = col, x_type = xt, x_vals = X[[col]], bins = NULL, n = NULL,
                              max_num_bins = B, X = if (xt == "categorical") X)
  list(type = xt, class = class(X[[col]])[1],
       ceilings = if (is.null(p$ceilings)) numeric(0) else as.numeric(p$ceilings),
       bins = if (is.null(p$bins)) character(0) else as.character(p$bins),
       n = as.integer(p$n), n_bins = as.integer(p$n_bins),
       interval_counts = as.numeric(p$x_int_counts),
       level_order = if (is.null(p$idx_ord_orig_int)) integer(0) else as.integer(p$idx_ord_orig_int),
       row_bins = if (is.null(p$x_ordered_idx)) integer(0) else as.integer(p$x_ordered_idx))
}
.pyale_fixed <- function() any(grepl("x_ordered_idx[btit.row_idxs]", deparse(ale:::calc_ale), fixed = TRUE))
"""


# ----------------------------------------------------------------------------- R <-> JSON


def _table(ro, exported) -> dict:
    """An exported R data frame (.pyale_export) as a JSON-ready table (column types kept)."""
    names = list(exported.names)
    table = {"columns": names, "types": {}, "values": {}}
    for name in names:
        col = exported.rx2(name)
        cls = str(col.rx2("class")[0])
        na = [bool(v) for v in col.rx2("na")]
        raw = col.rx2("values")
        if cls in ("factor", "ordered"):
            values = [None if m else str(v) for v, m in zip(raw, na)]
            table["types"][name] = {"type": "factor", "levels": [str(v) for v in col.rx2("levels")],
                                    "ordered": cls == "ordered"}
        elif cls == "numeric":
            values = [None if m else float(v) for v, m in zip(raw, na)]
            table["types"][name] = {"type": "double"}
        elif cls == "integer":
            values = [None if m else int(v) for v, m in zip(raw, na)]
            table["types"][name] = {"type": "integer"}
        elif cls == "logical":
            values = [None if m else bool(v) for v, m in zip(raw, na)]
            table["types"][name] = {"type": "logical"}
        elif cls == "character":
            values = [None if m else str(v) for v, m in zip(raw, na)]
            table["types"][name] = {"type": "character"}
        else:
            raise TypeError(f"column {name!r} of class {cls} cannot be exported")
        table["values"][name] = values
    return table


def _frame(ro, expr: str) -> dict:
    return _table(ro, ro.r(f".pyale_export({expr})"))


def _floats(ro, expr: str) -> list[float]:
    return [float(v) for v in ro.r(f"as.numeric({expr})")]


def _strings(ro, expr: str) -> list[str]:
    return [str(v) for v in ro.r(f"as.character({expr})")]


def _encode_non_finite(obj):
    """R's Inf, -Inf and NaN as the strings "Inf", "-Inf", "NaN" (JSON has no such numbers).

    They occur only in statistics of replicates whose whole curve is NA (R's
    ``min()`` of nothing is Inf); tests turn the strings back into floats.
    """
    if isinstance(obj, float) and not np.isfinite(obj):
        return "NaN" if np.isnan(obj) else ("Inf" if obj > 0 else "-Inf")
    if isinstance(obj, dict):
        return {k: _encode_non_finite(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_encode_non_finite(v) for v in obj]
    return obj


def _r_string(value: str) -> str:
    return json.dumps(value)


def _r_vector(values) -> str:
    return "c(" + ", ".join(_r_string(v) for v in values) + ")"


# ----------------------------------------------------------------------------- the call


def _data_code(ro, case) -> str:
    """Put the case's data in R as `train`; return the R code (or a description) used."""
    from pyale.r import to_r_dataframe

    frame = synthetic(case.data, case.seed)
    if frame is None:
        code = R_DATA[case.data]
        ro.r(code)
        return code
    ro.globalenv["train"] = to_r_dataframe(frame)
    return f"train <- <ale_cases.synthetic({case.data!r}, seed={case.seed})>"


def _model_code(case) -> str:
    if case.model in R_MODELS:
        return f"fit <- NULL\npf <- function(object, newdata, type) {{{R_MODELS[case.model]}\n}}"
    return (
        f"{R_FITS[case.model]}\n.pyale_rec <- list()\n"
        "pf <- function(object, newdata, type) {\n"
        "  p <- stats::predict(object, newdata = newdata, type = type)\n"
        f"  keep <- setdiff(names(newdata), {_r_string(case.y_col)})\n"
        "  .pyale_rec[[length(.pyale_rec) + 1]] <<- list(x = .pyale_export(newdata[keep]), y = as.matrix(p))\n"
        "  p\n}"
    )


def _x_cols_code(case) -> str:
    if tuple(case.x_cols) == ("d1",):
        return "list(d1 = TRUE)"
    return _r_vector(case.x_cols)


def _call_code(case) -> str:
    return (
        f"a <- ale::ALE(fit, x_cols = {_x_cols_code(case)}, data = train, y_col = {_r_string(case.y_col)}, "
        f"pred_fun = pf, pred_type = {_r_string(case.pred_type)}, max_num_bins = {case.max_num_bins}, "
        f"boot_it = {case.boot_it}, boot_alpha = {case.boot_alpha!r}, boot_centre = {_r_string(case.boot_centre)}, "
        f"seed = {case.ale_seed}, output_boot_data = {'TRUE' if case.boot_it > 0 else 'FALSE'}, "
        "parallel = 0, p_values = NULL, silent = TRUE)"
    )


def _recorded(ro) -> dict | None:
    rec = ro.r(".pyale_rec")
    if len(rec) == 0:
        return None
    seen, rows, outputs, columns, types, names = {}, [], [], None, None, None
    for item in rec:
        table = _table(ro, item.rx2("x"))
        y = np.asarray(item.rx2("y"), dtype=float)
        dims = list(ro.r["dim"](item.rx2("y")))
        y = y.reshape(dims, order="F")
        cn = ro.r["colnames"](item.rx2("y"))
        names = None if cn is ro.NULL else [str(v) for v in cn]
        if columns is None:
            columns, types = table["columns"], table["types"]
        if table["columns"] != columns:
            raise RuntimeError("the model was asked about different columns in different calls")
        for i in range(y.shape[0]):
            row = tuple(table["values"][c][i] for c in columns)
            if row in seen:
                if not np.array_equal(np.asarray(outputs[seen[row]]), y[i]):
                    raise RuntimeError("the recorded model answered one row differently")
                continue
            seen[row] = len(rows)
            rows.append(list(row))
            outputs.append(y[i].tolist())
    return {"columns": columns, "types": types, "rows": rows, "outputs": outputs, "output_names": names}


def _terms(ro) -> dict:
    """The requested 1-D and 2-D terms as R resolved them."""
    return {"d1": _strings(ro, "a@params$requested_x_cols$d1"),
            "d2": _strings(ro, "a@params$requested_x_cols$d2")}


def _term_tables(ro, terms: dict, cats: list[str], boot: bool) -> dict:
    """get()'s table (centred at the response's median) and the raw bootstrap curves (centred at 0), per term and category.

    The zero-centred table is the ``get`` table minus ``y_summary["50%", category]``.
    """
    out = {}
    single = len(cats) == 1
    for dim in ("d1", "d2"):
        for term in terms[dim]:
            entry = {"dimension": dim, "categories": {}}
            for cat in cats:
                pick = "" if single else f"[[{_r_string(cat)}]]"
                got = f"ale::get(a, x_cols = {_r_string(term)}, silent = TRUE){pick}"
                tables = {"get": _frame(ro, got)}
                if boot:
                    tables["boot_data"] = _frame(ro, f"ale::get(a, x_cols = {_r_string(term)}, what = 'boot_data', "
                                                      f"ale_centre = 'zero', silent = TRUE){pick}")
                entry["categories"][cat] = tables
            out[term] = entry
    return out


def _stats(ro, cats: list[str]) -> dict:
    out = {}
    for cat in cats:
        per = {}
        for dim in ("d1", "d2"):
            expr = f"a@effect[[{_r_string(cat)}]]$stats${dim}"
            if bool(ro.r(f"is.data.frame({expr})")[0]) and int(ro.r(f"nrow({expr})")[0]) > 0:
                per[dim] = _frame(ro, expr)
        out[cat] = per
    estimate = ro.r("tryCatch(list(ok = ale::get(a, stats = 'estimate', silent = TRUE)), "
                    "error = function(e) list(error = conditionMessage(e)))")
    if "error" in list(estimate.names):
        return {"by_category": out, "get_estimate": None,
                "get_estimate_error": str(estimate.rx2("error")[0]).splitlines()[0]}
    ro.globalenv[".pyale_est"] = estimate.rx2("ok")
    got = {}
    for cat in cats:
        base = ".pyale_est" if len(cats) == 1 else f".pyale_est[[{_r_string(cat)}]]"
        if bool(ro.r(f"is.data.frame({base})")[0]):
            got[cat] = {"only": _frame(ro, base)}
        else:
            got[cat] = {dim: _frame(ro, f"{base}${dim}") for dim in ro.r(f"names({base})")}
    return {"by_category": out, "get_estimate": got, "get_estimate_error": None}


def _intermediates(ro, case, terms: dict) -> dict:
    features = []
    for term in terms["d1"] + terms["d2"]:
        for name in term.split(":"):
            if name not in features:
                features.append(name)
    ro.r(f"X <- droplevels(train); X <- X[setdiff(names(X), {_r_string(case.y_col)})]")
    out = {"features": {}}
    for name in features:
        prep = ro.r(f".pyale_prep(X, {_r_string(name)}, {case.max_num_bins})")
        entry = {}
        for key in prep.names:
            value = prep.rx2(key)
            if key in ("type", "class"):
                entry[key] = str(value[0])
            elif key in ("bins",):
                entry[key] = [str(v) for v in value]
            elif key in ("ceilings", "interval_counts"):
                entry[key] = [float(v) for v in value]
            else:
                entry[key] = [int(v) for v in value]
        entry["n_bins"] = entry["n_bins"][0]
        out["features"][name] = entry
    ysum = "a@params$y_summary"
    out["y_type"] = str(ro.r("a@params$y_type")[0])
    out["y_cats"] = _strings(ro, "a@params$y_cats")
    out["y_summary"] = {"rows": _strings(ro, f"rownames({ysum})"), "columns": _strings(ro, f"colnames({ysum})"),
                        "values": np.asarray(ro.r(f"unname({ysum})"), dtype=float).reshape(
                            list(ro.r(f"dim({ysum})")), order="F").tolist()}
    out["ordered_x_cols"] = {"d1": _strings(ro, "a@params$ordered_x_cols$d1"),
                             "d2": _strings(ro, "a@params$ordered_x_cols$d2")}
    return out


def _bootstrap_rows(ro, case, n_terms: int) -> dict | None:
    if case.boot_it == 0:
        return None
    draws = [[int(v) for v in d] for d in ro.r(".pyale_rows")]
    n = int(ro.r("nrow(train)")[0])
    if len(draws) != case.boot_it * n_terms or any(len(d) != n for d in draws):
        raise RuntimeError(f"expected {case.boot_it} draws of {n} rows for each of {n_terms} terms, "
                           f"traced {len(draws)}")
    first = draws[:case.boot_it]
    same = all(draws[t * case.boot_it:(t + 1) * case.boot_it] == first for t in range(n_terms))
    again = [[int(v) for v in d] for d in ro.r(
        f'{{RNGkind("L\'Ecuyer-CMRG", sample.kind = "Rejection"); set.seed({case.ale_seed}); '
        f"x <- lapply(seq_len({case.boot_it}), function(b) sample.int({n}, replace = TRUE)); "
        'RNGkind("Mersenne-Twister"); x}')]
    if not same or again != first:
        raise RuntimeError("the traced bootstrap rows differ between terms or from the recomputation")
    return {"rows": first, "one_based": True, "terms_drew_the_same_rows": same,
            "recomputed_with_lecuyer_set_seed": again == first}


def run_case(ro, case, library: str) -> dict:
    ro.r("rm(list = intersect(c('train', 'fit', 'pf', 'a', 'X', '.pyale_est'), ls())); "
         ".pyale_rec <- list(); .pyale_rows <- list()")
    data_code = _data_code(ro, case)
    model_code = _model_code(case)
    ro.r(model_code)
    call_code = _call_code(case)
    data_table = _frame(ro, "train")
    ro.r('RNGkind("Mersenne-Twister", "Inversion", "Rejection"); set.seed(1)')
    ro.r(".pyale_trace_on()")
    try:
        ro.r(call_code)
    finally:
        ro.r(".pyale_trace_off()")
    terms = _terms(ro)
    cats = _strings(ro, "a@params$y_cats")
    inter = _intermediates(ro, case, terms)
    non_numeric = sorted(n for n, f in inter["features"].items() if f["type"] != "numeric")
    if case.boot_it > 0 and non_numeric and library not in ("ale-fixed", "ale-0.5.3"):
        raise RuntimeError(f"{case.name}: bootstraps non-numeric feature(s) {non_numeric}; use library 'ale-fixed'")
    packages = {p: str(ro.r(f'as.character(packageVersion("{p}"))')[0]) for p in PACKAGES}
    return {
        "meta": {
            "do_not_edit": "Generated by scripts/make_ale_fixtures.py from R's ale; rerun it, never edit.",
            "generator": "scripts/make_ale_fixtures.py",
            "arguments": [case.name],
            "case": asdict(case),
            "description": case.note,
            "seed": case.seed if synthetic(case.data, case.seed) is not None else None,
            "ale_seed": case.ale_seed,
            "r_version": str(ro.r("R.version.string")[0]),
            "packages": packages,
            "r_library": library,
            "r_library_path": os.environ.get(*LIBRARIES[library]),
            "r_library_has_bootstrap_fix": bool(ro.r(".pyale_fixed()")[0]),
            "r_library_reason": LIBRARY_REASON[library],
            "known_faults": case.known_faults,
            "created": datetime.date.today().isoformat(),
            "rtol": RTOL,
            "atol_scale": 1e-10,
            "tolerance_reason": "the issue's rtol 1e-9; absolute floor 1e-10 times the effect's range "
                                "(R sums in long double, so centred values near 0 differ in the last bits)",
        },
        "call": {"x_cols": list(case.x_cols), "y_col": case.y_col, "pred_type": case.pred_type,
                 "max_num_bins": case.max_num_bins, "boot_it": case.boot_it, "boot_alpha": case.boot_alpha,
                 "boot_centre": case.boot_centre, "seed": case.ale_seed,
                 "r_code": "\n".join([data_code, model_code, call_code])},
        "data": data_table,
        "model": ({"kind": "closed_form", "name": case.model} if case.model in R_MODELS
                  else {"kind": "replay", "name": case.model, "recorded": _recorded(ro)}),
        "terms": terms,
        "tables": _term_tables(ro, terms, cats, case.boot_it > 0),
        "stats": _stats(ro, cats),
        "intermediates": inter,
        "bootstrap": _bootstrap_rows(ro, case, len(terms["d1"]) + len(terms["d2"])),
    }


# ----------------------------------------------------------------------------- processes


def _library_path(library: str) -> str:
    env, default = LIBRARIES[library]
    return os.path.expanduser(os.environ.get(env, default))


def _r(library: str):
    import rpy2.robjects as ro

    path = _library_path(library)
    if not os.path.isdir(os.path.join(path, "ale")):
        raise SystemExit(f"no R package 'ale' in {path} (library {library!r}); see docs/ale-package.md")
    ro.r(f".libPaths(c({_r_string(path)}, .libPaths()))")
    ro.r("suppressPackageStartupMessages(library(ale))")
    ro.r(R_HELPERS)
    found = os.path.dirname(str(ro.r('find.package("ale")')[0]))
    if os.path.realpath(found) != os.path.realpath(path):
        raise SystemExit(f"R loaded ale from {found}, not from {path}")
    fixed = bool(ro.r(".pyale_fixed()")[0])
    if fixed != (library == "ale-fixed"):
        raise SystemExit(f"the ale in {path} {'has' if fixed else 'lacks'} the bootstrap fix; expected library {library!r}")
    return ro


def selected_cases(names: list[str], data_seed: int | None = None, ale_seed: int | None = None) -> list:
    chosen = [c for c in CASES if not names or c.name in names]
    unknown = set(names) - {c.name for c in CASES}
    if unknown:
        raise SystemExit(f"unknown case(s): {', '.join(sorted(unknown))}")
    if data_seed is not None:
        chosen = [replace(c, seed=data_seed) for c in chosen]
    if ale_seed is not None:
        chosen = [replace(c, ale_seed=ale_seed) for c in chosen]
    return chosen


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cases", nargs="*")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--data-seed", type=int, default=None, help="replace every synthetic data seed")
    parser.add_argument("--ale-seed", type=int, default=None, help="replace ALE()'s seed")
    parser.add_argument("--version", choices=["0.5.0", "0.5.3"], default="0.5.0",
                        help="0.5.0: ~/Rlib-ale and ~/Rlib-ale-fixed into reference/ale; 0.5.3: every case with "
                             "ale 0.5.3 as released (~/Rlib-ale053) into reference/ale-0.5.3")
    parser.add_argument("--library", choices=sorted(LIBRARIES), help=argparse.SUPPRESS)  # child processes
    args = parser.parse_args(argv)
    if args.version == "0.5.3" and args.out == OUT:
        args.out = OUT_053
    cases = selected_cases(args.cases, args.data_seed, args.ale_seed)
    extra = [] if args.data_seed is None else ["--data-seed", str(args.data_seed)]
    extra += [] if args.ale_seed is None else ["--ale-seed", str(args.ale_seed)]
    if args.library is None:
        for library in (["ale-0.5.3"] if args.version == "0.5.3" else ["ale", "ale-fixed"]):
            names = [c.name for c in cases if c.library == library or library == "ale-0.5.3"]
            if not names:
                continue
            done = subprocess.run([sys.executable, __file__, "--library", library, "--out", str(args.out),
                                   *extra, *names], cwd=ROOT)
            if done.returncode != 0:
                return done.returncode
        return 0
    ro = _r(args.library)
    args.out.mkdir(parents=True, exist_ok=True)
    for case in cases:
        if case.library != args.library and args.library != "ale-0.5.3":
            continue
        fixture = _encode_non_finite(run_case(ro, case, args.library))
        path = args.out / f"{case.name}.json"
        path.write_text(json.dumps(fixture, separators=(",", ":"), allow_nan=False) + "\n")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
