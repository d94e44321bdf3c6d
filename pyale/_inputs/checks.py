"""Argument checks for the public functions.

Messages follow scikit-learn's shape: "The 'K' parameter of ALEPlot must be
an int >= 1. Got 0 instead."  ``TypeError`` for a wrong type, ``ValueError``
for a wrong value.

The rules every front-end shares:

* Integer parameters (``K``, ``grid_size``, ``n_intervals``,
  ``max_rows_per_call``, ``batch_size``) accept Python and NumPy integers and
  whole-number floats (``40.0``, as R's ``K = 40`` is a double); a bool, a
  string, an array, NaN, an infinity or a fraction is a ``TypeError``, a whole
  number below the minimum a ``ValueError``.
* A tuple in ``J`` or ``features`` names one column when it is a column's
  label (a flat index of tuples) and a *pair* of columns otherwise; when it
  is both (columns ``("a", "b")``, ``"a"`` and ``"b"``) it is refused as
  ambiguous.  ``MultiIndex`` columns are refused with a hint to flatten them
  (``X.columns.to_flat_index()`` keeps the tuples as labels).
"""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd

__all__ = [
    "check_frame",
    "check_int",
    "check_bool",
    "check_choice",
    "check_finite_number",
    "check_numbers",
    "check_level",
    "check_weights",
    "check_response",
    "check_random_state",
    "type_label",
    "resolve_column",
    "resolve_pair",
    "is_tuple_label",
    "check_pair_kinds",
    "check_feature_options",
]


def type_label(value: object) -> str:
    """``module.Class`` of a value, with the top-level package only (``polars.DataFrame``)."""
    cls = type(value)
    module = cls.__module__.split(".")[0]
    return cls.__qualname__ if module == "builtins" else f"{module}.{cls.__qualname__}"


def check_frame(X: object, *, param: str, caller: str) -> pd.DataFrame:
    """Require a non-empty DataFrame with unique, scalar column labels.

    Other tables are converted (or refused) before, by :func:`pyale._inputs.frames.as_pandas`.
    """
    if not isinstance(X, pd.DataFrame):
        raise TypeError(
            f"The {param!r} parameter of {caller} must be a pandas DataFrame. "
            f"Got {type_label(X)} instead."
        )
    if X.shape[0] == 0 or X.shape[1] == 0:
        raise ValueError(
            f"The {param!r} parameter of {caller} must have at least one row and one column. "
            f"Got shape {X.shape} instead."
        )
    if isinstance(X.columns, pd.MultiIndex):
        raise ValueError(
            f"The {param!r} parameter of {caller} has MultiIndex columns (e.g. {X.columns[0]!r}); pyale "
            f"needs one label per column. Flatten them first: {param}.columns = "
            f"{param}.columns.to_flat_index() keeps each column's tuple as its label."
        )
    if not X.columns.is_unique:
        dupes = list(X.columns[X.columns.duplicated()].unique())
        raise ValueError(
            f"The {param!r} parameter of {caller} must have unique column names. "
            f"Got duplicates {dupes!r} instead."
        )
    return X


def check_int(value: object, *, param: str, caller: str, minimum: int) -> int:
    """An integer >= ``minimum`` from an int, a NumPy integer or a whole-number float.

    R's integer arguments are doubles (``K = 40`` is ``40.0``), so a float
    that is a whole number is accepted; a bool, a string, an array, NaN, an
    infinity or a fraction is a ``TypeError``.
    """
    message = f"The {param!r} parameter of {caller} must be an int >= {minimum}. Got {value!r} instead."
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(message)
    if isinstance(value, numbers.Integral):
        number = int(value)
    elif isinstance(value, numbers.Real) and np.isfinite(float(value)) and float(value).is_integer():
        number = int(float(value))
    else:
        raise TypeError(message)
    if number < minimum:
        raise ValueError(message)
    return number


def check_bool(value: object, *, param: str, caller: str) -> bool:
    """Require a bool (Python or NumPy)."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise TypeError(f"The {param!r} parameter of {caller} must be a bool. Got {value!r} instead.")


def check_choice(value: object, choices: tuple, *, param: str, caller: str) -> str:
    """Require one of the strings ``choices``."""
    if not isinstance(value, str):
        raise TypeError(
            f"The {param!r} parameter of {caller} must be one of {list(choices)!r}. Got {value!r} instead."
        )
    if value not in choices:
        raise ValueError(
            f"The {param!r} parameter of {caller} must be one of {list(choices)!r}. Got {value!r} instead."
        )
    return value


def check_finite_number(value: object, *, param: str, caller: str, what: str = "a finite number") -> float:
    """A finite real number (not a bool): ``TypeError`` for other types, ``ValueError`` for NaN or inf."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"The {param!r} parameter of {caller} must be {what}. Got {value!r} instead.")
    if not np.isfinite(float(value)):
        raise ValueError(f"The {param!r} parameter of {caller} must be {what}. Got {value!r} instead.")
    return float(value)


