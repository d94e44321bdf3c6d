"""Write reference/modelboot/ale-<version>/<case>.json from R's ale::ModelBoot (run: python scripts/make_modelboot_fixtures.py).

Every case of ``scripts/modelboot_cases.py`` runs in R through rpy2: the data
(made in Python from the case's seed) goes to R as doubles, R fits ``lm`` or
``glm`` on it, and

    ModelBoot(fit, data = train, boot_it = , seed = , boot_alpha = , boot_centre = ,
              ale_options = list(...), parallel = 0, ale_p = NULL, silent = TRUE,
              output_boot_data = TRUE)

(a case with ``ale_p`` first runs ``pd <- ALEpDist(fit, train, rand_it = , seed = ,
parallel = 0)`` and passes ``ale_p = pd``; a case with planned failures passes a
``model_call_string`` that stops on the resamples without a given row)

is run once per ``ale`` release: 0.5.0 (``$ALE_R_LIB``, default ``~/Rlib-ale``)
and 0.5.3 (``$ALE_R_LIB_053``, default ``~/Rlib-ale053``), each in a child
process (one ``ale`` per R session).  A fixture holds the data, the resampled
rows of every iteration (1-based, as R), ``model_stats``, ``model_coefs``,
``get(mb, term, type = "boot" | "single")`` for every term, ``get(mb, stats =
"all", type = ...)``, each refit's coefficients (``boot_data$tidy``) and the
versions of R and of every package involved.

Usage::

    python scripts/make_modelboot_fixtures.py [case ...] [--out DIR] [--versions 0.5.0 0.5.3]
        [--data-seed N --boot-seed M]     # held-back variants (live tests)

Files are generated: do not edit them.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from modelboot_cases import CASES, make_data, r_fit_code, r_model_call_string, with_seeds  # noqa: E402

OUT = ROOT / "reference" / "modelboot"
LIBRARIES = {"0.5.0": ("ALE_R_LIB", "~/Rlib-ale"), "0.5.3": ("ALE_R_LIB_053", "~/Rlib-ale053")}
PACKAGES = ("ale", "staccuracy", "broom", "dplyr", "tidyr", "purrr", "furrr", "future", "S7", "univariateML")
RTOL = 1e-9
RTOL_REASON = ("R refits with lm's Householder QR (glm's IRLS), pyale's tests with statsmodels' pinv (IRLS): "
               "the same models to about 1e-13, which tiny F-test p-values and sums of predictions amplify")

R_HELPERS = r"""
.pyale_df <- function(df) {
  df <- as.data.frame(df)
  out <- lapply(df, function(col) if (is.factor(col)) as.character(col) else col)
  names(out) <- names(df)
  out
}
"""


def _value(v):
    if isinstance(v, float) and not math.isfinite(v):
        return "NaN" if math.isnan(v) else ("Inf" if v > 0 else "-Inf")
    return v


def _column(vector) -> list:
    from rpy2.rinterface import NA_Character, NA_Integer, NA_Logical
    import rpy2.robjects as ro

    if isinstance(vector, ro.vectors.BoolVector):
        return [None if v is NA_Logical else bool(v) for v in vector]
    if isinstance(vector, ro.vectors.IntVector):
        return [None if v is NA_Integer else int(v) for v in vector]
    if isinstance(vector, ro.vectors.FloatVector):
        return [_value(float(v)) for v in vector]
    return [None if v is NA_Character else str(v) for v in vector]


def _frame(ro, expr: str) -> dict:
    exported = ro.r(f".pyale_df({expr})")
    return {"columns": list(exported.names), "values": {n: _column(exported.rx2(n)) for n in exported.names}}


def _run_case(ro, case) -> dict:
    from pyale.r import to_r_dataframe

    data = make_data(case.data, case.seed, case.n)
    # a fresh session's generator: an earlier ale call in this session can leave R's kind at L'Ecuyer-CMRG
    ro.r('RNGkind("Mersenne-Twister", "Inversion", "Rejection")')
    ro.globalenv["train"] = to_r_dataframe(data)
    ro.r(r_fit_code(case))
    options = []
    if "x_cols" in case.ale_options:
        options.append("x_cols = c(" + ", ".join(json.dumps(t) for t in case.ale_options["x_cols"]) + ")")
    if "max_num_bins" in case.ale_options:
        options.append(f"max_num_bins = {case.ale_options['max_num_bins']}")
    if "aler_alpha" in case.ale_options:
        options.append("aler_alpha = c(" + ", ".join(repr(float(a)) for a in case.ale_options["aler_alpha"]) + ")")
    pdist_call = None
    auto = bool(case.ale_p.get("auto"))
    if case.ale_p and not auto:
        pdist_call = (f"ALEpDist(fit, train, rand_it = {case.ale_p['rand_it']}, seed = {case.ale_p['seed']}, "
                      "parallel = 0, silent = TRUE)")
        ro.r(f"pd <- {pdist_call}")
    model_call_string = r_model_call_string(case, data)
    call = (f"ModelBoot(fit, data = train, "
            + (f"model_call_string = {json.dumps(model_call_string)}, " if model_call_string else "")
            + f"boot_it = {case.boot_it}, seed = {case.boot_seed}, "
            f"boot_alpha = {case.boot_alpha!r}, boot_centre = {json.dumps(case.boot_centre)}, "
            f"ale_options = list({', '.join(options)}), parallel = 0, "
            f"ale_p = {json.dumps('auto') if auto else ('pd' if case.ale_p else 'NULL')}, "
            "silent = TRUE, output_boot_data = TRUE)")
    ro.r(f"mb <- suppressWarnings({call})")
    terms = list(ro.r("c(mb@ale$single@params$requested_x_cols$d1, mb@ale$single@params$requested_x_cols$d2)"))
    types = ["single"] + (["boot"] if case.boot_it else [])
    out = {
        "case": asdict(case),
        "call": call,
        "r_code": f"{r_fit_code(case)}\n" + (f"pd <- {pdist_call}\n" if pdist_call else "") + f"mb <- {call}",
        "rows": [[int(v) for v in idx] for idx in ro.r("lapply(mb@boot_data$row_idxs, as.integer)")],
        "model_stats": _frame(ro, "mb@model_stats"),
        "model_coefs": _frame(ro, "mb@model_coefs"),
        "tidy": [None if ro.r(f"is.null(mb@boot_data$tidy[[{i + 1}]])")[0] else
                 _frame(ro, f"mb@boot_data$tidy[[{i + 1}]][c('term', 'estimate')]")
                 for i in range(case.boot_it + 1)],
        "terms": [str(t) for t in terms],
        "effects": {},
        "stats": {},
        "failed": [int(v) for v in ro.r("mb@boot_data$it[vapply(mb@boot_data$model, is.null, logical(1))]")],
        "y_summary": {"rows": [str(v) for v in ro.r("rownames(mb@ale$single@params$y_summary)")],
                      "values": [_value(float(v)) for v in ro.r("as.numeric(mb@ale$single@params$y_summary[, 1])")]},
    }
    if case.ale_p:
        ro.r("pd_used <- mb@ale$single@params$p_values")  # the ALEpDist passed, or the one 'auto' made
        out["ale_p"] = {
            "family": str(ro.r("attr(pd_used@residual_distribution, 'model')")[0]),
            "rand_it_ok": int(ro.r("pd_used@params$rand_it_ok")[0]),
            "exactness": str(ro.r("pd_used@params$exactness")[0]),
            "rand_stats": _frame(ro, "pd_used@rand_stats[[1]]"),
        }
    for kind in types:
        out["effects"][kind] = {str(t): _frame(ro, f"get(mb, {json.dumps(str(t))}, type = '{kind}')")
                                for t in terms}
        dims = ro.r(f"names(get(mb, stats = 'all', type = '{kind}', simplify = FALSE))")
        out["stats"][kind] = {str(d): _frame(ro, f"get(mb, stats = 'all', type = '{kind}', simplify = FALSE)"
                                                 f"[[{json.dumps(str(d))}]]") for d in dims}
    return out


def _child(version: str, names: list[str], out_dir: Path, data_seed=None, boot_seed=None) -> None:
    import rpy2.robjects as ro

    ro.r(R_HELPERS)
    ro.r("suppressMessages(library(ale))")
    found = str(ro.r("as.character(packageVersion('ale'))")[0])
    if found != version:
        raise SystemExit(f"the R library for ale {version} holds ale {found}")
    versions = {p: str(ro.r(f"as.character(packageVersion('{p}'))")[0]) for p in PACKAGES}
    meta = {
        "generator": "scripts/make_modelboot_fixtures.py",
        "arguments": [a if not a.startswith(str(ROOT)) else str(Path(a).relative_to(ROOT)) for a in sys.argv[1:]],
        "r_version": str(ro.r("R.version.string")[0]),
        "packages": versions,
        "rng": [str(v) for v in ro.r("RNGkind()")],
        "created": datetime.date.today().isoformat(),
        "rtol": RTOL,
        "tolerance_reason": RTOL_REASON,
        "note": "Generated from R: do not edit.",
    }
    out_dir.mkdir(parents=True, exist_ok=True)
    for case in CASES:
        if names and case.name not in names:
            continue
        case = with_seeds(case, data_seed, boot_seed)
        fixture = {"meta": {**meta, "seed": case.boot_seed, "description": case.note,
                            "r_library": f"ale {version}"}, **_run_case(ro, case)}
        path = out_dir / f"{case.name}.json"
        path.write_text(json.dumps(fixture, indent=1) + "\n")
        print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="*")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--versions", nargs="*", default=list(LIBRARIES))
    parser.add_argument("--data-seed", type=int, default=None)
    parser.add_argument("--boot-seed", type=int, default=None)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        _child(args.child, args.cases, args.out / f"ale-{args.child}", args.data_seed, args.boot_seed)
        return
    seeds = [] if args.data_seed is None else ["--data-seed", str(args.data_seed)]
    seeds += [] if args.boot_seed is None else ["--boot-seed", str(args.boot_seed)]
    for version in args.versions:
        variable, default = LIBRARIES[version]
        library = os.path.expanduser(os.environ.get(variable, default))
        env = {**os.environ, "R_LIBS": library}
        subprocess.run([sys.executable, __file__, *args.cases, "--out", str(args.out), *seeds, "--child", version],
                       env=env, check=True)


if __name__ == "__main__":
    main()
