"""pyale.check_shape: the decision rule against a plain computation, invariants, inputs, errors."""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import norm
from scipy.stats import t as student_t

import pyale
from pyale import ALEResult


def synthetic(effects: np.ndarray, replicates: np.ndarray, *, grid=None, name="x") -> ALEResult:
    """A one-feature ALEResult with given effects ``(n,)`` and replicates ``(B, n)``."""
    n = effects.shape[0]
    grid = np.arange(n, dtype=float) if grid is None else grid
    return ALEResult(features=(name,), kind="numeric", grid=(grid,), effects=effects[:, None], outputs=("yhat",),
                     counts=np.ones(n - 1), level_order=None, empty_cells=None, conventions="aleplot",
                     replicates=replicates[:, :, None], replicate_counts=np.ones((replicates.shape[0], n - 1)),
                     ci_level=0.95, bootstrap="data")


def as_normal(z, df):
    """A t value with ``df`` degrees of freedom as the normal deviate of the same tail probability."""
    if not np.isfinite(df):
        return z
    return norm.isf(student_t.sf(z, df)) if z > 0 else norm.ppf(student_t.cdf(z, df))


def plain_tests(margins, margins_b, level, strict, df=None):
    """The decision rule written out margin by margin, replicate by replicate."""
    B, M = margins_b.shape
    df = [np.inf] * M if df is None else df
    se = [np.std(margins_b[:, k], ddof=1) for k in range(M)]
    t = [as_normal(-margins[k] / se[k], df[k]) for k in range(M)]
    largest = [max((margins[k] - margins_b[b, k]) / se[k] for k in range(M)) for b in range(B)]
    p_violation = min((1 + sum(1 for b in range(B) if largest[b] >= t[k])) / (B + 1) for k in range(M))
    wrong = [(1 + sum(1 for b in range(B) if (margins_b[b, k] <= 0 if strict else margins_b[b, k] < 0))) / (B + 1)
             for k in range(M)]
    wrong = [norm.sf(as_normal(norm.isf(w), df[k])) for k, w in enumerate(wrong)]
    return p_violation, max(wrong)


@pytest.fixture(scope="module")
def noisy_results():
    rng = np.random.default_rng(3)
    n = 400
    X = pd.DataFrame({"x1": rng.uniform(size=n), "x2": rng.normal(size=n),
                      "g": pd.Categorical(rng.choice(list("abc"), n), categories=list("abc"), ordered=True)})

    def model(d):
        x1, x2, g = d["x1"].to_numpy(), d["x2"].to_numpy(), d["g"].cat.codes.to_numpy()
        return 0.3 * np.sin(3 * np.pi * x1) + x1 + x1 * x2 + 0.5 * g + 0.2 * g * x2

    return pyale.ale(model, X, ["x1", "x2", "g", ("x1", "x2"), ("g", "x2")], n_intervals=8, n_bootstrap=120,
                     random_state=0)


@pytest.mark.parametrize("expect", ["increasing", "non-decreasing", "decreasing", "non-increasing", "positive",
                                    "negative"])
@pytest.mark.parametrize("feature", ["x1", "x2", "g"])
def test_p_values_match_a_plain_computation(noisy_results, feature, expect):
    result = next(r for r in noisy_results if r.features == (feature,))
    row = pyale.check_shape(noisy_results, {feature: expect}, level=0.1).table.iloc[0]
    f, fb = result.effects[:, 0], result.replicates[:, :, 0]
    sign = -1.0 if expect in ("decreasing", "non-increasing", "negative") else 1.0
    n = result.counts  # rows per interval (numeric) or level (categorical): the margins' degrees of freedom
    if expect in ("positive", "negative"):
        m, mb = sign * np.array([f[-1] - f[0]]), sign * (fb[:, -1:] - fb[:, :1])
        df = [n.sum() - 1]
    else:
        m, mb = sign * np.diff(f), sign * np.diff(fb, axis=1)
        df = n - 1 if feature != "g" else n[1:] + n[:-1] - 2
    strict = expect in ("increasing", "decreasing", "positive", "negative")
    p_violation, p_holds = plain_tests(m, mb, 0.1, strict, df)
    assert row["p_violation"] == pytest.approx(p_violation, rel=1e-12)
    assert row["p_holds"] == pytest.approx(p_holds, rel=1e-12)
    expected = "fail" if p_violation <= 0.1 else ("pass" if p_holds <= 0.1 else "inconclusive")
    assert row["verdict"] == expected


