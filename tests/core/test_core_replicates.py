"""The estimator core's weights and bootstrap replicates against plain recomputation.

* Integer weights give exactly the effect of repeating each row that many
  times (zero drops the row); unit weights change nothing.
* Each bootstrap replicate equals the plain effect recomputed on the
  resampled rows (rows repeated by their draw counts) with the full data's
  grid; replicates cost no model call.
* The draws do not depend on how the rows are split into blocks.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from pyale._core.map.bootstrap import CHUNK, make_draws
from pyale._core.map.calls import ModelCaller
from pyale._core.conventions import ALEPLOT, IML
from pyale._core.reduce.estimate import estimate
from pyale._core.map.local import LevelAxis, NumericAxis, Plan
from pyale._engines.pandas import PandasEngine


def _data(seed: int, n: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame({
        "x1": rng.normal(size=n),
        "x2": rng.uniform(-1, 2, size=n).round(1),
        "g": pd.Categorical(rng.choice(list("abcd"), size=n, p=[0.4, 0.3, 0.2, 0.1])),
    })


def _model(frame: pd.DataFrame) -> np.ndarray:
    level = frame["g"].cat.codes.to_numpy().astype(float)
    x1, x2 = frame["x1"].to_numpy(), frame["x2"].to_numpy()
    return np.column_stack([x1**2 + np.sin(3 * x2) + x1 * x2 + level * x1, np.exp(0.3 * x1) - level**2 * x2])


def _numeric_axis(frame, name, k):
    values = frame[name].to_numpy()
    edges = np.unique(np.quantile(values, np.linspace(0, 1, k + 1), method="inverted_cdf"))
    return NumericAxis(name, edges, np.ones(edges.shape[0] - 1, dtype=bool))


def _plans(frame):
    levels = LevelAxis("g", ("a", "b", "c", "d"), np.array([2, 0, 3, 1]))
    x1 = _numeric_axis(frame, "x1", 6)
    x2 = _numeric_axis(frame, "x2", 5)
    return [
        Plan((x1,), ALEPLOT, spread=True),
        Plan((levels,), ALEPLOT, spread=True),
        Plan((x1, x2), ALEPLOT, spread=True),
        Plan((levels, x2), ALEPLOT, spread=True),
        Plan((x2, x1), IML, spread=True),
    ]


def _caller():
    return ModelCaller(_model, name="model", single_output=False)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_integer_weights_equal_repeated_rows(seed):
    frame = _data(seed, 300)
    rng = np.random.default_rng(seed + 100)
    weights = rng.integers(0, 4, size=frame.shape[0]).astype(float)
    weights[:4] = [1, 2, 3, 1]  # every level keeps a row below
    plans = _plans(frame)
    weighted = estimate(PandasEngine(frame), plans, _caller(), weights=lambda block, offset: weights[offset:offset + len(block)])
    repeated = frame.iloc[np.repeat(np.arange(frame.shape[0]), weights.astype(int))].reset_index(drop=True)
    plain = estimate(PandasEngine(repeated), plans, _caller())
    for w, p in zip(weighted, plain):
        np.testing.assert_allclose(w.effects, p.effects, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(w.counts, p.counts, rtol=0, atol=0)
        np.testing.assert_allclose(w.local_sd, p.local_sd, rtol=1e-9, atol=1e-12)


def test_unit_weights_change_nothing():
    frame = _data(7, 250)
    plans = _plans(frame)
    plain = estimate(PandasEngine(frame), plans, _caller())
    weighted = estimate(PandasEngine(frame), plans, _caller(), weights=lambda block, offset: np.ones(len(block)))
    for w, p in zip(weighted, plain):
        np.testing.assert_array_equal(w.effects, p.effects)
        np.testing.assert_array_equal(w.counts, p.counts)


@pytest.mark.parametrize("n", [300, CHUNK + 77])
def test_each_replicate_is_the_plain_effect_of_its_resampled_rows(n):
    frame = _data(11, n)
    plans = _plans(frame)
    draws = make_draws(n, 12, 5)
    caller = _caller()
    boot = estimate(PandasEngine(frame), plans, caller, draws=draws)
    counted = caller.calls
    plain_caller = _caller()
    estimate(PandasEngine(frame), plans, plain_caller)
    assert counted == plain_caller.calls  # replicates cost no model call
    counts = draws.counts(0, n)
    for b in range(draws.n_replicates):
        rows = np.repeat(np.arange(n), counts[b].astype(int))
        resampled = frame.iloc[rows].reset_index(drop=True)
        again = estimate(PandasEngine(resampled), [Plan(p.axes, p.convention, empty_intervals="zero") for p in plans], _caller())
        for est, ref in zip(boot, again):
            np.testing.assert_allclose(est.replicates[b], ref.effects, rtol=1e-10, atol=1e-10)
            np.testing.assert_allclose(est.replicate_counts[b], ref.counts, rtol=0, atol=0)


@pytest.mark.parametrize("block", [1000, CHUNK, 3 * CHUNK + 5])
def test_replicates_do_not_depend_on_the_blocks(block):
    n = 3 * CHUNK + 500
    frame = _data(3, n)
    plans = _plans(frame)
    draws = make_draws(n, 9, np.random.default_rng(2))
    whole = estimate(PandasEngine(frame), plans, _caller(), draws=draws)
    split = estimate(PandasEngine(frame, max_rows_per_block=block), plans, _caller(), draws=draws)
    for a, b in zip(whole, split):
        np.testing.assert_allclose(a.effects, b.effects, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(a.replicates, b.replicates, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(a.local_sd, b.local_sd, rtol=1e-9, atol=1e-12)


def test_weighted_draws_follow_the_weights_and_skip_zero_weights():
    n = 2 * CHUNK + 10
    rng = np.random.default_rng(0)
    weights = rng.uniform(0, 2, size=n)
    weights[rng.random(n) < 0.2] = 0.0
    chunk_weights = np.add.reduceat(weights, np.arange(0, n, CHUNK))
    draws = make_draws(n, 400, 1, chunk_weights=chunk_weights, n_positive=int((weights > 0).sum()))
    counts = draws.counts(0, n, weights=weights)
    assert np.all(counts[:, weights == 0] == 0)
    assert np.all(counts.sum(axis=1) == (weights > 0).sum())
    expected = (weights > 0).sum() * weights / weights.sum()
    mean = counts.mean(axis=0)
    # 400 replicates: the mean count per row is within a few standard errors.
    assert np.abs(mean - expected).max() < 6 * np.sqrt(expected.max() / 400) + 1e-12


def test_same_seed_same_draws_other_seed_other_draws():
    a = make_draws(5000, 4, 42).counts(0, 5000)
    b = make_draws(5000, 4, 42).counts(0, 5000)
    c = make_draws(5000, 4, 43).counts(0, 5000)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)
