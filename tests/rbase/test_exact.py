"""Exact weight sums (pyale._rbase.exact): the same doubles for any order and any split of the rows,
within a few units in the last place of the true sum (checked with fractions.Fraction)."""

from __future__ import annotations

import re
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyale._rbase.exact import ExactSums, exact_group_sums, exact_prefix_sums, exact_running_sums, exact_total

N_GROUPS = 5

weights_strategy = st.lists(
    st.one_of(
        st.just(0.0),
        st.just(0.1),
        st.floats(min_value=1e-3, max_value=1e3),
        st.integers(0, 10).map(float),
        st.floats(min_value=1e-40, max_value=1e40),
    ),
    min_size=1,
    max_size=60,
)


def _true_sums(groups, weights) -> list:
    out = [Fraction(0)] * N_GROUPS
    for g, w in zip(groups.tolist(), weights.tolist()):
        out[g] += Fraction(w)
    return out


def _near(got: float, exact: Fraction, ulps: int = 2) -> bool:
    value = float(exact)
    return got == value or abs(got - value) <= ulps * np.spacing(value)


@settings(max_examples=300, deadline=None, database=None)
@given(weights=weights_strategy, data=st.data())
def test_sums_do_not_depend_on_order_or_blocks(weights, data):
    w = np.array(weights)
    n = w.shape[0]
    groups = np.array(data.draw(st.lists(st.integers(0, N_GROUPS - 1), min_size=n, max_size=n)))
    whole = exact_group_sums(groups, w, N_GROUPS).rounded()
    order = np.array(data.draw(st.permutations(range(n))))
    cuts = sorted(data.draw(st.lists(st.integers(0, n), max_size=4)))
    parts = [exact_group_sums(groups[p], w[p], N_GROUPS) for p in np.split(order, cuts)]
    blocks = parts[0]
    for part in parts[1:]:
        blocks = blocks + part
    np.testing.assert_array_equal(blocks.rounded(), whole)
    assert all(_near(got, true) for got, true in zip(whole, _true_sums(groups, w)))
    total = exact_total(w).rounded()
    assert total == exact_prefix_sums(w)[-1] == exact_prefix_sums(w[order])[-1]
    assert _near(float(total), sum(map(Fraction, w.tolist()), Fraction(0)))


@settings(max_examples=100, deadline=None, database=None)
@given(weights=weights_strategy)
def test_running_sums_are_near_the_true_ones_and_never_decrease(weights):
    w = np.array(weights)
    running = exact_prefix_sums(w)
    true = np.cumsum(np.array([Fraction(x) for x in w.tolist()], dtype=object))
    assert all(_near(got, exact) for got, exact in zip(running, true))
    assert np.all(np.diff(running) >= 0)


def test_integer_weights_give_the_plain_sums():
    rng = np.random.default_rng(0)
    w = rng.integers(0, 1000, 5000).astype(float)
    groups = rng.integers(0, N_GROUPS, 5000)
    np.testing.assert_array_equal(exact_group_sums(groups, w, N_GROUPS).rounded(),
                                  np.bincount(groups, weights=w, minlength=N_GROUPS))
    np.testing.assert_array_equal(exact_prefix_sums(w), np.cumsum(w))


def test_tenths_where_float_addition_depends_on_the_order():
    w = np.full(30, 0.1)
    assert np.sum(w[:13]) + np.sum(w[13:]) != np.cumsum(w)[-1]  # floats: the split shows in the last bit
    halves = exact_total(w[:13]) + exact_total(w[13:])
    assert halves.rounded() == exact_total(w).rounded() == float(30 * Fraction(0.1))  # exact sums: it does not
    assert exact_prefix_sums(w)[9] == float(10 * Fraction(0.1))


def test_helpers_match_plain_computations():
    w = np.array([0.5, 0.1, 3.0, 0.0, 0.25])
    groups = np.array([0, 1, 1, 2, 0])
    sums = exact_group_sums(groups, w, 3)
    np.testing.assert_array_equal(sums.cumsum(0).rounded(), np.cumsum([0.75, 3.1, 0.0]))
    np.testing.assert_array_equal(sums.exclusive_cumsum().rounded(), [0.0, 0.75, 3.85])
    np.testing.assert_array_equal(sums.positive(), [True, True, False])
    both = ExactSums.concatenate([sums, ExactSums.zeros(2), exact_group_sums(np.array([0]), np.array([1e-9]), 1)])
    np.testing.assert_array_equal(both.rounded(), [0.75, 3.1, 0.0, 0.0, 0.0, 1e-9])
    table = exact_group_sums(np.array([0, 3, 5]), np.array([0.1, 0.2, 0.4]), 6).reshape(2, 3)
    np.testing.assert_array_equal(table.sum(axis=1).rounded(), [0.1, float(Fraction(0.2) + Fraction(0.4))])
    assert exact_running_sums(np.zeros(3)).rounded().tolist() == [0.0, 0.0, 0.0]


def test_weights_too_far_apart_are_refused():
    with pytest.raises(ValueError, match=re.escape("The weights span too many orders of magnitude")):
        exact_total(np.array([1e-300, 1e300]))
