"""One report from a model, rows and features: sections computed, provenance recorded, files written."""

from __future__ import annotations

import hashlib
import io
import pickle
import platform
from importlib import metadata
from pathlib import Path

import pandas as pd

from .render import write_package
from .sections import BUILDERS, ReportJob, build_sections

__all__ = ["build_report", "frame_sha256", "model_sha256", "versions"]

_PACKAGES = ("numpy", "pandas", "scipy", "matplotlib", "jinja2")


def versions(pyale_version: str, model=None) -> dict:
    """Python's and the packages' versions (and the model's own package's, when it has one)."""
    out = {"python": platform.python_version(), "pyale": pyale_version}
    names = list(_PACKAGES)
    top = type(model).__module__.split(".")[0] if model is not None else None
    if top and top not in ("builtins", "__main__", "pyale") and top not in names:
        names.append({"sklearn": "scikit-learn"}.get(top, top))
    for name in names:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return out


def frame_sha256(X: pd.DataFrame) -> str:
    """SHA-256 of the rows as exact CSV text (column names, every value written so it reads back the same)."""
    buffer = io.StringIO()
    X.to_csv(buffer, index=False, float_format=lambda v: repr(float(v)), lineterminator="\n")
    return hashlib.sha256(buffer.getvalue().encode("utf-8")).hexdigest()


def model_sha256(model) -> str:
    """SHA-256 of the model's pickle (what a model file would hold); a note when it cannot be pickled."""
    try:
        return hashlib.sha256(pickle.dumps(model, protocol=4)).hexdigest()
    except Exception as exc:  # noqa: BLE001 - lambdas and local functions cannot be pickled
        return f"not available: the model cannot be pickled ({type(exc).__name__})"


def build_report(folder: Path, job: ReportJob, *, title: str, provenance: dict, builders=None) -> list[Path]:
    """Compute every section of ``job`` and write the package into ``folder`` (which must exist)."""
    sections = build_sections(job, BUILDERS if builders is None else builders)
    return write_package(Path(folder), sections, provenance, job.omitted, title)
