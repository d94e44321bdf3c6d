"""pyale.regional with a nominal (unordered) categorical feature: effector's all-pairs criterion.

effector 0.6.0 scores a nominal feature's heterogeneity by comparing every
pair of levels (``_heter_nominal_pairs``); the replay of its fixtures is in
``test_regional_effector.py`` (the ``nominal_*`` cases).  Here: the
criterion against its closed form, its independence of the level order,
weights, and which columns are nominal.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

import pyale
from pyale._regional.criterion import pair_heterogeneity

TABLE = {"a": 0.0, "b": 2.0, "c": -1.0, "d": 3.0}


def _data(n, seed, levels="abcd"):
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"g": rng.choice(list(levels), n), "x2": rng.uniform(-1, 1, n),
                         "x3": rng.uniform(-1, 1, n)})


def _model(d):
    """A level effect from TABLE, its sign set by x2 < 0, times (1 + x3^2); plus x3."""
    value = d["g"].map(TABLE).astype(float).to_numpy()
    return np.where(d["x2"] < 0, -1.0, 1.0) * value * (1 + d["x3"].to_numpy() ** 2) + d["x3"].to_numpy()


def _closed_form(d):
    """H^2 = sum over pairs a < b of w_a w_b Var(s (T_b - T_a)) over the rows at a or b, s the row's factor."""
    factor = np.where(d["x2"] < 0, -1.0, 1.0) * (1 + d["x3"].to_numpy() ** 2)
    g = d["g"].to_numpy()
    levels = sorted(set(g))
    share = {v: np.mean(g == v) for v in levels}
    total = 0.0
    for i, a in enumerate(levels):
        for b in levels[i + 1:]:
            rows = (g == a) | (g == b)
            total += share[a] * share[b] * np.var(factor[rows] * (TABLE[b] - TABLE[a]))
    return np.sqrt(total)


def test_root_heterogeneity_is_the_closed_form_and_order_free():
    X = _data(400, 1)
    res = pyale.regional(_model, X, "g")
    assert res.scale == 1.0
    assert_allclose(res.regions[0].heterogeneity, _closed_form(X), rtol=1e-12)
    reordered = pyale.regional(_model, X, "g", level_order=["d", "b", "a", "c"])
    assert [r.rule for r in reordered.regions] == [r.rule for r in res.regions]
    assert_allclose([r.heterogeneity for r in reordered.regions], [r.heterogeneity for r in res.regions],
                    rtol=1e-12, atol=1e-15)
    assert reordered.leaves[0].result.grid[0] == ("d", "b", "a", "c")  # curves follow the order given
    for leaf in res.leaves:  # every leaf: its own rows' closed form, and its curve is their ALE
        assert_allclose(leaf.heterogeneity, _closed_form(X[leaf.mask]), rtol=1e-10, atol=1e-12)
        order = list(leaf.result.grid[0])
        direct = pyale.ale(_model, X[leaf.mask], "g", level_order=order)
        assert_allclose(leaf.result.effects, direct.effects, rtol=1e-12, atol=1e-12)


def test_split_finds_the_sign_and_stops_where_the_effect_is_fixed():
    X = _data(600, 2)
    X["x3"] = 0.0  # the factor is then +-1: the split on x2 leaves nothing
    res = pyale.regional(_model, X, "g")
    assert [leaf.conditions[-1].column for leaf in res.leaves] == ["x2", "x2"]
    assert all(leaf.heterogeneity < 1e-12 for leaf in res.leaves)


def test_ordered_is_ordinal_and_feature_type_overrides():
    X = _data(300, 3)
    nominal = pyale.regional(_model, X, "g")
    ordered = X.assign(g=pd.Categorical(X["g"], categories=list("abcd"), ordered=True))
    ordinal = pyale.regional(_model, ordered, "g")
    assert ordinal.scale != 1.0  # the level ranks' spread: the ordinal rule
    forced = pyale.regional(_model, ordered, "g", feature_type="nominal")
    assert_allclose(forced.regions[0].heterogeneity, nominal.regions[0].heterogeneity, rtol=1e-12)
    back = pyale.regional(_model, X, "g", feature_type="ordinal", level_order=list("abcd"))
    assert_allclose(back.regions[0].heterogeneity, ordinal.regions[0].heterogeneity, rtol=1e-12)
    with pytest.raises(ValueError, match=re.escape("The 'feature_type' parameter of regional must be one of "
                                                   "['auto', 'nominal', 'ordinal']. Got 'interval' instead.")):
        pyale.regional(_model, X, "g", feature_type="interval")


def test_integer_weights_are_repeated_rows():
    X = _data(150, 4)
    weights = np.random.default_rng(5).integers(1, 4, X.shape[0])
    weighted = pyale.regional(_model, X, "g", sample_weight=weights, min_samples_leaf=20)
    repeated = pyale.regional(_model, X.loc[X.index.repeat(weights)].reset_index(drop=True), "g",
                              min_samples_leaf=20)
    assert [r.rule for r in weighted.regions] == [r.rule for r in repeated.regions]
    assert_allclose([r.heterogeneity for r in weighted.regions], [r.heterogeneity for r in repeated.regions],
                    rtol=1e-10, atol=1e-13)
    assert [r.size for r in weighted.regions] == [r.size for r in repeated.regions]


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 40), st.integers(2, 5), st.integers(0, 2**31))
def test_criterion_matches_effectors_pairs(n, k, seed):
    """effector's formula written as its loops: per pair, the differences of the rows at either level."""
    rng = np.random.default_rng(seed)
    at_levels = rng.normal(size=(n, k))
    ranks = rng.integers(0, k, n)
    share = np.bincount(ranks, minlength=k) / n
    total = 0.0
    for a in range(k):
        for b in range(a + 1, k):
            if share[a] * share[b] > 0:
                rows = (ranks == a) | (ranks == b)
                total += share[a] * share[b] * (at_levels[rows, b] - at_levels[rows, a]).var()
    assert_allclose(pair_heterogeneity(at_levels, ranks), np.sqrt(total), rtol=1e-12, atol=1e-15)
    # one level only: nothing to compare
    assert pair_heterogeneity(at_levels, np.zeros(n, dtype=np.int64)) == 0.0
