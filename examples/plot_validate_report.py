"""
``pyale validate`` and what its report means
============================================

``pyale validate`` runs R's packages (ALEPlot, iml) and pyale on the same data
file and the same saved model, and writes the evidence a model-validation
file needs.  The command that made the report committed under
``docs/validation-example/`` (an R ``lm`` of ozone on R's ``airquality``)::

    pyale validate --data inputs/airquality.csv --model inputs/ozone_lm.rds \\
        --features Temp Wind Month Wind,Temp --drop Ozone Day --out report

It needs R with ALEPlot and iml, and rpy2.  This example reads that report
(it does not rerun R) and explains each part; the complete report is on
:doc:`the example report </validation-example/report/report>`.
"""

# %%
# The verdict
# -----------
# The exit code is 0 when every effect matches R, 1 when one differs, 3 when
# R, rpy2 or an R package is missing.  The report's first line says the same:
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd

# The repository's top directory: this example runs from a clone.
ROOT = next(p for p in [Path.cwd(), *Path.cwd().parents] if (p / "docs" / "validation-example").is_dir())
REPORT = ROOT / "docs" / "validation-example" / "report"
lines = (REPORT / "report.md").read_text().splitlines()
print(lines[0])
print(next(line for line in lines if line.startswith("Tolerance")))

# %%
# The table of effects
# --------------------
# One row per effect and convention.  ``cells`` is how many numbers were
# compared (grid points times outputs; a pair's whole surface);
# ``max abs diff`` and ``max rel diff`` are the largest differences between
# R and pyale over those cells; ``abs floor`` is the absolute tolerance
# (1e-10 times the effect's range) under which a difference counts as zero
# even where the value itself is near zero; ``verdict`` is ``match`` when
# every cell is within tolerance and the grids, levels, level order and ``K`` agree.
start = lines.index(next(line for line in lines if line.startswith("| conventions")))
rows = [line.strip("|").split("|") for line in lines[start:] if line.startswith("|")]
table = pd.DataFrame([[c.strip() for c in r] for r in rows[2:]], columns=[c.strip() for c in rows[0]])
table = table.drop(columns=["table", "plot"])
table

# %%
# Differences of 1e-14 are the last bits of double precision: R sums in
# extended precision, pyale in double precision.
numbers = table[["max abs diff", "max rel diff"]].astype(float)
print(f"largest difference over all effects: {numbers['max abs diff'].max():.2e} absolute, "
      f"{numbers['max rel diff'].max():.2e} relative")

# %%
# Each effect's picture and table
# -------------------------------
# For every effect the report has an overlay plot of both sides and a CSV with
# R's value, pyale's value and their difference for every cell:
print((REPORT / "aleplot_Wind.csv").read_text().splitlines()[:4])
image = plt.imread(REPORT / "aleplot_Wind.png")
fig, ax = plt.subplots(figsize=(6, 4.5), layout="constrained")
ax.imshow(image)
ax.set_axis_off()
plt.show()

# %%
# What else the report records
# ----------------------------
# The versions of R, of each R package, of pyale, Python, NumPy and pandas;
# the SHA-256 of the data and model files (so the report is tied to those
# exact files); the set-up code and the exact R and Python call of every
# effect, so anyone can rerun either side by hand.
for line in lines:
    if line.startswith("- R") or line.startswith("- data") or line.startswith("- model:"):
        print(line)

# %%
# What it proves, and what it does not: for these files and these features,
# pyale's numbers are R's within the tolerance.  It says nothing about whether
# the model is good or whether ALE answers your question; see
# :doc:`/validation`.
