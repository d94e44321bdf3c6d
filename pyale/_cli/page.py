"""What ``pyale run`` writes about the whole run: ``summary.md`` and the page ``effects.html``.

The page is self-contained (the PNGs are inlined, nothing is fetched) and
links the CSVs beside it by relative names, so the output folder can be
moved or archived whole.
"""

from __future__ import annotations

import base64
import html
from pathlib import Path

from .._core.conventions import CONVENTIONS

__all__ = ["PAGE", "effect_line", "grid_text", "intervals_text", "write_summary", "write_page"]

PAGE = "effects.html"

_STYLE = ("body{font-family:sans-serif;max-width:1100px;margin:2em auto}table{border-collapse:collapse}"
          "td,th{border:1px solid #999;padding:3px 6px;font-size:90%;text-align:right}"
          "th:first-child,td:first-child{text-align:left}img{max-width:100%}code{background:#f4f4f4}")


def _range(values) -> str:
    import numpy as np

    array = np.asarray(values, dtype=float)
    return f"[{np.nanmin(array):.6g}, {np.nanmax(array):.6g}]"


def grid_text(result) -> str:
    """``41 grid points over [0, 1]``, ``11 levels``, ``11 levels x 21 grid points over [0, 1]``."""
    parts = []
    for values, numeric in zip(result.grid, result.numeric_axes):
        parts.append(f"{len(values)} grid points over {_range(values)}" if numeric else f"{len(values)} levels")
    return " x ".join(parts)


def effect_line(result, paths: list[Path], stats=None) -> str:
    """One line about an effect: kind, grid, ALE range (per output when several), band width, ALED, files."""
    import numpy as np

    from .files import feature_label

    outputs = "" if list(result.outputs) == ["yhat"] else f" ({', '.join(map(str, result.outputs))})"
    extra = ""
    if result.ci_low is not None:
        width = float(np.nanmax(np.asarray(result.ci_high) - np.asarray(result.ci_low)))
        extra += f", {round(100 * result.ci_level, 6):g}% band up to {width:.6g} wide"
    if stats is not None and len(result.outputs) == 1:
        extra += f", ALED {float(stats.loc['aled', 'estimate']):.6g}"
    return (f"ALE of {feature_label(result.features)}: {result.kind}, {grid_text(result)}, "
            f"ALE {_range(result.effects)}{outputs}{extra} -> {', '.join(p.name for p in paths)}")


def intervals_text(args) -> str:
    if args.intervals == "auto":
        return "auto (about 20 rows per interval, 10 per cell of a pair; each effect's grid says how many)"
    if args.intervals is not None:
        return str(args.intervals)
    return f"{CONVENTIONS[args.conventions].default_intervals} (default)"


def _facts(args, data, X, model, dtypes: dict) -> dict:
    """The run's inputs and options, label -> text (shared by the summary and the page)."""
    from .. import __version__

    facts = {
        "pyale": __version__,
        "data": f"{args.data} ({data.shape[0]} rows; model inputs {', '.join(map(str, X.columns))})",
        "model": f"{args.model} ({type(model).__module__}.{type(model).__name__})",
        "conventions": f"{args.conventions}; intervals per numeric feature: {intervals_text(args)}",
    }
    if dtypes or args.categorical:
        read = [f"{c}: {d}" for c, d in dtypes.items()] + [f"{c}: category" for c in args.categorical or []
                                                           if c not in dtypes]
        facts["column types given"] = ", ".join(read)
    facts["weights"] = f"column {args.weights}" if args.weights else "none (every row counts once)"
    if args.bootstrap:
        seed = "" if args.random_state is None else f", random state {args.random_state}"
        facts["bootstrap"] = (f"{args.bootstrap} replicates: rows resampled with the model and the grid fixed, "
                              f"{round(100 * args.ci_level, 6):g}% percentile intervals{seed}")
    else:
        facts["bootstrap"] = "none (no intervals)"
    facts["statistics"] = ("ALED, ALER, NALED, NALER (Okoli 2023) on the centred effects; NALED and NALER "
                           "normalise by the distribution of the model's predictions on the data")
    return facts


