"""pyale.ALEpDist against R's ale::ALEpDist run live (held-back data and seeds), and R models refitted by R.

R's ``ale`` lives in its own libraries (``$ALE_R_LIB``, default ``~/Rlib-ale``: 0.5.0;
``$ALE053_R_LIB``, default ``~/Rlib-ale053``: 0.5.3); the fixture generator runs it in
a child process.  Each case takes a few minutes of R time (100 refits).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose

import pyale

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))

import make_pdist_fixtures as gen  # noqa: E402
from test_ale_pdist_fixtures import STATS, _num, _refit  # noqa: E402

pytestmark = pytest.mark.r


def _held_back(case, library, *, data_seed, seed):
    """R's answer on a case the fixtures do not hold (skipped without that ale library): meta, r, data."""
    env, default = gen.LIBRARIES[library]
    if not os.path.isdir(os.path.join(os.path.expanduser(os.environ.get(env, default)), "ale")):
        pytest.skip(f"R's ale is not installed in ${env} ({default})")
    with tempfile.TemporaryDirectory() as tmp:
        fixture = gen.run_case(case, library, Path(tmp), data_seed=data_seed, seed=seed)
    data = pd.DataFrame({k: np.asarray(v, dtype=float) for k, v in fixture["data"].items()})
    return fixture["meta"], fixture["r"], data


@pytest.mark.parametrize("library", list(gen.LIBRARIES))
def test_held_back_case_against_r(R, library):
    meta, r, data = _held_back("lm_norm", library, data_seed=9001, seed=11)
    refit = _refit(meta)
    dist = pyale.ALEpDist(refit(data), data, "y", refit=refit, rand_it=meta["rand_it"], seed=meta["seed"])
    assert dist.residual_distribution.model.replace(" ", "_") == r["family_model"][0]
    rtol = 1e-9 if dist.residual_distribution.exact else 1e-4
    for stat in STATS:
        assert_allclose(dist.rand_stats["y"][stat].to_numpy(), _num(r[f"rand_stats.{stat}"]), rtol=rtol, atol=1e-12)


def test_r_model_refitted_by_r_equals_statsmodels_refit(R):
    """refit=None with an R lm: R refits lm(y ~ x1 + x2 + random_variable); the same as an OLS refit."""
    import rpy2.robjects as ro

    from pyale.r import to_r_dataframe

    rng = np.random.default_rng(5)
    data = pd.DataFrame({"x1": rng.normal(size=60), "x2": rng.normal(size=60)})
    data["y"] = 1 + data["x1"] + rng.normal(size=60)
    ro.globalenv["d_pdist"] = to_r_dataframe(data)
    r_model = ro.r("lm(y ~ x1 + x2, data = d_pdist)")
    by_r = pyale.ALEpDist(r_model, data, "y", rand_it=100, seed=3)
    refit = _refit({"response": "gaussian"})
    by_python = pyale.ALEpDist(refit(data), data, "y", refit=refit, rand_it=100, seed=3)
    for stat in STATS:
        assert_allclose(by_r.rand_stats["y"][stat], by_python.rand_stats["y"][stat], rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("library", list(gen.LIBRARIES))
def test_held_back_failing_refits_against_r(R, library):
    """R's random_model_call_string stops on some iterations of a held-back case: the same ones are dropped
    (rand_it_ok) and the statistics of the rest equal R's."""
    import warnings

    from test_ale_pdist_fixtures import PlannedFailure  # noqa: F401 - the refit raises it

    meta, r, data = _held_back("lm_failing_refits", library, data_seed=9003, seed=21)
    refit = _refit({**meta, "fail_above": float(meta["fail_above"])})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        dist = pyale.ALEpDist(refit(data), data, "y", refit=refit, rand_it=meta["rand_it"], seed=meta["seed"])
    assert dist.params["rand_it_ok"] == int(r["rand_it_ok"][0]) < meta["rand_it"]
    assert any("iterations failed" in str(w.message) for w in caught)
    rtol = 1e-9 if dist.residual_distribution.exact else 1e-4
    for stat in STATS:
        assert_allclose(dist.rand_stats["y"][stat].to_numpy(), _num(r[f"rand_stats.{stat}"]), rtol=rtol, atol=1e-12)


@pytest.mark.parametrize("case", ["lm_cauchy", "lm_logistic"])
def test_nlm_families_with_an_r_model_equal_r_to_the_bit(R, case):
    """An R lm (predictions and refits by R): the residuals are R's bits, so pyale's Cauchy/logistic fit (R's
    nlm, ported) gives R's parameters to the bit, and the random statistics follow to rounding."""
    import rpy2.robjects as ro

    from pyale.r import to_r_dataframe

    fixture = json.loads((ROOT / "reference" / "ale_pdist" / "ale-0.5.0" / f"{case}.json").read_text())
    meta, r = fixture["meta"], fixture["r"]
    data = pd.DataFrame({k: _num(v) for k, v in fixture["data"].items()})
    ro.globalenv["d_pdist"] = to_r_dataframe(data)
    r_model = ro.r(meta["r_call"].replace("data = d", "data = d_pdist"))
    dist = pyale.ALEpDist(r_model, data, "y", rand_it=meta["rand_it"], seed=meta["seed"])
    fit = dist.residual_distribution
    assert fit.model.replace(" ", "_") == r["family_model"][0] and fit.exact
    np.testing.assert_array_equal(list(fit.estimates.values()), _num(r["family_params"]))
    for stat in STATS:
        assert_allclose(dist.rand_stats["y"][stat].to_numpy(), _num(r[f"rand_stats.{stat}"]), rtol=1e-12,
                        atol=1e-14)
