"""Order-preserving float keys, and monotone maps from a key range to cells.

A value's *key* is its IEEE-754 bit pattern made order-preserving (flip
every bit of a negative number, only the sign bit of a positive one):
distinct floats get distinct uint64 keys, a smaller float a smaller key
(-0.0 just below +0.0), so a range of values is a range of integers, with
nothing to round or overflow.

:class:`CellMap` sends the values of one key range ``[low, high]`` to cells
``0 .. n_cells - 1`` by a map that never decreases, so every cell holds a run
of consecutive values in sorted order.  Two maps:

* the *value* map, equal-width cells in value,
  ``trunc(clip((x * 0.5 - low_value * 0.5) * scale, 0, n_cells - 1))``:
  halving first keeps ``high - low`` finite near +-1.8e308; every step
  (correctly rounded multiplication and subtraction, clipping, truncation)
  is monotone, whatever the rounding; spreads smooth data evenly;
* the *key* map ``(key - low) >> shift``: exact integer arithmetic, used
  where the value map degenerates (a range of a few subnormals).

:meth:`CellMap.first_keys` finds the exact key where each cell starts by
bisection on keys with the same floating-point operations, so a cell's key
range is known exactly and the next pass can refine it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["float_keys", "key_of", "float_of_key", "CellMap"]

_SIGN = np.uint64(1 << 63)
TOP = (1 << 64) - 1


def float_keys(values: np.ndarray) -> np.ndarray:
    """Order-preserving uint64 keys of float64 values (NaN must be removed first).

    Examples
    --------
    >>> keys = float_keys(np.array([-np.inf, -1.0, -0.0, 0.0, 5e-324, 1.0, np.inf]))
    >>> bool(np.all(np.diff(keys.astype(object)) > 0))
    True
    """
    values = np.ascontiguousarray(values, dtype=np.float64)
    mask = (values.view(np.int64) >> np.int64(63)).view(np.uint64)
    mask |= _SIGN
    return values.view(np.uint64) ^ mask


def key_of(value: float) -> int:
    """The key of one float, as a Python int."""
    return int(float_keys(np.array([value]))[0])


def floats_of_keys(keys: np.ndarray) -> np.ndarray:
    """The floats whose keys are ``keys`` (uint64)."""
    keys = np.asarray(keys, dtype=np.uint64)
    positive = keys >= _SIGN
    bits = np.where(positive, keys ^ _SIGN, ~keys)
    return bits.view(np.float64)


def float_of_key(key: int) -> float:
    """The float whose key is ``key``."""
    return float(floats_of_keys(np.array([key], dtype=np.uint64))[0])


def _value_cells(values: np.ndarray, half_low, scale, top) -> np.ndarray:
    """The value map; the same operations on scalars and arrays give the same cells."""
    position = np.multiply(values, 0.5)
    position -= half_low
    position *= scale
    np.clip(position, 0.0, top, out=position)
    return position.astype(np.intp)


@dataclass(frozen=True)
class CellMap:
    """A monotone map from the keys ``[low, high]`` (and their values) to cells."""

    low: int
    high: int
    n_cells: int
    shift: int | None = None  # key map
    half_low: float = 0.0  # value map
    scale: float = 0.0

    @classmethod
    def over(cls, low: int, high: int, bits: int) -> "CellMap":
        """At most ``2**bits`` cells over ``[low, high]``: value map when it is sound, else key map."""
        a, b = float_of_key(low), float_of_key(high)
        half_low = a * 0.5
        with np.errstate(all="ignore"):
            scale = float(np.float64(1 << bits) / (np.float64(b * 0.5) - np.float64(half_low)))
        if np.isfinite(scale) and scale > 0:
            return cls(low, high, 1 << bits, half_low=half_low, scale=scale)
        shift = max(0, (high - low).bit_length() - bits)
        return cls(low, high, ((high - low) >> shift) + 1, shift=shift)

    def cells(self, values: np.ndarray, keys: np.ndarray) -> np.ndarray:
        """Cell of each value (all within ``[low, high]``)."""
        if self.shift is not None:
            return ((keys - np.uint64(self.low)) >> np.uint64(self.shift)).astype(np.intp)
        return _value_cells(values, self.half_low, self.scale, float(self.n_cells - 1))

    def first_keys(self, cells: np.ndarray) -> np.ndarray:
        """The smallest key in ``[low, high]`` whose cell is ``>= c``, for each ``c`` (object ints).

        A cell beyond the last gives ``high + 1``.
        """
        cells = np.asarray(cells, dtype=np.int64)
        if self.shift is not None:
            starts = [self.low + (int(c) << self.shift) for c in cells]
            return np.array([min(s, self.high + 1) for s in starts], dtype=object)
        lo = np.full(cells.shape[0], self.low, dtype=object)  # answer in [lo, hi]
        hi = np.full(cells.shape[0], self.high + 1, dtype=object)
        while True:
            open_ = lo < hi
            if not open_.any():
                return lo
            mid = (lo + hi) // 2
            probe = np.where(open_, mid, self.low).astype(np.uint64)
            reached = self.cells(floats_of_keys(probe), probe) >= cells
            hi = np.where(open_ & reached, mid, hi)
            lo = np.where(open_ & ~reached, mid + 1, lo)
