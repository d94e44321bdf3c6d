"""Calling the user's model safely: the one boundary between pyale and a model.

Every prediction pyale asks for goes through :class:`ModelCaller`, which

1. hands the model a frame of its own (:func:`model_frame`): whatever the
   model does to it in place, the caller's data and pyale's private frames
   are unchanged and later calls see correct frames;
2. reads the answer row by row in newdata's order (:func:`rows_in_order`),
   aligning a pandas answer by its index labels or refusing when that is
   ambiguous;
3. checks that it is a finite numeric array with one row per row of the
   frame, and re-raises a model's exception as :class:`PredictionError` with
   the context (which function, how many rows, for what) and the original
   exception chained.

Front-ends (ALEPlot, PDPlot, iml's Predictor, ``pyale.ale``, R models) only
choose the function to call and how to name its outputs.
"""

from __future__ import annotations

import numbers
import sys
from typing import Callable, Sequence

import numpy as np
import pandas as pd

from .shifted import ShiftedFrames, copy_on_write

__all__ = [
    "PredictionError",
    "RowOrderError",
    "ModelCaller",
    "copy_on_write",
    "describe",
    "model_frame",
    "predict_variants",
    "real_numbers",
    "rows_in_order",
]

_SHOWN_LABELS = 5


class PredictionError(RuntimeError):
    """The model failed, or returned something ALE cannot use.

    Raised instead of a NumPy traceback or a silently wrong number when the
    model raises, or returns the wrong number of values, non-numbers, NaN or
    infinite predictions; the message names the function, the row count and
    what it was predicting.  A NumPy masked array with masked entries is
    refused like missing predictions (the values under the mask are not
    read).

    Examples
    --------
    >>> import numpy as np, pandas as pd, pyale
    >>> X = pd.DataFrame({"x": np.arange(8.0), "z": np.ones(8)})
    >>> try:
    ...     pyale.ale(lambda d: np.full(len(d), np.nan), X, "x")
    ... except pyale.PredictionError as exc:
    ...     print(exc)  # doctest: +ELLIPSIS
    model returned ... non-finite prediction(s) (NaN or inf; first at row 0 of ...) for ...
    """


class RowOrderError(PredictionError):
    """A pandas answer's rows cannot be matched to newdata's because newdata repeats labels."""


# ---------------------------------------------------------------- the frame the model gets


def model_frame(frame: pd.DataFrame, *, private: bool = False) -> pd.DataFrame:
    """The frame to hand the model: nothing it does to it in place reaches anyone else.

    Parameters
    ----------
    frame : pandas.DataFrame
        The rows to predict (possibly the caller's data, or sharing its memory).
    private : bool, default False
        ``frame`` was built for this one call and nobody uses it afterwards:
        its values may be handed over as they are.

    Notes
    -----
    With copy-on-write (pandas 3, or ``mode.copy_on_write = True`` on 2.x)
    a shallow copy is enough: an in-place change copies what is shared
    first, and a new index or column order stays on the copy.  Without it
    (pandas 2.x's default) shared arrays would be written through, so the
    model gets a deep copy.  pandas 2.x also shares the index, the column
    labels and a Categorical's categories between deep copies, and their
    ``.values`` are writable there, so those are copied too (they are small
    beside the values; a RangeIndex costs nothing).  Enabling copy-on-write
    only around the model call would be cheaper but would change the
    model's own semantics on 2.x (a chained assignment such as
    ``d["x"][mask] = 0`` stops working), i.e. pyale would explain a model
    that is not the one the user runs.
    """
    if copy_on_write():
        return frame if private else frame.copy(deep=False)
    out = frame.copy(deep=not private)  # shallow for a private frame: its own axes, no copy warnings
    out.index = out.index.copy(deep=True)
    out.columns = out.columns.copy(deep=True)
    for position, dtype in enumerate(out.dtypes):
        if isinstance(dtype, pd.CategoricalDtype):
            codes = out.iloc[:, position].array.codes.copy()  # writable, as in any frame of its own
            own = pd.CategoricalDtype(dtype.categories.copy(deep=True), ordered=dtype.ordered)
            out.isetitem(position, pd.Categorical.from_codes(codes, dtype=own, validate=False))
    return out


