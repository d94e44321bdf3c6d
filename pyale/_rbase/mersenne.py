"""R's default generator (Mersenne-Twister, sample.kind "Rejection") and ``sample.int``, bit for bit.

R's ``ModelBoot`` (``ale`` 0.5.x) runs ``set.seed(seed)`` in the calling session,
whose kind is R's default ``RNGkind("Mersenne-Twister", "Inversion",
"Rejection")``, and draws each resample with ``sample(n_rows, replace = TRUE)``;
``staccuracy::aucroc`` draws its sample with ``sample(1:n, sample_size)``.

* :func:`mt_seed_words` -- ``set.seed(seed)`` (R's ``RNG_Init``: 50 rounds of the
  LCG ``69069 * s + 1``, then 625 more words, the first replaced by 624 so that
  the next draw regenerates the whole state);
* :class:`MersenneTwister` -- ``unif_rand`` (MT19937's 32-bit output times
  ``2.3283064365386963e-10``, kept inside (0, 1)), ``R_unif_index`` (R >= 3.6's
  rejection sampling on 16-bit chunks) and ``sample.int`` with and without
  replacement (R's hashed variant included for ``n > 1e7``).

The 32-bit words come from NumPy's ``MT19937`` bit generator, whose state is
set to R's 624 words (its tempering and regeneration are the reference
algorithm, as R's ``MT_genrand``).
"""

from __future__ import annotations

import math

import numpy as np

from .rng import sample_int

__all__ = ["mt_seed_words", "MersenneTwister", "r_sample_rows"]

_MASK32 = 0xFFFFFFFF
_N = 624
_TO_UNIT = 2.3283064365386963e-10  # R's MT_genrand: 2^-32
_I2_32M1 = 2.328306437080797e-10  # R's fixup: 1 / (2^32 - 1)
INT_MAX = 2**31 - 1


def mt_seed_words(seed) -> np.ndarray:
    """The 624 Mersenne-Twister words after R's ``set.seed(seed)`` (``.Random.seed[3:626]`` as unsigned).

    R truncates the seed toward zero (``asInteger``); NaN, infinite and values
    outside R's integer range are refused as R refuses them.
    """
    value = float(seed)
    if not math.isfinite(value) or not (-(2**31) < math.trunc(value) <= INT_MAX):
        raise ValueError(f"R's set.seed() cannot use the seed {seed!r} (not a valid R integer).")
    s = int(math.trunc(value)) & _MASK32
    for _ in range(50):
        s = (69069 * s + 1) & _MASK32
    words = []
    for _ in range(_N + 1):
        s = (69069 * s + 1) & _MASK32
        words.append(s)
    return np.array(words[1:], dtype=np.uint32)  # words[0] is replaced by mti = 624 (FixupSeeds)


class MersenneTwister:
    """R's ``RNGkind("Mersenne-Twister")`` with ``sample.kind = "Rejection"`` (R >= 3.6's default).

    Examples
    --------
    >>> MersenneTwister.from_seed(42).sample_int(10, 5, replace=True)  # R: set.seed(42); sample.int(10, 5, TRUE)
    array([ 1,  5,  1,  9, 10])
    """

    def __init__(self, words: np.ndarray, position: int = _N):
        self._bits = np.random.MT19937()
        self._bits.state = {"bit_generator": "MT19937",
                            "state": {"key": np.asarray(words, dtype=np.uint32), "pos": int(position)}}

    @classmethod
    def from_seed(cls, seed) -> "MersenneTwister":
        """The generator after ``set.seed(seed)`` under R's default kinds."""
        return cls(mt_seed_words(seed))

    def unif_rand(self, size: int = 1) -> np.ndarray:
        """``size`` successive values of R's ``unif_rand()`` (also ``runif(size)``)."""
        raw = self._bits.random_raw(int(size)).astype(np.float64) * _TO_UNIT
        raw[raw <= 0.0] = 0.5 * _I2_32M1
        raw[1.0 - raw <= 0.0] = 1.0 - 0.5 * _I2_32M1
        return raw

    def unif_index(self, n, size: int) -> np.ndarray:
        """``size`` successive values of R's ``R_unif_index(n)`` (0-based, as float64 like R).

        ``bits = ceil(log2(n))``; a candidate is ``bits // 16 + 1`` uniforms, each
        giving 16 bits ``floor(u * 65536)``, masked to ``bits`` bits, redrawn while
        ``>= n``.  Candidates are made in bulk; the generator is then rewound and
        moved on by exactly the uniforms R consumed.
        """
        dn = float(n)
        size = int(size)
        if dn <= 0:
            return np.zeros(size)
        bits = int(math.ceil(math.log2(dn)))
        chunks = bits // 16 + 1
        accept = dn / float(1 << bits)
        out = np.empty(size, dtype=float)
        filled = 0
        while filled < size:
            need = size - filled
            count = int(need / accept * 1.02) + 16
            saved = self._bits.state
            u = self.unif_rand(count * chunks)
            parts = np.floor(u * 65536.0).astype(np.uint64).reshape(count, chunks)
            v = parts[:, 0].copy()
            for c in range(1, chunks):  # wraps like C's 64-bit integers; the mask keeps the low bits
                v *= np.uint64(65536)
                v += parts[:, c]
            v &= np.uint64((1 << bits) - 1)
            ok = np.flatnonzero(v.astype(float) < dn)
            if ok.size >= need:
                ok = ok[:need]
                used = int(ok[-1]) + 1
                self._bits.state = saved
                self._bits.random_raw(used * chunks)
            out[filled:filled + ok.size] = v[ok].astype(float)
            filled += ok.size
        return out

    def sample_int(self, n: int, size: int | None = None, replace: bool = False) -> np.ndarray:
        """R's ``sample.int(n, size, replace)`` under Mersenne-Twister (see :func:`pyale._rbase.rng.sample_int`)."""
        return sample_int(self, n, size, replace)


def r_sample_rows(n_rows: int, boot_it: int, seed) -> np.ndarray:
    """``set.seed(seed)`` then ``sample(n_rows, replace = TRUE)`` ``boot_it`` times: 0-based, ``(boot_it, n_rows)``.

    The resamples of R's ``ModelBoot`` (``ale`` 0.5.x), drawn in the calling
    session under R's default generator.
    """
    gen = MersenneTwister.from_seed(seed)
    draws = gen.sample_int(n_rows, int(boot_it) * int(n_rows), replace=True) - 1
    return draws.reshape(int(boot_it), int(n_rows))
