"""Replay one effector fixture (reference/effector/*.json) through pyale and compare, stage by stage.

Shared by the fixture tests (committed files, no effector needed) and the
live tests (files effector writes during the test).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
from numpy.testing import assert_allclose, assert_array_equal

import pyale

ROOT = Path(__file__).resolve().parents[1]
FIXTURE_DIR = ROOT / "reference" / "effector"


def load(path: Path) -> dict:
    return json.loads(Path(path).read_text())


def frame(fixture: dict) -> pd.DataFrame:
    X = np.asarray(fixture["inputs"]["X"], dtype=float)
    return pd.DataFrame(X, columns=[f"x{i + 1}" for i in range(X.shape[1])])


def replayed_jacobian(fixture: dict):
    """The Jacobian effector was handed, given back for exactly the rows it was computed on."""
    X = np.asarray(fixture["inputs"]["X"], dtype=float)
    J = np.asarray(fixture["inputs"]["jacobian"], dtype=float)

    def jacobian(values):
        assert_array_equal(values, X)
        return J

    return jacobian


def pyale_result(fixture: dict, predict) -> pyale.ALEResult:
    """pyale's estimate of the fixture's case with effector's settings."""
    case = fixture["case"]
    X = frame(fixture)
    name = X.columns[case["feature"]]
    settings = case["settings"]
    model = lambda d: predict(np.asarray(d, dtype=float))  # noqa: E731
    if case["method"] in ("dp", "agglomerative"):
        binning = pyale.HeterogeneityBinning(case["method"], max_intervals=settings["max_intervals"],
                                             min_rows=settings.get("min_rows", 2),
                                             discount=settings.get("discount", 0.3))
        return pyale.ale(model, X, name, method="gradient", jacobian=replayed_jacobian(fixture), binning=binning)
    limits = fixture["effector"]["limits"]
    if case["method"] == "dale":
        return pyale.ale(model, X, name, method="gradient", jacobian=replayed_jacobian(fixture), grid=limits)
    return pyale.ale(model, X, name, grid=limits)


def compare(fixture: dict, result: pyale.ALEResult, *, rtol: float = 1e-10) -> None:
    """Limits and counts exactly; per-bin mean and spread of the local effects and the curve to ``rtol``."""
    ref = fixture["effector"]
    edges = result.grid[0]
    limits = np.asarray(ref["limits"])
    if fixture["case"]["method"] in ("dp", "agglomerative"):
        # effector's last limit is min + K * dx, which can miss the maximum by an ulp (effector then
        # widens its last bin by 1e-8); pyale's last edge is the maximum (docs/deviations.md)
        column = np.asarray(fixture["inputs"]["X"])[:, fixture["case"]["feature"]]
        assert abs(limits[-1] - column.max()) <= 4 * np.spacing(column.max())
        limits[-1] = column.max()
    assert_array_equal(edges, limits)
    assert_array_equal(result.counts, ref["points_per_bin"])
    widths = np.diff(edges)
    assert_allclose(widths, ref["dx"], rtol=1e-12, atol=0)
    curve = result.effects[:, 0]
    scale = max(1.0, float(np.max(np.abs(ref["uncentred_at_limits"]))))
    slopes = np.diff(curve) / widths
    expected_slopes = np.asarray(ref["bin_effect"])
    expected_curve = np.asarray(ref["uncentred_at_limits"])
    if fixture["case"]["method"] == "ale":
        # effector's ALE moves its last limit 1e-8 beyond the maximum (in place) but divides every bin's
        # difference by the first bin's width; pyale divides by each bin's own width (docs/deviations.md)
        expected_slopes = expected_slopes * (limits[1] - limits[0]) / widths
        expected_curve = np.concatenate([[0.0], np.cumsum(expected_slopes * widths)])
    assert_allclose(slopes, expected_slopes, rtol=rtol, atol=1e-12 * scale / widths.min())
    assert_allclose(curve - curve[0], expected_curve, rtol=rtol, atol=1e-12 * scale)
    # pyale's heterogeneity is the spread of width * derivative (of the differences, for ALE); effector's
    # bin_variance that of the derivatives (secants): the spread divided by the width is its square root.
    # (Looser: a square root of a variance from E[y^2] - E[y]^2 against pyale's two-pass spread.)
    spread = result.heterogeneity[1:, 0] / widths
    expected_spread = np.sqrt(ref["bin_variance"])
    if fixture["case"]["method"] == "ale":
        expected_spread = expected_spread * (limits[1] - limits[0]) / widths
    assert_allclose(spread, expected_spread, rtol=1e-8, atol=1e-10 * scale)
