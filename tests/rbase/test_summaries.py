"""R's long double ``sum``, ``mean`` and ``var``: against exact rational arithmetic and live R."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from pyale._rbase.summaries import r_mean, r_sum, r_var

FINITE = st.floats(min_value=-1e12, max_value=1e12, allow_nan=False, allow_infinity=False)


def test_sum_keeps_the_bits_a_double_sum_loses():
    # 1 + 2^-60 exists in R's 80-bit accumulator and not in a double
    assert r_sum([1.0, 2.0 ** -60, -1.0]) == 2.0 ** -60
    assert math.fsum([1.0, 2.0 ** -60, -1.0]) == 2.0 ** -60
    assert sum([1.0, 2.0 ** -60, -1.0]) == 0.0


@settings(max_examples=200, deadline=None)
@given(arrays(np.float64, st.integers(2, 60), elements=FINITE))
def test_summaries_are_within_a_rounding_of_the_exact_values(x):
    exact_sum = sum(Fraction(v) for v in x.tolist())
    n = x.shape[0]
    # a long double running sum errs by at most n * 2^-64 of the absolute sum, far below one double ulp mostly
    bound = Fraction(n) * Fraction(2) ** -63 * sum(abs(Fraction(v)) for v in x.tolist())
    assert abs(Fraction(r_sum(x)) - exact_sum) <= bound + Fraction(math.ulp(float(exact_sum))) / 2
    exact_mean = exact_sum / n
    assert abs(Fraction(r_mean(x)) - exact_mean) <= bound / n + Fraction(math.ulp(float(exact_mean)))
    exact_var = sum((Fraction(v) - exact_mean) ** 2 for v in x.tolist()) / (n - 1)
    assert math.isclose(r_var(x), float(exact_var), rel_tol=1e-12, abs_tol=1e-300)


def test_inputs_are_not_changed():
    x = np.array([0.1, 0.2, 0.3])
    before = x.copy()
    r_sum(x), r_mean(x), r_var(x)
    np.testing.assert_array_equal(x, before)


@pytest.mark.r
def test_summaries_equal_live_r_to_the_bit(R):
    rng = np.random.default_rng(20261126)
    samples = [rng.standard_cauchy(size=int(n)) * 10.0 ** int(rng.integers(-5, 5)) + rng.normal() * 1e3
               for n in rng.integers(2, 400, size=30)]
    for x in samples:
        values = "c(" + ",".join(float(v).hex() for v in x) + ")"
        R(f"pyale_v <- {values}")
        got = R.floats("c(sum(pyale_v), mean(pyale_v), var(pyale_v))")
        assert [float(g).hex() for g in got] == [float(v).hex() for v in (r_sum(x), r_mean(x), r_var(x))]
