"""``pyale run``: the ALE of chosen features of a saved model on a data file, written to a folder.

Per effect: a tidy CSV (``ale``, ``heterogeneity`` and, with
``--bootstrap``, ``ci_low``/``ci_high``), a statistics CSV (ALED, ALER,
NALED, NALER; with intervals after a bootstrap) and a PNG (the band drawn
when there is one).  For the run: ``summary.md``, ``effects.html`` (one
self-contained page of every effect: pictures inlined, statistics, links
to the CSVs) and ``manifest.json`` (feature names -> files, and every
option that decided the numbers).  All effects are computed in one call of
:func:`pyale.ale` (one pass over the data; the statistics share one model
call on X).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from .inputs import (
    EXIT_OK,
    EXIT_USAGE,
    CommandError,
    _model_inputs,
    _parse_features,
    _read_data,
    _read_model,
    _response,
    check_categories,
    describe_error,
    parse_dtypes,
)
from .output import check_output, staged_output
from .page import PAGE, effect_line, intervals_text, write_page, write_summary
from .regional import compute_regional, regional_line, write_regional

__all__ = ["run_command", "draw_effect"]

class Log:
    """Progress lines on stderr (``pyale: ...``) and results on stdout; ``--quiet`` silences both."""

    def __init__(self, quiet: bool):
        self.quiet = quiet

    def progress(self, message: str) -> None:
        if not self.quiet:
            print(f"pyale: {message}", file=sys.stderr, flush=True)

    def result(self, message: str = "") -> None:
        if not self.quiet:
            print(message, flush=True)


def _exact(value: float) -> str:
    """A float as the shortest text that reads back as the same double (pandas 2 writes fewer digits)."""
    return repr(float(value))


def _bootstrap_options(args, data, X) -> dict:
    """``pyale.ale`` keywords of ``--bootstrap``, ``--ci-level``, ``--random-state`` and ``--weights``."""
    from .._inputs.checks import check_weights

    options = {}
    if args.weights is not None:
        if args.weights not in data.columns:
            raise CommandError(f"--weights: {args.weights!r} is not a column of the data; its columns are "
                               f"{list(map(str, data.columns))!r}.", EXIT_USAGE)
        try:
            options["sample_weight"] = check_weights(data[args.weights], data.shape[0], caller="pyale run",
                                                     param="--weights")
        except (TypeError, ValueError) as exc:
            raise CommandError(f"--weights {args.weights!r}: {exc}", EXIT_USAGE) from exc
    if args.bootstrap:
        if args.random_state is None:  # drawn here and recorded in manifest.json, so the run can be repeated
            import numpy as np

            args.random_state = int(np.random.SeedSequence().generate_state(1)[0])
        options.update(n_bootstrap=args.bootstrap, ci_level=args.ci_level, random_state=args.random_state)
    elif args.ci_level != 0.95 or args.random_state is not None:
        raise CommandError("--ci-level and --random-state apply to a bootstrap: add --bootstrap B.", EXIT_USAGE)
    return options


def _progress_setting(args) -> bool | None:
    if args.quiet:
        return False
    return args.progress  # None (automatic: a bar when stderr is a terminal), True or False


def run_command(args) -> int:
    import pyale

    from .files import effect_stems, feature_label

    log = Log(args.quiet)
    start = time.perf_counter()
    inputs = {"--data": args.data, "--model": args.model}
    check_output(args.out, args.overwrite, inputs)  # before the work; checked again when the files are in
    dtypes = parse_dtypes(args.dtype)
    data = _read_data(args.data, dtypes, args.categorical)
    log.progress(f"read {data.shape[0]} rows x {data.shape[1]} columns from {str(args.data)!r}")
    model = _read_model(args.model, args.r_predict_type)
    log.progress(f"loaded the model {type(model).__name__} from {str(args.model)!r}")
    X = _model_inputs(data, model, args.drop, exclude=(args.weights,) if args.weights else ())
    check_categories(model, X)
    features = _parse_features(args.features, X.columns)
    response = _response(model, args.response)
    options = _bootstrap_options(args, data, X)
    options.update(method=args.method, binning=args.binning)
    names = [feature if isinstance(feature, tuple) else (feature,) for feature in features]
    labels = ", ".join(feature_label(n) for n in names)
    log.progress(f"ALE of {labels} ({args.conventions} conventions"
                 + (f", {args.bootstrap} bootstrap replicates" if args.bootstrap else "") + ")")
    try:
        results = pyale.ale(model, X, features, conventions=args.conventions, n_intervals=args.intervals,
                            response=response, response_method=args.response_method,
                            progress=_progress_setting(args), **options)
        statistics = [result.statistics for result in results]
    except Exception as exc:  # noqa: BLE001 - reported with the features it concerns
        if os.environ.get("PYALE_DEBUG"):
            raise
        raise CommandError(f"ALE of {labels}: {describe_error(exc)}") from exc
    log.progress(f"computed {len(results)} effect(s) in {time.perf_counter() - start:.1f} s")
    regionals = compute_regional(model, X, args, response, options) if args.regional else []

    stems = effect_stems([("ale", n) for n in names] + [("stats", n) for n in names]
                         + [("regional", (name,)) for name, _ in regionals])
    rows, written = [], []
    with staged_output(args.out, args.overwrite, inputs) as out:
        for result, stats, stem, stats_stem in zip(results, statistics, stems, stems[len(names):]):
            paths = _write_effect(out, stem, stats_stem, result, stats, X, args)
            written += paths
            rows.append((result, stats, paths))
        regional_rows = []
        for (name, regional), stem in zip(regionals, stems[2 * len(names):]):
            paths = write_regional(out, stem, regional, _exact)
            written += paths
            regional_rows.append((name, regional, paths))
        written.append(write_summary(out / "summary.md", args, data, X, model, rows, dtypes))
        written.append(write_page(out / PAGE, args, data, X, model, rows, dtypes))
        written.append(_manifest(out, args, rows, response, dtypes, written, regional_rows))
    for result, stats, paths in rows:  # once every file is in place
        log.result(effect_line(result, paths, stats))
        if args.print_tables:
            _print_tables(result, stats)
    for name, regional, paths in regional_rows:
        log.result(regional_line(name, regional, paths))
        if args.print_tables:
            print(f"\n== regions of {name}\n{regional.table}\n", flush=True)
    log.result(f"\nWrote {len(written)} files to {args.out.resolve()}: {written[-3].name}, {written[-2].name}, "
               f"{written[-1].name} and per effect a table, a statistics table and a plot.")
    log.progress(f"done in {time.perf_counter() - start:.1f} s")
    return EXIT_OK


def _effect_title(result, conventions: str) -> str:
    from .files import feature_label

    outputs = list(map(str, result.outputs))
    which = "" if outputs == ["yhat"] else f" for {'output' if len(outputs) == 1 else 'outputs'} {', '.join(outputs)}"
    band = ""
    if result.ci_low is not None:
        band = f", {round(100 * result.ci_level, 6):g}% band of {result.replicates.shape[0]} bootstrap replicates"
    return f"ALE of {feature_label(result.features)}{which} ({result.kind}, {conventions} conventions{band})"


def draw_effect(result, X, title: str):
    """The effect's figure (Agg canvas, no pyplot): every output, the band when bootstrapped, titled.

    A pair of a classifier is one panel per class, each titled with its
    class; ``title`` goes above all panels.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from .._plot.display import ALEDisplay

    figure = Figure(figsize=(6.4, 4.8), layout="constrained")
    FigureCanvasAgg(figure)
    display = ALEDisplay.from_results([result], X=X, ax=figure.add_subplot())
    display.figure_.suptitle(title, fontsize=10, parse_math=False)
    return display.figure_


