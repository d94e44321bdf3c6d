"""Pictures: the artists ALEPlot's graphics would draw."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from numpy.testing import assert_allclose, assert_array_equal  # noqa: E402

from pyale import ALEPlot, PDPlot, _rbase  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def frame(n=200, seed=3):
    rng = np.random.default_rng(seed)
    x1 = rng.uniform(size=n)
    return pd.DataFrame(
        {
            "x1": x1,
            # Strongly tied to x1, so many (x1, x2) cells are empty.
            "x2": x1 + 0.05 * rng.normal(size=n),
            "g": pd.Categorical(rng.choice(["u", "v", "w"], size=n)),
        }
    )


def model(_, d):
    return d["x1"].to_numpy() * d["x2"].to_numpy() + (d["g"] == "v").to_numpy() * d["x2"].to_numpy()


def test_numeric_curve_is_a_line_with_r_labels():
    X = frame()
    res = ALEPlot(X, None, model, J="x1", K=8)
    display = res.display
    assert display.ax_ is not None and display.figure_ is display.ax_.figure
    assert_array_equal(display.line_.get_xdata(), res.x_values)
    assert_array_equal(display.line_.get_ydata(), res.f_values)
    assert display.ax_.get_xlabel() == "x_1 (x1)"
    assert display.ax_.get_ylabel() == "f_1(x_1)"


def test_categorical_effect_is_bars_with_rotated_level_labels():
    X = frame()
    res = ALEPlot(X, None, model, J="g")
    bars = res.display.bars_
    assert [b.get_height() for b in bars] == pytest.approx(list(res.f_values))
    ticks = res.display.ax_.get_xticklabels()
    assert [t.get_text() for t in ticks] == res.x_values
    assert all(t.get_rotation() == 90 for t in ticks)
    assert res.display.ax_.get_xlabel() == "x_3 (g)"


def test_pair_draws_image_and_labelled_contours():
    X = frame()
    res = ALEPlot(X, None, model, J=("x1", "x2"), K=6)
    display = res.display
    assert display.image_ is not None
    assert_allclose(np.asarray(display.image_.get_array()).reshape(res.f_values.T.shape), res.f_values.T)
    assert len(display.contour_.levels) > 1
    assert display.contour_labels_
    # R's contour(): levels pretty(range(z), 10) inside the range, solid lines, R-style labels
    z = res.f_values
    expected = _rbase.r_pretty(z.min(), z.max(), 10)
    assert_allclose(display.contour_.levels, expected[(expected >= z.min()) & (expected <= z.max())], rtol=0)
    assert {t.get_text() for t in display.contour_labels_} <= {f"{v:.15g}" for v in expected}
    assert display.empty_cells_ == []  # NA_plot=True paints nothing
    assert display.ax_.get_xlabel() == "x_1 (x1)" and display.ax_.get_ylabel() == "x_2 (x2)"


def test_na_plot_false_paints_each_empty_cell_black():
    X = frame()
    res = ALEPlot(X, None, model, J=("x1", "x2"), K=6, NA_plot=False)
    assert res.empty_cells.any()
    patches = res.display.empty_cells_
    assert len(patches) == int(res.empty_cells.sum())
    assert all(p.get_facecolor()[:3] == (0.0, 0.0, 0.0) for p in patches)
    numbers = ALEPlot(X, None, model, J=("x1", "x2"), K=6, plot=False)
    assert_array_equal(numbers.f_values, res.f_values)


def test_categorical_pair_has_level_ticks():
    X = frame()
    res = ALEPlot(X, None, model, J=("g", "x2"), K=5)
    labels = [t.get_text() for t in res.display.ax_.get_xticklabels()]
    assert labels == res.x_values[0]


def test_draw_into_given_axes_and_plot_false_draws_nothing():
    X = frame()
    fig, ax = plt.subplots()
    res = PDPlot(X, None, model, J="x1", K=5, ax=ax)
    assert res.display.ax_ is ax
    before = plt.get_fignums()
    quiet = ALEPlot(X, None, model, J="x1", K=5, plot=False)
    assert quiet.display is None
    assert plt.get_fignums() == before


def test_result_plot_method_returns_display():
    X = frame()
    res = PDPlot(X, None, model, J=("g", "x1"), K=4, plot=False)
    display = res.plot()
    assert display.image_ is not None and display.contour_ is not None
