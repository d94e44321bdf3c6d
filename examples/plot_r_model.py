"""
An R model explained from Python
================================

A model that lives in R (an ``lm``, a ``glm``, a ``randomForest`` saved with
``saveRDS``) can be explained from Python without re-implementing it:
:class:`pyale.r.RModel` calls R's own ``predict`` through rpy2, handing R each
column with its exact type (doubles exactly, categoricals as factors with the
same levels).  The result is what R's ALEPlot computes for the same model.

This needs R and rpy2 (``pip install ".[r]"``).  When this site is built
without them, the example says so and shows the numbers R computed for the
same model when the committed validation report was made
(``docs/validation-example/``), instead of failing.
"""

# %%
# The model and the data
# ----------------------
# An R ``lm`` of ozone on solar radiation, wind, temperature and month, fitted
# on R's ``airquality`` data (complete rows) and saved as ``.rds``; both files
# are committed under ``docs/validation-example/inputs/``.
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

import pyale

# The repository's top directory: this example runs from a clone.
ROOT = next(p for p in [Path.cwd(), *Path.cwd().parents] if (p / "docs" / "validation-example").is_dir())
EXAMPLE = ROOT / "docs" / "validation-example"
data = pd.read_csv(EXAMPLE / "inputs" / "airquality.csv")
X = data[["Solar.R", "Wind", "Temp", "Month"]]

# R's numbers for this model, recorded by ``pyale validate`` with ALEPlot 1.1:
recorded = pd.read_csv(EXAMPLE / "report" / "aleplot_Temp.csv")

try:
    import pyale.r
except ImportError as exc:
    r_model = None
    print("R is not available here:", exc)
    print("Showing the numbers R computed when docs/validation-example/ was made.")
else:
    r_model = pyale.r.RModel(EXAMPLE / "inputs" / "ozone_lm.rds")
    print(r_model, "on", pyale.r.r_version())

# %%
# ALE of temperature
# ------------------
# ``pyale.ale`` takes the :class:`~pyale.r.RModel` like any other model; with
# ALEPlot's conventions (the default, 40 intervals) it reproduces
# ``ALEPlot::ALEPlot(X, fit, pred.fun, J = 3, K = 40)``.
if r_model is not None:
    temp = pyale.ale(r_model, X, "Temp")
    ours = temp.to_frame()["ale"].to_numpy()
    print("largest difference from R's recorded numbers:", np.abs(ours - recorded["r"].to_numpy()).max())
    temp.plot()
else:
    fig, ax = plt.subplots(layout="constrained")
    ax.plot(recorded["Temp"], recorded["r"], marker=".")
    ax.set(xlabel="Temp", ylabel="ALE of the prediction", title="ALEPlot 1.1 (recorded)")
plt.show()

# %%
# Any R model with a ``predict`` method works the same way; extra arguments
# of ``RModel`` go to R's ``predict`` (for example ``type="prob"`` for a
# classifier's probabilities).  To compare R and pyale on your own model and
# data and file the result, use ``pyale validate``
# (:doc:`plot_validate_report`).
