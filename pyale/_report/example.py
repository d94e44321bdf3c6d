"""The bundled credit-scoring example: synthetic applications and a scorecard (``pyale report --example credit``).

``pyale/data/credit.csv`` is synthetic (``scripts/make_credit_data.py``,
seeded; nothing in it is real).  :class:`CreditScorecard` is a logistic
scorecard of known form standing in for a fitted model, so that the example
runs with pyale's own dependencies and gives the same numbers everywhere.
"""

from __future__ import annotations

from importlib import resources

import numpy as np
import pandas as pd

__all__ = ["load_credit", "CreditScorecard", "EXAMPLE"]


def load_credit() -> pd.DataFrame:
    """The bundled synthetic credit applications (4000 rows; see ``pyale/data/README.md``)."""
    with resources.files("pyale").joinpath("data", "credit.csv").open("r", encoding="utf-8") as fh:
        # every float read as the double its text stands for (pandas 3's default; pandas 2 needs the option)
        exact = {} if int(pd.__version__.split(".")[0]) >= 3 else {"float_precision": "round_trip"}
        data = pd.read_csv(fh, **exact)
    data["region"] = data["region"].astype("category")
    return data


class CreditScorecard:
    """Probability of default of an application: a logistic score of its columns.

    ``logit = -3.05 + 3.9 dti + 1.4 utilisation^2 - 0.011 (income - 50)
    + 0.35 dti [income < 35] + 0.0006 (age - 42)^2 - 0.015 (age - 42)
    + 0.2 [region == south]``; called with a DataFrame holding those
    columns, returns one probability per row.  Default risk rises with
    debt-to-income and utilisation and falls with income; it is U-shaped in
    age (lowest near 54), which a check of "decreasing in age" should find.
    """

    def __call__(self, frame: pd.DataFrame) -> np.ndarray:
        dti = frame["debt_to_income"].to_numpy(dtype=float)
        income = frame["income"].to_numpy(dtype=float)
        age = frame["age"].to_numpy(dtype=float)
        utilisation = frame["utilisation"].to_numpy(dtype=float)
        south = (np.asarray(frame["region"], dtype=object) == "south").astype(float)
        logit = (-3.05 + 3.9 * dti + 1.4 * utilisation ** 2 - 0.011 * (income - 50) + 0.35 * dti * (income < 35)
                 + 0.0006 * (age - 42) ** 2 - 0.015 * (age - 42) + 0.2 * south)
        return 1.0 / (1.0 + np.exp(-logit))


#: What ``pyale report --example credit`` reports on.
EXAMPLE = {
    "features": ["debt_to_income", "income", "utilisation", "age", "region"],
    "expect": {"debt_to_income": "increasing", "income": "decreasing", "utilisation": "increasing",
               "age": "decreasing"},
    "segments": "region",
    "periods": "year",
    "response": "default",
}
