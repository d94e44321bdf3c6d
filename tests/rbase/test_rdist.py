"""R's random variates and univariateML fits (reference/rdist/draws.json, made by
scripts/make_distribution_fixtures.py): pyale._rbase.distributions and pyale._rbase.univariate_ml."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from numpy.testing import assert_allclose
from scipy import special

from pyale._rbase import distributions as D
from pyale._rbase.rng import LecuyerCMRG
from pyale._rbase.univariate_ml import FAMILIES, fit_family, model_select

FIXTURE = json.loads((Path(__file__).resolve().parents[2] / "reference" / "rdist" / "draws.json").read_text())
R = FIXTURE["r"]
DRAWS = {
    "rnorm": lambda g: D.rnorm(g, 200, 0.3, 2),
    "runif": lambda g: D.runif(g, 200, -1, 2),
    "rlogis": lambda g: D.rlogis(g, 200, 0.2, 1.5),
    "rcauchy": lambda g: D.rcauchy(g, 200, 0.2, 1.5),
    "rlaplace": lambda g: D.rlaplace(g, 200, 0.2, 1.5),
    "rgumbel": lambda g: D.rgumbel(g, 200, 0.2, 1.5),
    "rsnorm": lambda g: D.rsnorm(g, 200, 0.2, 1.5, 1.3),
    "rgamma_small": lambda g: D.rgamma(g, 200, 0.5),
    "rgamma": lambda g: D.rgamma(g, 200, 2.5, 2.0),
    "rgamma_large": lambda g: D.rgamma(g, 200, 20.0),
    "rt": lambda g: D.rt(g, 200, 4.5),
    "rged": lambda g: D.rged(g, 200, 0.1, 1.2, 1.7),
    "rstd": lambda g: D.rstd(g, 200, 0.1, 1.2, 6.5),
    "rsged": lambda g: D.rsged(g, 200, 0.1, 1.2, 1.7, 1.2),
    "rsstd": lambda g: D.rsstd(g, 200, 0.1, 1.2, 6.5, 0.9),
}


def _num(values):
    return np.array([float.fromhex(v) for v in values])


def test_every_draw_is_in_the_fixture():
    assert sorted(DRAWS) == sorted(k[len("draw."):] for k in R if k.startswith("draw."))


@pytest.mark.parametrize("name", sorted(DRAWS))
def test_draws_equal_r(name):
    gen = LecuyerCMRG.from_seed(FIXTURE["meta"]["draw_seeds"][name])
    got = np.concatenate([DRAWS[name](gen), D.runif(gen, 3)])  # the state afterwards too
    want = _num(R[f"draw.{name}"])
    # bit for bit, fGarch's draws too: their constants go through nmath's gamma() and beta(), as in R
    np.testing.assert_array_equal(got, want)


def test_qnorm_is_within_an_ulp_of_scipy_and_exact_at_known_points():
    p = np.linspace(1e-12, 1 - 1e-12, 20001)
    assert_allclose(D.qnorm(p), special.ndtri(p), rtol=1e-14, atol=1e-15)
    assert D.qnorm(np.array([0.5]))[0] == 0.0


@pytest.mark.parametrize("sample", ["normal", "laplace", "skewed"])
@pytest.mark.parametrize("family", FAMILIES)
def test_fits_equal_r(sample, family):
    x = _num(R[f"sample.{sample}"])
    want = _num(R[f"fit.{sample}.{family}"])
    fit = fit_family(x, family)
    got = np.array([*fit.estimates.values(), fit.loglik])
    assert fit.exact  # every family is R's closed form, R's iteration or R's optimiser ported step for step
    assert [float(v).hex() for v in got] == [float(v).hex() for v in want]


@pytest.mark.parametrize("sample", ["normal", "laplace", "skewed"])
def test_model_select_picks_rs_family(sample):
    fit = model_select(_num(R[f"sample.{sample}"]))
    assert fit.model == R[f"select.{sample}"][0]


def test_exp_rand_has_the_exponential_mean():
    values = D.exp_rand(LecuyerCMRG.from_seed(1), 20000)
    assert abs(values.mean() - 1) < 4 * 1 / math.sqrt(20000)
