"""Write reference/ale_dev/<case>.json: ``ale::ALE`` of R's ``ale`` development version (run with Python).

The development version (``tripartio/ale``, unreleased, DESCRIPTION
``0.5.3.20260217``) adds ``fct_order``, ``aled_fun`` and per-column
``max_num_bins`` to ``ALE()``.  Each case of ``scripts/ale_dev_cases.py`` runs
``ALE(NULL, x_cols, data, "y", pred_fun = pf, fct_order, aled_fun,
max_num_bins, parallel = 0, p_values = NULL, silent = TRUE)`` in a child
process whose ``R_LIBS`` is ``$ALE_R_LIB_DEV`` (``~/Rlib-ale-dev``) before
the 0.5.3 library (for the dependencies).  The fixture records ``get()`` of
every term (``ale_centre = "zero"``), ``get(stats = "all")``, R's and the
package's versions and the development commit the build came from
(``$ALE_DEV_COMMIT``, 40 hex digits; the default tests require it).

Usage::

    ALE_DEV_COMMIT=<sha> python scripts/make_ale_dev_fixtures.py [case ...] [--out DIR] [--seed N]

``--seed`` replaces every case's data seed (the live tests' held-back data).

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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from ale_dev_cases import CASES, R_MODEL, make_data, r_option  # noqa: E402
from make_modelboot_fixtures import PACKAGES, R_HELPERS, _frame  # noqa: E402

OUT = ROOT / "reference" / "ale_dev"
LIBRARY = ("ALE_R_LIB_DEV", "~/Rlib-ale-dev")
DEPENDENCIES = ("ALE_R_LIB_053", "~/Rlib-ale053")
RTOL = 1e-9


def _run_case(ro, case) -> dict:
    from pyale.r import to_r_dataframe

    ro.r('RNGkind("Mersenne-Twister", "Inversion", "Rejection")')
    ro.globalenv["train"] = to_r_dataframe(make_data(case.seed, case.n, case.text, case.unused))
    if case.text:
        ro.r("train$s <- as.character(train$s)")
    ro.r(f"pf <- function(object, newdata, type) {{ {R_MODEL} }}")
    terms = "c(" + ", ".join(json.dumps(t) for t in case.x_cols) + ")"
    call = (f"ALE(NULL, x_cols = {terms}, data = train, y_col = 'y', pred_fun = pf, "
            f"fct_order = {r_option(case.fct_order)}, aled_fun = {r_option(case.aled_fun)}, "
            f"max_num_bins = {r_option(case.max_num_bins)}, parallel = 0, p_values = NULL, silent = TRUE)")
    failed = ro.r(f"tryCatch({{res <- {call}; ''}}, error = function(e) conditionMessage(e))")[0]
    if failed:
        return {"case": asdict(case), "call": call, "error": str(failed)}
    dims = list(ro.r("names(get(res, stats = 'all', simplify = FALSE))"))
    return {
        "case": asdict(case),
        "call": call,
        "r_code": f"pf <- function(object, newdata, type) {{ {R_MODEL} }}\nres <- {call}",
        "effects": {t: _frame(ro, f"get(res, {json.dumps(t)}, ale_centre = 'zero')") for t in case.x_cols},
        "stats": {str(d): _frame(ro, f"get(res, stats = 'all', simplify = FALSE)[[{json.dumps(str(d))}]]")
                  for d in dims},
    }


def _child(names: list[str], out_dir: Path, seed: int | None) -> None:
    import rpy2.robjects as ro

    ro.r(R_HELPERS)
    ro.r("suppressMessages(library(ale))")
    found = str(ro.r("as.character(packageVersion('ale'))")[0])
    if found.count(".") < 3:
        raise SystemExit(f"the R library for ale's development version holds ale {found} (a release)")
    meta = {
        "generator": "scripts/make_ale_dev_fixtures.py",
        "arguments": [*names, *([] if seed is None else ["--seed", str(seed)])],
        "r_version": str(ro.r("R.version.string")[0]),
        "packages": {p: str(ro.r(f"as.character(packageVersion('{p}'))")[0]) for p in PACKAGES},
        "r_library": f"ale {found}, the development version of tripartio/ale",
        "ale_dev_commit": os.environ.get("ALE_DEV_COMMIT", "unknown"),
        "created": datetime.date.today().isoformat(),
        "rtol": RTOL,
        "tolerance_reason": "the issue's rtol 1e-9 (R sums in long double)",
        "note": "Generated from R: do not edit.",
    }
    out_dir.mkdir(parents=True, exist_ok=True)
    for case in CASES:
        if names and case.name not in names:
            continue
        if seed is not None:
            case = replace(case, seed=seed)
        fixture = {"meta": {**meta, "seed": case.seed, "description": case.note}, **_run_case(ro, case)}
        path = out_dir / f"{case.name}.json"
        path.write_text(json.dumps(fixture, indent=1) + "\n")
        print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="*")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        _child(args.cases, args.out, args.seed)
        return
    libs = [os.path.expanduser(os.environ.get(v, d)) for v, d in (LIBRARY, DEPENDENCIES)]
    env = {**os.environ, "R_LIBS": ":".join(libs)}
    seed = [] if args.seed is None else ["--seed", str(args.seed)]
    subprocess.run([sys.executable, __file__, *args.cases, "--out", str(args.out), *seed, "--child"], env=env,
                   check=True)


if __name__ == "__main__":
    main()
