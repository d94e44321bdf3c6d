"""The ``pyale`` command's inputs: data and model files, model input columns, the features asked for.

Every problem becomes a :class:`CommandError` carrying a one-line message
and the exit code to use; nothing here prints.
"""

from __future__ import annotations

import numbers
import pickle
import re
import warnings
from decimal import Decimal, InvalidOperation
from pathlib import Path

import numpy as np

__all__ = ["CommandError", "EXIT_OK", "EXIT_FAILED", "EXIT_USAGE", "EXIT_NO_R"]

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_NO_R = 0, 1, 2, 3


class CommandError(Exception):
    """A failure to report as one line, with the exit code to use."""

    def __init__(self, message: str, code: int = EXIT_FAILED):
        super().__init__(message)
        self.code = code


def _require_file(path: Path, option: str) -> None:
    if not path.exists():
        raise CommandError(f"{option}: no such file: {str(path)!r}.", EXIT_USAGE)
    if not path.is_file():
        raise CommandError(f"{option}: {str(path)!r} is not a file.", EXIT_USAGE)


def exact_csv_options() -> dict:
    """``read_csv`` options that read every float as the double its text stands for.

    pandas 3 does so by default (and deprecates ``float_precision``); pandas
    2's default parser can be one unit in the last place off.
    """
    import pandas as pd

    return {} if int(pd.__version__.split(".")[0]) >= 3 else {"float_precision": "round_trip"}


def read_csv_exact(source):
    """``pandas.read_csv`` with :func:`exact_csv_options`."""
    import pandas as pd

    return pd.read_csv(source, **exact_csv_options())


def _read_data(path: Path):
    import pandas as pd

    _require_file(path, "--data")
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".parquet", ".pq"):
        raise CommandError(
            f"--data: cannot tell the format of {str(path)!r}; use a .csv, .parquet or .pq file.",
            EXIT_USAGE,
        )
    try:
        if suffix == ".csv":
            data = read_csv_exact(path)
        else:
            data = pd.read_parquet(path)
    except ImportError as exc:
        raise CommandError(
            f"--data: reading Parquet needs pyarrow (pip install pyarrow): {exc}"
        ) from exc
    except Exception as exc:  # noqa: BLE001 - parser errors of every reader
        raise CommandError(f"--data: could not read {str(path)!r}: {exc}") from exc
    if data.shape[0] == 0 or data.shape[1] == 0:
        raise CommandError(f"--data: {str(path)!r} holds no rows or no columns.")
    return data


def _read_model(path: Path, r_predict_type: str | None):
    _require_file(path, "--model")
    suffix = path.suffix.lower()
    if r_predict_type is not None and suffix != ".rds":
        raise CommandError("--r-predict-type applies only to an R model (.rds).", EXIT_USAGE)
    if suffix == ".rds":
        try:
            from ..r import RModel
        except ImportError as exc:
            raise CommandError(f"--model: an .rds model needs R and rpy2: {exc}") from exc
        extra = {} if r_predict_type is None else {"type": r_predict_type}
        try:
            return RModel(path, **extra)
        except Exception as exc:  # noqa: BLE001 - R's own error text
            raise CommandError(f"--model: R could not read {str(path)!r}: {exc}") from exc
    try:
        if suffix == ".joblib":
            try:
                import joblib
            except ImportError as exc:
                raise CommandError("--model: a .joblib file needs joblib (pip install joblib).") from exc
            return joblib.load(path)
        with path.open("rb") as fh:
            return pickle.load(fh)
    except CommandError:
        raise
    except Exception as exc:  # noqa: BLE001 - unpickling can raise anything
        kind = "joblib" if suffix == ".joblib" else "pickle"
        raise CommandError(
            f"--model: could not load {str(path)!r} as a {kind} file "
            f"({type(exc).__name__}: {exc})."
        ) from exc


