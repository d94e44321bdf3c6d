"""Write reference/ale_extra/ale-<version>/<case>.json: more of R's released ale::ALE (run with Python).

Most cases exercise the two bugs of ``ale::ALE`` that pyale corrects by
default and reproduces with ``pyale.ALE(..., replicate_r_bugs=True)``
(``docs/ale-package.md``, section 10, cases 1 and 2): a binary feature stored
as numbers moved from the level code 1, and the bootstrap of binary,
categorical and ordinal features binning resampled row i by full-data row i.
Each case runs ``ALE(NULL, x_cols, data, y_col, pred_fun = pf, boot_it, seed,
max_num_bins, parallel = 0, p_values = NULL, silent = TRUE)`` in the released
``ale`` 0.5.0 (``$ALE_R_LIB``, ``~/Rlib-ale``) and 0.5.3 (``$ALE_R_LIB_053``,
``~/Rlib-ale053``), each in a child process, with a closed-form ``pf`` that
``scripts/ale_extra_cases.py`` also writes in Python; one more case adds
``exclude_cols``, ``output_boot_data = TRUE`` and a ``sample_size`` below the
rows.  A fixture stores ``get()`` of every term (``ale_centre = "zero"``),
``get(stats = "all")``, ``get(what = "boot_data")`` when kept, the rows of
``params$data$data_sample`` and the versions.

Usage::

    python scripts/make_ale_extra_fixtures.py [case ...] [--out DIR] [--versions 0.5.0 0.5.3]

Files are generated: do not edit them.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from ale_extra_cases import CASES, R_MODELS, make_data  # noqa: E402
from make_modelboot_fixtures import LIBRARIES, PACKAGES, R_HELPERS, _frame  # noqa: E402

OUT = ROOT / "reference" / "ale_extra"
RTOL = 1e-9


def _run_case(ro, case) -> dict:
    from pyale.r import to_r_dataframe

    ro.globalenv["train"] = to_r_dataframe(make_data(case.seed, case.n))
    # a fresh session's generator: an earlier ale call in this session can leave R's kind at L'Ecuyer-CMRG
    ro.r('RNGkind("Mersenne-Twister", "Inversion", "Rejection")')
    ro.r(f"pf <- function(object, newdata, type) {{ {R_MODELS[case.model]} }}")
    terms = "c(" + ", ".join(json.dumps(t) for t in case.x_cols) + ")"
    extra = ""
    if case.exclude_cols:
        extra += ", exclude_cols = c(" + ", ".join(json.dumps(t) for t in case.exclude_cols) + ")"
    if case.output_boot_data:
        extra += ", output_boot_data = TRUE"
    if case.sample_size != 500:
        extra += f", sample_size = {case.sample_size}"
    ro.r(f"train <- train[setdiff(names(train), {json.dumps('y' if case.y != 'y' else 'yb')})]")
    call = (f"ALE(NULL, x_cols = {terms}, data = train, y_col = {json.dumps(case.y)}, pred_fun = pf, "
            f"max_num_bins = {case.max_num_bins}, boot_it = {case.boot_it}, seed = {case.seed_ale}{extra}, "
            "parallel = 0, p_values = NULL, silent = TRUE)")
    failed = ro.r(f"tryCatch({{res <- {call}; ''}}, error = function(e) conditionMessage(e))")[0]
    if failed:
        return {"case": asdict(case), "call": call, "error": str(failed)}
    dims = list(ro.r("names(get(res, stats = 'all', simplify = FALSE))"))
    kept = [str(t) for t in ro.r("c(res@params$requested_x_cols$d1, res@params$requested_x_cols$d2)")]
    boot_data = {}
    if case.output_boot_data:
        boot_data = {t: _frame(ro, f"get(res, {json.dumps(t)}, what = 'boot_data', ale_centre = 'zero')")
                     for t in kept}
    inverted = None
    if case.invert and bool(ro.r("exists('invert_probs', envir = asNamespace('ale'))")[0]):
        ro.r("inv <- ale::invert_probs(res)")
        inverted = {
            "effects": {t: _frame(ro, f"get(inv, {json.dumps(t)})") for t in kept},
            "stats": {str(d): _frame(ro, f"get(inv, stats = 'all', simplify = FALSE)[[{json.dumps(str(d))}]]")
                      for d in dims},
            "estimate": _frame(ro, "get(inv, stats = 'estimate', simplify = FALSE)$d1"),
        }
    return {
        "inverted": inverted,
        "terms": kept,
        "boot_data": boot_data,
        "data_sample_rows": [int(v) for v in ro.r("as.integer(rownames(res@params$data$data_sample))")],
        "case": asdict(case),
        "call": call,
        "r_code": f"pf <- function(object, newdata, type) {{ {R_MODELS[case.model]} }}\nres <- {call}",
        "effects": {t: _frame(ro, f"get(res, {json.dumps(t)}, ale_centre = 'zero')") for t in kept},
        "stats": {str(d): _frame(ro, f"get(res, stats = 'all', simplify = FALSE)[[{json.dumps(str(d))}]]")
                  for d in dims},
    }


def _child(version: str, names: list[str], out_dir: Path) -> None:
    import rpy2.robjects as ro

    ro.r(R_HELPERS)
    ro.r("suppressMessages(library(ale))")
    found = str(ro.r("as.character(packageVersion('ale'))")[0])
    if found != version:
        raise SystemExit(f"the R library for ale {version} holds ale {found}")
    meta = {
        "generator": "scripts/make_ale_extra_fixtures.py",
        "arguments": [a if not a.startswith(str(ROOT)) else str(Path(a).relative_to(ROOT)) for a in sys.argv[1:]],
        "r_version": str(ro.r("R.version.string")[0]),
        "packages": {p: str(ro.r(f"as.character(packageVersion('{p}'))")[0]) for p in PACKAGES},
        "r_library": f"ale {version} as released",
        "created": datetime.date.today().isoformat(),
        "rtol": RTOL,
        "tolerance_reason": "the issue's rtol 1e-9 (R sums in long double)",
        "note": "Generated from R: do not edit.",
    }
    out_dir.mkdir(parents=True, exist_ok=True)
    for case in CASES:
        if names and case.name not in names:
            continue
        fixture = {"meta": {**meta, "seed": case.seed_ale, "description": case.note}, **_run_case(ro, case)}
        path = out_dir / f"{case.name}.json"
        path.write_text(json.dumps(fixture, indent=1) + "\n")
        print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="*")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--versions", nargs="*", default=list(LIBRARIES))
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        _child(args.child, args.cases, args.out / f"ale-{args.child}")
        return
    for version in args.versions:
        variable, default = LIBRARIES[version]
        env = {**os.environ, "R_LIBS": os.path.expanduser(os.environ.get(variable, default))}
        subprocess.run([sys.executable, __file__, *args.cases, "--out", str(args.out), "--child", version],
                       env=env, check=True)


if __name__ == "__main__":
    main()
