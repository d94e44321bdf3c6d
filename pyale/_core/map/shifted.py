"""Shifted copies of the data: new frames with some columns replaced.

Shifted copies (:class:`ShiftedFrames`) are new frames with one or two
columns replaced, either sharing the untouched columns or, for all-numeric
frames, one private copy of the rows reused for every shifted version of
them.  The caller's frame is never changed.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from pandas.api import types as ptypes

from ... import _compiled as compiled
from ... import _scratch as scratch
from ... import _threads as threads
from ..grid.features import Feature

_PANDAS_MAJOR = int(pd.__version__.split(".")[0])

__all__ = [
    "replace_columns",
    "ShiftedFrames",
    "numeric_column_values",
    "numeric_grid_values",
    "categorical_column_values",
    "Gather",
]


def numeric_column_values(series: pd.Series, values: np.ndarray):
    """New values for a numeric column, in the column's dtype when that is lossless.

    An integer column keeps its dtype when every new value is a whole number
    within the dtype's range (true for ALEPlot's and iml's data-quantile
    grids, unless a value beyond 2**53 was rounded up past the dtype's top,
    e.g. uint64 near 2**64); otherwise it becomes float64, as R turns an
    integer column into a double one.  A value is never written into a dtype
    that cannot hold it exactly.
    """
    dtype = series.dtype
    if ptypes.is_integer_dtype(dtype) and _fits_integer_dtype(values, dtype):
        if isinstance(dtype, np.dtype):
            return values.astype(dtype)
        return pd.array(values.astype(dtype.numpy_dtype), dtype=dtype)
    if isinstance(dtype, np.dtype) and ptypes.is_float_dtype(dtype) and dtype != np.float64:
        narrowed = values.astype(dtype)
        if np.array_equal(narrowed, values):
            return narrowed
    return values


def _fits_integer_dtype(values: np.ndarray, dtype) -> bool:
    """Whether every float64 in ``values`` is a whole number that ``dtype`` holds exactly.

    The bounds are powers of two (exact in float64): ``[-2**(b-1), 2**(b-1))``
    for a signed, ``[0, 2**b)`` for an unsigned ``b``-bit dtype; a whole
    float64 inside them converts to the integer of the same value.
    """
    info = np.iinfo(getattr(dtype, "numpy_dtype", dtype))
    low, high = (0.0, 2.0**info.bits) if info.min == 0 else (-(2.0 ** (info.bits - 1)), 2.0 ** (info.bits - 1))
    return bool(np.all((values >= low) & (values < high) & (np.mod(values, 1.0) == 0.0)))


def numeric_grid_values(series: pd.Series, grid: np.ndarray, used: np.ndarray | None = None):
    """Grid values in the column's dtype, for rows to take with ``.take(index)``.

    ``numeric_column_values(series, grid)[index]`` equals
    ``numeric_column_values(series, grid[index])`` (same values, same dtype)
    when ``used`` marks the grid values that ``index`` refers to: only those
    decide whether an integer or float32 column keeps its dtype, and the
    check runs over the grid rather than over every row.
    """
    grid = np.asarray(grid, dtype=float)
    if used is not None and used.any() and not used.all():
        grid = np.where(used, grid, grid[used][0])
    return numeric_column_values(series, grid)


def categorical_column_values(series: pd.Series, feature: Feature, level_index: np.ndarray):
    """New values for a categorical column given 0-based indices into ``feature.levels``.

    A pandas Categorical keeps its full dtype (all categories, ordered or
    not), so a model sees the same categories it was fitted with.
    """
    labels = np.empty(len(feature.levels), dtype=object)
    labels[:] = list(feature.levels)
    if isinstance(series.dtype, pd.CategoricalDtype):
        category_codes = series.dtype.categories.get_indexer(list(feature.levels))
        return pd.Categorical.from_codes(category_codes[level_index], dtype=series.dtype)
    if ptypes.is_object_dtype(series.dtype):
        return labels[level_index]
    return pd.array(labels[level_index], dtype=series.dtype)


def _is_plain_numeric(frame: pd.DataFrame, dtypes=None) -> bool:
    """Whether every column has a NumPy numeric, boolean or date-time dtype (``dtypes``: ``frame.dtypes``)."""
    return all(isinstance(d, np.dtype) and d.kind in "biufcmM" for d in (frame.dtypes if dtypes is None else dtypes))


def _rows_of(frame: pd.DataFrame, rows) -> tuple[pd.DataFrame, bool]:
    """``frame`` restricted to ``rows`` (None, a slice or positions); whether the result owns its data."""
    if rows is None:
        return frame, False
    if isinstance(rows, slice):
        if rows.start in (None, 0) and (rows.stop is None or rows.stop >= frame.shape[0]):
            return frame, False
        return frame.iloc[rows], False
    return frame.take(rows), True


class Gather:
    """``source.take(index)``, not made yet: :class:`ShiftedFrames` writes it straight into its
    private copy (no full-length temporary), or makes it where it cannot.

    ``index`` holds valid positions into ``source`` (interval numbers of
    rows inside the grid).
    """

    __slots__ = ("source", "index")

    def __init__(self, source, index: np.ndarray):
        self.source, self.index = source, index

    def values(self):
        return self.source.take(self.index)


def _values(values):
    return values.values() if isinstance(values, Gather) else values


def _block_of(frame: pd.DataFrame, dtypes=None) -> np.ndarray | None:
    """``frame``'s values as one contiguous ``(columns, rows)`` array viewing its memory, if it has one.

    True for a frame of one NumPy dtype held in one block (a frame made from
    a 2-D array, read from a file, or built by this module): its
    ``to_numpy()`` is then a view of that block.
    """
    dtypes = list(frame.dtypes if dtypes is None else dtypes)
    if frame.shape[1] == 0 or not all(d == dtypes[0] for d in dtypes):
        return None
    if not (isinstance(dtypes[0], np.dtype) and dtypes[0].kind in "biufc"):
        return None
    values = frame.to_numpy().T
    if values.flags.owndata or not (values.flags.c_contiguous or values.flags.f_contiguous):
        return None  # pandas made a new array (the frame has several blocks), or a strided view
    return values


def _copy_rows(block: np.ndarray, rows, skip=()) -> np.ndarray:
    """A new ``(columns, len(rows))`` array of ``block``'s columns at ``rows``, in ``block``'s memory
    order (the layout a model's ``to_numpy()`` sees), copied in threads.

    Columns at the positions in ``skip`` are left unset when each column is
    contiguous (C order): the caller writes them next.  In F order every
    column is copied (one contiguous copy is cheaper than a strided one).
    """
    if rows is None:
        rows = slice(0, block.shape[1])
    count = len(range(*rows.indices(block.shape[1]))) if isinstance(rows, slice) else rows.shape[0]
    c_order = block.flags.c_contiguous
    out = scratch.empty((block.shape[0], count), block.dtype, order="C" if c_order else "F")  # memory reused between calls
    columns = [c for c in range(block.shape[0]) if c not in set(skip)] if c_order else None

    def fill(part):
        if isinstance(rows, slice):
            start, step = rows.start or 0, rows.step or 1
            source = block[:, start + part.start * step : start + part.stop * step : step]
            if columns is None or len(columns) == block.shape[0]:
                np.copyto(out[:, part], source)
            else:
                for column in columns:
                    np.copyto(out[column, part], source[column])
        else:
            for column in range(block.shape[0]) if columns is None else columns:
                # positions are valid rows: no bounds check needed
                np.take(block[column], rows[part], out=out[column, part], mode="clip")

    threads.run(fill, threads.row_slices(count))
    return out


def _write_column(column: np.ndarray, values) -> None:
    """Write ``values`` (an array or a :class:`Gather`) into ``column`` (a row of the private block), in threads."""
    if isinstance(values, Gather):
        source, index = np.asarray(values.source), values.index
        if (compiled.enabled() and source.dtype == np.float64 and column.dtype == np.float64
                and source.ndim == 1 and source.shape[0] > 0 and index.dtype == np.int64
                and index.shape == column.shape):
            # The same values as take's: a third less time (numba's loop, without take's generic path)
            threads.run(lambda part: compiled.take_clip(source, index, column, part.start, part.stop),
                        threads.row_slices(column.shape[0]))
            return
        threads.run(lambda part: np.take(source, index[part], out=column[part], mode="clip"),
                    threads.row_slices(column.shape[0]))
    else:
        threads.run(lambda part: np.copyto(column[part], values[part]), threads.row_slices(column.shape[0]))


def _writes_directly(values, dtype) -> bool:
    """Whether ``values`` (an array or a :class:`Gather`) go straight into a private block of ``dtype``."""
    source = values.source if isinstance(values, Gather) else values
    return isinstance(source, np.ndarray) and source.dtype == dtype


def _shares_block(frame: pd.DataFrame) -> bool:
    """Whether another pandas object still holds ``frame``'s values (copy-on-write's own record).

    Without that record (a pandas that keeps it elsewhere) the answer is yes,
    which only costs a copy.
    """
    try:
        return any(block.refs.has_reference() for block in frame._mgr.blocks)
    except AttributeError:
        return True


class ShiftedFrames:
    """New frames holding some rows of ``frame`` with some columns replaced.

    Each call returns a new DataFrame with the given columns replaced and
    every other column as in ``frame``; ``frame`` is never modified.

    For a frame whose columns all have NumPy numeric dtypes, the rows are
    copied once into a private frame with the caller's block layout (so a
    model that turns the frame into an array pays what it pays for
    ``frame`` itself), and each call writes the replaced columns into it in
    place (a column passed as the very same object as in the previous call is
    not written again).  A frame of one dtype in one block (the common case)
    is copied into an array of pyale's own, in threads, and the replaced
    columns are written straight into it (a :class:`Gather` without a
    temporary).  Other frames are shallow copies with the replaced
    columns swapped in, so untouched columns are shared.

    The frames returned share memory with the private frame or with
    ``frame``: they are for :class:`~pyale._core.map.calls.ModelCaller`, which
    hands the model a frame of its own (see
    :func:`~pyale._core.map.calls.model_frame`).  Only the last frame asked for
    (``last=True``) may be the private frame itself; it is then flagged
    private, and this object must not be called again.  Under copy-on-write,
    when a frame handed out earlier is still held (by a model that keeps its
    input), the next write goes into a new copy instead, as pandas itself
    would do.

    Parameters
    ----------
    frame : pandas.DataFrame
        The caller's data (unique column labels).
    rows : None, slice or numpy.ndarray
        Rows to keep, in this order (``None``: all).
    """

    def __init__(self, frame: pd.DataFrame, rows=None):
        self._frame = frame
        self._rows = rows
        self._dtypes = list(frame.dtypes)  # once: a Series of dtypes is dear next to a small frame's work
        self._plain = _is_plain_numeric(frame, self._dtypes)
        self._base, self._owned = (None, False) if self._plain else _rows_of(frame, rows)
        self._private = None
        self._block = None  # the private frame's values when pyale owns them as one array
        self._written: dict = {}

    def __call__(self, new_columns: dict) -> pd.DataFrame:
        """A frame with the columns in ``new_columns`` (label -> values for the kept rows) replaced."""
        return self.frame(new_columns)[0]

    def frame(self, new_columns: dict, *, last: bool = False) -> tuple[pd.DataFrame, bool]:
        """The frame for ``new_columns`` and whether it is private.

        Private means that no other object shares its memory: it holds a
        copy of the rows (not ``frame``'s own arrays) and, with ``last``,
        this object hands it out and forgets it.
        """
        if not self._plain:
            out = self._base if last and self._owned else self._base.copy(deep=False)
            for name, values in new_columns.items():
                out.isetitem(out.columns.get_loc(name), _as_column(_values(values), out.index))
            return out, last and self._owned
        if self._private is None:
            self._written = {}  # a new copy of the rows: nothing is written into it yet
            block = _block_of(self._frame, self._dtypes)
            if block is not None and new_columns:
                # The columns written straight into the copy next are not copied first.
                skip = [self._frame.columns.get_loc(name) for name, values in new_columns.items()
                        if _writes_directly(values, block.dtype)]
                out = self._own(_copy_rows(block, self._rows, skip))
            else:
                out, owned = _rows_of(self._frame, self._rows)
                if not new_columns:
                    return (out, True) if last and owned else (out.copy(deep=False), False)
                if not owned:
                    out = out.copy(deep=True)
        else:
            out = self._private
            self._private = None
            if self._block is not None and copy_on_write() and _shares_block(out):
                out = self._own(_copy_rows(self._block, None))  # a frame handed out earlier is still held
        for name in [n for n in self._written if n not in new_columns]:
            self._write(out, name, self._original(name))
            del self._written[name]
        for name, values in new_columns.items():
            if self._written.get(name) is not values:
                self._write(out, name, values)
                self._written[name] = values
        if last:
            self._block = None
            return out, True
        self._private = out
        # A shallow copy: when a frame built earlier is still referenced (copy-on-write),
        # writing the next variant into the private frame copies instead of overwriting it.
        return out.copy(deep=False), False

    def _own(self, block: np.ndarray) -> pd.DataFrame:
        """A frame over pyale's own ``(columns, rows)`` array (no copy), remembered for direct writes."""
        index = self._frame.index
        if self._rows is not None:
            index = index[self._rows] if isinstance(self._rows, slice) else index.take(self._rows)
        self._block = block
        return pd.DataFrame(block.T, index=index, columns=self._frame.columns, copy=False)

    def _original(self, name) -> np.ndarray:
        values = self._frame[name].to_numpy()
        return values if self._rows is None else values[self._rows]

    def _write(self, out: pd.DataFrame, name, values) -> None:
        position = out.columns.get_loc(name)
        if self._block is not None:
            if _writes_directly(values, self._block.dtype):  # the private frame's one dtype
                _write_column(self._block[position], values)
                return
            self._block = None  # a new dtype splits pandas' block: write through pandas from here on
        dtype = out.dtypes.iloc[position]
        values = _values(values)
        if isinstance(values, np.ndarray) and values.dtype == dtype:
            out.iloc[:, position] = values
        else:
            out.isetitem(position, _as_column(values, out.index))


def _as_column(values, index: pd.Index):
    """Values ready for ``DataFrame.isetitem``: object arrays stay object (no string inference)."""
    if isinstance(values, np.ndarray) and values.dtype == object:
        return pd.Series(values, index=index, dtype=object, copy=False)
    return values


def copy_on_write() -> bool:
    """Whether pandas' copy-on-write is in force (always from pandas 3; an option in 2.x)."""
    return _PANDAS_MAJOR >= 3 or pd.options.mode.copy_on_write is True


def replace_columns(frame: pd.DataFrame, rows: np.ndarray | None, new_columns: dict) -> pd.DataFrame:
    """A frame with some rows and some columns replaced, leaving ``frame`` untouched.

    Parameters
    ----------
    frame : pandas.DataFrame
        The caller's data (never modified).
    rows : numpy.ndarray or None
        Positions of the rows to keep (``None``: all rows).
    new_columns : dict
        Column label -> new values for the kept rows.

    Returns
    -------
    pandas.DataFrame
        Columns in the original order and dtypes (see :class:`ShiftedFrames`).
    """
    return ShiftedFrames(frame, rows)(new_columns)
