"""pyale's kept scratch memory (pyale/_scratch.py): reused only when nothing views it, bounded, and off on request."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

import pyale
from pyale import _scratch as scratch

DEFAULT_MIN_BYTES = scratch.MIN_BYTES  # before the fixture lowers it
SIZE = (4, 100_000)  # 3.2 MB: above MIN_BYTES as set below


@pytest.fixture(autouse=True)
def empty_pool(monkeypatch):
    monkeypatch.delenv("PYALE_SCRATCH_MB", raising=False)
    monkeypatch.setattr(scratch, "MIN_BYTES", 1 << 20)  # small arrays here stand for the large ones
    scratch.release()
    yield
    scratch.release()


def address(a: np.ndarray) -> int:
    return a.__array_interface__["data"][0]


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.uint16])
def test_arrays_have_the_shape_dtype_and_order_asked(order, dtype):
    a = scratch.empty(SIZE, dtype, order=order)
    assert a.shape == SIZE and a.dtype == dtype and a.flags.writeable
    assert a.flags.c_contiguous if order == "C" else a.flags.f_contiguous
    a[...] = 7
    assert np.all(a == 7)


def test_memory_is_reused_once_nothing_views_it():
    a = scratch.empty(SIZE, np.float64)
    where = address(a)
    del a
    b = scratch.empty(SIZE, np.float64)
    assert address(b) == where  # the same buffer, no fresh pages
    assert scratch.kept_bytes() >= b.nbytes


def test_memory_a_view_still_holds_is_never_handed_out_again():
    a = scratch.empty(SIZE, np.float64)
    a[...] = 1.0
    view = a.T[10:20]  # a view of a view: it still references the buffer
    frame = pd.DataFrame(a.T, copy=False)  # pandas holding the memory counts too
    where = address(a)
    del a
    b = scratch.empty(SIZE, np.float64)
    b[...] = 2.0
    assert address(b) != where
    assert np.all(view == 1.0) and np.all(frame.to_numpy() == 1.0)
    del view, b
    c = scratch.empty(SIZE, np.float64)
    assert address(c) != where  # the frame still holds it
    del frame, c
    assert scratch.kept_bytes() > 0


def test_small_arrays_are_plain_numpy():
    a = scratch.empty(1000, np.float64)
    assert a.shape == (1000,) and scratch.kept_bytes() == 0


def test_only_arrays_glibc_never_reuses_are_kept_by_default():
    assert DEFAULT_MIN_BYTES == 32 << 20  # glibc's largest mmap threshold (64-bit): see pyale/_scratch.py


def test_zero_turns_the_pool_off(monkeypatch):
    monkeypatch.setenv("PYALE_SCRATCH_MB", "0")
    a = scratch.empty(SIZE, np.float64)
    assert a.shape == SIZE and scratch.kept_bytes() == 0


def test_the_pool_keeps_no_more_than_its_budget(monkeypatch):
    monkeypatch.setenv("PYALE_SCRATCH_MB", "5")  # one 3.2 MB buffer fits, not two
    first = scratch.empty(SIZE, np.float64)
    second = scratch.empty(SIZE, np.float64)  # the first is in use: this one is plain memory
    assert scratch.kept_bytes() == first.nbytes
    del first, second
    big = scratch.empty((4, 1_000_000), np.float64)  # over the budget: never kept
    assert big.shape == (4, 1_000_000) and scratch.kept_bytes() <= 5 << 20


def test_a_lowered_budget_gives_kept_buffers_back(monkeypatch):
    a = scratch.empty(SIZE, np.float64)
    del a
    assert scratch.kept_bytes() > 0
    monkeypatch.setenv("PYALE_SCRATCH_MB", "0")
    b = scratch.empty(SIZE, np.float64)  # off now: plain memory, and the free buffer is given back
    assert b.shape == SIZE and scratch.kept_bytes() == 0


@pytest.mark.parametrize("value", ["-1", "lots", "1.5"])
def test_a_bad_budget_is_refused(monkeypatch, value):
    monkeypatch.setenv("PYALE_SCRATCH_MB", value)
    with pytest.raises(ValueError, match=re.escape(
            f"PYALE_SCRATCH_MB must be a non-negative integer. Got {value!r} instead.")):
        scratch.empty(SIZE, np.float64)


def _frame(n=120_000):
    rng = np.random.default_rng(0)
    return pd.DataFrame({f"x{j}": rng.normal(size=n) for j in range(4)})


def test_an_ale_call_leaves_its_scratch_free_and_the_next_call_reuses_it():
    X = _frame()

    def model(frame):
        v = frame.to_numpy()
        return v @ np.array([1.0, -2.0, 0.5, 3.0]) + np.sin(v[:, 0])

    first = pyale.ale(model, X, "x1", n_intervals=20)
    kept = [(address(np.frombuffer(b.raw, dtype=np.uint8)), b.nbytes) for b in scratch._buffers]
    assert kept and all(b.free() for b in scratch._buffers)  # nothing of pyale's views them any more
    second = pyale.ale(model, X, "x1", n_intervals=20)
    assert [(address(np.frombuffer(b.raw, dtype=np.uint8)), b.nbytes) for b in scratch._buffers] == kept
    np.testing.assert_array_equal(first.effects, second.effects)


def test_a_model_that_keeps_its_input_keeps_it_unchanged():
    X = _frame()
    seen = []

    def model(frame):
        seen.append(frame)  # a model that holds on to what it was given
        return frame.to_numpy() @ np.array([1.0, -2.0, 0.5, 3.0])

    pyale.ale(model, X, "x1", n_intervals=20)
    snapshot = [frame.to_numpy().copy() for frame in seen]
    for name in ("x0", "x2", "x3"):  # later calls must take other memory, not write over it
        pyale.ale(model, X, name, n_intervals=20)
    for frame, values in zip(seen, snapshot):
        np.testing.assert_array_equal(frame.to_numpy(), values)


def test_a_new_private_copy_writes_its_shifted_columns_again():
    # ShiftedFrames is not meant to be called after it handed out its last frame; if it is, the new
    # copy of the rows (in reused memory) must still get the shifted column, not the old bytes.
    from pyale._core.map.shifted import ShiftedFrames

    X = _frame()
    values = np.full(X.shape[0], 3.5)
    shifted = ShiftedFrames(X)
    first, _ = shifted.frame({"x1": values}, last=True)
    del first
    for b in scratch._buffers:
        if b.free():
            np.frombuffer(b.raw, dtype=np.uint8)[:] = 0xFF  # stale bytes in the kept memory
    again, _ = shifted.frame({"x1": values})
    np.testing.assert_array_equal(again["x1"].to_numpy(), values)
    np.testing.assert_array_equal(again["x0"].to_numpy(), X["x0"].to_numpy())
