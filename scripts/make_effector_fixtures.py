"""Generate reference/effector/*.json from effector (RHALE, DALE and ALE) on seeded closed-form cases.

    /path/to/venv-with-effector/bin/python scripts/make_effector_fixtures.py [--out reference/effector]

Run it with a Python that has effector (0.6.0 made the committed fixtures)
and NumPy; it does not import pyale.  The cases are ``scripts/effector_cases.py``:
data from a NumPy seed, effector's benchmark models written out in closed
form with their Jacobians.  For each case the fixture stores the data, the
Jacobian effector was handed, effector's settings, and what effector
computed: the bin limits, their widths, rows per bin, the mean local effect
(``bin_effect``) and its variance (``bin_variance``) per bin, and the
uncentred curve (``eval(..., centering=False)``) and effector's own centred
curve (``centering="zero_integral"``) at the limits.  Do not edit the
output by hand.
"""

from __future__ import annotations

import argparse
import datetime
import json
import platform
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import effector_cases as cases  # noqa: E402

GENERATOR = "scripts/make_effector_fixtures.py"


def _binner(ap, method: str, settings: dict):
    if method == "dp":
        return ap.DynamicProgramming(max_nof_bins=settings["max_intervals"], min_points_per_bin=settings.get("min_rows", 2),
                                     discount=settings.get("discount", 0.3))
    if method == "agglomerative":
        return ap.Agglomerative(init_nof_bins=settings["max_intervals"], min_points_per_bin=settings.get("min_rows", 2),
                                discount=settings.get("discount", 0.3))
    return ap.Fixed(nof_bins=settings["n_intervals"], min_points_per_bin=0)


def _floats(a) -> list:
    return [float(v) for v in np.asarray(a, dtype=float).ravel()]


def run_case(effector, name, model, data, n, seed, feature, method, settings) -> dict:
    ap = effector.axis_partitioning
    X = cases.make_data(data, n, seed)
    predict, jacobian = cases.model_predict(model), cases.model_jacobian(model)
    J = jacobian(X)
    binner = _binner(ap, method, settings)
    if method == "ale":
        explainer = effector.ALE(X, predict, nof_instances="all")
        call = "effector.ALE(X, predict, nof_instances='all').fit(feature, binning_method=Fixed(nof_bins=K, min_points_per_bin=0))"
    else:
        explainer = effector.RHALE(X, predict, jacobian, nof_instances="all")
        call = (f"effector.RHALE(X, predict, jacobian, nof_instances='all').fit(feature, "
                f"binning_method={type(binner).__name__}(...))")
    explainer.fit(feature, binning_method=binner, centering=False)
    payload = explainer.payload(feature)
    limits = np.asarray(payload["limits"], dtype=float)
    uncentred = explainer.eval(feature, limits, centering=False)
    centred = explainer.eval(feature, limits, centering="zero_integral")
    return {
        "meta": {
            "generator": GENERATOR,
            "r_version": "not used (Python's effector)",
            "packages": {"effector": effector_version(), "numpy": np.__version__},
            "python_version": platform.python_version(),
            "seed": seed,
            "created": datetime.date.today().isoformat(),
            "call": call,
            "tolerance": {"rtol": 1e-10, "reason": "default; limits and counts compared exactly"},
            "note": "generated; do not edit",
        },
        "case": {"name": name, "model": model, "data": data, "n": n, "seed": seed, "feature": feature,
                 "method": method, "settings": settings},
        "inputs": {"X": [_floats(row) for row in X], "jacobian": [_floats(row) for row in J]},
        "effector": {
            "limits": _floats(limits),
            "dx": _floats(payload["dx"]),
            "points_per_bin": [int(v) for v in payload["points_per_bin"]],
            "bin_effect": _floats(payload["bin_effect"]),
            "bin_variance": _floats(payload["bin_variance"]),
            "uncentred_at_limits": _floats(uncentred),
            "centred_at_limits": _floats(centred),
        },
    }


def effector_version() -> str:
    from importlib.metadata import version

    return version("effector")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "reference" / "effector"))
    parser.add_argument("--seed-offset", type=int, default=0,
                        help="add this to every case's seed (fresh data for the live tests)")
    parser.add_argument("--only", default="", help="comma-separated case names (default: all)")
    args = parser.parse_args(argv)
    try:
        import effector
    except ImportError as exc:
        print(f"make_effector_fixtures: effector is not importable in {sys.executable} ({exc}); run this "
              "script with a Python that has effector 0.6.0 (pip install effector==0.6.0).", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    wanted = set(filter(None, args.only.split(",")))
    for case in cases.CASES:
        if wanted and case[0] not in wanted:
            continue
        case = case[:4] + (case[4] + args.seed_offset,) + case[5:]
        fixture = run_case(effector, *case)
        fixture["meta"]["arguments"] = {"case": case[0], "seed_offset": args.seed_offset}
        (out / f"{case[0]}.json").write_text(json.dumps(fixture, indent=None) + "\n")
        print(f"wrote {case[0]}.json ({len(fixture['effector']['limits']) - 1} bins)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
