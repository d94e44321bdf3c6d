"""Draw the same effects with R's ALEPlot and with pyale, side by side, into docs/pictures/.

    python scripts/make_pictures.py

Needs R with ALEPlot installed (not shipped with pyale) and rpy2.  Data are
made in Python from a seed and handed to R; the model is a closed-form
function written in both languages.
"""

from __future__ import annotations

import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

import pyale  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "pictures"
SEED = 20261122

R_MODEL = """function(X.model, newdata) {
  g <- as.character(newdata$group)
  newdata$x1^2 + 2 * sin(2 * newdata$x2) * newdata$x1 + ifelse(g == "b", 1.5, ifelse(g == "c", -1, 0)) * newdata$x2
}"""


def py_model(_, d: pd.DataFrame) -> np.ndarray:
    g = d["group"].astype(str).to_numpy()
    shift = np.where(g == "b", 1.5, np.where(g == "c", -1.0, 0.0))
    x1, x2 = d["x1"].to_numpy(), d["x2"].to_numpy()
    return x1**2 + 2 * np.sin(2 * x2) * x1 + shift * x2


def make_data() -> pd.DataFrame:
    rng = np.random.default_rng(SEED)
    n = 400
    x1 = rng.uniform(-1, 1, size=n)
    x2 = x1 + rng.normal(scale=0.3, size=n)  # correlated: empty cells in the pair
    group = rng.choice(["a", "b", "c", "d"], size=n, p=[0.4, 0.3, 0.2, 0.1])
    return pd.DataFrame({"x1": x1, "x2": x2, "group": pd.Categorical(group)})


KINDS = [
    ("ale-numeric", "ALEPlot", "J = 1, K = 20", dict(J=0, K=20)),
    ("ale-factor", "ALEPlot", "J = 3", dict(J=2)),
    ("ale-pair", "ALEPlot", "J = c(1, 2), K = 10, NA.plot = FALSE", dict(J=(0, 1), K=10, NA_plot=False)),
    ("ale-factor-pair", "ALEPlot", "J = c(3, 2), K = 10", dict(J=(2, 1), K=10)),
    ("pd-numeric", "PDPlot", "J = 2, K = 20", dict(J=1, K=20)),
    ("pd-pair", "PDPlot", "J = c(1, 2), K = 15", dict(J=(0, 1), K=15)),
]


def main() -> int:
    import rpy2.robjects as ro

    from pyale.r import to_r_dataframe

    if not ro.r('isTRUE(requireNamespace("ALEPlot", quietly = TRUE))')[0]:
        print("R package ALEPlot is not installed; install it in R to draw R's pictures.", file=sys.stderr)
        return 2
    OUT.mkdir(parents=True, exist_ok=True)
    X = make_data()
    ro.globalenv["X"] = to_r_dataframe(X)
    ro.globalenv["pf"] = ro.r(R_MODEL)
    for name, function, r_args, py_args in KINDS:
        r_png = OUT / f"{name}-R.png"
        ro.r(f'png("{r_png}", width = 600, height = 450); ALEPlot::{function}(X, NULL, pf, {r_args}); invisible(dev.off())')
        fig, ax = plt.subplots(figsize=(6, 4.5))
        getattr(pyale, function)(X, None, py_model, ax=ax, **py_args)
        fig.tight_layout()
        fig.savefig(OUT / f"{name}-pyale.png", dpi=100)
        plt.close(fig)
        print(f"wrote {name}-R.png and {name}-pyale.png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