# ---------------------------------------------------------------- reading the answer


def describe(value: object) -> str:
    """A short description of what a model returned, for error messages."""
    if value is None:
        return "None"
    if isinstance(value, pd.DataFrame):
        return f"a DataFrame of shape {value.shape}"
    if isinstance(value, pd.Series):
        return f"a Series of {value.shape[0]} value(s) of dtype {value.dtype}"
    if _is_sparse(value):
        return (
            f"a SciPy sparse {type(value).__name__} of shape {value.shape} "
            "(convert it with .toarray())"
        )
    if isinstance(value, np.ndarray):
        if value.ndim == 0:
            return f"a 0-d array ({value.item()!r})"
        return f"an array of shape {value.shape} and dtype {value.dtype}"
    if isinstance(value, (str, bytes)):
        text = value if len(value) <= 40 else value[:40] + (b"..." if isinstance(value, bytes) else "...")
        return f"a single {type(value).__name__} ({text!r})"
    if isinstance(value, (numbers.Number, np.generic)):
        return f"a single {type(value).__name__} ({value!r})"
    if isinstance(value, dict):
        keys = list(value)[:_SHOWN_LABELS]
        return f"a dict with {len(value)} key(s) ({keys!r}{' ...' if len(value) > len(keys) else ''})"
    if isinstance(value, (list, tuple)):
        return f"a {type(value).__name__} of {len(value)} item(s)"
    return f"a {type(value).__module__}.{type(value).__qualname__}"


def _is_sparse(value: object) -> bool:
    return type(value).__module__.startswith("scipy.sparse")


def _labels(index: pd.Index) -> str:
    shown = ", ".join(repr(v) for v in index[:_SHOWN_LABELS].tolist())
    more = ", ..." if index.shape[0] > _SHOWN_LABELS else ""
    return f"[{shown}{more}] ({index.shape[0]} label(s), dtype {index.dtype})"


_FIX = "Return the predictions with index=newdata.index, or as a NumPy array in newdata's row order."


def _unique_labels(index: pd.Index) -> bool:
    """``index.is_unique``, without hashing the common increasing integer labels."""
    if isinstance(index, pd.RangeIndex):
        return True
    if index.dtype.kind in "iuf" and index.is_monotonic_increasing:
        values = index.to_numpy()
        return bool((values[1:] != values[:-1]).all())
    return bool(index.is_unique)


def _holds_range(index: pd.Index) -> bool:
    """Whether ``index`` holds exactly the labels 0, 1, ..., n - 1, each once (in any order)."""
    n = index.shape[0]
    if n == 0 or not pd.api.types.is_integer_dtype(index.dtype):
        return False
    return bool(index.min() == 0 and index.max() == n - 1 and _unique_labels(index))


def _pandas_rows(answer, index: pd.Index, name: str, purpose: str):
    """A Series or DataFrame answer with its rows in newdata's order (see :func:`rows_in_order`)."""
    n = index.shape[0]
    got = answer.index
    kind = type(answer).__name__
    if got.shape[0] != n:
        raise PredictionError(
            f"{name} returned {got.shape[0]} value(s) for {n} row(s) of newdata ({purpose}); "
            f"it must return one per row. It returned {describe(answer)}."
        )
    if got.equals(pd.RangeIndex(n)):
        if _holds_range(index) and not index.equals(got):
            raise PredictionError(
                f"{name} returned a {kind} with the default index 0..{n - 1} for newdata whose index "
                f"holds the same labels in another order, {_labels(index)}, so pyale cannot tell whether "
                f"its rows follow newdata's rows or newdata's labels ({purpose}). {_FIX}"
            )
        return answer  # labels 0..n-1 that are not newdata's: rows in newdata's order
    if not _unique_labels(index):
        repeated = index[index.duplicated()][:1].tolist()[0]
        what = "in another order" if not got.equals(index) else "in an order that cannot be checked"
        raise RowOrderError(
            f"{name} returned a {kind} indexed by newdata's labels ({what}), but newdata's index repeats "
            f"labels (e.g. {repeated!r}), so its rows cannot be matched to newdata's rows ({purpose}). "
            f"Return a NumPy array in newdata's row order, or give the data a unique index "
            "(e.g. X.reset_index(drop=True))."
        )
    if got is index or got.equals(index):
        return answer
    if got.is_unique:
        positions = got.get_indexer(index)
        if (positions >= 0).all():
            return answer.take(positions)
    raise PredictionError(
        f"{name} returned a {kind} whose index is neither newdata's index (in any order) nor "
        f"0..{n - 1} ({purpose}): its index is {_labels(got)}, newdata's is {_labels(index)}. {_FIX}"
    )


