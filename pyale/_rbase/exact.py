"""Sums of weights that do not depend on the order of addition.

Frequency weights are added up in many places (total weight, weight per
level or per histogram cell, cumulative weight of sorted values), and each
engine adds them in its own order: one pandas block, Dask partitions, Spark
partitions.  Floating-point addition is not associative, so fractional
weights (``0.1``, ``1 / 3``, random weights) gave sums that differed in the
last bits between engines, and those bits decide which value a cumulative
weight reaches first (a grid edge) and which sign an MDS eigenvector takes
(a level order).  Integer weights add exactly in any order.

Here every sum is exact.  A positive double is an integer times a power of
two, so the weights of a block are integers in units of ``2**base`` (the
lowest set bit of any of them, rounded down to a multiple of
:data:`LIMB_BITS`), cut into limbs of :data:`LIMB_BITS` bits.  Limbs are
added per group as float64 holding integers below ``2**53`` (exact for
fewer than ``2**33`` weights), blocks with different bases are aligned by
whole limbs, and a sum becomes a double only at the end, by a rounding that
depends on its exact value alone (:meth:`ExactSums.rounded`).  So every
engine, every partitioning and every row order gives the same doubles.

Not an R computation: R's packages take no weights.  For integer weights
the doubles are the plain sums, as before.  Pure NumPy; written here
because no library gives grouped, mergeable exact sums (``math.fsum`` is
one scalar at a time and cannot be merged across blocks).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = [
    "LIMB_BITS", "ExactSums", "as_doubles", "exact_group_sums", "exact_total", "exact_running_sums", "exact_prefix_sums",
]

LIMB_BITS = 20
_LIMB = float(1 << LIMB_BITS)
_MASK = np.uint64((1 << LIMB_BITS) - 1)
#: Largest span (in bits) between a block's largest weight and its lowest set bit: the
#: rounding multiplies by 2**LIMB_BITS per limb and must stay below float64's range.
MAX_SPAN = 960


@dataclass(eq=False)
class ExactSums:
    """Exact sums of weights: ``sum_l limbs[..., l] * 2**(base + LIMB_BITS * l)``.

    Attributes
    ----------
    base : int
        Exponent of the lowest limb (a multiple of :data:`LIMB_BITS`).
    limbs : numpy.ndarray
        ``(..., L)`` float64 holding non-negative integers below ``2**53``.
    """

    base: int
    limbs: np.ndarray

    @property
    def shape(self) -> tuple:
        return self.limbs.shape[:-1]

    def _aligned(self, base: int, n_limbs: int) -> np.ndarray:
        low = (self.base - base) // LIMB_BITS
        out = np.zeros(self.shape + (n_limbs,))
        out[..., low : low + self.limbs.shape[-1]] = self.limbs
        return out

    @staticmethod
    def _span(parts) -> tuple[int, int]:
        """The lowest base and the number of limbs that hold every one of ``parts``."""
        base = min(p.base for p in parts)
        top = max(p.base + LIMB_BITS * p.limbs.shape[-1] for p in parts)
        return base, (top - base) // LIMB_BITS

    def __add__(self, other: "ExactSums") -> "ExactSums":
        if other is None or (isinstance(other, (int, float)) and other == 0):
            return self
        base, n_limbs = ExactSums._span((self, other))
        return ExactSums(base, self._aligned(base, n_limbs) + other._aligned(base, n_limbs))

    __radd__ = __add__

    def __getitem__(self, index) -> "ExactSums":
        if not isinstance(index, tuple):
            index = (index,)
        return ExactSums(self.base, self.limbs[index + (slice(None),)])

    @staticmethod
    def zeros(size: int) -> "ExactSums":
        return ExactSums(0, np.zeros((size, 0)))

    @staticmethod
    def concatenate(parts: list) -> "ExactSums":
        """The 1-D sums of ``parts`` end to end."""
        if not parts:
            return ExactSums.zeros(0)
        base, n_limbs = ExactSums._span(parts)
        return ExactSums(base, np.concatenate([p._aligned(base, n_limbs) for p in parts]))

    def reshape(self, *shape) -> "ExactSums":
        return ExactSums(self.base, self.limbs.reshape(*shape, self.limbs.shape[-1]))

    def positive(self) -> np.ndarray:
        """Which sums are above zero (exactly)."""
        return self.limbs.any(axis=-1)

    def exclusive_cumsum(self) -> "ExactSums":
        """Running sums of the 1-D sums before each one (0 for the first)."""
        running = np.cumsum(self.limbs, axis=0)
        return ExactSums(self.base, np.concatenate([np.zeros((1,) + running.shape[1:]), running[:-1]]))

    def cumsum(self, axis: int = 0) -> "ExactSums":
        """Running sums along ``axis`` (exact: the limbs stay integers below ``2**53``)."""
        return ExactSums(self.base, np.cumsum(self.limbs, axis=_axis(axis, self.limbs.ndim)))

    def sum(self, axis: int = 0) -> "ExactSums":
        return ExactSums(self.base, self.limbs.sum(axis=_axis(axis, self.limbs.ndim)))

    def rounded(self) -> np.ndarray:
        """The sums as doubles, a function of each exact value alone (within a few units in the last place).

        Carries are propagated so that every limb but the top one is below
        ``2**LIMB_BITS``; the limbs are then combined from the top down,
        ``value = value * 2**LIMB_BITS + limb``.  Extra zero limbs below or
        above change nothing (multiplying by a power of two and adding 0 are
        exact), so the result does not depend on the base a block chose.
        Integer sums below ``2**53`` come out exact.
        """
        limbs = self.limbs.copy(order="K")
        n_limbs = limbs.shape[-1]
        for level in range(n_limbs - 1):
            carry = np.floor(limbs[..., level] / _LIMB)
            limbs[..., level] -= carry * _LIMB
            limbs[..., level + 1] += carry
        value = limbs[..., n_limbs - 1].copy() if n_limbs else np.zeros(self.shape)
        for level in range(n_limbs - 2, -1, -1):
            value = value * _LIMB + limbs[..., level]
        return np.ldexp(value, self.base)


def as_doubles(sums):
    """Exact sums rounded to doubles (:meth:`ExactSums.rounded`); counts and plain numbers as they are."""
    return sums.rounded() if isinstance(sums, ExactSums) else sums


def _axis(axis: int, ndim: int) -> int:
    """An axis of the sums (not the limbs' own last axis)."""
    return axis if axis >= 0 else ndim - 1 + axis


def _limbs(weights: np.ndarray):
    """``(base, n_limbs, limb(l))``: the weights cut into limbs, one limb array at a time.

    ``base`` lies at or below the lowest bit any weight can hold (53 bits
    below the smallest weight's leading bit), so every weight is a whole
    number of units ``2**base``.  Limb ``l`` is ``floor(w / 2**(base + 20 l))
    mod 2**20``, taken with float operations that are all exact (scaling by
    powers of two, ``floor``, and a difference that is a small integer).
    """
    weights = np.asarray(weights, dtype=float)
    usable = (weights > 0) & (weights < np.inf)  # the callers refuse other weights; they add nothing here
    if not usable.all():
        weights = np.where(usable, weights, 0.0)
    if not usable.any():
        return 0, 0, None
    smallest = float(np.min(weights, where=usable, initial=np.inf))
    largest = float(np.max(weights))
    base = (int(np.frexp(smallest)[1]) - 53) // LIMB_BITS * LIMB_BITS
    top = int(np.frexp(largest)[1])  # every weight is below 2**top
    if top - base > MAX_SPAN:
        raise ValueError(
            "The weights span too many orders of magnitude to be added exactly (from "
            f"{smallest!r} to {largest!r}): rescale them."
        )
    n_limbs = -(-(top - base) // LIMB_BITS)
    scratch = np.empty_like(weights)

    def limb(level: int) -> np.ndarray:
        shift = -(base + LIMB_BITS * level)
        if -1022 <= shift <= 1023:  # times a power of two: exact (a product below 2**-1022 floors to 0 anyway)
            units = np.multiply(weights, 2.0**shift)
        else:
            units = np.ldexp(weights, shift)  # the same, where 2**shift is no double (ldexp is slower)
        np.floor(units, out=units)
        np.multiply(units, 1.0 / _LIMB, out=scratch)
        np.floor(scratch, out=scratch)
        np.multiply(scratch, _LIMB, out=scratch)
        np.subtract(units, scratch, out=units)  # the limb: an integer below 2**LIMB_BITS, exact
        return units

    return base, n_limbs, limb


def exact_group_sums(groups: np.ndarray, weights: np.ndarray, size: int) -> ExactSums:
    """Exact sum of ``weights`` per group (``groups`` in ``0 .. size - 1``), like ``np.bincount``.

    Examples
    --------
    >>> sums = exact_group_sums(np.array([0, 1, 0, 0]), np.array([0.1, 0.5, 0.2, 0.3]), 2)
    >>> sums.rounded().tolist()  # the double nearest to 0.1 + 0.2 + 0.3 as real numbers
    [0.6, 0.5]
    """
    groups = np.asarray(groups, dtype=np.intp)
    base, n_limbs, limb = _limbs(weights)
    out = np.zeros((size, n_limbs))
    for level in range(n_limbs):
        out[:, level] = np.bincount(groups, weights=limb(level), minlength=size)
    return ExactSums(base, out)


def exact_total(weights: np.ndarray) -> ExactSums:
    """The exact sum of ``weights`` (a scalar :class:`ExactSums`)."""
    base, n_limbs, limb = _limbs(weights)
    return ExactSums(base, np.array([limb(level).sum() for level in range(n_limbs)]))


def exact_running_sums(weights: np.ndarray) -> ExactSums:
    """The exact running sums of ``weights`` (``np.cumsum`` without rounding)."""
    weights = np.asarray(weights, dtype=float)
    base, n_limbs, limb = _limbs(weights)
    running = np.empty((weights.shape[0], n_limbs), order="F")  # each limb's running sums contiguous
    for level in range(n_limbs):
        np.cumsum(limb(level), out=running[:, level])
    return ExactSums(base, running)


def exact_prefix_sums(weights: np.ndarray) -> np.ndarray:
    """``np.cumsum(weights)``, each running sum exact before its one rounding (:meth:`ExactSums.rounded`)."""
    return exact_running_sums(weights).rounded()
