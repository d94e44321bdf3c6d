"""Error rates of pyale.check_shape by simulation (quick variant; the docs' table has the full one).

The scenarios are in ``shape_simulation.py``: a fixed model whose ALE is
known, data drawn afresh for every data set, a data bootstrap per data set.
Default: 120 data sets for the rates that are errors (binomial standard
error about 0.02 at 0.05), 40 for the powers.  Set ``PYALE_SIMULATIONS``
(e.g. 1000) for a tighter check; ``python scripts/verdict_error_rates.py``
prints the docs' table.
"""

from __future__ import annotations

import os

import numpy as np

import shape_simulation as sim

SIMULATIONS = int(os.environ.get("PYALE_SIMULATIONS", "120"))
LEVEL = 0.05


def _upper(n: int) -> float:
    """``LEVEL`` plus 3 binomial standard errors: an error rate above it is a broken rule."""
    return LEVEL + 3 * np.sqrt(LEVEL * (1 - LEVEL) / n)


def test_a_true_expectation_on_the_boundary_fails_at_about_the_level():
    # g = 0: every increment exactly 0, the least favourable truth for "non-decreasing".
    rates = sim.verdict_counts(sim.SCENARIOS["flat"], "non-decreasing", SIMULATIONS, seed=1, level=LEVEL)
    assert rates["fail"] <= _upper(SIMULATIONS), rates
    assert rates["fail"] >= 0.005 or SIMULATIONS < 200, rates  # not absurdly conservative either


def test_a_false_expectation_passes_at_most_at_the_level():
    # g = 0 is not increasing: a pass would be an error.
    rates = sim.verdict_counts(sim.SCENARIOS["flat"], "increasing", SIMULATIONS, seed=2, level=LEVEL)
    assert rates["pass"] <= _upper(SIMULATIONS), rates


def test_a_monotone_effect_is_not_failed_and_a_planted_dip_is_caught():
    n = max(SIMULATIONS // 3, 40)
    rising = sim.verdict_counts(sim.SCENARIOS["linear"], "increasing", n, seed=3, level=LEVEL, n_rows=4 * sim.N_ROWS)
    assert rising["fail"] <= _upper(n) and rising["pass"] >= 0.6, rising  # docs: 1.0 of 1000 data sets at 1200 rows
    dip = sim.verdict_counts(sim.dip(0.4), "increasing", n, seed=4, level=LEVEL)
    assert dip["fail"] >= 0.9 and dip["pass"] == 0.0, dip  # docs: power 0.998 for a fall of 0.4
