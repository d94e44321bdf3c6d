"""pyale.ALE against R's ale 0.5.0: every fixture in reference/ale replayed through ALE(...).get(...).

Each fixture's call is rerun with the fixture's model (a closed-form twin or
R's recorded answers) and compared stage by stage: feature types, bins and
level orders, counts (exact), the response summary, every effect table
(``.y``, ``.y_lo``, ``.y_mean``, ``.y_median``, ``.y_hi``; rtol 1e-9), every
bootstrap replicate's curve (NaN where R has NA), the statistics with their
intervals, and ``get(stats = "estimate")``.  Terms R gets wrong (fixture
metadata ``known_faults``) are compared with the right values of the plain
re-computation instead, and R's misalignment applied to pyale's curves must
give R's.  ``pyale.ale(conventions="ale")`` gives the same effects.
``check_ale`` is reused by the live tests on held-back seeds.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal

import pyale
from pyale._frontends.alepkg.tables import r_level_labels

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))

from test_ale_pkg_fixtures import (  # noqa: E402
    FILES, _centre, _close, _same_stats, _same_table, droplevels, frame, load, response_values,
)
from test_ale_pkg_reference import curves_of, misalign_like_r, model_of  # noqa: E402

RAN: set[str] = set()


def pred_fun_of(fx: dict):
    """R's pred_fun for the fixture: the closed-form twin, or R's recorded answers replayed."""
    cats = fx["intermediates"]["y_cats"]
    model = model_of(fx, cats)
    y_col = fx["call"]["y_col"]

    def pred_fun(object, newdata, type):  # noqa: A002 - R's argument names
        out = model(newdata.drop(columns=[y_col], errors="ignore"))
        return pd.DataFrame(out, columns=cats) if len(cats) > 1 else out[:, 0]

    return pred_fun


def run_ale(fx: dict, **override) -> pyale.ALE:
    call = fx["call"]
    arguments = dict(pred_fun=pred_fun_of(fx), pred_type=call["pred_type"], max_num_bins=call["max_num_bins"],
                     boot_it=call["boot_it"], boot_alpha=call["boot_alpha"], boot_centre=call["boot_centre"],
                     seed=call["seed"])
    arguments.update(override)
    x_cols = None if call["x_cols"] == ["d1"] else call["x_cols"]
    return pyale.ALE(None, x_cols, frame(fx["data"]), call["y_col"], **arguments)


def _expected_curves(fx: dict, term: str, cat: str, shape: tuple) -> np.ndarray:
    """R's centred curves of a term (full data first, then replicates), from the fixture."""
    tables = fx["tables"][term]["categories"][cat]
    if fx["call"]["boot_it"]:
        boot = frame(tables["boot_data"])
        k = int(boot[".it"].max()) + 1
        return np.stack([r.reshape(shape, order="F") for r in boot[".y"].to_numpy(float).reshape(k, -1)])
    got = frame(tables["get"])[".y"].to_numpy(float) - _centre(fx, cat)
    return got.reshape(shape, order="F")[None]


