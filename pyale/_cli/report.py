"""The evidence ``pyale validate`` files: overlay plots, CSVs, ``report.md`` and ``report.html``."""

from __future__ import annotations

import base64
import datetime
import hashlib
import html
from pathlib import Path

import numpy as np

from .files import markdown_label, write_manifest

__all__ = ["sha256", "write_effect_files", "write_reports", "write_validate_manifest"]


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _axes():
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(6.4, 4.2))
    FigureCanvasAgg(figure)
    return figure.add_subplot()


def _draw(ax, comparison) -> None:
    table = comparison.table
    key = table.columns[0]
    name = str(comparison.features[0]) if comparison.features else str(key)
    pair = len(comparison.features) == 2
    if pair:
        ax.scatter(table["r"], table["pyale"], s=12, color="black", label="cells")
        low, high = float(np.nanmin(table["r"])), float(np.nanmax(table["r"]))
        ax.plot([low, high], [low, high], color="tab:red", lw=1, label="R = pyale")
        ax.set_xlabel("R")
        ax.set_ylabel("pyale")
    elif table[key].dtype == object or str(table[key].dtype) in ("category", "str", "string"):
        positions = np.arange(table.shape[0])
        ax.bar(positions, table["pyale"], color="0.8", edgecolor="black", label="pyale")
        ax.plot(positions, table["r"], "o", color="tab:red", label="R")
        ax.set_xticks(positions, [str(v) for v in table[key]], rotation=45, ha="right")
        ax.set_xlabel(name)
    else:
        x = table[key].to_numpy(float)
        ax.plot(x, table["pyale"], color="black", lw=1.5, label="pyale")
        ax.plot(x, table["r"], "o", color="tab:red", ms=4, mfc="none", label="R")
        ax.set_xlabel(name)
    if not pair:
        ax.set_ylabel("ALE")
    ax.legend(fontsize=8)
    verdict = "match" if comparison.ok else "DIFFER"
    ax.set_title(f"{comparison.conventions}: {comparison.label} ({verdict}, max |diff| "
                 f"{comparison.max_abs:.2g})", fontsize=10)


def write_effect_files(out: Path, comparison, stem: str) -> tuple[Path, Path]:
    """``<stem>.csv`` (both sides, exact floats) and ``<stem>.png`` (R drawn over pyale).

    ``stem`` comes from :func:`pyale._cli.files.effect_stems`, distinct for every effect of a run.
    """
    import matplotlib

    csv_path = out / f"{stem}.csv"
    comparison.table.to_csv(csv_path, index=False, float_format="%.17g")
    png_path = out / f"{stem}.png"
    with matplotlib.rc_context({"text.parse_math": False}):  # names and levels drawn as written, '$' too
        ax = _axes()
        _draw(ax, comparison)
        ax.figure.savefig(png_path, dpi=100, bbox_inches="tight")
    return csv_path, png_path


def _summary_rows(comparisons, files) -> list[list[str]]:
    rows = []
    for comparison, (csv_path, png_path) in zip(comparisons, files):
        rows.append([
            comparison.conventions, comparison.label, str(comparison.table.shape[0]),
            f"{comparison.max_abs:.3g}", f"{comparison.max_rel:.3g}", f"{comparison.atol:.3g}",
            "match" if comparison.ok else "DIFFER: " + "; ".join(comparison.problems or ["values"]),
            csv_path.name, png_path.name,
        ])
    return rows


HEADER = ["conventions", "effect", "cells", "max abs diff", "max rel diff", "abs floor", "verdict", "table", "plot"]


