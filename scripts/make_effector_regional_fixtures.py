"""Regional-effect fixtures from effector (run with a Python that has effector 0.6.0).

    /path/to/effector-venv/bin/python scripts/make_effector_regional_fixtures.py [--out reference/effector]

For every case of ``scripts/effector_regional_cases.py``: the data drawn in
NumPy from the case's seed, effector's ``ALE`` (its fixed grid of 20 equal
bins) or ``RHALE`` (the model's Jacobian, the same fixed grid) fitted on all
rows (``nof_instances="all"``; a case's ``binning`` may ask ``RHALE`` for its
dynamic-programming or agglomerative bins, re-found in every region), and ``find_regions`` with the case's finder
(``Best`` or ``BestLevelWise``) and settings.  Written to
``reference/effector/regional/<case>.json``, one file per case: the data, each region (its rule as
effector serialises it, its rows, size, heterogeneity, parent and level),
the uncentred regional curve at the grid edges (``eval(centering=False,
mask=...)``), the root's payload (bin limits, effects, variances) and the
feature types effector inferred.  Generated files: never edit by hand.
"""

from __future__ import annotations

import argparse
import datetime
import json
import platform
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from effector_regional_cases import CASES, JACOBIANS, MODELS, make_data  # noqa: E402

#: Tolerances the replaying tests use, with their reason.
TOLERANCE = {
    "rtol": 1e-10,
    "rtol_secant": 1e-6,
    "reason": ("effector's ALE evaluates the top bin at max + 1e-8 (compute_local_effects adds EPS to the last "
               "limit in place) and divides by the nominal width, so secants of a model curved in the top bin "
               "differ by about 1e-8 relative; models linear in the feature (linear_gate, level_gate) and every "
               "RHALE case compare at rtol 1e-10"),
}


def run_case(case: dict, seed_offset: int = 0) -> dict:
    import effector
    import effector.axis_partitioning as ap
    import effector.space_partitioning as sp

    kind, n, seed = case["data"]
    seed += seed_offset
    x = make_data(kind, n, seed)
    names = [f"x{i + 1}" for i in range(x.shape[1])]
    model = MODELS[case["model"]]
    schema = {"feature_names": names}
    if case.get("nominal_feature", False):  # x1 declared nominal (effector would infer integer levels ordinal),
        from effector.ingestion import infer_feature_types  # the other columns as effector infers them

        schema["feature_types"] = ["nominal"] + infer_feature_types(x)[1:]
    if case["method"] == "ale":
        effect = effector.ALE(x, model, nof_instances="all", schema=schema)
    else:
        effect = effector.RHALE(x, model, JACOBIANS[case["model"]], nof_instances="all", schema=schema)
    binning = case.get("binning", "fixed")
    effect.fit([0], binning_method=ap.Fixed(nof_bins=20) if binning == "fixed" else binning)
    finder_class = sp.Best if case["finder"] == "best" else sp.BestLevelWise
    partition = effect.find_regions(0, finder=finder_class(**case["settings"]))
    # effector infers x1 (integers 0..4) ordinal; a nominal x1 is evaluated at its levels too
    categorical = case.get("categorical_feature", False) or case.get("nominal_feature", False)
    edges = np.unique(x[:, 0]) if categorical else np.linspace(x[:, 0].min(), x[:, 0].max(), 21)
    regions = []
    for r in partition.regions:
        mask = None if r.idx == 0 else r.mask
        limits = np.asarray(effect._summary(0, mask)["limits"], dtype=float)  # the region's own bins
        regions.append({
            "limits": limits.tolist(),
            "idx": r.idx,
            "parent": r.parent_idx,
            "level": r.level,
            "rule": r.rule.to_dict(),
            "text": r.name,
            "rows": np.flatnonzero(r.mask).tolist(),
            "size": r.nof_instances,
            "heterogeneity": r.heterogeneity,
            "curve": effect.eval(0, edges, centering=False, mask=mask).tolist(),
        })
    payload = effect.payload(0)
    return {
        "name": case["name"],
        "case": case,
        "feature_names": names,
        "feature_types": list(effect.feature_types),
        "x": x.tolist(),
        "edges": edges.tolist(),
        "root_heter_score": effect.heter_score(0),
        "payload": {"limits": np.asarray(payload["limits"]).tolist(),
                    "bin_effect": np.asarray(payload["bin_effect"]).tolist(),
                    "bin_variance": np.asarray(payload["bin_variance"]).tolist(),
                    "points_per_bin": np.asarray(payload["points_per_bin"]).tolist()},
        "regions": regions,
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(HERE.parent / "reference" / "effector" / "regional"))
    parser.add_argument("--seed-offset", type=int, default=0,
                        help="add this to every case's seed (fresh data for the live tests; fixtures use 0)")
    args = parser.parse_args(argv)
    try:
        import effector
    except ImportError as exc:
        print(f"make_effector_regional_fixtures: effector is not importable here ({exc}); run this script with "
              "the Python of an environment where effector 0.6.0 is installed (pip install effector==0.6.0).",
              file=sys.stderr)
        return 2
    from importlib.metadata import version

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for case in CASES:
        fixture = run_case(case, args.seed_offset)
        fixture["meta"] = {
            "generator": "scripts/make_effector_regional_fixtures.py",
            "arguments": argv if argv is not None else sys.argv[1:],
            "cases_file": "scripts/effector_regional_cases.py",
            "effector": version("effector"),
            "numpy": np.__version__,
            "python": platform.python_version(),
            "r_version": "not used (Python's effector)",
            "packages": {"effector": version("effector"), "numpy": np.__version__},
            "seed": case["data"][2] + args.seed_offset,
            "created": datetime.date.today().isoformat(),
            "tolerance": TOLERANCE,
            "note": "Generated by the script above from effector; do not edit.",
        }
        path = out / f"{case['name']}.json"
        path.write_text(json.dumps(fixture) + "\n")
        print(f"wrote {path} (effector {fixture['meta']['effector']})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
