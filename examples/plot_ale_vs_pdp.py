"""
ALE versus partial dependence on correlated features
====================================================

This is the reason ALE exists.  Partial dependence (PDP) sets a feature to a
grid value in **every** row and averages the predictions.  When features are
correlated, most of those rows are combinations that never occur in the data,
so the PDP reports what the model does where it has never seen data: its
extrapolation.  ALE (Apley and Zhu, 2020) only moves each row within the
small interval its own value falls in, so it asks the model about points near
the data.

Two models that agree on the data
---------------------------------
Let ``x2`` follow ``x1`` closely (``x2 = x1 + noise``), and take two models:

* model A: ``f(x) = x1 + x2**2``,
* model B: ``f(x) = x1 + x2**2 + 5 * (x1 - x2)**2``.

Where the data are (``x1`` close to ``x2``) the extra term of B is tiny, so
both models make essentially the same predictions on every row and no test
on this data could tell them apart.  Away from the data they differ a lot.
A fitted model (a tree ensemble, a network) does the same thing
unintentionally: nothing constrains it where there is no data.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

import pyale

rng = np.random.default_rng(20)
x1 = rng.uniform(0, 1, 500)
X = pd.DataFrame({"x1": x1, "x2": x1 + rng.normal(0, 0.05, 500)})


def model_a(frame):
    return frame["x1"] + frame["x2"] ** 2


def model_b(frame):
    return model_a(frame) + 5 * (frame["x1"] - frame["x2"]) ** 2


gap = np.abs(model_b(X) - model_a(X))
print(f"on the data, the models differ by {gap.mean():.4f} on average (at most {gap.max():.3f})")

# %%
# The effect of ``x1``
# --------------------
# In both models ``x1`` enters as ``x1`` (plus, in B, a term that is flat along
# the data), so the honest answer on this data is a straight line of slope 1.
# ALE gives it for both models.  The PDP of model B is a parabola: it averages
# ``5 * (x1 - x2)**2`` over all ``x2``, including ``x2 = 0.9`` next to
# ``x1 = 0.1``, a point far from every row.
ale_a = pyale.ale(model_a, X, "x1", n_intervals=20)
ale_b = pyale.ale(model_b, X, "x1", n_intervals=20)
pdp_a = pyale.PDPlot(X, None, lambda _, d: model_a(d), J="x1", K=21, plot=False)
pdp_b = pyale.PDPlot(X, None, lambda _, d: model_b(d), J="x1", K=21, plot=False)

fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4), layout="constrained")
left.scatter(X["x1"], X["x2"], s=6, color="0.6", label="data")
grid = np.linspace(0, 1, 6)
left.scatter(np.repeat(0.8, 6), grid, marker="x", color="tab:red", label="PDP asks the model here (x1 = 0.8)")
near = (X["x1"] > 0.75) & (X["x1"] <= 0.85)
left.scatter(np.r_[np.full(near.sum(), 0.75), np.full(near.sum(), 0.85)], np.r_[X["x2"][near], X["x2"][near]],
             marker="+", color="tab:blue", label="ALE asks the model here (interval 0.75-0.85)")
left.set(xlabel="x1", ylabel="x2", title="Where each method evaluates the model")
left.legend(loc="upper left", fontsize="small")

centre = (X["x1"] - X["x1"].mean()).to_numpy()
order = np.argsort(X["x1"].to_numpy())
right.plot(X["x1"].to_numpy()[order], centre[order], color="black", lw=3, alpha=0.25, label="slope 1 (truth on the data)")
right.plot(ale_a.grid[0], ale_a.effects[:, 0], color="tab:blue", label="ALE, model A")
right.plot(ale_b.grid[0], ale_b.effects[:, 0], color="tab:blue", ls="--", label="ALE, model B")
right.plot(pdp_a.x_values, pdp_a.f_values, color="tab:red", label="PDP, model A")
right.plot(pdp_b.x_values, pdp_b.f_values, color="tab:red", ls="--", label="PDP, model B")
right.set(xlabel="x1", ylabel="centred effect", title="Effect of x1")
right.legend(fontsize="small")
plt.show()

# %%
# How far apart the curves are
# ----------------------------
# The ALE curves of the two models agree to within the small differences the
# models have on the data; the PDPs do not.
print(f"ALE: largest difference between the models {np.abs(ale_a.effects - ale_b.effects).max():.3f}")
print(f"PDP: largest difference between the models {np.abs(pdp_a.f_values - pdp_b.f_values).max():.3f}")

# %%
# Reference: Apley, D. W. and Zhu, J. (2020). Visualizing the effects of
# predictor variables in black box supervised learning models. *JRSS B*
# 82(4), 1059-1086, which discusses this example's kind of failure of
# partial dependence.
