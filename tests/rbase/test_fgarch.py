"""fGarch's densities (pyale._rbase.fgarch) and the fit objectives (pyale._rbase.ml_objectives)
against R to the bit: the committed fixture (reference/rdist/fgarch.json, made by
scripts/make_fgarch_fixtures.py, which captured R's own optimiser calls), live R, and
SciPy as an independent computation."""

from __future__ import annotations

import json
import math
import os
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from scipy import integrate, special, stats

from pyale._rbase import fgarch, ml_objectives, summaries

FIXTURE = json.loads((Path(__file__).resolve().parents[2] / "reference" / "rdist" / "fgarch.json").read_text())
DENSITIES = {"dsnorm": fgarch.dsnorm, "dged": fgarch.dged, "dstd": fgarch.dstd, "dsged": fgarch.dsged,
             "dsstd": fgarch.dsstd}
FITTERS = {"snorm": "fGarch::snormFit", "ged": "fGarch::gedFit", "std": "fGarch::stdFit", "sged": "fGarch::sgedFit",
           "sstd": "fGarch::sstdFit", "cauchy": "univariateML::mlcauchy", "logis": "univariateML::mllogis"}


def num(values) -> np.ndarray:
    return np.array([float.fromhex(v) for v in values], dtype=float)


def assert_bits_equal(got, want) -> None:
    """Equal to the last bit (any NaN equals any NaN: R's NA and NaN differ only in the payload)."""
    got, want = np.atleast_1d(np.asarray(got, dtype=float)), np.atleast_1d(np.asarray(want, dtype=float))
    assert got.shape == want.shape
    same = (got.view(np.int64) == want.view(np.int64)) | (np.isnan(got) & np.isnan(want))
    bad = np.flatnonzero(~same)
    assert not bad.size, f"{bad.size} of {same.size} differ; first at {bad[:5]}: {got[bad[:5]]!r} vs R {want[bad[:5]]!r}"


# --- the committed fixture ---------------------------------------------------------------------------


def test_fixture_covers_every_family_and_sample():
    assert {case["density"] for case in FIXTURE["densities"].values()} == set(DENSITIES)
    fits = FIXTURE["fits"]
    assert {case["family"] for case in fits.values()} == set(ml_objectives.FAMILIES)
    assert len(fits) == len(ml_objectives.FAMILIES) * len(FIXTURE["inputs"]["samples"])
    assert FIXTURE["meta"]["packages"] == {"fGarch": "4022.89", "univariateML": "1.1.1"}


@pytest.mark.parametrize("key", sorted(FIXTURE["densities"]))
def test_density_equals_r_fixture(key):
    case = FIXTURE["densities"][key]
    got = DENSITIES[case["density"]](num(FIXTURE["inputs"]["grid"]), *num(case["par"]))
    assert_bits_equal(got, num(case["r"]))


@pytest.mark.parametrize("key", sorted(FIXTURE["fits"]))
def test_fit_call_equals_r_fixture(key):
    """Start, bounds, optimiser and the objective at every point, as R's own fitter built them."""
    case = FIXTURE["fits"][key]
    family, y = case["family"], num(FIXTURE["inputs"]["samples"][case["sample"]])
    assert ml_objectives.optimiser(family) == case["optimiser"]
    assert_bits_equal(ml_objectives.start(family, y), num(case["start"]))
    box = ml_objectives.bounds(family)
    if case["optimiser"] == "nlm":
        assert box is None
    else:
        assert_bits_equal(box[0], num(case["lower"]))
        assert_bits_equal(box[1], num(case["upper"]))
    objective = ml_objectives.objective(family, y)
    got = [objective(point) for point in map(num, case["points"])]
    assert_bits_equal(got, num(case["objective"]))


