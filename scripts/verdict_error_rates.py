"""Print the error-rate table of pyale.check_shape that docs/verdicts.md shows.

    python scripts/verdict_error_rates.py --data-sets 1000

The scenarios and their model are in tests/verdicts/shape_simulation.py (the
default test run draws a quick variant of the same checks).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "verdicts")]  # this checkout's pyale, then the scenarios

import shape_simulation  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-sets", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--level", type=float, default=0.05)
    parser.add_argument("--model-bootstrap", type=int, default=0, metavar="DATA_SETS",
                        help="print instead the model-bootstrap table with this many data sets per row")
    args = parser.parse_args()
    start = time.perf_counter()
    if args.model_bootstrap:
        table = shape_simulation.model_bootstrap_table(args.model_bootstrap, level=args.level)
    else:
        table = shape_simulation.error_rate_table(args.data_sets, seed=args.seed, level=args.level)
    print("| " + " | ".join(table.columns) + " |")
    print("|" + "---|" * table.shape[1])
    for row in table.itertuples(index=False):
        print("| " + " | ".join(f"{v:.3f}" if isinstance(v, float) else str(v) for v in row) + " |")
    print(f"\nlevel {args.level}; {time.perf_counter() - start:.0f} s.")


if __name__ == "__main__":
    main()