def test_a_pair_axis_tests_every_line_together(noisy_results):
    pair = next(r for r in noisy_results if r.features == ("g", "x2"))
    row = pyale.check_shape(noisy_results, {("x2", "g"): {"g": "non-decreasing"}}).table.iloc[0]
    f, fb = pair.effects[..., 0], pair.replicates[..., 0]  # (levels, nodes), (B, levels, nodes)
    m = np.diff(f, axis=0).T.ravel()
    mb = np.diff(fb, axis=1).transpose(0, 2, 1).reshape(fb.shape[0], -1)
    p_violation, p_holds = plain_tests(m, mb, 0.05, False)
    assert row["p_violation"] == pytest.approx(p_violation, rel=1e-12)
    assert row["p_holds"] == pytest.approx(p_holds, rel=1e-12)
    assert (row["feature"], row["axis"], row["kind"]) == ("g x x2", "g", "categorical x numeric")


def test_worst_violation_is_the_largest_fall_of_the_curve(noisy_results):
    check = pyale.check_shape(noisy_results, {"x1": "increasing", "x2": "decreasing"})
    for result, row in zip(noisy_results[:2], check.table.itertuples()):
        f = result.effects[:, 0] * (1 if row.expectation == "increasing" else -1)
        falls = [(f[i] - f[j], i, j) for i in range(len(f)) for j in range(i + 1, len(f))]
        size, i, j = max(falls)
        assert row.worst_violation == pytest.approx(max(size, 0.0), abs=1e-14)
        if size > 0:
            assert (row.worst_start, row.worst_end) == (result.grid[0][i], result.grid[0][j])
            normaliser = result.normaliser()[0]
            pct = abs(normaliser(np.array([result.effects[i, 0]])) - normaliser(np.array([result.effects[j, 0]])))
            assert row.worst_violation_pct == pytest.approx(pct[0])


def test_violations_list_every_fall_with_its_interval(noisy_results):
    check = pyale.check_shape(noisy_results, {"x1": "increasing"}, level=0.1)
    result = noisy_results[0]
    f = result.effects[:, 0]
    falls = check.violations
    assert len(falls) == check.table["n_violations"].iloc[0] >= 1
    for v in falls.itertuples():
        i, j = list(result.grid[0]).index(v.start), list(result.grid[0]).index(v.trough)
        assert v.size == pytest.approx(f[i] - f[j])
        sizes = result.replicates[:, i, 0] - result.replicates[:, j, 0]
        assert (v.size_ci_low, v.size_ci_high) == pytest.approx(tuple(np.quantile(sizes, [0.05, 0.95])))
    assert check.table["verdict"].iloc[0] == ("fail" if falls["significant"].any() else check.table["verdict"].iloc[0])


def test_additive_model_is_judged_exactly():
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"x": rng.uniform(size=300), "z": rng.normal(size=300)})
    rising = pyale.ale(lambda d: d["x"] ** 3 + d["z"], X, "x", n_intervals=6, n_bootstrap=40, random_state=0)
    check = pyale.check_shape(rising, {"x": "increasing"})
    assert check.table["verdict"].iloc[0] == "pass"
    assert check.table["p_holds"].iloc[0] == pytest.approx(1 / 41)
    dipping = pyale.ale(lambda d: -((d["x"] - 0.5) ** 2) + d["z"], X, "x", n_intervals=6, n_bootstrap=40,
                        random_state=0)
    row = pyale.check_shape(dipping, {"x": "non-decreasing"}).table.iloc[0]
    z = dipping.grid[0]
    peak = int(np.argmax(-((z - 0.5) ** 2)))
    assert (row["verdict"], row["p_violation"]) == ("fail", 0.0)
    assert row["worst_violation"] == pytest.approx(-((z[peak] - 0.5) ** 2) + (z[-1] - 0.5) ** 2, rel=1e-9)


