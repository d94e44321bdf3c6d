"""How large a grid pyale computes for a given data set.

ALE grids are bounded by the data on their own: edges are quantiles, so a
numeric feature never has more intervals than distinct values
(:mod:`pyale._core.grid` computes them without allocating anything of size
``K``).  Two grids are not:

* a pair's surface has ``K1 x K2`` cells, up to ``n**2`` for ``n`` rows,
  although at most ``n`` of them hold a row; every other cell borrows the
  value of its nearest non-empty cell, so a finer grid adds no information
  from the data while its cost (about 100 bytes per cell and output, and a
  nearest-cell search) grows with the cell count;
* a partial-dependence grid is ``seq(min, max, length.out = K)``, not
  quantiles, and the model predicts every row at every grid point:
  ``K x n`` model rows (``K1 x K2 x n`` for a pair), ICE keeping them all.

The rules, each set by the number of rows ``n`` with a floor so that small
data sets keep fine grids:

* a pair's grid may hold at most ``max(n, 2**22)`` cells: no more cells than
  rows (a pair already costs four shifted copies of the data, so such a grid
  costs about as much), or any grid up to 2,048 x 2,048 (about 0.5 GB at
  most);
* a partial dependence may ask the model about at most ``max(n**2, 2**24)``
  rows: no more grid points than rows (the cost of pairing every row with
  every other), or any grid while the model is asked about at most
  16,777,216 rows.

Beyond them the front-ends refuse with a ``ValueError`` that names the
parameter, the value, the bound and the largest value allowed, before any
model call and before anything of the grid's size is allocated.
"""

from __future__ import annotations

__all__ = [
    "PAIR_CELL_FLOOR",
    "PD_MODEL_ROW_FLOOR",
    "pair_cell_limit",
    "check_pair_cells",
    "pd_point_limit",
    "check_pd_points",
]

#: Any pair grid up to this many cells is computed (2,048 x 2,048).
PAIR_CELL_FLOOR = 1 << 22
#: Any partial dependence asking the model about up to this many rows is computed.
PD_MODEL_ROW_FLOOR = 1 << 24


def pair_cell_limit(n_rows: int) -> int:
    """Most cells a pair's grid on ``n_rows`` rows may have."""
    return max(n_rows, PAIR_CELL_FLOOR)


def check_pair_cells(
    n_rows: int, shape: tuple[int, int], *, param: str, caller: str, features: tuple, value: object,
    advice: str,
) -> None:
    """Refuse a pair grid of more than ``max(n_rows, 2**22)`` cells.

    Parameters
    ----------
    n_rows : int
        Rows the pair is estimated on.
    shape : tuple of int
        Cells along each axis, after repeated quantiles were dropped
        (levels or level jumps for a categorical axis).
    param, caller : str
        The parameter and the function, for the message.
    features : tuple
        The two column labels.
    value : object
        The value the caller passed (None: not shown, e.g. a user's grid).
    advice : str
        How to ask for a grid that fits, e.g. ``"Use K <= 2048."`` (the
        largest square grid allowed has ``math.isqrt(limit)`` cells per axis).
    """
    cells = shape[0] * shape[1]
    limit = pair_cell_limit(n_rows)
    if cells <= limit:
        return
    given = "" if value is None else f" is {value!r}, which"
    raise ValueError(
        f"The {param!r} parameter of {caller}{given} gives the pair {tuple(features)!r} "
        f"a grid of {shape[0]:,} x {shape[1]:,} = {cells:,} cells, more than pyale computes for "
        f"{n_rows:,} rows: at most max(rows, 2**22) = {limit:,} cells. Cells without "
        "rows only borrow the value of the nearest cell with rows, so a finer grid adds nothing "
        f"from the data. {advice}"
    )


def pd_point_limit(n_rows: int) -> int:
    """Most grid points a partial dependence on ``n_rows`` rows may have."""
    return max(n_rows, PD_MODEL_ROW_FLOOR // n_rows)


def check_pd_points(
    n_rows: int, shape: tuple[int, ...], *, param: str, caller: str, value: object, advice: str
) -> None:
    """Refuse a partial-dependence grid asking the model about more than ``max(n**2, 2**24)`` rows.

    Parameters
    ----------
    n_rows : int
        Rows of the data.
    shape : tuple of int
        Grid points per feature (one or two features).
    param, caller : str
        The parameter and the function, for the message.
    value : object
        The value the caller passed.
    advice : str
        How to ask for a grid that fits.
    """
    points = 1
    for size in shape:
        points *= size
    limit = pd_point_limit(n_rows)
    if points <= limit:
        return
    product = "" if len(shape) == 1 else " x ".join(f"{size:,}" for size in shape) + " = "
    raise ValueError(
        f"The {param!r} parameter of {caller} is {value!r}, which asks for {product}{points:,} grid "
        f"points: partial dependence predicts every row at every grid point, "
        f"{points * n_rows:,} model rows for {n_rows:,} rows. pyale asks the model about at most "
        f"max(rows**2, 2**24) = {max(n_rows * n_rows, PD_MODEL_ROW_FLOOR):,} rows, i.e. at most "
        f"{limit:,} grid points here. "
        f"{advice}"
    )

