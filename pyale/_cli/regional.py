"""``pyale run --regional FEATURE``: regional effects of chosen features, written beside the ALE files.

Per feature: ``regional_<feature>.csv`` (the tree: one row per region, its
rule, size, heterogeneity), ``regional_<feature>_curves.csv`` (every leaf's
curve, tidy, exact floats) and ``regional_<feature>.png`` (one panel per
leaf, its rule in the title).  Computed with :func:`pyale.regional` and the
run's model, response, intervals, weights and bootstrap options.
"""

from __future__ import annotations

import os
from pathlib import Path

from .inputs import EXIT_USAGE, CommandError, describe_error

__all__ = ["compute_regional", "write_regional", "regional_line"]


def compute_regional(model, X, args, response, options: dict) -> list:
    """``[(feature, RegionalResult)]`` for every ``--regional`` feature."""
    import pyale

    out = []
    for name in args.regional:
        if name not in X.columns:
            raise CommandError(f"--regional: {name!r} is not a model input column; the columns are "
                               f"{list(map(str, X.columns))!r}.", EXIT_USAGE)
        intervals = args.intervals if isinstance(args.intervals, int) else None
        try:
            result = pyale.regional(model, X, name, response=response, response_method=args.response_method,
                                    n_intervals=intervals, max_depth=args.regional_depth, **options)
        except Exception as exc:  # noqa: BLE001 - reported with the feature it concerns
            if os.environ.get("PYALE_DEBUG"):
                raise
            raise CommandError(f"regional effects of {name!r}: {describe_error(exc)}") from exc
        out.append((name, result))
    return out


def write_regional(out: Path, stem: str, result, exact) -> list[Path]:
    """The tree table, the leaves' curves and the figure of one feature's regions."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from .._plot.display import ALEDisplay

    table_path = out / f"{stem}.csv"
    result.table.reset_index().to_csv(table_path, index=False, float_format=exact)
    curves_path = out / f"{stem}_curves.csv"
    result.to_frame().to_csv(curves_path, index=False, float_format=exact)
    n = len(result.leaves)
    cols = min(n, 3)
    figure = Figure(figsize=(4.2 * cols, 3.6 * -(-n // cols)), layout="constrained")
    FigureCanvasAgg(figure)
    display = ALEDisplay.from_regional(result, ax=figure.add_subplot(), n_cols=cols)
    display.figure_.suptitle(f"Regional ALE of {result.feature} ({len(result.leaves)} regions)", fontsize=10,
                             parse_math=False)
    png_path = out / f"{stem}.png"
    display.figure_.savefig(png_path, dpi=100, bbox_inches="tight")
    return [table_path, curves_path, png_path]


def regional_line(name, result, paths) -> str:
    """The stdout line of one feature's regions."""
    rules = "; ".join(leaf.rule for leaf in result.leaves)
    return (f"regional {name}: {len(result.leaves)} region(s), heterogeneity {result.regions[0].heterogeneity:.4g}"
            f" -> {result.level_heterogeneity().iloc[-1]:.4g} [{rules}] -> {', '.join(p.name for p in paths)}")
