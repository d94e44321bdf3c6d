"""R's ``nlm`` (pyale._rbase.nlm): bit for bit against reference/nlm/nlm.json (scripts/make_nlm_fixtures.py,
objectives in scripts/nlm_cases.py) and against live R; plus its arguments, errors and warnings."""

from __future__ import annotations

import json
import math
import re
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyale._rbase.nlm import NlmWarning, nlm

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import nlm_cases  # noqa: E402

FIXTURE = json.loads((ROOT / "reference" / "nlm" / "nlm.json").read_text())
R_CASES = {case["name"]: case for case in FIXTURE["cases"]}
OBJECTIVES = nlm_cases.objectives()
CASES = {name: (objective, start, args) for name, objective, start, args in nlm_cases.CASES}


def _hex(values):
    return np.array([float.fromhex(v) for v in values])


def _run(name):
    """pyale's nlm on a case: (result or the error's message, number of NlmWarnings)."""
    objective, start, args = CASES[name]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", NlmWarning)
        try:
            result = nlm(OBJECTIVES[objective], start, **args)
        except ValueError as exc:
            result = str(exc)
    return result, sum(issubclass(w.category, NlmWarning) for w in caught)


def _assert_equal_to_r(result, warned, minimum, estimate, gradient, code, iterations, r_warnings):
    assert (result.code, result.iterations) == (code, iterations)
    np.testing.assert_array_equal(result.estimate, estimate)
    np.testing.assert_array_equal(result.gradient, gradient)
    assert result.minimum == minimum or (math.isnan(result.minimum) and math.isnan(minimum))
    assert warned == r_warnings  # R warns once per non-finite value evaluated (pyale skips R's extra first call)


def test_every_case_is_in_the_fixture_and_every_code_is_taken():
    assert sorted(R_CASES) == sorted(CASES)
    codes = {case["code"] for case in R_CASES.values() if "code" in case}
    assert codes == {1, 2, 3, 4, 5}
    assert any(case.get("r_warnings") for case in R_CASES.values())
    assert any("error" in case for case in R_CASES.values())


@pytest.mark.parametrize("name", sorted(CASES))
def test_equals_r_fixture_to_the_bit(name):
    want = R_CASES[name]
    result, warned = _run(name)
    if "error" in want:
        assert isinstance(result, str) and want["error"] in result
        return
    _assert_equal_to_r(result, warned, float.fromhex(want["minimum"]), _hex(want["estimate"]),
                       _hex(want["gradient"]), want["code"], want["iterations"], want["r_warnings"])


@pytest.mark.r
@pytest.mark.parametrize("name", sorted(CASES))
def test_equals_live_r_to_the_bit(R, name):
    objective, start, args = CASES[name]
    R(nlm_cases.r_setup(nlm_cases.data()))
    R("nw <- 0L; res <- tryCatch(withCallingHandlers(" + nlm_cases.r_call(objective, start, args)
      + ", warning = function(w) { nw <<- nw + 1L; invokeRestart('muffleWarning') }), error = function(e) e)")
    result, warned = _run(name)
    if R("inherits(res, 'error')")[0]:
        assert isinstance(result, str) and R("conditionMessage(res)")[0] in result
        return
    values = R.floats("c(res$minimum, res$estimate, res$gradient)")
    n = len(start)
    code, iterations, r_warnings = (int(v) for v in R.floats("c(res$code, res$iterations, nw)"))
    _assert_equal_to_r(result, warned, values[0], values[1:1 + n], values[1 + n:], code, iterations, r_warnings)


@pytest.mark.r
@settings(max_examples=25, deadline=None)
@given(st.lists(st.floats(-4, 4, allow_nan=False).map(lambda v: round(v, 3)), min_size=2, max_size=4))
def test_rosenbrock_from_random_starts_equals_live_r(R, start):
    n = len(start)

    def objective(p):
        terms = []
        for i in range(n - 1):
            u = p[i + 1] - p[i] * p[i]
            terms.append(100 * (u * u) + (1 - p[i]) * (1 - p[i]))
        return nlm_cases.r_sum(terms)

    values = R.floats(f"local({{ p <- c({', '.join(repr(v) for v in start)}); "
                      f"res <- nlm(function(p) sum(100*(p[-1]-p[-{n}]^2)^2 + (1-p[-{n}])^2), p); "
                      "c(res$minimum, res$estimate, res$gradient, res$code, res$iterations) })")
    result = nlm(objective, start)
    got = np.concatenate([[result.minimum], result.estimate, result.gradient, [result.code, result.iterations]])
    np.testing.assert_array_equal(got, values)


def test_default_stepmax_is_rs_and_bounds_the_step():
    quad = OBJECTIVES["quadratic"]
    start = [3e5, -4e5]
    default = nlm(quad, start)
    explicit = nlm(quad, start, stepmax=max(1000 * math.sqrt(nlm_cases.r_sum([v * v for v in start])), 1000.0))
    np.testing.assert_array_equal(default.estimate, explicit.estimate)
    assert default.iterations == explicit.iterations
    short = nlm(quad, start, stepmax=1.0, iterlim=1)
    assert short.code == 4 and math.hypot(*(short.estimate - start)) <= 1.0 + 1e-9  # x + step rounds at 4e5


