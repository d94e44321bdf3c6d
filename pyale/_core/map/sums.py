"""Per-group sums of local differences: what a block of rows contributes to an effect.

The map stage reduces every block of rows to a :class:`GroupSums` per group
set (intervals, level jumps, cells, or the groups used for centring); blocks
are combined with ``+``, so an engine only ever moves these small arrays.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse

from ... import _compiled as compiled
from ... import _threads as threads
from ..._rbase.exact import ExactSums, exact_group_sums

__all__ = ["GroupSums", "group_sums"]


@dataclass
class GroupSums:
    """Weighted sums of values per group, and the same per bootstrap replicate.

    Attributes
    ----------
    rows : numpy.ndarray
        ``(G,)`` int64: rows per group.
    weight : numpy.ndarray
        ``(G,)``: sum of the row weights per group (``rows`` without weights).
    total : numpy.ndarray or None
        ``(G, m)``: weighted sum of the values (None for weight-only groups).
    reference, centred, squares : numpy.ndarray or None
        ``(G, m)`` each, for the spread: a reference value ``r`` per group
        (one of the group's own values), ``sum w (d - r)`` and
        ``sum w (d - r)**2``.  Blocks are added around one reference (the
        other block's sums shifted to it), so the result does not lose
        digits to a large common level of the values, and values that are
        all equal give exactly 0 however the rows were split.
    replicate_weight : numpy.ndarray or None
        ``(B, G)``: per replicate, the number of draws per group.
    replicate_total : numpy.ndarray or None
        ``(B, G, m)``: per replicate, the sum of the drawn rows' values.
    exact_weight : ExactSums or None
        With weights: ``weight`` exactly (:mod:`pyale._rbase.exact`);
        ``weight`` is its rounding, so the weight per group is the same
        double however the rows were split into blocks.
    """

    rows: np.ndarray
    weight: np.ndarray
    total: np.ndarray | None = None
    reference: np.ndarray | None = None
    centred: np.ndarray | None = None
    squares: np.ndarray | None = None
    replicate_weight: np.ndarray | None = None
    replicate_total: np.ndarray | None = None
    exact_weight: ExactSums | None = None

    @property
    def spread(self) -> np.ndarray | None:
        """``(G, m)``: weighted sum of squared deviations from the group's weighted mean."""
        if self.squares is None:
            return None
        w = self.weight[:, None]
        positive = np.where(w > 0, w, 1.0)
        with np.errstate(over="ignore", under="ignore"):  # a square out of range is redone below
            square = self.centred * self.centred
        with np.errstate(invalid="ignore", divide="ignore"):  # (outputs that overflow still warn there)
            correction = square / positive
            # Weights far from 1 (1e-170, 1e160: only their ratios matter) square the centred sum out of
            # the normal range; there, and only there (the doubles elsewhere stay as they were), divide first.
            lost = ~np.isfinite(correction) | ((np.abs(square) < np.finfo(float).tiny) & (self.centred != 0))
            if lost.any():
                correction = np.where(lost, self.centred * (self.centred / positive), correction)
            return np.where(w > 0, np.maximum(self.squares - correction, 0.0), 0.0)

    def __add__(self, other: "GroupSums") -> "GroupSums":
        if other is None:
            return self
        reference = centred = squares = None
        if self.squares is not None:
            # Around self's reference (other's where self has no row): other's sums shifted by
            # delta = r_other - r, exactly 0 where both references are equal.
            mine = (self.weight > 0)[:, None]
            reference = np.where(mine, self.reference, other.reference)
            delta = np.where((other.weight > 0)[:, None], other.reference - reference, 0.0)
            w2 = other.weight[:, None]
            centred = self.centred + (other.centred + w2 * delta)
            squares = self.squares + (other.squares + delta * (2.0 * other.centred + w2 * delta))
        exact_weight = None
        if self.exact_weight is not None and other.exact_weight is not None:
            exact_weight = self.exact_weight + other.exact_weight
        return GroupSums(
            rows=self.rows + other.rows,
            weight=self.weight + other.weight if exact_weight is None else exact_weight.rounded(),
            total=None if self.total is None else self.total + other.total,
            reference=reference,
            centred=centred,
            squares=squares,
            replicate_weight=_add(self.replicate_weight, other.replicate_weight),
            replicate_total=_add(self.replicate_total, other.replicate_total),
            exact_weight=exact_weight,
        )

    __radd__ = __add__


def _add(a, b):
    return None if a is None else a + b


#: Rows per piece of a block's sums.  Fixed, so that the numbers (sums of floats, added
#: piece by piece in order) do not depend on how many threads share the pieces.
PIECE = 1 << 18


def _piece_rows(n: int, n_groups: int) -> int:
    """Rows per piece: :data:`PIECE`, or the whole block when each piece's sums (``n_groups`` values)
    would outweigh its rows."""
    return PIECE if n_groups <= PIECE // 8 else max(n, 1)


def _by_pieces(compute, n: int, n_groups: int, *, beside=None) -> tuple[list, object]:
    """``[compute(piece, scratch) for piece in pieces of PIECE rows]``, the pieces shared among threads.

    ``scratch`` is a float array as long as the longest piece, one per thread.
    ``beside()``, if given, runs alongside in the calling thread; its result
    is returned second.  Every piece returns arrays of ``n_groups`` values,
    so with more groups than ``PIECE // 8`` the block is one piece (memory
    stays within the size of the block's rows, whatever the grid).
    """
    step = _piece_rows(n, n_groups)
    pieces = [slice(start, min(n, start + step)) for start in range(0, n, step)] or [slice(0, 0)]
    parts = min(threads.num_threads(), len(pieces), max(1, n // threads.MIN_ROWS))
    bounds = [len(pieces) * i // parts for i in range(parts + 1)]
    shares = [pieces[bounds[i]:bounds[i + 1]] for i in range(parts)]

    def work(task):
        if task is None:
            return beside()
        scratch = np.empty(max((p.stop - p.start for p in task), default=0))
        return [compute(piece, scratch) for piece in task]

    tasks = ([None] if beside is not None else []) + shares
    # Below MIN_ROWS rows the whole block is one share: handing ``beside`` to a worker thread
    # would cost more than it overlaps (the same numbers either way).
    results = threads.run(work, tasks) if n >= threads.MIN_ROWS else [work(task) for task in tasks]
    found = results[1:] if beside is not None else results
    return [out for share in found for out in share], results[0] if beside is not None else None


def _last_rows(groups: np.ndarray, size: int, n_present: int) -> np.ndarray:
    """The row of each group's last occurrence in ``groups`` (-1 for a group without rows).

    ``n_present`` groups occur; the rows are read from the end in chunks of
    doubling length until all of them are found, so with the groups mixed
    through the block only its last few hundred rows are read.
    """
    last = np.full(size, -1, dtype=np.intp)
    n = groups.shape[0]
    stop, chunk, missing = n, 1024, n_present
    while missing > 0 and stop > 0:
        start = max(0, stop - chunk)
        here = np.full(size, -1, dtype=np.intp)
        here[groups[start:stop]] = np.arange(start, stop)  # later rows overwrite earlier ones
        new = (last < 0) & (here >= 0)
        last[new] = here[new]
        missing -= int(np.count_nonzero(new))
        stop, chunk = start, 2 * chunk
    return last


def group_sums(
    groups: np.ndarray,
    n_groups: int,
    values: np.ndarray | None = None,
    weights: np.ndarray | None = None,
    *,
    spread: bool = False,
    counts: np.ndarray | None = None,
) -> GroupSums:
    """Sums of one block's rows per group (without replicates: see :func:`replicate_sums`).

    Parameters
    ----------
    groups : numpy.ndarray
        Group of each row (0-based; rows with a negative group are left out).
    n_groups : int
        Number of groups ``G``.
    values : numpy.ndarray, optional
        ``(n, m)`` values per row (local differences); omitted for groups
        that only count rows (centring).
    weights : numpy.ndarray, optional
        Row weights (all 1 by default).
    spread : bool, default False
        Also sum the squared deviations from each group's mean (two passes,
        so a constant difference gives exactly 0).
    counts : numpy.ndarray, optional
        Rows per group when the caller has counted them already (no group
        is then negative).

    Notes
    -----
    Counts and the spread's sums of squares are taken in pieces of
    :data:`PIECE` rows (in threads, see :mod:`pyale._threads`), added in
    order: the same numbers for every thread count.  Sums of weights and
    values take one pass over the block.
    """
    groups = np.asarray(groups, dtype=np.intp)
    n = groups.shape[0]
    size = n_groups
    if counts is None and n and groups.min() < 0:
        keep = groups >= 0
        groups = np.where(keep, groups, n_groups)  # an extra group, cut off below
        size = n_groups + 1
        if weights is not None:
            weights = np.where(keep, weights, 0.0)
    w = None if weights is None else np.asarray(weights, dtype=float)
    values = None if values is None else np.asarray(values, dtype=float)
    m = 0 if values is None else values.shape[1]
    references = spread and m > 0

    def first_pass(piece, _):
        g = groups[piece]
        rows = np.bincount(g, minlength=size) if counts is None else None
        reference = heaviest = None
        if references and w is not None:
            # With weights, the value of the group's heaviest row (the last of them wins): the
            # weighted mean lies near it, whereas a row of tiny weight far from it would cancel
            # most digits of the difference (see GroupSums.spread).  NaN where the piece has none:
            # differences of finite predictions are never NaN.
            reference = np.full((m, size), np.nan)
            heaviest = np.full(size, -1.0)
            np.maximum.at(heaviest, g, w[piece])
            chosen = np.flatnonzero(w[piece] == heaviest[g])
            g_chosen = g[chosen]
            for j in range(m):
                reference[j, g_chosen] = values[piece, j][chosen]
        return rows, reference, heaviest

    def sums():
        # Sums of weights and values in one pass over the whole block, as before pieces: the
        # effects do not depend on PIECE (only counts and the spread's sums of squares are
        # added by piece).  Weights are added exactly (the same weight per group for any
        # blocks), values in row order.
        exact = None if w is None else exact_group_sums(groups, w, size)[:n_groups]
        weight = None if w is None else (exact, exact.rounded())
        total = None
        if m:
            total = np.empty((n_groups, m))
            for j in range(m):
                if w is None and compiled.enabled():  # bincount's sums in its order, one compiled loop
                    column_total = np.zeros(size)
                    compiled.group_totals(groups, values, j, column_total)
                    total[:, j] = column_total[:n_groups]
                    continue
                column = values[:, j] if w is None else values[:, j] * w
                total[:, j] = np.bincount(groups, weights=column, minlength=size)[:n_groups]
        return weight, total

    # The sums run beside the first pass (counts, weighted references) or, when there is none,
    # beside the spread's pass (the same numbers: each is one pass of its own).
    first = (references and w is not None) or counts is None
    beside_spread = references and not first
    if first:
        firsts, (weight, total) = _by_pieces(first_pass, n, size, beside=sums)
    else:
        firsts, (weight, total) = [], ((None, None) if beside_spread else sums())
    rows = counts if counts is not None else sum(f[0] for f in firsts)[:n_groups]
    reference = centred = squares = None
    if references and w is None:
        # One of the group's own values per group, so that a group whose values are all equal
        # gets exactly 0 and a large common level does not cancel digits (see GroupSums.spread):
        # the value of its last row (0 where it has none), found from the end of the block.
        present = (counts if counts is not None else sum(f[0] for f in firsts)) > 0
        last = _last_rows(groups, size, int(np.count_nonzero(present)))
        found = last >= 0
        reference = np.zeros((m, size))
        reference[:, found] = values[last[found]].T
    elif references:
        reference = np.zeros((m, size))  # the group's last heaviest value over the pieces
        best = np.full(size, -np.inf)
        for _, piece_reference, heaviest in firsts:
            present = ~np.isnan(piece_reference)
            present &= (heaviest >= best)[None, :]
            best = np.maximum(best, heaviest)
            reference[present] = piece_reference[present]
    if references and beside_spread and w is None and compiled.enabled():
        # The values' sums and the spread's pieces in one compiled pass (the same numbers as the
        # two passes below: each sum is made in the same order).
        step = _piece_rows(n, size)  # the pieces the two-pass path below would use
        n_pieces = max(1, -(-n // step))
        total = np.empty((n_groups, m))
        per_piece = np.empty((n_pieces, 2, m, size))
        for j in range(m):
            column_total, column_pieces = np.zeros(size), np.zeros((n_pieces, 2, size))
            compiled.sums_and_spread(groups, values, j, reference[j], step, column_total, column_pieces)
            total[:, j] = column_total[:n_groups]
            per_piece[:, :, j] = column_pieces
        around = per_piece[0]
        for piece_around in per_piece[1:]:
            around = around + piece_around
        weight = None
        centred, squares = around[0, :, :n_groups].T, around[1, :, :n_groups].T
        reference = reference[:, :n_groups].T
    elif references:

        use_compiled = compiled.enabled()

        def second_pass(piece, scratch):
            g = groups[piece]
            if use_compiled:  # the same sums in one compiled loop (no take, subtract, multiply)
                around = np.zeros((2, m, size))
                for j in range(m):
                    if w is None:
                        compiled.spread_sums(g, values[piece], j, reference[j], around[0, j], around[1, j])
                    else:
                        compiled.spread_sums_weighted(g, values[piece], j, reference[j], w[piece],
                                                      around[0, j], around[1, j])
                return around
            shifted = scratch[: g.shape[0]]
            around = np.empty((2, m, size))  # sum w (d - r), sum w (d - r)^2
            for j in range(m):
                np.take(reference[j], g, out=shifted, mode="clip")  # every group is in 0 .. size - 1
                np.subtract(values[piece, j], shifted, out=shifted)
                weighted = shifted if w is None else shifted * w[piece]
                around[0, j] = np.bincount(g, weights=weighted, minlength=size)
                np.multiply(weighted, shifted, out=shifted)
                around[1, j] = np.bincount(g, weights=shifted, minlength=size)
            return around

        seconds, summed = _by_pieces(second_pass, n, size, beside=sums if beside_spread else None)
        if beside_spread:
            weight, total = summed
        around = seconds[0]
        for piece_around in seconds[1:]:
            around = around + piece_around
        # Sum w (d - r) itself, not total - W r: its error scales with the spread, not with the level.
        centred, squares = around[0, :, :n_groups].T, around[1, :, :n_groups].T
        reference = reference[:, :n_groups].T
    exact_weight, weight = (None, None) if weight is None else weight
    if w is None:
        weight = rows.astype(float)
    return GroupSums(rows, weight, total, reference, centred, squares, exact_weight=exact_weight)


def replicate_sums(sets: list, counts_pieces, n_replicates: int) -> list[tuple]:
    """Per replicate, the draws and the drawn values' sums per group, for several group sets at once.

    Parameters
    ----------
    sets : list of Entries-like (groups, rows, n_groups, values)
        Entries of one block: group, block row and value (or None) of each
        entry (see :class:`~pyale._core.map.local.Entries`).
    counts_pieces : iterable
        ``(start, stop, replicates, counts)``: ``counts`` is a
        ``(stop - start, len(replicates))`` array of how often each of the
        block rows ``start .. stop - 1`` is drawn in those replicates (see
        :meth:`~pyale._core.map.bootstrap.BootstrapDraws.chunk_counts`).  It is
        consumed once: every group set is updated from the same counts.
    n_replicates : int
        ``B``.

    Returns
    -------
    list of (replicate_weight, replicate_total)
        ``(B, G)`` and ``(B, G, m)`` (None for sets without values).
    """
    # One sparse matrix for every set: for each set its indicator rows (G) and, per value
    # column, its valued rows (G each), stacked; columns are block rows (a row entering twice,
    # a level jump up and down, sums its entries).  One product per piece of counts then
    # serves every set (fewer, larger sparse products).
    rows_of, cols_of, data_of, layout, out = [], [], [], [], []
    offset = 0
    n = 0
    for entries in sets:
        groups, rows, n_groups, values = entries.groups, entries.row_positions(), entries.n_groups, entries.values
        n = max(n, int(rows.max()) + 1 if rows.shape[0] else 0)
        m = 0 if values is None else values.shape[1]
        rows_of.append(groups + offset)
        cols_of.append(rows)
        data_of.append(np.ones(rows.shape[0]))
        for j in range(m):
            rows_of.append(groups + offset + (j + 1) * n_groups)
            cols_of.append(rows)
            data_of.append(values[:, j])
        layout.append((offset, n_groups, m))
        offset += (1 + m) * n_groups
        out.append((np.zeros((n_replicates, n_groups)),
                    None if values is None else np.zeros((n_replicates, n_groups, m))))
    if not sets:
        return out
    stacked = scipy.sparse.csc_matrix(
        (np.concatenate(data_of), (np.concatenate(rows_of), np.concatenate(cols_of))), shape=(offset, n)
    )
    sliced_for = None
    for start, stop, replicates, counts in counts_pieces:
        if start >= n:
            continue
        end = min(stop, n)
        if sliced_for != (start, end):  # the replicate groups of one chunk share its column slice
            sliced_for = (start, end)
            part = stacked[:, start:end]
        product = (part @ counts[: end - start]).T  # (replicates in the group, offset)
        for (first, n_groups, m), (weight, total) in zip(layout, out):
            weight[replicates] += product[:, first : first + n_groups]
            for j in range(m):
                lo = first + (j + 1) * n_groups
                total[replicates, :, j] += product[:, lo : lo + n_groups]
    return out
