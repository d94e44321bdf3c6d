"""Regenerate docs/validation-example/: `pyale validate` on R's airquality with an R lm saved as .rds.

    python scripts/make_validation_example.py

Needs R with ALEPlot, yaImpute and iml, and rpy2.  R writes the data
(``na.omit(airquality)``) and the fitted model; then the command runs from
docs/validation-example/ so the report names its inputs by relative paths.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "validation-example"
ARGS = ["validate", "--data", "inputs/airquality.csv", "--model", "inputs/ozone_lm.rds",
        "--features", "Temp", "Wind", "Month", "Wind,Temp", "--drop", "Ozone", "Day",
        "--out", "report"]


def main() -> int:
    import rpy2.robjects as ro

    from pyale._cli import main as pyale_main

    if OUT.exists():
        shutil.rmtree(OUT)
    (OUT / "inputs").mkdir(parents=True)
    ro.r(f"""
      d <- na.omit(datasets::airquality); rownames(d) <- NULL
      write.csv(d, "{OUT / 'inputs' / 'airquality.csv'}", row.names = FALSE)
      saveRDS(lm(Ozone ~ Solar.R + Wind * Temp + factor(Month), data = d), "{OUT / 'inputs' / 'ozone_lm.rds'}")
    """)
    os.chdir(OUT)
    return pyale_main(ARGS)


if __name__ == "__main__":
    raise SystemExit(main())
