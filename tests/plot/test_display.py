"""ALEDisplay and the pictures of every front-end: artists, keywords, and no label cut when saved."""

from __future__ import annotations

import dataclasses

import re
import warnings

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.text import Text  # noqa: E402
from numpy.testing import assert_allclose, assert_array_equal  # noqa: E402

import pyale  # noqa: E402
from pyale import ALEDisplay, ALEResult, ale  # noqa: E402

LONG_LEVELS = ["professional", "blue collar worker", "white collar office", "self-employed"]


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def frame(n=400, seed=5):
    rng = np.random.default_rng(seed)
    return pd.DataFrame({
        "age": rng.uniform(20, 70, n),
        "income": rng.gamma(2.0, 20.0, n),
        "job": pd.Categorical(rng.choice(LONG_LEVELS, n), categories=LONG_LEVELS),
    })


def model(d):
    return 0.02 * d["age"] * np.log1p(d["income"]) + (d["job"] == "professional") * 0.01 * d["income"]


def three_classes(d):
    """Softmax of three scores: a classifier's probabilities, columns named by class."""
    scores = np.column_stack([0.05 * d["age"], 0.03 * d["income"], 1.0 + (d["job"] == "self-employed")])
    expo = np.exp(scores - scores.max(axis=1, keepdims=True))
    return pd.DataFrame(expo / expo.sum(axis=1, keepdims=True), columns=["low", "mid", "high"])


def assert_no_text_cut(figure):
    """Every drawn text lies inside the figure, so a saved figure shows it whole."""
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    box = figure.bbox
    inside = lambda e: e.x0 >= box.x0 - 0.5 and e.y0 >= box.y0 - 0.5 and e.x1 <= box.x1 + 0.5 and e.y1 <= box.y1 + 0.5  # noqa: E731
    checked = 0
    for ax in figure.axes:
        if ax.get_visible() and ax.axison:
            assert inside(ax.get_tightbbox(renderer)), f"axes {ax.get_label()!r} reaches outside the figure"
        for axis in (ax.xaxis, ax.yaxis):  # tick labels that are drawn (inside the view)
            low, high = sorted(axis.get_view_interval())
            for tick in axis.get_major_ticks():
                for label in (tick.label1, tick.label2):
                    if low <= tick.get_loc() <= high and label.get_visible() and label.get_text():
                        assert inside(label.get_window_extent(renderer)), label.get_text()
                        checked += 1
    tick_labels = {id(label) for ax in figure.axes for a in (ax.xaxis, ax.yaxis) for t in a.get_major_ticks()
                   for label in (t.label1, t.label2)}
    for text in figure.findobj(Text):
        if id(text) in tick_labels or not text.get_visible() or not text.get_text().strip():
            continue
        assert inside(text.get_window_extent(renderer)), f"text {text.get_text()!r} is cut"
        checked += 1
    assert checked > 0


# ------------------------------------------------------------------ what is drawn


def test_from_estimator_draws_curves_bars_and_surfaces():
    X = frame()
    display = ALEDisplay.from_estimator(model, X, ["age", "income", "job", ("age", "income"), ("job", "age")],
                                        n_intervals=8, deciles=True)
    results = display.results
    assert display.axes_.shape == (2, 3) and display.axes_[1, 2] is None
    line = display.lines_[0, 0][0]
    assert_array_equal(line.get_xdata(), results[0].grid[0])
    assert_array_equal(line.get_ydata(), results[0].effects[:, 0])
    # long level names: horizontal bars, names on the y axis, first level on top
    lengths = [bar.get_width() for bar in display.bars_[0, 2][0]]
    assert_allclose(lengths, results[2].effects[:, 0], rtol=0)
    assert [t.get_text() for t in display.axes_[0, 2].get_yticklabels()] == list(results[2].grid[0])
    assert display.axes_[0, 2].yaxis_inverted()
    assert display.axes_[0, 0].get_xlabel() == "age" and display.axes_[0, 0].get_ylabel() == "ALE of yhat"
    # the surface sits on the grid edges, with a colour bar and labelled contours
    mesh = display.images_[1, 0][0]
    assert_allclose(np.asarray(mesh.get_array()).ravel(), results[3].effects[..., 0].T.ravel(), rtol=0)
    assert display.colorbars_[1, 0].ax.get_ylabel() == "ALE of yhat"
    assert display.contours_[1, 0] is not None and len(display.contour_labels_[1, 0]) > 0
    assert display.axes_[1, 0].get_xlim() == (results[3].grid[0][0], results[3].grid[0][-1])
    # categorical x numeric: one column of colour per level, level names as ticks
    assert len(display.images_[1, 1]) == len(LONG_LEVELS)
    assert display.colorbars_[1, 1] is not None
    # deciles as scikit-learn computes them, on both axes of a surface
    from scipy.stats.mstats import mquantiles

    expected = mquantiles(X["age"], prob=np.arange(0.1, 1.0, 0.1))
    segments = display.deciles_vlines_[0, 0].get_segments()
    assert_allclose([s[0][0] for s in segments], expected, rtol=0)
    assert display.deciles_hlines_[1, 0] is not None
    # a categorical first axis has no decile ticks; its numeric second axis has them (not swapped)
    assert display.deciles_vlines_[1, 1] is None and display.deciles_hlines_[1, 1] is not None


def _with_second_level(d):
    return model(d) + 0.5 * (d["tier"] == "gold") * d["age"] / 50 - 0.2 * (d["tier"] == "silver")


