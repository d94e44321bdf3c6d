"""Argument checks for ``pyale.ALE`` (R's ``ale::ALE``) and its terms.

``check_ale_arguments`` validates every argument of
``ALE(model, x_cols, data, y_col=None, *, pred_fun=None, pred_type="response",
max_num_bins=10, boot_it=0, boot_alpha=0.05, boot_centre="mean", seed=0)`` with
scikit-learn's message shape and returns them normalised; ``resolve_x_cols``
turns the terms into R's 1-D and 2-D lists (requested order and ``ale``'s
computation order); ``r_call`` writes the equivalent R call.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Any, Callable

import pandas as pd

from .._checks import check_frame

__all__ = ["ALEArguments", "check_ale_arguments", "resolve_x_cols", "R_ARGUMENTS", "r_call"]

CALLER = "ALE"
R_INT_MAX = 2**31 - 1

# pyale's argument -> R's argument of ale::ALE (identical names; R's defaults that pyale fixes are listed too)
R_ARGUMENTS = {
    "model": "model", "x_cols": "x_cols", "data": "data", "y_col": "y_col", "pred_fun": "pred_fun",
    "pred_type": "pred_type", "max_num_bins": "max_num_bins", "boot_it": "boot_it",
    "boot_alpha": "boot_alpha", "boot_centre": "boot_centre", "seed": "seed",
}
R_FIXED = {"parallel": "0", "p_values": "NULL", "output_stats": "TRUE", "silent": "TRUE"}


@dataclass(frozen=True, eq=False)
class ALEArguments:
    """The checked arguments of ``ALE``.

    ``terms_1d`` and ``terms_2d`` are in the order requested; ``ordered_1d`` and
    ``ordered_2d`` in ``ale``'s computation order (data-column order; pairs by the
    positions of their first, then second column), which is the row order of its
    statistics tables.
    """

    model: Any
    data: pd.DataFrame
    y_col: Any
    terms_1d: tuple
    terms_2d: tuple
    ordered_1d: tuple
    ordered_2d: tuple
    pred_fun: Callable | None
    pred_type: str
    max_num_bins: int | dict  # an int, or {"default": int, "except": {column: int}}
    boot_it: int
    boot_alpha: float
    boot_centre: str
    seed: int


def _whole(value: object, *, param: str, minimum: int, maximum: int | None = None) -> int:
    """An int, or a float holding a whole number (R passes doubles), within bounds."""
    bounds = f">= {minimum}" if maximum is None else f"from {minimum} to {maximum}"
    message = f"The {param!r} parameter of {CALLER} must be a whole number {bounds}. Got {value!r} instead."
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(message)
    if not math.isfinite(float(value)) or float(value) != math.floor(float(value)):
        raise ValueError(message)
    number = int(value)
    if number < minimum or (maximum is not None and number > maximum):
        raise ValueError(message)
    return number


def _term_columns(term: object, columns: pd.Index, param: str = "x_cols") -> tuple:
    """One term as a tuple of 1 or 2 column labels."""
    if isinstance(term, str) and term not in columns and ":" in term:
        parts = tuple(term.split(":"))
    elif isinstance(term, (tuple, list)):
        parts = tuple(term)
    else:
        parts = (term,)
    if len(parts) not in (1, 2):
        raise ValueError(
            f"The {param!r} parameter of {CALLER} takes 1-D terms and 2-D terms (pairs); "
            f"ale supports no higher interactions. Got {term!r} instead."
        )
    for part in parts:
        try:
            found = part in columns
        except TypeError:
            found = False
        if not found:
            raise ValueError(f"The {param!r} parameter of {CALLER} names {part!r}, which is not a column of 'data'.")
    if len(parts) == 2 and parts[0] == parts[1]:
        raise ValueError(f"The {param!r} parameter of {CALLER} pairs column {parts[0]!r} with itself in {term!r}.")
    return parts


def resolve_x_cols(x_cols: object, columns, y_col: object = None, *,
                   param: str = "x_cols") -> tuple[tuple, tuple, tuple, tuple]:
    """R's ``resolve_x_cols`` and ``sort_x_cols`` for pyale's spelling of the terms.

    Parameters
    ----------
    x_cols : None, str, sequence or dict
        ``None``: every column but ``y_col`` (R's default ``list(d1 = TRUE)``).
        A string: one term, ``"a"`` or ``"a:b"`` (a string that is itself a column
        label is always that column).  A sequence: one term per element, each a
        string or a pair ``(a, b)`` (to request a single 2-D term as a tuple, wrap
        it: ``[("a", "b")]``).  A dict with keys ``"d1"``, ``"d2"`` as R's list
        form: ``True`` for all columns (``d2``: all pairs, each once, in column
        order) or a sequence of terms.
    columns : sequence
        The data's column labels.
    y_col : label, optional
        The response column: excluded from ``True``; an error when named as a term.
    param : str, default "x_cols"
        The argument being read, for the messages (``"exclude_cols"``).

    Returns
    -------
    (terms_1d, terms_2d, ordered_1d, ordered_2d)
        1-D terms are labels, 2-D terms pairs.  Duplicates are dropped;
        ``(a, b)`` and ``(b, a)`` are different terms, as in R.
    """
    columns = pd.Index(columns)
    predictors = [c for c in columns if c != y_col]
    if x_cols is None:
        x_cols = {"d1": True}
    if isinstance(x_cols, dict):
        unknown = set(x_cols) - {"d1", "d2"}
        if unknown:
            raise ValueError(f"The {param!r} parameter of {CALLER} takes the keys 'd1' and 'd2'. "
                             f"Got {sorted(map(str, unknown))!r} instead.")
        terms: list = []
        for key in ("d1", "d2"):
            spec = x_cols.get(key)
            if spec is True:
                if key == "d1":
                    terms += predictors
                else:
                    terms += [(a, b) for i, a in enumerate(predictors) for b in predictors[i + 1:]]
            elif spec in (None, False):
                continue
            else:
                terms += [spec] if isinstance(spec, str) else list(spec)
    elif isinstance(x_cols, str):
        terms = [x_cols]
    elif isinstance(x_cols, (list, tuple, pd.Index)):
        terms = list(x_cols)
    else:
        raise TypeError(f"The {param!r} parameter of {CALLER} must be None, a column name, a sequence of terms "
                        f"or a dict with keys 'd1'/'d2'. Got {type(x_cols).__name__} instead.")
    if not terms:
        raise ValueError(f"The {param!r} parameter of {CALLER} must name at least one term. Got {x_cols!r} instead.")
    d1: list = []
    d2: list = []
    for term in terms:
        parts = _term_columns(term, columns, param)
        if y_col is not None and y_col in parts:
            raise ValueError(f"The {param!r} parameter of {CALLER} names the response column {y_col!r} in {term!r}.")
        target, item = (d1, parts[0]) if len(parts) == 1 else (d2, parts)
        if item not in target:
            target.append(item)
    position = {c: i for i, c in enumerate(columns)}
    ordered_1d = tuple(sorted(d1, key=position.__getitem__))
    ordered_2d = tuple(sorted(d2, key=lambda p: (position[p[0]], position[p[1]])))
    return tuple(d1), tuple(d2), ordered_1d, ordered_2d


def check_ale_arguments(model, x_cols, data, y_col=None, *, pred_fun=None, pred_type="response",
                        max_num_bins=10, boot_it=0, boot_alpha=0.05, boot_centre="mean",
                        seed=0) -> ALEArguments:
    """Validate ``ALE``'s arguments the way R's ``ale::ALE`` does, with clear messages.

    R's rules kept: ``max_num_bins`` a whole number >= 2; ``boot_it`` a whole number
    >= 0; ``boot_alpha`` in [0, 1]; ``boot_centre`` "mean" or "median"; ``seed`` a
    whole number in R's integer range (furrr converts it to an R integer and fails
    otherwise, even without bootstrap); ``data`` without missing values anywhere
    (R refuses them); ``pred_type`` a string.

    Raises
    ------
    TypeError, ValueError
        Naming the argument and showing the bad value.
    """
    data = check_frame(data, param="data", caller=CALLER)
    if y_col is not None and y_col not in data.columns:
        raise ValueError(f"The 'y_col' parameter of {CALLER} must be a column of 'data'. Got {y_col!r} instead.")
    missing = data.isna().to_numpy().any(axis=0)
    if missing.any():
        column = data.columns[int(missing.argmax())]
        raise ValueError(f"The 'data' parameter of {CALLER} must not have missing values "
                         f"(R's ale refuses them). Column {column!r} has "
                         f"{int(data[column].isna().sum())} missing value(s).")
    if pred_fun is not None and not callable(pred_fun):
        raise TypeError(f"The 'pred_fun' parameter of {CALLER} must be None or a callable "
                        f"pred_fun(object, newdata, type). Got {type(pred_fun).__name__} instead.")
    if not isinstance(pred_type, str):
        raise TypeError(f"The 'pred_type' parameter of {CALLER} must be a str. Got {pred_type!r} instead.")
    bins = per_column_option(max_num_bins, param="max_num_bins", columns=data.columns,
                             read=lambda v, where: _whole(v, param=where, minimum=2))
    boots = _whole(boot_it, param="boot_it", minimum=0)
    if isinstance(boot_alpha, bool) or not isinstance(boot_alpha, numbers.Real):
        raise TypeError(f"The 'boot_alpha' parameter of {CALLER} must be a float in [0, 1]. Got {boot_alpha!r} instead.")
    if not 0 <= float(boot_alpha) <= 1:
        raise ValueError(f"The 'boot_alpha' parameter of {CALLER} must be a float in [0, 1]. Got {boot_alpha!r} instead.")
    if boot_centre not in ("mean", "median"):
        raise ValueError(f"The 'boot_centre' parameter of {CALLER} must be 'mean' or 'median'. "
                         f"Got {boot_centre!r} instead.")
    seed_int = _whole(seed, param="seed", minimum=-R_INT_MAX, maximum=R_INT_MAX)
    d1, d2, o1, o2 = resolve_x_cols(x_cols, data.columns, y_col)
    return ALEArguments(model=model, data=data, y_col=y_col, terms_1d=d1, terms_2d=d2, ordered_1d=o1,
                        ordered_2d=o2, pred_fun=pred_fun, pred_type=pred_type, max_num_bins=bins,
                        boot_it=boots, boot_alpha=float(boot_alpha), boot_centre=boot_centre, seed=seed_int)


def per_column_option(value, *, param: str, columns, read):
    """A value for every column, or R's list format ``{"default": v, "except": {column: v}}``.

    The development version of ``ale`` takes ``max_num_bins`` and
    ``fct_order`` so (``list(default = , except = c(col = ))``); ``read(v,
    where)`` validates one value.  Returns the value, or the dict with both
    keys (``except`` may be left out: no exception).  An exception for a
    column not in ``data`` is refused, as R does.
    """
    if not isinstance(value, dict):
        return read(value, param)
    unknown = [k for k in value if k not in ("default", "except")]
    if unknown or "default" not in value:
        raise ValueError(f"The {param!r} parameter of {CALLER} in its per-column form must be a dict with the keys "
                         f"'default' and (optionally) 'except' ({{column: value}}). Got {value!r} instead.")
    default = read(value["default"], f"{param}['default']")
    exceptions = value.get("except") or {}
    if not isinstance(exceptions, dict):
        raise TypeError(f"The {param!r} parameter of {CALLER}: 'except' must be a dict {{column: value}}. "
                        f"Got {exceptions!r} instead.")
    missing = [c for c in exceptions if c not in columns]
    if missing:
        raise ValueError(f"The {param!r} parameter of {CALLER} names columns that are not in 'data' as "
                         f"exceptions: {missing!r}.")
    return {"default": default, "except": {c: read(v, f"{param}['except'][{c!r}]") for c, v in exceptions.items()}}


def column_value(option, column):
    """The value of a :func:`per_column_option` for ``column``."""
    if isinstance(option, dict):
        return option["except"].get(column, option["default"])
    return option


def check_choice(value, *, param: str, choices: tuple) -> str:
    """One of ``choices`` (strings), or a clear error naming ``param``."""
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"The {param!r} parameter of {CALLER} must be one of {', '.join(map(repr, choices))}. "
                         f"Got {value!r} instead.")
    return value


def _r_per_column(option, render) -> str:
    if not isinstance(option, dict):
        return render(option)
    exceptions = ", ".join(f"{_r_name(c)} = {render(v)}" for c, v in option["except"].items())
    return f"list(default = {render(option['default'])}, except = c({exceptions}))"


def _r_name(column) -> str:
    text = str(column)
    return text if text.isidentifier() else "`" + text.replace("`", "\\`") + "`"


def _r_string(value: object) -> str:
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{text}"'


def r_call(args: ALEArguments, *, model: str = "model", data: str = "data") -> str:
    """The R call that computes the same thing with ``ale`` 0.5.0 (for reports and migration notes).

    Examples
    --------
    >>> frame = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": [3.0, 1.0, 2.0], "y": [0.0, 1.0, 5.0]})
    >>> print(r_call(check_ale_arguments(None, ["a", ("a", "b")], frame, "y", boot_it=10)))
    ale::ALE(model, x_cols = c("a", "a:b"), data = data, y_col = "y", pred_type = "response", max_num_bins = 10, boot_it = 10, boot_alpha = 0.05, boot_centre = "mean", seed = 0, parallel = 0, p_values = NULL, output_stats = TRUE, silent = TRUE)
    """
    terms = [_r_string(t) for t in args.terms_1d] + [_r_string(f"{a}:{b}") for a, b in args.terms_2d]
    parts = [model, f"x_cols = c({', '.join(terms)})", f"data = {data}"]
    if args.y_col is not None:
        parts.append(f"y_col = {_r_string(args.y_col)}")
    if args.pred_fun is not None:
        parts.append("pred_fun = pred_fun")
    parts += [f"pred_type = {_r_string(args.pred_type)}", f"max_num_bins = {_r_per_column(args.max_num_bins, str)}",
              f"boot_it = {args.boot_it}", f"boot_alpha = {args.boot_alpha!r}",
              f"boot_centre = {_r_string(args.boot_centre)}", f"seed = {args.seed}"]
    parts += [f"{k} = {v}" for k, v in R_FIXED.items()]
    return f"ale::ALE({', '.join(parts)})"
