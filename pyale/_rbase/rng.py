"""R's L'Ecuyer-CMRG random numbers and ``sample.int``, bit for bit (R 4.2.2).

R's ``ale`` package draws its bootstrap rows with ``sample.int(n, replace = TRUE)``
after ``set.seed(seed)`` under ``RNGkind("L'Ecuyer-CMRG")`` (furrr leaves that
kind behind; see ``docs/ale-package.md``).  This module reproduces that chain in
pure NumPy/Python:

* :func:`set_seed` -- ``set.seed(seed)`` for kind L'Ecuyer-CMRG (R's ``RNG_Init``:
  50 rounds of the LCG ``69069 * s + 1`` then six more, each redrawn while
  ``>= m2``);
* :class:`LecuyerCMRG` -- the generator: ``unif_rand`` (MRG32k3a as R computes
  it), ``R_unif_index`` for both sample kinds (``"Rejection"``: R >= 3.6's
  ``rbits``; ``"Rounding"``), ``sample.int`` with and without replacement
  (including R's hashed variant for ``n > 1e7``);
* :func:`next_rng_stream`, :func:`next_rng_substream` -- ``parallel::nextRNGStream``
  and ``nextRNGSubStream`` (jumps of 2^127 and 2^76 steps);
* :func:`furrr_element_seeds` -- the ``.Random.seed`` furrr 0.3.1 assigns to each
  element of ``future_map(.options = furrr_options(seed = seed))``;
* :func:`ale_bootstrap_rows` -- the rows ``ale`` 0.5.0 resamples for each
  bootstrap replicate.

Speed: MRG32k3a is a linear recurrence, so the state any number of steps ahead
is a 3x3 matrix power times the current state (mod m).  A run of N uniforms is
cut into K consecutive stretches ("lanes"); each lane's starting state is such
a jump, and all lanes then step together, so every NumPy operation handles K
values (float64 on exact integers below 2^53).  Rejection sampling is a
vectorised filter over candidates, each of which costs the same number of
uniforms.  All ``ale`` replicates come from one stream (B successive
``sample.int(n)`` calls are one ``sample.int(n, B * n)``); one replicate of
100,000 rows takes about 20 ms here (``tests/rbase/test_rng.py`` bounds it).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Iterator

import numpy as np

__all__ = [
    "M1",
    "M2",
    "LECUYER_KIND_CODE",
    "LecuyerCMRG",
    "set_seed",
    "seed_as_r_integer",
    "next_rng_stream",
    "next_rng_substream",
    "furrr_element_seeds",
    "ale_bootstrap_rows",
    "iter_ale_bootstrap_rows",
]

M1 = 4294967087  # first component's modulus (2^32 - 209)
M2 = 4294944443  # second component's modulus (2^32 - 22853)
_A12, _A13N = 1403580, 810728  # x1[t] = (a12 x1[t-2] - a13n x1[t-3]) mod m1
_A21, _A23N = 527612, 1370589  # x2[t] = (a21 x2[t-1] - a23n x2[t-3]) mod m2
_NORM = 2.328306549295727688e-10  # R's normc: 1 / (m1 + 1)
_MASK32 = 0xFFFFFFFF
INT_MAX = 2**31 - 1
# .Random.seed[1] for RNGkind("L'Ecuyer-CMRG") with normal.kind "Inversion":
# kind 7 + 100 * 4 (+ 10000 for sample.kind "Rejection").
LECUYER_KIND_CODE = {"Rejection": 10407, "Rounding": 407}
SAMPLE_KINDS = ("Rejection", "Rounding")
BLOCK = 1 << 18


# --- the recurrence as matrices ---------------------------------------------------------


def _companion(modulus: int, first: bool) -> tuple[tuple[int, ...], ...]:
    """One step of a component on its state (x[t-3], x[t-2], x[t-1]) as a 3x3 matrix mod m."""
    if first:
        last = ((-_A13N) % modulus, _A12, 0)
    else:
        last = ((-_A23N) % modulus, 0, _A21)
    return ((0, 1, 0), (0, 0, 1), last)


def _mat_mul(a, b, modulus: int):
    return tuple(
        tuple(sum(a[i][k] * b[k][j] for k in range(3)) % modulus for j in range(3)) for i in range(3)
    )


def _mat_pow(a, exponent: int, modulus: int):
    result = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
    base = a
    while exponent:
        if exponent & 1:
            result = _mat_mul(result, base, modulus)
        base = _mat_mul(base, base, modulus)
        exponent >>= 1
    return result


@lru_cache(maxsize=256)
def _power(steps: int) -> tuple:
    """(A1^steps mod m1, A2^steps mod m2): both components advanced by ``steps``."""
    return (_mat_pow(_companion(M1, True), steps, M1), _mat_pow(_companion(M2, False), steps, M2))


def _mat_vec_lanes(matrix, states: np.ndarray, modulus: int) -> np.ndarray:
    """``matrix @ state`` (mod m) for every column of a (3, K) uint64 array of states.

    Each product of two numbers below 2^32 fits in uint64; it is reduced before summing.
    """
    m = np.uint64(modulus)
    out = np.empty_like(states)
    for i in range(3):
        acc = (np.uint64(matrix[i][0]) * states[0]) % m
        acc += (np.uint64(matrix[i][1]) * states[1]) % m
        acc += (np.uint64(matrix[i][2]) * states[2]) % m
        out[i] = acc % m
    return out


def _lane_starts(state: np.ndarray, spacing: int, lanes: int) -> tuple[np.ndarray, np.ndarray]:
    """States at positions 0, spacing, 2*spacing, ... (one column per lane), by doubling jumps."""
    starts1 = np.empty((3, lanes), dtype=np.uint64)
    starts2 = np.empty((3, lanes), dtype=np.uint64)
    starts1[:, 0], starts2[:, 0] = state[:3], state[3:]
    j1, j2 = _power(spacing)
    have = 1
    while have < lanes:
        take = min(have, lanes - have)
        starts1[:, have:have + take] = _mat_vec_lanes(j1, starts1[:, :take], M1)
        starts2[:, have:have + take] = _mat_vec_lanes(j2, starts2[:, :take], M2)
        have += take
        j1, j2 = _power(spacing * have)
    return starts1, starts2


def _float_mod(values: np.ndarray, modulus: float, scratch: np.ndarray) -> None:
    """values <- values mod m, in place, exactly, for integers |values| < 2^53 held as float64.

    floor(v / m) from a correctly rounded quotient is never below the true floor
    and at most one above it, so one pass leaves a value in [-m, m); a second
    pass (whose quotient is exactly -1 or 0) brings it into [0, m).
    """
    for _ in range(2):
        np.divide(values, modulus, out=scratch)
        np.floor(scratch, out=scratch)
        scratch *= modulus
        values -= scratch


def _uniforms(state: np.ndarray, count: int) -> np.ndarray:
    """The next ``count`` values of R's L'Ecuyer-CMRG ``unif_rand()`` from ``state``.

    Made in pieces of at most :data:`BLOCK` values so that the working arrays stay small.
    """
    if count <= _SCALAR:
        return _uniforms_scalar(state, count)
    if count <= BLOCK:
        return _uniforms_block(state, count)
    out = np.empty(count)
    pos = 0
    while pos < count:
        take = min(BLOCK, count - pos)
        out[pos:pos + take] = _uniforms_block(state, take)
        state = _advance(state, take)
        pos += take
    return out


_SCALAR = 2048  # below this many values, one step at a time in Python beats the lanes' set-up


def _uniforms_scalar(state: np.ndarray, count: int) -> np.ndarray:
    """:func:`_uniforms` for short runs: R's ``MRG32k3a`` step by step on Python integers."""
    s10, s11, s12, s20, s21, s22 = (int(v) for v in state)
    out = [0.0] * count
    for i in range(count):
        p1 = (_A12 * s11 - _A13N * s10) % M1
        s10, s11, s12 = s11, s12, p1
        p2 = (_A21 * s22 - _A23N * s20) % M2
        s20, s21, s22 = s21, s22, p2
        out[i] = ((p1 - p2) if p1 > p2 else (p1 - p2 + M1)) * _NORM
    return np.array(out, dtype=float)