def check_ale(fx: dict, name: str, **override) -> None:
    """Every stage of one fixture through pyale.ALE."""
    call, inter = fx["call"], fx["intermediates"]
    faults = fx["meta"]["known_faults"]
    res = run_ale(fx, **override)
    data = droplevels(frame(fx["data"]))
    values = response_values(fx, data)
    cats = inter["y_cats"]

    # --- terms, types, bins, the response
    assert res.terms == fx["terms"]["d1"] + fx["terms"]["d2"], name
    assert res.ordered_x_cols == inter["ordered_x_cols"], name
    assert res.y_cats == cats and res.y_type == inter["y_type"], name
    for feature, expected in inter["features"].items():
        assert res.feature_types[feature] == expected["type"], (name, feature)
        if expected["type"] == "numeric":
            assert_array_equal(res.bins[feature], expected["ceilings"])
        else:
            assert r_level_labels(list(res.bins[feature])) == expected["bins"], (name, feature)
    ys = inter["y_summary"]
    assert list(res.y_summary.index) == ys["rows"] and list(res.y_summary.columns) == ys["columns"]
    assert_allclose(res.y_summary.to_numpy(), np.array(ys["values"]), rtol=1e-13, atol=0)

    for ci, cat in enumerate(cats):
        floor = 1e-10 * float(np.max(np.abs(values[:, ci] - np.median(values[:, ci]))))
        for term, entry in fx["tables"].items():
            label = f"{name}[{term}][{cat}]"
            features = [inter["features"][n] for n in term.split(":")]
            shape = tuple(f["n_bins"] for f in features)
            table = res.get(term, cats=cat)
            expected_table = frame(entry["categories"][cat]["get"])
            mine = res.curves(term if ":" not in term else tuple(term.split(":")), cat)
            assert mine.shape == (1 + call["boot_it"],) + shape, label
            if term in faults:
                # R is wrong here: pyale's curves are the right ones, and R's are pyale's misaligned
                right = curves_of(fx, term, cats, r_misaligned=False)[ci]
                assert_array_equal(np.isnan(mine), np.isnan(right), err_msg=label)
                assert_allclose(mine, right, rtol=1e-9, atol=floor, err_msg=label)
                everyone = [res.curves(tuple(term.split(":")), c) for c in cats]
                parts = _r_parts(fx, term, cats)
                shown = misalign_like_r(everyone, parts)[ci]
                assert_allclose(shown, _expected_curves(fx, term, cat, shape), rtol=1e-9, atol=floor, err_msg=label)
                assert table[".n"].tolist() == expected_table[".n"].tolist()
                continue
            _same_table(table, expected_table, label, floor)
            expected = _expected_curves(fx, term, cat, shape)
            assert_array_equal(np.isnan(mine), np.isnan(expected), err_msg=label)
            _close(mine.ravel(), expected.ravel(), label, "curves", floor)

        # --- statistics (R's by dimension; rows of faulty terms left out)
        every = res.get(stats="all", cats=cat, simplify=False)
        for dim, stats in fx["stats"]["by_category"][cat].items():
            expected = frame(stats)
            keep = ~expected["term"].isin(list(faults)).to_numpy()
            got = every[dim]
            got_keep = ~got["term"].isin(list(faults)).to_numpy()
            _same_stats(got[got_keep].reset_index(drop=True), expected[keep].reset_index(drop=True),
                        f"{name}[stats {dim}][{cat}]", floor)
        estimate = fx["stats"]["get_estimate"]
        mine = res.get(stats="estimate", cats=cat)
        if estimate is not None:
            wanted = estimate[cat].get("only")
            if wanted is not None:
                _same_stats(_without(mine, faults), _without(frame(wanted), faults), f"{name}[est][{cat}]", floor)
            else:
                for dim in ("d1", "d2"):
                    _same_stats(_without(mine[dim], faults), _without(frame(estimate[cat][dim]), faults),
                                f"{name}[est {dim}][{cat}]", floor)
        else:  # R crashed (only 2-D terms, docs/ale-package.md s. 10 case 9): pyale gives the d2 table
            assert list(mine["term"]) == inter["ordered_x_cols"]["d2"]
            assert fx["stats"]["get_estimate_error"]


def _without(table: pd.DataFrame, faults: dict) -> pd.DataFrame:
    return table[~table["term"].isin(list(faults))].reset_index(drop=True)


def _r_parts(fx: dict, term: str, cats: list) -> list:
    """Each class's lower-order parts (row + column shifts and constant), from the plain re-computation."""
    right = curves_of(fx, term, cats, r_misaligned=False)
    composite = curves_of_composite(fx, term, cats)
    return [c - r[0] for c, r in zip(composite, right)]


def curves_of_composite(fx: dict, term: str, cats: list) -> list:
    """Each class's uncentred full-data composite surface (plain re-computation)."""
    import test_ale_pkg_reference as ref

    data = droplevels(frame(fx["data"]))
    X = data.drop(columns=[fx["call"]["y_col"]])
    names = term.split(":")
    features = [fx["intermediates"]["features"][n] for n in names]
    local, _ = ref.local_effects(X, names, features, fx["call"]["max_num_bins"], np.arange(len(X)),
                                 ref.model_of(fx, cats), len(cats))
    return [ref.accumulate(lc, [f["type"] for f in features]) for lc in local]


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_ale_matches_r(path):
    check_ale(load(path), path.stem)
    RAN.add(path.stem)


@pytest.mark.parametrize("path", [p for p in FILES if load(p)["call"]["boot_it"] == 0], ids=lambda p: p.stem)
def test_pythonic_door_gives_the_same_effects(path):
    """pyale.ale(conventions="ale") runs the same core plans: the same full-data curves, bit for bit."""
    fx = load(path)
    res = run_ale(fx)
    X = frame(fx["data"]).drop(columns=[fx["call"]["y_col"]])
    model = model_of(fx, fx["intermediates"]["y_cats"])
    entries = [term if ":" not in term else tuple(term.split(":")) for term in res.terms]
    results = pyale.ale(model, X, entries, conventions="ale", n_intervals=fx["call"]["max_num_bins"] - 1)
    for entry, result in zip(entries, results):
        assert result.conventions == "ale"
        for c, cat in enumerate(res.y_cats):
            assert_array_equal(result.effects[..., c], res.curves(entry, cat)[0])
    if res.y_type == "numeric":  # the statistics too, given the observed response
        y = frame(fx["data"])[fx["call"]["y_col"]]
        with_y = pyale.ale(model, X, entries, conventions="ale", n_intervals=fx["call"]["max_num_bins"] - 1, y=y)
        for entry, result in zip(entries, with_y):
            expected = res.get([entry], stats="estimate")
            assert_allclose(result.statistics["estimate"].to_numpy(), expected.iloc[0, 1:].to_numpy(float),
                            rtol=1e-12, atol=1e-12)


def test_every_fixture_ran():
    assert len(FILES) >= 42
    assert RAN == {p.stem for p in FILES}
