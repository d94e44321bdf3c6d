"""Writing the evidence package: CSV and JSON of every number, SVG figures, the HTML page, the PDF.

The HTML is rendered from a Jinja2 template (package data,
``templates/report.html.j2``) with every figure embedded as an SVG data
URI; the PDF is laid out by :mod:`pyale._report.pdf`.  Nothing here
depends on the clock: the same sections give the same bytes in the CSV and
JSON files (and in the SVG figures: their ids are salted with a constant).
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd

from .cells import HTML_ROWS, format_cell, provenance_rows
from .pdf import write_pdf

__all__ = ["write_package"]

def _exact(value: float) -> str:
    return repr(float(value))


def _json_value(value):
    if isinstance(value, (np.bool_, bool)):
        return bool(value)
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return None if not math.isfinite(float(value)) else float(value)
    if value is None or isinstance(value, (str, int)):
        return value
    return str(value)


def _records(frame: pd.DataFrame) -> dict:
    return {"columns": [str(c) for c in frame.columns],
            "rows": [[_json_value(v) for v in row] for row in frame.itertuples(index=False, name=None)]}


def _svg(draw, size) -> bytes:
    import io

    import matplotlib
    from matplotlib.backends.backend_svg import FigureCanvasSVG
    from matplotlib.figure import Figure

    figure = Figure(figsize=size, layout="constrained")
    FigureCanvasSVG(figure)
    with matplotlib.rc_context({"text.parse_math": False}):
        draw(figure)
    buffer = io.BytesIO()
    with matplotlib.rc_context({"svg.hashsalt": "pyale-report", "svg.fonttype": "none"}):
        figure.savefig(buffer, format="svg", metadata={"Date": None})
    return buffer.getvalue()


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def write_package(folder: Path, sections: list, provenance: dict, omitted: list, title: str) -> list[Path]:
    """Write every file of the package into ``folder``; returns them in order (``manifest.json`` last)."""
    written: list[Path] = []
    tables_json, html_sections = [], []
    for section in sections:
        html_tables, html_figures = [], []
        for name, caption, frame in section.tables:
            path = folder / f"{section.key}__{name}.csv"
            frame.to_csv(path, index=False, float_format=_exact, lineterminator="\n")
            written.append(path)
            shown = frame.head(HTML_ROWS)
            html_tables.append({
                "caption": caption, "file": path.name, "columns": [str(c) for c in frame.columns],
                "rows": [[dict(zip(("value", "text"), format_cell(v))) for v in row]
                         for row in shown.itertuples(index=False, name=None)],
                "n_rows": frame.shape[0], "cut": frame.shape[0] > HTML_ROWS,
            })
            tables_json.append({"section": section.key, "table": name, "caption": caption, "file": path.name,
                                **_records(frame)})
        for name, caption, draw, size in section.figures:
            svg = _svg(draw, size)
            path = folder / f"{section.key}__{name}.svg"
            path.write_bytes(svg)
            written.append(path)
            width, height = size[0] * 72, size[1] * 72
            html_figures.append({"caption": caption, "svg": base64.b64encode(svg).decode("ascii"),
                                 "width": int(round(width)), "height": int(round(height))})
        html_sections.append({"key": section.key, "title": section.title, "method": section.method,
                              "paragraphs": section.paragraphs, "tables": html_tables, "figures": html_figures})
    numbers = folder / "numbers.json"
    numbers.write_text(json.dumps({"title": title, "provenance": provenance,
                                   "sections": [{"key": s.key, "title": s.title, "method": s.method,
                                                 "findings": s.paragraphs} for s in sections],
                                   "not_included": [list(item) for item in omitted], "tables": tables_json},
                                  indent=1, ensure_ascii=False, allow_nan=False) + "\n", encoding="utf-8")
    written.append(numbers)
    page = folder / "report.html"
    page.write_text(_html(title, html_sections, provenance, omitted), encoding="utf-8")
    written.append(page)
    pdf = folder / "report.pdf"
    write_pdf(pdf, title, sections, provenance, omitted)
    written.append(pdf)
    manifest = folder / "manifest.json"
    manifest.write_text(json.dumps({"title": title, "command": provenance.get("command"),
                                    "files": {p.name: sha256_bytes(p.read_bytes()) for p in written}},
                                   indent=1) + "\n", encoding="utf-8")
    written.append(manifest)
    return written


def _html(title: str, sections: list, provenance: dict, omitted: list) -> str:
    try:
        import jinja2
    except ImportError as exc:
        raise ImportError("pyale report writes its HTML page from a Jinja2 template, and jinja2 is not "
                          "installed: pip install 'pyale-r[report]' (or pip install jinja2).") from exc

    environment = jinja2.Environment(loader=jinja2.PackageLoader("pyale._report", "templates"),
                                     autoescape=jinja2.select_autoescape(["html", "j2"]),
                                     undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    template = environment.get_template("report.html.j2")
    return template.render(title=title, sections=sections, provenance=provenance,
                           provenance_rows=provenance_rows(provenance), omitted=omitted)
