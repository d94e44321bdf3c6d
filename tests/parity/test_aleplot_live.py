"""pyale.ALEPlot and pyale.PDPlot against ALEPlot 1.1 run live through rpy2 on held-back data.

Every case of the fixture generator whose data are synthetic is rerun with
seeds no fixture uses, so pyale is checked on data it was never compared on:
new ties, new empty cells, new nearest-cell ties, new level orders.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))

import aleplot_cases  # noqa: E402

pytestmark = pytest.mark.r

HELD_BACK_SEEDS = [7, 8]
SYNTHETIC = [case.name for case in aleplot_cases.CASES if aleplot_cases.synthetic(case.data, case.seed) is not None]


@pytest.fixture(scope="module")
def aleplot(R):
    R.require("ALEPlot", "yaImpute")
    import make_aleplot_fixtures

    return make_aleplot_fixtures._r(), make_aleplot_fixtures


@pytest.mark.parametrize("seed", HELD_BACK_SEEDS)
@pytest.mark.parametrize("name", SYNTHETIC)
def test_held_back_case_matches_aleplot(aleplot, name, seed):
    from test_parity_aleplot import compare

    ro, generator = aleplot
    case = replace(next(c for c in aleplot_cases.CASES if c.name == name), seed=seed)
    fixture = generator.run_case(ro, case)
    compare(fixture, f"{name}@{seed}")


def test_enough_held_back_cases():
    assert len(SYNTHETIC) * len(HELD_BACK_SEEDS) >= 40
