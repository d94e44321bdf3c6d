"""pyale.materiality: statistics and intervals as ALEResult.statistics gives them, rank intervals, coverage."""

from __future__ import annotations

import json
import re
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pyale
from pyale._verdicts.materiality import rank_intervals


@pytest.fixture(scope="module")
def results():
    rng = np.random.default_rng(5)
    n = 300
    X = pd.DataFrame({"a": rng.normal(size=n), "b": rng.normal(size=n), "c": rng.normal(size=n),
                      "g": rng.choice(list("pqr"), n)})

    def model(d):
        return 3 * d["a"] + d["b"] * (1 + 0.3 * d["c"]) + 0.1 * d["c"] + (d["g"] == "q") * d["a"]

    return pyale.ale(model, X, ["a", "b", "c", "g", ("g", "a")], n_intervals=6, n_bootstrap=100, random_state=0)


@pytest.mark.parametrize("stat", ["aled", "naled"])
def test_statistics_and_intervals_are_those_of_the_results(results, stat):
    table = pyale.materiality(results, stat=stat, level=0.05).table
    for row in table.itertuples():
        result = next(r for r in results if " x ".join(r.features) == row.feature)
        expected = result.statistics.loc[stat]  # ci at the results' ci_level 0.95
        assert row.estimate == pytest.approx(expected["estimate"], rel=1e-12)
        assert (row.ci_low, row.ci_high) == pytest.approx((expected["ci_low"], expected["ci_high"]), rel=1e-12)
    assert table["estimate"].is_monotonic_decreasing
    assert table["rank"].tolist() == list(range(1, len(table) + 1))
    assert table["feature"].iloc[0] == "a"


def plain_rank_intervals(s, sb, level):
    p, B = len(s), sb.shape[0]
    pairs = [(j, k) for j in range(p) for k in range(p) if j != k]
    se = {(j, k): np.std(sb[:, j] - sb[:, k], ddof=1) for j, k in pairs}
    largest = [max(abs((sb[b, j] - sb[b, k]) - (s[j] - s[k])) / se[j, k] for j, k in pairs) for b in range(B)]
    c = np.sort(largest)[int(np.ceil((1 - level) * (B - 1)))]
    above = {(j, k): s[j] - s[k] - c * se[j, k] > 0 for j, k in pairs}
    low = [1 + sum(above[k, j] for k in range(p) if k != j) for j in range(p)]
    high = [p - sum(above[j, k] for k in range(p) if k != j) for j in range(p)]
    return low, high


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 5).flatmap(lambda p: st.tuples(
    st.lists(st.floats(0, 3), min_size=p, max_size=p),
    st.lists(st.lists(st.floats(-0.5, 0.5), min_size=p, max_size=p), min_size=30, max_size=30),
    st.sampled_from([0.05, 0.1, 0.3]))))
def test_rank_intervals_match_a_plain_computation_and_hold_the_rank(data):
    s, noise, level = np.array(data[0]), np.array(data[1]), data[2]
    sb = s + noise + 1e-3 * np.arange(30)[:, None] * np.arange(len(s))  # every difference varies
    low, high = rank_intervals(s, sb, level)
    assert (low.tolist(), high.tolist()) == plain_rank_intervals(s, sb, level)
    rank = 1 + (s[None, :] > s[:, None]).sum(axis=1)
    assert np.all(low <= rank) and np.all(rank <= high)
    wider_low, wider_high = rank_intervals(s, sb, level / 2)
    assert np.all(wider_low <= low) and np.all(wider_high >= high)


def test_rank_intervals_cover_the_true_ranks():
    """Three effects with known population ALEDs in the order a > b > c (close ones): the simultaneous
    rank intervals hold all three true ranks in at least about 1 - level of the data sets."""
    rng = np.random.default_rng(11)
    level, runs, covered = 0.1, 25, 0

    def model(d):
        a, b, c, z = (d[k].to_numpy() for k in "abcz")
        return 1.0 * a + 0.9 * b + 0.5 * c + (a + b + c) * z

    for _ in range(runs):
        X = pd.DataFrame({k: rng.uniform(size=200) for k in "abc"} | {"z": rng.normal(size=200)})
        table = pyale.materiality(pyale.ale(model, X, list("abc"), n_intervals=5, n_bootstrap=100,
                                            random_state=rng), level=level).table.set_index("feature")
        truth = {"a": 1, "b": 2, "c": 3}
        covered += all(table.loc[f, "rank_low"] <= r <= table.loc[f, "rank_high"] for f, r in truth.items())
    assert covered / runs >= 1 - level - 3 * np.sqrt(level * (1 - level) / runs)


