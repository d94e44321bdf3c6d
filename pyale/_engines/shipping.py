"""Sending the mapped function (and the model inside it) to worker processes.

Engines whose workers are other processes (Dask's distributed or process
schedulers, Spark's Python workers) pickle the mapped function once on the
driver with cloudpickle; each worker process unpickles it once and keeps it
for the blocks it is given (:func:`unpickled`).  A function that cannot be
pickled, almost always because of the model it calls, is refused before any
work starts with :class:`UnpicklableError`, which names the object that
failed (the model's type) and the reason.  A worker that cannot import
pyale, its dependencies or the model's modules is reported with
:class:`WorkerImportError`, which says which interpreter the workers run and
how to choose another.
"""

from __future__ import annotations

import functools
import pickle
import threading
import types
from collections import OrderedDict

__all__ = ["UnpicklableError", "WorkerImportError", "pickled", "unpickled"]

_CACHE_SIZE = 2
_cache: OrderedDict = OrderedDict()
_lock = threading.Lock()


class UnpicklableError(TypeError):
    """The function mapped over the blocks (usually its model) cannot be sent to the workers."""


class WorkerImportError(ModuleNotFoundError):
    """A worker process cannot import a module the mapped function needs (pyale, pandas, the model's)."""


def _dumps(obj, spark: bool = False) -> bytes:
    """cloudpickle: Spark's own copy for Spark (its workers may have no other), Dask's otherwise."""
    if spark:
        from pyspark import cloudpickle
    else:
        import cloudpickle
    return cloudpickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)


def _children(obj):
    """(label, object) pairs that pickling ``obj`` also pickles."""
    if isinstance(obj, functools.partial):
        yield "func", obj.func
        for i, arg in enumerate(obj.args):
            yield f"args[{i}]", arg
        for key, value in (obj.keywords or {}).items():
            yield key, value
    elif isinstance(obj, types.MethodType):
        yield "__self__", obj.__self__
        yield "__func__", obj.__func__
    elif isinstance(obj, types.FunctionType):
        for name, cell in zip(obj.__code__.co_freevars, obj.__closure__ or ()):
            try:
                yield name, cell.cell_contents
            except ValueError:  # an empty cell
                continue
        for i, default in enumerate(obj.__defaults__ or ()):
            yield f"default[{i}]", default
        by_value = obj.__module__ in (None, "__main__") or "<" in obj.__qualname__
        for name in obj.__code__.co_names if by_value else ():  # globals cloudpickle sends along
            if name in obj.__globals__ and not isinstance(obj.__globals__[name], types.ModuleType):
                yield name, obj.__globals__[name]
    elif isinstance(obj, dict):
        yield from ((repr(k), v) for k, v in obj.items())
    elif isinstance(obj, (list, tuple, set, frozenset)):
        yield from ((f"[{i}]", v) for i, v in enumerate(obj))
    else:
        state = getattr(obj, "__dict__", None)
        if isinstance(state, dict):
            yield from state.items()


def _fails(obj, spark: bool) -> bool:
    try:
        _dumps(obj, spark)
    except Exception:  # noqa: BLE001 - any failure to pickle
        return True
    return False


def _failing_chain(obj, spark: bool, depth: int = 0) -> list:
    """The objects from ``obj`` down to the innermost one that fails to pickle."""
    if depth > 12:
        return [obj]
    for _, child in _children(obj):
        if _fails(child, spark):
            return [obj, *_failing_chain(child, spark, depth + 1)]
    return [obj]


def _is_wrapper(obj) -> bool:
    """pyale's own wrappers, functions and containers: not what a user calls the model."""
    if isinstance(obj, (functools.partial, types.FunctionType, types.MethodType, dict, list, tuple, set)):
        return True
    return type(obj).__module__.startswith("pyale")


def _describe(obj) -> str:
    kind = type(obj)
    return f"{kind.__module__}.{kind.__qualname__}"


def pickled(func, *, workers: str, data: str, spark: bool = False) -> bytes:
    """``func`` pickled with cloudpickle, or a clear :class:`UnpicklableError`.

    Parameters
    ----------
    func : callable
        The function mapped over the blocks.
    workers : str
        Who receives it, for the message (e.g. "Spark's Python workers").
    data : str
        The data the model is used on, for the message (e.g. "Spark DataFrame").
    spark : bool
        Pickle with pyspark's cloudpickle (what Spark's workers have).
    """
    try:
        return _dumps(func, spark)
    except Exception as exc:  # noqa: BLE001 - pickling fails with many exception types
        chain = _failing_chain(func, spark)
        outer = [obj for obj in chain if not _is_wrapper(obj)]
        culprit = outer[0] if outer else chain[-1]
        what = f"the model (a {_describe(culprit)} object)" if outer else f"a {_describe(culprit)} object"
        inner = chain[-1]
        detail = "" if inner is culprit else f"; it holds a {_describe(inner)} object that cannot be pickled"
        raise UnpicklableError(
            f"pyale cannot send {what} to {workers}: it cannot be pickled "
            f"({type(exc).__name__}: {exc}){detail}. A model used on a {data} is "
            "pickled once and unpickled by every worker process; make it picklable (e.g. load "
            "external resources lazily) or use Dask's threaded scheduler."
        ) from exc


def unpickled(token: str, payload: bytes):
    """The function pickled as ``payload``, unpickled once per process (keyed by ``token``)."""
    with _lock:
        found = _cache.get(token)
        if found is not None:
            _cache.move_to_end(token)
            return found
    func = pickle.loads(payload)
    with _lock:
        _cache[token] = func
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return func
