"""Write reference/port/nlminb.json: R's ``nlminb`` on problems both languages evaluate alike.

For ``pyale._rbase.port.nlminb`` (R's PORT library path without gradient:
``drmnfb`` with bounds, ``drmnf`` without).  The problems and their inputs
(data, starts, bounds, controls) are made in Python from a seed
(``tests/port_cases.py``) and handed to R as hex floats; R records every
point at which ``nlminb`` evaluates the objective, its answer (``par``,
``objective``, ``convergence``, ``iterations``, ``evaluations``, ``message``)
and, where asked, the lines ``control = list(trace = 1)`` prints.  Needs R
and rpy2 only (stats is base R); the numbers depend on R's BLAS (``ddot``,
``dnrm2``), recorded in the metadata.

    python scripts/make_port_fixtures.py [--seed 20261126] [--random 8]

Files are generated: do not edit them.
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import port_cases  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=20261126)
    parser.add_argument("--random", type=int, default=8, help="random quadratic and Rosenbrock pairs")
    parser.add_argument("--out", type=Path, default=ROOT / "reference" / "port" / "nlminb.json")
    args = parser.parse_args(argv)

    import rpy2.robjects as robjects

    cases = []
    for case in port_cases.cases(args.seed, args.random):
        answer = port_cases.parse_r_answer(list(robjects.r(port_cases.r_call(case))))
        if case.get("message_undefined"):
            # R's message here reads an uninitialised local (3 or 5 from run to run): not stored, so
            # that regenerating the fixture gives the same bytes
            answer["message"] = None
        cases.append(dict(case, r=answer))
    meta = {
        "generator": "scripts/make_port_fixtures.py",
        "arguments": {"seed": args.seed, "random": args.random},
        "seed": args.seed,
        "r_version": str(robjects.r("R.version.string")[0]),
        "packages": {"stats": str(robjects.r("as.character(packageVersion('stats'))")[0])},
        "blas": str(robjects.r("extSoftVersion()[['BLAS']]")[0]),
        "rtol": 0.0,
        "tolerance_reason": "bit for bit: every evaluation point, par, objective, counts and message",
        "description": ("R's nlminb(start, objective, lower, upper, scale, control) without gradient; "
                        "'points' are the arguments of every objective call in order (R's last one is "
                        "its extra call at the stopping point, after PORT has finished)"),
        "created": datetime.date.today().isoformat(),
        "note": "generated: do not edit",
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"meta": meta, "cases": cases}, indent=0) + "\n")
    print(f"wrote {args.out.relative_to(ROOT)} ({len(cases)} cases)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
