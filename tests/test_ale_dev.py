"""The options of ``ale``'s development version: ``fct_order``, ``aled_fun``, per-column ``max_num_bins``.

Replays ``reference/ale_dev`` (``scripts/make_ale_dev_fixtures.py``: R's
``ale`` development build, commit in each fixture) and checks the options'
definitions independently.  Live: marked ``r``, skipped without the
development build in ``~/Rlib-ale-dev`` (``$ALE_R_LIB_DEV``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pyale
from pyale._core.conventions.alepkg import ALE_PACKAGE, response_level_order
from pyale._core.stats import aled, aled_sd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))

import ale_dev_cases  # noqa: E402
from subprocess_env import child_env  # noqa: E402
from test_modelboot_fixtures import _compare_frame  # noqa: E402

FILES = sorted((ROOT / "reference" / "ale_dev").glob("*.json"))
CASES = {case.name: case for case in ale_dev_cases.CASES}


def dev_bins(data: pd.DataFrame, column, ale_levels: tuple) -> list | None:
    """The bin (index into ``ale_levels``) the development version gives each row of ``column``, or None
    where it is each row's own level.

    Its ``prep_var_for_ale`` takes ``idx = match(ale_levels, levels)`` (``levels``: the factor's levels, or a
    text column's values in order of first appearance) and gives a row whose value is the ``c``-th of
    ``levels(factor(x))`` (the factor's levels; text sorted) the bin ``idx[c]``, where its own level's bin is
    ``match(value, ale_levels)``: the two agree only when ``idx`` is its own inverse and, for text, the
    first appearances are in sorted order (docs/deviations.md).
    """
    values = data[column]
    if isinstance(values.dtype, pd.CategoricalDtype):
        present = set(values.astype(str))  # R's droplevels() before the match
        listed = coded = [str(v) for v in values.cat.categories if str(v) in present]
    else:
        listed = [str(v) for v in pd.unique(values)]
        coded = sorted(listed)
    idx = [listed.index(v) for v in ale_levels]
    rows = [idx[coded.index(str(v))] for v in values]
    own = [ale_levels.index(str(v)) for v in values]
    return None if rows == own else rows


def _run(case, **overrides):
    data = ale_dev_cases.make_data(case.seed, case.n, case.text, case.unused)
    options = dict(fct_order=case.fct_order, aled_fun=case.aled_fun, max_num_bins=case.max_num_bins)
    options.update(overrides)
    return pyale.ALE(None, list(case.x_cols), data, "y", pred_fun=ale_dev_cases.py_model, **options)


#: Data seeds no committed fixture uses (live tests).
HELD_BACK_SEEDS = (7, 2718)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_development_version_numbers(path):
    fixture = json.loads(path.read_text())
    assert re.fullmatch(r"[0-9a-f]{40}", fixture["meta"]["ale_dev_commit"])
    check_fixture(fixture)


def check_fixture(fixture):
    """pyale.ALE with the fixture's options equals R's development version, except in the terms where the
    development version bins rows by another level (:func:`dev_bins`); there R's counts are those of its
    wrong bins, and pyale's those of each level."""
    case = replace(CASES[fixture["case"]["name"]], seed=fixture["case"]["seed"])
    data = ale_dev_cases.make_data(case.seed, case.n, case.text, case.unused)
    res = _run(case)
    if "error" in fixture:  # "ksd" of a text column: R's levels() of it is NULL, so it orders no level
        assert case.text and case.fct_order == "ksd" and "subscript out of bounds" in fixture["error"]
        got = res.get("s", ale_centre="zero")  # pyale orders text as ale 0.5.x does, each row in its own level
        assert sorted(got["s.bin"]) == ["p", "q", "r"]
        assert list(got[".n"]) == [int((data["s"] == v).sum()) for v in got["s.bin"]]
        return {}
    wrong = {}
    for name, kind in res.feature_types.items():
        if kind == "categorical":
            rows = dev_bins(data, name, tuple(str(v) for v in res.bins[name]))
            if rows is not None:
                wrong[name] = rows
    rtol = fixture["meta"]["rtol"]
    for term, table in fixture["effects"].items():
        got = res.get(term, ale_centre="zero")
        if term in wrong:
            levels = [str(v) for v in res.bins[term]]
            assert list(got[f"{term}.bin"]) == table["values"][f"{term}.bin"]
            assert table["values"][".n"] == np.bincount(wrong[term], minlength=len(levels)).tolist()
            assert list(got[".n"]) == [int((data[term].astype(str) == v).sum()) for v in levels]
        elif not set(term.split(":")) & set(wrong):
            _compare_frame(got, table, rtol, f"get({term!r})")
    for dim, table in fixture["stats"].items():
        keep = [i for i, t in enumerate(table["values"]["term"]) if not set(t.split(":")) & set(wrong)]
        expected = {"columns": table["columns"], "values": {c: [v[i] for i in keep] for c, v in table["values"].items()}}
        got = res.get(stats="all", simplify=False)[dim]
        got = got[~got["term"].map(lambda t: bool(set(str(t).split(":")) & set(wrong)))].reset_index(drop=True)
        _compare_frame(got, expected, rtol, f"stats {dim}")
    return wrong


def test_where_the_development_version_is_wrong():
    """The committed cases where its binning differs: the text column only (every factor order there is its own
    inverse); the held-back live seeds also find the factor (orders that are not their own inverse: "ksd"
    at seed 7, "y_col" and the per-column case at seed 2718)."""
    found = {p.stem: sorted(check_fixture(json.loads(p.read_text()))) for p in FILES}
    assert found == {"dev_levels": [], "dev_y_col": [], "dev_ksd": [], "dev_sd_bins": [], "dev_text": ["s"],
                     "dev_text_ksd": [], "dev_unused_level": []}


def test_every_case_recorded():
    assert {p.stem for p in FILES} == set(CASES)


def test_defaults_are_released_ale():
    case = CASES["dev_ksd"]
    default = _run(case, fct_order="ksd", aled_fun="mad", max_num_bins=10)
    plain = pyale.ALE(None, list(case.x_cols), ale_dev_cases.make_data(case.seed, case.n), "y",
                      pred_fun=ale_dev_cases.py_model)
    assert default.equals(plain)
    assert ALE_PACKAGE.default_fct_order == "ksd" and ALE_PACKAGE.default_aled_fun == "mad"
    assert "fct_order" not in repr(plain) and "aled_fun" not in repr(plain)
    other = _run(case, aled_fun="sd")
    assert not other.equals(plain) and "aled_fun='sd'" in repr(other)
    assert "fct_order={'default': 'levels', 'except': {'f': 'y_col'}}" in repr(_run(CASES["dev_sd_bins"]))


def test_order_changes_a_non_additive_effect():
    case = CASES["dev_levels"]
    levels, by_y = _run(case, fct_order="levels"), _run(case, fct_order="y_col")
    assert levels.bins["f"] == ("a", "b", "c", "d") and levels.bins["f"] != by_y.bins["f"]
    a = levels.get("f", ale_centre="zero").set_index("f.bin")[".y"]
    b = by_y.get("f", ale_centre="zero").set_index("f.bin")[".y"]
    assert not np.allclose(a.sort_index(), b.sort_index())


def test_y_col_order_is_mean_response_order():
    case = CASES["dev_y_col"]
    data = ale_dev_cases.make_data(case.seed, case.n)
    means = data.groupby("f", observed=True)["y"].mean().sort_values()
    assert _run(case).bins["f"] == tuple(means.index)


def test_per_column_max_num_bins():
    case = CASES["dev_sd_bins"]
    res = _run(case)
    assert len(res.bins["x"]) <= 8 and len(res.bins["z"]) == 5
    assert len(_run(case, max_num_bins=5).bins["x"]) == 5


def test_aled_sd_is_root_mean_square():
    case = CASES["dev_levels"]
    mad, sd = _run(case), _run(case, aled_fun="sd")
    table = mad.get("f", ale_centre="zero")
    y, n = table[".y"].to_numpy(float), table[".n"].to_numpy(float)
    centred = y - np.sum(y * n) / n.sum()
    got = sd.get(stats="all", simplify=False)["d1"].set_index(["term", "statistic"])
    assert got.loc[("f", "aled"), "estimate"] == pytest.approx(np.sqrt(np.sum(centred ** 2 * n) / n.sum()), rel=1e-12)
    # ALER does not depend on the deviation function
    ranges = mad.get(stats="all", simplify=False)["d1"].set_index(["term", "statistic"])
    assert got.loc[("f", "aler_max"), "estimate"] == ranges.loc[("f", "aler_max"), "estimate"]


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(-8000, 8000).map(lambda k: k / 8), min_size=1, max_size=12), st.data())
def test_sd_at_least_mad(values, data):
    v = np.array(values)[:, None]
    w = np.array(data.draw(st.lists(st.integers(1, 20), min_size=len(values), max_size=len(values))), float)
    assert aled_sd(v, w)[0] >= aled(v, w)[0] * (1 - 1e-12)  # the quadratic mean is at least the mean


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=1, max_size=30), st.data())
def test_response_order_sorts_means(codes, data):
    codes = np.array(codes)
    y = np.array(data.draw(st.lists(st.integers(-3, 3), min_size=len(codes), max_size=len(codes))), float)
    order = response_level_order(codes, 5, y)
    assert sorted(order.tolist()) == list(range(5))
    present = [k for k in order if (codes == k).any()]
    means = [y[codes == k].mean() for k in present]
    assert means == sorted(means)
    for i in range(len(present) - 1):  # ties in order of first appearance
        if means[i] == means[i + 1]:
            assert np.argmax(codes == present[i]) < np.argmax(codes == present[i + 1])