def test_ale_package_pairs_with_levels_on_either_axis_are_drawn():
    """conventions='ale' gives numeric x categorical and categorical x categorical pairs too."""
    X = frame().assign(tier=pd.Categorical(np.random.default_rng(9).choice(["bronze", "silver", "gold"], 400)))
    display = ALEDisplay.from_estimator(_with_second_level, X, [("age", "tier"), ("job", "tier")],
                                        conventions="ale", deciles=True)
    numeric_levels, both_levels = display.results
    assert numeric_levels.kind == "numeric x categorical" and both_levels.kind == "categorical x categorical"
    # numeric x categorical: one band of colour per level along the numeric edges, level names on y
    rows = display.images_[0, 0]
    assert len(rows) == len(numeric_levels.grid[1])
    for j, mesh in enumerate(rows):
        assert_allclose(np.asarray(mesh.get_array()).reshape(2, -1), np.vstack([numeric_levels.effects[:, j, 0]] * 2),
                        rtol=0)
    assert [t.get_text() for t in display.axes_[0, 0].get_yticklabels()] == [str(v) for v in numeric_levels.grid[1]]
    assert display.deciles_vlines_[0, 0] is not None and display.deciles_hlines_[0, 0] is None
    # categorical x categorical: one flat cell per pair of levels
    (mesh,) = display.images_[0, 1]
    assert_allclose(np.asarray(mesh.get_array()).ravel(), both_levels.effects[..., 0].T.ravel(), rtol=0)
    assert [t.get_text() for t in display.axes_[0, 1].get_xticklabels()] == [str(v) for v in both_levels.grid[0]]
    assert [t.get_text() for t in display.axes_[0, 1].get_yticklabels()] == [str(v) for v in both_levels.grid[1]]
    assert display.deciles_vlines_[0, 1] is None and display.deciles_hlines_[0, 1] is None
    assert_no_text_cut(display.figure_)


def test_rug_shows_the_data_and_sharey_gives_one_range():
    X = frame()
    display = ALEDisplay.from_estimator(model, X, ["age", "income", "job"], n_intervals=6)
    segments = display.rugs_[0, 0].get_segments()
    assert_allclose(sorted(s[0][0] for s in segments), np.unique(X["age"]), rtol=0)
    limits = {display.axes_[0, 0].get_ylim(), display.axes_[0, 1].get_ylim(), display.axes_[0, 2].get_xlim()}
    assert len(limits) == 1  # the horizontal bars of job share the curves' range on their x axis
    low, high = limits.pop()
    values = np.concatenate([r.effects.ravel() for r in display.results])
    assert low < values.min() and high > values.max()  # margins: nothing touches the frame
    alone = ALEDisplay.from_estimator(model, X, ["age", "income"], n_intervals=6, sharey=False)
    assert alone.axes_[0, 0].get_ylim() != alone.axes_[0, 1].get_ylim()


def test_rug_of_large_data_is_at_most_a_thousand_ticks_in_rank_order():
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.normal(size=20_000), "b": rng.normal(size=20_000)})
    display = ALEDisplay.from_estimator(lambda d: d["a"] ** 2 + d["b"], X, ["a"], n_intervals=5)
    ticks = np.array(sorted(s[0][0] for s in display.rugs_[0, 0].get_segments()))
    assert 900 <= ticks.size <= 1000 and set(ticks) <= set(X["a"])
    assert ticks[0] == X["a"].min() and ticks[-1] == X["a"].max()


def test_classifier_draws_every_class_named():
    X = frame()
    display = ALEDisplay.from_estimator(three_classes, X, ["age", "job", ("age", "income")], n_intervals=5)
    lines = display.lines_[0, 0]
    assert [line.get_label() for line in lines] == ["low", "mid", "high"]
    legend = display.axes_[0, 0].get_legend()
    assert [t.get_text() for t in legend.get_texts()] == ["low", "mid", "high"]
    assert len(display.bars_[0, 1]) == 3
    # one surface panel per class, on a row of their own, each titled and with its colour bar
    assert display.axes_.shape == (2, 3) and display.axes_[0, 2] is None
    titles = [display.axes_[1, i].get_title() for i in range(3)]
    assert titles == ["output: low", "output: mid", "output: high"]
    assert all(display.colorbars_[1, i].ax.get_ylabel() == f"ALE of {c}" for i, c in enumerate(["low", "mid", "high"]))
    pair = display.results[2]
    for k in range(3):
        mesh = display.images_[1, k][0]
        assert_allclose(np.asarray(mesh.get_array()).ravel(), pair.effects[..., k].T.ravel(), rtol=0)


def test_output_selects_classes():
    X = frame()
    result = ale(three_classes, X, ("age", "income"), n_intervals=4)
    display = result.plot(output="mid")
    assert display.axes_.size == 1 and display.axes_[0, 0].get_title() == "output: mid"
    with pytest.raises(ValueError, match=re.escape("The 'output' parameter of ALEResult.plot names outputs "
                                                   "['nope'] that the effect of ('age', 'income') lacks")):
        result.plot(output="nope")
    with pytest.raises(ValueError, match=re.escape("The 'output' parameter of ALEDisplay.plot names outputs "
                                                   "['nope'] that the effect of ('age', 'income') lacks")):
        ALEDisplay.from_results([result], output="nope")


