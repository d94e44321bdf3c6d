"""``pyale report`` and :func:`pyale.report`: a fileable evidence package from data, a model and features.

The folder holds ``report.html`` (one self-contained page: figures as
embedded SVG), ``report.pdf`` (vector figures, tables, page numbers,
contents), one CSV per table and ``numbers.json`` (every number at full
precision), an SVG per figure and ``manifest.json`` (every file's SHA-256).
It is written through :func:`pyale._cli.output.staged_output`: into a new
folder that replaces ``out`` only once every file is in place.
"""

from __future__ import annotations

import hashlib
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

from .._report.build import build_report, frame_sha256, versions
from .._report.build import model_sha256 as _model_digest
from .._report.sections import ReportJob
from .._verdicts.compare import comparable_conventions
from .inputs import EXIT_OK, EXIT_USAGE, CommandError, _model_inputs, _read_data, _read_model
from .output import staged_output

__all__ = ["report", "Report", "report_command", "SHAPES", "parse_expect"]

#: The expectations ``--expect FEATURE:SHAPE`` accepts.
SHAPES = ("increasing", "decreasing", "non-increasing", "non-decreasing", "positive", "negative")


@dataclass(frozen=True)
class Report:
    """What :func:`pyale.report` wrote.

    Attributes
    ----------
    folder : pathlib.Path
        The evidence folder.
    files : tuple of pathlib.Path
        Every file in it (``manifest.json`` last).

    Examples
    --------
    See :func:`pyale.report`.
    """

    folder: Path
    files: tuple

    @property
    def html(self) -> Path:
        """The self-contained HTML page."""
        return self.folder / "report.html"

    @property
    def pdf(self) -> Path:
        """The PDF."""
        return self.folder / "report.pdf"


def parse_expect(entries) -> dict:
    """``["income:increasing", ...]`` (or a mapping) -> ``{"income": "increasing"}``, each shape checked."""
    if entries is None:
        return {}
    if isinstance(entries, dict):
        pairs = list(entries.items())
    else:
        pairs = []
        for entry in entries:
            name, sep, shape = str(entry).rpartition(":")
            if not sep or not name:
                raise ValueError(f"An expectation must be FEATURE:SHAPE (e.g. income:increasing). Got {entry!r}.")
            pairs.append((name, shape))
    for name, shape in pairs:
        if not callable(shape) and shape not in SHAPES:
            raise ValueError(f"The expectation of {name!r} must be one of {', '.join(SHAPES)} (or a function). "
                             f"Got {shape!r} instead.")
    return dict(pairs)


def _verdicts() -> dict:
    """pyale's public verdict functions that this version has (the report's pluggable sections)."""
    import pyale

    names = ("check_shape", "materiality", "reason_codes", "ALEpDist")
    return {name: getattr(pyale, name) for name in names if getattr(pyale, name, None) is not None}


def _call_text(features, options: dict) -> str:
    shown = ", ".join(f"{k}={v!r}" for k, v in options.items() if v is not None)
    return f"pyale.report(model, X, {list(features)!r}, {shown})"