def test_options_are_checked():
    case = CASES["dev_levels"]
    with pytest.raises(ValueError, match="The 'fct_order' parameter of ALE must be one of 'levels', 'y_col', 'ksd'. "
                                         "Got 'mds' instead."):
        _run(case, fct_order="mds")
    with pytest.raises(ValueError, match="The 'aled_fun' parameter of ALE must be one of 'mad', 'sd'. Got 'mean'"):
        _run(case, aled_fun="mean")
    with pytest.raises(ValueError, match=re.escape("names columns that are not in 'data' as exceptions: ['w']")):
        _run(case, max_num_bins={"default": 5, "except": {"w": 3}})
    with pytest.raises(ValueError, match=re.escape("The \"max_num_bins['except']['x']\" parameter of ALE must be a "
                                                   "whole number >= 2. Got 1 instead.")):
        _run(case, max_num_bins={"default": 5, "except": {"x": 1}})
    with pytest.raises(ValueError, match="per-column form must be a dict with the keys 'default'"):
        _run(case, fct_order={"except": {"f": "y_col"}})


def _dev_library() -> str:
    return os.path.expanduser(os.environ.get("ALE_R_LIB_DEV", "~/Rlib-ale-dev"))


@pytest.mark.r
@pytest.mark.parametrize("seed", HELD_BACK_SEEDS)
def test_live_development_build(R, tmp_path, seed):
    if shutil.which("Rscript") is None:
        pytest.skip("Rscript is not on PATH")
    if not (Path(_dev_library()) / "ale" / "DESCRIPTION").exists():
        pytest.skip(f"ale's development build is not installed in {_dev_library()} (set ALE_R_LIB_DEV to its "
                    "library; it needs ale 0.5.3's dependencies, $ALE_R_LIB_053 or ~/Rlib-ale053)")
    env = child_env()
    env["ALE_DEV_COMMIT"] = "0" * 40  # not recorded: these files are thrown away
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "make_ale_dev_fixtures.py"), "--out", str(tmp_path),
                           "--seed", str(seed)], capture_output=True, text=True, env=env, timeout=900)
    assert done.returncode == 0, done.stderr
    files = sorted(tmp_path.glob("*.json"))
    assert {p.stem for p in files} == set(CASES)
    for path in files:
        check_fixture(json.loads(path.read_text()))