def _model_inputs(data, model, drop: list[str]):
    """The columns that form X: the model's declared inputs, or the data minus --drop."""
    unknown = [c for c in drop if c not in data.columns]
    if unknown:
        raise CommandError(
            f"--drop: {unknown!r} are not columns of the data; its columns are {list(data.columns)!r}.",
            EXIT_USAGE,
        )
    declared = getattr(model, "feature_names_in_", None)
    if declared is not None:
        declared = [str(c) for c in declared]
        missing = [c for c in declared if c not in data.columns]
        if missing:
            raise CommandError(
                f"the model expects columns {declared!r}; the data lacks {missing!r}."
            )
        return data[[c for c in declared if c not in drop]]
    return data.drop(columns=drop)


def _parse_features(entries: list[str], columns) -> list:
    """``'a'`` -> ``'a'``; ``'a,b'`` -> ``('a', 'b')`` unless ``'a,b'`` is itself a column.

    A column named ``'a,b'`` wins over the pair (with a warning when ``a`` and
    ``b`` are columns too: ``'a, b'`` then names the pair).  Repeats are dropped.
    """
    names = [str(c) for c in columns]
    parsed = []
    for entry in entries:
        split = [p.strip() for p in entry.split(",")]
        parts = [entry] if entry in names else split
        if entry in names and len(split) == 2 and all(p in names for p in split):
            warnings.warn(
                f"--features {entry!r} is read as the column {entry!r}, not as the pair of {split[0]!r} "
                f"and {split[1]!r} (columns as well); for the pair write {split[0] + ', ' + split[1]!r}.",
                UserWarning, stacklevel=2)
        if len(parts) > 2:
            raise CommandError(
                f"--features: {entry!r} names {len(parts)} columns; give one column or a pair 'a,b'.",
                EXIT_USAGE,
            )
        missing = [p for p in parts if p not in names]
        if missing:
            raise CommandError(
                f"--features: {missing!r} are not model input columns; the columns are {names!r}.",
                EXIT_USAGE,
            )
        feature = parts[0] if len(parts) == 1 else tuple(parts)
        if feature not in parsed:  # the same effect asked for twice is computed and written once
            parsed.append(feature)
    return parsed


_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|[+-]?(?:inf|infinity)", re.IGNORECASE)


def _names_class(text: str, label) -> bool:
    """Whether the typed ``text`` names the class ``label`` (see :func:`_response`)."""
    if isinstance(label, (bool, np.bool_)):
        return text.strip().lower() == str(bool(label)).lower()
    if isinstance(label, str):
        return text == label
    if isinstance(label, numbers.Integral):
        try:
            return bool(_NUMBER.fullmatch(text.strip())) and Decimal(text.strip()) == int(label)
        except (InvalidOperation, ValueError):  # e.g. "inf" against an int
            return False
    if isinstance(label, numbers.Real):
        return bool(_NUMBER.fullmatch(text.strip())) and float(text) == float(label)
    return text == str(label)


def _response(model, text: str | None):
    """The model's class named by ``--response TEXT``, as the model holds it.

    A command line gives only text; a classifier's classes may be ints,
    bools, floats, strings or NumPy scalars.  ``TEXT`` names a string class
    when equal to it, a bool class when it reads ``true``/``false`` in any
    case, a number class when it is a number equal to it (``1``, ``1.0``,
    ``1e0`` all name the int class 1).  No class, or more than one (classes
    ``["1", 1]``), is an error listing the classes: pyale never guesses.
    A model without ``classes_`` and ``predict_proba`` (a regressor, an R
    model whose ``predict`` answer has named columns) gets ``TEXT`` as given.
    """
    if text is None or not (hasattr(model, "predict_proba") and hasattr(model, "classes_")):
        return text
    try:
        classes = np.asarray(model.classes_).tolist()
    except Exception:  # noqa: BLE001 - unusual classes_: let the model adapter report it
        return text
    if not isinstance(classes, list) or any(isinstance(c, (list, tuple, dict)) for c in classes):
        return text
    matches = [c for c in classes if _names_class(text, c)]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise CommandError(f"--response: {text!r} names no class of the model; its classes are {classes!r}.",
                           EXIT_USAGE)
    raise CommandError(
        f"--response: {text!r} names more than one class of the model ({matches!r}); its classes are "
        f"{classes!r}. pyale does not guess: rename the classes or call pyale from Python with the class "
        "object itself.", EXIT_USAGE)
