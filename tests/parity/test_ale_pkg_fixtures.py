"""R's ale 0.5.0 fixtures (reference/ale) against the model-free pieces of pyale's ale front-end.

Each fixture is checked stage by stage: variable types, numeric ceilings and
counts, terms, the response summary, the bootstrap rows R drew (pyale's port
of R's RNG), the band summary of the bootstrap curves, ``get()``'s tables
rebuilt from R's curves, and the ALE statistics recomputed from R's centred
curves.  The effects themselves need the estimator core (not part of these
tests).  ``check_fixture`` is reused by the live tests on held-back seeds.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from pyale._frontends.alepkg import (
    ale_statistics_1d,
    ale_statistics_2d,
    ale_var_type,
    band_summary,
    binary_levels,
    effect_table_1d,
    effect_table_2d,
    normaliser,
    numeric_bins,
    resolve_x_cols,
    statistics_estimate_table,
    statistics_long_table,
    summarise_statistics,
    y_summary,
)
from pyale._frontends.alepkg.tables import r_level_labels
from pyale._rbase.rng import ale_bootstrap_rows

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import ale_cases  # noqa: E402

FIXTURE_DIR = ROOT / "reference" / "ale"
FILES = sorted(FIXTURE_DIR.glob("*.json"))
RAN: set[str] = set()


def load(path: Path) -> dict:
    return json.loads(path.read_text())


def _number(v):
    if v is None:
        return math.nan
    if isinstance(v, str):
        return {"Inf": math.inf, "-Inf": -math.inf, "NaN": math.nan}[v]
    return v


def frame(table: dict) -> pd.DataFrame:
    """A fixture table as pandas, with R's column types."""
    out = {}
    for name in table["columns"]:
        kind = table["types"][name]
        values = table["values"][name]
        if kind["type"] == "double":
            out[name] = np.array([_number(v) for v in values], dtype=float)
        elif kind["type"] == "integer":
            out[name] = np.array(values, dtype=np.int64)
        elif kind["type"] == "logical":
            out[name] = np.array(values, dtype=bool)
        elif kind["type"] == "character":
            out[name] = pd.Series(values, dtype=object)
        else:
            out[name] = pd.Categorical(values, categories=kind["levels"], ordered=kind["ordered"])
    return pd.DataFrame(out)


def droplevels(data: pd.DataFrame) -> pd.DataFrame:
    data = data.copy()
    for name in data.columns:
        if isinstance(data[name].dtype, pd.CategoricalDtype):
            data[name] = data[name].cat.remove_unused_categories()
    return data


def response_values(fx: dict, data: pd.DataFrame) -> np.ndarray:
    """What ale summarises as the response: observed y (numeric) or the model's predictions."""
    inter = fx["intermediates"]
    y_col = fx["call"]["y_col"]
    if inter["y_type"] in ("numeric", "ordinal"):
        return data[y_col].to_numpy(dtype=float).reshape(-1, 1)
    model = fx["model"]
    X = data.drop(columns=[y_col])
    if model["kind"] == "closed_form":
        pred = ale_cases.PY_MODELS[model["name"]](X)
        return np.asarray(pred, dtype=float).reshape(len(X), -1)
    rec = model["recorded"]
    where = {tuple(r): i for i, r in enumerate(rec["rows"])}
    table = {c: data[c].astype(object).tolist() for c in rec["columns"]}
    keys = [tuple(str(v) if isinstance(v, str) else v for v in row) for row in zip(*table.values())]
    return np.array([rec["outputs"][where[k]] for k in keys], dtype=float)


def _centre(fx: dict, cat: str) -> float:
    ys = fx["intermediates"]["y_summary"]
    return ys["values"][ys["rows"].index("50%")][ys["columns"].index(cat)]


