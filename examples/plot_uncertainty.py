"""
How sure, how big, for whom: bands, statistics, heterogeneity and weights
=========================================================================

A validator who files an ALE curve must answer three questions beyond the
curve itself: how sure is it, how big is the effect, and does it hold for
everyone.  ``pyale.ale`` answers them with bootstrap bands
(``n_bootstrap=``), the ALE statistics of Okoli (2023) (``.statistics``) and
the heterogeneity of the rows' local changes (``.heterogeneity``); portfolio
or survey data bring ``sample_weight``.  See :doc:`/uncertainty` for what
each number does and does not mean.

A gradient-boosting model of a simulated credit portfolio: the default
probability rises with the debt ratio, falls with income, and the effect of
the debt ratio depends on age (an interaction).
"""

# %%
import numpy as np
import pandas as pd
from sklearn.ensemble import HistGradientBoostingRegressor

import pyale

rng = np.random.default_rng(3)
n = 1000
X = pd.DataFrame({
    "debt_ratio": rng.beta(2, 5, n),
    "income": rng.lognormal(10, 0.4, n),
    "age": rng.integers(20, 70, n),
})


def true_risk(frame):
    """The simulation's own risk: the debt ratio counts twice for the young; income is additive."""
    return 3 * frame["debt_ratio"] * (1 + (frame["age"] < 35)) - 0.00003 * frame["income"]


risk = true_risk(X) + rng.normal(0, 0.3, n)
model = HistGradientBoostingRegressor(max_iter=40, random_state=0).fit(X, risk)

# %%
# A data bootstrap: the rows resampled, the model fixed
# -----------------------------------------------------
# 300 replicates cost no extra model call: each replicate reweights the
# local differences the full data gave.  The band is the sampling
# uncertainty of the ALE *for this model*.
result = pyale.ale(model, X, "debt_ratio", n_intervals=12, n_bootstrap=300, random_state=0)
print(result.to_frame().round(3).head())
display = result.plot()
display.figure_.suptitle("95% data-bootstrap band")

# %%
# How big is the effect?
# ----------------------
# ALED is the average absolute effect in units of the prediction, ALER its
# range; NALED and NALER express them as percentiles of the response around
# its median (here the observed risk).
result = pyale.ale(model, X, "debt_ratio", n_intervals=12, n_bootstrap=300, random_state=0, y=risk)
print(result.statistics.round(3))

# %%
# Does the effect hold for everyone?
# ----------------------------------
# Heterogeneity is the standard deviation of the rows' individual changes
# across each interval.  On the simulation's own risk function the debt
# ratio's effect is twice as strong for the young, so rows disagree; income
# enters additively, so every row changes alike (heterogeneity 0).
both = pyale.ale(true_risk, X, ["debt_ratio", "income"], n_intervals=12)
for res in both:
    mean_step = np.abs(np.diff(res.effects[:, 0])).mean()
    print(f"{res.features[0]}: mean |step| {mean_step:.4f}, mean heterogeneity "
          f"{np.nanmean(res.heterogeneity):.4f}")
both[0].plot(band="heterogeneity").figure_.suptitle("curve +- heterogeneity")

# %%
# Weights and model uncertainty
# -----------------------------
# ``sample_weight`` are frequency weights (integer weights equal repeated
# rows).  ``pyale.model_bootstrap`` refits the model on each resample, so its
# band also covers how the model would change with another training sample.
exposure = rng.integers(1, 4, n)
weighted = pyale.ale(model, X, "debt_ratio", n_intervals=12, sample_weight=exposure)
refits = pyale.model_bootstrap(
    lambda rows, target: HistGradientBoostingRegressor(max_iter=40, random_state=0).fit(rows, target),
    X, risk.to_numpy(), "debt_ratio", n_bootstrap=15, random_state=0, n_intervals=12,
)
print("weighted counts:", weighted.counts[:4], " model-bootstrap band width at the median edge:",
      round(float((refits.ci_high - refits.ci_low)[6, 0]), 3))
refits.plot().figure_.suptitle("model-bootstrap band (15 refits)")