def rows_in_order(answer: object, index: pd.Index, *, name: str, purpose: str):
    """A model's answer with one entry per row of newdata, in newdata's row order.

    The rule (the same for every front-end, partial dependence and ICE):

    * a NumPy array or any other array-like is read by position;
    * a pandas Series or DataFrame whose index is 0, 1, ..., n - 1 in this
      order (the default index of one built from an array) is read by
      position, unless newdata's own labels are 0, ..., n - 1 in another
      order: then the answer may follow either newdata's rows or its labels,
      and it is refused;
    * when newdata's index repeats labels, any other pandas answer is refused
      (:class:`RowOrderError`), even one whose index equals newdata's: rows
      swapped among equal labels (e.g. a model predicting per segment of data
      concatenated from two years, both labelled 0..n-1) look the same;
    * one whose index equals newdata's (unique) index is read as it is;
    * one whose index holds newdata's (unique) labels in another order (e.g. a
      model that predicts per segment and ``pd.concat``-s the parts) is
      aligned by label;
    * anything else is refused, naming both indexes.

    Parameters
    ----------
    answer : object
        What the model returned.
    index : pandas.Index
        newdata's index as pyale passed it (before the model could touch it).
    name, purpose : str
        For messages: the function and what the predictions were for.

    Returns
    -------
    pandas.Series, pandas.DataFrame or numpy.ndarray
        Row ``i`` belongs to newdata's row ``i``.

    Raises
    ------
    PredictionError
        For anything that is not one prediction (or one row of predictions)
        per row of newdata: a scalar, None, a string, a dict, a sparse matrix,
        the wrong number of rows, or an index that cannot be matched.
    """
    n = index.shape[0]
    if isinstance(answer, (pd.Series, pd.DataFrame)):
        return _pandas_rows(answer, index, name, purpose)
    if (
        answer is None
        or isinstance(answer, (str, bytes, dict, set, frozenset, numbers.Number, np.generic))
        or _is_sparse(answer)
    ):
        raise PredictionError(
            f"{name} must return one prediction per row of newdata ({n} row(s) for {purpose}); "
            f"it returned {describe(answer)}."
        )
    try:
        values = np.asarray(answer)
    except Exception as exc:  # noqa: BLE001 - anything unconvertible is a bad answer
        raise PredictionError(
            f"{name} returned {describe(answer)} that is not array-like ({purpose}): {exc}"
        ) from exc
    if values.ndim == 0:
        raise PredictionError(
            f"{name} must return one prediction per row of newdata ({n} row(s) for {purpose}); "
            f"it returned {describe(answer)}."
        )
    if values.shape[0] != n:
        raise PredictionError(
            f"{name} returned {values.shape[0]} value(s) for {n} row(s) of newdata ({purpose}); "
            f"it must return one per row. It returned {describe(answer)}."
        )
    if isinstance(answer, np.ma.MaskedArray):
        _refuse_masked(answer, name, n, purpose)
    return values


def _refuse_masked(answer: np.ma.MaskedArray, name: str, n: int, purpose: str) -> None:
    """Refuse a masked array with masked entries: they are missing predictions (as pandas reads them),
    and the values under the mask are not predictions."""
    masked = np.ma.getmaskarray(answer).reshape(n, -1).any(axis=1)
    if masked.any():
        raise PredictionError(
            f"{name} returned {int(masked.sum())} masked prediction(s) (a numpy.ma.MaskedArray; first at row "
            f"{int(np.flatnonzero(masked)[0])} of {n}) for {purpose}: masked entries are missing predictions."
        )


