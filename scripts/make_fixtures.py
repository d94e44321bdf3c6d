"""Regenerate every fixture under reference/ from R (one command).

    python scripts/make_fixtures.py            # all generators, their default arguments
    python scripts/make_fixtures.py --check    # only report what R has and lacks

Runs, in order, with the Python running this script:

=====================================  ==========================  ===========================
generator                              writes                      R packages it needs
=====================================  ==========================  ===========================
scripts/make_rbase_fixtures.py         reference/rbase/            base R only
scripts/make_nlm_fixtures.py           reference/nlm/              base R only
scripts/make_nearest_fixture.py        reference/nearest/          yaImpute
scripts/make_aleplot_fixtures.py       reference/aleplot/          ALEPlot, yaImpute, MASS,
                                                                   rpart, randomForest
scripts/make_iml_fixtures.py           reference/iml/              iml, yaImpute, rpart, MASS
scripts/make_iml_rbugs_fixtures.py     reference/iml_rbugs/        iml
scripts/make_rng_fixtures.py           reference/rng/              parallel, furrr, future
scripts/make_ale_fixtures.py           reference/ale/              ale 0.5.0 in ~/Rlib-ale and,
                                                                   corrected, ~/Rlib-ale-fixed
scripts/make_distribution_fixtures.py  reference/rdist/            univariateML (~/Rlib-ale),
                                                                   extraDistr, fGarch
scripts/make_fgarch_fixtures.py        reference/rdist/            fGarch, univariateML
                                                                   (~/Rlib-ale)
scripts/make_pdist_fixtures.py         reference/ale_pdist/        ale 0.5.0 in ~/Rlib-ale and
                                                                   0.5.3 in ~/Rlib-ale053
scripts/make_modelboot_fixtures.py     reference/modelboot/        ale 0.5.0 in ~/Rlib-ale, ale 0.5.3
                                                                   in ~/Rlib-ale053 (staccuracy, broom)
scripts/make_ale_extra_fixtures.py     reference/ale_extra/        the same two ale libraries
scripts/make_effector_fixtures.py      reference/effector/         no R: Python effector 0.6.0,
                                                                   run with $PYALE_EFFECTOR_PYTHON
scripts/make_effector_regional_        reference/effector/         no R: Python effector 0.6.0,
fixtures.py                            regional/                   run with $PYALE_EFFECTOR_PYTHON
scripts/make_credit_data.py            pyale/data/credit.csv       none (NumPy, seeded)
scripts/make_ale_dev_fixtures.py       reference/ale_dev/          ale's development version in
                                                                   ~/Rlib-ale-dev (ALE_DEV_COMMIT)
scripts/make_port_fixtures.py          reference/port/             base R only (stats::nlminb)
=====================================  ==========================  ===========================

The effector generator runs with the Python named by ``PYALE_EFFECTOR_PYTHON``
(a virtual environment with ``effector==0.6.0``; default: the Python running
this script); ``--only-effector`` runs it alone, without R.

It needs R (pyale's fixtures came from R 4.2.2), rpy2 (``pip install
"pyale-r[r]"``) and the R packages above installed in that R.  It never
installs R packages: ALEPlot has left CRAN, so install ALEPlot 1.1,
iml 0.11.4 and yaImpute yourself (e.g. from CRAN's archive) before running
it.  Each fixture records the R and package versions it came from, the
generator and its arguments, and the seed; a fixture's ``created`` date is
the only field that changes when nothing else did (``git diff`` shows it).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GENERATORS = [
    ("make_rbase_fixtures.py", []),
    ("make_nlm_fixtures.py", []),
    ("make_nearest_fixture.py", ["yaImpute"]),
    ("make_aleplot_fixtures.py", ["ALEPlot", "yaImpute", "MASS", "rpart", "randomForest"]),
    ("make_iml_fixtures.py", ["iml", "yaImpute", "rpart", "MASS"]),
    ("make_iml_rbugs_fixtures.py", ["iml"]),  # iml's wrong numbers, for FeatureEffect(replicate_r_bugs=True)
    ("make_rng_fixtures.py", ["parallel", "furrr", "future"]),
    ("make_ale_fixtures.py", []),  # loads ale from its own R libraries and checks them itself
    ("make_distribution_fixtures.py", ["extraDistr", "fGarch"]),  # univariateML from ~/Rlib-ale
    ("make_fgarch_fixtures.py", ["fGarch"]),  # univariateML from ~/Rlib-ale
    ("make_pdist_fixtures.py", []),  # ale 0.5.0 and 0.5.3 from their own R libraries
    ("make_modelboot_fixtures.py", []),  # ale 0.5.0 and 0.5.3 from their own R libraries
    ("make_ale_extra_fixtures.py", []),  # ale 0.5.0 and 0.5.3 as released, from their own R libraries
    ("make_effector_fixtures.py", []),  # Python's effector, with $PYALE_EFFECTOR_PYTHON
    ("make_effector_regional_fixtures.py", []),  # Python's effector (find_regions), with $PYALE_EFFECTOR_PYTHON
    ("make_credit_data.py", []),  # synthetic data of the validation guide's example (no R)
    ("make_ale_dev_fixtures.py", []),  # ale's development version (tripartio/ale) from its own R library
    ("make_port_fixtures.py", []),  # base R's nlminb (PORT), inputs from tests/port_cases.py
]
#: Generators that need no R, and the environment variable naming the Python that runs them.
PYTHONS = {"make_effector_fixtures.py": "PYALE_EFFECTOR_PYTHON",
           "make_effector_regional_fixtures.py": "PYALE_EFFECTOR_PYTHON"}


def _missing_packages() -> tuple[str | None, list[str]]:
    """What stops the generators: (R or rpy2 problem, missing R packages)."""
    try:
        import rpy2.robjects as ro
    except ImportError as exc:
        return f"rpy2 is not installed ({exc}); pip install 'rpy2<3.6' (R 4.2) or 'pyale-r[r]'", []
    except Exception as exc:  # rpy2 without a working R raises ValueError/RuntimeError at import
        return f"rpy2 cannot start R ({type(exc).__name__}: {exc}); install R (Debian: r-base-core)", []
    wanted = sorted({p for _, packages in GENERATORS for p in packages})
    missing = [p for p in wanted if not bool(ro.r(f"isTRUE(requireNamespace('{p}', quietly = TRUE))")[0])]
    return None, missing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only report whether R, rpy2 and the packages are there")
    parser.add_argument("--only-effector", action="store_true", help="only the effector fixtures (no R needed)")
    args = parser.parse_args(argv)
    if args.only_effector:
        for script in PYTHONS:
            code = _run(script)
            if code != 0:
                return code
        return 0
    problem, missing = _missing_packages()
    if problem:
        print(f"make_fixtures: {problem}", file=sys.stderr)
        return 2
    if missing:
        print(f"make_fixtures: R lacks the package(s) {', '.join(missing)}; install them in R first "
              "(this script never installs R packages).", file=sys.stderr)
        return 2
    if args.check:
        print("make_fixtures: R, rpy2 and every R package the generators need are present.")
        return 0
    for script, _ in GENERATORS:
        code = _run(script)
        if code != 0:
            return code
    return 0


def _run(script: str) -> int:
    print(f"== {script}", flush=True)
    python = os.environ.get(PYTHONS[script], sys.executable) if script in PYTHONS else sys.executable
    done = subprocess.run([python, str(ROOT / "scripts" / script)], cwd=ROOT)
    if done.returncode != 0:
        print(f"make_fixtures: {script} failed with exit code {done.returncode}", file=sys.stderr)
    return done.returncode


if __name__ == "__main__":
    raise SystemExit(main())
