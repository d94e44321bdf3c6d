"""
Numeric, categorical, pair and class effects in one figure
==========================================================

:class:`pyale.ALEDisplay` follows scikit-learn's ``PartialDependenceDisplay``:
``from_estimator`` computes and draws, ``from_results`` draws finished
results, and the matplotlib artists are attributes ending in ``_``.  A numeric
feature is a curve with a rug (or decile ticks), a categorical one bars with
whole level names, a pair a surface with a colour bar and labelled contours,
and a classifier gets one curve per class, or one surface per class.
"""

# %%
# A regression: three features and a pair
# ----------------------------------------
from importlib.resources import files

import matplotlib.pyplot as plt
import pandas as pd
from sklearn.compose import make_column_transformer
from sklearn.datasets import load_wine
from sklearn.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder

import pyale

data = pd.read_csv(files("pyale") / "data" / "grunfeld.csv")
X = data[["value", "capital", "firm"]]
pipeline = make_pipeline(
    make_column_transformer((OneHotEncoder(sparse_output=False), ["firm"]), remainder="passthrough"),
    HistGradientBoostingRegressor(random_state=0),
).fit(X, data["invest"])

display = pyale.ALEDisplay.from_estimator(
    pipeline, X, ["value", "capital", "firm", ("value", "capital")], n_intervals=10, n_cols=2, deciles=True
)
plt.show()

# %%
# The pair's panel shows the second-order effect only: what the two features
# do together beyond their own effects (both first-order effects are removed).
# Hatched cells hold no data; their local effect was borrowed from the
# nearest cell with data, as R does.  The artists are there to restyle:
print(display.axes_.shape, type(display.colorbars_[1, 1]).__name__)

# %%
# A classifier: a curve per class, a surface per class
# ----------------------------------------------------
# scikit-learn's wine data (178 wines, three cultivars).  For a classifier
# pyale explains the class probabilities, every class by default
# (``response=`` picks some).
wine = load_wine(as_frame=True)
chemistry = wine.data[["alcohol", "flavanoids", "proline"]]
classifier = HistGradientBoostingClassifier(max_iter=30, random_state=0).fit(
    chemistry, wine.target_names[wine.target]
)
classes = pyale.ale(classifier, chemistry, ["flavanoids", ("flavanoids", "proline")], n_intervals=8)
print(classes[0].outputs)
classes.plot(X=chemistry)
plt.show()