def test_a_flat_stretch_fails_increasing_but_not_non_decreasing():
    f = np.array([0.0, 1.0, 1.0, 2.0])
    result = synthetic(f - f.mean(), np.tile(f - f.mean(), (30, 1)))
    table = pyale.check_shape(result, {"x": "increasing"}).table
    assert table["verdict"].iloc[0] == "fail"
    assert table["worst_violation"].iloc[0] == 0.0
    assert pyale.check_shape(result, {"x": "non-decreasing"}).table["verdict"].iloc[0] == "pass"


curves = st.integers(3, 8).flatmap(lambda n: st.tuples(
    st.lists(st.floats(-5, 5), min_size=n, max_size=n),
    st.lists(st.lists(st.floats(-1, 1), min_size=n, max_size=n), min_size=25, max_size=25),
))
PAIRS = [("increasing", "decreasing"), ("non-decreasing", "non-increasing"), ("positive", "negative")]


@settings(max_examples=15, deadline=None)
@given(curves)
def test_reversing_the_feature_flips_the_direction(data):
    f, noise = np.array(data[0]), np.array(data[1])
    replicates = f + noise
    forward = synthetic(f, replicates)
    backward = synthetic(f[::-1].copy(), replicates[:, ::-1].copy(), grid=-np.arange(len(f), dtype=float)[::-1])
    negated = synthetic(-f, -replicates)
    for up, down in PAIRS:
        a = pyale.check_shape(forward, {"x": up}).table.iloc[0]
        for other in (backward, negated):
            b = pyale.check_shape(other, {"x": down}).table.iloc[0]
            assert (a["verdict"], a["p_violation"], a["p_holds"]) == (b["verdict"], b["p_violation"], b["p_holds"])
            assert a["worst_violation"] == pytest.approx(b["worst_violation"])


@settings(max_examples=15, deadline=None)
@given(curves)
def test_pass_and_fail_exclude_each_other_and_p_values_are_probabilities(data):
    f, noise = np.array(data[0]), np.array(data[1])
    result = synthetic(f, f + noise)
    for expect in ("increasing", "non-decreasing", "positive"):
        row = pyale.check_shape(result, {"x": expect}).table.iloc[0]
        assert 0.0 <= row["p_violation"] <= 1.0 and 0.0 < row["p_holds"] <= 1.0
        assert not (row["p_violation"] <= 0.05 and row["p_holds"] <= 0.05)
        assert (row["worst_violation"] == 0) == (row["n_violations"] == 0) or expect != "non-decreasing"


def test_a_user_function_is_a_margin_like_the_built_ins(noisy_results):
    by_name = pyale.check_shape(noisy_results, {"x2": "non-decreasing"}).table.iloc[0]

    def increments(grid, curve):
        return np.diff(curve)

    by_function = pyale.check_shape(noisy_results, {"x2": increments}).table.iloc[0]
    assert by_function["expectation"] == "increments"
    result = noisy_results[1]
    f, fb = result.effects[:, 0], result.replicates[:, :, 0]
    # the same margins as "non-decreasing", without its small-sample calibration (no rows behind a function)
    p_violation, p_holds = plain_tests(np.diff(f), np.diff(fb, axis=1), 0.05, False)
    assert (by_function["p_violation"], by_function["p_holds"]) == pytest.approx((p_violation, p_holds), rel=1e-12)
    assert by_function["p_violation"] <= by_name["p_violation"] and by_function["p_holds"] <= by_name["p_holds"]
    check = pyale.check_shape(noisy_results, {"x1": lambda grid, curve: curve[-1] - curve[0] - 100.0})
    assert check.table["verdict"].iloc[0] == "fail"
    assert check.violations["element"].tolist() == [0]
    assert check.violations["size"].iloc[0] == pytest.approx(100.0 - (noisy_results[0].effects[-1, 0]
                                                                      - noisy_results[0].effects[0, 0]))


