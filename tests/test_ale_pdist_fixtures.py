"""pyale.ALEpDist and ALE(p_values=) against R's ale 0.5.0 and 0.5.3 (reference/ale_pdist, made by
scripts/make_pdist_fixtures.py).  Refits are statsmodels OLS/GLM, which reproduce R's lm/glm to rounding."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose

import pyale
from pyale._rbase.rng import LecuyerCMRG

sm = pytest.importorskip("statsmodels.api")

ROOT = Path(__file__).resolve().parents[1] / "reference" / "ale_pdist"
FILES = sorted(ROOT.glob("*/*.json"))
STATS = ["aled", "aler_min", "aler_max", "naled", "naler_min", "naler_max"]


def _num(values):
    return np.array([float.fromhex(v) if isinstance(v, str) else float(v) for v in values])


def _load(path):
    fixture = json.loads(path.read_text())
    data = pd.DataFrame({k: _num(v) for k, v in fixture["data"].items()})
    return fixture["meta"], fixture["r"], data


def _refit(meta):
    family = sm.families.Binomial() if meta["response"] == "binary" else sm.families.Gaussian()

    def refit(frame):
        X = sm.add_constant(frame.drop(columns="y"), has_constant="add")
        fit = sm.GLM(frame["y"], X, family=family).fit(tol=1e-12) if meta["response"] == "binary" else \
            sm.OLS(frame["y"], X).fit()
        return lambda new: np.asarray(fit.predict(sm.add_constant(new, has_constant="add")))

    return refit


@pytest.fixture(scope="module", params=FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def case(request):
    meta, r, data = _load(request.param)
    refit = _refit(meta)
    model = refit(data)
    dist = pyale.ALEpDist(model, data, "y", refit=refit, rand_it=meta["rand_it"], seed=meta["seed"],
                          surrogate=meta["surrogate"], output_residuals=True)
    return meta, r, data, model, dist


def test_every_case_ran():
    assert len(FILES) == 2 * 5, FILES
    assert {p.parent.name for p in FILES} == {"ale-0.5.0", "ale-0.5.3"}


def test_residuals_and_family(case):
    meta, r, data, model, dist = case
    assert_allclose(dist.residuals[:, 0], _num(r["residuals"]), rtol=0, atol=1e-9)
    fit = dist.residual_distribution
    assert fit.model.replace(" ", "_") == r["family_model"][0]
    assert list(fit.estimates) == r["family_param_names"]
    tol = 1e-8 if fit.exact else 1e-4
    assert_allclose(list(fit.estimates.values()), _num(r["family_params"]), rtol=tol)


def test_random_variables(case):
    meta, r, data, model, dist = case
    for it in (1, 2):
        drawn = dist.residual_distribution.draw(LecuyerCMRG.from_seed(meta["seed"] + it), data.shape[0])
        assert_allclose(drawn, _num(r[f"random_variable.{it}"]), rtol=1e-8 if dist.residual_distribution.exact
                        else 1e-4)


def _rtol(dist):
    """1e-9 where the residual family's parameters are R's to rounding; an optimiser's fit (R's nlm/nlminb)
    is matched only to R's optimiser tolerance, and the random variables scale with its parameters."""
    return 1e-9 if dist.residual_distribution.exact else 1e-4


def test_random_statistics(case):
    meta, r, data, model, dist = case
    assert dist.params["rand_it_ok"] == int(_num(r["rand_it_ok"])[0])
    assert dist.params["exactness"] == r["exactness"][0]
    for stat in STATS:
        assert_allclose(dist.rand_stats["y"][stat].to_numpy(), _num(r[f"rand_stats.{stat}"]), rtol=_rtol(dist),
                        atol=1e-12, err_msg=stat)


def test_p_values_and_summary(case):
    meta, r, data, model, dist = case
    res = pyale.ALE(model, None, data, "y", p_values=dist, boot_it=meta["boot_it"])
    table = res.get(stats="all")
    assert list(table.columns) == ["statistic", "estimate", "p.value", "term", "conf.low", "mean", "median",
                                   "conf.high"]
    assert table["term"].tolist() == r["stats_all.term"]
    assert table["statistic"].tolist() == r["stats_all.statistic"]
    assert_allclose(table["estimate"], _num(r["stats_all.estimate"]), rtol=1e-9, atol=1e-12)
    if dist.residual_distribution.exact:
        np.testing.assert_array_equal(table["p.value"].to_numpy(), _num(r["stats_all.p.value"]))
    else:  # a random statistic within 1e-4 of an estimate could fall on the other side of it
        assert_allclose(table["p.value"].to_numpy(), _num(r["stats_all.p.value"]), rtol=0, atol=0.02)
    assert list(res.y_summary.index) == r["y_summary.rows"]
    assert_allclose(res.y_summary.iloc[:, 0].to_numpy(), _num(r["y_summary.values"]), rtol=_rtol(dist),
                    atol=1e-12)
