"""
Polars, pyarrow and NumPy input
===============================

``X`` may be a pandas, polars or pyarrow table, or a NumPy array with
``feature_names=``.  The numbers are those of the pandas run, exactly, and the
model is handed what it expects: a plain callable gets frames of the type you
passed, a scikit-learn model what it was fitted on.
"""

# %%
import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
from sklearn.datasets import load_diabetes
from sklearn.ensemble import HistGradientBoostingRegressor

import pyale

diabetes = load_diabetes(as_frame=True)
X = diabetes.data[["age", "bmi", "bp", "s5"]]
model = HistGradientBoostingRegressor(max_iter=50, random_state=0).fit(X, diabetes.target)

reference = pyale.ale(model, X, "bmi", n_intervals=10)
as_polars = pyale.ale(model, pl.from_pandas(X), "bmi", n_intervals=10)
as_arrow = pyale.ale(model, pa.Table.from_pandas(X), "bmi", n_intervals=10)
print("polars equals pandas exactly:", as_polars.equals(reference))
print("pyarrow equals pandas exactly:", as_arrow.equals(reference))

# %%
# A NumPy array has no column names: give them with ``feature_names=``.  Here
# the model was fitted on a DataFrame, so pyale hands it a DataFrame with the
# names it was fitted with (no "X does not have valid feature names" warning).
as_numpy = pyale.ale(model, X.to_numpy(), "bmi", n_intervals=10, feature_names=list(X.columns))
print("NumPy equals pandas exactly:", as_numpy.equals(reference))

# %%
# A plain callable receives the type passed: here a polars DataFrame.
seen = set()


def polars_model(frame):
    seen.add(type(frame).__module__.split(".")[0])
    return frame.select(pl.col("bmi") * 2 + pl.col("bp")).to_series().to_numpy()


pyale.ale(polars_model, pl.from_pandas(X), "bmi", n_intervals=10)
print("the callable was handed:", sorted(seen))

# %%
reference.plot()
