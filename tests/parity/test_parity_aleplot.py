"""pyale.ALEPlot and pyale.PDPlot against ALEPlot 1.1's stored answers (no R needed).

Each file in ``reference/aleplot/`` holds R's input frame, the model (a closed
form written in both languages, or an R fit replayed from the rows R asked it
about), R's result and R's intermediates (edges, level order, counts).  The
comparison follows the fixture's tolerance: rtol 1e-10 with an absolute floor
of 1e-10 times the effect's range; K, counts and levels compare exactly, the
level order exactly or exactly reversed (PARITY.md: the MDS sign may flip on
another LAPACK, with identical values per level).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal

import pyale

from r_tables import frame_from_table, replay_model

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = sorted((ROOT / "reference" / "aleplot").glob("*.json"))
sys.path.insert(0, str(ROOT / "scripts"))
import aleplot_cases  # noqa: E402

RAN: set[str] = set()


def _load(path: Path) -> dict:
    return json.loads(path.read_text())


def _model(fixture: dict):
    model = fixture["model"]
    if model["kind"] == "closed_form":
        predict = aleplot_cases.PY_MODELS[model["name"]]
    else:
        predict = replay_model(model["recorded"])
    return lambda X_model, newdata: predict(newdata)


def _call(fixture: dict, X: pd.DataFrame):
    call = fixture["call"]
    names = call["J_names"]
    J = names if isinstance(names, str) else (names[0] if len(names) == 1 else tuple(names))
    if call["function"] == "ALEPlot":
        return pyale.ALEPlot(X, None, _model(fixture), J, K=call["K"], NA_plot=call["NA.plot"], plot=False)
    return pyale.PDPlot(X, None, _model(fixture), J, K=call["K"], plot=False)


def _tolerance(fixture: dict, expected: np.ndarray) -> dict:
    meta = fixture["meta"]
    finite = expected[np.isfinite(expected)]
    spread = float(np.ptp(finite)) if finite.size else 0.0
    return {"rtol": meta["rtol"], "atol": meta["atol_scale"] * max(1.0, spread)}


def _aligned(labels_r: list, labels_py: list, what: str) -> np.ndarray:
    """Positions of R's levels in pyale's order; the order must be R's or its reverse."""
    labels_py = [str(v) for v in labels_py]
    labels_r = [str(v) for v in labels_r]
    assert sorted(labels_py) == sorted(labels_r), f"{what}: levels differ: R {labels_r}, pyale {labels_py}"
    assert labels_py in (labels_r, labels_r[::-1]), (
        f"{what}: level order {labels_py} is neither R's {labels_r} nor its reverse"
    )
    return np.array([labels_py.index(label) for label in labels_r])


def compare(fixture: dict, label: str) -> None:
    """pyale's answer to a fixture's call equals R's stored answer (raises AssertionError if not)."""
    X = frame_from_table(fixture["data"])
    before = X.copy(deep=True)
    result = _call(fixture, X)
    pd.testing.assert_frame_equal(X, before)

    expected = fixture["result"]
    features = fixture["intermediates"]["features"]
    f_expected = np.array(expected["f_values"], dtype=float)
    f_actual = np.asarray(result.f_values, dtype=float)
    pair = len(features) == 2

    if "K" in expected:
        K_expected = expected["K"]
        if pair:
            assert tuple(result.K) == tuple(K_expected)
        else:
            assert result.K == (K_expected[0] if isinstance(K_expected, list) else K_expected)

    x_expected = expected["x_values"] if pair else [expected["x_values"]]
    x_actual = list(result.x_values) if pair else [result.x_values]
    rows = None
    for axis, (feature, want, got) in enumerate(zip(features, x_expected, x_actual)):
        if feature["type"] == "factor":
            order = _aligned(want, list(got), f"{label}: {feature['name']}")
            if "level_order" in feature:
                _aligned(feature["level_order"], list(got), f"{label}: {feature['name']} (intermediate)")
            if axis == 0:
                rows = order
        else:
            assert_allclose(np.asarray(got, dtype=float), np.asarray(want, dtype=float), rtol=1e-10, atol=0)
            if "edges" in feature:
                assert_allclose(np.asarray(got, dtype=float), np.asarray(feature["edges"], dtype=float),
                                rtol=1e-10, atol=0)

    if rows is not None:
        f_actual = f_actual[rows]
    assert f_actual.shape == f_expected.shape
    assert_array_equal(np.isnan(f_actual), np.isnan(f_expected))
    assert_allclose(f_actual, f_expected, **_tolerance(fixture, f_expected), equal_nan=True)

    counts = fixture["intermediates"].get("counts")
    if counts is not None:
        got_counts = np.asarray(result.counts)
        if rows is not None:
            got_counts = got_counts[rows]
        assert_array_equal(got_counts, np.asarray(counts))


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_matches_aleplot(path: Path) -> None:
    compare(_load(path), path.stem)
    RAN.add(path.stem)


def test_every_fixture_ran() -> None:
    """Runs last in this file: every stored case was compared, and there are enough of them."""
    one = [p for p in FIXTURES if p.stem.startswith("ale_")]
    pairs_and_pd = [p for p in FIXTURES if not p.stem.startswith("ale_")]
    assert len(one) >= 25, f"only {len(one)} one-feature ALEPlot fixtures"
    assert len(pairs_and_pd) >= 20, f"only {len(pairs_and_pd)} pair/PDPlot fixtures"
    assert RAN == {p.stem for p in FIXTURES}, f"not run: {sorted({p.stem for p in FIXTURES} - RAN)}"


def test_fixture_inputs_are_reproducible() -> None:
    """Synthetic inputs stored in the fixtures are exactly what the seeded generator makes."""
    checked = 0
    for path in FIXTURES:
        fixture = _load(path)
        case = fixture["meta"]["case"]
        frame = aleplot_cases.synthetic(case["data"], case["seed"])
        if frame is None:
            continue
        stored = frame_from_table(fixture["data"])
        assert list(stored.columns) == list(frame.columns)
        for name in frame.columns:
            assert_array_equal(np.asarray(stored[name].astype(object)), np.asarray(frame[name].astype(object)))
        checked += 1
    assert checked >= 20
