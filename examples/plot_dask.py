"""
A data set beyond memory: Dask (and Spark)
==========================================

``pyale.ale`` accepts a Dask DataFrame (and a Spark DataFrame) and computes
where the rows live: the grid from exact order statistics over the
partitions (no approximate quantiles), then one pass that shifts each
partition's rows, calls the model inside the partition and returns sums per
interval.  Only those small sums travel.  The numbers are pandas' numbers on
the same rows: the same grid and counts, effects equal to the last bits.

Here the "large" data set is a few Parquet files written to a temporary
directory, so that the example runs anywhere; the same code runs on files
far larger than memory (``docs/performance.md``: 200 million rows).
"""

# %%
import tempfile
from pathlib import Path

import dask
import dask.dataframe as dd
import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression

import pyale

rng = np.random.default_rng(7)
n = 200_000
loans = pd.DataFrame({
    "income": rng.lognormal(10.5, 0.5, n),
    "debt_ratio": rng.beta(2, 5, n),
    "age": rng.integers(18, 80, n).astype(float),
})
logit = -2 + 3 * loans["debt_ratio"] - 0.4 * np.log(loans["income"] / 30_000) - 0.01 * (loans["age"] - 45)
default = rng.random(n) < 1 / (1 + np.exp(-logit))

# A scorecard: a logistic regression fitted on a sample.
model = LogisticRegression().fit(loans.iloc[:20_000], default[:20_000])

folder = Path(tempfile.mkdtemp())
for i, part in enumerate(np.array_split(np.arange(n), 4)):
    loans.iloc[part].to_parquet(folder / f"part-{i}.parquet")
ddf = dd.read_parquet(str(folder))
print(f"{ddf.npartitions} partitions of Parquet, {n:,} rows")

# %%
# The call is the one for pandas.  The threaded scheduler runs the model in
# this process; with ``distributed`` the model is pickled once and each
# worker predicts its own partitions.
with dask.config.set(scheduler="threads"):
    on_dask = pyale.ale(model, ddf, ["income", "debt_ratio", "age"], n_intervals=20)
in_memory = pyale.ale(model, loans, ["income", "debt_ratio", "age"], n_intervals=20)

for a, b in zip(on_dask, in_memory):
    grid_same = all(np.array_equal(x, y) for x, y in zip(a.grid, b.grid))
    counts_same = np.array_equal(a.counts, b.counts)
    scale = np.abs(b.effects).max()
    print(f"{a.features[0]:>10}: grid identical {grid_same}, counts identical {counts_same}, "
          f"largest effect difference {np.abs(a.effects - b.effects).max() / scale:.1e} of the effect's size")

# %%
# The result is an ordinary :class:`pyale.ALEResult`: plots, ``to_frame()``,
# statistics.
on_dask.plot(n_cols=3)

# %%
# Clean up the example's files.
import shutil

shutil.rmtree(folder)