def _write_effect(out: Path, stem: str, stats_stem: str, result, stats, X, args) -> list[Path]:
    """``<stem>.csv`` (exact floats), ``<stats_stem>.csv`` and ``<stem>.png``."""
    csv_path = out / f"{stem}.csv"
    result.to_frame().to_csv(csv_path, index=False, float_format=_exact)
    stats_path = out / f"{stats_stem}.csv"
    stats.reset_index().to_csv(stats_path, index=False, float_format=_exact)
    png_path = out / f"{stem}.png"
    draw_effect(result, X, _effect_title(result, args.conventions)).savefig(png_path, dpi=100, bbox_inches="tight")
    return [csv_path, stats_path, png_path]


def _print_tables(result, stats) -> None:
    import pandas as pd

    from .files import feature_label

    with pd.option_context("display.max_rows", 60, "display.min_rows", 20, "display.width", 120,
                           "display.max_columns", 20):
        print(f"\n== ALE of {feature_label(result.features)}\n{result.to_frame()}\n\n"
              f"== statistics of {feature_label(result.features)}\n{stats}\n")
    sys.stdout.flush()


def _manifest(out: Path, args, rows, response, dtypes: dict, written: list[Path], regional_rows=()) -> Path:
    from .. import __version__
    from .files import write_manifest

    header = {"pyale": __version__, "command": "run", "data": str(args.data), "model": str(args.model),
              "conventions": args.conventions, "intervals": intervals_text(args), "response": response,
              "response_method": args.response_method, "method": args.method, "binning": args.binning,
              "dtypes": {str(c): str(d) for c, d in dtypes.items()}, "categorical": list(args.categorical or []),
              "weights": args.weights, "bootstrap": args.bootstrap,
              "ci_level": args.ci_level if args.bootstrap else None,
              "random_state": args.random_state, "summary": "summary.md", "page": PAGE,
              "regional_depth": args.regional_depth if args.regional else None,
              "regional": [
                  {"feature": str(name), "regions": len(regional.regions), "leaves": [leaf.rule for leaf in regional.leaves],
                   "table": paths[0].name, "curves": paths[1].name, "plot": paths[2].name}
                  for name, regional, paths in regional_rows]}
    effects = [
        {"features": [str(f) for f in result.features], "kind": result.kind, "outputs": list(result.outputs),
         "grid_points": [len(g) for g in result.grid], "ale_min": float(result.effects.min()),
         "ale_max": float(result.effects.max()), "table": csv_path.name, "statistics": stats_path.name,
         "plot": png_path.name}
        for result, _, (csv_path, stats_path, png_path) in rows
    ]
    return write_manifest(out, header, effects, written)
