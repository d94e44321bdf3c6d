"""The ``pyale`` command (also ``python -m pyale``).

Subcommands
-----------
demo
    The bundled example end to end (Grunfeld data, an OLS model fitted on the
    spot): prints each effect's table and writes one CSV and one PNG per
    effect.
run
    ALE of chosen features of a saved model on a data file (CSV or Parquet;
    model from pickle, joblib, or R's ``.rds``): tidy CSVs, statistics CSVs,
    PNGs, ``summary.md``, one page of all effects (``effects.html``) and
    ``manifest.json`` mapping each effect's exact feature names to its files
    (see :mod:`pyale._cli.run`, and :mod:`pyale._cli.files` for the file names).
validate
    Runs R's ALEPlot and/or iml and pyale on the same data and model and
    writes a report (Markdown and self-contained HTML: differences per
    effect, overlay plots, versions, SHA-256 of the inputs, the exact calls).

Each writes its files into a new folder beside ``--out`` and moves it into
place only when every file is written; a non-empty ``--out`` is refused
unless ``--overwrite``, which replaces it whole (see :mod:`pyale._cli.output`).

Exit codes: 0 success (validate: every effect matches R); 1 the job failed
(unreadable file, model error, ALE error; validate: some effect differs from
R); 2 the command line is wrong (unknown option, missing file, unknown
column, unsupported format); 3 validate only: R, rpy2 or an R package is
missing.  Errors are
one-line messages on stderr, never tracebacks (set ``PYALE_DEBUG=1`` to see
the traceback of an unexpected error).  Progress goes to stderr (a bar
when stderr is a terminal), results to stdout; ``--quiet`` silences both.

matplotlib is used through its Agg canvas only (no window, no pyplot state).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from pathlib import Path
from typing import Sequence

from .inputs import (  # noqa: F401 - CommandError and the codes are part of this module's API
    EXIT_FAILED,
    EXIT_NO_R,
    EXIT_OK,
    EXIT_USAGE,
    CommandError,
    _model_inputs,
    _parse_features,
    _read_data,
    _read_model,
    _response,
    check_categories,
    parse_dtypes,
)
from .inputs import describe_error as _describe
from .output import check_output, folder_argument, staged_output
from .evidence import add_report_parser
from .._core.conventions import CONVENTIONS

__all__ = ["main", "build_parser"]



def _progress(message: str) -> None:
    print(f"pyale: {message}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------- arguments


def _int_at_least(minimum: int):
    """An argparse type: an integer >= ``minimum``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be an integer >= {minimum}, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be an integer >= {minimum}, got {text!r}")
        return value

    return parse


_positive_int, _non_negative_int = _int_at_least(1), _int_at_least(0)


def _intervals_or_auto(text: str) -> int | str:
    """An argparse type for ``run --intervals``: an integer >= 1, or ``auto`` (pyale.ale's rule)."""
    if text == "auto":
        return text
    try:
        return _positive_int(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"must be an integer >= 1 or 'auto', got {text!r}") from None