def real_numbers(values: np.ndarray) -> np.ndarray | None:
    """An ``object`` array of real numbers as float64 (None, pd.NA -> NaN); None if any entry is not one.

    Numbers a model returns in an ``object`` array (e.g. a list of Python
    floats, or ``.astype(object)``) are numbers, as R reads a numeric
    vector; booleans, strings and anything else are not (``None`` is
    returned and the caller decides: refuse, or iml's class labels).
    """
    entries = values.ravel().tolist()
    if not all((isinstance(v, numbers.Real) and not isinstance(v, bool)) or v is None or v is pd.NA
               for v in entries):
        return None
    floats = [np.nan if v is None or v is pd.NA else v for v in entries]
    return np.array(floats, dtype=np.float64).reshape(values.shape)


def _sole_owner(raw: object) -> bool:
    """Whether ``raw`` is an array that owns its memory and that nobody but the caller holds.

    CPython only: the reference count of an object the model returned and did
    not keep is the caller's variable plus this call's argument.  Elsewhere
    (or when the model kept it, e.g. an output buffer it reuses) it is False.
    """
    return (
        isinstance(raw, np.ndarray) and raw.flags.owndata and raw.flags.writeable
        and hasattr(sys, "getrefcount") and sys.getrefcount(raw) <= 3
    )


def _names_only(answer: object, raw: object, n: int) -> bool:
    """Whether a converted ``answer`` only named the model's array ``raw``: one column holding exactly
    ``raw``'s ``n`` numbers in ``raw``'s own memory (iml's reading of a vector of predictions)."""
    if not (isinstance(answer, pd.DataFrame) and answer.shape[1] == 1 and isinstance(raw, np.ndarray)):
        return False
    if raw.dtype != np.float64 or raw.size != n or not raw.flags.c_contiguous:
        return False
    column = answer.iloc[:, 0].to_numpy()
    return (column.dtype == np.float64 and column.shape == (n,) and column.strides == (8,)
            and column.__array_interface__["data"][0] == raw.__array_interface__["data"][0])


def _object_numbers(answer: pd.DataFrame, kinds: list) -> tuple[pd.DataFrame, list]:
    """``answer`` with its ``object`` columns of real numbers (:func:`real_numbers`) as float64 columns,
    and which columns are numeric now."""
    converted = {position: real_numbers(answer.iloc[:, position].to_numpy())
                 for position, dtype in enumerate(answer.dtypes) if not kinds[position] and dtype == object}
    converted = {position: values for position, values in converted.items() if values is not None}
    if not converted:
        return answer, kinds
    answer = answer.copy(deep=False)  # the model's frame is left as it is
    for position, values in converted.items():
        answer.isetitem(position, values)
    return answer, [kind or position in converted for position, kind in enumerate(kinds)]


def _as_numbers(answer, name: str, n: int, purpose: str, *, owned: bool = False) -> tuple[np.ndarray, list | None]:
    """A row-ordered answer as a float64 array ``(n, n_outputs)`` of pyale's own, and its output names.

    ``owned``: ``answer`` is an array nobody else holds (:func:`_sole_owner`),
    kept without a copy when it is float64 already.
    """
    names = None
    if isinstance(answer, pd.DataFrame):
        names = list(answer.columns)
        kinds = [pd.api.types.is_numeric_dtype(d) or pd.api.types.is_bool_dtype(d) for d in answer.dtypes]
        if not all(kinds):
            answer, kinds = _object_numbers(answer, kinds)
        if not all(kinds):
            bad = answer.dtypes.iloc[kinds.index(False)]
            sample = answer.iloc[:1, kinds.index(False)].tolist()
            raise PredictionError(
                f"{name} must return numbers; got values of dtype {bad} (e.g. {sample!r}) for {purpose}."
            )
        values = answer.to_numpy(dtype=np.float64, na_value=np.nan)
    elif isinstance(answer, pd.Series):
        if pd.api.types.is_numeric_dtype(answer.dtype) or pd.api.types.is_bool_dtype(answer.dtype):
            values = answer.to_numpy(dtype=np.float64, na_value=np.nan)
        else:
            values = answer.to_numpy()
    else:
        values = answer
    if values.dtype == object and (numeric := real_numbers(values)) is not None:
        values = numeric
    if values.dtype.kind not in "biuf":
        raise PredictionError(
            f"{name} must return numbers; got values of dtype {values.dtype} "
            f"(e.g. {values.ravel()[:1].tolist()!r}) for {purpose}."
        )
    if values.ndim > 2:
        raise PredictionError(
            f"{name} must return one number (or one row of numbers) per row of newdata; got "
            f"shape {values.shape} for {n} row(s) ({purpose})."
        )
    # An array of pyale's own: the model may keep (and later overwrite) what it
    # returned, and pyale computes in place on its copy.
    out = np.asarray(values, dtype=np.float64) if owned else np.array(values, dtype=np.float64, copy=True)
    out = out.reshape(n, -1)
    if out.shape[1] == 0:
        raise PredictionError(f"{name} returned no output ({describe(answer)}) for {purpose}.")
    return out, names


