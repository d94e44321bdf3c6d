"""Weighted quantile and ECDF rules equal R's rules on the repeated sample (integer weights)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyale._rbase import ecdf_at, quantile_type1, quantile_type7, r_seq
from pyale._rbase.weighted import (
    weighted_ecdf_at,
    weighted_quantile_type7,
    weighted_sample,
    weighted_type1_positions,
)

samples = st.lists(
    st.tuples(st.integers(-5, 5).map(float) | st.floats(-1e3, 1e3, allow_nan=False), st.integers(0, 4)),
    min_size=1, max_size=60,
).filter(lambda rows: any(w > 0 for _, w in rows))


@settings(max_examples=300, deadline=None)
@given(samples, st.integers(1, 45))
def test_weighted_rules_equal_the_repeated_sample(rows, k):
    x = np.array([v for v, _ in rows])
    w = np.array([c for _, c in rows], dtype=float)
    repeated = np.repeat(x, w.astype(int))
    values, cumulative = weighted_sample(x, w)
    for probs in (r_seq(1.0 / k, 1.0, k), r_seq(0.0, 1.0, k + 1)):
        got = values[weighted_type1_positions(cumulative, probs, 1.0)]  # a weight of 1 is one row
        np.testing.assert_array_equal(got, quantile_type1(repeated, probs))
    probes = r_seq(0.0, 1.0, 100)
    np.testing.assert_array_equal(weighted_quantile_type7(values, cumulative, probes), quantile_type7(repeated, probes))
    points = np.concatenate([x, x + 0.5, [-np.inf, np.inf]])
    np.testing.assert_array_equal(weighted_ecdf_at(values, cumulative, points), ecdf_at(repeated, points))


@pytest.mark.parametrize("weights", [[0, 0, 1], [0.5, 0.25, 0.25], [1e-3, 1, 1]])
def test_zero_weights_drop_values_and_fractional_weights_extend(weights):
    values, cumulative = weighted_sample(np.array([3.0, 1.0, 2.0]), np.array(weights, dtype=float))
    assert np.all(np.diff(values) >= 0)
    positions = weighted_type1_positions(cumulative, np.array([0.0, 0.5, 1.0]), min(w for w in weights if w > 0))
    assert values[positions[0]] == values.min() and values[positions[-1]] == values.max()


@settings(max_examples=300, deadline=None)
@given(samples.filter(lambda rows: any(w == 1 for _, w in rows)), st.integers(1, 45),
       st.sampled_from([1 / 3, 0.1, 7.0, 1e-3, 2.0**-20, 1 / 977]))
def test_type1_positions_do_not_change_when_the_weights_are_scaled(rows, k, scale):
    # Type-1 targets are counted in rows of the smallest positive weight: integer weights with a
    # weight of 1 give the repeated rows' quantiles, and so do those weights times any constant,
    # although each scaled weight is rounded (R's tie n * p == j is kept, not missed by an ulp).
    # Weights whose ratios to the smallest are not whole (3 and 4) count fractional rows, where a
    # tie of N * p with a cumulative weight can fall either way once the weights are rounded.
    x = np.array([v for v, _ in rows])
    w = np.array([c for _, c in rows], dtype=float)
    unit = w[w > 0].min()
    values, cumulative = weighted_sample(x, w)
    scaled_values, scaled_cumulative = weighted_sample(x, w * scale)
    for probs in (r_seq(1.0 / k, 1.0, k), r_seq(0.0, 1.0, k + 1)):
        np.testing.assert_array_equal(
            scaled_values[weighted_type1_positions(scaled_cumulative, probs, unit * scale)],
            values[weighted_type1_positions(cumulative, probs, unit)],
        )
    repeated = np.repeat(x, (w / unit).round().astype(int))
    if np.all(w / unit == (w / unit).round()):
        for probs in (r_seq(1.0 / k, 1.0, k), r_seq(0.0, 1.0, k + 1)):
            np.testing.assert_array_equal(
                scaled_values[weighted_type1_positions(scaled_cumulative, probs, unit * scale)],
                quantile_type1(repeated, probs),
            )
