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


def describe_error(exc: BaseException) -> str:
    """An exception as one line: its message, or for an unexpected kind its type and a hint."""
    from .._core.map.calls import PredictionError

    message = str(exc) or type(exc).__name__
    if isinstance(exc, (ValueError, TypeError, PredictionError, ImportError, OSError)):
        return message
    return f"unexpected {type(exc).__name__}: {message} (set PYALE_DEBUG=1 for the traceback)"


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


def _pandas_dtype(name: str):
    import pandas as pd

    try:
        return pd.api.types.pandas_dtype(name)
    except (TypeError, ValueError):
        return None


def split_dtype(entry: str) -> tuple[str, str, object]:
    """One ``--dtype`` entry, ``COLUMN=TYPE`` (or ``COLUMN:TYPE``), as ``(column, type name, pandas dtype)``.

    Column names may hold ``=`` and ``:`` themselves, and a few type names
    hold ``=`` (``timestamp[ns, tz=UTC][pyarrow]``): the entry is split at
    the rightmost ``=`` or ``:`` whose right-hand side is a pandas dtype.
    """
    cuts = [i for i, char in enumerate(entry) if char in "=:"]
    if not cuts:
        raise CommandError(f"--dtype: {entry!r} is not COLUMN=TYPE (e.g. zip=string).", EXIT_USAGE)
    for cut in reversed(cuts):
        column, name = entry[:cut], entry[cut + 1:]
        dtype = _pandas_dtype(name) if name else None
        if dtype is not None:
            if not column:
                break
            return column, name, dtype
    column, name = entry[:cuts[-1]], entry[cuts[-1] + 1:]
    if not column or not name:
        raise CommandError(f"--dtype: {entry!r} is not COLUMN=TYPE (e.g. zip=string).", EXIT_USAGE)
    raise CommandError(
        f"--dtype: {name!r} (in {entry!r}) is not a pandas dtype; use e.g. int64, float64, string, bool, Int64, "
        "category.", EXIT_USAGE)


def parse_dtypes(entries: list[str] | None) -> dict:
    """``--dtype COLUMN=TYPE ...`` as ``{column: pandas dtype}`` (see :func:`split_dtype`).

    TYPE is any pandas dtype name: ``int64``, ``float64``, ``string``,
    ``bool``, ``Int64``, ``category``, ...
    """
    out = {}
    for entry in entries or []:
        column, _, dtype = split_dtype(entry)
        if column in out:
            raise CommandError(f"--dtype: column {column!r} is given twice.", EXIT_USAGE)
        out[column] = dtype
    return out


def _check_columns(columns: list, dtypes: dict, categories: list) -> None:
    for option, names in (("--dtype", list(dtypes)), ("--categorical", categories)):
        unknown = [c for c in names if c not in columns]
        if unknown:
            raise CommandError(f"{option}: {unknown!r} are not columns of the data; its columns are {columns!r}.",
                               EXIT_USAGE)


def _read_error(path: Path, plain: dict, read_as: dict, exc: Exception) -> CommandError:
    """The error of a CSV that cannot be read: the ``--dtype`` column that fails, when one does."""
    import pandas as pd

    for column, dtype in plain.items():
        try:
            pd.read_csv(path, usecols=[column], dtype={column: read_as[column]}, **exact_csv_options())
        except Exception as column_exc:  # noqa: BLE001 - pandas' conversion errors
            return CommandError(f"--dtype {column}={dtype}: column {column!r} of {str(path)!r} cannot be read as "
                                f"{dtype}: {column_exc}", EXIT_USAGE)
    return CommandError(f"--data: could not read {str(path)!r}: {exc}")


def _read_data(path: Path, dtypes: dict | None = None, categorical: list | None = None):
    """The data file as a DataFrame, with the ``--dtype`` and ``--categorical`` columns converted.

    A CSV column given a dtype is read as that dtype (``string`` keeps
    ``007`` as written); a categorical column is read as its values would be
    (numbers stay numbers) and then made a pandas Categorical with those
    values as categories (sorted), so its categories have the type the
    values have.  Parquet keeps its own dtypes; the options convert after
    reading.
    """
    import pandas as pd

    _require_file(path, "--data")
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".parquet", ".pq"):
        raise CommandError(
            f"--data: cannot tell the format of {str(path)!r}; use a .csv, .parquet or .pq file.",
            EXIT_USAGE,
        )
    dtypes = dict(dtypes or {})
    categories = list(dict.fromkeys([*(categorical or []),
                                     *(c for c, d in dtypes.items() if isinstance(d, pd.CategoricalDtype))]))
    plain = {c: d for c, d in dtypes.items() if not isinstance(d, pd.CategoricalDtype)}
    # A CSV's narrow integer columns are read at 64 bits and then narrowed with a check (pandas 2 wraps overflows)
    read_as = {c: _wide(d) or d for c, d in plain.items()}
    try:
        if suffix == ".csv":
            if plain:  # the header first: an unknown column is named before the file is read
                header = pd.read_csv(path, nrows=0)
                _check_columns([str(c) for c in header.columns], plain, [])
            try:
                data = pd.read_csv(path, dtype=read_as or None, **exact_csv_options())
            except (ValueError, TypeError, OverflowError) as exc:
                raise _read_error(path, plain, read_as, exc) from exc
        else:
            data = pd.read_parquet(path)
    except CommandError:
        raise
    except ImportError as exc:
        raise CommandError(
            f"--data: reading Parquet needs pyarrow (pip install pyarrow): {exc}"
        ) from exc
    except Exception as exc:  # noqa: BLE001 - parser errors of every reader
        raise CommandError(f"--data: could not read {str(path)!r}: {exc}") from exc
    if data.shape[0] == 0 or data.shape[1] == 0:
        raise CommandError(f"--data: {str(path)!r} holds no rows or no columns.")
    _check_columns([str(c) for c in data.columns], dtypes, categories)
    for column, dtype in plain.items():
        if data[column].dtype != dtype:
            data[column] = _converted(data[column], dtype, column)
    for column in categories:
        if not isinstance(data[column].dtype, pd.CategoricalDtype):
            data[column] = data[column].astype("category")
    return data