def _number(value) -> str:
    return f"{float(value):.6g}"


def _statistics_rows(stats) -> tuple[list[str], list[list[str]]]:
    frame = stats.reset_index()
    header = [str(c) for c in frame.columns]
    rows = []
    for record in frame.itertuples(index=False):
        rows.append([_number(v) if isinstance(v, float) else str(v) for v in record])
    return header, rows


def write_summary(path: Path, args, data, X, model, rows, dtypes: dict) -> Path:
    """``summary.md``: the inputs, one line per effect with its files, and each effect's statistics."""
    from .files import markdown_label

    lines = ["# pyale run", ""]
    lines += [f"- {key}: {value}" for key, value in _facts(args, data, X, model, dtypes).items()]
    lines += [f"- every effect on one page: [{PAGE}]({PAGE}); `manifest.json` lists each effect's exact "
              "feature names and files", "",
              "| feature | kind | outputs | grid | ALE min | ALE max | table | statistics | plot |",
              "|---|---|---|---|---|---|---|---|---|"]
    for result, _, (csv_path, stats_path, png_path) in rows:
        outputs = ", ".join(map(str, result.outputs)).replace("|", "\\|")
        lines.append(
            f"| {markdown_label(result.features)} | {result.kind} | {outputs} | {grid_text(result)} | "
            f"{result.effects.min():.6g} | {result.effects.max():.6g} | [{csv_path.name}]({csv_path.name}) | "
            f"[{stats_path.name}]({stats_path.name}) | ![{png_path.name}]({png_path.name}) |"
        )
    lines += ["", "## Statistics", ""]
    for result, stats, _ in rows:
        header, body = _statistics_rows(stats)
        lines += [f"### {markdown_label(result.features)}", "", "| " + " | ".join(header) + " |",
                  "|" + "---|" * len(header)]
        lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in body]
        lines.append("")
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def write_page(path: Path, args, data, X, model, rows, dtypes: dict) -> Path:
    """``effects.html``: every effect's picture (inlined), summary and statistics on one page."""
    from .files import feature_label

    def esc(text) -> str:
        return html.escape(str(text))

    parts = ["<!DOCTYPE html><html><head><meta charset='utf-8'><title>pyale run</title>",
             f"<style>{_STYLE}</style></head><body><h1>pyale run: {len(rows)} effect(s)</h1><ul>"]
    parts += [f"<li>{esc(k)}: {esc(v)}</li>" for k, v in _facts(args, data, X, model, dtypes).items()]
    parts.append("</ul><h2>Contents</h2><ol>")
    parts += [f"<li><a href='#effect-{i}'>{esc(feature_label(result.features))}</a></li>"
              for i, (result, _, _) in enumerate(rows, start=1)]
    parts.append("</ol>")
    for i, (result, stats, (csv_path, stats_path, png_path)) in enumerate(rows, start=1):
        image = base64.b64encode(png_path.read_bytes()).decode("ascii")
        header, body = _statistics_rows(stats)
        parts += [f"<h2 id='effect-{i}'>ALE of {esc(feature_label(result.features))}</h2>",
                  f"<p>{esc(effect_line(result, [csv_path, stats_path, png_path], stats).split(' -> ')[0])}</p>",
                  f"<img alt='{esc(png_path.name)}' src='data:image/png;base64,{image}'>",
                  "<table><tr>" + "".join(f"<th>{esc(h)}</th>" for h in header) + "</tr>"]
        parts += ["<tr>" + "".join(f"<td>{esc(cell)}</td>" for cell in row) + "</tr>" for row in body]
        parts.append(f"</table><p>Tables: <a href='{esc(csv_path.name)}'>{esc(csv_path.name)}</a>, "
                     f"<a href='{esc(stats_path.name)}'>{esc(stats_path.name)}</a>; picture: "
                     f"<a href='{esc(png_path.name)}'>{esc(png_path.name)}</a>.</p>")
    parts.append("</body></html>")
    path.write_text("\n".join(parts), encoding="utf-8")
    return path
