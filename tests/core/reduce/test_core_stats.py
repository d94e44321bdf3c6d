"""ALE statistics of pyale's conventions against R's ale definitions and hand computations."""

from __future__ import annotations

import numpy as np
import pytest

from pyale._frontends.alepkg.stats import ale_statistics_1d, ale_statistics_2d, normaliser
from pyale._core.reduce.stats import STATISTICS, Normaliser, ale_statistics


def test_hand_computed_numeric_curve():
    # Edges -> nodes f = [-1, 0, 2]; interval counts [1, 3]; y's median 0.
    y = np.array([-3.0, -1.0, 0.0, 1.0, 2.0, 5.0])
    norm = Normaliser.from_response(y)
    effects = np.array([[-1.0], [0.0], [2.0]])
    stats = ale_statistics(effects, np.array([1.0, 3.0]), (True,), norm)[:, 0]
    mids = np.array([-0.5, 1.0])
    aled = (0.5 * 1 + 1.0 * 3) / 4
    assert stats[0] == pytest.approx(aled, rel=1e-15)
    assert stats[1:3].tolist() == [-1.0, 2.0]
    # c = y - median(y) = y - 0.5: c <= 0 -> [-3.5, -1.5, -0.5]; c >= 0 -> [0.5, 1.5, 4.5];
    # pre = -0.5, post = 0.5.
    np.testing.assert_allclose(norm(mids), [0.0, 100 / 6], rtol=1e-15)
    assert stats[3] == pytest.approx((0 * 1 + 100 / 6 * 3) / 4, rel=1e-14)
    # N(-1): ecdf of [0.5, 1.5, 3.5] at 1 is 1/3; N(2): ecdf of [0.5, 1.5, 4.5] at 2 is 2/3.
    assert stats[4] == pytest.approx(-100 / 6, rel=1e-14) and stats[5] == pytest.approx(100 / 3, rel=1e-14)


def test_normaliser_extends_to_frequency_weights():
    rng = np.random.default_rng(0)
    for _ in range(200):
        y = rng.integers(-3, 4, size=rng.integers(1, 15)).astype(float)
        w = rng.integers(0, 3, size=y.shape[0]).astype(float)
        if w.sum() == 0:
            w[0] = 1
        v = np.linspace(-5, 5, 41)
        np.testing.assert_array_equal(
            Normaliser.from_response(y, w)(v), Normaliser.from_response(np.repeat(y, w.astype(int)))(v)
        )


@pytest.mark.parametrize("seed", range(5))
def test_one_feature_statistics_equal_rs_definitions(seed):
    rng = np.random.default_rng(seed)
    y = rng.normal(size=50)
    norm = Normaliser.from_response(y)
    curve = np.cumsum(rng.normal(size=8))
    counts = rng.integers(1, 9, size=7).astype(float)
    ours = ale_statistics(curve[:, None], counts, (True,), norm)[:, 0]
    # R's ale: the minimum's own bin (count 0 here) is merged into the first interval.
    theirs = ale_statistics_1d(curve, np.concatenate([[0.0], counts]), numeric=True, norm=normaliser(y))
    np.testing.assert_allclose(ours, [theirs[s] for s in STATISTICS], rtol=1e-14)
    levels = rng.normal(size=5)
    level_counts = rng.integers(1, 9, size=5).astype(float)
    ours = ale_statistics(levels[:, None], level_counts, (False,), norm)[:, 0]
    theirs = ale_statistics_1d(levels, level_counts, numeric=False, norm=normaliser(y))
    np.testing.assert_allclose(ours, [theirs[s] for s in STATISTICS], rtol=1e-14)


@pytest.mark.parametrize("numeric", [(True, True), (False, True)])
def test_pair_statistics_equal_rs_definitions(numeric):
    rng = np.random.default_rng(3)
    y = rng.normal(size=40)
    norm = Normaliser.from_response(y)
    n1 = 5 if numeric[0] else 4
    surface = rng.normal(size=(n1, 6))
    counts = rng.integers(1, 5, size=(n1 - numeric[0], 5)).astype(float)
    ours = ale_statistics(surface[:, :, None], counts, numeric, norm)[:, 0]
    padded = np.zeros(surface.shape)
    padded[int(numeric[0]):, 1:] = counts
    theirs = ale_statistics_2d(surface, padded, numeric=numeric, norm=normaliser(y))
    np.testing.assert_allclose(ours, [theirs[s] for s in STATISTICS], rtol=1e-14)


def test_statistics_vectorise_over_replicates():
    rng = np.random.default_rng(9)
    norm = Normaliser.from_response(rng.normal(size=30))
    curves = rng.normal(size=(4, 6, 2))
    counts = rng.integers(1, 5, size=(4, 5)).astype(float)
    together = ale_statistics(curves, counts, (True,), norm)
    for b in range(4):
        np.testing.assert_array_equal(together[b], ale_statistics(curves[b], counts[b], (True,), norm))
