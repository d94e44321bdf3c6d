"""Segments, their bootstrap replicates and label permutations, as weighted replicates of one pass.

A segment's ALE (a region, a month, the out-of-time sample) on the pooled
grid is the pooled data's local differences weighted by ``w * [segment ==
s]``: no extra model call.  So is a bootstrap replicate of one segment (its
rows resampled with replacement, inside the segment) and the segment of a
permutation of the labels.  :class:`SegmentDraws` hands the estimator these
weights block by block (the interface of
:class:`~pyale._core.explicit_draws.ExplicitDraws`: ``block_counts``), so
:func:`~pyale._core.estimate.estimate` sums them with the rows' local
differences in its one pass over the data, on every engine.

Replicates are numbered: first the ``S`` segments as observed, then ``B``
bootstrap replicates per segment (segment after segment), then ``P``
permutations of ``S`` segments each (permutation after permutation).  Every
replicate's weights come from its own generator
(``SeedSequence(entropy, spawn_key=(kind, ...))``), so they do not depend on
how the rows are split into blocks.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .bootstrap import CHUNK, GROUP

__all__ = ["SegmentDraws"]


@dataclass(frozen=True, eq=False)
class SegmentDraws:
    """Weights of every segment, bootstrap replicate and permuted segment, by global row position.

    Attributes
    ----------
    codes : numpy.ndarray
        Segment of each row (``0 .. S - 1``), in the rows' global order.
    weights : numpy.ndarray or None
        The rows' weights (None: all 1).
    n_segments, n_bootstrap, n_permutations : int
        ``S``, ``B`` (per segment) and ``P``.
    entropy : int or sequence
        The seed's entropy; with ``spawn_key`` it names every replicate's generator.
    weighted : bool
        Always False: the weights are given, not drawn (the estimator's interface).

    Notes
    -----
    A bootstrap replicate of segment ``s`` draws ``n_s`` of its rows with
    replacement (with probability proportional to the weights, as
    :func:`pyale.ale`'s bootstrap does) and weights each row by how often it
    was drawn; the segment as observed and a permuted segment weight each row
    by its own weight.
    """

    codes: np.ndarray
    weights: np.ndarray | None
    n_segments: int
    n_bootstrap: int
    n_permutations: int
    entropy: object
    spawn_key: tuple = ()
    weighted: bool = False
    _members: list = field(default_factory=list, repr=False)

    def __post_init__(self):
        for s in range(self.n_segments):
            self._members.append(np.flatnonzero(self.codes == s))

    @property
    def n_rows(self) -> int:
        return self.codes.shape[0]

    @property
    def n_replicates(self) -> int:
        return self.n_segments * (1 + self.n_bootstrap + self.n_permutations)

    def _generator(self, *key: int) -> np.random.Generator:
        return np.random.Generator(np.random.PCG64(np.random.SeedSequence(self.entropy,
                                                                          spawn_key=self.spawn_key + key)))

    def _row_weights(self) -> np.ndarray:
        return np.ones(self.n_rows) if self.weights is None else self.weights

    def bootstrap_rows(self, segment: int, replicate: int) -> np.ndarray:
        """The rows drawn (global positions, with repeats) in one bootstrap replicate of one segment."""
        members = self._members[segment]
        rng = self._generator(1, segment, replicate)
        if self.weights is None:
            return members[rng.integers(0, members.shape[0], size=members.shape[0])]
        cumulative = np.cumsum(self.weights[members])
        picks = np.searchsorted(cumulative, rng.random(members.shape[0]) * cumulative[-1], side="right")
        return members[np.minimum(picks, members.shape[0] - 1)]

    def permuted_codes(self, permutation: int) -> np.ndarray:
        """The segment labels of one permutation (every row's label moved by one random permutation)."""
        return self._generator(2, permutation).permutation(self.codes)

    def multiplicity(self, replicate: int, cache: dict | None = None) -> tuple[np.ndarray, bool]:
        """``(counts, weighted)`` of one replicate (numbered as in the module doc).

        ``counts`` holds how often each row counts (0/1 for a segment, draws
        for a bootstrap replicate), as small integers; ``weighted`` says
        whether the rows' weights multiply them (segments and permuted
        segments) or not (bootstrap draws, which follow the weights already).
        """
        S, B = self.n_segments, self.n_bootstrap
        if replicate < S:
            return (self.codes == replicate).view(np.uint8), True
        if replicate < S + S * B:
            segment, b = divmod(replicate - S, B)
            counts = np.bincount(self.bootstrap_rows(segment, b), minlength=self.n_rows)
            return counts.astype(np.min_scalar_type(int(counts.max()) if counts.size else 0)), False
        permutation, segment = divmod(replicate - S - S * B, S)
        cache = {} if cache is None else cache
        if cache.get("permutation") != permutation:
            cache["permutation"], cache["codes"] = permutation, self.permuted_codes(permutation)
        return (cache["codes"] == segment).view(np.uint8), True

    def column(self, replicate: int) -> np.ndarray:
        """The weight of every row in one replicate (float64)."""
        counts, weighted = self.multiplicity(replicate)
        out = counts.astype(float)
        return out * self._row_weights() if weighted and self.weights is not None else out

    def block_counts(self, offset: int, n: int):
        """Yield ``(start, stop, replicates, counts)`` for the block rows ``offset .. offset + n - 1``.

        As :meth:`~pyale._core.explicit_draws.ExplicitDraws.block_counts`:
        ``counts`` is a float64 ``(stop - start, len(replicates))`` array,
        replicate group after group, in pieces of at most :data:`CHUNK` rows.
        A group's counts are held as small integers (two bytes per row and
        replicate, four when a row is drawn more than 65535 times), the
        weights applied piece by piece.
        """
        if n == 0:
            return
        cache: dict = {}
        weights = None if self.weights is None else self.weights[offset:offset + n]
        for first in range(0, self.n_replicates, GROUP):
            group = np.arange(first, min(self.n_replicates, first + GROUP))
            counts = np.empty((n, group.shape[0]), dtype=np.uint16)
            weighted = np.zeros(group.shape[0], dtype=bool)
            for j, r in enumerate(group):
                column, weighted[j] = self.multiplicity(int(r), cache)
                column = column[offset:offset + n]
                if column.size and int(column.max()) > np.iinfo(counts.dtype).max:  # a row drawn very often
                    counts = counts.astype(np.uint32)
                counts[:, j] = column
            for start in range(0, n, CHUNK):
                stop = min(start + CHUNK, n)
                piece = counts[start:stop].astype(np.float64)
                if weights is not None and weighted.any():
                    piece[:, weighted] *= weights[start:stop, None]
                yield start, stop, group, np.ascontiguousarray(piece)
