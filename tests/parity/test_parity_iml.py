"""pyale's FeatureEffect / FeatureEffects against iml 0.11.4's stored ``results``.

Each fixture in reference/iml was written by scripts/make_iml_fixtures.py.
Results are compared column for column and row for row: names and order
exactly, grid and label columns exactly, effect columns with rtol 1e-10 and
an absolute floor of 1e-10 times the effect's range.  A categorical level
order may come out exactly reversed (the MDS sign depends on the LAPACK
build); rows are then matched by label.
"""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose

import pyale

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = sorted((ROOT / "reference" / "iml").glob("*.json"))
sys.path.insert(0, str(ROOT / "scripts"))
import iml_cases  # noqa: E402

RAN: set[str] = set()
EFFECT_COLUMNS = (".value", ".ale")

from r_tables import _key, frame_from_table, replay_model  # noqa: E402,F401


def build(fixture: dict):
    inputs = fixture["inputs"]
    data = frame_from_table(inputs["data"])
    for name in inputs["r_factor"]:
        data[name] = data[name].astype(str).astype(object)
    if inputs["model_kind"] == "closed_form":
        predictor = pyale.Predictor(predict_function=iml_cases.PY_MODELS[inputs["model"]], data=data,
                                    **inputs["predictor"])
    else:
        predictor = pyale.Predictor(model="replayed", predict_function=lambda m, nd: replay(nd), data=data,
                                    **inputs["predictor"])
        replay = replay_model(fixture["recorded"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        if fixture["call"] == "FeatureEffects":
            return pyale.FeatureEffects(predictor, **inputs["args"])
        return pyale.FeatureEffect(predictor, **inputs["args"])


def _factor_columns(expected: dict) -> list[str]:
    return [c for c in expected["columns"] if expected["types"][c]["type"] == "factor" and c != ".class"]


def _align_reversed(actual: pd.DataFrame, expected: dict) -> pd.DataFrame:
    """When a level order is R's exactly reversed, reorder pyale's rows to R's (by label)."""
    for name in _factor_columns(expected):
        r_levels = expected["types"][name]["levels"]
        ours = list(actual[name].cat.categories)
        if ours == r_levels or ours != r_levels[::-1]:
            continue
        key_columns = [c for c in expected["columns"] if c not in EFFECT_COLUMNS + (".right", ".left")]
        r_keys = list(zip(*(map(str, expected["values"][c]) for c in key_columns)))
        our_keys = list(zip(*(actual[c].astype(str) for c in key_columns)))
        position = {k: i for i, k in enumerate(our_keys)}
        actual = actual.iloc[[position[k] for k in r_keys]].reset_index(drop=True)
        actual[name] = actual[name].cat.reorder_categories(r_levels)
        if ".right" in actual.columns:
            n = len(r_levels)
            right, left = actual[".right"].copy(), actual[".left"].copy()
            actual[".right"], actual[".left"] = n + 1 - left, n + 1 - right
    return actual


def _sort_ice_rows(actual: pd.DataFrame, expected: dict) -> tuple[pd.DataFrame, dict]:
    """Both tables with ICE rows sorted by (.id, .class, grid value); PDP rows untouched."""
    feature = [c for c in expected["columns"] if not c.startswith(".")][0]
    want = frame_from_table(expected)
    out = []
    for table in (actual, want):
        ice = table[".type"] == "ice"
        part = table[ice].sort_values([".id", ".class", feature], kind="stable")
        out.append(pd.concat([table[~ice], part], ignore_index=True))
    sorted_expected = dict(expected)
    sorted_expected["values"] = {c: [None if pd.isna(v) else (str(v) if expected["types"][c]["type"] in ("factor", "character") else v)
                                     for v in out[1][c].tolist()] for c in expected["columns"]}
    return out[0], sorted_expected


def compare(actual: pd.DataFrame, expected: dict, label: str, *, ice_rows_by_key: bool = False) -> None:
    assert list(actual.columns) == expected["columns"], label
    if ice_rows_by_key:
        actual, expected = _sort_ice_rows(actual, expected)
    actual = _align_reversed(actual, expected)
    n = len(expected["values"][expected["columns"][0]])
    assert actual.shape[0] == n, f"{label}: {actual.shape[0]} rows, R has {n}"
    for name in expected["columns"]:
        kind = expected["types"][name]
        want = expected["values"][name]
        got = actual[name]
        where = f"{label}: column {name!r}"
        if kind["type"] == "double":
            want = np.array([np.nan if v is None else v for v in want], dtype=float)
            got = got.to_numpy(dtype=float)
            if name in EFFECT_COLUMNS:
                span = np.nanmax(want) - np.nanmin(want)
                assert_allclose(got, want, rtol=1e-10, atol=max(1e-10 * span, 1e-12), err_msg=where)
            else:
                assert_allclose(got, want, rtol=1e-12, atol=0, err_msg=where)
        elif kind["type"] == "integer":
            assert [None if pd.isna(v) else int(v) for v in got] == want, where
        elif kind["type"] == "factor":
            assert isinstance(got.dtype, pd.CategoricalDtype), where
            assert list(got.cat.categories) == kind["levels"], where
            assert [str(v) for v in got] == want, where
        else:
            assert pd.api.types.is_string_dtype(got.dtype) or got.dtype == object, where
            assert [str(v) for v in got] == want, where


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_results_match_iml(path):
    fixture = json.loads(path.read_text())
    effect = build(fixture)
    if fixture["call"] == "FeatureEffects":
        assert list(effect.results) == list(fixture["results"])
        for name, expected in fixture["results"].items():
            compare(effect.results[name], expected, f"{path.stem}[{name}]")
    else:
        by_key = fixture["metadata"]["arguments"].get("ice_rows_by_key", False)
        compare(effect.results, fixture["results"], path.stem, ice_rows_by_key=by_key)
    RAN.add(path.stem)


def test_every_stored_case_ran():
    names = {p.stem for p in FIXTURES}
    assert len(names) >= 30
    assert names == {c.name for c in iml_cases.CASES}
    assert RAN == names, f"cases that did not run: {sorted(names - RAN)}"


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_fixture_metadata(path):
    meta = json.loads(path.read_text())["metadata"]
    assert meta["generator"] == "scripts/make_iml_fixtures.py"
    assert meta["versions"]["iml"] == "0.11.4"
    assert meta["versions"]["R"].startswith("R version")