def report(
    model: object,
    X,
    features: Sequence,
    *,
    out,
    y=None,
    expect=None,
    segments=None,
    periods=None,
    n_bootstrap: int = 200,
    n_permutations: int = 999,
    p_values: bool = False,
    conventions: str = "aleplot",
    n_intervals=None,
    sample_weight=None,
    response=None,
    response_method: str = "auto",
    ci_level: float = 0.95,
    random_state: int = 0,
    title: str | None = None,
    overwrite: bool = False,
    command: str | None = None,
    data_name: str | None = None,
    data_sha256: str | None = None,
    model_name: str | None = None,
    model_sha256: str | None = None,
) -> Report:
    """Write a fileable evidence package (HTML, PDF, CSV, JSON) about a model's effects.

    Parameters
    ----------
    model : object
        A fitted model, as for :func:`pyale.ale`.
    X : pandas.DataFrame
        The rows (model inputs, plus any segment or period column).
    features : list of column labels
        The features to report on.
    out : str or pathlib.Path
        The folder to write: a new or empty one (``overwrite=True`` replaces
        a non-empty one whole).
    y : array-like or column name, optional
        The observed response, for the NALED scaling; the model's predictions
        otherwise, and also when ``y`` takes only two values (a 0/1 outcome
        has no half-percentiles between its values).
    expect : mapping or list of "FEATURE:SHAPE", optional
        Expected shapes (increasing, decreasing, non-increasing,
        non-decreasing, positive, negative), checked by
        ``pyale.check_shape`` when this version of pyale has it.
    segments, periods : column label or array-like, optional
        Compare every feature's effect across segments and across periods
        (:func:`pyale.compare`).
    n_bootstrap : int, default 200
        Data bootstrap replicates for the bands.
    n_permutations : int, default 999
        Permutations of the segment (period) labels for the p-values.
    p_values : bool, default False
        Add the p-values of the ALE statistics: R's ``ale`` 0.5 numbers from
        ``pyale.ALEpDist(model, data, surrogate=True, seed=random_state)``
        and ``pyale.ALE(..., p_values=dist)`` (needs ``y``; a surrogate GLM
        refitted 100 times with a random variable, since the report has no
        recipe to refit the model itself; see the validation guide).
    conventions, n_intervals, sample_weight, response, response_method, ci_level : optional
        As for :func:`pyale.ale`.
    random_state : int, default 0
        Seed of every bootstrap and permutation: the same call gives the same numbers.
    title : str, optional
    overwrite : bool, default False
    command : str, optional
        The command that reproduces the report (written on every page); by
        default the Python call with its options.
    data_name, data_sha256, model_name, model_sha256 : str, optional
        The data and model files (``pyale report`` passes them); by default
        the SHA-256 of X written as exact CSV and of the model's pickle.

    Returns
    -------
    Report
        The folder and its files.

    Notes
    -----
    Sections: the effect of every feature (curve, band, ALE statistics);
    shape checks, materiality and reason codes where pyale offers them;
    stability across segments and periods; "Not included" names every
    section left out and why.  Each section states what was computed and
    how; every page of the PDF carries the command, the SHA-256 of data and
    model and the package versions.  The CSV and JSON files of two runs of
    the same call are identical.

    Examples
    --------
    >>> import tempfile, pathlib, pyale
    >>> from pyale._report.example import CreditScorecard, load_credit
    >>> X = load_credit().drop(columns=["default"]).iloc[:300]
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "evidence"
    >>> written = pyale.report(CreditScorecard(), X, ["debt_to_income"], out=out, n_bootstrap=0,
    ...                        n_intervals=5)
    >>> sorted(p.name for p in written.files if p.suffix in (".html", ".pdf"))
    ['report.html', 'report.pdf']
    """
    out = Path(out)
    expect = parse_expect(expect)
    features = list(features) if not isinstance(features, str) else [features]
    unknown = [name for name in expect if name not in features]
    if unknown:
        raise ValueError(f"The 'expect' parameter of report names {unknown[0]!r}, which is not one of the features "
                         f"reported on ({features!r}). Add it to the features or drop its expectation.")
    response, response_text = _binary_response(model, response, response_method)
    observed = y
    if y is not None and not isinstance(y, str) and np.unique(np.asarray(y)).shape[0] <= 2:
        y = None  # a 0/1 response: its half-percentiles are degenerate, so NALED scales by the predictions
    job = ReportJob(model=model, X=X, features=features, y=y, observed=observed, sample_weight=sample_weight, expect=expect,
                    segments=segments, periods=periods, n_bootstrap=n_bootstrap, n_permutations=n_permutations,
                    p_values=p_values, conventions=conventions, n_intervals=n_intervals, ci_level=ci_level,
                    random_state=random_state, response=response, response_method=response_method,
                    verdicts=_verdicts(),
                    units=f"probability of class {response!r}" if response_text.startswith("probability of class")
                    else "units of the prediction")
    if command is None:
        command = _call_text(features, {"expect": expect or None, "segments": _label(segments),
                                        "periods": _label(periods), "n_bootstrap": n_bootstrap,
                                        "n_permutations": n_permutations, "conventions": conventions,
                                        "random_state": random_state})
    provenance = {
        "command": command,
        "data": data_name or f"a DataFrame of {X.shape[0]} rows and {X.shape[1]} columns",
        "data_sha256": data_sha256 or frame_sha256(X),
        "model": model_name or f"{type(model).__module__}.{type(model).__qualname__}",
        "model_sha256": model_sha256 or _model_digest(model),
        "response": response_text,
        "features": [str(f) for f in features],
        "conventions": f"{conventions} conventions, "
                       + ("default intervals" if n_intervals is None else f"n_intervals={n_intervals}"),
        "bootstrap": (f"data bootstrap, {n_bootstrap} replicates (rows resampled, model and grid fixed), "
                      f"{ci_level:.0%} bands; {n_permutations} label permutations") if n_bootstrap else "none",
        "random_state": random_state,
        "versions": versions(_pyale_version(), model),
    }
    title = title or "ALE evidence: " + ", ".join(map(str, features))
    try:
        with staged_output(out, overwrite) as folder:
            files = build_report(folder, job, title=title, provenance=provenance)
    except CommandError as exc:
        raise ValueError(f"The 'out' parameter of report: {exc}".replace("--overwrite", "overwrite=True")
                         .replace("--out", "out")) from exc
    target = out.resolve()
    return Report(folder=target, files=tuple(target / f.name for f in files))