def check_numbers(values: object, *, param: str, caller: str, where: str) -> np.ndarray:
    """A 1-D float64 array from a number or a flat sequence of real numbers.

    Strings, bools, nested sequences and other objects are a ``TypeError``
    (NumPy would turn ``"3"`` into 3.0 or flatten a nested list silently);
    the caller checks the values (finite, how many).  ``where`` ends the
    message, e.g. ``"feature 'x'"``.
    """
    message = f"The {param!r} parameter of {caller} must hold numbers for {where}. Got {values!r} instead."
    if isinstance(values, (str, bytes, dict, set, frozenset)):
        raise TypeError(message)
    try:
        array = np.asarray(values)
    except (TypeError, ValueError) as exc:  # ragged nesting
        raise TypeError(message) from exc
    if array.ndim == 0:
        array = array.reshape(1)
    if array.ndim != 1:
        raise TypeError(message)
    if array.dtype.kind == "O":
        if not all(isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_)) for v in array):
            raise TypeError(message)
    elif array.dtype.kind not in "iuf":
        raise TypeError(message)
    return array.astype(float)


def check_level(value: object, *, param: str, caller: str) -> float:
    """A probability strictly between 0 and 1 (a confidence level)."""
    message = f"The {param!r} parameter of {caller} must be a number in (0, 1). Got {value!r} instead."
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(message)
    if not 0.0 < float(value) < 1.0:
        raise ValueError(message)
    return float(value)


def _numbers_per_row(values: object, n_rows: int, *, param: str, caller: str, what: str) -> np.ndarray:
    """A float64 array of one number per row from a sequence, array, Series or DataFrame column."""
    message = f"The {param!r} parameter of {caller} must be {what}, one per row of X ({n_rows})."
    if isinstance(values, (str, bytes, dict, set, frozenset)) or values is None:
        raise TypeError(f"{message} Got {type_label(values)} instead.")
    if isinstance(values, pd.DataFrame):
        if values.shape[1] != 1:
            raise ValueError(f"{message} Got a DataFrame with {values.shape[1]} columns instead.")
        values = values.iloc[:, 0]
    try:
        array = np.asarray(values.to_numpy() if isinstance(values, pd.Series) else values)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{message} Got {type_label(values)} instead.") from exc
    if array.ndim != 1:
        raise ValueError(f"{message} Got an array of shape {array.shape} instead.")
    if array.shape[0] != n_rows:
        raise ValueError(f"{message} Got {array.shape[0]} values instead.")
    if array.dtype.kind == "b" or (array.dtype.kind == "O" and any(isinstance(v, (bool, np.bool_)) for v in array)):
        raise TypeError(f"{message} Got booleans instead.")
    if array.dtype.kind in "USa" or (array.dtype.kind == "O" and any(isinstance(v, (str, bytes)) for v in array)):
        # text that reads as numbers ("1.0") is not parsed: a CSV column read as text is a mistake to show
        raise TypeError(f"{message} Got text (e.g. {array[:1].tolist()!r}) instead; convert it with "
                        "pandas.to_numeric first.")
    try:
        floats = array.astype(float)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{message} Got values of dtype {array.dtype} (e.g. {array[:1].tolist()!r}) instead.") from exc
    return floats


def check_weights(values: object, n_rows: int, *, caller: str, param: str = "sample_weight") -> np.ndarray:
    """Frequency weights: one finite number >= 0 per row, not all zero."""
    weights = _numbers_per_row(values, n_rows, param=param, caller=caller, what="non-negative finite numbers")
    bad = ~np.isfinite(weights) | (weights < 0)
    if bad.any():
        first = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"The {param!r} parameter of {caller} must hold non-negative finite numbers. Got "
            f"{float(weights[first])!r} at position {first} ({int(bad.sum())} bad value(s))."
        )
    if not (weights > 0).any():
        raise ValueError(f"The {param!r} parameter of {caller} must give at least one row a positive weight.")
    return weights


def check_response(values: object, X: pd.DataFrame, *, caller: str, param: str = "y") -> np.ndarray:
    """The observed response: one finite number per row of X (or the name of a column of X)."""
    if isinstance(values, str) or (not isinstance(values, (list, tuple, np.ndarray, pd.Series, pd.DataFrame))
                                   and values in X.columns):
        if values not in X.columns:
            raise ValueError(
                f"The {param!r} parameter of {caller} must be one number per row of X or the name of a "
                f"column of X. Got {values!r}, which is not a column."
            )
        values = X[values]
    response = _numbers_per_row(values, X.shape[0], param=param, caller=caller, what="finite numbers")
    bad = ~np.isfinite(response)
    if bad.any():
        first = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"The {param!r} parameter of {caller} must hold finite numbers. Got {float(response[first])!r} at "
            f"position {first} ({int(bad.sum())} missing or infinite value(s))."
        )
    return response


