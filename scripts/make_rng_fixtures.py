"""Write reference/rng/rng.json: R's L'Ecuyer-CMRG numbers, sample.int and furrr's seeds.

Every case runs in R through rpy2 (base R and parallel; furrr 0.3.1 for the
furrr case) and stores R's answer.  ``tests/rbase/test_rng.py`` compares
``pyale._rbase.rng`` with it; its live tests (marker ``r``) rerun
:func:`build_cases` with the held-back seeds and compare on the spot.

    python scripts/make_rng_fixtures.py [--seeds 0 1 2 ...]

Needs R and rpy2; the furrr case needs the R packages furrr and future.
Files are generated: do not edit them.
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "reference" / "rng" / "rng.json"

DEFAULT_SEEDS = [0, 1, 2, 5, 7, 42, 123, 2024, -1, -99, 2147483647, -2147483647, 987654321]
HELD_BACK_SEEDS = [3, 11, 99991, -31337]  # used only by the live tests

# n values around the points where R_unif_index changes the number of 16-bit chunks
# (bits = ceil(log2 n): 16, 32, 48) and where sample.int switches to doubles (INT_MAX).
SAMPLE_N = [1, 2, 3, 7, 10, 12, 100, 1000, 65535, 65536, 65537, 100000, 2**24 + 3,
            2**31 - 1, 2**31, 2**31 + 1, 2**32 + 5, 2**47 + 1, 2**48, 2**48 + 1, 4.5e15]
ROUNDING_N = [10, 100000, 2**31 - 1, 2**31 + 1, 2**40]


def _lecuyer(seed: int) -> str:
    return f'RNGkind("L\'Ecuyer-CMRG", sample.kind = "Rejection"); set.seed({seed})'


def build_cases(seeds: list[int]) -> list[dict]:
    """The cases (name, kind, arguments, R code) for the given seeds."""
    cases = []
    for seed in seeds:
        cases.append({"name": f"set_seed_{seed}", "kind": "set_seed", "seed": seed,
                      "r_code": f"{_lecuyer(seed)}; .Random.seed"})
        size = 1 + (abs(seed) * 37) % 500
        cases.append({"name": f"runif_{seed}", "kind": "runif", "seed": seed, "size": size,
                      "r_code": f"{_lecuyer(seed)}; runif({size})"})
        cases.append({"name": f"next_stream_{seed}", "kind": "streams", "seed": seed, "count": 4,
                      "r_code": (f"{_lecuyer(seed)}; s <- .Random.seed; out <- list(); "
                                 "for (i in 1:4) { out[[length(out) + 1]] <- parallel::nextRNGStream(s); "
                                 "out[[length(out) + 1]] <- parallel::nextRNGSubStream(s); "
                                 "s <- parallel::nextRNGStream(s) }; do.call(c, out)")})
        for i, n in enumerate(SAMPLE_N):
            if (i + seed) % 3 and n not in (1, 2**31 - 1, 2**31, 2**48 + 1, 65536):
                continue  # every seed covers a third of the n values, the boundaries always
            size = 5 if n > 2**31 else min(int(n) * 2 + 3, 40)
            cases.append({"name": f"sample_replace_{seed}_{int(n)}", "kind": "sample_int", "seed": seed,
                          "n": int(n), "size": size, "replace": True, "sample_kind": "Rejection",
                          "r_code": f"{_lecuyer(seed)}; sample.int({int(n)}, {size}, replace = TRUE)"})
        for n, size in ((10, 10), (50, 7), (1000, 25), (20000001, 6)):
            cases.append({"name": f"sample_noreplace_{seed}_{n}", "kind": "sample_int", "seed": seed,
                          "n": n, "size": size, "replace": False, "sample_kind": "Rejection",
                          "r_code": f"{_lecuyer(seed)}; sample.int({n}, {size}, replace = FALSE)"})
        n = ROUNDING_N[abs(seed) % len(ROUNDING_N)]
        cases.append({"name": f"sample_rounding_{seed}_{int(n)}", "kind": "sample_int", "seed": seed,
                      "n": int(n), "size": 8, "replace": True, "sample_kind": "Rounding",
                      "r_code": ('suppressWarnings(RNGkind("L\'Ecuyer-CMRG", sample.kind = "Rounding")); '
                                 f"set.seed({seed}); x <- sample.int({int(n)}, 8, replace = TRUE); "
                                 'RNGkind(sample.kind = "Rejection"); x')})
        n_rows, boot_it = 3 + abs(seed) % 60, 1 + abs(seed) % 4
        cases.append({"name": f"ale_rows_{seed}", "kind": "ale_rows", "seed": seed, "n": n_rows,
                      "boot_it": boot_it,
                      "r_code": (f"{_lecuyer(seed)}; "
                                 f"unlist(lapply(seq_len({boot_it}), function(b) sample.int({n_rows}, replace = TRUE)))")})
        cases.append({"name": f"furrr_seeds_{seed}", "kind": "furrr_seeds", "seed": seed, "count": 3,
                      "r_code": ("RNGkind(\"Mersenne-Twister\", sample.kind = \"Rejection\"); future::plan(future::sequential); "
                                 "unlist(furrr::future_map(1:3, function(i) get('.Random.seed', envir = globalenv()), "
                                 f".options = furrr::furrr_options(seed = {seed}L)))")})
    return cases


def run_case(ro, case: dict) -> list:
    """R's answer to one case, as JSON-ready numbers."""
    value = ro.r(case["r_code"])
    values = list(value)
    ro.r('RNGkind("Mersenne-Twister", "Inversion", "Rejection")')
    if case["kind"] == "runif":
        return [float(v) for v in values]
    return [int(v) for v in values]  # doubles from sample.int above INT_MAX are whole numbers


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="*", default=DEFAULT_SEEDS)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)

    import rpy2.robjects as ro

    cases = build_cases(args.seeds)
    for case in cases:
        case["expected"] = run_case(ro, case)
    versions = {name: str(ro.r(f'as.character(packageVersion("{name}"))')[0])
                for name in ("base", "parallel", "furrr", "future")}
    meta = {
        "do_not_edit": "Generated by scripts/make_rng_fixtures.py from R; regenerate, never edit.",
        "generator": "scripts/make_rng_fixtures.py",
        "arguments": sys.argv[1:] if argv is None else argv,
        "seeds": args.seeds,
        "seed": None,
        "r_version": str(ro.r("R.version.string")[0]),
        "packages": versions,
        "created": datetime.date.today().isoformat(),
        "rtol": 0.0,
        "tolerance_reason": "random numbers are exact: integers equal, uniforms equal as doubles",
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"meta": meta, "cases": cases}, indent=None, separators=(",", ":")) + "\n")
    print(f"wrote {len(cases)} cases to {args.out.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
