"""pyale.reason_codes: contributions against plain computations, centring, adverse ranking, flags, errors."""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pyale


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(2)
    n = 300
    return pd.DataFrame({"dti": rng.uniform(size=n), "income": rng.lognormal(size=n), "z": rng.normal(size=n),
                         "grade": pd.Categorical(rng.choice(list("ABC"), n), categories=list("ABC"), ordered=True)})


def linear(d):
    return 2.0 * d["dti"] - 0.5 * d["income"] + 0.3 * (d["grade"] == "C")


def test_contributions_of_a_linear_model_are_its_terms_up_to_a_constant(data):
    results = pyale.ale(linear, data, ["dti", "income", "grade"], n_intervals=7)
    rows = data.iloc[:25]
    codes = pyale.reason_codes(results, rows)
    c = codes.contributions
    assert np.allclose(c["dti"] - 2.0 * rows["dti"], (c["dti"] - 2.0 * rows["dti"]).iloc[0], atol=1e-12)
    assert np.allclose(c["income"] + 0.5 * rows["income"], (c["income"] + 0.5 * rows["income"]).iloc[0], atol=1e-12)
    step = c["grade"][rows["grade"] == "C"].iloc[0] - c["grade"][rows["grade"] != "C"].iloc[0]
    assert step == pytest.approx(0.3)
    assert codes.table["flag"].eq(False).all()  # an additive model: every row changes alike


