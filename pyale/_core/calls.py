"""Calling the user's model safely.

Every prediction pyale asks for goes through :class:`ModelCaller`: it calls
the model on a DataFrame (in chunks when a row bound is set), and checks that
the answer is a finite numeric array with one row per row of the frame.  A
model that raises is re-raised as :class:`PredictionError` with the context
(which function, how many rows, for what) and the original exception chained.
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np
import pandas as pd

from .shifted import ShiftedFrames

__all__ = ["PredictionError", "ModelCaller", "predict_variants"]


class PredictionError(RuntimeError):
    """The model failed, or returned something ALE cannot use.

    Raised instead of a NumPy traceback or a silently wrong number when the
    model raises, or returns the wrong number of values, non-numbers, NaN or
    infinite predictions; the message names the function, the row count and
    what it was predicting.

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


class ModelCaller:
    """Wrap ``predict(frame)`` with checks, chunking and a call log.

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
    """

    def __init__(
        self,
        predict: Callable[[pd.DataFrame], object],
        *,
        name: str,
        max_rows: int | None = None,
        single_output: bool = True,
    ):
        self._predict = predict
        self.name = name
        self.max_rows = max_rows
        self.single_output = single_output
        self.output_names: list | None = None
        self.calls = 0
        self.rows = 0

    def __call__(self, frame: pd.DataFrame, purpose: str, *, max_rows: int | None = None) -> np.ndarray:
        """Predict ``frame``; returns float64 of shape ``(len(frame), n_outputs)``.

        ``max_rows`` overrides the caller's own bound for this call.
        """
        n = frame.shape[0]
        if n == 0:
            width = 1 if self.output_names is None else len(self.output_names)
            return np.empty((0, width))
        bound = self.max_rows if max_rows is None else max_rows
        if bound is None or n <= bound:
            return self._checked(frame, purpose)
        parts = [
            self._checked(frame.iloc[start : start + bound], purpose)
            for start in range(0, n, bound)
        ]
        return np.concatenate(parts, axis=0)

    def _checked(self, frame: pd.DataFrame, purpose: str) -> np.ndarray:
        n = frame.shape[0]
        try:
            raw = self._predict(frame)
        except Exception as exc:
            raise PredictionError(
                f"{self.name} raised {type(exc).__name__} while predicting {n} row(s) "
                f"for {purpose}: {exc}"
            ) from exc
        self.calls += 1
        self.rows += n
        names = None
        if isinstance(raw, pd.DataFrame):
            names = list(raw.columns)
            raw = raw.to_numpy()
        elif isinstance(raw, pd.Series):
            raw = raw.to_numpy()
        try:
            out = np.asarray(raw)
        except Exception as exc:  # noqa: BLE001 - anything unconvertible is a bad answer
            raise PredictionError(
                f"{self.name} returned a {type(raw).__name__} that is not array-like."
            ) from exc
        if out.dtype.kind not in "biuf":
            raise PredictionError(
                f"{self.name} must return numbers; got values of dtype {out.dtype} "
                f"(e.g. {out.ravel()[:1].tolist()!r}) for {purpose}."
            )
        if out.ndim == 0 or out.ndim > 2:
            raise PredictionError(
                f"{self.name} must return a 1-D array of {n} numbers; got shape {out.shape}."
            )
        if out.ndim == 2 and self.single_output and out.shape[1] != 1:
            raise PredictionError(
                f"{self.name} must return one number per row; got shape {out.shape} "
                f"for {n} row(s)."
            )
        if out.shape[0] != n:
            raise PredictionError(
                f"{self.name} returned {out.shape[0]} value(s) for {n} row(s) of newdata "
                f"({purpose}); it must return one per row."
            )
        if out.dtype != np.float64:
            out = out.astype(np.float64)
        elif not out.flags.owndata:
            # A view (e.g. of newdata's own memory, which pyale reuses for the next
            # shifted frame) must not change behind our back.
            out = out.copy()
        out = out.reshape(n, -1)
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
            raise PredictionError(
                f"{self.name} changed its outputs between calls: first {self.output_names!r}, "
                f"now {names!r}."
            )
        return out


def predict_variants(
    caller: Callable[[pd.DataFrame, str], np.ndarray],
    frame: pd.DataFrame,
    variants: Sequence[tuple[str, Callable[[slice], dict]]],
    *,
    rows: np.ndarray | None = None,
    rows_per_call: int | None = None,
) -> list[np.ndarray]:
    """Predictions for several variants of the same rows, each with some columns replaced.

    Parameters
    ----------
    caller : callable
        ``caller(frame, purpose) -> (n, n_outputs)`` array, typically a
        :class:`ModelCaller`.
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

    Returns
    -------
    list of numpy.ndarray
        One ``(len(rows), n_outputs)`` array per variant, rows in order.

    Notes
    -----
    The model is called once per variant (per block of rows); the variants
    of a block share one private copy of the block (see
    :class:`~pyale._columns.ShiftedFrames`).
    """
    if rows_per_call is None:
        rows_per_call = getattr(caller, "max_rows", None)
    n = frame.shape[0] if rows is None else rows.shape[0]
    step = max(n, 1) if rows_per_call is None else rows_per_call
    pieces: list[list[np.ndarray]] = [[] for _ in variants]
    for start in range(0, max(n, 1), step):
        part = slice(start, min(n, start + step))
        shifted = ShiftedFrames(frame, part if rows is None else rows[part])
        for out, (purpose, new_columns) in zip(pieces, variants):
            out.append(caller(shifted(new_columns(part)), purpose))
    return [parts[0] if len(parts) == 1 else np.concatenate(parts, axis=0) for parts in pieces]
