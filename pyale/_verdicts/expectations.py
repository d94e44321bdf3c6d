"""Expectations about a curve as margins that must not be negative (see ``decision.py``).

A curve is read along one axis: a main effect is one line; a pair gives one
line along the axis checked for every grid point (node or level) of the
other axis.  Margins of every line are tested together.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

__all__ = ["EXPECTATIONS", "Expectation", "read_expectation"]

#: name -> (what is checked, direction, strict)
EXPECTATIONS = {
    "increasing": ("monotone", 1.0, True),
    "non-decreasing": ("monotone", 1.0, False),
    "decreasing": ("monotone", -1.0, True),
    "non-increasing": ("monotone", -1.0, False),
    "positive": ("sign", 1.0, True),
    "negative": ("sign", -1.0, True),
}


@dataclass(frozen=True)
class Expectation:
    """One expectation: a built-in shape (``kind`` ``"monotone"`` or ``"sign"``, ``direction``
    +1 or -1) or a user function (``kind`` ``"function"``)."""

    name: str
    kind: str
    direction: float = 1.0
    strict: bool = False
    function: Callable | None = None

    def margins(self, grid_values, lines: np.ndarray, *, where: str) -> np.ndarray:
        """Margins of ``lines`` (``(..., L, n)``: lines along the axis) as ``(..., L, M)``."""
        if self.kind == "monotone":
            return self.direction * np.diff(lines, axis=-1)
        if self.kind == "sign":
            return self.direction * (lines[..., -1:] - lines[..., :1])
        return _function_margins(self.function, grid_values, lines, where=where)


def read_expectation(value, *, where: str, caller: str) -> Expectation:
    """An :class:`Expectation` from a name of :data:`EXPECTATIONS` or a callable."""
    if isinstance(value, str):
        if value not in EXPECTATIONS:
            raise ValueError(
                f"The 'expect' parameter of {caller} must give {where} one of {list(EXPECTATIONS)!r} or a "
                f"function of the curve. Got {value!r} instead."
            )
        kind, direction, strict = EXPECTATIONS[value]
        return Expectation(value, kind, direction, strict)
    if callable(value):
        return Expectation(getattr(value, "__name__", "function"), "function", function=value)
    raise TypeError(
        f"The 'expect' parameter of {caller} must give {where} one of {list(EXPECTATIONS)!r} or a function "
        f"of the curve. Got {value!r} instead."
    )


def _function_margins(function, grid_values, lines: np.ndarray, *, where: str) -> np.ndarray:
    flat = lines.reshape(-1, lines.shape[-1])
    out = []
    size = None
    for line in flat:
        try:
            value = np.atleast_1d(np.asarray(function(grid_values, line.copy()), dtype=float))
        except (TypeError, ValueError) as exc:
            raise TypeError(
                f"The expectation function for {where} must return a number or a 1-D array of numbers "
                f"(margins that are >= 0 where the expectation holds); it raised {type(exc).__name__}: {exc}"
            ) from exc
        if value.ndim != 1 or (size is not None and value.shape[0] != size) or value.shape[0] == 0:
            raise ValueError(
                f"The expectation function for {where} must return a number or a 1-D array of the same "
                f"length for every curve. Got shape {value.shape} instead."
            )
        size = value.shape[0]
        out.append(value)
    return np.stack(out).reshape(lines.shape[:-1] + (size,))
