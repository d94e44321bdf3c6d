"""The compiled row loops (numba, optional) give the NumPy path's numbers bit for bit.

The loops of :mod:`pyale._compiled` are plain Python functions when numba is
missing, so their logic is checked against the NumPy passes on small inputs
on every stack; with numba installed the whole estimator runs both ways
(``PYALE_COMPILED=0`` and ``1``) and must agree exactly.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

import pyale
from pyale import _compiled as compiled
from pyale._core.map import sums as sums_module
from pyale._rbase import cells

has_numba = compiled.numba is not None
needs_numba = pytest.mark.skipif(not has_numba, reason="numba is not installed (the optional 'fast' extra)")


def identical(a, b) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b, equal_nan=True) and np.array_equal(
        np.signbit(a), np.signbit(b))


@pytest.mark.parametrize("value", ["2", "yes", "-1"])
def test_bad_setting_is_refused(monkeypatch, value):
    monkeypatch.setenv("PYALE_COMPILED", value)
    with pytest.raises(ValueError, match=re.escape(f"PYALE_COMPILED must be 0 or 1. Got {value!r} instead.")):
        compiled.enabled()


def test_zero_keeps_the_numpy_path(monkeypatch):
    monkeypatch.setenv("PYALE_COMPILED", "0")
    assert not compiled.enabled()
    monkeypatch.setenv("PYALE_COMPILED", "1")
    assert compiled.enabled() == has_numba


# ------------------------------------------------------------------ the loops themselves (any stack)
def test_slot_fill_matches_the_numpy_slots():
    rng = np.random.default_rng(0)
    x = np.concatenate([rng.normal(size=3000), [-0.0, 0.0]])
    low, high = float(x.min()), float(x.max())
    scale = (1 << 14) / (high - low)
    slots, counts = np.empty(x.shape[0], dtype=np.uint16), np.zeros((1 << 14) + 2, dtype=np.int64)
    _plain(compiled.slot_fill)(x, low, scale, slots, counts, 0, x.shape[0])
    expected = (((x - low) * scale) + 1.0).astype(np.uint16)
    assert identical(slots, expected)
    assert identical(counts, np.bincount(expected, minlength=counts.shape[0]))


def test_values_changed_after_their_range_was_read_are_an_error_not_a_stray_write(monkeypatch):
    # low and high read before another thread changed the values: the compiled loop's counts have
    # one entry per uint16 slot, so the stray slots land in their tail, which is checked.
    x = np.random.default_rng(0).normal(size=2000)
    low, high = float(x.min()), float(x.max())
    x[7] = high + 5 * (high - low)  # beyond the range read
    scale = (1 << 14) / (high - low)
    for setting in ("0", "1") if has_numba else ("0",):  # the NumPy path and the compiled loop
        monkeypatch.setenv("PYALE_COMPILED", setting)
        with pytest.raises(RuntimeError, match="changed while pyale was reading them"):
            cells._SlotMap(x, low, scale)


def _plain(fn):
    return fn.py_func if has_numba else fn


def test_bins_from_table_answers_every_code_like_binary_search():
    edges = np.array([-1.0, 0.0, 0.5, 0.5000001, 2.0])
    x = np.array([-1.0, -2.0, -0.5, 0.0, 0.25, 0.5, 0.50000005, 0.5000001, 1.0, 2.0, 3.0, -0.0])
    expected = np.searchsorted(edges, x, side="left") - 1
    expected[x == edges[0]] = 0
    # One slot per value; the table answers some directly, some by one comparison, the rest by search.
    slots = np.arange(x.shape[0], dtype=np.uint16)
    base = np.full(x.shape[0], -2, dtype=np.int64)
    base[2] = 0  # -0.5 lies in interval 0
    base[4] = -3 - 2  # 0.25 shares a slot with edges[2] only: one comparison
    base[8] = -3 - 4  # 1.0 with edges[4]
    found = np.empty(x.shape[0], dtype=np.int64)
    counts = np.zeros(edges.shape[0] + 1, dtype=np.int64)
    _plain(compiled.bins_from_table)(x, slots, base, edges, found, counts, True, 0, x.shape[0])
    assert identical(found, expected)
    # Only the rows the table does not answer alone are counted (the caller counts the rest by slot).
    not_direct = base[slots] < -1
    assert identical(counts, np.bincount(expected[not_direct] + 1, minlength=edges.shape[0] + 1))
    found[:], counts[:] = -9, 0
    _plain(compiled.bins_from_table)(x, slots, base.astype(np.int16), edges, found, counts, True, 0, x.shape[0])
    assert identical(found, expected)  # the same answers from a compact table
    assert identical(counts, np.bincount(expected[not_direct] + 1, minlength=edges.shape[0] + 1))
    counts[:] = 0
    found[:], counts[:] = -9, 0
    _plain(compiled.bins_from_table)(x, slots, base, edges, found, counts, False, 0, x.shape[0])
    assert identical(found, expected) and not counts.any()  # bins alone: nothing counted


def test_select_and_bin_keeps_marked_rows_in_order_and_codes_the_rest():
    x = np.array([3.0, 1.0, 2.0, -0.0, 0.0, 5.0])
    slots = np.array([1, 0, 1, 2, 2, 0], dtype=np.uint16)
    gap = np.array([-1, -32768, 0], dtype=np.int16)  # slot 1 is wanted (marked)
    found, selected, rows = np.full(6, 99, dtype=np.int64), np.empty(2), np.empty(2, dtype=np.intp)
    assert _plain(compiled.select_and_bin)(x, slots, gap, -32768, found, selected, rows) == 2
    assert identical(selected, np.array([3.0, 2.0])) and identical(rows, np.array([0, 2], dtype=np.intp))
    assert identical(found, np.array([-32768, -1, -32768, 0, 0, -1], dtype=np.int64))


def test_take_clip_is_numpys_clip_mode():
    source = np.array([-0.0, 1.5, np.nan, 3.5])
    index = np.array([-7, 0, 1, 2, 3, 4, 99, 2], dtype=np.int64)
    out = np.full(index.shape[0], 9.0)
    _plain(compiled.take_clip)(source, index, out, 1, 7)
    expected = np.take(source, index, mode="clip")
    assert identical(out[1:7], expected[1:7]) and out[0] == 9.0 and out[7] == 9.0  # only rows 1 .. 6


def test_select_slots_keeps_row_order():
    x = np.array([3.0, 1.0, 2.0, -0.0, 0.0, 5.0])
    slots = np.array([1, 0, 1, 2, 2, 0], dtype=np.uint16)
    keep = np.array([False, True, True])
    out = np.empty(4)
    assert _plain(compiled.select_slots)(x, slots, keep, out) == 4
    assert identical(out, x[keep[slots]])


def test_group_totals_add_like_bincount():
    rng = np.random.default_rng(2)
    groups = rng.integers(0, 9, 700)
    values = rng.normal(size=(700, 2)) * 1e3 + 1e7  # large common level: any other order rounds differently
    total = np.zeros(9)
    _plain(compiled.group_totals)(groups, values, 1, total)
    assert identical(total, np.bincount(groups, weights=values[:, 1], minlength=9))


@pytest.mark.parametrize("weighted", [False, True])
def test_spread_loops_add_like_bincount(weighted):
    rng = np.random.default_rng(1)
    groups = rng.integers(0, 7, 500)
    values = rng.normal(size=(500, 2)) * 1e3 + 1e6
    reference = rng.normal(size=7) + 1e6
    weights = rng.random(500)
    centred, squares = np.zeros(7), np.zeros(7)
    if weighted:
        _plain(compiled.spread_sums_weighted)(groups, values, 1, reference, weights, centred, squares)
    else:
        _plain(compiled.spread_sums)(groups, values, 1, reference, centred, squares)
    shifted = values[:, 1] - reference[groups]
    weighted_shifted = shifted * weights if weighted else shifted
    assert identical(centred, np.bincount(groups, weights=weighted_shifted, minlength=7))
    assert identical(squares, np.bincount(groups, weights=weighted_shifted * shifted, minlength=7))


# ------------------------------------------------------------------ both paths end to end (numba)
def both_ways(monkeypatch, fn):
    out = []
    for setting in ("0", "1"):
        monkeypatch.setenv("PYALE_COMPILED", setting)
        cells._memo.clear()
        cells._provisional.clear()
        out.append(fn())
    return out


@needs_numba
@pytest.mark.parametrize("kind", ["normal", "integers", "heavy tails", "signed zeros", "sorted"])
def test_grid_and_bins_are_identical(monkeypatch, kind):
    rng = np.random.default_rng(2)
    n = 120_000
    x = {"normal": rng.normal(size=n), "integers": rng.integers(0, 30, n).astype(float),
         "heavy tails": rng.standard_cauchy(n), "signed zeros": np.where(rng.random(n) < 0.3, -0.0, rng.normal(size=n)),
         "sorted": np.sort(rng.normal(size=n))}[kind]
    positions = np.unique(np.floor(np.linspace(0, n - 1, 41)).astype(np.intp))
    plain, fast = both_ways(monkeypatch, lambda: cells.order_statistics(x, positions))
    assert identical(plain, fast)
    edges = np.unique(plain)
    for grid in (edges, np.concatenate([[edges[0] - 1.0], edges[1:-1], [edges[-1] + 1.0]])):
        plain, fast = both_ways(monkeypatch, lambda: cells.bins_right_closed(x, grid))
        assert identical(plain, fast)
        (plain, plain_counts), (fast, fast_counts) = both_ways(
            monkeypatch, lambda: cells.bins_right_closed(x, grid, counts=True))
        assert identical(plain, fast) and identical(plain_counts, fast_counts)
        assert identical(fast_counts, np.bincount(fast + 1, minlength=grid.shape[0] + 1))


@needs_numba
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("counted", [False, True])
@pytest.mark.parametrize("spread", [False, True])
def test_group_sums_are_identical(monkeypatch, weighted, counted, spread):
    rng = np.random.default_rng(3)
    n, n_groups = 600_000, 40
    groups = rng.integers(0, n_groups, n)
    values = rng.normal(size=(n, 2)) + 1e5
    values[: n // 2, 0] = 7.0  # constant differences in part of the rows
    weights = rng.random(n) if weighted else None
    counts = np.bincount(groups, minlength=n_groups) if counted and not weighted else None
    plain, fast = both_ways(monkeypatch, lambda: sums_module.group_sums(groups, n_groups, values, weights,
                                                                        spread=spread, counts=counts))
    for field in ("rows", "weight", "total", "reference", "centred", "squares"):
        if not spread and field in ("reference", "centred", "squares"):
            assert getattr(plain, field) is None and getattr(fast, field) is None
            continue
        assert identical(getattr(plain, field), getattr(fast, field)), field


@needs_numba
def test_ale_is_identical_both_ways(monkeypatch):
    rng = np.random.default_rng(4)
    n = 150_000
    X = pd.DataFrame({"a": rng.normal(size=n), "b": rng.integers(0, 20, n).astype(float), "c": rng.normal(size=n)})

    def model(frame):
        return frame["a"].to_numpy() * frame["b"].to_numpy() + np.sin(frame["c"].to_numpy())

    def run():
        one = pyale.ale(model, X, ["a", "b", ("a", "c")], n_intervals=25)
        weighted = pyale.ale(model, X, "c", n_intervals=25, sample_weight=rng_weights)
        aleplot = pyale.ALEPlot(X, None, lambda m, d: model(d), J="a", K=30, plot=False)
        return one, weighted, aleplot

    rng_weights = np.random.default_rng(5).random(n)
    plain, fast = both_ways(monkeypatch, run)
    for a, b in zip(list(plain[0]) + [plain[1]], list(fast[0]) + [fast[1]]):
        assert all(identical(u, v) for u, v in zip(a.grid, b.grid))
        for field in ("effects", "counts", "heterogeneity"):
            assert identical(getattr(a, field), getattr(b, field)), field
    assert identical(plain[2].f_values, fast[2].f_values) and identical(plain[2].x_values, fast[2].x_values)


@needs_numba
def test_a_missing_cache_directory_compiles_without_caching(monkeypatch):
    # numba raises RuntimeError at decoration when no cache locator can write; pyale must still import and run
    real = compiled.numba.njit

    def njit(**options):
        if options.get("cache"):
            raise RuntimeError("cannot cache function: no locator available")
        return real(**options)

    monkeypatch.setattr(compiled.numba, "njit", njit)
    loop = compiled._jit(lambda values: values.sum())
    assert loop(np.arange(4.0)) == 6.0


@needs_numba
@pytest.mark.parametrize("kind", ["normal", "rounded", "with edges shared by a slot"])
def test_bins_made_while_selecting_equal_binary_search(monkeypatch, kind):
    # order_statistics bins the rows outside the wanted slots in its selection pass; bins_right_closed
    # then places only the rest.  Whatever the edges, the bins and counts are those of binary search.
    monkeypatch.setenv("PYALE_COMPILED", "1")
    rng = np.random.default_rng(7)
    x = rng.normal(size=120_000)
    if kind == "rounded":
        x = np.round(x, 3)
    x.flags.writeable = False
    positions = np.unique(np.linspace(0, x.shape[0] - 1, 41).astype(np.intp))
    used = []
    original = cells._Provisional.bins
    monkeypatch.setattr(cells._Provisional, "bins", lambda self, *a: used.append(original(self, *a)) or used[-1])
    assert identical(cells.order_statistics(x, positions), np.sort(x)[positions])
    assert id(x) not in cells._provisional  # only asked for when the rows are binned next
    stats = cells.order_statistics(x, positions, bins_next=True)
    assert identical(stats, np.sort(x)[positions])
    edges = np.unique(stats)
    if kind == "with edges shared by a slot":  # one more edge beside one of them: not one edge per slot
        edges = np.unique(np.concatenate([edges, [np.nextafter(edges[20], np.inf)]]))
    found, counts = cells.bins_right_closed(x, edges, counts=True)
    expected = np.searchsorted(edges, x, side="left") - 1
    expected[x == edges[0]] = 0
    assert identical(found, expected)
    assert identical(counts, np.bincount(expected + 1, minlength=edges.shape[0] + 1))
    assert len(used) == 1 and (used[0] is None) == (kind == "with edges shared by a slot")
    assert id(x) not in cells._provisional  # handed over once
    again = cells.bins_right_closed(x, edges)  # the ordinary pass now
    assert identical(again, expected) and again is not found


@needs_numba
def test_provisional_bins_are_refused_for_edges_in_other_slots_and_dropped_for_writable_values(monkeypatch):
    monkeypatch.setenv("PYALE_COMPILED", "1")
    x = np.random.default_rng(8).normal(size=100_000)
    x.flags.writeable = False
    positions = np.linspace(0, x.shape[0] - 1, 21).astype(np.intp)
    edges = np.unique(cells.order_statistics(x, positions, bins_next=True))
    moved = edges.copy()
    moved[10] = (edges[10] + edges[11]) / 2  # as many edges, one in another slot
    expected = np.searchsorted(moved, x, side="left") - 1
    expected[x == moved[0]] = 0
    assert identical(cells.bins_right_closed(x, moved), expected)  # the ordinary pass
    cells.order_statistics(x, positions, bins_next=True)
    found = cells.bins_right_closed(x, edges, counts=False)  # bins alone from the kept ones
    plain = np.searchsorted(edges, x, side="left") - 1
    plain[x == edges[0]] = 0
    assert identical(found, plain)
    cells.order_statistics(x, positions, bins_next=True)
    x.flags.writeable = True  # the values may change from here: what was kept is dropped, not used
    assert identical(cells.bins_right_closed(x, edges), plain) and id(x) not in cells._provisional


@needs_numba
def test_provisional_bins_are_made_for_at_most_a_few_columns_at_once(monkeypatch):
    monkeypatch.setenv("PYALE_COMPILED", "1")
    cells._provisional.clear()
    rng = np.random.default_rng(9)
    columns = []
    for _ in range(cells._PROVISIONAL_SIZE + 3):
        x = rng.normal(size=60_000)
        x.flags.writeable = False
        columns.append(x)
        cells.order_statistics(x, np.array([0, 30_000, 59_999]), bins_next=True)
    assert len(cells._provisional) == cells._PROVISIONAL_SIZE  # the rest take the ordinary bins pass later
    for x in columns:
        edges = np.unique(np.sort(x)[[0, 30_000, 59_999]])
        expected = np.searchsorted(edges, x, side="left") - 1
        expected[x == edges[0]] = 0
        assert identical(cells.bins_right_closed(x, edges), expected)
    assert not cells._provisional
