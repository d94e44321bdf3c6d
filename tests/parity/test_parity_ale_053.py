"""pyale.ALE against R's ale 0.5.3 as released: every case of reference/ale-0.5.3 replayed (``check_ale``).

``scripts/make_ale_fixtures.py --version 0.5.3`` runs every case of
``scripts/ale_cases.py`` with ale 0.5.3 as released (the cases that bootstrap
a non-numeric feature included, bug and all), so pyale is run with
``replicate_r_bugs=True``.  0.5.3 changed no ALE arithmetic: where 0.5.0's
fixture comes from the released package too, every table and statistic of
0.5.3 equals 0.5.0's to a few ulps.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from test_ale_pkg_fixtures import FILES as FILES_050, load  # noqa: E402
from test_parity_ale import check_ale  # noqa: E402

FILES = sorted((ROOT / "reference" / "ale-0.5.3").glob("*.json"))
RAN: set[str] = set()


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_ale_053_matches_r(path):
    fx = load(path)
    assert fx["meta"]["packages"]["ale"] == "0.5.3" and not fx["meta"]["r_library_has_bootstrap_fix"]
    check_ale(fx, f"0.5.3/{path.stem}", replicate_r_bugs=True)
    RAN.add(path.stem)


def _numbers(obj):
    """Every number of a fixture's tables, in order (strings and None kept as they are)."""
    if isinstance(obj, dict):
        for key in sorted(obj):
            yield from _numbers(obj[key])
    elif isinstance(obj, list):
        for item in obj:
            yield from _numbers(item)
    else:
        yield obj


@pytest.mark.parametrize("path", [p for p in FILES_050 if load(p)["meta"]["r_library"] == "ale"],
                         ids=lambda p: p.stem)
def test_053_equals_050_where_both_are_released(path):
    old, new = load(path), load(ROOT / "reference" / "ale-0.5.3" / path.name)
    for part in ("tables", "stats", "terms", "intermediates"):
        a, b = list(_numbers(old[part])), list(_numbers(new[part]))
        assert len(a) == len(b), (path.stem, part)
        for x, y in zip(a, b):
            if isinstance(x, float) and isinstance(y, float) and math.isfinite(x):
                assert abs(x - y) <= 4 * np.spacing(max(abs(x), abs(y))) + 1e-300, (path.stem, part, x, y)
            else:
                assert x == y, (path.stem, part, x, y)


def test_every_053_fixture_ran():
    assert {p.stem for p in FILES} == {p.stem for p in FILES_050}
