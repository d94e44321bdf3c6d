"""R's ``ale::ModelBoot`` (ale 0.5.0 and 0.5.3, reference/modelboot) against ``pyale.ModelBoot``.

Each fixture's data is rebuilt from its seed, the model refitted by
statsmodels (``scripts/modelboot_cases.py``), and ``pyale.ModelBoot`` run
with R's arguments.  Checked: the rows of every resample (exactly), each
refit's coefficients, ``model_stats`` (glance and the .632 measures),
``model_coefs``, ``get()`` for every term (``"single"`` and ``"boot"``) and the
statistics tables.  With ``replicate_r_bugs=True`` every number equals R's;
by default everything equals R's except what R's rounded ceilings and its
categorical centring change (docs/deviations.md), which is checked to differ.
``check_modelboot`` is reused by the live tests.
"""

from __future__ import annotations

import json
import math
import sys
import warnings
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal

import pyale
from pyale._frontends.alepkg.boot import ModelBootWarning

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import modelboot_cases  # noqa: E402

FIXTURE_DIR = ROOT / "reference" / "modelboot"
FILES = sorted(FIXTURE_DIR.glob("ale-*/*.json"))
CASES = {case.name: case for case in modelboot_cases.CASES}
# Terms whose refit curves R computes wrongly in a case (rounded ceilings: x2 has full doubles; g's centring)
R_BUG_TERMS = {"lm_three_kinds": {"x2", "g"}, "lm_ale_p": {"x2", "g"}, "lm_ale_p_auto": {"x2", "g"},
               "lm_failing_refits": {"x2", "g"}}


def _number(v):
    if v is None:
        return math.nan
    if isinstance(v, str):
        return {"Inf": math.inf, "-Inf": -math.inf, "NaN": math.nan}[v]
    return float(v)


def _floats(values) -> np.ndarray:
    return np.array([_number(v) for v in values], dtype=float)


@lru_cache(maxsize=None)
def case_pdist(name: str, data_seed=None, boot_seed=None):
    """The case's ``ale_p`` (R's ``ALEpDist(fit, train, rand_it = , seed = )``), or None."""
    case = modelboot_cases.with_seeds(CASES[name], data_seed, boot_seed)
    if not case.ale_p:
        return None
    if case.ale_p.get("auto"):
        return "auto"  # R's default: ModelBoot makes a surrogate ALEpDist itself
    data = modelboot_cases.make_data(case.data, case.seed, case.n)
    model = modelboot_cases.statsmodels_fit(case, data)
    return pyale.ALEpDist(model, data, "y", refit=modelboot_cases.statsmodels_random_refit(case),
                          rand_it=case.ale_p["rand_it"], seed=case.ale_p["seed"])


@lru_cache(maxsize=None)
def run_case(name: str, replicate_r_bugs: bool, data_seed=None, boot_seed=None):
    """``pyale.ModelBoot`` on the case (with other seeds for held-back variants)."""
    case = modelboot_cases.with_seeds(CASES[name], data_seed, boot_seed)
    data = modelboot_cases.make_data(case.data, case.seed, case.n)
    model = modelboot_cases.statsmodels_fit(case, data)
    with warnings.catch_warnings():  # planned failures (lm_failing_refits) warn; check_modelboot counts them
        warnings.simplefilter("ignore", ModelBootWarning)
        return pyale.ModelBoot(model, data, modelboot_cases.statsmodels_refit(case, data), boot_it=case.boot_it,
                               seed=case.boot_seed, boot_alpha=case.boot_alpha, boot_centre=case.boot_centre,
                               ale_options=dict(case.ale_options), output_boot_data=True,
                               ale_p=case_pdist(name, data_seed, boot_seed), replicate_r_bugs=replicate_r_bugs)


def _compare_frame(actual: pd.DataFrame, expected: dict, rtol: float, what: str) -> None:
    assert list(actual.columns) == expected["columns"], what
    for column in expected["columns"]:
        values = expected["values"][column]
        got = actual[column]
        if values and isinstance(values[0], str) and not (values[0] in ("NaN", "Inf", "-Inf")):
            assert [str(v) for v in got] == values, f"{what}: {column}"
        elif column == ".n":
            assert_array_equal(got.to_numpy(dtype=np.int64), np.array(values, dtype=np.int64), err_msg=what)
        else:
            assert_allclose(got.to_numpy(dtype=float), _floats(values), rtol=rtol, atol=1e-12,
                            equal_nan=True, err_msg=f"{what}: {column}")


