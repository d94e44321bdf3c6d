"""The pyale twin of migration.R: same data, same model, same tables, every number printed as %.12g.

Run: python docs/examples/migration.py   (no R needed)
"""

from pathlib import Path

import numpy as np
import pandas as pd

import pyale

# na.omit(datasets::airquality), written by scripts/make_migration_table.py with every digit
aq = pd.read_csv(Path(__file__).resolve().parent / "airquality.csv")
X = aq[["Solar.R", "Wind", "Temp", "Month", "Day"]].copy()  # every column but the response
X["Month"] = pd.Categorical.from_codes(X["Month"] - 5, categories=["May", "Jun", "Jul", "Aug", "Sep"])

# The model: a fixed formula, so that R and Python evaluate the same function.
MONTH_EFFECT = {"May": 0.0, "Jun": -8.0, "Jul": 4.0, "Aug": 6.0, "Sep": -3.0}
MONTH_SLOPE = {"May": 0.0, "Jun": 0.2, "Jul": 0.5, "Aug": 0.4, "Sep": -0.1}


def ozone(newdata):
    month = newdata["Month"].astype(str)
    solar, wind, temp = (newdata[c].to_numpy(float) for c in ("Solar.R", "Wind", "Temp"))
    effect, slope = month.map(MONTH_EFFECT).to_numpy(float), month.map(MONTH_SLOPE).to_numpy(float)
    return -120 + 0.06 * solar - 3 * wind + 1.8 * temp + 0.02 * wind * temp + effect + slope * (temp - 3 * wind - 50)


def ozone_class(newdata):
    """A classifier: probabilities of a low, mid or high ozone day."""
    score = ozone(newdata)
    mid = np.exp((score - 30) / 10)
    high = np.exp((score - 70) / 10)
    total = 1 + mid + high
    return pd.DataFrame({"low": 1 / total, "mid": mid / total, "high": high / total})


def show(title, table):
    print(f"== {title}")
    print(",".join(table.columns))
    cells = [
        ["NA" if np.isnan(v) else f"{v:.12g}" for v in table[c].to_numpy(float)]
        if pd.api.types.is_numeric_dtype(table[c]) else [str(v) for v in table[c]]
        for c in table.columns
    ]
    for row in zip(*cells):
        print(",".join(row))


# ALEPlot and PDPlot: J is a column name or a 0-based position; the result has K, x_values, f_values
def pred_fun(X_model, newdata):
    return ozone(newdata)


ale_wind = pyale.ALEPlot(X, None, pred_fun, J="Wind", K=10, plot=False)
show("ALEPlot: Wind (numeric), K = 10", pd.DataFrame({"Wind": ale_wind.x_values, "ale": ale_wind.f_values}))
ale_month = pyale.ALEPlot(X, None, pred_fun, J=3, plot=False)
show("ALEPlot: Month (factor), levels in ALEPlot's order", ale_month.to_frame())
pd_temp = pyale.PDPlot(X, None, pred_fun, J="Temp", K=6, plot=False)
show("PDPlot: Temp, K = 6", pd_temp.to_frame())

# iml: Predictor, FeatureEffect, FeatureEffects; the results are pandas DataFrames
predictor = pyale.Predictor(data=X, predict_function=ozone)
show("FeatureEffect: ALE of Temp, grid size 8", pyale.FeatureEffect(predictor, "Temp", grid_size=8).results)
show("FeatureEffect: ALE of Month", pyale.FeatureEffect(predictor, "Month").results)
show("FeatureEffect: PDP of Wind, grid size 5",
     pyale.FeatureEffect(predictor, "Wind", method="pdp", grid_size=5).results)
show("FeatureEffect: ALE of Month x Temp, grid size 3",
     pyale.FeatureEffect(predictor, ["Month", "Temp"], grid_size=3).results)
effects = pyale.FeatureEffects(predictor, features=["Solar.R", "Wind"], grid_size=4)
show("FeatureEffects: ALE, the table of Solar.R", effects.results["Solar.R"])

classifier = pyale.Predictor(data=X, predict_function=ozone_class)
show("FeatureEffect: ALE of Temp for each class probability, grid size 4",
     pyale.FeatureEffect(classifier, "Temp", grid_size=4).results)
