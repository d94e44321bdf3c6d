"""Gradient ALE from a torch.nn.Module (autograd) and from a JAX function (jax.grad).

Each test skips with the reason when its framework is not installed (the
``torch`` and ``jax`` extras); the framework-free path (``jacobian=`` a
NumPy function) is tested in test_rhale.py and against effector.
"""

from __future__ import annotations

import importlib.util

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose

import pyale


def _require(name):
    if importlib.util.find_spec(name) is None:
        pytest.skip(f"{name} is not installed (pip install 'pyale-r[{name}]'); the gradient tests for it need it")
    return pytest.importorskip(name)


def _frame(n=400, seed=0):
    rng = np.random.default_rng(seed)
    return pd.DataFrame(rng.uniform(-1, 1, size=(n, 3)), columns=["a", "b", "c"])


def _central(predict, eps=1e-6):
    def jacobian(values):
        out = np.empty_like(values)
        for j in range(values.shape[1]):
            up, down = values.copy(), values.copy()
            up[:, j] += eps
            down[:, j] -= eps
            out[:, j] = (predict(up) - predict(down)).ravel() / (2 * eps)
        return out

    return jacobian


def _mlp(torch, dtype):
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(3, 16), torch.nn.Tanh(), torch.nn.Linear(16, 1)).to(dtype)
    return net.eval()


@pytest.mark.parametrize("dtype_name", ["float64", "float32"])
def test_torch_module_autograd(dtype_name):
    """Autograd of the module (in its own dtype) against central differences of a float64 copy, same bins."""
    torch = _require("torch")
    dtype = getattr(torch, dtype_name)
    net = _mlp(torch, dtype)
    twin = _mlp(torch, torch.float64)
    X = _frame()

    def predict(values):
        with torch.no_grad():
            return twin(torch.tensor(values, dtype=torch.float64)).numpy().ravel()

    auto = pyale.ale(net, X, ["a", "b"], method="gradient", n_intervals=12)
    numeric = pyale.ale(net, X, ["a", "b"], method="gradient", n_intervals=12, jacobian=_central(predict))
    tol = 1e-7 if dtype_name == "float64" else 1e-5
    for r_auto, r_num in zip(auto, numeric):
        assert_allclose(r_auto.effects, r_num.effects, rtol=tol, atol=tol)
        assert_allclose(r_auto.heterogeneity[1:], r_num.heterogeneity[1:], rtol=1e-4, atol=tol)
    assert np.isfinite(auto[0].statistics.to_numpy(dtype=float)).all()  # predictions through the module


def test_torch_module_with_two_outputs_is_refused():
    torch = _require("torch")
    net = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 2))
    with pytest.raises(ValueError, match=r"one output per row; the model returned shape \(400, 2\)"):
        pyale.ale(net, _frame(), "a", method="gradient")


def test_torch_finite_differences_of_a_module():
    """A module's finite-difference ALE (model called on float arrays) agrees with its gradient ALE on a fine grid."""
    torch = _require("torch")
    net = _mlp(torch, torch.float64)
    X = _frame(2000, 1)
    fd = pyale.ale(net, X, "a", n_intervals=40, method="gradient")
    grid = fd.grid[0]
    from pyale._core.map.jacobians import array_model

    plain = pyale.ale(array_model(net, None), X, "a", grid=grid)
    assert_allclose(fd.effects, plain.effects, atol=2e-3)


def test_jax_function():
    jax = _require("jax")
    jnp = jax.numpy
    w = np.array([0.7, -1.3, 0.4])

    def f(values):
        return jnp.tanh(values @ w) + values[:, 0] * values[:, 2]

    def exact(values):
        t = 1 - np.tanh(values @ w) ** 2
        out = t[:, None] * w[None, :]
        out[:, 0] += values[:, 2]
        out[:, 2] += values[:, 0]
        return out

    X = _frame(500, 2)
    got = pyale.ale(f, X, ["a", "c"], method="gradient", jacobian="jax", n_intervals=10)
    want = pyale.ale(lambda d: np.tanh(np.asarray(d) @ w) + np.asarray(d)[:, 0] * np.asarray(d)[:, 2], X,
                     ["a", "c"], method="gradient", jacobian=exact, n_intervals=10)
    for g, e in zip(got, want):
        assert_allclose(g.effects, e.effects, rtol=1e-5, atol=1e-5)  # JAX computes in float32 by default