def check_random_state(value: object, *, caller: str, param: str = "random_state"):
    """``None``, a non-negative int, a NumPy Generator or SeedSequence (a legacy RandomState too)."""
    if value is None or isinstance(value, (np.random.Generator, np.random.SeedSequence, np.random.RandomState)):
        return value
    if isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)):
        if int(value) < 0:
            raise ValueError(f"The {param!r} parameter of {caller} must be a non-negative int. Got {value!r} instead.")
        return int(value)
    raise TypeError(
        f"The {param!r} parameter of {caller} must be None, an int, a numpy.random.Generator or "
        f"SeedSequence. Got {type_label(value)} instead."
    )


def resolve_column(X: pd.DataFrame, column: object, *, param: str, caller: str) -> object:
    """Turn a column name or 0-based position into the column label.

    A label that exists in ``X`` wins over a position (so integer column
    labels work); an int is otherwise a 0-based position (R's ``J`` is 1-based).
    """
    if isinstance(column, (bool, np.bool_)):
        raise TypeError(
            f"The {param!r} parameter of {caller} must be a column name or a 0-based column "
            f"position. Got {column!r} instead."
        )
    try:
        if column in X.columns:
            return X.columns[X.columns.get_loc(column)]
    except (TypeError, ValueError, KeyError):
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


def _is_label(item: object, X: pd.DataFrame) -> bool:
    try:
        return bool(item in X.columns)
    except (TypeError, ValueError):  # unhashable or array-like items
        return False


def is_tuple_label(X: pd.DataFrame, J: object, *, param: str, caller: str, pair_form: str) -> bool:
    """Whether ``J`` is a tuple naming one column (a tuple label) rather than a pair of columns.

    Refuses a tuple that is a column's label and also a pair of column
    labels; ``pair_form`` (with ``{pair}`` for the list of the two labels)
    says how to ask for the pair instead.
    """
    if not isinstance(J, tuple) or not _is_label(J, X):
        return False
    if len(J) == 2 and all(_is_label(item, X) for item in J):
        raise ValueError(
            f"The {param!r} parameter of {caller} is ambiguous: {J!r} is a column and also a pair of "
            f"columns. Pass its position {X.columns.get_loc(J)} for the one column, or "
            f"{pair_form.format(pair=repr(list(J)))} for "
            "the pair."
        )
    return True


def resolve_pair(X: pd.DataFrame, J: object, *, caller_name: str, param: str = "J"):
    """Two distinct column labels from a pair of names or 0-based positions."""
    items = list(J)
    if len(items) != 2:
        raise ValueError(
            f"The {param!r} parameter of {caller_name} must be one column or a pair of columns. "
            f"Got {len(items)} items ({items!r}) instead."
        )
    names = tuple(resolve_column(X, item, param=param, caller=caller_name) for item in items)
    if names[0] == names[1]:
        raise ValueError(
            f"The {param!r} parameter of {caller_name} must name two different columns. "
            f"Got {items!r}, which both name column {names[0]!r}."
        )
    return names


def check_pair_kinds(first_categorical: bool, second_categorical: bool, names, caller_name: str, param: str) -> None:
    """ALEPlot's pair kinds: numeric x numeric, or categorical first (a clear error otherwise)."""
    if second_categorical:
        if first_categorical:
            raise ValueError(
                f"{caller_name} does not support a pair of two categorical features "
                f"({names[0]!r}, {names[1]!r}); ALEPlot 1.1 handles numeric x numeric and "
                "categorical x numeric only."
            )
        raise ValueError(
            f"Column {names[1]!r} ({param}[1]) is categorical: {caller_name} needs the categorical "
            f"feature first. Swap them: {param}=({names[1]!r}, {names[0]!r})."
        )


def check_feature_options(categorical: bool, name, grid, level_order, caller: str) -> None:
    """``grid`` applies to a numeric feature, ``level_order`` to a categorical one (a clear error otherwise)."""
    if level_order is not None and not categorical:
        raise ValueError(
            f"The 'level_order' parameter of {caller} applies to a categorical feature; column "
            f"{name!r} is numeric."
        )
    if grid is not None and categorical:
        raise ValueError(
            f"The 'grid' parameter of {caller} applies to a numeric feature; column {name!r} is "
            "categorical (use level_order= to order its levels)."
        )
