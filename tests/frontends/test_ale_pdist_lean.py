"""ALEpDist's lean path for all-float64 data (one array per refit, no engine) gives the general path's numbers."""

import numpy as np
import pandas as pd
import pytest

import pyale
from pyale._frontends.alepkg import pdist


def _refit(frame):
    X = np.column_stack([np.ones(frame.shape[0]), frame.drop(columns="y").to_numpy()])
    beta = np.linalg.lstsq(X, frame["y"].to_numpy(), rcond=None)[0]
    return lambda new: np.column_stack([np.ones(new.shape[0]), new.to_numpy()]) @ beta


def _data(n=120, seed=3):
    rng = np.random.default_rng(seed)
    data = pd.DataFrame({"a": rng.normal(size=n), "b": rng.uniform(size=n)})
    data["y"] = data["a"] - 2 * data["b"] + rng.normal(size=n)
    return data


def _stats(data, **kw):
    dist = pyale.ALEpDist(_refit(data), data, "y", refit=_refit, rand_it=100, seed=7, **kw)
    return dist.rand_stats["y"]


def test_lean_path_equals_general_path(monkeypatch):
    data = _data()
    lean = _stats(data)
    monkeypatch.setattr(pdist._Template, "of", classmethod(lambda cls, frame: None))
    general = _stats(data)
    pd.testing.assert_frame_equal(lean, general, check_exact=True)


def test_lean_path_is_taken_and_sees_the_general_frames(monkeypatch):
    seen = []
    original = pdist._local_sums
    monkeypatch.setattr(pdist, "_local_sums", lambda *a: seen.append(a[1]) or original(*a))
    data = _data(n=60)
    before = data.copy()
    _stats(data)
    assert len(seen) == 100
    assert list(seen[0].columns) == ["a", "b", "random_variable"]
    pd.testing.assert_frame_equal(data, before)


def test_refit_that_writes_into_its_data_changes_nothing():
    data = _data(n=80)
    before = data.copy()

    def vandal(frame):
        model = _refit(frame)
        frame.loc[:, "a"] = 0.0  # the refit's own copy: neither the caller's data nor the ALE rows change
        frame.loc[:, "random_variable"] = 0.0
        return model

    dist = pyale.ALEpDist(_refit(data), data, "y", refit=vandal, rand_it=100, seed=7)
    pd.testing.assert_frame_equal(data, before)
    pd.testing.assert_frame_equal(dist.rand_stats["y"], _stats(data), check_exact=True)


@pytest.mark.parametrize("extra", ["int", "random_variable"])
def test_other_frames_take_the_general_path(extra):
    data = _data(n=60)
    if extra == "int":
        data["k"] = np.arange(60) % 3
    else:
        data["random_variable"] = 1.0  # replaced in its place by each refit's random variable
    stats = _stats(data)
    assert stats.shape == (100, 6) and np.isfinite(stats.to_numpy()).all()