def test_undefined_margins_never_pass():
    # Before: a user function returning NaN, or a curve with a NaN increment, passed with p_holds = 1 / (B + 1).
    rng = np.random.default_rng(0)
    effects = np.linspace(0.0, 1.0, 5)
    replicates = effects + rng.normal(scale=0.01, size=(60, 5))
    result = synthetic(effects, replicates)
    assert pyale.check_shape(result, {"x": lambda grid, curve: np.diff(curve)}).table["verdict"].iloc[0] == "pass"
    nan_function = pyale.check_shape(result, {"x": lambda grid, curve: curve * np.nan}).table.iloc[0]
    assert nan_function["verdict"] == "inconclusive" and nan_function["p_holds"] == 1.0
    with_gap = effects.copy()
    with_gap[2] = np.nan
    gap = pyale.check_shape(synthetic(with_gap, replicates), {"x": lambda grid, curve: np.diff(curve)}).table.iloc[0]
    assert gap["verdict"] == "inconclusive" and gap["p_holds"] == 1.0
    undefined_replicates = replicates.copy()
    undefined_replicates[:, 3] = np.nan
    unknown = pyale.check_shape(synthetic(effects, undefined_replicates),
                                {"x": lambda grid, curve: np.diff(curve)}).table.iloc[0]
    assert unknown["verdict"] == "inconclusive" and unknown["p_holds"] == 1.0


def test_a_direction_along_levels_ordered_by_similarity_is_refused():
    # Before: expect={"region": "increasing"} on an unordered categorical was judged along the order pyale chose
    # by similarity (here a "fail"), a verdict about pyale's choice, not the model.
    rng = np.random.default_rng(4)
    X = pd.DataFrame({"region": rng.choice(["north", "south", "east"], 200), "x": rng.normal(size=200)})
    X["x"] += (X["region"] == "east") * 2.0
    model = lambda d: d["x"] + (d["region"] == "south") * 1.0  # noqa: E731
    message = "The 'expect' parameter of check_shape asks 'region' to be 'increasing', but 'region' is an unordered " \
              "categorical: its levels "
    unordered = pyale.ale(model, X, ["region", "x"], n_bootstrap=30, random_state=0)
    refits = pyale.ALE(None, ["region"], X.assign(y=model(X)), "y", pred_fun=lambda object, newdata, type: model(newdata),
                       boot_it=30)
    for result in (unordered, refits):
        with pytest.raises(ValueError, match=re.escape(message)):
            pyale.check_shape(result, {"region": "increasing"})
    pair = pyale.ale(model, X, [("region", "x")], n_bootstrap=30, random_state=0)
    with pytest.raises(ValueError, match=re.escape(message.replace("'increasing'", "'positive'"))):
        pyale.check_shape(pair, {("region", "x"): {"region": "positive"}})
    assert pyale.check_shape(pair, {("region", "x"): {"x": "non-decreasing"}}).table.shape[0] == 1
    # the user's own order, an ordered categorical or a function of the curve are judged
    levels = ["north", "east", "south"]
    given = pyale.ale(model, X, ["region"], level_order=levels, n_bootstrap=30, random_state=0)
    ordered = pyale.ale(model, X.assign(region=pd.Categorical(X["region"], levels, ordered=True)), ["region"],
                        n_bootstrap=30, random_state=0)
    for result in (given, ordered):
        assert pyale.check_shape(result, {"region": "non-decreasing"}).table.shape[0] == 1
    assert pyale.check_shape(unordered, {"region": lambda grid, curve: np.diff(curve)}).table.shape[0] == 1


def test_a_modelboot_is_pointed_to_model_bootstrap():
    # Before: "... or a pyale.ALE object. Got ModelBoot instead." with no way forward.
    import statsmodels.formula.api as smf

    rng = np.random.default_rng(1)
    data = pd.DataFrame({"a": rng.normal(size=40)})
    data["y"] = data["a"] + rng.normal(size=40)
    boot = pyale.ModelBoot(smf.ols("y ~ a", data).fit(), data, boot_it=3, seed=0)
    for call in (lambda: pyale.check_shape(boot, {"a": "increasing"}), lambda: pyale.materiality(boot)):
        with pytest.raises(TypeError, match=re.escape("Got ModelBoot instead. A ModelBoot's refitted curves are R's "
                                                      "tables, not replicates of one estimator: for a model "
                                                      "bootstrap verdict use pyale.model_bootstrap(")):
            call()