def test_to_dict_plot_and_repr(results):
    import matplotlib

    matplotlib.use("Agg")
    found = pyale.materiality(results)
    assert json.loads(json.dumps(found.to_dict()))["rows"][0]["feature"] == "a"
    display = found.plot()
    assert len(display.rank_labels_) == len(found.table)
    ticks = dict(zip(display.ax_.get_yticks(), [t.get_text() for t in display.ax_.get_yticklabels()]))
    assert ticks[max(ticks)] == "a" and ticks[min(ticks)] == found.table["feature"].iloc[-1]  # largest on top
    assert repr(found).startswith("Materiality(stat='aled', a=")
    assert found.replicates.shape == (100, len(results))


def test_plot_draws_an_interval_that_does_not_hold_the_estimate_whole(results):
    # A percentile interval may lie beside the estimate; its bar was clipped at the estimate
    # (a shorter interval than the table's).  It is drawn from its own middle now.
    import dataclasses

    import matplotlib

    matplotlib.use("Agg")
    found = pyale.materiality(results)
    table = found.table.copy()
    table["ci_low"], table["ci_high"] = table["estimate"] + 1.0, table["estimate"] + 3.0
    display = dataclasses.replace(found, table=table).plot()
    ends = np.sort([[s[0][0], s[1][0]] for s in display.errorbars_.lines[2][0].get_segments()], axis=0)
    np.testing.assert_allclose(np.sort(ends[:, 0]), np.sort(table["ci_low"]), rtol=1e-12)
    np.testing.assert_allclose(np.sort(ends[:, 1]), np.sort(table["ci_high"]), rtol=1e-12)


ERRORS = [
    ("bad stat", dict(stat="aler"), ValueError,
     "The 'stat' parameter of materiality must be one of ['aled', 'naled']. Got 'aler' instead."),
    ("bad level", dict(level=0), ValueError, "The 'level' parameter of materiality must be a number in (0, 1)."),
]


@pytest.mark.parametrize("case, kwargs, error, message", ERRORS, ids=[e[0] for e in ERRORS])
def test_errors(results, case, kwargs, error, message):
    with pytest.raises(error, match=re.escape(message)):
        pyale.materiality(results, **kwargs)


def test_replicates_must_pair_up():
    X = pd.DataFrame({"a": np.linspace(0, 1, 50), "b": np.linspace(1, 0, 50) ** 2})
    one = pyale.ale(lambda d: d["a"] + d["b"], X, "a", n_intervals=3, n_bootstrap=40, random_state=0)
    two = pyale.ale(lambda d: d["a"] + d["b"], X, "b", n_intervals=3, n_bootstrap=50, random_state=0)
    with pytest.raises(ValueError, match=re.escape("carry different numbers of bootstrap replicates ([40, 50])")):
        pyale.materiality([one, two])
    with pytest.raises(ValueError, match="materiality needs bootstrap replicates"):
        pyale.materiality(pyale.ale(lambda d: d["a"], X, "a", n_intervals=3))


def test_a_two_valued_numeric_feature_is_warned_about():
    # Before: a 0/1 numeric column got ALED 0 (one interval: its mid-value is the centring constant) and was
    # silently ranked last, however large its effect.
    rng = np.random.default_rng(5)
    X = pd.DataFrame({"a": rng.normal(size=200), "flag": rng.integers(0, 2, 200)})
    model = lambda d: 0.1 * d["a"] + 5.0 * d["flag"].astype(int)  # noqa: E731
    numeric = pyale.ale(model, X, ["a", "flag"], n_bootstrap=30, random_state=0)
    with pytest.warns(UserWarning, match=re.escape("the numeric effect of 'flag' has a single interval")):
        table = pyale.materiality(numeric, level=0.1).table
    assert table.set_index("feature").loc["flag", "estimate"] == 0.0
    categorical = pyale.ale(model, X.assign(flag=X["flag"].astype("category")), ["a", "flag"], n_bootstrap=30,
                            random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ranked = pyale.materiality(categorical, level=0.1).table
    assert ranked["feature"].tolist() == ["flag", "a"]
