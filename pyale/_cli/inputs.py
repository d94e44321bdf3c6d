"""The ``pyale`` command's inputs: data and model files, model input columns, the features asked for.

Every problem becomes a :class:`CommandError` carrying a one-line message
and the exit code to use; nothing here prints.
"""

from __future__ import annotations

import pickle
from pathlib import Path

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
            data = pd.read_csv(path)
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
    """``'a'`` -> ``'a'``; ``'a,b'`` -> ``('a', 'b')`` unless ``'a,b'`` is itself a column."""
    names = [str(c) for c in columns]
    parsed = []
    for entry in entries:
        parts = [entry] if entry in names else [p.strip() for p in entry.split(",")]
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
        parsed.append(parts[0] if len(parts) == 1 else tuple(parts))
    return parsed