def test_numeric_values_are_read_on_the_linear_curve_and_clamped_beyond(data):
    result = pyale.ale(lambda d: d["dti"] ** 2, data, "dti", n_intervals=5)
    edges, f = result.grid[0], result.effects[:, 0]
    values = [edges[0] - 1, edges[0], (edges[1] + 2 * edges[2]) / 3, edges[3], edges[-1] + 5]
    codes = pyale.reason_codes(result, pd.DataFrame({"dti": values}))
    expected = [f[0], f[0], (f[1] + 2 * f[2]) / 3, f[3], f[-1]]
    assert codes.contributions["dti"].to_numpy() == pytest.approx(expected, rel=1e-12)
    assert codes.table["outside_grid"].tolist() == [True, False, False, False, True]
    # the interval holding each value (right-closed, the minimum in the first)
    changes = [f[1] - f[0], f[1] - f[0], f[2] - f[1], f[3] - f[2], f[-1] - f[-2]]
    assert codes.table["local_change"].to_numpy() == pytest.approx(changes, rel=1e-12)


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 8))
def test_contributions_are_centred(seed, n_intervals):
    """The centred ALE averages to 0 over the data: rows at the interval mid-points weighted by the
    intervals' counts (numeric), the data's own rows (categorical)."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"x": rng.gamma(2.0, size=80), "g": rng.choice(list("abcd"), 80), "z": rng.normal(size=80)})
    results = pyale.ale(lambda d: np.sin(d["x"]) * d["z"] + d["x"] * (d["g"] == "b"), X, ["x", "g"],
                        n_intervals=n_intervals)
    x_result = results[0]
    edges = x_result.grid[0]
    mids = pd.DataFrame({"x": (edges[1:] + edges[:-1]) / 2, "g": "a"})
    codes = pyale.reason_codes(results, mids)
    assert np.average(codes.contributions["x"], weights=x_result.counts) == pytest.approx(0.0, abs=1e-12)
    on_data = pyale.reason_codes(results, X).contributions["g"]
    assert on_data.mean() == pytest.approx(0.0, abs=1e-12)


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 3))
def test_low_adverse_is_high_adverse_of_the_negated_model(seed, top):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({k: rng.normal(size=60) for k in "abc"})

    def model(d):
        return d["a"] ** 3 - d["b"] + 0.5 * d["c"] * d["a"]

    rows = X.iloc[:6]
    low = pyale.reason_codes(pyale.ale(model, X, list("abc"), n_intervals=4), rows, top=top, adverse="low")
    high = pyale.reason_codes(pyale.ale(lambda d: -model(d), X, list("abc"), n_intervals=4), rows, top=top,
                              adverse="high")
    assert low.top.filter(like="reason").equals(high.top.filter(like="reason"))
    for position, (_, row) in enumerate(rows.iterrows()):
        contributions = low.contributions.iloc[position]
        adverse = contributions[contributions < 0].sort_values()
        expected = list(adverse.index[:top]) + [None] * (top - min(top, len(adverse)))
        assert [low.top.iloc[position][f"reason_{i}"] for i in range(1, top + 1)] == expected


def test_a_pure_interaction_is_flagged(data):
    results = pyale.ale(lambda d: d["dti"] * d["z"] + d["income"], data, ["dti", "income"], n_intervals=5)
    table = pyale.reason_codes(results, data.iloc[:30], heterogeneity_ratio=1.0).table
    assert table.loc[table["feature"] == "dti", "flag"].all()
    assert not table.loc[table["feature"] == "income", "flag"].any()


def test_tables_and_dict(data):
    results = pyale.ale(linear, data, ["dti", "income", ("dti", "income")], n_intervals=5)
    rows = data.iloc[[3, 1, 3]]  # a repeated index label is kept
    codes = pyale.reason_codes(results, rows, top=2)
    assert list(codes.contributions.columns) == ["dti", "income"]  # the pair is left out
    assert list(codes.top.index) == [3, 1, 3]
    assert codes.table["row"].tolist() == [3, 3, 1, 1, 3, 3]
    assert codes.table.groupby(codes.table.index // 2)["adverse_rank"].apply(
        lambda r: r.dropna().tolist() == list(range(1, r.notna().sum() + 1))).all()
    payload = json.loads(json.dumps(codes.to_dict()))
    assert payload["method"].startswith("main-effect decomposition") and len(payload["top"]) == 3
    one = pyale.reason_codes(results, data.iloc[0])
    assert one.contributions.shape == (1, 2)


ERRORS = [
    ("missing column", dict(rows=pd.DataFrame({"dti": [0.5]})), ValueError,
     "The 'rows' parameter of reason_codes must have a column for every feature of the effects; 'grade' is "
     "missing."),
    ("unknown level", dict(rows=pd.DataFrame({"dti": [0.5], "grade": ["Z"]})), ValueError,
     "Column 'grade' of the 'rows' parameter of reason_codes holds level 'Z', which the effect has not seen; "
     "its levels are ['A', 'B', 'C']."),
    ("missing value", dict(rows=pd.DataFrame({"dti": [np.nan], "grade": ["A"]})), ValueError,
     "Column 'dti' of the 'rows' parameter of reason_codes has a missing value (row 0)"),
    ("text for a number", dict(rows=pd.DataFrame({"dti": ["high"], "grade": ["A"]})), ValueError,
     "Column 'dti' of the 'rows' parameter of reason_codes must be numeric, as the effect's feature is. Got "
     "'high' among its values."),
    ("top", dict(top=0), ValueError, "The 'top' parameter of reason_codes must be an int >= 1. Got 0 instead."),
    ("adverse", dict(adverse="bad"), ValueError,
     "The 'adverse' parameter of reason_codes must be one of ['high', 'low']. Got 'bad' instead."),
    ("ratio", dict(heterogeneity_ratio=-1), ValueError,
     "The 'heterogeneity_ratio' parameter of reason_codes must be a finite number >= 0. Got -1 instead."),
]


@pytest.mark.parametrize("case, kwargs, error, message", ERRORS, ids=[e[0] for e in ERRORS])
def test_errors(data, case, kwargs, error, message):
    results = pyale.ale(linear, data, ["dti", "grade"], n_intervals=4)
    kwargs = {"rows": data.iloc[:2], **kwargs}
    with pytest.raises(error, match=re.escape(message)):
        pyale.reason_codes(results, **kwargs)


def test_a_huge_top_gives_one_reason_per_feature_at_once(data):
    # Before: top=10**12 built 10**12 empty column groups (the call never returned).
    results = pyale.ale(linear, data, ["dti", "grade"], n_intervals=4)
    codes = pyale.reason_codes(results, data.iloc[:3], top=10**12)
    assert list(codes.top.columns) == ["reason_1", "contribution_1", "flag_1",
                                       "reason_2", "contribution_2", "flag_2"]
    assert codes.table["reason"].sum() == codes.top[["reason_1", "reason_2"]].notna().sum().sum()


def test_plot_draws_one_row(data):
    import matplotlib

    matplotlib.use("Agg")
    results = pyale.ale(lambda d: d["dti"] * d["z"] + d["income"], data, ["dti", "income", "grade"], n_intervals=4)
    codes = pyale.reason_codes(results, data.iloc[:3], top=1)
    display = codes.plot(row=2)
    assert len(display.bars_) == 3
    widths = sorted(abs(b.get_width()) for b in display.bars_)
    assert [abs(b.get_width()) for b in display.bars_] == widths  # largest on top
    assert display.ax_.get_title() == "row 2"
    with pytest.raises(ValueError, match=re.escape("The 'row' parameter of ReasonCodes.plot must be a position "
                                                   "below 3. Got 3 instead.")):
        codes.plot(row=3)