def _integer_kind(dtype) -> str | None:
    """``'i'`` or ``'u'`` for a NumPy or pandas (nullable) integer dtype, else None."""
    numpy_dtype = getattr(dtype, "numpy_dtype", dtype)
    kind = getattr(numpy_dtype, "kind", None)
    return kind if kind in ("i", "u") else None


def _wide(dtype):
    """The 64-bit integer dtype to read a narrower integer ``dtype`` with (pandas 2 wraps overflows), or None."""
    import numpy as np
    import pandas as pd

    kind = _integer_kind(dtype)
    if kind is None or np.dtype(getattr(dtype, "numpy_dtype", dtype)).itemsize >= 8:
        return None
    if isinstance(dtype, np.dtype):
        return np.dtype(f"{kind}8")
    if isinstance(dtype, pd.api.extensions.ExtensionDtype) and type(dtype).__module__.startswith("pandas.core"):
        return pd.api.types.pandas_dtype("Int64" if kind == "i" else "UInt64")
    return None


def _converted(column, dtype, name):
    """``column.astype(dtype)``, refused when an integer dtype would change a number (overflow, fractions)."""
    import pandas as pd

    try:
        converted = column.astype(dtype)
    except Exception as exc:  # noqa: BLE001 - pandas' conversion errors
        raise CommandError(f"--dtype {name}={dtype}: column {name!r} cannot be read as {dtype}: {exc}",
                           EXIT_USAGE) from exc
    if _integer_kind(dtype) and pd.api.types.is_numeric_dtype(column.dtype):
        try:
            back = converted.astype(column.dtype)
            changed = ~((back == column).fillna(False).to_numpy(bool) | (back.isna() & column.isna()).to_numpy(bool))
        except Exception:  # noqa: BLE001 - a comparison that fails: the values cannot be the same
            changed = None
        if changed is None or changed.any():
            shown = [] if changed is None else column[changed].head(3).tolist()
            raise CommandError(f"--dtype {name}={dtype}: column {name!r} holds values {dtype} cannot hold exactly "
                               f"(e.g. {shown!r}); choose a wider type.", EXIT_USAGE)
    return converted


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


def _model_inputs(data, model, drop: list[str], *, exclude: tuple = ()):
    """The columns that form X: the model's declared inputs, or the data minus --drop (and ``exclude``).

    The model's own list of features (:func:`pyale._core.map.adapters.declared_features`:
    scikit-learn's ``feature_names_in_``, a lightgbm or xgboost Booster's
    feature names, matched to the data's columns by
    :func:`~pyale._core.map.adapters.match_columns`: lightgbm writes spaces as
    ``'_'``) decides, in its order; other columns (the response, an
    id, the weights) are left out.  ``exclude`` (e.g. the ``--weights``
    column) is left out of a model without such a list.
    """
    from .._core.map.adapters import declared_features, from_lightgbm, match_columns

    unknown = [c for c in drop if c not in data.columns]
    if unknown:
        raise CommandError(
            f"--drop: {unknown!r} are not columns of the data; its columns are {list(data.columns)!r}.",
            EXIT_USAGE,
        )
    declared = declared_features(model)
    if declared is not None:
        declared = [str(c) for c in declared]
        try:  # lightgbm's names have spaces written '_': 'mean_radius' is the column 'mean radius'
            found, missing = match_columns(declared, data.columns, lightgbm=from_lightgbm(model))
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        if missing:
            raise CommandError(
                f"the model expects columns {declared!r}; the data lacks {missing!r}."
            )
        inputs = [c for c in found if c not in drop]
        clash = [c for c in exclude if c in inputs]
        if clash:  # e.g. --weights naming a column the model predicts from
            raise CommandError(
                f"--weights: {clash[0]!r} is one of the model's input columns; weights must be a column the "
                "model does not use.",
                EXIT_USAGE,
            )
        return data[inputs]
    return data.drop(columns=list(dict.fromkeys([*drop, *(c for c in exclude if c in data.columns)])))


