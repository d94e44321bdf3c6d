"""
R's ale package, bootstrap bands included
=========================================

:class:`pyale.ALE` is R's ``ale::ALE()`` (ale 0.5.0) with its ``get()``
tables: the same bins (the minimum in a bin of its own), the same bootstrap
resamples for the same ``seed`` (R draws them with ``sample.int`` under
L'Ecuyer-CMRG; pyale draws the same rows), the same bands and ALE statistics.

This example replays one of the committed fixtures (``reference/ale``): 15
rows, a closed-form model, 25 bootstrap replicates, some of which leave a bin
empty (ale then drops that bin and every later one from the replicate).  R's
numbers are read from the fixture; no R is needed to build this page.
"""

# %%
# The data and R's answer
# -----------------------
import json
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

import pyale

# The repository's top directory: this example runs from a clone.
ROOT = next(p for p in [Path.cwd(), *Path.cwd().parents] if (p / "reference" / "ale").is_dir())
fixture = json.loads((ROOT / "reference" / "ale" / "boot_small_empty_bins.json").read_text())


def table(stored: dict) -> pd.DataFrame:
    """A stored R table as pandas (factors as Categorical, character columns as strings)."""
    columns = {}
    for name in stored["columns"]:
        kind, values = stored["types"][name], stored["values"][name]
        if kind["type"] == "factor":
            columns[name] = pd.Categorical(values, categories=kind["levels"], ordered=kind["ordered"])
        elif kind["type"] == "character":
            columns[name] = values
        else:
            columns[name] = np.array(values, dtype=float)
    return pd.DataFrame(columns)


data = table(fixture["data"])
r_table = table(fixture["tables"]["x1"]["categories"]["y"]["get"])
print(fixture["call"]["r_code"].splitlines()[-1])

# %%
# The same call in Python
# -----------------------
# R's ``pred_fun(object, newdata, type)`` is called with the same keywords.
EFFECT = {"m": 0.0, "n": 1.5, "w": -1.0}


def pred_fun(object, newdata, type):
    g = newdata["g"].astype(str).map(EFFECT).to_numpy(dtype=float)
    x1, x2 = newdata["x1"].to_numpy(), newdata["x2"].to_numpy()
    return x1**3 + x2 * x1 + g * x1 + g


res = pyale.ALE(None, "x1", data, "y", pred_fun=pred_fun, boot_it=25, seed=5)
mine = res.get("x1")
print(mine.round(4))
columns = [".y", ".y_lo", ".y_mean", ".y_median", ".y_hi"]
print("largest difference from R:", float(np.abs(mine[columns].to_numpy() - r_table[columns].to_numpy()).max()))
print("counts equal:", mine[".n"].tolist() == r_table[".n"].astype(int).tolist())

# %%
# The replicates, empty bins included
# -----------------------------------
# Each replicate is R's resample of the rows, computed without calling the
# model again.  A replicate without a row in some bin has no value there and
# after it (NaN), as in R; the band summarises the values that exist.
curves = res.curves("x1")
print("replicates with a missing bin:", int(np.isnan(curves[1:]).any(axis=1).sum()), "of", res.boot_it)

# %%
# ALE statistics with their bootstrap intervals
# ---------------------------------------------
stats = res.get(stats="all")
r_stats = table(fixture["stats"]["by_category"]["y"]["d1"])
print(stats.round(4))
numbers = ["estimate", "conf.low", "mean", "median", "conf.high"]
print("largest difference from R:", float(np.abs(stats[numbers].to_numpy() - r_stats[numbers].to_numpy()).max()))

# %%
# The picture
# -----------
# ``plot()`` draws ``.y`` with the band ``.y_lo`` .. ``.y_hi`` (centred at 0);
# the dots are R's values from the fixture, shifted the same way.
display = res.plot()
centre = res.y_summary.loc["50%", "y"]
display.axes_[0, 0].plot(r_table["x1.ceil"], r_table[".y"] - centre, "o", color="black", label="R's .y")
display.axes_[0, 0].legend()
plt.show()
