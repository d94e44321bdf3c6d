"""pyale's own passes in threads (pyale._threads): the same numbers for every thread count.

The data here are small, so the row and piece sizes are lowered to make every
threaded pass split (slot maps, bins, the private copy, the shifted columns,
the per-piece sums).
"""

from __future__ import annotations

import threading
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

import pyale
from test_fast_path import aleplot_edges
from pyale import _threads
from pyale._core.map import shifted
from pyale._core.map import sums as sums_module
from pyale._rbase import cells

N_ROWS = 6_000


@pytest.fixture
def small_splits(monkeypatch):
    monkeypatch.setattr(_threads, "MIN_ROWS", 500)
    monkeypatch.setattr(cells, "MIN_SIZE", 1_000)
    monkeypatch.setattr(cells, "_BLOCK", 700)
    monkeypatch.setattr(sums_module, "PIECE", 900)


def _data(seed=0):
    rng = np.random.default_rng(seed)
    values = rng.standard_normal((N_ROWS, 4))
    values[:, 0] = np.round(values[:, 0], 1)  # ties: many values share slots with edges
    X = pd.DataFrame(values, columns=["a", "b", "c", "d"])
    assert shifted._block_of(X) is not None  # one block: the private copy is pyale's own array
    return X


def _model(frame):
    v = frame.to_numpy()
    return v[:, 0] ** 2 + np.sin(v[:, 1]) * v[:, 2] - v[:, 3]


def _results(features, **kw):
    X = _data()
    out = pyale.ale(_model, X, features, n_intervals=25, **kw)
    return out if isinstance(out, pyale.ALEResults) else [out]


def _same(first, second):
    for one, other in zip(first, second):
        np.testing.assert_array_equal(one.effects, other.effects)
        np.testing.assert_array_equal(one.counts, other.counts)
        np.testing.assert_array_equal(one.heterogeneity, other.heterogeneity)
        for g1, g2 in zip(one.grid, other.grid):
            np.testing.assert_array_equal(g1, g2)


@pytest.mark.parametrize("kw", [
    {},
    {"sample_weight": np.random.default_rng(3).uniform(0.5, 2.0, N_ROWS)},
    {"n_bootstrap": 20, "random_state": 1},
])
def test_thread_count_does_not_change_numbers(small_splits, monkeypatch, kw):
    features = ["a", "b", ("a", "b"), ("c", "d")]
    monkeypatch.setenv("PYALE_NUM_THREADS", "1")
    one = _results(features, **kw)
    monkeypatch.setenv("PYALE_NUM_THREADS", "3")
    three = _results(features, **kw)
    _same(one, three)


def test_threaded_ale_matches_plain_computation(small_splits, monkeypatch):
    """An independent plain computation of ALEPlot's one-feature ALE (a full sort, searchsorted bins)."""
    monkeypatch.setenv("PYALE_NUM_THREADS", "3")
    X = _data(1)
    x = X["b"].to_numpy()
    result = pyale.ale(_model, X, "b", n_intervals=25)
    edges = aleplot_edges(x, 25)  # R's type-1 rule from a full sort
    np.testing.assert_array_equal(result.grid[0], edges)
    bins = np.clip(np.searchsorted(edges, x, side="left") - 1, 0, None)
    lower, upper = X.copy(), X.copy()
    lower["b"], upper["b"] = edges[bins], edges[bins + 1]
    diff = _model(upper) - _model(lower)
    counts = np.bincount(bins, minlength=edges.size - 1)
    local = np.bincount(bins, weights=diff, minlength=edges.size - 1) / counts
    curve = np.concatenate([[0.0], np.cumsum(local)])
    curve -= np.sum((curve[:-1] + curve[1:]) / 2 * counts) / counts.sum()
    np.testing.assert_array_equal(result.counts, counts)
    np.testing.assert_allclose(result.effects[:, 0], curve, rtol=1e-12, atol=1e-12)
    spread = np.sqrt(np.bincount(bins, weights=(diff - local[bins]) ** 2, minlength=edges.size - 1) / counts)
    np.testing.assert_allclose(result.heterogeneity[1:, 0], spread, rtol=1e-9, atol=1e-12)


def test_constant_differences_have_zero_spread_in_pieces(small_splits, monkeypatch):
    monkeypatch.setenv("PYALE_NUM_THREADS", "3")
    X = _data(2)
    # Every row of an interval gets the same two doubles: exactly 0, whatever the pieces.
    result = pyale.ale(lambda d: 3.0 * np.sin(d["c"].to_numpy()), X, "c", n_intervals=10)
    assert np.all(result.heterogeneity[1:, 0] == 0.0)
    assert np.all(np.diff(result.effects[:, 0]) != 0.0)
    # Differences equal but for rounding ((0.1 e + a) - (0.1 e' + a) depends on a in the last
    # bits): the spread of those doubles, not a cancellation artefact (0 or a level's error).
    result = pyale.ale(lambda d: 0.1 * d["c"].to_numpy() + d["a"].to_numpy(), X, "c", n_intervals=10)
    edges, c, a = result.grid[0], X["c"].to_numpy(), X["a"].to_numpy()
    bins = np.searchsorted(edges, c, side="left") - 1
    bins[c == edges[0]] = 0
    d = (0.1 * edges[bins + 1] + a) - (0.1 * edges[bins] + a)
    exact = []
    for k in range(edges.size - 1):  # with fractions: NumPy's own mean loses these digits
        values = [Fraction(v) for v in d[bins == k].tolist()]
        mean = sum(values) / len(values)
        exact.append(float(sum((v - mean) ** 2 for v in values) / len(values)) ** 0.5)
    np.testing.assert_allclose(result.heterogeneity[1:, 0], exact, rtol=1e-9)