def _lightgbm_booster(model):
    """A native lightgbm Booster, or the one inside a fitted scikit-learn-style lightgbm model."""
    for candidate in (model, getattr(model, "booster_", None) if hasattr(model, "fit") else None):
        kind = type(candidate)
        if kind.__name__ == "Booster" and kind.__module__.split(".")[0] == "lightgbm":
            return candidate
    return None


def _lightgbm_categorical(booster) -> list:
    """The features a lightgbm booster treats as categorical (from its model text's feature_infos)."""
    names, infos = [], []
    for line in booster.model_to_string(num_iteration=1).splitlines():
        if line.startswith("feature_names="):
            names = line[len("feature_names="):].split(" ")
        elif line.startswith("feature_infos="):
            infos = line[len("feature_infos="):].split(" ")
        if names and infos:
            break
    return [n for n, info in zip(names, infos) if info != "none" and not info.startswith("[")]


def _xgboost_categorical(model) -> list | None:
    """The features an xgboost Booster (or scikit-learn-style model) learnt as categorical, or None."""
    booster = model
    if type(model).__module__.split(".")[0] == "xgboost" and hasattr(model, "get_booster"):
        try:
            booster = model.get_booster()
        except Exception:  # noqa: BLE001 - an unfitted model: nothing to check
            return None
    kind = type(booster)
    if kind.__name__ != "Booster" or kind.__module__.split(".")[0] != "xgboost":
        return None
    names, types = booster.feature_names, booster.feature_types
    if names is None or types is None:
        return None
    return [n for n, t in zip(names, types) if t == "c"]


def check_categories(model, X) -> None:
    """Refuse data whose categorical columns a lightgbm or xgboost model would fail on or misread.

    Both learn a pandas Categorical column as categorical; handed numbers or
    strings there, xgboost fails and lightgbm fails or misreads.  lightgbm
    also maps a Categorical to the categories it was trained on
    (``pandas_categorical``) by value and treats any other value (including
    ``'1'`` where it learnt ``1``) as missing, without a word.  A CSV keeps
    no dtypes, so this is checked before the first model call.
    """
    import pandas as pd

    from .._core.map.adapters import match_columns

    given = [str(c) for c in X.columns if isinstance(X[c].dtype, pd.CategoricalDtype)]
    learnt = _xgboost_categorical(model)
    if learnt is not None:
        _require_declared("xgboost", learnt, given, X)
        return
    booster = _lightgbm_booster(model)
    if booster is None:
        return
    trained = list(getattr(booster, "pandas_categorical", None) or [])
    learnt = match_columns(_lightgbm_categorical(booster), X.columns, lightgbm=True)[0]  # X's own labels
    _require_declared("lightgbm", learnt, given, X)
    for column, categories in zip(given, trained):
        known = list(categories)
        values = [v for v in pd.unique(X[column].dropna()) if not any(_same(v, k) for k in known)]
        if values:
            shown = known[:10] + (["..."] if len(known) > 10 else [])
            raise CommandError(
                f"column {column!r} holds {values[:5]!r} that are not among the categories the lightgbm model "
                f"was trained on ({shown!r}); lightgbm would read them as missing values. Categories must "
                f"match in type too (the text '1' is not the number 1): read the column with "
                f"--dtype {column}=string or --dtype {column}=int64 (and --categorical {column}).", EXIT_USAGE)


def _require_declared(package: str, learnt: list, given: list, X) -> None:
    missing = [c for c in learnt if c in X.columns and c not in given]
    if missing:
        raise CommandError(
            f"the {package} model treats {missing!r} as categorical, but the data holds them as "
            f"{', '.join(str(X[c].dtype) for c in missing)}: declare them with --categorical "
            f"{' '.join(missing)} (a CSV keeps no dtypes; Parquet keeps no integer categories).", EXIT_USAGE)
    extra = [c for c in given if c not in learnt]
    if extra:
        raise CommandError(
            f"columns {extra!r} are categorical in the data but numeric for the {package} model; leave them "
            "out of --categorical and --dtype.", EXIT_USAGE)


def _same(value, category) -> bool:
    if isinstance(value, str) != isinstance(category, str):
        return False
    try:
        return bool(value == category)
    except Exception:  # noqa: BLE001 - incomparable values differ
        return False


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
    A model without ``classes_`` and ``predict_proba`` or ``decision_function`` (a regressor, an R
    model whose ``predict`` answer has named columns) gets ``TEXT`` as given.
    """
    if text is None or not (hasattr(model, "classes_") and (hasattr(model, "predict_proba")
                                                         or hasattr(model, "decision_function"))):
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