def _uniforms_block(state: np.ndarray, count: int) -> np.ndarray:
    """One piece of :func:`_uniforms`.

    The sequence is cut into K consecutive stretches ("lanes") of S values; each
    lane's starting state is a jump A^(k S) of the state, and all lanes step
    together, so each NumPy operation handles K values.  Arithmetic is in
    float64 on exact integers (every intermediate is below 2^53), which gives
    R's integers exactly.
    """
    if count <= 0:
        return np.empty(0)
    lanes = max(1, min(4096, count // 32))
    steps = -(-count // lanes)
    starts1, starts2 = _lane_starts(state, steps, lanes)
    out = []
    for starts, modulus, (a_near, a_far, near) in (
        (starts1, float(M1), (float(_A12), float(_A13N), 1)),
        (starts2, float(M2), (float(_A21), float(_A23N), 2)),
    ):
        seq = np.empty((steps + 3, lanes))
        seq[:3] = starts.astype(float)
        term = np.empty(lanes)
        scratch = np.empty(lanes)
        for t in range(steps):
            # first component: x[t] = a12 x[t-2] - a13n x[t-3]; second: a21 x[t-1] - a23n x[t-3]
            np.multiply(seq[t + near], a_near, out=term)
            np.multiply(seq[t], a_far, out=scratch)
            term -= scratch
            _float_mod(term, modulus, scratch)
            seq[t + 3] = term
        out.append(seq[3:].T.reshape(-1)[:count])
    p1, p2 = out
    diff = p1 - p2  # R: (p1 > p2) ? p1 - p2 : p1 - p2 + m1
    shift = np.floor((diff - 1.0) / float(M1))
    diff -= shift * float(M1)
    return diff * _NORM


def _advance(state: np.ndarray, steps: int) -> np.ndarray:
    """The state ``steps`` uniforms later."""
    j1, j2 = _power(steps)
    s = [int(v) for v in state]
    new = [sum(j1[i][k] * s[k] for k in range(3)) % M1 for i in range(3)]
    new += [sum(j2[i][k] * s[3 + k] for k in range(3)) % M2 for i in range(3)]
    return np.array(new, dtype=np.uint64)


# --- seeds ------------------------------------------------------------------------------


def seed_as_r_integer(seed) -> int:
    """The integer R's ``set.seed(seed)`` uses (``asInteger``: truncation toward zero).

    Raises ``ValueError`` where R fails ("supplied seed is not a valid integer"):
    NaN, infinite, or outside the int range (R's ``NA_integer_`` is -2^31).
    """
    value = float(seed)
    if not math.isfinite(value) or not (-(2**31) < math.trunc(value) <= INT_MAX):
        raise ValueError(f"R's set.seed() cannot use the seed {seed!r} (not a valid R integer).")
    return int(math.trunc(value))


def set_seed(seed) -> np.ndarray:
    """The six-integer state after R's ``set.seed(seed)`` with ``RNGkind("L'Ecuyer-CMRG")``.

    Mirrors ``RNG_Init(LECUYER_CMRG, seed)`` in R's ``src/main/RNG.c``: the seed
    (as an unsigned 32-bit integer) goes through ``s <- 69069 * s + 1`` fifty
    times, then each of the six state words is the next LCG value, redrawn while
    it is ``>= m2``.

    Returns
    -------
    numpy.ndarray
        uint64 array of 6 values (``.Random.seed[2:7]`` read as unsigned).
    """
    s = seed_as_r_integer(seed) & _MASK32
    for _ in range(50):
        s = (69069 * s + 1) & _MASK32
    state = []
    for _ in range(6):
        s = (69069 * s + 1) & _MASK32
        while s >= M2:
            s = (69069 * s + 1) & _MASK32
        state.append(s)
    return np.array(state, dtype=np.uint64)


def _as_state(random_seed) -> tuple[np.ndarray, str]:
    """(state, sample kind) from a 7-integer ``.Random.seed`` of kind L'Ecuyer-CMRG."""
    values = [int(v) for v in np.asarray(random_seed).ravel()]
    if len(values) != 7 or values[0] % 100 != 7:
        raise ValueError(f"Not a L'Ecuyer-CMRG .Random.seed: {values!r}.")
    kind = "Rejection" if values[0] % 100000 // 10000 == 1 else "Rounding"
    return np.array([v & _MASK32 for v in values[1:]], dtype=np.uint64), kind


def _as_random_seed(state: np.ndarray, kind_code: int) -> np.ndarray:
    words = [int(v) for v in state]
    signed = [w - 2**32 if w >= 2**31 else w for w in words]
    return np.array([kind_code, *signed], dtype=np.int64)


def _jump_seed(random_seed, log2_steps: int) -> np.ndarray:
    values = [int(v) for v in np.asarray(random_seed).ravel()]
    if len(values) != 7 or values[0] % 100 != 7:
        raise ValueError(f"Not a L'Ecuyer-CMRG .Random.seed: {values!r}.")
    state = [v & _MASK32 for v in values[1:]]
    j1, j2 = _power(1 << log2_steps)
    new = [sum(j1[i][k] * state[k] for k in range(3)) % M1 for i in range(3)]
    new += [sum(j2[i][k] * state[3 + k] for k in range(3)) % M2 for i in range(3)]
    return _as_random_seed(np.array(new, dtype=np.uint64), values[0])


def next_rng_stream(random_seed) -> np.ndarray:
    """``parallel::nextRNGStream(seed)``: the seed 2^127 steps further on.

    Parameters
    ----------
    random_seed : array-like of 7 ints
        A ``.Random.seed`` of kind L'Ecuyer-CMRG (first element ``% 100 == 7``).

    Returns
    -------
    numpy.ndarray
        The next stream's ``.Random.seed`` (int64, R's signed integers; the
        first element is copied).
    """
    return _jump_seed(random_seed, 127)


def next_rng_substream(random_seed) -> np.ndarray:
    """``parallel::nextRNGSubStream(seed)``: the seed 2^76 steps further on."""
    return _jump_seed(random_seed, 76)


def furrr_element_seeds(seed, n: int, sample_kind: str = "Rejection") -> list[np.ndarray]:
    """The ``.Random.seed`` furrr 0.3.1 sets before element i of ``future_map(..., seed = seed)``.

    furrr's ``make_seeds()`` for an integer seed: ``RNGkind("L'Ecuyer-CMRG");
    set.seed(seed)`` gives s0; element i (1-based) gets
    ``nextRNGSubStream(s_{i-1})`` with ``s_i = nextRNGStream(s_{i-1})``.  The first
    word records the calling session's kinds (``sample.kind`` included).

    Note that ``ale`` 0.5.0 re-seeds with ``set.seed(seed)`` inside each element,
    so these streams decide only the RNG kind there, not ``ale``'s draws.
    """
    if sample_kind not in SAMPLE_KINDS:
        raise ValueError(f"sample_kind must be one of {SAMPLE_KINDS}. Got {sample_kind!r} instead.")
    current = _as_random_seed(set_seed(seed), LECUYER_KIND_CODE[sample_kind])
    out = []
    for _ in range(int(n)):
        out.append(next_rng_substream(current))
        current = next_rng_stream(current)
    return out


# --- the generator ----------------------------------------------------------------------


class LecuyerCMRG:
    """R's ``RNGkind("L'Ecuyer-CMRG")`` generator with its ``sample.int``.

    Parameters
    ----------
    state : array-like of 6 ints
        The generator's state (``.Random.seed[2:7]``, read as unsigned 32-bit).
    sample_kind : {"Rejection", "Rounding"}
        R's ``sample.kind`` (``"Rejection"`` is R >= 3.6's default).

    Examples
    --------
    >>> LecuyerCMRG.from_seed(1).sample_int(10, 5, replace=True)  # R: set.seed(1); sample.int(10, 5, TRUE)
    array([3, 7, 6, 9, 1])
    """

    def __init__(self, state, sample_kind: str = "Rejection"):
        if sample_kind not in SAMPLE_KINDS:
            raise ValueError(f"sample_kind must be one of {SAMPLE_KINDS}. Got {sample_kind!r} instead.")
        self.state = np.array([int(v) & _MASK32 for v in np.asarray(state).ravel()], dtype=np.uint64)
        if self.state.shape != (6,):
            raise ValueError("A L'Ecuyer-CMRG state has 6 words.")
        self.sample_kind = sample_kind

    @classmethod
    def from_seed(cls, seed, sample_kind: str = "Rejection") -> "LecuyerCMRG":
        """The generator after ``RNGkind("L'Ecuyer-CMRG"); set.seed(seed)``."""
        return cls(set_seed(seed), sample_kind)

    @classmethod
    def from_random_seed(cls, random_seed) -> "LecuyerCMRG":
        """The generator a ``.Random.seed`` of kind L'Ecuyer-CMRG describes."""
        state, kind = _as_state(random_seed)
        return cls(state, kind)

    def random_seed(self) -> np.ndarray:
        """The current state as R's ``.Random.seed`` (7 signed integers)."""
        return _as_random_seed(self.state, LECUYER_KIND_CODE[self.sample_kind])

    # -- uniforms --
    def unif_rand(self, size: int = 1) -> np.ndarray:
        """``size`` successive values of R's ``unif_rand()`` (also ``runif(size)``)."""
        u = _uniforms(self.state, int(size))
        self.state = _advance(self.state, int(size))
        return u

    # -- integers --
    def unif_index(self, n, size: int) -> np.ndarray:
        """``size`` successive values of R's ``R_unif_index(n)`` (0-based, float64 like R).

        Rejection kind (R >= 3.6): ``bits = ceil(log2(n))``; a candidate is made of
        ``bits // 16 + 1`` uniforms, each giving 16 bits ``floor(u * 65536)``
        (``v = 65536 * v + chunk``), masked to ``bits`` bits, and is redrawn while
        ``>= n``.  Every candidate costs the same number of uniforms, so candidates
        are made in bulk and the accepted ones kept in order.
        """
        dn = float(n)
        size = int(size)
        if self.sample_kind == "Rounding":
            return self._unif_index_rounding(dn, size)
        if dn <= 0:
            return np.zeros(size)
        bits = int(math.ceil(math.log2(dn)))
        chunks = bits // 16 + 1
        accept = dn / float(1 << bits)
        out = np.empty(size, dtype=float)
        filled = 0
        while filled < size:
            need = size - filled
            count = min(int(need / accept * 1.01) + 32, max(1, BLOCK // chunks))
            u = _uniforms(self.state, count * chunks)
            parts = np.floor(u * 65536.0).astype(np.uint64).reshape(count, chunks)
            v = parts[:, 0].copy()
            for c in range(1, chunks):  # wraps like C's 64-bit integers; the mask keeps the low bits
                v *= np.uint64(65536)
                v += parts[:, c]
            v &= np.uint64((1 << bits) - 1)
            ok = np.flatnonzero(v.astype(float) < dn)
            used = count
            if ok.size >= need:
                ok = ok[:need]
                used = int(ok[-1]) + 1
            out[filled:filled + ok.size] = v[ok].astype(float)
            filled += ok.size
            self.state = _advance(self.state, used * chunks)
        return out

    def _unif_index_rounding(self, dn: float, size: int) -> np.ndarray:
        """R_unif_index_0: ``floor(dn * unif_rand())``; ``ru()`` (two uniforms) when dn > INT_MAX."""
        if dn > INT_MAX:
            u = self.unif_rand(2 * size).reshape(size, 2)
            big = 33554432.0
            return np.floor(dn * ((np.floor(big * u[:, 0]) + u[:, 1]) / big))
        return np.floor(dn * self.unif_rand(size))

    def sample_int(self, n: int, size: int | None = None, replace: bool = False) -> np.ndarray:
        """R's ``sample.int(n, size, replace)`` under this generator (see :func:`sample_int`)."""
        return sample_int(self, n, size, replace)


def sample_int(gen, n: int, size: int | None = None, replace: bool = False) -> np.ndarray:
    """R's ``sample.int(n, size, replace)`` (uniform, no ``prob``), 1-based like R, for any generator.

    ``gen`` gives ``unif_index(n, size)`` (R's ``R_unif_index``): the algorithm
    is R's whichever generator draws.  With ``replace = FALSE`` and ``n > 1e7``
    and ``size <= n/2`` R switches to a hashed rejection of repeats
    (``sample2``); that path is followed too.  Values are int64 (R returns
    doubles when ``n > INT_MAX``; same numbers).
    """
    n = int(n)
    size = n if size is None else int(size)
    if n < 0 or size < 0 or (size > 0 and n == 0):
        raise ValueError(f"sample.int needs n >= 0 and size >= 0 (n > 0 when size > 0). Got n={n}, size={size}.")
    if not replace and size > n:
        raise ValueError("cannot take a sample larger than the population when 'replace = FALSE'")
    if replace or size < 2:
        return gen.unif_index(n, size).astype(np.int64) + 1
    if n > 1e7 and size <= n / 2:  # R's sample2: redraw (up to 100 times) while repeated
        seen: set[int] = set()
        out = np.empty(size, dtype=np.int64)
        for i in range(size):
            for _ in range(100):
                value = int(gen.unif_index(n, 1)[0]) + 1
                if value not in seen:
                    break
            seen.add(value)
            out[i] = value
        return out
    pool = np.arange(n, dtype=np.int64)
    out = np.empty(size, dtype=np.int64)
    remaining = n
    for i in range(size):
        j = int(gen.unif_index(remaining, 1)[0])
        out[i] = pool[j] + 1
        remaining -= 1
        pool[j] = pool[remaining]
    return out


# --- ale 0.5.0 ----------------------------------------------------------------------------


def iter_ale_bootstrap_rows(n_rows: int, boot_it: int, seed=0, sample_kind: str = "Rejection",
                            chunk: int = 1 << 21) -> Iterator[np.ndarray]:
    """The rows of each of ``ale``'s bootstrap replicates, one replicate at a time.

    ``ale`` 0.5.0 (``calc_ale``) runs, for every term: ``set.seed(seed)`` (kind
    L'Ecuyer-CMRG, left by furrr) and then ``sample.int(n_rows, replace = TRUE)``
    once per replicate.  Yields 0-based row indices (R's indices minus one), an
    int64 array of ``n_rows`` per replicate; R's full-data "replicate 0" is not
    included.
    """
    gen = LecuyerCMRG.from_seed(seed, sample_kind)
    per_batch = max(1, chunk // max(int(n_rows), 1))
    done = 0
    while done < boot_it:
        batch = min(per_batch, boot_it - done)
        rows = gen.sample_int(n_rows, batch * int(n_rows), replace=True) - 1
        for b in range(batch):
            yield rows[b * n_rows:(b + 1) * n_rows]
        done += batch


def ale_bootstrap_rows(n_rows: int, boot_it: int, seed=0, sample_kind: str = "Rejection") -> np.ndarray:
    """All of ``ale``'s bootstrap rows as a (boot_it, n_rows) array of 0-based indices.

    See :func:`iter_ale_bootstrap_rows` (use that for large ``boot_it * n_rows``).
    """
    gen = LecuyerCMRG.from_seed(seed, sample_kind)
    return (gen.sample_int(n_rows, int(boot_it) * int(n_rows), replace=True) - 1).reshape(int(boot_it), int(n_rows))