def write_reports(out: Path, context: dict, comparisons, files) -> tuple[Path, Path]:
    """``report.md`` and a self-contained ``report.html`` (plots embedded)."""
    rows = _summary_rows(comparisons, files)
    matched = sum(c.ok for c in comparisons)
    verdict = (f"All {len(comparisons)} effects match R" if matched == len(comparisons)
               else f"{len(comparisons) - matched} of {len(comparisons)} effects differ from R")
    created = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    md = [f"# pyale validate: {verdict}", "", f"Created {created}.", "",
          "Tolerance: every cell within rtol 1e-10 with an absolute floor of 1e-10 times the effect's "
          "range; grids, levels, level order (or its exact reverse) and K equal.", "",
          "## Inputs", ""]
    md += [f"- {key}: {value}" for key, value in context["inputs"].items()]
    md += ["", "## Versions", ""] + [f"- {key}: {value}" for key, value in context["versions"].items()]
    md += ["", "## Effects", "", "| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    for comparison, row in zip(comparisons, rows):
        cells = [row[0], markdown_label(comparison.features), *row[2:6], row[6].replace("|", "\\|")]
        md.append("| " + " | ".join(cells) + f" | [{row[7]}]({row[7]}) | ![{row[8]}]({row[8]}) |")
    md += ["", "## Set-up the calls rely on", "", "R:", "", "```r", context["r_setup"], "```", "", "Python:", "",
           "```python", context["python_setup"], "```", "", "## The exact calls", ""]
    for comparison in comparisons:
        md += [f"### {comparison.conventions}: {markdown_label(comparison.features)}", "", "R:", "", "```r",
               comparison.r_call, "```", "", "pyale:", "", "```python", comparison.py_call, "```", ""]
    md += ["## Reproduce", "", "```bash", context["command"], "```", "", context["model_note"], ""]
    md_path = out / "report.md"
    md_path.write_text("\n".join(md), encoding="utf-8")

    def esc(text) -> str:
        return html.escape(str(text))

    parts = ["<!DOCTYPE html><html><head><meta charset='utf-8'><title>pyale validate</title>",
             "<style>body{font-family:sans-serif;max-width:1100px;margin:2em auto}table{border-collapse:"
             "collapse}td,th{border:1px solid #999;padding:3px 6px;font-size:90%}pre{background:#f4f4f4;"
             "padding:6px;white-space:pre-wrap}.bad{color:#b00;font-weight:bold}</style></head><body>",
             f"<h1>pyale validate: {esc(verdict)}</h1><p>Created {esc(created)}.</p>",
             "<p>Tolerance: every cell within rtol 1e-10 with an absolute floor of 1e-10 times the effect's "
             "range; grids, levels, level order (or its exact reverse) and K equal.</p><h2>Inputs</h2><ul>"]
    parts += [f"<li>{esc(k)}: {esc(v)}</li>" for k, v in context["inputs"].items()]
    parts += ["</ul><h2>Versions</h2><ul>"] + [f"<li>{esc(k)}: {esc(v)}</li>" for k, v in context["versions"].items()]
    parts += ["</ul><h2>Effects</h2><table><tr>"] + [f"<th>{esc(h)}</th>" for h in HEADER[:8]] + ["</tr>"]
    for comparison, row in zip(comparisons, rows):
        cls = "" if comparison.ok else " class='bad'"
        parts.append("<tr>" + "".join(f"<td>{esc(v)}</td>" for v in row[:6]) + f"<td{cls}>{esc(row[6])}</td>"
                     + f"<td><a href='{esc(row[7])}'>{esc(row[7])}</a></td></tr>")
    parts.append("</table>")
    parts += ["<h2>Set-up the calls rely on</h2>", f"<p>R:</p><pre>{esc(context['r_setup'])}</pre>",
              f"<p>Python:</p><pre>{esc(context['python_setup'])}</pre>", "<h2>The exact calls</h2>"]
    for comparison, (_, png_path) in zip(comparisons, files):
        image = base64.b64encode(png_path.read_bytes()).decode("ascii")
        parts += [f"<h3>{esc(comparison.conventions)}: {esc(comparison.label)}</h3>",
                  f"<img alt='{esc(png_path.name)}' src='data:image/png;base64,{image}'>",
                  f"<p>R:</p><pre>{esc(comparison.r_call)}</pre><p>pyale:</p><pre>{esc(comparison.py_call)}</pre>"]
    parts += [f"<h2>Reproduce</h2><pre>{esc(context['command'])}</pre><p>{esc(context['model_note'])}</p>",
              "</body></html>"]
    html_path = out / "report.html"
    html_path.write_text("\n".join(parts), encoding="utf-8")
    return md_path, html_path


def write_validate_manifest(out: Path, args, response, comparisons, files, reports) -> Path:
    """``manifest.json``: every file (``files``, then ``reports``) and per effect its conventions, exact
    feature names, verdict and files."""
    from .. import __version__

    header = {"pyale": __version__, "command": "validate", "data": str(args.data), "model": str(args.model),
              "conventions": args.conventions, "intervals": args.intervals, "response": response}
    effects = [
        {"conventions": c.conventions, "features": [str(f) for f in c.features], "matches_r": c.ok,
         "max_abs_diff": c.max_abs, "problems": list(c.problems), "table": csv_path.name, "plot": png_path.name}
        for c, (csv_path, png_path) in zip(comparisons, files)
    ]
    return write_manifest(out, header, effects, [path for pair in files for path in pair] + list(reports))