def test_model_bootstrap_and_ale_package_results_are_accepted():
    from sklearn.linear_model import LinearRegression

    rng = np.random.default_rng(1)
    X = pd.DataFrame({"a": rng.normal(size=150), "b": rng.normal(size=150)})
    y = 2 * X["a"] - X["b"] + rng.normal(size=150)
    refits = pyale.model_bootstrap(lambda rows, target: LinearRegression().fit(rows, target), X, y.to_numpy(),
                                   ["a", "b"], n_bootstrap=12, random_state=0, n_intervals=4)
    table = pyale.check_shape(refits, {"a": "increasing", "b": "decreasing"}, level=0.1).table
    assert table["verdict"].tolist() == ["pass", "pass"]
    assert set(table["bootstrap"]) == {"model"}
    data = X.assign(y=y)
    ale = pyale.ALE(LinearRegression().fit(X, y), ["a"], data, "y", boot_it=12, seed=0)
    assert pyale.check_shape(ale, {"a": "increasing"}, level=0.1).table["verdict"].iloc[0] == "pass"


def test_output_to_dict_and_plot(noisy_results):
    import matplotlib

    matplotlib.use("Agg")
    check = pyale.check_shape(noisy_results, {"x1": "increasing", ("x1", "x2"): {"x2": "positive"}, "g": "increasing"})
    text = json.dumps(check.to_dict())
    assert "decision_rule" in text and "NaN" not in text
    assert repr(check).startswith("ShapeCheck(level=0.05")
    display = check.plot()
    assert len(display.axes_) == 3 and display.figure_ is display.axes_[0].figure
    assert "fail" in display.axes_[0].get_title() or "pass" in display.axes_[0].get_title()
    assert len(display.spans_[0]) == int((check.violations["feature"] == "x1").sum())


def _classifier_result():
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"x": rng.normal(size=60)})
    return pyale.ale(lambda d: np.column_stack([d["x"], -d["x"], 0 * d["x"]]), X, "x", n_intervals=3,
                     n_bootstrap=20, random_state=0)


ERRORS = [
    ("no replicates", lambda r: pyale.check_shape(pyale.ale(lambda d: d["x1"], r.X, "x1", n_intervals=3),
                                                  {"x1": "increasing"}),
     ValueError, "check_shape needs bootstrap replicates, and the effect of 'x1' carries none. Compute it with "
                 "pyale.ale(model, X, features, n_bootstrap=200)"),
    ("too few replicates", lambda r: pyale.check_shape(
        pyale.ale(lambda d: d["x1"], r.X, "x1", n_intervals=3, n_bootstrap=10, random_state=0),
        {"x1": "increasing"}, level=0.05),
     ValueError, "The effect of 'x1' carries 10 bootstrap replicates; check_shape at level 0.05 needs at least 19"),
    ("unknown feature", lambda r: pyale.check_shape(r.results, {"zz": "increasing"}),
     ValueError, "The 'expect' parameter of check_shape names feature 'zz', which no result holds; the results "
                 "hold ['x1', 'x2', 'g', ('x1', 'x2'), ('g', 'x2')]."),  # before: 'x1 x x2', not a usable key
    ("unknown pair axis", lambda r: pyale.check_shape(r.results, {("x1", "x2"): {"g": "increasing"}}),
     ValueError, "names axis 'g' of pair ('x1', 'x2'), which is not one of its features ['x1', 'x2']."),
    ("bad name", lambda r: pyale.check_shape(r.results, {"x1": "monotone"}),
     ValueError, "The 'expect' parameter of check_shape must give feature 'x1' one of ['increasing', "
                 "'non-decreasing', 'decreasing', 'non-increasing', 'positive', 'negative'] or a function of the "
                 "curve. Got 'monotone' instead."),
    ("pair without axes", lambda r: pyale.check_shape(r.results, {("x2", "x1"): "increasing"}), TypeError,
     "The 'expect' parameter of check_shape must give pair ('x2', 'x1') a dict of axis -> expectation, e.g. "
     "{('x2', 'x1'): {'x2': 'increasing'}}. Got 'increasing' instead."),
    ("bad type", lambda r: pyale.check_shape(r.results, {"x1": 3}), TypeError, "Got 3 instead."),
    ("empty expect", lambda r: pyale.check_shape(r.results, {}), TypeError,
     "The 'expect' parameter of check_shape must be a non-empty dict"),
    ("bad level", lambda r: pyale.check_shape(r.results, {"x1": "increasing"}, level=1.5), ValueError,
     "The 'level' parameter of check_shape must be a number in (0, 1). Got 1.5 instead."),
    ("bad result", lambda r: pyale.check_shape("x", {"x1": "increasing"}), TypeError,
     "The 'result' parameter of check_shape must be an ALEResult"),
    ("several outputs", lambda r: pyale.check_shape(_classifier_result(), {"x": "increasing"}), ValueError,
     "has 3 outputs ['0', '1', '2']; pass output= to check_shape"),
    ("bad function", lambda r: pyale.check_shape(r.results, {"x1": lambda g, c: np.ones((2, 2))}), ValueError,
     "must return a number or a 1-D array of the same length for every curve. Got shape (2, 2) instead."),
]


