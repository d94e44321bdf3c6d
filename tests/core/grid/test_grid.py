"""pyale._core.grid: interval edges per package rule, capped by the data before anything of size K exists.

The cap rests on a proof (module notes of pyale/_core/grid/edges.py): beyond a
threshold every order statistic is a type-1 quantile, so the edges are the
sorted distinct values.  These tests check it by brute force against the
uncapped computation, written out here in plain NumPy from R's formulas.
"""

from __future__ import annotations

import tracemalloc
from fractions import Fraction

import numpy as np
import pytest

from pyale._core.grid.edges import aleplot_edges, equivalent_intervals, every_value_is_an_edge, iml_edges
from pyale._rbase import r_seq


def _probs(rule: str, K: int) -> np.ndarray:
    """R's probability vectors: ALEPlot seq(1/K, 1, length.out = K); iml seq(0, 1, length.out = K + 1)."""
    return r_seq(1.0 / K, 1.0, K) if rule == "aleplot" else r_seq(0.0, 1.0, K + 1)


def _ranks(n: int, probs: np.ndarray) -> np.ndarray:
    """0-based order statistics R's quantile(type = 1) picks (R 4.2: j = floor(np), +1 unless np == j)."""
    nppm = n * np.clip(probs, 0.0, 1.0)
    j = np.floor(nppm)
    return np.clip((j + (nppm > j)).astype(np.int64) - 1, 0, n - 1)


def _positions(rule: str, n: int, K: int) -> np.ndarray:
    ranks = _ranks(n, _probs(rule, K))
    return np.concatenate(([0], ranks)) if rule == "aleplot" else ranks  # ALEPlot prepends min(x)


def _covers(rule: str, n: int, K: int) -> bool:
    return np.unique(_positions(rule, n, K)).shape[0] == n


def _uncapped(rule: str, x: np.ndarray, K: int, integer: bool = False) -> np.ndarray:
    """R's formula with the full probability vector: unique(order statistics), rounded first for iml integers."""
    edges = np.sort(x)[_positions(rule, x.shape[0], K)]
    return np.unique(np.round(edges) if integer else edges)


@pytest.mark.parametrize("rule", ["aleplot", "iml"])
def test_every_n_up_to_1000_around_both_thresholds(rule):
    """K > n (and K >= 2n) always selects every order statistic; K = n does not: the threshold is tight."""
    skipped_at_n = 0
    for n in range(1, 1001):
        for K in sorted({*range(max(1, n - 3), n + 4), *range(max(1, 2 * n - 2), 2 * n + 3), 5 * n + 7}):
            claimed = every_value_is_an_edge(n, K, rule)
            assert claimed == (K > n), (n, K)
            if claimed:
                assert _covers(rule, n, K), (n, K)
        if not _covers(rule, n, n):
            skipped_at_n += 1
            assert not every_value_is_an_edge(n, n, rule)
    # Floating-point noise in the probabilities skips an order statistic at K = n for most n.
    assert skipped_at_n > 500


def test_k_equal_n_skips_a_value_in_aleplot_as_in_r():
    # seq(0.2, 1, length.out = 5)[3] is 0.6000000000000001: 5 * p > 3 picks the 4th value.
    assert aleplot_edges(np.arange(1.0, 6.0), 5).tolist() == [1.0, 2.0, 4.0, 5.0]
    assert aleplot_edges(np.arange(1.0, 6.0), 6).tolist() == [1.0, 2.0, 3.0, 4.0, 5.0]


@pytest.mark.parametrize("rule", ["aleplot", "iml"])
def test_large_n_just_above_the_threshold(rule):
    rng = np.random.default_rng(3)
    for n in [int(v) for v in rng.integers(1001, 200_000, size=6)] + [99_991]:
        for K in (n + 1, n + 2, 2 * n - 1, 2 * n, 3 * n):
            assert every_value_is_an_edge(n, K, rule)
            assert _covers(rule, n, K), (n, K)


