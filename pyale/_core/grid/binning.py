"""Heterogeneity-aware interval edges: RHALE's bin criterion and its searches.

RHALE (Gkolemis, Dalamagas, Ntoutsi and Diou, 2023) chooses variable-size
intervals for a numeric feature from the spread of its *local effects* (the
per-row derivatives, or per-row secants across a fine grid): an interval
``[a, b]`` holding the rows ``S`` costs

.. math::

    \\mathcal{L}(a, b) = \\hat\\sigma^2_S \\, (b - a) \\,
                         \\left(1 - \\delta \\frac{|S|}{N}\\right),

the population variance of the local effects inside it times its width,
discounted for well-populated intervals (``discount`` ``δ``, 0.3 by
default); an interval with fewer than ``max(min_rows, 2)`` rows costs
``BIG_M``.  The edges are chosen among the ``K + 1`` points of a uniform
grid over ``[min(x), max(x)]`` (``max_intervals`` = ``K``) to minimise the
total cost:

* ``search="dp"``: dynamic programming, the exact optimum over the unions
  of grid cells (effector's ``DynamicProgramming``, RHALE's default);
* ``search="agglomerative"`` (alias ``"greedy"``): start from the ``K``
  cells and repeatedly remove the interior edge whose removal lowers the
  total cost most, while it does not raise it (effector's
  ``Agglomerative``, which effector 0.6.0 also calls ``Greedy``).

Both follow effector 0.6.0 (``effector/axis_partitioning.py``) operation for
operation, so the same rows, local effects and settings give the same
edges: rows are put in grid cells by ``floor((x - min) / dx)`` (clipped to
the last cell; the cells are half-open ``[e_m, e_{m+1})``), per-cell counts,
sums and sums of squares are prefix-summed, and an interval's variance is
``E[y^2] - E[y]^2`` clamped at 0.  One exception: where ``floor`` puts a
row lying on an edge (up to rounding, e.g. 0.7 against the edge
``-1 + 17 * 0.1 = 0.7000000000000002``) on the other side of it than the
chosen intervals hold it, so that an interval holds fewer than ``min_rows``
rows (effector 0.6.0 returns such an interval, even an empty one), the
search is run again on the cells ``[e_m, e_{m+1})`` of the edges themselves.

Weights: with frequency weights every count becomes a sum of weights
(``|S|`` and ``N`` included), counted in rows of the smallest positive
weight (as pyale's weighted grids count them): integer weights with a
weight of 1 choose the edges the repeated rows would, and the weights times
any positive constant choose the same edges.  Rows with zero weight take no
part.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["BIG_M", "HeterogeneityBinning", "bin_cost_matrix", "cell_sums", "cost_from_cells", "edges_from_cells", "dp_edges", "agglomerative_edges", "find_edges",
           "NoBinningError", "check_binning"]

#: The cost of an interval with too few rows (effector's ``helpers.BIG_M``).
BIG_M = 1e8

_SEARCHES = {"dp": "dp", "agglomerative": "agglomerative", "greedy": "agglomerative"}
#: The most candidate cells: the searches hold a (K + 1) x (K + 1) cost matrix and take about K^3 steps.
MAX_CANDIDATES = 1000


class NoBinningError(ValueError):
    """No heterogeneity-aware binning exists (one distinct value, or fewer rows than ``min_rows``)."""


@dataclass(frozen=True)
class HeterogeneityBinning:
    """RHALE's heterogeneity-aware intervals for numeric features.

    Parameters
    ----------
    search : {"dp", "agglomerative", "greedy"}, default "dp"
        ``"dp"``: the optimal edges by dynamic programming (RHALE's default,
        effector's ``DynamicProgramming``); ``"agglomerative"`` (alias
        ``"greedy"``): bottom-up merging of the grid's cells (effector's
        ``Agglomerative``, also called ``Greedy`` there).
    max_intervals : int, default 20
        ``K``: cells of the uniform candidate grid over ``[min(x), max(x)]``,
        and so the most intervals the result can have (effector's
        ``max_nof_bins`` / ``init_nof_bins``); at most 1000.
    min_rows : int, default 2
        An interval with fewer rows (with weights: their sum, in rows of the
        smallest positive weight) costs
        ``BIG_M`` (effector's ``min_points_per_bin``; at least 2, since a
        variance needs two rows).
    discount : float, default 0.3
        ``δ`` in the cost ``variance * width * (1 - δ |S| / N)``: how much
        well-populated intervals are favoured.

    Notes
    -----
    The local effects that drive the search are the per-row derivatives with
    ``method="gradient"``, else the per-row secants across the cells of the
    candidate grid, ``(f(e_{m+1}) - f(e_m)) / dx`` (one extra pass of two
    predictions per row; the intervals found are then estimated as usual).
    The edges come from the full data; bootstrap replicates keep them.

    References
    ----------
    Gkolemis, V., Dalamagas, T., Ntoutsi, E. and Diou, C. (2023). RHALE:
    Robust and Heterogeneity-aware Accumulated Local Effects. *ECAI 2023*.
    effector 0.6.0, ``effector.axis_partitioning``.

    Examples
    --------
    >>> import pyale
    >>> pyale.HeterogeneityBinning(search="dp", max_intervals=10)
    HeterogeneityBinning(search='dp', max_intervals=10, min_rows=2, discount=0.3)
    """

    search: str = "dp"
    max_intervals: int = 20
    min_rows: int = 2
    discount: float = 0.3

    def __post_init__(self):
        if not isinstance(self.search, str) or self.search not in _SEARCHES:
            raise ValueError(
                f"The 'search' parameter of HeterogeneityBinning must be one of {sorted(_SEARCHES)}. "
                f"Got {self.search!r} instead."
            )
        for name, low in (("max_intervals", 1), ("min_rows", 2)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
                raise TypeError(
                    f"The '{name}' parameter of HeterogeneityBinning must be an int >= {low}. Got {value!r} instead."
                )
            if value < low:
                raise ValueError(
                    f"The '{name}' parameter of HeterogeneityBinning must be an int >= {low}. Got {value!r} instead."
                )
            object.__setattr__(self, name, int(value))
        if self.max_intervals > MAX_CANDIDATES:
            raise ValueError(
                f"The 'max_intervals' parameter of HeterogeneityBinning must be an int <= {MAX_CANDIDATES} (the "
                f"search holds a (K + 1) x (K + 1) cost matrix and takes about K^3 steps). Got "
                f"{self.max_intervals!r} instead."
            )
        discount = self.discount
        if isinstance(discount, bool) or not isinstance(discount, (int, float, np.integer, np.floating)) \
                or not np.isfinite(discount):
            raise TypeError(
                f"The 'discount' parameter of HeterogeneityBinning must be a finite float. Got {discount!r} instead."
            )
        object.__setattr__(self, "discount", float(discount))

    @property
    def algorithm(self) -> str:
        """``"dp"`` or ``"agglomerative"`` (``"greedy"`` resolved)."""
        return _SEARCHES[self.search]

    def candidate_edges(self, x_min: float, x_max: float) -> np.ndarray:
        """The ``K + 1`` candidate edges ``min + i * dx`` (as the searches compute them).

        Parameters
        ----------
        x_min, x_max : float
            The feature's range.

        Returns
        -------
        numpy.ndarray
            ``x_min + i * (x_max - x_min) / K`` for ``i = 0 .. K``.
        """
        dx = (x_max - x_min) / self.max_intervals
        return x_min + np.arange(self.max_intervals + 1) * dx

    def edges(self, x: np.ndarray, local_effects: np.ndarray, weights: np.ndarray | None = None,
              label: str = "the feature") -> np.ndarray:
        """The interval edges for rows at ``x`` with these local effects.

        Parameters
        ----------
        x : array-like
            The feature's value of each row.
        local_effects : array-like
            Each row's local effect (derivative, or secant across its cell).
        weights : array-like, optional
            Frequency weights (rows with 0 take no part).
        label : str, default "the feature"
            How messages name the feature.

        Returns
        -------
        numpy.ndarray
            Ascending edges from ``min(x)`` to ``max(x)``.

        Examples
        --------
        >>> import numpy as np, pyale
        >>> x = np.linspace(0, 1, 200)
        >>> slope = np.where(x < 0.5, 1.0, 3.0)  # the local effects jump at 0.5
        >>> pyale.HeterogeneityBinning("dp", max_intervals=10).edges(x, slope).round(2).tolist()
        [0.0, 0.5, 1.0]
        """
        return find_edges(x, local_effects, self, weights=weights, label=label)


def _cells(x, x_min, dx, n_cells, held):
    if held:  # the cell [e_m, e_{m+1}) of the very edges e_m = x_min + m * dx the intervals will have
        candidates = x_min + np.arange(n_cells + 1) * dx
        return np.clip(np.searchsorted(candidates, x, side="right") - 1, 0, n_cells - 1)
    # effector's cell, floor((x - min) / dx): for a row on an edge up to rounding it can be the cell on the
    # other side of that edge from the interval the row then joins (docs/deviations.md)
    return np.clip(((x - x_min) / dx).astype(int), 0, n_cells - 1)


def _cell_sums(x, y, weights, x_min, x_max, n_cells, held=False):
    dx = (x_max - x_min) / n_cells
    cell = _cells(x, x_min, dx, n_cells, held)
    if weights is None:
        count = np.bincount(cell, minlength=n_cells).astype(float)
        sum_y = np.bincount(cell, y, minlength=n_cells)
        sum_y2 = np.bincount(cell, y * y, minlength=n_cells)
    else:
        count = np.bincount(cell, weights, minlength=n_cells)
        sum_y = np.bincount(cell, weights * y, minlength=n_cells)
        sum_y2 = np.bincount(cell, weights * (y * y), minlength=n_cells)
    return dx, count, sum_y, sum_y2


def bin_cost_matrix(x: np.ndarray, y: np.ndarray, x_min: float, x_max: float, n_cells: int, *,
                    min_rows: int = 2, discount: float = 0.3, weights: np.ndarray | None = None) -> np.ndarray:
    """``cost[i, j]``: the cost of one interval from candidate edge ``i`` to ``j`` (``(K + 1, K + 1)``).

    As effector's ``Base._bin_cost_matrix``: ``BIG_M`` where the interval
    holds fewer than ``max(min_rows, 2)`` rows (which covers ``i > j``),
    0 on the diagonal.
    """
    dx, count, sum_y, sum_y2 = _cell_sums(x, y, weights, x_min, x_max, n_cells)
    total = float(x.shape[0]) if weights is None else float(np.sum(weights))
    return cost_from_cells(count, sum_y, sum_y2, total, dx, min_rows=min_rows, discount=discount)


def cell_sums(x: np.ndarray, y: np.ndarray, weights: np.ndarray | None, x_min: float, x_max: float,
              n_cells: int) -> tuple:
    """Rows (sums of weights), sums of ``y`` and of ``y**2`` per candidate cell: what blocks of rows add up.

    Six arrays: the three in effector's cells, then the three in the cells
    the intervals hold (they differ only for rows on an edge up to rounding).
    """
    return (_cell_sums(x, y, weights, x_min, x_max, n_cells)[1:]
            + _cell_sums(x, y, weights, x_min, x_max, n_cells, held=True)[1:])


def cost_from_cells(count: np.ndarray, sum_y: np.ndarray, sum_y2: np.ndarray, total: float, dx: float, *,
                    min_rows: int = 2, discount: float = 0.3) -> np.ndarray:
    """The cost matrix from per-cell sums (see :func:`bin_cost_matrix`)."""
    n_cells = count.shape[0]
    cum_count = np.concatenate([[0.0], np.cumsum(count)])
    cum_sum_y = np.concatenate([[0.0], np.cumsum(sum_y)])
    cum_sum_y2 = np.concatenate([[0.0], np.cumsum(sum_y2)])
    n = cum_count[None, :] - cum_count[:, None]
    s = cum_sum_y[None, :] - cum_sum_y[:, None]
    q = cum_sum_y2[None, :] - cum_sum_y2[:, None]
    idx = np.arange(n_cells + 1)
    width = (idx[None, :] - idx[:, None]) * dx
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = s / n
        var = np.maximum(q / n - mean * mean, 0.0)
    cost = var * width * (1.0 - discount * n / total)
    cost = np.where(n < max(min_rows, 2), BIG_M, cost)
    np.fill_diagonal(cost, 0.0)
    return cost


def dp_edges(cost: np.ndarray) -> np.ndarray:
    """Indices of the optimal edges (0 and ``K`` included) for a cost matrix (effector's DP and backtrack)."""
    n_cells = cost.shape[0] - 1
    matrix = np.full((n_cells + 1, n_cells), BIG_M)
    argmatrix = np.full((n_cells + 1, n_cells), np.nan)
    matrix[:, 0] = cost[0, :]
    for b in range(1, n_cells):
        prev = matrix[:, b - 1][:, None] + cost
        matrix[:, b] = prev.min(axis=0)
        argmatrix[:, b] = prev.argmin(axis=0)
    if n_cells == 1:
        return np.array([0, 1])
    chosen = [int(argmatrix[-1, -1])]
    for j in range(n_cells - 2, 0, -1):
        chosen.append(int(argmatrix[chosen[-1], j]))
    chosen.reverse()
    chosen = [0] + chosen + [n_cells]
    kept = [chosen[0]] + [b for a, b in zip(chosen, chosen[1:]) if b != a]
    return np.array(kept)


def agglomerative_edges(cost: np.ndarray) -> np.ndarray:
    """Indices of the edges kept by effector's bottom-up merge (0 and ``K`` included)."""
    kept = list(range(cost.shape[0]))
    while len(kept) > 2:
        best_m, best_delta = None, None
        for m in range(1, len(kept) - 1):
            a, e, b = kept[m - 1], kept[m], kept[m + 1]
            delta = cost[a, b] - cost[a, e] - cost[e, b]
            if best_delta is None or delta < best_delta:
                best_delta, best_m = delta, m
        if best_delta is None or best_delta > 0.0:
            break
        kept.pop(best_m)
    return np.array(kept)


def _search(count, sum_y, sum_y2, total, dx, binning):
    cost = cost_from_cells(count, sum_y, sum_y2, total, dx, min_rows=binning.min_rows, discount=binning.discount)
    return dp_edges(cost) if binning.algorithm == "dp" else agglomerative_edges(cost)


def _searched_index(sums: tuple, total: float, dx: float, binning: HeterogeneityBinning) -> np.ndarray:
    """effector's search on its cells; again on the held cells if an interval then holds too few rows.

    effector's cells give effector's edges.  Where they put a row on an edge
    (up to rounding) on the other side of it than the chosen intervals do,
    an interval may hold fewer than ``min_rows`` rows (none, even) although
    the search counted enough: then the search is run on the cells the
    intervals hold, so that every interval has the rows it was weighed with.
    """
    index = _search(*sums[:3], total, dx, binning)
    held = np.add.reduceat(sums[3], index[:-1])
    if held.min() < max(binning.min_rows, 2):
        index = _search(*sums[3:], total, dx, binning)
    return index


def edges_from_cells(count: np.ndarray, sum_y: np.ndarray, sum_y2: np.ndarray, held_count: np.ndarray,
                     held_sum_y: np.ndarray, held_sum_y2: np.ndarray, binning: HeterogeneityBinning,
                     x_min: float, x_max: float, *, label: str = "the feature") -> np.ndarray:
    """:func:`find_edges` from :func:`cell_sums` (added over blocks of rows; weights in rows of the smallest one)."""
    n_rows = float(count.sum())
    if x_min == x_max:
        raise NoBinningError(f"{label} takes one value only ({x_min!r}); there is no interval to choose.")
    if n_rows < binning.min_rows:
        raise NoBinningError(f"{label} has {n_rows:g} rows, fewer than min_rows={binning.min_rows} of {binning!r}.")
    if (np.allclose(x_min, x_max) or binning.min_rows <= n_rows < 2 * binning.min_rows
            or (binning.algorithm == "dp" and binning.max_intervals == 1)):
        return np.array([x_min, x_max])
    k = binning.max_intervals
    dx = (x_max - x_min) / k
    index = _searched_index((count, sum_y, sum_y2, held_count, held_sum_y, held_sum_y2), n_rows, dx, binning)
    edges = x_min + index * dx
    edges[-1] = x_max
    return edges


def find_edges(x: np.ndarray, local_effects: np.ndarray, binning: HeterogeneityBinning, *,
               weights: np.ndarray | None = None, x_range: tuple | None = None,
               label: str = "the feature") -> np.ndarray:
    """Heterogeneity-aware edges over ``x_range`` (default ``[min(x), max(x)]``), ascending.

    Rows with zero weight take no part.  One interval ``[min, max]`` when
    only one is possible (``max_intervals == 1``, or fewer than
    ``2 * min_rows`` rows); :class:`NoBinningError` when no binning exists
    (one distinct value, or fewer rows than ``min_rows``), as effector
    returns ``False`` there.
    """
    x = np.asarray(x, dtype=float)
    y = np.asarray(local_effects, dtype=float)
    if weights is not None:
        weights = np.asarray(weights, dtype=float)
        keep = weights > 0
        if not keep.all():
            x, y, weights = x[keep], y[keep], weights[keep]
        if weights.shape[0]:  # counted in rows of the smallest positive weight, as weighted grids are
            weights = weights / weights.min()
    if x.shape[0] == 0:
        raise NoBinningError(f"{label} has no rows with a positive weight to choose intervals from.")
    x_min, x_max = (float(x.min()), float(x.max())) if x_range is None else (float(x_range[0]), float(x_range[1]))
    n_rows = x.shape[0] if weights is None else float(weights.sum())
    if x.min() == x.max():  # one distinct value (effector: len(np.unique(x)) == 1)
        raise NoBinningError(f"{label} takes one value only ({x_min!r}); there is no interval to choose.")
    if n_rows < binning.min_rows:
        raise NoBinningError(
            f"{label} has {n_rows:g} rows, fewer than min_rows={binning.min_rows} of {binning!r}."
        )
    one_bin = np.allclose(x_min, x_max) or binning.min_rows <= n_rows < 2 * binning.min_rows
    if one_bin or (binning.algorithm == "dp" and binning.max_intervals == 1):
        return np.array([x_min, x_max])
    k = binning.max_intervals
    dx = (x_max - x_min) / k
    index = _searched_index(cell_sums(x, y, weights, x_min, x_max, k), n_rows, dx, binning)
    edges = x_min + index * dx
    # x_min + K * dx can miss the maximum by an ulp: the last edge is the maximum itself
    edges[-1] = x_max
    return edges


def check_binning(binning: object, n_intervals: object, grid: object, *, caller: str) -> HeterogeneityBinning | None:
    """``binning=`` of a front-end: None, ``"dp"``, ``"agglomerative"``/``"greedy"`` or a :class:`HeterogeneityBinning`.

    With a string, an int ``n_intervals`` is the candidate grid's size
    (``max_intervals``, 20 by default).  A user ``grid`` and a binning
    exclude each other.
    """
    if binning is None:
        return None
    if grid is not None:
        raise ValueError(
            f"The 'binning' parameter of {caller} chooses the intervals; it cannot be combined with a user "
            "'grid'. Pass one of them."
        )
    if isinstance(binning, HeterogeneityBinning):
        if n_intervals is not None:
            raise ValueError(
                f"The 'n_intervals' parameter of {caller} cannot be combined with binning={binning!r}; set "
                "max_intervals of the HeterogeneityBinning instead."
            )
        return binning
    if isinstance(binning, str) and binning in _SEARCHES:
        if n_intervals is None or (isinstance(n_intervals, str) and n_intervals == "auto"):
            return HeterogeneityBinning(binning)
        if int(n_intervals) > MAX_CANDIDATES:
            raise ValueError(
                f"The 'n_intervals' parameter of {caller} must be <= {MAX_CANDIDATES} with binning={binning!r} (the "
                f"candidate grid of the bin search). Got {n_intervals!r} instead."
            )
        return HeterogeneityBinning(binning, max_intervals=int(n_intervals))  # checked by the front-end: whole
    raise ValueError(
        f"The 'binning' parameter of {caller} must be None, one of {sorted(_SEARCHES)} or a "
        f"pyale.HeterogeneityBinning. Got {binning!r} instead."
    )