def test_model_keeping_its_input_keeps_correct_frames(small_splits, monkeypatch):
    """A model that holds on to the frames it was given: each keeps the values it was given."""
    monkeypatch.setenv("PYALE_NUM_THREADS", "3")
    X = _data(4)
    kept = []

    def keeping(frame):
        kept.append((frame, frame["c"].to_numpy().copy()))
        return _model(frame)

    pyale.ale(keeping, X, "c", n_intervals=10)
    assert len(kept) >= 2
    for frame, seen in kept:
        np.testing.assert_array_equal(frame["c"].to_numpy(), seen)
    np.testing.assert_array_equal(X.to_numpy(), _data(4).to_numpy())


@pytest.mark.parametrize("value", ["0", "-2", "two", "1.5"])
def test_bad_thread_setting_is_refused(monkeypatch, value):
    monkeypatch.setenv("PYALE_NUM_THREADS", value)
    with pytest.raises(ValueError, match=f"PYALE_NUM_THREADS must be a positive integer. Got {value!r} instead"):
        _threads.num_threads()


def test_run_waits_for_every_part_and_raises_the_first_error(monkeypatch):
    monkeypatch.setenv("PYALE_NUM_THREADS", "4")
    done = []

    def work(part):
        if part == 0:
            raise KeyError("first")
        done.append(part)
        return part

    with pytest.raises(KeyError, match="first"):
        _threads.run(work, [0, 1, 2, 3])
    assert sorted(done) == [1, 2, 3]
    assert _threads.run(lambda p: p * 2, [1, 2, 3]) == [2, 4, 6]
    nested = _threads.run(lambda p: _threads.run(lambda q: q + p, [10, 20]), [1, 2])
    assert nested == [[11, 21], [12, 22]]


def test_one_thread_keeps_every_pass_in_the_calling_thread(small_splits, monkeypatch):
    """PYALE_NUM_THREADS=1: no part runs elsewhere, not even work handed beside the row slices."""
    seen = set()
    real_run = _threads.run

    def spying_run(fn, parts):
        def spied(part):
            seen.add(threading.current_thread().name)
            return fn(part)
        return real_run(spied, parts)

    monkeypatch.setattr(_threads, "run", spying_run)
    monkeypatch.setenv("PYALE_NUM_THREADS", "1")
    pyale.ale(_model, _data(), ["a", ("b", "c")], n_intervals=25)
    assert len(seen) == 1 and seen == {threading.current_thread().name}
    monkeypatch.setenv("PYALE_NUM_THREADS", "3")
    seen.clear()
    pyale.ale(_model, _data(), ["a", ("b", "c")], n_intervals=25)
    assert len(seen) > 1  # the same calls do use workers when allowed (the spy sees them)


def test_row_slices_cover_rows_once(monkeypatch):
    monkeypatch.setenv("PYALE_NUM_THREADS", "3")
    for n in (0, 1, 10, 1_000_000):
        parts = _threads.row_slices(n, min_rows=7)
        assert parts[0].start == 0 and parts[-1].stop == n
        assert all(a.stop == b.start for a, b in zip(parts[:-1], parts[1:]))
        assert len(parts) <= 3


def test_callers_in_several_threads_get_the_serial_numbers(small_splits, monkeypatch):
    """pyale called from the user's own threads at once (a server, a notebook with workers)."""
    from concurrent.futures import ThreadPoolExecutor

    monkeypatch.setenv("PYALE_NUM_THREADS", "2")
    X = _data(5)
    features = ["a", "b", "c", ("b", "c")]
    serial = [pyale.ale(_model, X, f, n_intervals=25) for f in features * 3]
    with ThreadPoolExecutor(4) as users:
        parallel = list(users.map(lambda f: pyale.ale(_model, X, f, n_intervals=25), features * 3))
    _same(serial, parallel)
    np.testing.assert_array_equal(X.to_numpy(), _data(5).to_numpy())


def test_many_groups_keep_the_block_in_one_piece(monkeypatch):
    """Per-piece arrays have one value per group: with many groups the block stays one piece,
    so memory follows the rows, not rows / PIECE times the grid."""
    monkeypatch.setattr(sums_module, "PIECE", 800)
    monkeypatch.setenv("PYALE_NUM_THREADS", "1")
    seen = []
    real = sums_module._by_pieces

    def spy(compute, n, n_groups, **kw):
        out = real(compute, n, n_groups, **kw)
        seen.append((n_groups, len(out[0])))
        return out

    monkeypatch.setattr(sums_module, "_by_pieces", spy)
    rng = np.random.default_rng(7)
    values = rng.standard_normal((4_000, 1))
    for n_groups, n_pieces in ((50, 5), (3_000, 1)):
        groups = rng.integers(0, n_groups, 4_000)
        result = sums_module.group_sums(groups, n_groups, values, spread=True)
        assert seen[-1] == (n_groups, n_pieces)
        counts = np.bincount(groups, minlength=n_groups)
        mean = np.bincount(groups, weights=values[:, 0], minlength=n_groups) / np.maximum(counts, 1)
        plain = np.bincount(groups, weights=(values[:, 0] - mean[groups]) ** 2, minlength=n_groups)
        np.testing.assert_array_equal(result.rows, counts)
        np.testing.assert_allclose(result.spread[:, 0], plain, rtol=1e-9, atol=1e-12)