def _binary_response(model, response, response_method: str):
    """A binary classifier explained through its positive class only, and the provenance's words for it.

    Its two probabilities are mirror images (``p`` and ``1 - p``): every
    table would show each number twice with opposite signs, and shape
    expectations, materiality and p-values would be ambiguous.  So unless
    ``response`` is given, the report explains the probability of the last
    of ``classes_`` (scikit-learn's positive class).
    """
    classes = getattr(model, "classes_", None)
    if response is None and response_method in ("auto", "predict_proba") and classes is not None \
            and len(classes) == 2 and hasattr(model, "predict_proba"):
        positive = classes[-1]
        positive = positive.item() if isinstance(positive, np.generic) else positive
        return positive, (f"probability of class {positive!r} (the positive class, the last of the classifier's "
                          "classes_; the other class's probability is one minus it)")
    if response is not None:
        return response, f"response {response!r} ({response_method})"
    return None, f"the model's output ({response_method})"


def _pyale_version() -> str:
    import pyale

    return pyale.__version__


def _label(value):
    if value is None or isinstance(value, str):
        return value
    return "<labels>"


def _file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with Path(path).open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def add_report_parser(commands, add_out_options, non_negative_int, level) -> None:
    """The ``report`` subcommand's options."""
    command = commands.add_parser(
        "report",
        help="a fileable evidence package (HTML, PDF, CSV, JSON) about a model's effects",
        description=(
            "Compute the ALE of each FEATURE with bootstrap bands and statistics, shape checks (--expect), "
            "stability across segments (--segments) and periods (--periods), and write a self-contained "
            "report.html, report.pdf (contents, page numbers, vector figures), a CSV per table, "
            "numbers.json and manifest.json (SHA-256 of every file) into OUT. Every page states what was "
            "computed and how, the data's and model's SHA-256, the package versions and this command; "
            "running it again gives the same numbers. --example credit reports on the bundled synthetic "
            "credit data and scorecard. Only load model files you trust: unpickling runs code."
        ),
    )
    command.add_argument("--data", type=Path, metavar="FILE", help="data: .csv or .parquet")
    command.add_argument("--model", type=Path, metavar="FILE", help="fitted model: .pkl, .joblib or .rds")
    command.add_argument("--example", choices=["credit"], help="the bundled example instead of --data/--model")
    command.add_argument("--features", nargs="+", metavar="FEATURE", help="columns to report on")
    command.add_argument("--y", metavar="COLUMN", help="the observed response (left out of the model's inputs)")
    command.add_argument("--drop", nargs="*", default=[], metavar="COLUMN",
                         help="columns that are not model inputs (for a model that does not name its inputs)")
    command.add_argument("--expect", nargs="*", default=[], metavar="FEATURE:SHAPE",
                         help=f"expected shapes: {', '.join(SHAPES)}")
    command.add_argument("--segments", metavar="COLUMN", help="compare each effect across this column's segments")
    command.add_argument("--periods", metavar="COLUMN", help="compare each effect across this column's periods")
    command.add_argument("--bootstrap", type=non_negative_int, default=200, metavar="B",
                         help="bootstrap replicates (default 200)")
    command.add_argument("--permutations", type=non_negative_int, default=999, metavar="P",
                         help="label permutations of the stability tests (default 999)")
    command.add_argument("--p-values", action="store_true",
                         help="p-values of the ALE statistics (needs --y): R's ale surrogate ALEpDist, 100 refits of a "
                              "GLM with a random variable, seeded by --random-state")
    command.add_argument("--conventions", choices=comparable_conventions(), default="aleplot")
    command.add_argument("--intervals", type=non_negative_int, metavar="K", help="intervals per numeric feature")
    command.add_argument("--weights", metavar="COLUMN", help="a column of frequency weights")
    command.add_argument("--ci-level", type=level, default=0.95, metavar="L")
    command.add_argument("--random-state", type=non_negative_int, default=0, metavar="N",
                         help="seed of the bootstrap and permutations (default 0)")
    command.add_argument("--title", help="the report's title")
    add_out_options(command, "the evidence package")
    command.set_defaults(handler=report_command)


