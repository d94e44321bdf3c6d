"""pyale.ALEpDist and ALE(p_values=) against R's ale 0.5.0 and 0.5.3 (reference/ale_pdist, made by
scripts/make_pdist_fixtures.py).  Refits reproduce R's lm (least squares) and glm (glm.fit's iteration).

The residual families R fits with an optimiser (Cauchy, logistic, sstd: nlm; ged, sged, snorm, std: nlminb)
are fitted by pyale with ports of R's objectives and optimisers: on R's residuals they give R's parameters
to the bit (test_optimiser_fit_of_r_residuals_is_rs_to_the_bit).  pyale's refits here (NumPy least squares,
glm.fit's iteration) give residuals within 1e-14 of R's but not R's bits, and an optimiser's stopping rule
turns that into up to its tolerance in the parameters (1e-8 for Cauchy/logistic, 5e-3 for GED's flat shape),
so the rest (draws, random statistics, p-values) is checked exactly on pyale's fit of R's residuals."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose

import pyale
from pyale._frontends.alepkg import pdist as pdist_module
from pyale._frontends.alepkg.surrogate import SurrogateGLM
from pyale._rbase import ml_objectives
from pyale._rbase.rng import LecuyerCMRG
from pyale._rbase.univariate_ml import fit_family

ROOT = Path(__file__).resolve().parents[2] / "reference" / "ale_pdist"
FILES = sorted(ROOT.glob("*/*.json"))
STATS = ["aled", "aler_min", "aler_max", "naled", "naler_min", "naler_max"]
OPTIMISER_FAMILIES = ml_objectives.FAMILIES  # fitted in R by nlm/nlminb, which pyale ports to the bit


def _num(values):
    return np.array([float.fromhex(v) if isinstance(v, str) else float(v) for v in values])


def _load(path):
    fixture = json.loads(path.read_text())
    data = pd.DataFrame({k: _num(v) for k, v in fixture["data"].items()})
    return fixture["meta"], fixture["r"], data


class PlannedFailure(RuntimeError):
    pass


def _refit(meta):
    """R's lm as statsmodels OLS; R's glm(binomial) as glm.fit's own iteration (pyale's surrogate glm, which
    stops where R stops: statsmodels iterates further and lands 1e-8 away).  A case with ``fail_above``
    raises where R's random_model_call_string stops (the random variable's first value above it)."""
    if meta["response"] == "binary":
        return lambda frame: SurrogateGLM(frame, "y", "binomial").predict
    if meta.get("fail_above") is not None:
        threshold = float(_num([meta["fail_above"]])[0])
        plain = _refit({**meta, "fail_above": None})

        def failing(frame):
            if "random_variable" in frame.columns and frame["random_variable"].iloc[0] > threshold:
                raise PlannedFailure("planned failure")
            return plain(frame)

        return failing

    def refit(frame):  # lm's least squares (R's QR and LAPACK's SVD agree to ~1e-14 here)
        X = np.column_stack([np.ones(frame.shape[0]), frame.drop(columns="y").to_numpy(dtype=float)])
        beta = np.linalg.lstsq(X, frame["y"].to_numpy(dtype=float), rcond=None)[0]
        return lambda new: np.column_stack([np.ones(new.shape[0]), new.to_numpy(dtype=float)]) @ beta

    return refit


_RUNS: dict = {}


def _pyale_runs(meta, r, data):
    """pyale's ALEpDist for a case (0.5.0 and 0.5.3 share data and R's answers, so it runs once per case)."""
    key = (meta["case_name"], json.dumps(meta["data_seed"]), tuple(data["y"][:3]))
    if key in _RUNS:
        return _RUNS[key]
    refit = _refit(meta)
    model = refit(data)
    args = dict(refit=refit, rand_it=meta["rand_it"], seed=meta["seed"], surrogate=meta["surrogate"],
                output_residuals=True)
    with warnings.catch_warnings():  # planned failures warn (test_failing_refits_are_dropped_as_r_drops_them)
        warnings.simplefilter("ignore", pdist_module.ALEpDistWarning)
        ours = pyale.ALEpDist(model, data, "y", **args)
    with_r_fit = ours
    family = ours.residual_distribution.family
    if family in OPTIMISER_FAMILIES:
        # pyale's own fit of R's residuals (R's parameters to the bit: test_optimiser_fit_of_r_residuals_...)
        chosen = fit_family(_num(r["residuals"]), family)
        patch = pytest.MonkeyPatch()
        patch.setattr(pdist_module, "model_select", lambda residuals: chosen)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", pdist_module.ALEpDistWarning)
                with_r_fit = pyale.ALEpDist(model, data, "y", **args)
        finally:
            patch.undo()
    _RUNS[key] = (model, ours, with_r_fit)
    return _RUNS[key]


@pytest.fixture(scope="module", params=FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def case(request):
    meta, r, data = _load(request.param)
    model, ours, with_r_fit = _pyale_runs(meta, r, data)
    return meta, r, data, model, ours, with_r_fit


def test_every_case_ran():
    assert len(FILES) == 2 * 9, FILES
    assert {p.parent.name for p in FILES} == {"ale-0.5.0", "ale-0.5.3"}


def test_residuals_and_family(case):
    meta, r, data, model, dist, _ = case
    assert_allclose(dist.residuals[:, 0], _num(r["residuals"]), rtol=0, atol=1e-9)
    fit = dist.residual_distribution
    assert fit.model.replace(" ", "_") == r["family_model"][0]
    assert list(fit.estimates) == r["family_param_names"]
    assert fit.exact
    if fit.family in OPTIMISER_FAMILIES:  # residuals 1e-14 off R's bits: the optimiser stops within its tolerance
        # (measured: Cauchy 2.6e-10, logistic 3.3e-8, GED 5e-10 after lm and 4.8e-3 after glm, its flat shape)
        rtol = 1e-6 if fit.family in ("cauchy", "logis") else 1e-2
        assert_allclose(list(fit.estimates.values()), _num(r["family_params"]), rtol=rtol)
    else:
        # atol: a location that is zero up to rounding (the mean of least-squares residuals, ~1e-16) has no
        # relative precision
        assert_allclose(list(fit.estimates.values()), _num(r["family_params"]), rtol=1e-8, atol=1e-13)


def test_optimiser_fit_of_r_residuals_is_rs_to_the_bit(case):
    meta, r, data, model, dist, _ = case
    family = dist.residual_distribution.family
    if family not in OPTIMISER_FAMILIES:
        pytest.skip(f"R fitted {family!r} without an optimiser")
    fit = fit_family(_num(r["residuals"]), family)
    assert fit.exact
    np.testing.assert_array_equal(list(fit.estimates.values()), _num(r["family_params"]))
    assert fit.loglik == _num(r["family_loglik"])[0]


def test_cauchy_and_logistic_cases_are_there():
    families = {json.loads(path.read_text())["r"]["family_model"][0] for path in FILES}
    assert {"Cauchy", "Logistic"} <= families


def test_random_variables(case):
    meta, r, data, model, _, dist = case
    for it in (1, 2):
        drawn = dist.residual_distribution.draw(LecuyerCMRG.from_seed(meta["seed"] + it), data.shape[0])
        # atol: each draw carries the fitted location's rounding (a residual mean ~1e-16 from R's QR and
        # ~1e-15 from LAPACK's least squares in lm_failing_refits)
        assert_allclose(drawn, _num(r[f"random_variable.{it}"]), rtol=1e-12, atol=1e-14)


def test_random_statistics(case):
    meta, r, data, model, _, dist = case
    assert dist.params["rand_it_ok"] == int(_num(r["rand_it_ok"])[0])
    assert dist.params["exactness"] == r["exactness"][0]
    for stat in STATS:
        assert_allclose(dist.rand_stats["y"][stat].to_numpy(), _num(r[f"rand_stats.{stat}"]), rtol=1e-9,
                        atol=1e-12, err_msg=stat)


def test_p_values_and_summary(case):
    meta, r, data, model, _, dist = case
    res = pyale.ALE(model, None, data, "y", p_values=dist, boot_it=meta["boot_it"])
    table = res.get(stats="all")
    assert list(table.columns) == ["statistic", "estimate", "p.value", "term", "conf.low", "mean", "median",
                                   "conf.high"]
    assert table["term"].tolist() == r["stats_all.term"]
    assert table["statistic"].tolist() == r["stats_all.statistic"]
    assert_allclose(table["estimate"], _num(r["stats_all.estimate"]), rtol=1e-9, atol=1e-12)
    np.testing.assert_array_equal(table["p.value"].to_numpy(), _num(r["stats_all.p.value"]))
    assert list(res.y_summary.index) == r["y_summary.rows"]
    assert_allclose(res.y_summary.iloc[:, 0].to_numpy(), _num(r["y_summary.values"]), rtol=1e-9,
                    atol=1e-12)


@pytest.mark.parametrize("library", ["ale-0.5.0", "ale-0.5.3"])
def test_failing_refits_are_dropped_as_r_drops_them(library):
    """R's random_model_call_string stops on 13 of 130 iterations: R keeps the other 117 (rand_it_ok) with
    their own random variables; pyale drops the same iterations, warns, and keeps the same statistics."""
    meta, r, data = _load(ROOT / library / "lm_failing_refits.json")
    refit = _refit(meta)
    with pytest.warns(pdist_module.ALEpDistWarning, match=re.escape("13 of 130 iterations failed")) as caught:
        dist = pyale.ALEpDist(refit(data), data, "y", refit=refit, rand_it=meta["rand_it"], seed=meta["seed"])
    assert "PlannedFailure: planned failure" in str(caught[0].message)
    assert dist.params["rand_it_ok"] == int(_num(r["rand_it_ok"])[0]) == 117
    assert dist.params["rand_it"] == 130 and dist.params["exactness"] == r["exactness"][0] == "approx"


def test_too_few_successful_refits_stop_as_in_r():
    """R aborts below 100 successful iterations ('p-values are invalid'); so does pyale, naming the failures."""
    meta, r, data = _load(ROOT / "ale-0.5.0" / "lm_failing_refits.json")
    refit = _refit(meta)
    message = "11 of 110 iterations failed; only 99 were valid. With fewer than 100 successful iterations"
    with pytest.raises(ValueError, match=re.escape(message)) as info:
        pyale.ALEpDist(refit(data), data, "y", refit=refit, rand_it=110, seed=meta["seed"])
    assert isinstance(info.value.__cause__, PlannedFailure)


def test_inverted_probabilities_carry_their_p_values(case):
    """ale 0.5.3's invert_probs() on an ALE with p_values: each statistic keeps its p-value (moving with its
    row when minima and maxima swap), the distribution is inverted once (invert_probs_p), and reverting with
    force leaves it inverted, as R does.  R refuses (as pyale does) when y_summary's ALER rows leave [0, 1],
    so only glm_binomial_invert (600 rows) has these tables."""
    meta, r, data, model, _, dist = case
    if "inverted.stats_all.term" not in r:
        assert meta["r_library"] == "ale-0.5.0" or meta["case_name"] != "glm_binomial_invert"
        return
    res = pyale.ALE(model, None, data, "y", p_values=dist, boot_it=meta["boot_it"])
    inverted = pyale.invert_probs(res)
    reverted = pyale.invert_probs(inverted, force=True)
    for prefix, obj in (("inverted", inverted), ("reverted", reverted)):
        table = obj.get(stats="all")
        assert table["term"].tolist() == r[f"{prefix}.stats_all.term"]
        assert table["statistic"].tolist() == r[f"{prefix}.stats_all.statistic"]
        assert_allclose(table["estimate"], _num(r[f"{prefix}.stats_all.estimate"]), rtol=1e-9, atol=1e-12)
        np.testing.assert_array_equal(table["p.value"].to_numpy(), _num(r[f"{prefix}.stats_all.p.value"]))
        assert obj.p_values.params["probs_inverted"] is True
        for stat in STATS:
            assert_allclose(obj.p_values.rand_stats["y"][stat].to_numpy(), _num(r[f"{prefix}.rand_stats.{stat}"]),
                            rtol=1e-9, atol=1e-12, err_msg=f"{prefix} {stat}")
    assert "probs_inverted" not in dist.params  # the original is not changed