def _level(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number between 0 and 1, got {text!r}") from None
    if not 0.0 < value < 1.0:
        raise argparse.ArgumentTypeError(f"must be a number between 0 and 1, got {text!r}")
    return value


def _add_out_options(command, what: str) -> None:
    """``--out`` and ``--overwrite``, the same for every subcommand that writes a folder."""
    command.add_argument("--out", required=True, type=folder_argument, metavar="DIR",
                         help=f"folder for {what}: a new or empty one (created when missing). The files are "
                              "written into a new folder beside it and moved to DIR only when all are "
                              "written: an error or Ctrl-C leaves DIR as it was")
    command.add_argument("--overwrite", action="store_true",
                         help="replace a DIR that is not empty, whole: its earlier contents are deleted once "
                              "the new results are in place (never merged with them); without this option "
                              "such a DIR is refused")


def _add_job_options(command, *, conventions: list[str], default: str, conventions_help: str,
                     auto_intervals: bool = False) -> None:
    """The options ``run`` and ``validate`` share: data, model, features, output and ALE settings.

    ``auto_intervals``: ``--intervals auto`` is accepted (``run``: pyale.ale's
    ``n_intervals="auto"``; ``validate`` compares with R at R's own K).
    """
    command.add_argument("--data", required=True, type=Path, metavar="FILE",
                         help="data: .csv, or .parquet/.pq (needs pyarrow)")
    command.add_argument("--model", required=True, type=Path, metavar="FILE",
                         help="fitted model: .pkl/.pickle, .joblib (needs joblib), or .rds "
                              "(an R model; needs R and rpy2)")
    command.add_argument("--features", required=True, nargs="+", metavar="FEATURE",
                         help="column names; 'a,b' for the second-order effect of a pair (a column "
                              "whose name holds the comma is that column)")
    _add_out_options(command, "the results")
    command.add_argument("--conventions", choices=conventions, default=default, help=conventions_help)
    command.add_argument("--intervals", type=_intervals_or_auto if auto_intervals else _positive_int, metavar="K",
                         help="intervals per numeric feature (default: "
                              + ", ".join(f"{rules.default_intervals} under {name}" for name, rules in CONVENTIONS.items()
                                          if name in conventions) + ")"
                              + ("; 'auto': as many as keep about 20 rows per interval (10 per cell of a "
                                 "pair), at most the default" if auto_intervals else ""))
    command.add_argument("--drop", nargs="+", default=[], metavar="COLUMN",
                         help="data columns that are not model inputs (e.g. the response)")
    command.add_argument("--response", metavar="CLASS",
                         help="for a classifier: the class whose probability to explain, matched to the "
                              "model's classes by type ('1' and '1.0' name the class 1, 'true' the class "
                              "True); for an .rds model with --r-predict-type prob: a column of R's answer")
    command.add_argument("--r-predict-type", metavar="TYPE",
                         help="for an .rds model: R's predict(type = TYPE), e.g. response or prob")
    types = command.add_argument_group(
        "column types",
        "A CSV keeps no dtypes: declare the columns a model learnt as pandas Categoricals (e.g. lightgbm "
        "or xgboost trained on a DataFrame with categories). A lightgbm model's categories are checked "
        "before its first call (it would read an unknown or mistyped value as missing). Parquet keeps its "
        "dtypes; these options convert after reading. The types used are recorded in manifest.json.")
    types.add_argument("--categorical", nargs="+", action="extend", default=[], metavar="COLUMN",
                       help="make these columns pandas Categoricals, their values (as read: numbers stay "
                            "numbers) the categories")
    types.add_argument("--dtype", nargs="+", action="extend", default=[], metavar="COLUMN=TYPE",
                       help="read a column as a pandas dtype (int64, float64, string, bool, Int64, category, "
                            "...), e.g. zip=string keeps 007 as written (COLUMN:TYPE works too; split at the "
                            "last '=' or ':' before a dtype name)")
    command.add_argument("-q", "--quiet", action="store_true",
                         help="print nothing but warnings and errors (no progress, no summary lines)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``pyale`` command."""
    from .. import __version__

    parser = argparse.ArgumentParser(
        prog="pyale",
        description=(
            "Accumulated Local Effects (ALE) with the same numbers as R's ALEPlot 1.1, "
            "iml 0.11.4 and ale 0.5.0."
        ),
        epilog="Exit codes: 0 success, 1 the job failed, 2 bad command line.",
    )
    parser.add_argument("--version", action="version", version=f"pyale {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    demo = commands.add_parser(
        "demo",
        help="run the bundled example (Grunfeld data, OLS model) and write tables and plots",
        description=(
            "Fit 'invest ~ value * capital + C(firm)' by OLS (statsmodels) on the bundled "
            "Grunfeld investment data, then compute with ALEPlot's conventions: the ALE of "
            "'value' (numeric), of 'firm' (categorical), of the pair ('value', 'capital'), "
            "and the partial dependence of 'value'. Prints each table and writes one CSV "
            "and one PNG per effect into OUT."
        ),
    )
    _add_out_options(demo, "the CSV and PNG files")
    demo.set_defaults(handler=_demo_command)

    run = commands.add_parser(
        "run",
        help="ALE of a saved model on a data file",
        description=(
            "Compute the ALE of each FEATURE for a saved model on a data file and write into OUT, per "
            "effect, a tidy CSV (grid, output, ale, heterogeneity; ci_low and ci_high with --bootstrap), a "
            "statistics CSV (ALED, ALER, NALED, NALER; with intervals after a bootstrap) and a PNG (every "
            "model output; the band with --bootstrap), and for the run summary.md, effects.html (one "
            "self-contained page of all effects) and manifest.json (feature names -> files, and the "
            "options used). Columns the model does not use are left out when it names its features "
            "(a scikit-learn model fitted on a DataFrame, a lightgbm or xgboost Booster with feature "
            "names); otherwise give --drop. stdout gets one line per effect (kind, grid, range, files); "
            "--print-tables adds the tables. File names are the feature names made safe, with a short "
            "hash when that changed "
            "a name or two would coincide. Only load model files you trust: unpickling runs code."
        ),
        epilog=(
            "Examples: pyale run --data d.csv --model m.pkl --features age job age,income --out results; "
            "with a 95% band from 200 bootstrap replicates and frequency weights: ... --bootstrap 200 "
            "--random-state 1 --weights w; a lightgbm model trained on a categorical column 'region' from "
            "a CSV: ... --categorical region."
        ),
    )
    _add_job_options(run, conventions=list(CONVENTIONS), default="aleplot",
                     conventions_help="reproduce R's ALEPlot (default), iml's FeatureEffect or the ale "
                                      "package's ALE (ale 0.5.0; no --weights)",
                     auto_intervals=True)
    run.add_argument("--response-method", choices=["auto", "predict_proba", "decision_function", "predict"],
                     default="auto",
                     help="for a classifier, what is explained (scikit-learn's response_method): auto (default) "
                          "takes predict_proba, else decision_function (one score, of the positive class, for "
                          "two classes), else predict (the labels, with a warning)")
    method = run.add_argument_group("local effects")
    method.add_argument("--method", choices=["finite_difference", "gradient"], default="finite_difference",
                        help="finite_difference (default): two predictions per row and feature; gradient: the "
                             "model's derivatives (a torch.nn.Module, or a JAX function; categorical features "
                             "stay finite differences; also for --regional)")
    method.add_argument("--binning", choices=["dp", "agglomerative"],
                        help="heterogeneity-aware intervals of numeric features (RHALE's search; --intervals is "
                             "then the candidate grid); without it the conventions' grid")
    output = run.add_argument_group("output")
    output.add_argument("--print-tables", action="store_true",
                        help="also print every effect's table and statistics on stdout")
    output.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="a progress bar on stderr (rows the model is asked about, per effect, with an "
                             "ETA); by default only when stderr is a terminal and the run takes over 2 s")
    regional = run.add_argument_group(
        "regional effects",
        "Regions of the rows, split on the other columns, where a feature's effect is homogeneous "
        "(pyale.regional: effector's search and criterion); they share --intervals, --response, --weights and "
        "--bootstrap.")
    regional.add_argument("--regional", nargs="+", action="extend", default=[], metavar="FEATURE",
                          help="numeric feature(s) whose regions to find: writes regional_<feature>.csv (the "
                               "tree), regional_<feature>_curves.csv and regional_<feature>.png")
    regional.add_argument("--regional-depth", type=_non_negative_int, default=2, metavar="D",
                          help="at most D splits on a region's path (default 2)")
    uncertainty = run.add_argument_group(
        "uncertainty and weights",
        "Bootstrap bands resample the rows with the model and the grid fixed (no extra model call); they "
        "are the sampling uncertainty of the ALE for this model, not the model's own.")
    uncertainty.add_argument("--bootstrap", type=_non_negative_int, default=0, metavar="B",
                             help="bootstrap replicates (default 0: no band)")
    uncertainty.add_argument("--ci-level", type=_level, default=0.95, metavar="L",
                             help="coverage of the percentile band (default 0.95)")
    uncertainty.add_argument("--random-state", type=_non_negative_int, metavar="N",
                             help="seed of the replicates (the same seed gives the same band; without it a seed is drawn and written to manifest.json)")
    uncertainty.add_argument("--weights", metavar="COLUMN",
                             help="a data column of frequency weights (non-negative; integer weights equal "
                                  "repeated rows); it is not a model input")
    run.set_defaults(handler=_run_command)

    validate = commands.add_parser(
        "validate",
        help="run R (ALEPlot, iml) and pyale on the same data and model and report the differences",
        description=(
            "For each FEATURE, compute the ALE with R's ALEPlot::ALEPlot and/or iml's FeatureEffect "
            "(through rpy2) and with pyale, on the same data and the same model (an .rds model is "
            "evaluated by R's predict on both sides; a Python model is called back from R), and "
            "write report.md, a self-contained report.html, manifest.json, and one CSV and one overlay "
            "PNG per effect into OUT. Exit code 0 when every effect matches R (rtol 1e-10), 1 when one "
            "differs, 3 when R, rpy2 or an R package is missing. String columns are made factors "
            "with R's sorted levels on both sides."
        ),
    )
    _add_job_options(validate, conventions=["aleplot", "iml", "both", "ale"], default="both",
                     conventions_help="compare with ALEPlot, iml, both (default), or R's ale package "
                                      "(--intervals is then max_num_bins - 1)")
    validate.set_defaults(handler=_validate_command)

    add_report_parser(commands, _add_out_options, _non_negative_int, _level)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``pyale`` command; returns the exit code."""
    parser = build_parser()
    try:
        args, extra = parser.parse_known_args(None if argv is None else [str(a) for a in argv])
        if extra:
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
    except SystemExit as exc:  # --help, --version, or a usage error already printed
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    with warnings.catch_warnings():
        warnings.showwarning = _show_warning
        try:
            return args.handler(args)
        except CommandError as exc:
            _error(args.command, str(exc))
            return exc.code
        except KeyboardInterrupt:
            _error(args.command, "interrupted")
            return 130
        except BrokenPipeError:  # e.g. `pyale demo --out d | head`: stop quietly
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            return EXIT_FAILED
        except Exception as exc:  # noqa: BLE001 - a one-line message instead of a traceback
            if os.environ.get("PYALE_DEBUG"):
                raise
            _error(args.command, _describe(exc))
            return EXIT_FAILED


def _error(command: str, message: str) -> None:
    print(f"pyale {command}: error: {message}", file=sys.stderr, flush=True)


def _show_warning(message, category, filename, lineno, file=None, line=None):
    print(f"pyale: warning: {message}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------- output


def _new_axes():
    """A figure with one axes on matplotlib's Agg canvas (no pyplot, no window)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(6.4, 4.8))
    FigureCanvasAgg(figure)
    return figure.add_subplot()


def _exact(value: float) -> str:
    """A float as the shortest text that reads back as the same double (pandas 2 writes fewer digits)."""
    return repr(float(value))


def _write(out: Path, stem: str, frame, draw, title: str) -> list[Path]:
    """Write ``stem.csv`` (exact floats) and ``stem.png`` drawn by ``draw(ax)``."""
    import matplotlib

    csv_path = out / f"{stem}.csv"
    frame.to_csv(csv_path, index=False, float_format=_exact)
    png_path = out / f"{stem}.png"
    with matplotlib.rc_context({"text.parse_math": False}):  # names and levels drawn as written, '$' too
        ax = _new_axes()
        draw(ax)
        ax.set_title(title, fontsize=10)
        ax.figure.savefig(png_path, dpi=100, bbox_inches="tight")
    return [csv_path, png_path]


def _print_table(title: str, frame) -> None:
    import pandas as pd

    print(f"\n== {title}")
    with pd.option_context("display.max_rows", 60, "display.min_rows", 20, "display.width", 120,
                           "display.max_columns", 20):
        print(frame)
    sys.stdout.flush()


def _report_files(out: Path, paths: list[Path]) -> None:
    print(f"\nWrote {len(paths)} files to {out.resolve()}:")
    for path in paths:
        print(f"  {path}")


# ---------------------------------------------------------------- demo


def _demo_command(args) -> int:
    check_output(args.out, args.overwrite)
    from . import demo as _demo

    start = time.perf_counter()
    data = _demo.load_grunfeld()
    _progress(f"loaded the bundled Grunfeld data ({data.shape[0]} rows, columns {list(data.columns)})")
    try:
        model = _demo.fit_model(data)
    except ImportError as exc:
        raise CommandError(str(exc), EXIT_FAILED) from exc
    _progress(f"fitted OLS {_demo.FORMULA!r} (R-squared {model.rsquared:.3f})")
    X = data[_demo.FEATURES]
    written: list[Path] = []
    with staged_output(args.out, args.overwrite) as folder:
        for effect in _demo.demo_effects():
            _progress(f"computing: {effect.title}")
            result = effect.compute(X, model)
            frame = result.to_frame()
            _print_table(effect.title, frame)
            written += _write(folder, effect.stem, frame, lambda ax: result.plot(ax=ax), effect.title)
    _report_files(args.out, [args.out / path.name for path in written])
    _progress(f"done in {time.perf_counter() - start:.1f} s")
    return EXIT_OK


# ---------------------------------------------------------------- run


def _run_command(args) -> int:
    from .run import run_command

    return run_command(args)


# ---------------------------------------------------------------- validate


def _validate_command(args) -> int:
    from . import report as _report
    from . import validate as _validate

    start = time.perf_counter()
    conventions = ["aleplot", "iml"] if args.conventions == "both" else [args.conventions]
    problem = _validate.r_problem(conventions)
    if problem:
        raise CommandError(f"cannot run R here: {problem}", EXIT_NO_R)
    inputs = {"--data": args.data, "--model": args.model}
    check_output(args.out, args.overwrite, inputs)  # before the work; checked again when the files are in
    log = _progress if not args.quiet else (lambda message: None)
    data = _read_data(args.data, parse_dtypes(args.dtype), args.categorical)
    log(f"read {data.shape[0]} rows x {data.shape[1]} columns from {str(args.data)!r}")
    model = _read_model(args.model, args.r_predict_type)
    log(f"loaded the model {type(model).__name__} from {str(args.model)!r}")
    X = _validate.as_r_factors(_model_inputs(data, model, args.drop))
    check_categories(model, X)
    features = _parse_features(args.features, X.columns)
    response = _response(model, args.response)
    try:
        # Every call of the model goes through a ModelCaller: a frame of its own, answers read by
        # label, one finite number per row (pyale._core.map.calls), for R's call-backs as for pyale's side.
        checked = _validate.checked_model(model, response)
        r_model = model if _validate.is_r_model(model) else None
        side = _validate.RSide(X, _validate.r_callback(checked), r_model, response,
                               str(args.model))  # loads predict's package
        probe = checked(X.iloc[:2], "a two-row probe of the model")
    except Exception as exc:  # noqa: BLE001 - the model's own error text
        raise CommandError(f"the model cannot predict on the data's columns {list(X.columns)!r}: "
                           f"{_describe(exc)}") from exc
    if probe.shape[1] != 1:
        raise CommandError(
            f"the model has {probe.shape[1]} outputs (e.g. class probabilities); ALEPlot explains "
            "one: choose it with --response.", EXIT_USAGE)
    predict = _validate.pyale_side(checked)
    if "iml" in conventions:
        renamed = _validate.unsyntactic_names(list(X.columns))
        if renamed:
            raise CommandError(
                f"iml 0.11.4 fails on data whose column names are not syntactic R names, whichever feature "
                f"is asked for (R's make.names changes them: {renamed!r}, and the model then gets no "
                "columns). Rename those columns, or compare with ALEPlot only: --conventions aleplot.",
                EXIT_USAGE)
    from .files import effect_stems, feature_label

    comparisons, files = [], []
    jobs = [(c, f) for f in features for c in conventions]
    stems = effect_stems([(c, f if isinstance(f, tuple) else (f,)) for c, f in jobs], joiner="_x_")
    with staged_output(args.out, args.overwrite, inputs) as folder:
        for number, ((conv, feature), stem) in enumerate(zip(jobs, stems), start=1):
            label = feature_label(feature if isinstance(feature, tuple) else (feature,))
            log(f"[{number}/{len(jobs)}] {conv}: {label} in R and in pyale")
            K = args.intervals or _validate.DEFAULT_INTERVALS[conv]
            compare = _validate.COMPARE[conv]
            try:
                comparison = compare(side, predict, feature, K)
            except Exception as exc:  # noqa: BLE001 - R's or pyale's message, with the effect it concerns
                if os.environ.get("PYALE_DEBUG"):
                    raise
                raise CommandError(f"{conv} ALE of {label}: {_describe(exc)}") from exc
            comparisons.append(comparison)
            files.append(_report.write_effect_files(folder, comparison, stem))
            verdict = "matches R" if comparison.ok else "DIFFERS from R"
            log(f"[{number}/{len(jobs)}] {verdict} (max |diff| {comparison.max_abs:.3g})")
        context = _validate.report_context(args, data, model, X, features, conventions, side, response=response)
        reports = _report.write_reports(folder, context, comparisons, files)
        manifest = _report.write_validate_manifest(folder, args, response, comparisons, files, reports)
    matched = sum(c.ok for c in comparisons)
    if not args.quiet:
        print(f"{matched} of {len(comparisons)} effects match R (rtol 1e-10).")
        if "ale" in conventions:
            print("  ale: compared released ale's numbers, bugs included (pyale.ALE(..., replicate_r_bugs=True)); "
                  "pyale's default corrects ale's numeric binary features (docs/deviations.md, ale case 2).")
        replicated = [c.label for c in comparisons if c.conventions == "iml" and "replicate_r_bugs=True" in c.py_call]
        if replicated:
            print(f"  iml: compared iml's numbers, bug included, for {', '.join(replicated)} (unused categories: "
                  "pyale.FeatureEffect(..., replicate_r_bugs=True)); pyale's default centres each level by its own "
                  "share (docs/deviations.md).")
        for comparison in comparisons:
            state = "match" if comparison.ok else "DIFFER " + "; ".join(comparison.problems)
            print(f"  {comparison.conventions:8s} {comparison.label:30s} max |diff| {comparison.max_abs:.3g}  {state}")
        written = [p for pair in files for p in pair] + [*reports, manifest]
        _report_files(args.out, [args.out / path.name for path in written])
    log(f"done in {time.perf_counter() - start:.1f} s")
    return EXIT_OK if matched == len(comparisons) else EXIT_FAILED