def _example_inputs(args):
    from .._report.example import EXAMPLE, CreditScorecard, load_credit

    data = load_credit()
    args.features = args.features or EXAMPLE["features"]
    args.expect = args.expect or [f"{k}:{v}" for k, v in EXAMPLE["expect"].items() if k in args.features]
    args.segments = args.segments or EXAMPLE["segments"]
    args.periods = args.periods or EXAMPLE["periods"]
    args.y = args.y or EXAMPLE["response"]
    model = CreditScorecard()
    return data, model, "bundled example: pyale/data/credit.csv (synthetic)", \
        "bundled example: pyale._report.example.CreditScorecard"


def report_command(args) -> int:
    """Run ``pyale report``."""
    if args.example:
        if args.data or args.model:
            raise CommandError("--example replaces --data and --model: give one or the other.", EXIT_USAGE)
        data, model, data_name, model_name = _example_inputs(args)
        data_sha, model_sha = frame_sha256(data), _model_digest(model)
    else:
        if not args.data or not args.model or not args.features:
            raise CommandError("--data, --model and --features are required (or --example credit).", EXIT_USAGE)
        data = _read_data(args.data, {}, [])
        model = _read_model(args.model, None)
        data_name, model_name = str(args.data), str(args.model)
        data_sha, model_sha = _file_sha256(args.data), _file_sha256(args.model)
    for option, column in (("--y", args.y), ("--segments", args.segments), ("--periods", args.periods),
                           ("--weights", args.weights)):
        if column is not None and column not in data.columns:
            raise CommandError(f"{option}: {column!r} is not a column of the data; its columns are "
                               f"{list(map(str, data.columns))!r}.", EXIT_USAGE)
    exclude = tuple(c for c in (args.y, args.weights) if c)
    X = _model_inputs(data, model, list(args.drop), exclude=exclude)
    unknown = [f for f in args.features if f not in X.columns]
    if unknown:
        raise CommandError(f"--features: {unknown!r} are not model inputs; they are {list(map(str, X.columns))!r}.",
                           EXIT_USAGE)
    try:
        expect = parse_expect(args.expect)
    except ValueError as exc:
        raise CommandError(f"--expect: {exc}", EXIT_USAGE) from exc

    def labels(column):
        if column is None:
            return None
        return column if column in X.columns else data[column].to_numpy()

    command = _command_text(args)  # every option that decides the numbers, defaults included
    try:
        written = report(model, X, args.features, out=args.out, overwrite=args.overwrite,
                         y=None if args.y is None else data[args.y].to_numpy(), expect=expect,
                         segments=labels(args.segments), periods=labels(args.periods), n_bootstrap=args.bootstrap,
                         n_permutations=args.permutations, p_values=args.p_values, conventions=args.conventions,
                         n_intervals=args.intervals,
                         sample_weight=None if args.weights is None else data[args.weights].to_numpy(dtype=float),
                         ci_level=args.ci_level, random_state=args.random_state, title=args.title, command=command,
                         data_name=data_name, data_sha256=data_sha, model_name=model_name, model_sha256=model_sha)
    except ValueError as exc:
        raise CommandError(str(exc)) from exc
    print(f"Wrote {len(written.files)} files to {written.folder}: report.html, report.pdf, numbers.json, "
          "manifest.json and a CSV per table.")
    return EXIT_OK


def _command_text(args) -> str:
    """The ``pyale report`` command line of ``args`` (when not run from a shell)."""
    parts = ["pyale", "report"]
    if args.example:
        parts += ["--example", args.example]
    else:
        parts += ["--data", str(args.data), "--model", str(args.model)]
    parts += ["--features", *map(str, args.features)]
    for option, value in (("--y", args.y), ("--segments", args.segments), ("--periods", args.periods),
                          ("--weights", args.weights), ("--intervals", args.intervals), ("--title", args.title)):
        if value is not None:
            parts += [option, str(value)]
    if args.expect:
        parts += ["--expect", *args.expect]
    parts += ["--bootstrap", str(args.bootstrap), "--permutations", str(args.permutations),
              "--conventions", args.conventions, "--ci-level", str(args.ci_level),
              "--random-state", str(args.random_state)]
    if args.p_values:
        parts.append("--p-values")
    parts += ["--out", str(args.out)]
    return shlex.join(parts)