def _curves(boot: pd.DataFrame, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """(curves, counts) of shape (1 + boot_it, *shape) from R's boot_data (rows by .it, bins first axis fastest)."""
    its = boot[".it"].to_numpy()
    k = int(its.max()) + 1
    y = boot[".y"].to_numpy(dtype=float).reshape(k, -1)
    n = boot[".n"].to_numpy(dtype=float).reshape(k, -1)
    order = "F" if len(shape) == 2 else "C"
    return (np.stack([r.reshape(shape, order=order) for r in y]),
            np.stack([r.reshape(shape, order=order) for r in n]))


def _bins(feature: dict):
    return feature["ceilings"] if feature["type"] == "numeric" else feature["bins"]


def check_fixture(fx: dict) -> None:
    """Every model-free stage of one fixture."""
    call, inter = fx["call"], fx["intermediates"]
    y_col = call["y_col"]
    data = droplevels(frame(fx["data"]))
    X = data.drop(columns=[y_col])

    # --- terms
    x_cols = None if call["x_cols"] == ["d1"] else call["x_cols"]
    d1, d2, o1, o2 = resolve_x_cols(x_cols, data.columns, y_col)
    assert list(d1) == fx["terms"]["d1"]
    assert [f"{a}:{b}" for a, b in d2] == fx["terms"]["d2"]
    assert list(o1) == inter["ordered_x_cols"]["d1"]
    assert [f"{a}:{b}" for a, b in o2] == inter["ordered_x_cols"]["d2"]

    # --- variable types, ceilings, counts
    for name, feature in inter["features"].items():
        assert ale_var_type(X[name]) == feature["type"], name
        if feature["type"] == "numeric":
            bins = numeric_bins(X[name].to_numpy(dtype=float), call["max_num_bins"])
            assert_array_equal(bins.ceilings, feature["ceilings"])
            assert bins.counts.tolist() == feature["n"]
            assert bins.interval_counts.tolist() == [int(v) for v in feature["interval_counts"]]
        else:
            labels = pd.Series(r_level_labels(X[name].tolist()))
            counts = labels.value_counts()
            assert [int(counts[b]) for b in feature["bins"]] == feature["n"], name
            if feature["type"] == "binary":
                assert r_level_labels(binary_levels(X[name])) == feature["bins"]
            if feature["type"] == "ordinal":
                assert list(X[name].cat.categories) == feature["bins"]

    # --- the response summary
    values = response_values(fx, data)
    ys = inter["y_summary"]
    cats = inter["y_cats"]
    expected = pd.DataFrame(np.array(ys["values"]), index=ys["rows"], columns=ys["columns"])
    got = y_summary(values, cats, y_col)
    assert list(got.index) == list(expected.index) and list(got.columns) == list(expected.columns)
    assert_allclose(got.to_numpy(), expected.to_numpy(), rtol=1e-13, atol=0)

    # --- bootstrap rows
    if call["boot_it"]:
        rows = ale_bootstrap_rows(len(data), call["boot_it"], seed=call["seed"]) + 1
        assert rows.tolist() == fx["bootstrap"]["rows"]

    # --- tables and statistics, per term and category
    for ci, cat in enumerate(cats):
        norm = normaliser(values[:, ci])
        centre = _centre(fx, cat)
        # absolute floor: 1e-10 of the response's spread (the scale of effects and statistics)
        floor = 1e-10 * float(np.max(np.abs(values[:, ci] - np.median(values[:, ci]))))
        terms_stats = {"d1": [], "d2": []}
        for term, entry in fx["tables"].items():
            tables = entry["categories"][cat]
            table = frame(tables["get"])
            names = term.split(":")
            features = [inter["features"][n] for n in names]
            kinds = [f["type"] for f in features]
            shape = tuple(f["n_bins"] for f in features)
            counts = table[".n"].to_numpy().reshape(shape, order="F")
            if call["boot_it"]:
                curves, rep_counts = _curves(frame(tables["boot_data"]), shape)
                assert_array_equal(rep_counts[0], counts)
            else:
                curves = (table[".y"].to_numpy(dtype=float) - centre).reshape((1, *shape), order="F")
                rep_counts = counts[None].astype(float)
            summary = band_summary(curves, boot_alpha=call["boot_alpha"], boot_centre=call["boot_centre"])
            if len(names) == 1:
                rebuilt = effect_table_1d(names[0], kinds[0], _bins(features[0]), counts, summary, centre=centre)
            else:
                rebuilt = effect_table_2d(tuple(names), tuple(kinds), tuple(_bins(f) for f in features), counts,
                                          summary, centre=centre)
            _same_table(rebuilt, table, f"{fx['meta']['case']['name']}[{term}][{cat}]", floor)
            # statistics: each replicate (not the full-data curve) or the full data alone
            replicates = range(1, curves.shape[0]) if call["boot_it"] else range(1)
            per = []
            for b in replicates:
                if len(names) == 1:
                    per.append(ale_statistics_1d(curves[b], rep_counts[b], numeric=kinds[0] == "numeric", norm=norm))
                else:
                    per.append(ale_statistics_2d(curves[b], rep_counts[b],
                                                 numeric=tuple(k == "numeric" for k in kinds), norm=norm))
            terms_stats[entry["dimension"]].append(
                (term, summarise_statistics(per, boot_alpha=call["boot_alpha"], boot_centre=call["boot_centre"])))
        for dim, stats in fx["stats"]["by_category"][cat].items():
            ordered = inter["ordered_x_cols"][dim]
            mine = sorted(terms_stats[dim], key=lambda t: ordered.index(t[0]))
            _same_stats(statistics_long_table(mine), frame(stats), f"{fx['meta']['case']['name']}[{dim}][{cat}]",
                        floor)
            estimate = fx["stats"]["get_estimate"]
            if estimate is not None:
                wanted = estimate[cat].get(dim, estimate[cat].get("only"))
                _same_stats(statistics_estimate_table(mine), frame(wanted), f"{fx['meta']['case']['name']}[est]",
                            floor)


def _close(got, expected, label, column, floor=0.0):
    """rtol 1e-9 with an absolute floor: 1e-10 of the values' scale, or ``floor`` (values
    that are 0 up to rounding, such as a 2-D term without interaction, are noise)."""
    got, expected = np.asarray(got, dtype=float), np.asarray(expected, dtype=float)
    assert_array_equal(np.isnan(got), np.isnan(expected), err_msg=f"{label} {column}: NaN positions")
    finite = np.isfinite(expected)
    assert_array_equal(got[~finite & ~np.isnan(expected)], expected[~finite & ~np.isnan(expected)])
    scale = np.max(np.abs(expected[finite])) if finite.any() else 1.0
    assert_allclose(got[finite], expected[finite], rtol=1e-9, atol=max(1e-10 * scale, floor),
                    err_msg=f"{label} {column}")


def _same_table(got: pd.DataFrame, expected: pd.DataFrame, label: str, floor: float) -> None:
    assert list(got.columns) == list(expected.columns), label
    for column in expected.columns:
        e = expected[column]
        if isinstance(e.dtype, pd.CategoricalDtype):
            assert list(got[column].cat.categories) == list(e.cat.categories), label
            assert got[column].cat.ordered == e.cat.ordered
            assert got[column].astype(str).tolist() == e.astype(str).tolist(), label
        elif column == ".n":
            assert got[column].tolist() == e.tolist(), label
        elif column.endswith(".ceil"):
            assert_allclose(got[column], e, rtol=1e-15, atol=0, err_msg=f"{label} {column}")
        else:
            _close(got[column], e, label, column, floor)


def _same_stats(got: pd.DataFrame, expected: pd.DataFrame, label: str, floor: float) -> None:
    assert list(got.columns) == list(expected.columns), label
    for column in expected.columns:
        if column in ("term", "statistic"):
            assert got[column].tolist() == expected[column].tolist(), label
        else:
            _close(got[column], expected[column], label, column, floor)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_fixture(path):
    fx = load(path)
    check_fixture(fx)
    RAN.add(path.stem)


def test_fixture_metadata_and_libraries():
    for path in FILES:
        meta = load(path)["meta"]
        case = next(c for c in ale_cases.CASES if c.name == path.stem)
        assert meta["generator"] == "scripts/make_ale_fixtures.py"
        assert meta["r_library"] == case.library
        assert meta["r_library_has_bootstrap_fix"] == (case.library == "ale-fixed")
        assert meta["known_faults"] == case.known_faults
        assert meta["packages"]["ale"] == "0.5.0"
        assert meta["r_version"].startswith("R version 4.2.2")


def test_every_case_has_a_fixture_and_ran():
    assert {p.stem for p in FILES} == {c.name for c in ale_cases.CASES}
    assert len(FILES) >= 30
    assert RAN == {p.stem for p in FILES}