@pytest.mark.parametrize(("rule", "constant"), [("aleplot", 7), ("iml", 4)])
def test_rounding_constant_bounds_the_computed_n_times_p(rule, constant):
    """|fl(n p_k) - n k / K| <= c u n k / K, exactly (rational arithmetic), the bound the proof uses."""
    rng = np.random.default_rng(5)
    u = Fraction(1, 2 ** 53)
    worst = Fraction(0)
    for _ in range(60):
        n, K = (int(v) for v in rng.integers(2, 5_000_000, size=2))
        probs = _probs(rule, K)
        offset = 1 if rule == "aleplot" else 0  # ALEPlot's first probability is 1/K
        for i in {0, 1, 2, 3, K // 3, K // 2, len(probs) - 2, len(probs) - 1, int(rng.integers(len(probs)))}:
            exact = Fraction(n * (i + offset), K)
            if exact == 0:
                continue
            error = abs(Fraction(float(n * probs[i])) - exact) / (exact * u)
            worst = max(worst, error)
    assert worst <= constant


def test_threshold_conditions_for_huge_n():
    # 7 n (n + 1) >= 2**53: K = n + 1 is no longer proved, K = 2n still is.
    n = 40_000_000
    assert not every_value_is_an_edge(n, n + 1, "aleplot")
    assert every_value_is_an_edge(n, 2 * n, "aleplot")
    assert every_value_is_an_edge(n, 10 ** 30, "iml")
    assert not every_value_is_an_edge(2 ** 53, 2 ** 60, "aleplot")


def _samples(rng):
    yield rng.normal(size=257)
    yield rng.integers(0, 15, size=300).astype(float)  # heavy ties
    yield np.round(rng.exponential(size=1000), 2)
    yield np.array([5.0])
    yield np.array([2.0, 2.0, 2.0])
    yield np.concatenate([np.full(50, -0.0), np.zeros(50), [1.0]])


@pytest.mark.parametrize("rule", ["aleplot", "iml"])
def test_capped_edges_equal_the_uncapped_computation(rule):
    rng = np.random.default_rng(0)
    for x in _samples(rng):
        n = x.shape[0]
        integer = rule == "iml" and bool(np.all(x == np.round(x)))
        for K in sorted({1, 2, 3, 10, max(1, n - 1), n, n + 1, n + 2, 2 * n, 2 * n + 1, 7 * n + 3}):
            if rule == "aleplot":
                got = aleplot_edges(x, K)
            else:
                got = iml_edges(x, K, integer=integer)
            assert np.array_equal(got, _uncapped(rule, x, K, integer)), (rule, n, K)


def test_huge_k_is_immediate_and_small():
    x = np.random.default_rng(1).normal(size=100)
    for K in (10 ** 8, 10 ** 12, 10 ** 30):
        tracemalloc.start()
        edges = aleplot_edges(x, K)
        iml = iml_edges(x, K)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert np.array_equal(edges, np.unique(x)) and np.array_equal(iml, np.unique(x))
        assert peak < 100_000  # bytes: nothing of size K


def test_equivalent_intervals_gives_r_the_same_edges():
    x = np.random.default_rng(2).normal(size=50)
    assert equivalent_intervals(50, 10 ** 9, "aleplot") == 100
    assert equivalent_intervals(50, 70, "aleplot") == 70
    assert equivalent_intervals(50, 40, "iml") == 40
    assert np.array_equal(aleplot_edges(x, 10 ** 9), _uncapped("aleplot", x, 100))
    assert np.array_equal(iml_edges(x, 10 ** 9), _uncapped("iml", x, 100))


def test_ale_package_bins_are_capped_the_same_way():
    """ale 0.5.0's numeric bins use ALEPlot's probabilities with K = max_num_bins - 1."""
    from pyale._frontends.alepkg.types import numeric_bins

    rng = np.random.default_rng(6)
    for x in (rng.normal(size=57), rng.integers(0, 6, 80).astype(float)):
        n = x.shape[0]
        reference = numeric_bins(x, n + 2)  # K = n + 1, built from the full probability vector below
        assert np.array_equal(reference.ceilings, _uncapped("aleplot", x, n + 1))
        for B in (n + 3, 2 * n + 1, 10 ** 12):
            got = numeric_bins(x, B)
            for field in ("ceilings", "bin_of_row", "counts", "interval_counts"):
                assert np.array_equal(getattr(got, field), getattr(reference, field)), (B, field)