class ModelCaller:
    """Wrap ``predict(frame)`` with isolation, checks, chunking and a call log.

    Parameters
    ----------
    predict : callable
        ``predict(frame) -> array-like``.
    name : str
        How messages name the function (e.g. ``"pred_fun"``).
    max_rows : int or None
        At most this many rows per call; ``None`` sends each frame whole.
    single_output : bool
        Require one number per row (ALEPlot).  Otherwise a 2-D answer gives
        one output per column.
    convert : callable, optional
        ``convert(answer) -> answer`` applied after the rows are put in
        newdata's order (:func:`rows_in_order`) and before the numeric checks,
        e.g. iml's naming of outputs and one-hot class labels.
    on_rows : callable, optional
        ``on_rows(n_rows, purpose)`` after each model call that returned
        (progress bars; :mod:`pyale._frontends.progress`).  Also settable as the
        attribute ``on_rows``.
    """

    def __init__(
        self,
        predict: Callable[[pd.DataFrame], object],
        *,
        name: str,
        max_rows: int | None = None,
        single_output: bool = True,
        convert: Callable[[object], object] | None = None,
        on_rows: Callable[[int, str], None] | None = None,
    ):
        self._predict = predict
        self.on_rows = on_rows
        self.name = name
        self.max_rows = max_rows
        self.single_output = single_output
        self._convert = convert
        self.output_names: list | None = None
        self.calls = 0
        self.rows = 0

    def __call__(
        self, frame: pd.DataFrame, purpose: str, *, max_rows: int | None = None, private: bool = False
    ) -> np.ndarray:
        """Predict ``frame``; returns a new float64 array of shape ``(len(frame), n_outputs)``.

        ``max_rows`` overrides the caller's own bound for this call.
        ``private`` says that ``frame`` was built for this call alone (see
        :func:`model_frame`).
        """
        n = frame.shape[0]
        if n == 0:
            width = 1 if self.output_names is None else len(self.output_names)
            return np.empty((0, width))
        bound = self.max_rows if max_rows is None else max_rows
        if bound is None or n <= bound:
            return self._checked(frame, purpose, private)
        parts = [
            self._checked(frame.iloc[start : start + bound], purpose, private)
            for start in range(0, n, bound)
        ]
        return np.concatenate(parts, axis=0)

    def _checked(self, frame: pd.DataFrame, purpose: str, private: bool) -> np.ndarray:
        n = frame.shape[0]
        index = frame.index  # before the model can replace it
        given = model_frame(frame, private=private)
        try:
            raw = self._predict(given)
            owned = _sole_owner(raw)
        except Exception as exc:
            raise PredictionError(
                f"{self.name} raised {type(exc).__name__} while predicting {n} row(s) "
                f"for {purpose}: {exc}"
            ) from exc
        del given
        self.calls += 1
        self.rows += n
        if self.on_rows is not None:
            self.on_rows(n, purpose)
        answer = rows_in_order(raw, index, name=self.name, purpose=purpose)
        if self._convert is not None:
            try:
                answer = self._convert(answer)
            except PredictionError:
                raise
            except Exception as exc:  # noqa: BLE001 - a conversion failure is a bad answer
                raise PredictionError(
                    f"{self.name} returned {describe(raw)} that pyale cannot read as predictions "
                    f"({purpose}): {exc}"
                ) from exc
        if owned and answer is not raw and _names_only(answer, raw, n):
            out, _ = _as_numbers(raw, self.name, n, purpose, owned=True)  # the model's array, kept
            names = list(answer.columns)
        else:
            out, names = _as_numbers(answer, self.name, n, purpose, owned=owned and answer is raw)
        if self.single_output and out.shape[1] != 1:
            raise PredictionError(
                f"{self.name} must return one number per row; got shape {np.shape(answer)} "
                f"for {n} row(s)."
            )
        # A finite sum means every value is finite; only otherwise look closer.
        bad = None if np.isfinite(np.add.reduce(out, axis=None)) else ~np.isfinite(out)
        if bad is not None and bad.any():
            row = int(np.flatnonzero(bad.any(axis=1))[0])
            raise PredictionError(
                f"{self.name} returned {int(bad.any(axis=1).sum())} non-finite prediction(s) "
                f"(NaN or inf; first at row {row} of {n}) for {purpose}."
            )
        if names is None:
            names = [str(i) for i in range(out.shape[1])]
        if self.output_names is None:
            self.output_names = names
        elif names != self.output_names:
            hint = ""
            if isinstance(answer, pd.DataFrame) and answer.attrs.get("pyale_labels_seen"):
                hint = (" It answers class labels, and the classes are those each call's rows showed (on a Dask "
                        "or Spark DataFrame, each partition's): return a pandas Categorical with all the "
                        "categories, or give the model a classes_ attribute, or return probabilities.")
            raise PredictionError(
                f"{self.name} changed its outputs between calls: first {self.output_names!r}, "
                f"now {names!r}.{hint}"
            )
        return out


