"""Bootstrap replicates given row by row: the resamples another program drew.

:class:`~pyale._core.bootstrap.BootstrapDraws` draws its own replicates;
:class:`ExplicitDraws` holds replicates that were decided elsewhere (R's
``ale`` package draws them with ``sample.int`` under L'Ecuyer-CMRG: see
:func:`pyale._rbase.rng.ale_bootstrap_rows`) as how often each row occurs in
each replicate, with the same interface, so the estimator turns them into
reweighted local differences without another model call.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

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
    The counts are kept as one ``(n_rows, B)`` array of the smallest
    unsigned integer type that holds them (one byte per row and replicate
    in practice).
    """

    n_replicates: int
    n_rows: int
    _counts: np.ndarray = field(repr=False)
    weighted: bool = False

    @classmethod
    def from_rows(cls, replicates: Iterable[np.ndarray], n_rows: int) -> "ExplicitDraws":
        """Counts from the 0-based row indices of each replicate (any number of draws each).

        Parameters
        ----------
        replicates : iterable of numpy.ndarray
            One array of row positions per replicate.
        n_rows : int
            Rows in the data.

        Examples
        --------
        >>> d = ExplicitDraws.from_rows([np.array([0, 0, 2]), np.array([1, 2, 2])], 3)
        >>> d.counts(0, 3).tolist()
        [[2.0, 0.0, 1.0], [0.0, 1.0, 2.0]]
        """
        columns = [np.bincount(np.asarray(rows, dtype=np.intp), minlength=n_rows) for rows in replicates]
        if any(c.shape[0] != n_rows for c in columns):
            raise ValueError(f"A replicate names a row beyond the {n_rows} rows of the data.")
        largest = max((int(c.max()) for c in columns if c.size), default=0)
        dtype = np.min_scalar_type(largest) if largest > 0 else np.uint8
        counts = np.zeros((n_rows, len(columns)), dtype=dtype)
        for b, column in enumerate(columns):
            counts[:, b] = column
        return cls(n_replicates=len(columns), n_rows=n_rows, _counts=counts)

    def chunk_counts(self, chunk: int, weights: np.ndarray | None = None):
        """Yield ``(replicates, counts)`` for the rows of one chunk (see ``BootstrapDraws``).

        ``counts`` is a float64 ``(rows_in_chunk, len(replicates))`` array;
        ``weights`` is accepted for the interface and ignored.
        """
        start = chunk * CHUNK
        stop = min(start + CHUNK, self.n_rows)
        for first in range(0, self.n_replicates, GROUP):
            group = np.arange(first, min(self.n_replicates, first + GROUP))
            yield group, np.ascontiguousarray(self._counts[start:stop, first : first + group.shape[0]],
                                              dtype=np.float64)

    def counts(self, start: int, stop: int, weights: np.ndarray | None = None) -> np.ndarray:
        """``(B, stop - start)`` counts of the rows at positions ``start .. stop - 1``."""
        return self._counts[start:stop].T.astype(np.float64)