# --- the API -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("call", [ml_objectives.objective, ml_objectives.start])
def test_unknown_family_is_named(call):
    msg = "The 'family' parameter must be one of " + str(ml_objectives.FAMILIES) + ". Got 'norm' instead."
    with pytest.raises(ValueError, match=re.escape(msg)):
        call("norm", [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match=re.escape(msg)):
        ml_objectives.bounds("norm")


def test_objective_keeps_its_own_copy_and_names_short_parameter_vectors():
    y = np.array([0.1, -0.4, 1.3, 2.2, -0.9])
    objective = ml_objectives.objective("sstd", y)
    before = objective([0.0, 1.0, 5.0, 1.2])
    y[:] = 0.0
    assert objective([0.0, 1.0, 5.0, 1.2]) == before
    with pytest.raises(ValueError, match="sstd takes 4 parameters; got 3"):
        objective([0.0, 1.0, 5.0])


def test_estimates_map_the_log_scale_back():
    assert ml_objectives.estimates("cauchy", [0.5, 0.0]) == {"location": 0.5, "scale": 1.0}
    assert ml_objectives.estimates("sged", [0.0, 1.0, 2.0, 1.5]) == {"mean": 0.0, "sd": 1.0, "nu": 2.0, "xi": 1.5}


def test_r_median_is_the_mean_of_the_middle_two():
    assert summaries.r_median([3.0, 1.0, 2.0]) == 2.0
    assert summaries.r_median([4.0, 1.0, 3.0, 2.0]) == 2.5
    assert summaries.r_median([1e308, 1.7e308]) == 1.35e308  # no overflow: R sums in long double


# --- live R ----------------------------------------------------------------------------------------

_CAPTURE = r"""
.fake_nlminb <- function(start, objective, gradient = NULL, hessian = NULL, ..., scale = 1,
    control = list(), lower = -Inf, upper = Inf) {
  .captured <<- list(optimiser = 'nlminb', start = start, objective = objective, dots = list(...),
                     lower = lower, upper = upper); list(par = start, objective = 0) }
.fake_nlm <- function(f, p, ...) {
  .captured <<- list(optimiser = 'nlm', start = p, objective = f, dots = list(...)); list(estimate = p, gradient = p, minimum = 0) }
.swap <- function(e) { if (is.call(e)) { head <- e[[1]]
  if (identical(head, quote(nlminb)) || identical(head, quote(stats::nlminb))) e[[1]] <- quote(.fake_nlminb)
  else if (identical(head, quote(nlm)) || identical(head, quote(stats::nlm))) e[[1]] <- quote(.fake_nlm)
  for (i in seq_along(e)[-1]) if (!identical(e[[i]], quote(expr = )) && !is.null(e[[i]])) e[[i]] <- .swap(e[[i]]) }
  e }
.capture <- function(fun, y) { f <- fun; body(f) <- .swap(body(f)); .captured <<- NULL; suppressWarnings(f(y)); .captured }
"""


@pytest.fixture(scope="module")
def r_fgarch(R):
    """R with fGarch, and univariateML loaded (not attached) from its own library, ``$ALE_R_LIB`` or ~/Rlib-ale."""
    R.require("fGarch")
    library = os.path.expanduser(os.environ.get("ALE_R_LIB", "~/Rlib-ale"))
    found = R(f'isTRUE(suppressWarnings(requireNamespace("univariateML", lib.loc = c({library!r}, .libPaths()), '
              f'quietly = TRUE)))')[0]
    if not found:
        pytest.skip(f"R package 'univariateML' is installed neither in {library} ($ALE_R_LIB) nor in R's libraries")
    attached = R('"package:fGarch" %in% search()')[0]
    R("suppressPackageStartupMessages(library(fGarch))")
    R(_CAPTURE)
    yield R
    _unload_univariate_ml(R)
    if not attached:
        R('detach("package:fGarch")')


def _unload_univariate_ml(R):
    """Leave the shared R session as we found it: while univariateML (outside R's own libraries) stayed loaded,
    a later iml test (tests/results/test_names.py) failed in R with "there is no package called 'univariateML'"."""
    R('if ("univariateML" %in% loadedNamespaces()) unloadNamespace("univariateML")')


@pytest.mark.r
@pytest.mark.parametrize("density", sorted(DENSITIES))
def test_density_equals_live_r(r_fgarch, density):
    import rpy2.robjects as ro

    rng = np.random.default_rng(7)
    x = np.concatenate([rng.standard_t(2, 200) * 3, rng.uniform(-50, 50, 40), [0.0, 1e-200, -1e250]])
    shapes = {"dsnorm": lambda: (np.exp(rng.uniform(-4, 4)),), "dged": lambda: (np.exp(rng.uniform(-3, 4)),),
              "dstd": lambda: (2 + np.exp(rng.uniform(-20, 6)),),
              "dsged": lambda: (np.exp(rng.uniform(-3, 4)), np.exp(rng.uniform(-4, 4))),
              "dsstd": lambda: (2 + np.exp(rng.uniform(-20, 6)), np.exp(rng.uniform(-4, 4)))}
    ro.globalenv["x"] = ro.FloatVector(x)
    for _ in range(12):
        par = (rng.normal(), np.exp(rng.uniform(-10, 5))) + shapes[density]()
        ro.globalenv["par"] = ro.FloatVector(par)
        want = r_fgarch.floats(f"suppressWarnings(do.call({density}, c(list(x), as.list(par))))")
        assert_bits_equal(DENSITIES[density](x, *par), want)


@pytest.mark.r
@pytest.mark.parametrize("family", sorted(FITTERS))
def test_fit_call_equals_live_r(r_fgarch, family):
    """R's own fitter, its optimiser call captured: start, bounds and the objective at random points."""
    import rpy2.robjects as ro

    rng = np.random.default_rng(abs(hash(family)) % 1000)
    y = np.concatenate([rng.standard_t(4, 96) * 1.3 + 0.2, [8.0, -6.5, 0.0, 0.25]])
    ro.globalenv["y"] = ro.FloatVector(y)
    r_fgarch(f"cap <- .capture({FITTERS[family]}, y)")
    start = r_fgarch.floats("cap$start")
    assert_bits_equal(ml_objectives.start(family, y), start)
    assert r_fgarch("cap$optimiser")[0] == ml_objectives.optimiser(family)
    if ml_objectives.bounds(family) is not None:
        assert_bits_equal(ml_objectives.bounds(family)[0], r_fgarch.floats("cap$lower"))
    objective = ml_objectives.objective(family, y)
    points = start * np.exp(0.3 * rng.normal(size=(25, start.size)))
    points[:, 0] = start[0] + rng.normal(size=25)
    ro.globalenv["P"] = ro.r["matrix"](ro.FloatVector(points.ravel()), ncol=start.size, byrow=True)
    want = r_fgarch.floats("apply(P, 1, function(p) suppressWarnings(do.call(cap$objective, c(list(p), cap$dots))))")
    assert_bits_equal([objective(p) for p in points], want)


@pytest.mark.r
@pytest.mark.parametrize("family", sorted(FITTERS))
def test_objective_at_special_values_equals_live_r(r_fgarch, family):
    """Zeros, subnormals, infinities, NaN and values at the bounds in every position: R's NaN/Inf/number."""
    import rpy2.robjects as ro

    size = len(ml_objectives.PARAMETER_NAMES[family])
    rng = np.random.default_rng(11)
    y = rng.standard_t(3, 50)
    special_values = [0.0, -0.0, 1e-320, 0.5, 1.0, 2.0, -1.0, np.inf, -np.inf, np.nan, 1e300, 2 + 1e-15]
    points = np.array([[rng.choice(special_values) if rng.random() < 0.5 else rng.normal() + 1.5
                        for _ in range(size)] for _ in range(150)])
    ro.globalenv["y"] = ro.FloatVector(y)
    ro.globalenv["P"] = ro.r["matrix"](ro.FloatVector(points.ravel()), ncol=size, byrow=True)
    r_fgarch(f"cap <- .capture({FITTERS[family]}, y)")
    want = r_fgarch.floats("apply(P, 1, function(p) suppressWarnings(do.call(cap$objective, c(list(p), cap$dots))))")
    objective = ml_objectives.objective(family, y)
    assert_bits_equal([objective(p) for p in points], want)


# --- an independent computation (SciPy) ------------------------------------------------------------

finite = dict(allow_nan=False, allow_infinity=False)
xs = st.lists(st.floats(-30.0, 30.0, **finite), min_size=1, max_size=15).map(np.array)
means = st.floats(-3.0, 3.0, **finite)
sds = st.floats(0.05, 20.0, **finite)


def _ged_scale(nu: float) -> float:
    """fGarch's GED: exp(-|z/lambda|^nu / 2), i.e. SciPy's gennorm with scale lambda 2^(1/nu)."""
    lam = math.sqrt(2 ** (-2 / nu) * special.gamma(1 / nu) / special.gamma(3 / nu))
    return lam * 2 ** (1 / nu)


def _assert_density_close(got, want):
    """Within 1e-12 relative, widened in the far tail: a density exp(-a) computed two ways carries a
    relative rounding error of about ``a`` ulps (``a`` is 525 at 1e-228), which no formula avoids."""
    got, want = np.asarray(got), np.asarray(want)
    rtol = 1e-12 * np.maximum(1.0, -np.log(np.maximum(want, 1e-300)) / 50)
    assert np.all(np.abs(got - want) <= rtol * np.abs(want) + 1e-300), (got, want)


def test_the_tail_tolerance_still_catches_a_wrong_density():
    # 7.6e-229 (a = 525): the widened tolerance is 1.05e-11 relative, so 1e-10 still fails.
    want = np.array([7.638060537885333e-229])
    _assert_density_close(want * (1 + 1e-12), want)
    with pytest.raises(AssertionError):
        _assert_density_close(want * (1 + 1e-10), want)
    with pytest.raises(AssertionError):
        _assert_density_close(np.array([0.5 * (1 + 1e-11)]), np.array([0.5]))  # no widening near the mode


@settings(max_examples=25, deadline=None, database=None)
@given(xs, means, sds, st.floats(0.3, 20.0, **finite), st.floats(2.2, 100.0, **finite))
def test_symmetric_densities_agree_with_scipy(x, mean, sd, nu_ged, nu_t):
    _assert_density_close(fgarch.dged(x, mean, sd, nu_ged),
                          stats.gennorm.pdf(x, nu_ged, mean, sd * _ged_scale(nu_ged)))
    s = math.sqrt(nu_t / (nu_t - 2))
    _assert_density_close(fgarch.dstd(x, mean, sd, nu_t), stats.t.pdf((x - mean) / sd * s, nu_t) * s / sd)


@settings(max_examples=30, deadline=None, database=None)
@given(xs, means, sds, st.floats(0.2, 5.0, **finite))
def test_skew_normal_agrees_with_its_definition(x, mean, sd, xi):
    # Fernandez-Steel skewing of the standard normal, standardised to mean 0 and sd 1
    m1 = 2 / math.sqrt(2 * math.pi)
    mu = m1 * (xi - 1 / xi)
    sigma = math.sqrt((1 - m1 ** 2) * (xi ** 2 + 1 / xi ** 2) + 2 * m1 ** 2 - 1)
    z = (x - mean) / sd * sigma + mu
    want = 2 / (xi + 1 / xi) * stats.norm.pdf(z / np.where(z >= 0, xi, 1 / xi)) * sigma / sd
    assert_allclose(fgarch.dsnorm(x, mean, sd, xi), want, rtol=1e-12, atol=1e-300)


@pytest.mark.parametrize("density, par", [("dsnorm", (0.3, 1.5, 2.0)), ("dsged", (0.3, 1.5, 1.3, 0.6)),
                                          ("dsstd", (0.3, 1.5, 4.5, 1.7)), ("dged", (0.3, 1.5, 0.8))])
def test_skewed_densities_have_mass_one_mean_and_sd(density, par):
    f = DENSITIES[density]
    moment = [integrate.quad(lambda t, k=k: t ** k * f(np.array([t]), *par)[0], -np.inf, np.inf, limit=400)[0]
              for k in range(3)]
    assert_allclose(moment[0], 1.0, rtol=1e-8)
    assert_allclose(moment[1], par[0], atol=1e-7)
    assert_allclose(moment[2] - moment[1] ** 2, par[1] ** 2, rtol=1e-6)


@settings(max_examples=25, deadline=None, database=None)
@given(st.lists(st.floats(-20.0, 20.0, **finite), min_size=2, max_size=40).map(np.array), means,
       st.floats(-2.0, 2.0, **finite))
def test_cauchy_and_logistic_objectives_agree_with_scipy(y, location, log_scale):
    for family, dist in (("cauchy", stats.cauchy), ("logis", stats.logistic)):
        want = -dist.logpdf(y, location, math.exp(log_scale)).sum()
        assert_allclose(ml_objectives.objective(family, y)([location, log_scale]), want, rtol=1e-12)
