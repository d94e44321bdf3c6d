"""Regional effects drawn (ALEDisplay.from_regional, RegionalResult.plot) and written (pyale run --regional)."""

from __future__ import annotations

import json
import pickle
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

import pyale  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import effector_regional_cases as cases  # noqa: E402


class GatedModel:
    """A picklable model: the slope of x1 is 3 where x3 > 0 and -3 elsewhere."""

    def predict(self, X):
        X = np.asarray(X, dtype=float)
        return cases.linear_gate(X)


@pytest.fixture
def regional_result():
    x = cases.make_data("uniform4", 800, 21)
    X = pd.DataFrame(x, columns=["x1", "x2", "x3", "x4"])
    f = cases.MODELS["four_regions"]
    return pyale.regional(lambda d: f(np.asarray(d, dtype=float)), X, "x1", n_bootstrap=20, random_state=0,
                          n_intervals=10)


def test_one_panel_per_leaf_titled_with_its_rule(regional_result):
    import matplotlib.pyplot as plt

    display = regional_result.plot(n_cols=2)
    panels = [a for a in display.axes_.ravel() if a is not None]
    assert len(panels) == len(regional_result.leaves) == 4
    for axis, leaf in zip(panels, regional_result.leaves):
        assert axis.get_title().startswith(leaf.rule)
    assert display.regions_ == regional_result.leaves
    assert all(band is not None for band in display.bands_.ravel() if band is not None)
    everything = pyale.ALEDisplay.from_regional(regional_result, leaves_only=False)
    assert len([a for a in everything.axes_.ravel() if a is not None]) == len(regional_result.regions)
    assert everything.titles_[0].startswith("all rows")
    plt.close("all")


def test_from_regional_refuses_other_objects():
    with pytest.raises(TypeError, match="must be a RegionalResult"):
        pyale.ALEDisplay.from_regional([1, 2])


def test_cli_run_regional(tmp_path):
    from pyale._cli.command import main

    rng = np.random.default_rng(0)
    data = pd.DataFrame(rng.uniform(-1, 1, (300, 3)), columns=["x1", "x2", "x3"])
    data.to_csv(tmp_path / "d.csv", index=False)
    (tmp_path / "m.pkl").write_bytes(pickle.dumps(GatedModel()))
    out = tmp_path / "out"
    code = main(["run", "--data", str(tmp_path / "d.csv"), "--model", str(tmp_path / "m.pkl"), "--features", "x1",
                 "--regional", "x1", "--regional-depth", "1", "--out", str(out), "--quiet"])
    assert code == 0
    table = pd.read_csv(out / "regional_x1.csv")
    assert table["rule"].tolist()[1:] == [r for r in table["rule"].tolist()[1:] if r.startswith("x3")]
    assert table["leaf"].sum() == 2 and table["depth"].max() == 1
    curves = pd.read_csv(out / "regional_x1_curves.csv")
    assert set(curves["region"]) == {1, 2}
    assert (out / "regional_x1.png").stat().st_size > 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["regional"][0]["feature"] == "x1" and manifest["regional_depth"] == 1
    assert "regional_x1.csv" in manifest["files"]


def test_cli_regional_unknown_column(tmp_path, capsys):
    from pyale._cli.command import main

    data = pd.DataFrame({"x1": np.linspace(-1, 1, 50), "x2": 0.0, "x3": np.linspace(1, -1, 50)})
    data.to_csv(tmp_path / "d.csv", index=False)
    (tmp_path / "m.pkl").write_bytes(pickle.dumps(GatedModel()))
    code = main(["run", "--data", str(tmp_path / "d.csv"), "--model", str(tmp_path / "m.pkl"), "--features", "x1",
                 "--regional", "nope", "--out", str(tmp_path / "o"), "--quiet"])
    assert code != 0
    assert "--regional: 'nope' is not a model input column" in capsys.readouterr().err