def test_label_color_and_keyword_dicts_work():
    X = frame()
    fig, ax = plt.subplots()
    result = ale(model, X, "age", n_intervals=5)
    display = result.plot(ax=ax, label="ALE", color="red")  # failed before: 'multiple values for label'
    line = display.lines_[0, 0][0]
    assert line.get_label() == "ALE" and line.get_color() == "red"
    assert display.axes_[0, 0] is ax and [t.get_text() for t in ax.get_legend().get_texts()] == ["ALE"]
    styled = result.plot(line_kw={"linestyle": "--", "linewidth": 3}, color="green")
    assert styled.lines_[0, 0][0].get_linestyle() == "--" and styled.lines_[0, 0][0].get_linewidth() == 3
    bars = ale(model, X, "job").plot(bar_kw={"color": "purple"}, label="job effect")
    assert all(matplotlib.colors.same_color(b.get_facecolor(), "purple") for b in bars.bars_[0, 0][0])
    pair = ale(model, X, ("age", "income"), n_intervals=4).plot(image_kw={"cmap": "viridis"},
                                                                  contour_kw={"levels": []})
    assert pair.images_[0, 0][0].get_cmap().name == "viridis" and pair.contours_[0, 0] is None
    # the R-shaped picture takes color= too (it clashed with its own default before)
    r_bars = pyale.ALEPlot(X, None, lambda m, d: model(d), J="job", plot=False).plot(color="orange")
    assert matplotlib.colors.same_color(r_bars.bars_[0].get_facecolor(), "orange")


def test_one_axes_is_split_into_panels_and_wrong_axes_are_refused():
    X = frame()
    results = ale(model, X, ["age", "income", "job"], n_intervals=4)
    assert isinstance(results, pyale.ALEResults) and isinstance(results, list)
    fig, (ax, other) = plt.subplots(2, 1, figsize=(9, 6))
    display = results.plot(ax=ax, n_cols=3)
    assert display.bounding_ax_ is ax and not ax.axison and display.axes_.shape == (1, 3)
    assert other in fig.axes and len(fig.axes) == 5
    fig, ax = plt.subplots(figsize=(9, 3))  # the figure's only Axes: the panels take its place
    display = results.plot(ax=ax, n_cols=2)
    assert display.bounding_ax_ is ax and ax not in fig.axes and display.axes_.shape == (2, 2)
    assert list(fig.axes) == list(display.axes_.ravel()[:3])
    _, axes = plt.subplots(1, 3)
    given = results.plot(ax=axes)
    assert list(given.axes_.ravel()) == list(axes)
    _, two = plt.subplots(1, 2)
    with pytest.raises(ValueError, match=re.escape("The 'ax' parameter of ALEDisplay.plot must be one Axes or 3 "
                                                   "Axes (one per panel). Got 2 object(s) instead.")):
        results.plot(ax=two)


def banded(result, scale=0.1):
    """The result with made-up bands of known size (arrays of the shape of effects)."""
    spread = scale * (1 + np.abs(result.effects))
    return dataclasses.replace(result, ci_low=result.effects - spread, ci_high=result.effects + spread,
                               heterogeneity=2 * spread, _cache={})


def test_bands_from_intervals_and_heterogeneity():
    X = frame()
    curve, bars = (banded(r) for r in ale(model, X, ["age", "job"], n_intervals=5))
    display = ALEDisplay.from_results([curve, bars])  # "auto": intervals when present
    band = display.bands_[0, 0][0]
    vertices = band.get_paths()[0].vertices
    assert_allclose(vertices[:, 1].min(), curve.ci_low.min(), rtol=1e-12)
    assert_allclose(vertices[:, 1].max(), curve.ci_high.max(), rtol=1e-12)
    errors = display.bands_[0, 1][0]  # long level names: horizontal bars, horizontal error bars
    segments = errors.lines[2][0].get_segments()
    assert_allclose([s[0][0] for s in segments], bars.ci_low[:, 0], rtol=1e-12)
    spread = ALEDisplay.from_results([curve], band="heterogeneity").bands_[0, 0][0].get_paths()[0].vertices
    assert_allclose(spread[:, 1].max(), (curve.effects + curve.heterogeneity).max(), rtol=1e-12)
    assert ALEDisplay.from_results([curve], band=None).bands_[0, 0] == []
    plain = dataclasses.replace(ale(model, X, "age", n_intervals=5), heterogeneity=None, _cache={})
    assert ALEDisplay.from_results([plain]).bands_[0, 0] == []
    with pytest.raises(ValueError, match=re.escape("The 'band' parameter of ALEDisplay.plot is 'heterogeneity', "
                                                   "but the effects of [('age',)] have no heterogeneity.")):
        ALEDisplay.from_results([plain], band="heterogeneity")


def test_a_band_that_does_not_hold_the_estimate_is_drawn_as_it_is():
    # A percentile bootstrap band may lie beside the full data's estimate (a level of few rows); its
    # bar was drawn as negative error lengths, which matplotlib refuses ('pyale run' failed on it).
    X = frame()
    bars = ale(model, X, "job", n_intervals=5)
    shift = 1 + np.abs(bars.effects)
    beside = dataclasses.replace(bars, ci_low=bars.effects + shift, ci_high=bars.effects + 2 * shift, _cache={})
    display = ALEDisplay.from_results([beside], band="ci")
    segments = display.bands_[0, 0][0].lines[2][0].get_segments()
    ends = np.sort(np.array([[s[0][0], s[1][0]] if abs(s[0][1] - s[1][1]) < 1e-12 else [s[0][1], s[1][1]]
                             for s in segments]), axis=1)
    assert_allclose(ends[:, 0], beside.ci_low[:, 0], rtol=1e-12)
    assert_allclose(ends[:, 1], beside.ci_high[:, 0], rtol=1e-12)


