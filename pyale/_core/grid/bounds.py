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

Counts that multiply what is held in memory are bounded by the memory
itself (:func:`available_memory`), before the model is called:

* bootstrap replicates (``n_bootstrap``, ``boot_it``): each keeps its curves
  (one value per grid node and output), and computing them takes up to
  :data:`REPLICATE_WORK` times that (replicate sums, local means, interval
  quantiles), plus what the resampling keeps per replicate;
* effects per call (``features``, ``x_cols``): the rows of every effect are
  held together while a block is summed, about :data:`EFFECT_ROW_BYTES` per
  row and effect.
"""

from __future__ import annotations

import os

try:  # POSIX only
    import resource
except ImportError:  # pragma: no cover - Windows
    resource = None

__all__ = [
    "PAIR_CELL_FLOOR",
    "PD_MODEL_ROW_FLOOR",
    "PD_POINT_FLOOR",
    "DEFAULT_MEMORY",
    "REPLICATE_WORK",
    "EFFECT_ROW_BYTES",
    "pair_cell_limit",
    "check_pair_cells",
    "pd_point_limit",
    "check_pd_points",
    "available_memory",
    "effect_values",
    "check_replicates",
    "check_effects",
]

#: Any pair grid up to this many cells is computed (2,048 x 2,048).
PAIR_CELL_FLOOR = 1 << 22
#: Any partial dependence asking the model about up to this many rows is computed.
PD_MODEL_ROW_FLOOR = 1 << 24
#: Any partial dependence with up to this many grid points is computed.
PD_POINT_FLOOR = 1 << 12
#: Memory assumed where the machine's cannot be read (no ``os.sysconf``, as on Windows).
DEFAULT_MEMORY = 16 << 30
#: Computing the replicates' curves takes up to this many times the curves themselves
#: (5.4 to 8.9 measured: replicate sums, local means, centred curves, interval quantiles).
REPLICATE_WORK = 10
#: Bytes per row and effect held while a block's effects are summed: the least measured
#: (16 to 60: numeric, pair, categorical), so that only calls that cannot fit at all are
#: refused, never one that would have run.
EFFECT_ROW_BYTES = 16


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



def available_memory() -> int:
    """Bytes of memory the bounds below plan for.

    The physical memory (``os.sysconf``: pages times page size;
    :data:`DEFAULT_MEMORY` where it cannot be read), lowered to the
    process's address-space limit (``ulimit -v``) and to a cgroup v2 memory
    limit (``/sys/fs/cgroup/memory.max``, containers) when either is set.
    Memory other programs use is not subtracted: the bounds refuse what
    cannot fit at all, not what does not fit now.
    """
    try:
        memory = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        memory = DEFAULT_MEMORY
    if memory <= 0:
        memory = DEFAULT_MEMORY
    if resource is not None:
        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if 0 < soft != resource.RLIM_INFINITY:
            memory = min(memory, soft)
    try:
        with open("/sys/fs/cgroup/memory.max") as limit:
            text = limit.read().strip()
        if text.isdigit():
            memory = min(memory, int(text))
    except OSError:
        pass
    return int(memory)


def effect_values(axes) -> int:
    """Values of one effect per output: grid nodes of a numeric axis, levels of a categorical one (bins of
    ``ale``'s axes), their product for a pair."""
    values = 1
    for axis in axes:
        if hasattr(axis, "n_bins"):
            values *= axis.n_bins
        elif hasattr(axis, "edges"):
            values *= axis.edges.shape[0]
        else:
            values *= axis.n_levels
    return values


def _size(n_bytes: int) -> str:
    """``n_bytes`` in binary units (``7.3 TiB``)."""
    value, unit = float(n_bytes), "bytes"
    for larger in ("KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"):
        if value < 1024:
            break
        value, unit = value / 1024, larger
    return f"{value:,.1f} {unit}" if unit != "bytes" else f"{int(value):,} bytes"


def _at_most(fit: int, what: str, memory: int) -> str:
    if fit == 0:
        return f"not even one {what} fits in the memory available ({_size(memory)})"
    return f"at most {fit:,} fit in the memory available ({_size(memory)})"


def check_replicates(
    count: int, curve_values: int, *, param: str, caller: str, bytes_each: int = 0, advice: str = ""
) -> None:
    """Refuse ``count`` bootstrap replicates whose arrays cannot fit in memory, before any is computed.

    Parameters
    ----------
    count : int
        Replicates asked for.
    curve_values : int
        Values of one replicate's curves: every effect's grid values
        (:func:`effect_values`) times its outputs.
    param, caller : str
        The parameter and the function, for the message.
    bytes_each : int, default 0
        Further bytes held per replicate (resampled rows' counts, statistics).
    advice : str
        Appended to the message.

    Notes
    -----
    One replicate needs ``REPLICATE_WORK * 8 * curve_values + bytes_each``
    bytes; ``count`` of them must fit in :func:`available_memory`.
    """
    curves = 8 * curve_values
    each = REPLICATE_WORK * curves + bytes_each
    memory = available_memory()
    if count * each <= memory:
        return
    raise ValueError(
        f"The {param!r} parameter of {caller} asks for {count:,} replicates: their curves alone need about "
        f"{_size(count * curves)} ({count:,} replicates x {curve_values:,} values x 8 bytes), and computing "
        f"them about {_size(count * each)}; {_at_most(memory // each, 'replicate', memory)}.{advice}"
    )


def check_effects(n_effects: int, n_rows: int, *, param: str, caller: str, advice: str = "") -> None:
    """Refuse more effects in one call than the rows of all of them can be held for.

    Every effect of a call keeps about :data:`EFFECT_ROW_BYTES` per row while
    a block is summed; ``n_effects * n_rows`` of them must fit in
    :func:`available_memory`.
    """
    each = EFFECT_ROW_BYTES * max(n_rows, 1)
    memory = available_memory()
    if n_effects * each <= memory:
        return
    raise ValueError(
        f"The {param!r} parameter of {caller} asks for {n_effects:,} effects: estimating them together on "
        f"{n_rows:,} rows needs about {_size(n_effects * each)} ({n_effects:,} effects x {n_rows:,} rows x "
        f"about {EFFECT_ROW_BYTES} bytes); {_at_most(memory // each, 'effect', memory)}.{advice}"
    )