@pytest.mark.parametrize("case, call, error, message", ERRORS, ids=[e[0] for e in ERRORS])
def test_errors(noisy_results, case, call, error, message):
    class Inputs:
        results = noisy_results
        X = pd.DataFrame({"x1": np.linspace(0, 1, 30)})

    with pytest.raises(error, match=re.escape(message)):
        call(Inputs)


def test_a_pair_axis_can_be_judged_on_its_total_effect():
    rng = np.random.default_rng(4)
    X = pd.DataFrame({"x1": rng.uniform(size=400), "x2": rng.uniform(-1, 1, size=400)})
    results = pyale.ale(lambda d: 3 * d["x1"] + 0.5 * d["x1"] * d["x2"], X, ["x1", ("x1", "x2")], n_intervals=5,
                        n_bootstrap=60, random_state=0)
    main, pair = results
    expect = {("x1", "x2"): {"x1": "increasing"}}
    interaction = pyale.check_shape(results, expect).table.iloc[0]
    total = pyale.check_shape(results, expect, pair_effect="total")
    assert (interaction["effect"], interaction["verdict"]) == ("interaction", "fail")  # x1 * x2 falls at x2 < 0
    assert (total.table["effect"].iloc[0], total.table["verdict"].iloc[0]) == ("total", "pass")  # slope 3 + x2 / 2
    np.testing.assert_array_equal(main.grid[0], pair.grid[0])  # same edges: the main effect is read at its own
    check = total.checks[0]
    np.testing.assert_allclose(check.lines, pair.effects[..., 0].T + main.effects[:, 0], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(check.replicate_lines, pair.replicates[..., 0].transpose(0, 2, 1)
                               + main.replicates[:, None, :, 0], rtol=1e-12, atol=1e-12)
    with pytest.raises(ValueError, match=re.escape("names feature 'x1', which no result holds (pair_effect='total' "
                                                   "adds it to pair ('x1', 'x2')")):
        pyale.check_shape([pair], expect, pair_effect="total")


def test_the_total_effect_reads_the_main_curve_between_its_grid_points():
    rng = np.random.default_rng(6)
    X = pd.DataFrame({"x1": rng.uniform(size=400), "x2": rng.uniform(-1, 1, size=400)})
    main, pair = pyale.ale(lambda d: d["x1"] ** 2 + d["x1"] * d["x2"], X, ["x1", ("x1", "x2")],
                           n_intervals="auto", n_bootstrap=30, random_state=0)
    assert len(main.grid[0]) != len(pair.grid[0])
    check = pyale.check_shape([main, pair], {("x1", "x2"): {"x1": "non-decreasing"}}, pair_effect="total",
                              level=0.1).checks[0]
    along = np.interp(pair.grid[0], main.grid[0], main.effects[:, 0])
    np.testing.assert_allclose(check.lines, pair.effects[..., 0].T + along, rtol=1e-12, atol=1e-12)
    along_b = np.stack([np.interp(pair.grid[0], main.grid[0], r) for r in main.replicates[..., 0]])
    np.testing.assert_allclose(check.replicate_lines, pair.replicates[..., 0].transpose(0, 2, 1) + along_b[:, None],
                               rtol=1e-12, atol=1e-12)