@pytest.mark.parametrize("bad, error, message", [
    (dict(n_cols=0), ValueError, "The 'n_cols' parameter of ALEDisplay.plot must be an int >= 1. Got 0 instead."),
    (dict(band="both"), ValueError, "The 'band' parameter of ALEDisplay.plot must be one of ['auto', 'ci', "
                                    "'heterogeneity', None]. Got 'both' instead."),
])
def test_bad_plot_arguments(bad, error, message):
    result = ale(model, frame(), "age", n_intervals=3)
    with pytest.raises(error, match=re.escape(message)):
        result.plot(**bad)


def test_from_results_refuses_what_is_not_a_result():
    with pytest.raises(TypeError, match=re.escape("The 'results' parameter of ALEDisplay must be an ALEResult or "
                                                  "a list of them (what pyale.ale returns). Got ['dict'] instead.")):
        ALEDisplay.from_results([{}])


def test_long_level_names_are_rotated_and_right_aligned_in_vertical_bars():
    result = ale(model, frame(), "job")
    ticks = result.plot(bar_orientation="vertical").axes_[0, 0].get_xticklabels()
    assert [t.get_text() for t in ticks] == list(result.grid[0]) and set(result.grid[0]) == set(LONG_LEVELS)
    assert all(t.get_rotation() == 40 and t.get_horizontalalignment() == "right" for t in ticks)
    short = ale(lambda d: (d["g"] == "b") * 1.0 + d["x"], pd.DataFrame({"g": list("abab") * 5, "x": np.arange(20.0)}),
                "g").plot()
    assert all(t.get_rotation() == 0 for t in short.axes_[0, 0].get_xticklabels())
    assert short.bars_[0, 0][0][0].get_width() == pytest.approx(0.8)  # short names: vertical bars


DEPARTMENTS = [f"Department of {topic} and Community Services" for topic in (
    "Housing", "Health", "Transport", "Education", "Justice", "Agriculture", "Energy", "Labour", "Finance",
    "Defence", "Culture", "Environment", "Tourism", "Trade", "Science", "Sport", "Water", "Youth", "Veterans",
    "Digital Affairs")]


def departments(n=2000, seed=1):
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"age": rng.uniform(20, 70, n), "income": rng.gamma(2.0, 20.0, n),
                         "department": pd.Categorical(rng.choice(DEPARTMENTS, n), categories=DEPARTMENTS)})


def department_model(d):
    codes = d["department"].cat.codes.to_numpy()
    return 0.02 * d["age"] + 0.01 * d["income"] + np.sin(codes) * (1 + codes / 10)


def assert_usable_panels(display, width=1.5, height=1.2):
    """Every panel's plotting area is at least ``width`` x ``height`` inches once laid out."""
    figure = display.figure_
    figure.canvas.draw()
    for ax in display.axes_.ravel():
        if ax is not None:
            extent = ax.get_window_extent()
            assert extent.width >= width * figure.dpi and extent.height >= height * figure.dpi, (
                ax.get_xlabel(), ax.get_ylabel(), extent.width / figure.dpi, extent.height / figure.dpi)


def assert_no_overlapping_ticks(figure):
    """No two drawn tick labels of one axis overlap (they would run together: '50000100000')."""
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    for ax in figure.axes:
        for axis in (ax.xaxis, ax.yaxis):
            low, high = sorted(axis.get_view_interval())
            boxes = [label.get_window_extent(renderer) for tick in axis.get_major_ticks()
                     for label in (tick.label1, tick.label2)
                     if low <= tick.get_loc() <= high and label.get_visible() and label.get_text()]
            for k, a in enumerate(boxes):
                for b in boxes[k + 1:]:
                    overlap_x = min(a.x1, b.x1) - max(a.x0, b.x0)
                    overlap_y = min(a.y1, b.y1) - max(a.y0, b.y0)
                    assert overlap_x <= 0.5 or overlap_y <= 0.5, (ax.get_xlabel(), axis.axis_name)


