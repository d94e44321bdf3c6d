"""
A first ALE on a scikit-learn pipeline
======================================

Fit a gradient-boosting model inside a scikit-learn pipeline that one-hot
encodes a categorical column, then ask :func:`pyale.ale` how the prediction
changes with a numeric feature and with the categorical one.  pyale works on
the raw columns: the pipeline's encoding is the model's business.
"""

# %%
# The data and the model
# ----------------------
# Grunfeld's investment data ship with pyale: 220 rows, ten firms over twenty
# years, with the firm's market value, its capital stock and its gross
# investment.
from importlib.resources import files

import matplotlib.pyplot as plt
import pandas as pd
from sklearn.compose import make_column_transformer
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder

import pyale

data = pd.read_csv(files("pyale") / "data" / "grunfeld.csv")
X = data[["value", "capital", "firm"]]
pipeline = make_pipeline(
    make_column_transformer((OneHotEncoder(sparse_output=False), ["firm"]), remainder="passthrough"),
    HistGradientBoostingRegressor(random_state=0),
).fit(X, data["invest"])
X.head()

# %%
# One numeric feature
# -------------------
# ``n_intervals`` sets the number of intervals (ALEPlot's ``K``; 40 by
# default).  The result holds the interval edges, the centred effect at each
# edge for every model output, and the number of rows in each interval.
value = pyale.ale(pipeline, X, "value", n_intervals=10)
print(value)
print("edges :", value.grid[0])
print("counts:", value.counts)

# %%
# ``to_frame()`` gives a tidy table; ``plot()`` draws the curve with a rug of
# the data.  The curve is centred: its count-weighted mean over the data is 0,
# so each value is the prediction's difference from the average prediction
# due to ``value`` alone.
value.to_frame().head()

# %%
value.plot()
plt.show()

# %%
# The categorical feature
# -----------------------
# One effect per firm.  The levels are put in order by how similar the firms'
# other features are (R's ALEPlot does the same), since ALE accumulates
# differences between neighbouring levels.
firm = pyale.ale(pipeline, X, "firm")
print(firm.level_order)
firm.plot()
plt.show()
