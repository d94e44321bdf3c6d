"""R's nmath functions (pyale._rbase.nmath) against R to the bit: the committed fixture
(reference/rdist/fgarch.json, made by scripts/make_fgarch_fixtures.py), live R on fresh
arguments, and SciPy as an independent computation."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from scipy import special, stats

from pyale._rbase import nmath

FIXTURE = json.loads((Path(__file__).resolve().parents[2] / "reference" / "rdist" / "fgarch.json").read_text())


def num(values) -> np.ndarray:
    """Hex strings (Python's float.hex or R's sprintf('%a')) as float64."""
    return np.array([float.fromhex(v) for v in values], dtype=float)


def assert_bits_equal(got, want) -> None:
    """Equal to the last bit (any NaN equals any NaN: R's NA and NaN differ only in the payload)."""
    got, want = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
    assert got.shape == want.shape
    same = (got.view(np.int64) == want.view(np.int64)) | (np.isnan(got) & np.isnan(want))
    bad = np.flatnonzero(~same)
    assert not bad.size, f"{bad.size} of {same.size} differ; first at {bad[:5]}: {got[bad[:5]]!r} vs R {want[bad[:5]]!r}"


def evaluate(name: str, x: np.ndarray, pos: np.ndarray) -> np.ndarray:
    """pyale's value of the fixture's case ``name`` (the R call is stored beside it)."""
    kind, *params = name.split(":")
    p = [float(v) for v in params]
    q = pos[::-1]
    table = {
        "gamma": lambda: [nmath.gammafn(v) for v in x],
        "lgamma": lambda: [nmath.lgammafn(v) for v in x],
        "beta": lambda: [nmath.beta(a, b) for a, b in zip(pos, q)],
        "lbeta": lambda: [nmath.lbeta(a, b) for a, b in zip(pos, q)],
        "beta_half": lambda: [nmath.beta(0.5, b) for b in pos],
        "exp": lambda: nmath.exp(x),
        "log": lambda: nmath.log(x),
        "dnorm": lambda: nmath.dnorm(x),
        "dnorm_ms": lambda: nmath.dnorm(x, 0.3, 2.5),
        "dnorm_log": lambda: nmath.dnorm(x, 0.3, 2.5, give_log=True),
        "dt": lambda: nmath.dt(x, p[0]),
        "dt_log": lambda: nmath.dt(x, p[0], give_log=True),
        "dcauchy_log": lambda: nmath.dcauchy(x, p[0], p[1], give_log=True),
        "dlogis_log": lambda: nmath.dlogis(x, p[0], p[1], give_log=True),
        "dlogis": lambda: nmath.dlogis(x, p[0], p[1]),
        "pow": lambda: nmath.pow(x, p[0]),
    }
    return np.asarray(table[kind](), dtype=float)


CASES = sorted(FIXTURE["nmath"])


def test_fixture_covers_every_function():
    kinds = {name.split(":")[0] for name in CASES}
    assert kinds == {"gamma", "lgamma", "beta", "lbeta", "beta_half", "exp", "log", "dnorm", "dnorm_ms", "dnorm_log",
                     "dt", "dt_log", "dcauchy_log", "dlogis_log", "dlogis", "pow"}
    assert FIXTURE["meta"]["generator"] == "scripts/make_fgarch_fixtures.py"
    assert FIXTURE["meta"]["r_version"].startswith("R version 4.2.2")


@pytest.mark.parametrize("name", CASES)
def test_equals_r_fixture(name):
    x, pos = num(FIXTURE["inputs"]["x"]), num(FIXTURE["inputs"]["pos"])
    assert_bits_equal(evaluate(name, x, pos), num(FIXTURE["nmath"][name]["r"]))


# --- scalar corner cases whose answers R documents ---------------------------------------------


def test_gamma_corner_cases():
    assert math.isnan(nmath.gammafn(0.0)) and math.isnan(nmath.gammafn(-3.0)) and math.isnan(nmath.gammafn(-math.inf))
    assert nmath.gammafn(171.7) == math.inf and nmath.gammafn(-171.2) == 0.0
    # R's gamma(0.5) is one ulp above sqrt(pi) (the Chebyshev series), and so is pyale's
    assert nmath.gammafn(5.0) == 24.0 and nmath.gammafn(0.5) == float.fromhex("0x1.c5bf891b4ef6bp+0")
    assert nmath.lgammafn(-2.0) == math.inf and nmath.lgammafn(-math.inf) == math.inf


def test_r_pow_special_cases():
    # R_POW: x^2 is x*x; 1^y and x^0 are 1 even for NaN; 0^y by sign of y; (-Inf)^y only for integer y
    assert nmath.r_pow(1.0, math.nan) == 1.0 and nmath.r_pow(math.nan, 0.0) == 1.0
    assert nmath.r_pow(0.0, -1.0) == math.inf and nmath.r_pow(-0.0, 3.0) == 0.0
    assert nmath.r_pow(-math.inf, 3.0) == -math.inf and math.isnan(nmath.r_pow(-math.inf, 0.5))
    assert math.isnan(nmath.r_pow(-2.0, 0.5)) and math.isnan(nmath.r_pow(-0.5, math.inf))
    assert nmath.r_pow(-10.0, 309.0) == -math.inf and nmath.r_pow(10.0, 309.0) == math.inf
    assert_bits_equal(nmath.pow(np.array([0.0, 1.0, -0.0, math.inf, -math.inf, math.nan]), -1.0),
                      [math.inf, 1.0, math.inf, 0.0, 0.0, math.nan])


def test_libm_helpers_give_c_answers_where_math_raises():
    assert_bits_equal(nmath.log(np.array([0.0, -1.0, math.inf])), [-math.inf, math.nan, math.inf])
    assert_bits_equal(nmath.exp(np.array([1000.0, -1000.0])), [math.inf, 0.0])
    assert_bits_equal(nmath.log1p(np.array([-1.0, -2.0])), [-math.inf, math.nan])


# --- live R ---------------------------------------------------------------------------------------


@pytest.mark.r
@pytest.mark.parametrize("seed", [0, 1])
def test_equals_live_r(R, seed):
    """Every fixture case on the fixture's arguments (seed 0) and on fresh ones (seed 1), through rpy2."""
    import rpy2.robjects as ro

    if seed == 0:
        x, pos = num(FIXTURE["inputs"]["x"]), num(FIXTURE["inputs"]["pos"])
    else:
        rng = np.random.default_rng(seed)
        x = np.concatenate([rng.uniform(-40, 40, 150), np.exp(rng.uniform(-20, 6, 150)),
                            rng.integers(-20, 60, 40) / 2.0])
        pos = np.exp(rng.uniform(-8, 8, 150))
    ro.globalenv["x"], ro.globalenv["pos"] = ro.FloatVector(x), ro.FloatVector(pos)
    R("q <- rev(pos)")
    for name in CASES:
        assert_bits_equal(evaluate(name, x, pos), R.floats(FIXTURE["nmath"][name]["r_call"]))


# --- an independent computation (SciPy) -------------------------------------------------------------

finite = dict(allow_nan=False, allow_infinity=False)


@settings(max_examples=60, deadline=None, database=None)
@given(st.floats(0.01, 170.0, **finite))
def test_gamma_agrees_with_scipy(x):
    # above 10 R computes exp((x - 0.5) log(x) - x + ...): the exponent's rounding, about x log(x) eps,
    # becomes the relative error (1.5e-13 at x = 158.6), R's own accuracy, which pyale repeats bit for bit
    assert_allclose(nmath.gammafn(x), special.gamma(x), rtol=max(1e-13, 4e-16 * x * math.log(x)))
    assert_allclose(nmath.lgammafn(x), special.gammaln(x), rtol=1e-13, atol=1e-14)


@settings(max_examples=60, deadline=None, database=None)
@given(st.floats(0.05, 500.0, **finite), st.floats(0.05, 500.0, **finite))
def test_beta_agrees_with_scipy(a, b):
    # atol: SciPy's betaln is the less accurate one near lbeta = 0 (betaln(193, 0.25) is 2.4e-13 off
    # mpmath's value; R's, and so pyale's, 1.9e-16)
    assert_allclose(nmath.lbeta(a, b), special.betaln(a, b), rtol=1e-13, atol=1e-12)
    # R's beta is gamma(a) gamma(b) / gamma(a + b) (each as accurate as the test above) below a + b = 171.6,
    # exp(lbeta(a, b)) above (relative error about |lbeta| eps): R's accuracy, repeated here bit for bit
    spread = abs(special.gammaln(a)) + abs(special.gammaln(b)) + abs(special.gammaln(a + b))
    assert_allclose(nmath.beta(a, b), special.beta(a, b), rtol=max(1e-13, 4e-16 * spread))


@settings(max_examples=40, deadline=None, database=None)
@given(st.lists(st.floats(-60.0, 60.0, **finite), min_size=1, max_size=20), st.floats(0.5, 100.0, **finite))
def test_densities_agree_with_scipy(x, df):
    x = np.array(x)
    # df <= 100: above, SciPy's t.pdf is the less accurate one and drifts with df (t.pdf(0, 300) is 1.3e-13
    # off mpmath's value, t.pdf(0, 1594) 1e-12; R's dt, and so pyale's, 1e-16)
    assert_allclose(nmath.dt(x, df), stats.t.pdf(x, df), rtol=1e-13, atol=1e-300)
    assert_allclose(nmath.dt(x, df, give_log=True), stats.t.logpdf(x, df), rtol=1e-13, atol=1e-13)
    assert_allclose(nmath.dnorm(x, 0.5, 2.0), stats.norm.pdf(x, 0.5, 2.0), rtol=1e-13, atol=1e-300)
    assert_allclose(nmath.dcauchy(x, 0.5, 2.0, give_log=True), stats.cauchy.logpdf(x, 0.5, 2.0), rtol=1e-13)
    assert_allclose(nmath.dlogis(x, 0.5, 2.0, give_log=True), stats.logistic.logpdf(x, 0.5, 2.0), rtol=1e-13)


@settings(max_examples=60, deadline=None, database=None)
@given(st.floats(1e-3, 1e6, **finite), st.lists(st.floats(0.5, 1.5, **finite), min_size=1, max_size=30))
def test_vectorised_bd0_equals_r_one_element_at_a_time(x, ratios):
    """bd0 sums its series for all elements until all have converged; each must equal R's own stopping point."""
    np_values = x * np.array(ratios)
    assert_bits_equal(nmath.bd0(x, np_values), [nmath.bd0(x, float(v)) for v in np_values])
