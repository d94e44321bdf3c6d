"""Argument checks for the public functions.

Messages follow scikit-learn's shape: "The 'K' parameter of ALEPlot must be
an int >= 1. Got 0 instead."  ``TypeError`` for a wrong type, ``ValueError``
for a wrong value.
"""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd

__all__ = ["check_frame", "check_int", "resolve_column", "resolve_pair", "check_bool"]


def check_frame(X: object, *, param: str, caller: str) -> pd.DataFrame:
    """Require a non-empty DataFrame with unique column labels."""
    if not isinstance(X, pd.DataFrame):
        raise TypeError(
            f"The {param!r} parameter of {caller} must be a pandas DataFrame. "
            f"Got {type(X).__name__} instead."
        )
    if X.shape[0] == 0 or X.shape[1] == 0:
        raise ValueError(
            f"The {param!r} parameter of {caller} must have at least one row and one column. "
            f"Got shape {X.shape} instead."
        )
    if not X.columns.is_unique:
        dupes = list(X.columns[X.columns.duplicated()].unique())
        raise ValueError(
            f"The {param!r} parameter of {caller} must have unique column names. "
            f"Got duplicates {dupes!r} instead."
        )
    return X


def check_int(value: object, *, param: str, caller: str, minimum: int) -> int:
    """Require an integer (not a bool) >= ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(
            f"The {param!r} parameter of {caller} must be an int >= {minimum}. "
            f"Got {value!r} instead."
        )
    if value < minimum:
        raise ValueError(
            f"The {param!r} parameter of {caller} must be an int >= {minimum}. "
            f"Got {value!r} instead."
        )
    return int(value)


def check_bool(value: object, *, param: str, caller: str) -> bool:
    """Require a bool (Python or NumPy)."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise TypeError(f"The {param!r} parameter of {caller} must be a bool. Got {value!r} instead.")


def resolve_column(X: pd.DataFrame, column: object, *, param: str, caller: str) -> object:
    """Turn a column name or 0-based position into the column label.

    A label that exists in ``X`` wins over a position (so integer column
    labels work); an int is otherwise a 0-based position (R's ``J`` is 1-based).
    """
    if isinstance(column, bool):
        raise TypeError(
            f"The {param!r} parameter of {caller} must be a column name or a 0-based column "
            f"position. Got {column!r} instead."
        )
    try:
        if column in X.columns:
            return column
    except TypeError:
        pass
    if isinstance(column, numbers.Integral):
        position = int(column)
        if 0 <= position < X.shape[1]:
            return X.columns[position]
        raise ValueError(
            f"The {param!r} parameter of {caller} must be a column name or a 0-based column "
            f"position in 0..{X.shape[1] - 1}. Got {column!r} instead "
            "(note: R's J is 1-based, pyale's is 0-based)."
        )
    if isinstance(column, str):
        shown = list(X.columns[:10])
        more = "" if X.shape[1] <= 10 else f" and {X.shape[1] - 10} more"
        raise ValueError(
            f"The {param!r} parameter of {caller} must name a column of X. Got {column!r}; "
            f"the columns are {shown!r}{more}."
        )
    raise TypeError(
        f"The {param!r} parameter of {caller} must be a column name or a 0-based column "
        f"position. Got {column!r} instead."
    )


def resolve_pair(X: pd.DataFrame, J: object, *, caller_name: str):
    """Two distinct column labels from a pair of names or 0-based positions."""
    items = list(J)
    if len(items) != 2:
        raise ValueError(
            f"The 'J' parameter of {caller_name} must be one column or a pair of columns. "
            f"Got {len(items)} items ({items!r}) instead."
        )
    names = tuple(resolve_column(X, item, param="J", caller=caller_name) for item in items)
    if names[0] == names[1]:
        raise ValueError(
            f"The 'J' parameter of {caller_name} must name two different columns. "
            f"Got {items!r}, which both name column {names[0]!r}."
        )
    return names
