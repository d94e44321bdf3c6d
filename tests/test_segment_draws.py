"""SegmentDraws: the weights of segments, their bootstrap replicates and permuted segments, block by block."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_array_equal

from pyale._core.segment_draws import SegmentDraws


def _draws(weights=None, n=9000, seed=0):
    codes = np.random.default_rng(seed).integers(0, 3, size=n)
    return SegmentDraws(codes, weights, 3, 4, 5, 123, ())


@pytest.mark.parametrize("weighted", [False, True])
def test_blocks_see_the_same_weights_however_the_rows_are_split(weighted):
    n = 9000
    weights = np.random.default_rng(1).uniform(0.5, 2.0, size=n) if weighted else None
    draws = _draws(weights, n)
    whole = np.vstack([draws.column(r) for r in range(draws.n_replicates)]).T  # (n, R)
    for cut in ([0, n], [0, 1, 4097, 5000, n], [0, 4096, 8192, n]):
        for lo, hi in zip(cut[:-1], cut[1:]):
            got = np.zeros((hi - lo, draws.n_replicates))
            for start, stop, group, counts in draws.block_counts(lo, hi - lo):
                got[start:stop][:, group] = counts
            assert_array_equal(got, whole[lo:hi])


def test_replicates_mean_what_they_say():
    n = 600
    w = np.random.default_rng(2).integers(1, 4, size=n).astype(float)
    draws = _draws(w, n)
    codes = draws.codes
    for s in range(3):  # a segment as observed: its rows, weighted
        assert_array_equal(draws.column(s), np.where(codes == s, w, 0.0))
    for s in range(3):  # a bootstrap replicate of segment s: n_s draws among its rows only
        for b in range(4):
            counts = draws.column(3 + s * 4 + b)
            assert counts.sum() == (codes == s).sum()
            assert counts[codes != s].sum() == 0
    for p in range(5):  # a permutation keeps every segment's size
        columns = [draws.column(15 + p * 3 + s) > 0 for s in range(3)]
        assert_array_equal(np.sum(columns, axis=0), np.ones(n))
        assert [c.sum() for c in columns] == [(codes == s).sum() for s in range(3)]