def predict_variants(
    caller: Callable[..., np.ndarray],
    frame: pd.DataFrame,
    variants: Sequence[tuple[str, Callable[[slice], dict]]],
    *,
    rows: np.ndarray | None = None,
    rows_per_call: int | None = None,
    shared: tuple | None = None,
) -> list[np.ndarray]:
    """Predictions for several variants of the same rows, each with some columns replaced.

    Parameters
    ----------
    caller : callable
        ``caller(frame, purpose, private=...) -> (n, n_outputs)`` array,
        typically a :class:`ModelCaller`.
    frame : pandas.DataFrame
        The data (never modified).
    variants : sequence of (purpose, new_columns)
        ``new_columns(part)`` returns label -> values for the rows ``part``
        (a slice of positions into ``rows``).
    rows : numpy.ndarray, optional
        Positions of the rows to predict (all rows by default).
    rows_per_call : int, optional
        At most this many rows per model call; the shifted frames are then
        built one block of rows at a time, so memory stays proportional to
        the block.  Defaults to ``caller.max_rows`` when present.
    shared : (ShiftedFrames, bool), optional
        A private copy of all of ``frame``'s rows shared with other effects
        of the same block (each restores the columns the previous one
        replaced instead of copying the rows again), and whether this is its
        last use.  Used when every row is predicted in one call.

    Returns
    -------
    list of numpy.ndarray
        One ``(len(rows), n_outputs)`` array per variant, rows in order.

    Notes
    -----
    The model is called once per variant (per block of rows); the variants
    of a block share one private copy of the block (see
    :class:`~pyale._core.map.shifted.ShiftedFrames`), which the last variant
    may hand to the model as it is.
    """
    if rows_per_call is None:
        rows_per_call = getattr(caller, "max_rows", None)
    n = frame.shape[0] if rows is None else rows.shape[0]
    step = max(n, 1) if rows_per_call is None else rows_per_call
    if shared is not None and (rows is not None or step < n):
        shared = None
    pieces: list[list[np.ndarray]] = [[] for _ in variants]
    for start in range(0, max(n, 1), step):
        part = slice(start, min(n, start + step))
        if shared is None:
            shifted, final = ShiftedFrames(frame, part if rows is None else rows[part]), True
        else:
            shifted, final = shared
        for i, (out, (purpose, new_columns)) in enumerate(zip(pieces, variants)):
            given, private = shifted.frame(new_columns(part), last=final and i == len(variants) - 1)
            out.append(caller(given, purpose, private=private))
            del given
    return [parts[0] if len(parts) == 1 else np.concatenate(parts, axis=0) for parts in pieces]
