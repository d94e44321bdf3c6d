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

The rules, with floors so that small data sets keep fine grids:

* a pair's grid may hold at most ``max(n, 2**22)`` cells: no more cells than
  rows (a pair already costs four shifted copies of the data, so such a grid
  costs about as much), or any grid up to 2,048 x 2,048 (about 0.4 GB per
  model output);
* a partial dependence may have at most ``max(4096, 2**24 // n)`` grid
  points (the product over both features for a pair): the data bound no
  such grid (its points are equally spaced, not quantiles); what the data
  set is the price of a grid point, one prediction of every row.  pyale
  evaluates the data at most 4,096 times (a 64 x 64 pair; R's defaults are
  40 and iml's 20 per feature), or more often while the model is asked about
  at most 2**24 = 16,777,216 rows in all (any grid on small data).  iml's
  PDP/ICE keep every prediction, so this also bounds their memory by
  4,096 x n x outputs doubles.

Beyond them the front-ends refuse with a ``ValueError`` that names the
parameter, the value, the bound and the largest value allowed, before any
model call and before anything of the grid's size is allocated.
"""

from __future__ import annotations

__all__ = [
    "PAIR_CELL_FLOOR",
    "PD_MODEL_ROW_FLOOR",
    "PD_POINT_FLOOR",
    "pair_cell_limit",
    "check_pair_cells",
    "pd_point_limit",
    "check_pd_points",
]

#: Any pair grid up to this many cells is computed (2,048 x 2,048).
PAIR_CELL_FLOOR = 1 << 22
#: Any partial dependence asking the model about up to this many rows is computed.
PD_MODEL_ROW_FLOOR = 1 << 24
#: Any partial dependence with up to this many grid points is computed.
PD_POINT_FLOOR = 1 << 12


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
    return max(PD_POINT_FLOOR, PD_MODEL_ROW_FLOOR // n_rows)


def check_pd_points(
    n_rows: int, shape: tuple[int, ...], *, param: str, caller: str, value: object, advice: str
) -> None:
    """Refuse a partial-dependence grid of more than ``max(4096, 2**24 // n)`` points.

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
        f"points: partial dependence predicts every row at every grid point, {points * n_rows:,} model "
        f"rows for {n_rows:,} rows. pyale computes at most max(4096, 2**24 // rows) = {limit:,} grid "
        "points (the data's 4,096 evaluations, or 16,777,216 model rows in all). "
        f"{advice}"
    )