ERRORS = [
    (dict(p=[math.nan, 1.0]), "nlm: missing value in parameter 'p'"),
    (dict(p=[]), "nlm: the 'p' argument must be a non-empty numeric vector."),
    (dict(p=[1.0, 2.0], typsize=[1.0]), "nlm: conflicting parameter lengths: p has 2, typsize has 1."),
    (dict(p=[1.0, 2.0], gradtol=-1.0), "invalid gradient tolerance in nlm: gradtol must be >= 0. Got -1.0 instead."),
    (dict(p=[1.0, 2.0], iterlim=0), "invalid iteration limit in nlm: iterlim must be >= 1. Got 0 instead."),
    (dict(p=[1.0, 2.0], ndigit=0), "minimization function has no good digits in nlm: ndigit must not be 0."),
]


@pytest.mark.parametrize(("kwargs", "message"), ERRORS)
def test_argument_errors(kwargs, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        nlm(OBJECTIVES["quadratic"], **kwargs)


def test_bad_objective_values_and_hessian():
    with pytest.raises(ValueError, match=re.escape("invalid function value in 'nlm' optimizer")):
        nlm(lambda p: np.array([1.0, 2.0]), [1.0, 2.0])
    with pytest.raises(ValueError, match=re.escape("invalid function value in 'nlm' optimizer")):
        nlm(lambda p: "one", [1.0, 2.0])
    with pytest.raises(NotImplementedError, match="hessian=TRUE"):
        nlm(OBJECTIVES["quadratic"], [1.0, 2.0], hessian=True)


def test_nonfinite_values_warn_and_count_as_dbl_max():
    with pytest.warns(NlmWarning, match="NA/Inf replaced by maximum positive value"):
        result = nlm(OBJECTIVES["skew_t_bounded"], [0.5, 2.0, 2.2, 1.5])  # steps beyond nu = 2 give NaN
    assert result.code == 1 and result.estimate[2] > 2 and math.isfinite(result.minimum)


def test_start_and_caller_data_are_not_changed_and_values_are_cached():
    start = np.array([-1.2, 1.0])
    seen = []

    def objective(p):
        seen.append(tuple(p.tolist()))
        p[0] = 99.0  # the objective gets a copy: changing it changes nothing
        return OBJECTIVES["rosenbrock"](np.array(seen[-1]))

    result = nlm(objective, start)
    np.testing.assert_array_equal(start, [-1.2, 1.0])
    assert result.evaluations == len(seen)
    want = R_CASES["rosenbrock_classic"]
    np.testing.assert_array_equal(result.estimate, _hex(want["estimate"]))
    # R's table of the last five points: no point is evaluated twice in a row
    assert all(a != b for a, b in zip(seen, seen[1:]))


@pytest.mark.r
def test_fgarch_sstdfit_with_rs_own_objective_equals_r_to_the_bit(R):
    """fGarch::sstdFit (univariateML's mlsstd): nlm from c(mean(x), sqrt(var(x)), 4, 1) on
    -sum(log(dsstd(x, ...))), NaN where sd, nu or xi leave their range.  With R evaluating that objective,
    pyale's nlm (started from r_mean/r_var) stops where R's does, NaN steps included."""
    from pyale._rbase.summaries import r_mean, r_var

    R.require("fGarch")
    R("suppressPackageStartupMessages(library(fGarch))")
    rng = np.random.default_rng(3)
    nonfinite_seen = 0
    for k in range(4):
        n = int(rng.integers(30, 300))
        x = [rng.standard_t(4, size=n), rng.normal(size=n) * 2, rng.gamma(2, size=n) - 2,
             rng.standard_cauchy(size=n)][k]
        R.ro.globalenv["x_sstd"] = R.ro.FloatVector(x)
        objective_in_r = R("function(p) suppressWarnings(-sum(log(dsstd(x_sstd, p[1], p[2], p[3], p[4]))))")
        want = R.floats("local({ res <- suppressWarnings(sstdFit(x_sstd)); "
                        "c(res$minimum, res$estimate, res$gradient, res$code, res$iterations) })")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", NlmWarning)
            res = nlm(lambda p: float(objective_in_r(R.ro.FloatVector(p))[0]),
                      [r_mean(x), math.sqrt(r_var(x)), 4.0, 1.0])
        nonfinite_seen += sum(issubclass(w.category, NlmWarning) for w in caught)
        got = np.concatenate([[res.minimum], res.estimate, res.gradient, [res.code, res.iterations]])
        np.testing.assert_array_equal(got, want)
    assert nonfinite_seen > 0  # some steps left the parameter range (NaN -> DBL_MAX), as in R