def check_modelboot(fixture: dict, mb, *, rtol: float, skip_terms=frozenset()) -> None:
    """Every table of ``fixture`` (a generated ModelBoot fixture) against ``mb``, except ``skip_terms``' curves."""
    case = fixture["case"]
    rows = np.stack([np.asarray(r) for r in mb.boot_data["row_idxs"]])
    assert_array_equal(rows, np.array(fixture["rows"]))
    for it, tidy in enumerate(fixture["tidy"]):
        if tidy is not None:
            _compare_frame(mb.boot_data["tidy"][it][["term", "estimate"]], tidy, rtol, f"tidy of iteration {it}")
    _compare_frame(mb.model_stats, fixture["model_stats"], rtol, "model_stats")
    _compare_frame(mb.model_coefs, fixture["model_coefs"], rtol, "model_coefs")
    assert mb.ale["single"].terms == fixture["terms"]
    for kind, tables in fixture["effects"].items():
        for term, table in tables.items():
            if kind == "boot" and term in skip_terms:
                continue
            _compare_frame(mb.get(term, type=kind), table, rtol, f"get({term!r}, type={kind!r})")
    for kind, dims in fixture["stats"].items():
        for dim, table in dims.items():
            got = mb.get(stats="all", type=kind, simplify=False)[dim]
            if kind == "boot" and skip_terms:
                keep = ~got["term"].isin(skip_terms).to_numpy()
                got = got[keep].reset_index(drop=True)
                table = {"columns": table["columns"],
                         "values": {c: [v for v, k in zip(vals, keep) if k] for c, vals in table["values"].items()}}
            _compare_frame(got, table, rtol, f"get(stats='all', type={kind!r})[{dim!r}]")
    assert case["boot_it"] == mb.boot_it
    # refits R skipped (its model NULL): pyale skipped the same ones, and left them out of every table
    failed = [it for it, model in zip(mb.boot_data["it"], mb.boot_data["model"]) if model is None]
    assert failed == fixture["failed"]
    if mb.ale is not None and "boot" in mb.ale:
        assert mb.ale["boot"].n_replicates == case["boot_it"] - len(failed)
    # R's y_summary of the full-data ALE (with ale_p: the random variables' ALER rows among its quantiles)
    summary = mb.ale["single"].y_summary
    assert list(summary.index) == fixture["y_summary"]["rows"]
    ale_p = fixture.get("ale_p")
    if ale_p:
        assert mb.ale_p.params["rand_it_ok"] == ale_p["rand_it_ok"]
        assert mb.ale_p.params["exactness"] == ale_p.get("exactness", mb.ale_p.params["exactness"])
        # univariateML's fits are R's to the bit for the same residuals; statsmodels' residuals are R's to
        # ~1e-14, which cannot change the family AIC picks
        assert mb.ale_p.residual_distribution.model == ale_p["family"]
    # the ALER rows come from the ALEpDist: R's statistics to 1e-9 where the residual family is a closed form;
    # an optimiser's fit of residuals a few ulps off R's moves by up to its tolerance (docs/deviations.md)
    family = ale_p["family"] if ale_p else "Normal"
    tolerance = rtol if family in ("Normal", "Laplace", "Uniform", "Gumbel") else (
        1e-6 if family in ("Cauchy", "Logistic") else 1e-2)
    if ale_p:
        _compare_frame(mb.ale_p.rand_stats["y"], ale_p["rand_stats"], tolerance, "ale_p rand_stats")
    assert_allclose(summary.iloc[:, 0].to_numpy(dtype=float), _floats(fixture["y_summary"]["values"]),
                    rtol=tolerance, atol=1e-12, err_msg="y_summary")


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_fixture_with_r_bugs(path):
    fixture = json.loads(path.read_text())
    mb = run_case(fixture["case"]["name"], True)
    check_modelboot(fixture, mb, rtol=fixture["meta"]["rtol"])


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_fixture_by_default(path):
    """Without the switch, only the curves R gets wrong differ (and they do differ)."""
    fixture = json.loads(path.read_text())
    name = fixture["case"]["name"]
    mb = run_case(name, False)
    wrong = R_BUG_TERMS.get(name, set())
    check_modelboot(fixture, mb, rtol=fixture["meta"]["rtol"], skip_terms=wrong)
    for term in wrong:
        expected = _floats(fixture["effects"]["boot"][term]["values"][".y_mean"])
        assert not np.allclose(mb.get(term)[".y_mean"].to_numpy(dtype=float), expected, rtol=1e-6), term


def test_every_fixture_ran():
    versions = {p.parent.name for p in FILES}
    assert versions == {"ale-0.5.0", "ale-0.5.3"}
    for version in versions:
        assert {p.stem for p in FILES if p.parent.name == version} == set(CASES)


def test_releases_agree():
    """ale 0.5.3 changed nothing that ModelBoot computes: its fixtures equal 0.5.0's, number for number."""
    for name in CASES:
        a, b = (json.loads((FIXTURE_DIR / v / f"{name}.json").read_text()) for v in ("ale-0.5.0", "ale-0.5.3"))
        a.pop("meta"), b.pop("meta")
        assert a == b, name
