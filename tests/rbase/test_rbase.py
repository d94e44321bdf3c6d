"""The R-exact building blocks: hand-checked values, committed base-R values, and live base R."""

from __future__ import annotations

import json
import zlib
from pathlib import Path

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

import rbase_cases
from pyale import _rbase

FIXTURE = Path(__file__).resolve().parents[2] / "reference" / "rbase" / "building_blocks.json"
STORED = json.loads(FIXTURE.read_text())["cases"]


# --- hand-checked values --------------------------------------------------------------


def test_seq_last_point_is_exact_and_interior_is_from_plus_i_by():
    got = _rbase.r_seq(1 / 3, 1.0, 3)
    assert got[-1] == 1.0
    by = (1.0 - 1 / 3) / 2
    assert got[1] == 1 / 3 + 1 * by
    assert_array_equal(_rbase.r_seq(2.0, 5.0, 1), [2.0])
    assert_array_equal(_rbase.r_seq(2.0, 5.0, 2), [2.0, 5.0])
    assert_array_equal(_rbase.r_seq(2.0, 2.0, 4), [2.0] * 4)


def test_quantile_type1_has_no_tolerance():
    x = np.arange(1.0, 11.0)
    # n * p == 3 exactly: the 3rd order statistic; just above: the 4th.
    assert _rbase.quantile_type1(x, np.array([0.3]))[0] == 3.0
    assert _rbase.quantile_type1(x, np.array([np.nextafter(0.3, 1)]))[0] == 4.0
    assert _rbase.quantile_type1(x, np.array([0.0]))[0] == 1.0


def test_quantile_type1_matches_numpy_inverted_cdf_on_r_probabilities():
    rng = np.random.default_rng(5)
    for _ in range(200):
        x = rng.integers(0, 30, size=int(rng.integers(1, 300))).astype(float)
        k = int(rng.integers(1, 60))
        probs = _rbase.r_seq(1 / k, 1.0, k)
        assert_array_equal(
            _rbase.quantile_type1(x, probs), np.quantile(x, probs, method="inverted_cdf")
        )


def test_quantile_type7_interpolates_like_r():
    assert_array_equal(
        _rbase.quantile_type7(np.array([1.0, 2.0, 4.0]), np.array([0.0, 0.25, 0.75, 1.0])),
        [1.0, 1.5, 3.0, 4.0],
    )


def test_bins_are_right_closed_with_minimum_in_first():
    edges = np.array([0.0, 1.0, 2.0])
    assert_array_equal(
        _rbase.bin_right_closed(np.array([-1.0, 0.0, 1.0, 1.0001, 2.0, 3.0]), edges),
        [-1, 0, 0, 1, 1, 2],
    )


def test_ecdf_counts_ties():
    assert_array_equal(_rbase.ecdf_at(np.array([3.0, 1.0, 3.0]), np.array([1.0, 2.0, 3.0])), [1 / 3, 1 / 3, 1.0])


def test_level_counts_keep_empty_levels():
    assert_array_equal(_rbase.level_counts(np.array([2, 2, 0]), 4), [1, 0, 2, 0])


def test_cmdscale_recovers_a_line_and_rejects_all_alike():
    positions = np.array([0.0, 1.0, 3.0, 7.0])
    d = np.abs(positions[:, None] - positions[None, :])
    coordinate = _rbase.cmdscale_1d(d)
    centred = positions - positions.mean()
    assert np.allclose(coordinate, centred) or np.allclose(coordinate, -centred)
    assert _rbase.cmdscale_1d(np.zeros((3, 3))) is None


def test_double_centre_gives_zero_row_and_column_sums():
    rng = np.random.default_rng(1)
    m = rng.normal(size=(5, 5))
    b = _rbase.double_centre(m)
    assert_allclose(b.sum(axis=0), 0.0, atol=1e-12)
    assert_allclose(b.sum(axis=1), 0.0, atol=1e-12)


def test_stable_order_keeps_ties_in_place():
    assert_array_equal(_rbase.stable_order(np.array([1.0, 0.0, 1.0, 0.0])), [1, 3, 0, 2])


# --- committed base-R values --------------------------------------------------------


def _compare(case: dict, expected: np.ndarray) -> None:
    got = rbase_cases.pyale_value(case)
    expected = np.asarray(expected, dtype=float)
    if case["fn"] == "cmdscale_1d":
        if expected.size == 0:
            assert got is None
            return
        # The eigenvector's sign is LAPACK's choice; the values must agree up to it.
        sign = 1.0 if np.dot(got, expected) >= 0 else -1.0
        assert_allclose(sign * got, expected, rtol=1e-9, atol=1e-12)
        return
    assert_array_equal(np.asarray(got, dtype=float), expected)


def test_every_stored_case_is_present():
    blocks = {case["block"] for case in STORED}
    assert blocks == set(rbase_cases.BUILDERS)
    assert len(STORED) >= 200


@pytest.mark.parametrize("case", STORED, ids=[f"{c['block']}-{i}" for i, c in enumerate(STORED)])
def test_matches_committed_r_values(case):
    _compare(case, case["expected"])


# --- live base R ----------------------------------------------------------------------


@pytest.mark.r
@pytest.mark.parametrize("block", sorted(rbase_cases.BUILDERS))
def test_matches_live_r(R, block):
    rng = np.random.default_rng(zlib.crc32(block.encode()))
    cases = rbase_cases.BUILDERS[block](rng, 30)
    for case in cases:
        _compare(case, rbase_cases.r_value(R.ro, case))


@pytest.mark.parametrize("kind", ["normal", "rounded", "integers", "heavy-tailed", "edges-beyond-data"])
def test_large_input_binning_is_identical_to_plain_searchsorted(kind):
    # Above 50,000 values bin_right_closed answers through a lookup table; it
    # must agree exactly with the plain rule, ties and edge values included.
    rng = np.random.default_rng(len(kind))
    x = {
        "normal": rng.normal(size=200_000),
        "rounded": np.round(rng.normal(size=200_000), 2),
        "integers": rng.integers(-3, 4, size=200_000).astype(float),
        "heavy-tailed": np.exp(5 * rng.normal(size=200_000)),
        "edges-beyond-data": rng.normal(size=200_000),
    }[kind]
    for k in (1, 2, 7, 40, 97):
        edges = np.unique(np.concatenate(([x.min()], _rbase.quantile_type1(x, _rbase.r_seq(1 / k, 1.0, k)))))
        if kind == "edges-beyond-data":
            edges = np.unique(np.concatenate((edges[1:-1], [-1.5, 0.0, 2.5])))
        if edges.size < 2:
            continue
        plain = np.searchsorted(edges, x, side="left") - 1
        plain[x == edges[0]] = 0
        plain[x < edges[0]] = -1
        assert_array_equal(_rbase.bin_right_closed(x, edges), plain)
        bins, counts = _rbase.bin_right_closed(x, edges, counts=True)
        assert_array_equal(bins, plain)
        assert_array_equal(counts, np.bincount(plain + 1, minlength=edges.size + 1))