def test_to_results_keeps_the_deviation():
    case = CASES["dev_levels"]
    res = _run(case, aled_fun="sd")
    table = res.get(stats="estimate", simplify=False)["d1"]
    for result, term in zip(res.to_results(), res.terms[:4]):
        assert float(result.statistics.loc["aled", "estimate"]) == pytest.approx(
            float(table.set_index("term").loc[term, "aled"]), rel=1e-12)


def test_modelboot_passes_the_options_to_every_refit():
    smf = pytest.importorskip("statsmodels.formula.api")
    case = CASES["dev_levels"]
    data = ale_dev_cases.make_data(case.seed, case.n).drop(columns=["s"])
    model = smf.ols("y ~ x * f + z", data).fit()
    options = {"x_cols": ["x", "f"], "fct_order": "levels", "aled_fun": "sd", "max_num_bins": {"default": 4}}
    mb = pyale.ModelBoot(model, data, boot_it=2, seed=3, ale_options=options)
    single = mb.ale["single"]
    assert single.bins["f"] == ("a", "b", "c", "d") and len(single.bins["x"]) <= 4
    plain = pyale.ALE(model, ["x", "f"], data, "y", fct_order="levels", aled_fun="sd", max_num_bins=4)
    assert single.equals(plain, rtol=1e-12)
    mad = pyale.ModelBoot(model, data, boot_it=2, seed=3, ale_options={**options, "aled_fun": "mad"})
    sd_stats = mb.get(stats="all", simplify=False)["d1"].set_index(["term", "statistic"])["estimate"]
    mad_stats = mad.get(stats="all", simplify=False)["d1"].set_index(["term", "statistic"])["estimate"]
    assert (sd_stats.xs("aled", level="statistic") > mad_stats.xs("aled", level="statistic")).all()
    assert np.allclose(sd_stats.xs("aler_max", level="statistic"), mad_stats.xs("aler_max", level="statistic"))
