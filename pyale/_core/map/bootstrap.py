"""Bootstrap replicates as row counts, the same on every engine and every split into blocks.

A replicate resamples the rows with replacement (``n`` draws, ``n`` the
number of rows with a positive weight; with ``sample_weight`` each draw picks
a row with probability proportional to its weight).  It is represented by how
often each row was drawn, so an ALE replicate is a weighted sum of the local
differences that the full data already gave: no extra model call.

To make the draws independent of how the rows are split into blocks (one
pandas frame, Dask partitions, Spark partitions), they are organised by
global row position: rows form chunks of :data:`CHUNK` consecutive rows; for
every replicate the number of draws falling into each chunk is multinomial
(probabilities proportional to the chunks' sizes or weights), drawn once from
the master generator; the draws inside chunk ``j`` come from a generator of
their own (``SeedSequence(master, spawn_key=(j,))``), replicate after
replicate.  Any block can therefore rebuild the counts of its own rows from
its global offset.  The multinomial split followed by uniform (or weighted)
draws inside each chunk is exactly the distribution of ``n`` independent
draws from all rows.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["CHUNK", "BootstrapDraws", "make_draws", "percentile_interval"]

#: Rows per chunk: a power of two so that uniform positions are raw bits.
CHUNK = 4096
_BITS = 12
#: Replicates whose counts are built together (a (CHUNK, GROUP) block of counts).
GROUP = 32


def _seed_sequence(random_state) -> np.random.SeedSequence:
    if isinstance(random_state, np.random.SeedSequence):
        return random_state
    if isinstance(random_state, np.random.Generator):
        return np.random.SeedSequence(random_state.integers(0, 2**63, size=4, dtype=np.int64).tolist())
    if isinstance(random_state, np.random.RandomState):
        return np.random.SeedSequence(random_state.randint(0, 2**31, size=4).tolist())
    return np.random.SeedSequence(random_state)


@dataclass(frozen=True)
class BootstrapDraws:
    """How many times each row is drawn in each replicate, chunk by chunk.

    Attributes
    ----------
    n_replicates : int
        Number of replicates ``B``.
    n_rows : int
        Rows in the data (positions ``0 .. n_rows - 1``).
    entropy : int or sequence
        The master seed's entropy (with ``spawn_key`` below, it names every
        chunk's generator).
    chunk_draws : numpy.ndarray
        ``(B, n_chunks)`` int64: draws falling into each chunk per replicate.
    weighted : bool
        Whether draws inside a chunk follow the rows' weights.
    """

    n_replicates: int
    n_rows: int
    entropy: object
    spawn_key: tuple
    chunk_draws: np.ndarray
    weighted: bool

    @property
    def n_chunks(self) -> int:
        return self.chunk_draws.shape[1]

    def chunk_counts(self, chunk: int, weights: np.ndarray | None = None):
        """Yield ``(replicates, counts)`` for one chunk, replicate group after group.

        ``counts`` is a float64 ``(rows_in_chunk, len(replicates))`` array: how
        often each row of the chunk is drawn in each replicate of the group.
        ``weights`` are the chunk's row weights (required when weighted).
        """
        start = chunk * CHUNK
        size = min(CHUNK, self.n_rows - start)
        seed = np.random.SeedSequence(self.entropy, spawn_key=self.spawn_key + (chunk,))
        bits = np.random.PCG64(seed)
        totals = self.chunk_draws[:, chunk]
        if self.weighted:
            cumulative = np.cumsum(np.asarray(weights, dtype=float))
        for first in range(0, self.n_replicates, GROUP):
            group = np.arange(first, min(self.n_replicates, first + GROUP))
            draws = totals[group]
            n_draws = int(draws.sum())
            if self.weighted:
                position = _weighted_positions(bits, cumulative, n_draws)
            else:
                position = _uniform_positions(bits, size, n_draws)
            width = group.shape[0]
            # Replicate-major keys keep each replicate's increments inside one
            # small window of the count array (cache-friendly).
            position += np.repeat(np.arange(width, dtype=np.intp) * size, draws)
            counts = np.bincount(position, minlength=size * width).reshape(width, size)
            # (rows, replicates), C-contiguous: what the sparse products want.
            yield group, np.ascontiguousarray(counts.T, dtype=np.float64)

    def counts(self, start: int, stop: int, weights: np.ndarray | None = None) -> np.ndarray:
        """``(B, stop - start)`` counts of the rows at global positions ``start .. stop - 1``.

        Plain and slow; for tests and small data (the estimator uses
        :meth:`chunk_counts`).  ``weights`` are those rows' weights (whole chunks needed:
        pass all rows' weights and ``start=0`` in the weighted case).
        """
        out = np.zeros((self.n_replicates, stop - start))
        for chunk in range(start // CHUNK, (max(stop, 1) - 1) // CHUNK + 1):
            lo = chunk * CHUNK
            size = min(CHUNK, self.n_rows - lo)
            w = None if weights is None else weights[lo : lo + size]
            for group, counts in self.chunk_counts(chunk, w):
                a, b = max(lo, start), min(lo + size, stop)
                out[np.ix_(group, np.arange(a - start, b - start))] = counts[a - lo : b - lo].T
        return out


def _uniform_positions(bits: np.random.PCG64, size: int, n_draws: int) -> np.ndarray:
    """``n_draws`` uniform positions in ``0 .. size - 1`` from 16-bit pieces of raw output."""
    mask = (1 << max(int(size - 1).bit_length(), 0)) - 1
    if mask + 1 == size:  # a power of two: every 16-bit piece is a position
        return (bits.random_raw((n_draws + 3) // 4).view(np.uint16)[:n_draws] & np.uint16(mask)).astype(np.intp)
    out = np.empty(0, dtype=np.intp)
    while out.shape[0] < n_draws:
        need = n_draws - out.shape[0]
        # Ask for a little more than needed when rejection is possible (size not a power of 2).
        ask = need if mask + 1 == size else int(need * (mask + 1) / size * 1.1) + 16
        raw = bits.random_raw((ask + 3) // 4).view(np.uint16)[:ask] & np.uint16(mask)
        if mask + 1 != size:
            raw = raw[raw < size]
        out = np.concatenate([out, raw[:need].astype(np.intp)])
    return out


def _weighted_positions(bits: np.random.PCG64, cumulative: np.ndarray, n_draws: int) -> np.ndarray:
    """``n_draws`` positions drawn with probability proportional to the weights."""
    uniform = (bits.random_raw(n_draws) >> np.uint64(11)).astype(np.float64) * (1.0 / 9007199254740992.0)
    return np.searchsorted(cumulative, uniform * cumulative[-1], side="right").astype(np.intp)


def make_draws(
    n_rows: int,
    n_replicates: int,
    random_state=None,
    *,
    chunk_weights: np.ndarray | None = None,
    n_positive: int | None = None,
) -> BootstrapDraws:
    """Draw the chunk totals of ``n_replicates`` bootstrap replicates.

    Parameters
    ----------
    n_rows : int
        Rows in the data.
    n_replicates : int
        Number of replicates.
    random_state : None, int, numpy.random.Generator or SeedSequence
        Seed; the same seed gives the same replicates on every engine.
    chunk_weights : numpy.ndarray, optional
        Sum of the row weights in each chunk (weighted resampling).
    n_positive : int, optional
        Number of rows with a positive weight (the draws per replicate); all
        rows by default.
    """
    seed = _seed_sequence(random_state)
    n_chunks = -(-n_rows // CHUNK)
    if chunk_weights is None:
        sizes = np.full(n_chunks, CHUNK, dtype=float)
        sizes[-1] = n_rows - CHUNK * (n_chunks - 1)
        probabilities = sizes / n_rows
    else:
        probabilities = np.asarray(chunk_weights, dtype=float) / float(np.sum(chunk_weights))
    n_draws = n_rows if n_positive is None else n_positive
    master_seed = np.random.SeedSequence(seed.entropy, spawn_key=tuple(seed.spawn_key) + (0,))
    master = np.random.Generator(np.random.PCG64(master_seed))
    totals = master.multinomial(n_draws, probabilities, size=n_replicates).astype(np.int64)
    return BootstrapDraws(
        n_replicates=n_replicates,
        n_rows=n_rows,
        entropy=seed.entropy,
        spawn_key=tuple(seed.spawn_key) + (1,),
        chunk_draws=totals.reshape(n_replicates, n_chunks),
        weighted=chunk_weights is not None,
    )


def percentile_interval(replicates: np.ndarray, level: float) -> tuple[np.ndarray, np.ndarray]:
    """Percentile bootstrap interval over the first axis (linear interpolation, R's type 7).

    Replicates that are NaN (undefined in that replicate) are left out.
    """
    tail = (1.0 - level) / 2.0
    low = np.nanquantile(replicates, tail, axis=0)
    high = np.nanquantile(replicates, 1.0 - tail, axis=0)
    return low, high
