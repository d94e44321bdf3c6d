"""Draw pyale.ALEDisplay pictures of real scikit-learn models into docs/pictures/.

    python scripts/make_display_pictures.py

No downloads: the Grunfeld investment data ship with pyale (pyale/data/) and
the wine data with scikit-learn.  Models are HistGradientBoosting with fixed
seeds, so the pictures come out the same on every run of the same versions.

Writes display-numeric.png, display-categorical.png, display-pair.png and
display-multiclass.png.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import pandas as pd  # noqa: E402
from sklearn.datasets import load_wine  # noqa: E402
from sklearn.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor  # noqa: E402

import pyale  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "docs" / "pictures"
SEED = 0


def grunfeld():
    """Firms' investment (Grunfeld 1958): value and capital numeric, firm a categorical with long names."""
    with resources.files("pyale").joinpath("data", "grunfeld.csv").open("r", encoding="utf-8") as fh:
        data = pd.read_csv(fh)
    X = data[["value", "capital", "firm", "year"]].astype({"firm": "category"})
    model = HistGradientBoostingRegressor(max_iter=200, learning_rate=0.1, categorical_features="from_dtype",
                                          random_state=SEED).fit(X, data["invest"])
    return model, X


def wine():
    bunch = load_wine(as_frame=True)
    X = bunch.data[["alcohol", "flavanoids", "color_intensity", "proline"]]
    classes = bunch.target.map(dict(enumerate(bunch.target_names)))
    model = HistGradientBoostingClassifier(max_iter=100, random_state=SEED).fit(X, classes)
    return model, X


def save(display, name: str) -> Path:
    path = OUT / name
    display.figure_.savefig(path, dpi=100)
    return path


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    model, X = grunfeld()
    written = [
        save(pyale.ALEDisplay.from_estimator(model, X, ["value", "capital", "year"], n_intervals=20, deciles=True),
             "display-numeric.png"),
        save(pyale.ALEDisplay.from_estimator(model, X, ["firm"]), "display-categorical.png"),
        save(pyale.ALEDisplay.from_estimator(model, X, [("value", "capital"), ("firm", "value")], n_intervals=8,
                                             sharey=False),
             "display-pair.png"),
    ]
    model, X = wine()
    written.append(save(
        pyale.ALEDisplay.from_estimator(model, X, ["flavanoids", "proline", ("flavanoids", "proline")],
                                        n_intervals=8, n_cols=3),
        "display-multiclass.png",
    ))
    for path in written:
        print(path)


if __name__ == "__main__":
    main()
