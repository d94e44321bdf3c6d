"""Generate pyale/data/credit.csv: synthetic credit applications for the validation guide's example.

Run ``python scripts/make_credit_data.py`` (also run by scripts/make_fixtures.py).  Deterministic:
NumPy's PCG64 with seed 20240 gives the same file on every platform.  Nothing in it is real data.

Columns: ``income`` (thousands a year, log-normal), ``debt_to_income`` (ratio), ``utilisation``
(share of credit lines used), ``age`` (years, integer), ``region`` (north, south, east, west),
``year`` (2024: development sample, 2025: out-of-time sample), ``default`` (0/1, drawn from the
true probability below).  In 2025 debt-to-income shifts upwards and is more often paired with low
incomes, so a model with an income x debt-to-income interaction has a different effect of
debt-to-income in 2025 (the drift the guide's stability check finds).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

SEED = 20240
N = 4000
OUT = Path(__file__).resolve().parents[1] / "pyale" / "data" / "credit.csv"


def make(n: int = N, seed: int = SEED) -> pd.DataFrame:
    rng = np.random.Generator(np.random.PCG64(seed))
    year = np.where(rng.random(n) < 0.5, 2024, 2025)
    later = year == 2025
    income = np.round(np.exp(rng.normal(3.9, 0.45, n)), 1)
    dti = np.clip(rng.beta(2.0, 5.0, n) + 0.08 * later + 0.06 * later * (income < 45), 0.0, 0.95).round(3)
    utilisation = rng.beta(1.6, 2.4, n).round(3)
    age = np.clip(rng.normal(42, 12, n), 21, 75).round().astype(int)
    region = rng.choice(np.array(["north", "south", "east", "west"]), size=n, p=[0.3, 0.3, 0.2, 0.2])
    logit = (-3.0 + 4.0 * dti + 1.5 * utilisation ** 2 - 0.012 * (income - 50) + 0.03 * (income < 35) * dti * 10
             - 0.015 * (age - 42) + 0.0006 * (age - 42) ** 2 + 0.2 * (region == "south"))
    default = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    return pd.DataFrame({"income": income, "debt_to_income": dti, "utilisation": utilisation, "age": age,
                         "region": region, "year": year, "default": default})


def main() -> None:
    make().to_csv(OUT, index=False, lineterminator="\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