def test_many_long_level_names_keep_every_panel_readable():
    """20 levels named 'Department of ... Services' squashed every panel under a wall of rotated names."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        display = ALEDisplay.from_estimator(department_model, departments(), ["age", "department", "income"],
                                            n_intervals=8)
        assert_usable_panels(display)
        assert_no_text_cut(display.figure_)
        assert_no_overlapping_ticks(display.figure_)
    labels = [t.get_text() for t in display.axes_[0, 1].get_yticklabels()]
    assert len(labels) == 20 and all(len(line) <= 20 for label in labels for line in label.split("\n"))
    key = display.level_keys_[0, 1]
    assert set(key.values()) == set(DEPARTMENTS) and all(label.endswith("\u2026") for label in key)
    levels = list(display.results[1].grid[0])  # the result keeps the full names (in the order used)
    assert sorted(levels) == sorted(DEPARTMENTS)
    assert [key[label] for label in labels] == levels  # every drawn name leads to the full one


def test_cut_names_that_would_read_the_same_get_their_position():
    from pyale._plot.panels import bar_labels

    names = ["Department of Housing and Urban Development North", "Department of Housing and Urban Development South",
             "short"]
    labels, key = bar_labels(names)
    assert labels[2] == "short" and labels[0] != labels[1]
    assert labels[0].endswith("#1") and labels[1].endswith("#2") and key[labels[1]] == names[1]


def test_max_levels_draws_the_largest_effects_and_consolidates_the_rest():
    result = ale(department_model, departments(), "department")
    display = result.plot(max_levels=5)
    effects = result.effects[:, 0]
    largest = np.sort(np.argsort(-np.abs(effects), kind="stable")[:5])
    kept, other = display.bars_[0, 0]
    assert_allclose([bar.get_width() for bar in kept], effects[largest], rtol=0)
    rest = np.setdiff1d(np.arange(20), largest)
    (span,) = other
    assert span.get_x() == pytest.approx(effects[rest].min()) and span.get_width() == pytest.approx(
        effects[rest].max() - effects[rest].min())
    labels = [t.get_text() for t in display.axes_[0, 0].get_yticklabels()]
    assert labels[-1] == "other (15 levels)" and len(labels) == 6
    assert [display.level_keys_[0, 0][label] for label in labels[:-1]] == [result.grid[0][i] for i in largest]
    assert_no_text_cut(display.figure_)
    vertical = ale(model, frame(), "job").plot(max_levels=2, bar_orientation="vertical")
    assert [t.get_text() for t in vertical.axes_[0, 0].get_xticklabels()][-1] == "other (2 levels)"


@pytest.mark.parametrize("bad, message", [
    (dict(max_levels=0), "The 'max_levels' parameter of ALEDisplay.plot must be an int >= 1 or None. Got 0 instead."),
    (dict(max_levels=2.5), "The 'max_levels' parameter of ALEDisplay.plot must be an int >= 1 or None. Got 2.5 "
                           "instead."),
    (dict(bar_orientation="sideways"), "The 'bar_orientation' parameter of ALEDisplay.plot must be one of ['auto', "
                                       "'vertical', 'horizontal']. Got 'sideways' instead."),
])
def test_bad_bar_arguments(bad, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        ale(model, frame(n=100), "job").plot(**bad)


# ------------------------------------------------------------------ nothing cut when saved


def _iml_pdp_ice():
    X = frame(n=120)
    predictor = pyale.Predictor(predict_function=model, data=X)
    return pyale.FeatureEffect(predictor, "income", method="pdp+ice", grid_size=6).plot().figure_


def _iml_grid():
    X = frame(n=120)
    predictor = pyale.Predictor(predict_function=model, data=X, y=np.zeros(120))
    return pyale.FeatureEffects(predictor, grid_size=6).plot().figure_


PICTURES = {
    "numeric": lambda: ale(model, frame(), "age", n_intervals=8).plot().figure_,
    "categorical long names": lambda: ale(model, frame(), "job").plot().figure_,
    "pair with colour bar and contour labels": lambda: ale(model, frame(), ("age", "income"), n_intervals=8).plot().figure_,
    "categorical x numeric pair": lambda: ale(model, frame(), ("job", "age"), n_intervals=6).plot().figure_,
    "multi-class": lambda: ALEDisplay.from_estimator(three_classes, frame(), ["age", "job", ("age", "income")],
                                                     n_intervals=5).figure_,
    "split given axes": lambda: ale(three_classes, frame(), ("age", "income"), n_intervals=4).plot(
        ax=plt.subplots(figsize=(6.4, 4.8))[1]).figure_,
    "iml pdp+ice": _iml_pdp_ice,
    "iml FeatureEffects grid": _iml_grid,
    "ALEPlot numeric": lambda: pyale.ALEPlot(frame(), None, lambda m, d: model(d), J="age", K=8).display.figure_,
    "ALEPlot categorical": lambda: pyale.ALEPlot(frame(), None, lambda m, d: model(d), J="job").display.figure_,
    "ALEPlot pair": lambda: pyale.ALEPlot(frame(), None, lambda m, d: model(d), J=("age", "income"), K=8).display.figure_,
    "PDPlot categorical pair": lambda: pyale.PDPlot(frame(), None, lambda m, d: model(d), J=("job", "age"), K=5).display.figure_,
}


@pytest.mark.parametrize("name", list(PICTURES))
def test_no_label_is_cut_when_saved(name):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no layout warnings either
        figure = PICTURES[name]()
        assert_no_text_cut(figure)


def test_text_check_catches_a_cut_label():
    """The check above fails on a figure whose rotated level names run off the bottom."""
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.bar(range(4), [1, 2, 3, 4])
    ax.set_xticks(range(4), [name * 2 for name in LONG_LEVELS], rotation=90)
    with pytest.raises(AssertionError):
        assert_no_text_cut(fig)


def test_iml_grid_title_and_margins():
    X = frame(n=120)
    predictor = pyale.Predictor(predict_function=model, data=X, y=np.zeros(120))
    grid = pyale.FeatureEffects(predictor, features=["age", "income"], grid_size=6).plot()
    assert grid.figure_._suptitle.get_text() == "ALE"  # was "ALE of .y"
    values = np.concatenate([e.results[".value"] for e in grid.displays_.values() for e in [e.effect]])
    low, high = grid.axes_["age"].get_ylim()
    assert low < values.min() and high > values.max()


# ------------------------------------------------------------------ results you can look at


def test_results_have_short_repr_html_and_equals():
    X = frame()
    a = ale(model, X, ("age", "income"), n_intervals=6)
    b = ale(model, X, ("age", "income"), n_intervals=6)
    text = repr(a)
    assert text.startswith("ALEResult(features=('age', 'income'), kind=numeric x numeric, grid points=7 x 7, ALE range=[")
    assert "array(" not in text and len(text) < 250
    assert (a == b) is False and (a == a) is True and a != b  # identity; never "truth value ... ambiguous"
    assert a.equals(b) and not a.equals(ale(model, X, ("age", "income"), n_intervals=5))
    nudged = ALEResult(**{**{f: getattr(a, f) for f in a.__dataclass_fields__}, "effects": a.effects * (1 + 1e-12)})
    assert not a.equals(nudged) and a.equals(nudged, rtol=1e-10)
    assert not a.equals("something else")
    page = a._repr_html_()
    assert "<table>" in page and "data:image/png;base64," in page and "numeric x numeric" in page
    assert plt.get_fignums() == []  # the notebook view does not leave pyplot figures behind
    r_shaped = pyale.ALEPlot(X, None, lambda m, d: model(d), J="job", plot=False)
    assert repr(r_shaped).startswith("ALEPlotResult(feature='job', kind=categorical, K=4, grid points=4, f_values range=[")
    assert r_shaped.equals(pyale.ALEPlot(X, None, lambda m, d: model(d), J="job", plot=False))
    assert "data:image/png;base64," in r_shaped._repr_html_()
    pd_result = pyale.PDPlot(X, None, lambda m, d: model(d), J="age", K=5, plot=False)
    assert repr(pd_result).startswith("PDPlotResult(feature='age', kind=numeric, grid points=5, f_values range=[")
    listed = ale(model, X, ["age", "job"], n_intervals=4)
    assert listed.equals(ale(model, X, ["age", "job"], n_intervals=4))
    assert "data:image/png;base64," in listed._repr_html_()


def test_feature_effects_repr_html_and_equals():
    X = frame(n=100)
    predictor = pyale.Predictor(predict_function=three_classes, data=X)
    effect = pyale.FeatureEffect(predictor, "age", grid_size=4)
    assert repr(effect).startswith("FeatureEffect(feature='age', method='ale', grid_size=(4,), rows=15, value range=[")
    assert repr(effect).endswith("outputs=low, mid, high)")
    assert effect.equals(pyale.FeatureEffect(predictor, "age", grid_size=4))
    assert not effect.equals(pyale.FeatureEffect(predictor, "age", grid_size=3))
    assert (effect == pyale.FeatureEffect(predictor, "age", grid_size=4)) is False
    assert "data:image/png;base64," in effect._repr_html_()
    effects = pyale.FeatureEffects(predictor, features=["age", "job"], grid_size=4)
    assert effects.equals(pyale.FeatureEffects(predictor, features=["age", "job"], grid_size=4))
    assert "data:image/png;base64," in effects._repr_html_()
    assert plt.get_fignums() == []


# ---------------------------------------------------------------- names drawn as written

DOLLAR_NAME, DOLLAR_LEVELS, DOLLAR_OTHER = "$\\q$", ["$\\a$", "b$", "$c"], "z_$x$"


def dollar_frame(n=120, seed=0):
    rng = np.random.default_rng(seed)
    return pd.DataFrame({DOLLAR_NAME: rng.normal(size=n), "$g$": pd.Categorical(rng.choice(DOLLAR_LEVELS, n)),
                         DOLLAR_OTHER: rng.normal(size=n)})


def dollar_model(d):
    return d[DOLLAR_NAME] * 2 + (d["$g$"] == "b$") * d[DOLLAR_OTHER]


def dollar_classes(d):
    p = 1 / (1 + np.exp(-dollar_model(d).to_numpy()))
    return pd.DataFrame({"$\\p$": p, "q$": 1 - p})


def _saved_texts(figure) -> list[str]:
    """Draw and save ``figure`` (mathtext would raise here) and return every text shown."""
    import io

    figure.savefig(io.BytesIO(), format="png")
    texts = [t.get_text() for t in figure.findobj(Text) if t.get_visible() and t.get_text()]
    plt.close(figure)
    return texts


def _drawn_figures():
    X = dollar_frame()
    entries = [DOLLAR_NAME, "$g$", (DOLLAR_NAME, DOLLAR_OTHER), ("$g$", DOLLAR_OTHER)]
    for model in (dollar_model, dollar_classes):
        results = ale(model, X, entries, n_intervals=5)
        yield results.plot().figure_
        for result in results:
            yield result.plot().figure_
    for J in entries:
        yield pyale.ALEPlot(X, None, lambda m, d: dollar_model(d), J=J, K=5, plot=False).plot(NA_plot=False).figure_
        yield pyale.PDPlot(X, None, lambda m, d: dollar_model(d), J=J, K=5, plot=False).plot().figure_
    predictor = pyale.Predictor(predict_function=dollar_model, data=X)
    for method in ("ale", "pdp", "ice", "pdp+ice"):
        yield pyale.FeatureEffects(predictor, method=method, grid_size=4).plot().figure_
    for pair in ([DOLLAR_NAME, DOLLAR_OTHER], ["$g$", DOLLAR_OTHER]):
        for method in ("ale", "pdp"):
            yield pyale.FeatureEffect(predictor, pair, method=method, grid_size=4).plot().figure_
    classes = pyale.Predictor(predict_function=dollar_classes, data=X)
    yield pyale.FeatureEffect(classes, DOLLAR_NAME, grid_size=4).plot().figure_


def test_names_levels_and_outputs_with_dollars_are_drawn_as_written():
    """'$\\q$' as a name, level or class is text, not mathtext (which raised 'Unknown symbol: \\q')."""
    shown = set()
    for figure in _drawn_figures():
        shown.update(_saved_texts(figure))
    for text in [DOLLAR_NAME, DOLLAR_OTHER, *DOLLAR_LEVELS, "$\\p$", "ALE of $\\p$", "ALE of q$"]:
        assert any(text in t for t in shown), text


def test_user_math_in_other_axes_is_left_alone():
    figure, (mine, theirs) = plt.subplots(1, 2)
    theirs.set_title("$\\alpha$")
    ale(dollar_model, dollar_frame(), DOLLAR_NAME, n_intervals=4).plot(ax=mine)
    assert theirs.title.get_parse_math() is True
    assert mine.xaxis.label.get_parse_math() is False
    plt.close(figure)


# ---------------------------------------------------------------- refusals


OUTPUT_REFUSALS = [
    ("nope", ValueError, "The 'output' parameter of ALEResult.plot names outputs ['nope'] that the effect of "
                         "('age',) lacks; its outputs are ['low', 'mid', 'high']."),
    ([], ValueError, "The 'output' parameter of ALEResult.plot must name at least one output of the effect of "
                     "('age',) (['low', 'mid', 'high']). Got [] instead."),
    (["mid", 3], ValueError, "The 'output' parameter of ALEResult.plot names outputs [3] that the effect of "
                             "('age',) lacks"),
]


@pytest.mark.parametrize(("output", "kind", "message"), OUTPUT_REFUSALS)
def test_plot_refuses_unknown_outputs(output, kind, message):
    result = ale(three_classes, frame(n=100), "age", n_intervals=4)
    with pytest.raises(kind, match=re.escape(message)):
        result.plot(output=output)
    assert plt.get_fignums() == []


def test_plot_accepts_outputs_as_label_list_or_array():
    result = ale(three_classes, frame(n=100), "age", n_intervals=4)
    for output in ("mid", ["mid", "low"], np.array(["mid", "low"])):
        display = result.plot(output=output)
        assert [line.get_label() for line in display.lines_[0, 0]] == list(np.atleast_1d(output))
        plt.close(display.figure_)


@pytest.mark.parametrize("front_end", ["ALEPlot", "PDPlot"])
@pytest.mark.parametrize("value", ["x", None, 1, 0.0])
def test_r_shaped_plot_refuses_a_non_bool_na_plot(front_end, value):
    X = frame(n=60)
    result = getattr(pyale, front_end)(X, None, lambda m, d: d["age"] * 2, J="age", K=4, plot=False)
    message = f"The 'NA_plot' parameter of {type(result).__name__}.plot must be a bool. Got {value!r} instead."
    with pytest.raises(TypeError, match=re.escape(message)):
        result.plot(NA_plot=value)
    from pyale._plot.aleplot import RPlotDisplay

    with pytest.raises(TypeError, match=re.escape("The 'NA_plot' parameter of RPlotDisplay.plot must be a bool.")):
        RPlotDisplay(result).plot(NA_plot=value)
    assert plt.get_fignums() == []


def test_from_estimator_forwards_ale_keywords_and_refuses_unknown_ones_before_any_model_call():
    calls = []

    def counting(d):
        calls.append(len(d))
        return model(d)

    display = ALEDisplay.from_estimator(counting, frame(), ["age", "job"], n_intervals=5, n_bootstrap=20,
                                        random_state=3, lw=3.0, color="C2")
    direct = ale(model, frame(), ["age", "job"], n_intervals=5, n_bootstrap=20, random_state=3)
    assert all(a.equals(b) for a, b in zip(display.results, direct))  # the bootstrap reached pyale.ale
    assert display.lines_[0, 0][0].get_linewidth() == 3.0  # an alias replaces pyale's default, no clash
    calls.clear()
    for bad, message in [
        (dict(n_interval=5), "ALEDisplay.from_estimator got an unexpected keyword argument 'n_interval': it is "
                             "neither a parameter of pyale.ale or ALEDisplay.plot"),
        (dict(lw=2, foo=1), "unexpected keyword argument 'foo'"),
    ]:
        with pytest.raises(TypeError, match=re.escape(message)):
            ALEDisplay.from_estimator(counting, frame(), ["age"], **bad)
    assert calls == []
    with pytest.raises(TypeError, match=re.escape("'marker', a property of matplotlib's lines only, and draws bars "
                                                  "too; pass it in line_kw={'marker': ...}")):
        display.plot(marker="o")
    assert display.plot(line_kw={"marker": "o"}).lines_[0, 0][0].get_marker() == "o"


def test_from_estimator_takes_response_method():
    pytest.importorskip("sklearn")
    from sklearn.svm import SVC

    X = frame()[["age", "income"]]
    model = SVC().fit(X, X["age"] + X["income"] / 2 > 70)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        display = ALEDisplay.from_estimator(model, X, ["age"], n_intervals=5)  # auto: decision_function
        labels = ALEDisplay.from_estimator(model, X, ["age"], n_intervals=5, response_method="predict")
    assert display.results[0].equals(ale(model, X, "age", n_intervals=5, response_method="decision_function"))
    assert display.results[0].outputs == (True,) and labels.results[0].outputs == ("yhat",)
    with pytest.raises(ValueError, match=re.escape("The 'response_method' parameter of ale must be 'auto' or a "
                                                   "method of SVC ('decision_function', 'predict'). Got "
                                                   "'predict_proba' instead.")):
        ALEDisplay.from_estimator(model, X, ["age"], response_method="predict_proba")


def test_repr_writes_numpy_integer_labels_as_plain_numbers():
    X = pd.DataFrame(np.random.default_rng(0).normal(size=(50, 2)))  # integer column labels 0 and 1
    assert repr(ale(lambda d: d[0] * 2, X, 0)).startswith("ALEResult(features=0, kind=numeric,")
    assert repr(ale(lambda d: d[0] * d[1], X, (0, 1))).startswith("ALEResult(features=(0, 1), kind=numeric x numeric")


# ---------------------------------------------------------------- classifiers, rugs, large numbers


def binary_fit(n=300, seed=2):
    from sklearn.linear_model import LogisticRegression

    X = frame(n=n, seed=seed)[["age", "income"]]
    labels = np.where(X["age"] + 0.2 * X["income"] > 55, "yes", "no")
    return LogisticRegression(max_iter=500).fit(X, labels), X


def test_binary_classifier_draws_its_positive_class_by_default():
    """Two mirror-image curves (one per class) were drawn; scikit-learn draws classes_[1]."""
    classifier, X = binary_fit()
    display = ALEDisplay.from_estimator(classifier, X, ["age", ("age", "income")], n_intervals=5)
    curve, pair = display.results
    assert curve.classifier and curve.outputs == ("no", "yes") and display.axes_.shape == (1, 2)
    (line,) = display.lines_[0, 0]
    assert_array_equal(line.get_ydata(), curve.effects[:, 1])
    assert display.axes_[0, 0].get_ylabel() == "ALE of yes"
    assert display.axes_[0, 1].get_title() == "class: yes"
    assert_allclose(np.asarray(display.images_[0, 1][0].get_array()).ravel(), pair.effects[..., 1].T.ravel(), rtol=0)
    assert [line.get_ydata() for line in curve.plot().lines_[0, 0]][0].tolist() == curve.effects[:, 1].tolist()
    both = curve.plot(output=curve.outputs)  # both on request
    assert [line.get_label() for line in both.lines_[0, 0]] == ["no", "yes"]
    assert not ale(three_classes, frame(n=100), "age", n_intervals=4).classifier  # a callable's outputs: all drawn


def test_multiclass_surfaces_are_titled_by_class_on_rows_of_their_own():
    from sklearn.linear_model import LogisticRegression

    X = frame(n=300)[["age", "income"]]
    labels = np.select([X["age"] < 35, X["income"] > 40], ["young", "rich"], "other")
    classifier = LogisticRegression(max_iter=1000).fit(X, labels)
    display = ALEDisplay.from_estimator(classifier, X, ["age", "income", ("age", "income")], n_intervals=4)
    assert display.axes_.shape == (2, 3) and display.axes_[0, 2] is None
    assert [ax.get_title() for ax in display.axes_[1]] == [f"class: {c}" for c in classifier.classes_]
    assert_no_text_cut(display.figure_)


def test_result_plot_draws_the_rug_from_estimator_draws():
    X = frame()
    result = ale(model, X, "age", n_intervals=6)
    from_estimator = ALEDisplay.from_estimator(model, X, ["age"], n_intervals=6, deciles=True)
    plotted = result.plot(deciles=True)
    assert plotted.rugs_[0, 0] is not None  # was None: result.plot() had no rug
    assert_array_equal(plotted.rugs_[0, 0].get_segments(), from_estimator.rugs_[0, 0].get_segments())
    assert_array_equal(plotted.deciles_vlines_[0, 0].get_segments(), from_estimator.deciles_vlines_[0, 0].get_segments())
    assert plotted.lines_[0, 0][0].get_ydata().tolist() == from_estimator.lines_[0, 0][0].get_ydata().tolist()
    assert result.plot(rug=False).rugs_[0, 0] is None
    listed = ale(model, X, ["age", "income"], n_intervals=6).plot()
    assert listed.rugs_[0, 0] is not None and listed.rugs_[0, 1] is not None


def test_large_numbers_on_the_x_axis_do_not_run_together():
    """Incomes up to 3e5 in a third of a 12-inch figure wrote '50000100000150000'."""
    rng = np.random.default_rng(7)
    X = pd.DataFrame({"income": rng.lognormal(10.5, 0.5, 5000), "debt": rng.beta(2, 5, 5000),
                      "age": rng.integers(18, 80, 5000).astype(float)})
    display = ale(lambda d: np.log(d["income"]) - d["debt"] + 0.01 * d["age"], X, ["income", "debt", "age"],
                  n_intervals=20).plot(n_cols=3)
    assert_no_overlapping_ticks(display.figure_)
    assert_no_text_cut(display.figure_)
    pair = ale(lambda d: np.log(d["income"]) * d["debt"], X, ("income", "age"), n_intervals=10).plot()
    assert_no_overlapping_ticks(pair.figure_)


@pytest.mark.parametrize("kind", ["dask", "polars"])
def test_from_results_refuses_rows_that_are_not_in_memory(kind):
    frame = pd.DataFrame({"x": np.arange(20.0)})
    if kind == "dask":
        X, name = pytest.importorskip("dask.dataframe").from_pandas(frame, npartitions=2), "Dask DataFrame"
    else:
        X, name = pytest.importorskip("polars").from_pandas(frame).lazy(), "polars LazyFrame"
    result = pyale.ale(lambda d: d["x"].to_numpy(), frame, "x")
    message = (f"The 'X' parameter of ALEDisplay.from_results must hold its rows in memory (the rug is drawn from "
               f"them). Got a {name} instead")
    with pytest.raises(TypeError, match=re.escape(message)):
        ALEDisplay.from_results([result], X=X)
