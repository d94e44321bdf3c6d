"""Bootstrap replicates given row by row: the resamples another program drew.

:class:`~pyale._core.map.bootstrap.BootstrapDraws` draws its own replicates;
:class:`ExplicitDraws` holds replicates that were decided elsewhere (R's
``ale`` package draws them with ``sample.int`` under L'Ecuyer-CMRG: see
:func:`pyale._rbase.rng.ale_bootstrap_rows`) as how often each row occurs in
each replicate, with the same interface, so the estimator turns them into
reweighted local differences without another model call.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable

import numpy as np

from .bootstrap import CHUNK, GROUP

__all__ = ["ExplicitDraws"]


@dataclass(frozen=True, eq=False)
class ExplicitDraws:
    """How often each row occurs in each replicate, from the replicates' row indices.

    Attributes
    ----------
    n_replicates : int
        ``B``.
    n_rows : int
        Rows in the data (positions ``0 .. n_rows - 1``).
    weighted : bool
        Always False (the draws are given, not drawn with weights).

    Notes
    -----
    The replicates are read in one pass, :data:`GROUP` at a time
    (:meth:`block_counts`): only one group's counts are held, as a
    ``(n_rows, GROUP)`` array of the smallest unsigned integer type that
    holds them (one byte per row and replicate in practice), so memory does
    not grow with ``B x n_rows``.  A block of rows reads them once.
    """

    n_replicates: int
    n_rows: int
    _replicates: Callable[[], Iterable[np.ndarray]] = field(repr=False)
    weighted: bool = False

    @classmethod
    def from_rows(cls, replicates: Iterable[np.ndarray], n_rows: int) -> "ExplicitDraws":
        """Counts from the 0-based row indices of each replicate (any number of draws each).

        Parameters
        ----------
        replicates : iterable of numpy.ndarray
            One array of row positions per replicate (kept: see :meth:`streamed`
            for replicates read again on demand).
        n_rows : int
            Rows in the data.

        Examples
        --------
        >>> d = ExplicitDraws.from_rows([np.array([0, 0, 2]), np.array([1, 2, 2])], 3)
        >>> d.counts(0, 3).tolist()
        [[2.0, 0.0, 1.0], [0.0, 1.0, 2.0]]
        """
        kept = [np.asarray(rows, dtype=np.intp) for rows in replicates]
        draws = cls(n_replicates=len(kept), n_rows=n_rows, _replicates=lambda: iter(kept))
        for _ in draws._groups():  # a row beyond the data is refused now, not when estimating
            pass
        return draws

    @classmethod
    def streamed(cls, replicates: Callable[[], Iterable[np.ndarray]], n_replicates: int,
                 n_rows: int) -> "ExplicitDraws":
        """Replicates that ``replicates()`` gives afresh, in order, at every pass (nothing is kept).

        Parameters
        ----------
        replicates : callable
            ``replicates()`` returns an iterable of ``n_replicates`` arrays of
            0-based row positions, the same at every call (e.g.
            ``functools.partial(iter_ale_bootstrap_rows, n, B, seed=seed)``).
        n_replicates, n_rows : int
            ``B`` and the rows in the data.
        """
        return cls(n_replicates=n_replicates, n_rows=n_rows, _replicates=replicates)

    def _groups(self):
        """Yield ``(replicates, counts)`` group after group: counts ``(n_rows, len(replicates))``, small ints."""
        source = iter(self._replicates())
        for first in range(0, self.n_replicates, GROUP):
            width = min(self.n_replicates, first + GROUP) - first
            counts = np.empty((self.n_rows, width), dtype=np.uint8)
            for b in range(width):
                rows = np.asarray(next(source), dtype=np.intp)
                column = np.bincount(rows, minlength=self.n_rows)
                if column.shape[0] != self.n_rows:
                    raise ValueError(f"A replicate names a row beyond the {self.n_rows} rows of the data.")
                largest = int(column.max()) if column.size else 0
                if largest > np.iinfo(counts.dtype).max:  # a wider type for this group
                    counts = counts.astype(np.min_scalar_type(largest))
                counts[:, b] = column
            yield np.arange(first, first + width), counts

    def block_counts(self, offset: int, n: int):
        """Yield ``(start, stop, replicates, counts)`` for the block rows ``offset .. offset + n - 1``.

        Replicate group after group (one pass over the replicates), each in
        pieces of at most :data:`CHUNK` rows: ``counts`` is a float64
        ``(stop - start, len(replicates))`` array, ``start`` and ``stop``
        relative to the block (see :func:`pyale._core.map.sums.replicate_sums`).
        Each replicate's pieces come in row order, as chunk by chunk.
        """
        if n == 0:
            return
        for group, counts in self._groups():
            for start in range(0, n, CHUNK):
                stop = min(start + CHUNK, n)
                yield start, stop, group, np.ascontiguousarray(counts[offset + start:offset + stop],
                                                               dtype=np.float64)

    def chunk_counts(self, chunk: int, weights: np.ndarray | None = None):
        """Yield ``(replicates, counts)`` for the rows of one chunk (see ``BootstrapDraws``).

        ``counts`` is a float64 ``(rows_in_chunk, len(replicates))`` array;
        ``weights`` is accepted for the interface and ignored.  Each call reads
        every replicate: the estimator uses :meth:`block_counts`.
        """
        start = chunk * CHUNK
        stop = min(start + CHUNK, self.n_rows)
        for group, counts in self._groups():
            yield group, np.ascontiguousarray(counts[start:stop], dtype=np.float64)

    def counts(self, start: int, stop: int, weights: np.ndarray | None = None) -> np.ndarray:
        """``(B, stop - start)`` counts of the rows at positions ``start .. stop - 1``."""
        out = np.empty((self.n_replicates, stop - start))
        for group, counts in self._groups():
            out[group] = counts[start:stop].T
        return out
