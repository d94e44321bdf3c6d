"""A model's derivatives: ``jacobian(array) -> (n, p)`` from PyTorch, JAX or a user function.

Gradient ALE (``method="gradient"``) reads each row's derivative of the
model's output with respect to each of its input columns.  The model is
handed the data as one float array of X's columns in X's order (as
effector's ``model_jac`` is), and the result has one column per input
column:

* a ``torch.nn.Module`` (the ``torch`` extra): reverse-mode autograd of the
  sum of the outputs, which is each row's gradient when rows do not
  interact (no batch statistics: put the module in ``eval()`` mode); the
  input tensor takes the dtype of the module's parameters;
* ``jacobian="jax"`` with a JAX function of a 2-D array (the ``jax``
  extra): ``jax.grad`` of the sum of the outputs, the same way;
* a callable ``jacobian(array) -> (n, p)`` array.

PyTorch and JAX are imported only when one of them is used.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

__all__ = ["jacobian_function", "array_model", "is_torch_module"]


def is_torch_module(model: object) -> bool:
    """Whether ``model`` is a ``torch.nn.Module`` (without importing torch when it is not)."""
    for klass in type(model).__mro__:
        if klass.__module__.startswith("torch.nn") and klass.__name__ == "Module":
            return True
    return False


def _torch_dtype(model):
    import torch

    for parameter in model.parameters():
        return parameter.dtype
    return torch.get_default_dtype()


def _torch_jacobian(model) -> Callable[[np.ndarray], np.ndarray]:
    import torch

    dtype = _torch_dtype(model)

    def jacobian(values: np.ndarray) -> np.ndarray:
        inputs = torch.tensor(values, dtype=dtype, requires_grad=True)
        with torch.enable_grad():
            outputs = model(inputs)
            _one_output(tuple(outputs.shape), values.shape[0])
            (grad,) = torch.autograd.grad(outputs.sum(), inputs)
        return grad.detach().cpu().numpy().astype(np.float64)

    return jacobian


def _jax_jacobian(model) -> Callable[[np.ndarray], np.ndarray]:
    import jax

    grad = jax.grad(lambda values: model(values).sum())

    def jacobian(values: np.ndarray) -> np.ndarray:
        _one_output(tuple(jax.eval_shape(model, values).shape), values.shape[0])
        return np.asarray(grad(values), dtype=np.float64)

    return jacobian


def _one_output(shape: tuple, n_rows: int) -> None:
    """Refuse a model with several outputs: the gradient of their sum would mix them."""
    if shape not in ((n_rows,), (n_rows, 1)):
        raise ValueError(
            f"method='gradient' explains a model with one output per row; the model returned shape {shape} "
            f"for {n_rows} rows. Wrap it to return the output to explain."
        )


def jacobian_function(model: object, jacobian: object, *, caller: str) -> Callable[[np.ndarray], np.ndarray]:
    """``f(array (n, p)) -> (n, p)`` derivatives, from ``jacobian=`` or the model itself."""
    if callable(jacobian):
        return jacobian
    if jacobian is None and is_torch_module(model):
        return _torch_jacobian(model)
    if isinstance(jacobian, str) and jacobian in ("torch", "jax"):
        if jacobian == "torch":
            if not is_torch_module(model):
                raise TypeError(
                    f"The 'jacobian' parameter of {caller} is 'torch', but the model is a "
                    f"{type(model).__name__}, not a torch.nn.Module."
                )
            return _torch_jacobian(model)
        if not callable(model):
            raise TypeError(
                f"The 'jacobian' parameter of {caller} is 'jax', but the model ({type(model).__name__}) is not "
                "callable: pass a JAX function of a 2-D array."
            )
        return _jax_jacobian(model)
    if jacobian is None:
        raise TypeError(
            f"method='gradient' of {caller} needs the model's derivatives: pass a torch.nn.Module as the "
            "model, jacobian='jax' for a JAX function, or jacobian=f with f(array (n, p)) -> (n, p) "
            f"derivatives. Got a {type(model).__name__} and no jacobian."
        )
    raise TypeError(
        f"The 'jacobian' parameter of {caller} must be a callable, 'torch' or 'jax'. Got {jacobian!r} instead."
    )


def array_model(model: object, jacobian: object) -> object:
    """A torch module or JAX function as ``model(frame) -> array`` (other models unchanged)."""
    if is_torch_module(model):
        import torch

        dtype = _torch_dtype(model)

        def predict(frame):
            values = np.asarray(frame, dtype=np.float64)
            with torch.no_grad():
                return model(torch.tensor(values, dtype=dtype)).cpu().numpy().astype(np.float64)

        return predict
    if isinstance(jacobian, str) and jacobian == "jax":
        return lambda frame: np.asarray(model(np.asarray(frame, dtype=np.float64)), dtype=np.float64)
    return model
