"""The report as a PDF, with matplotlib's PDF backend: vector figures, tables as text, page numbers, contents.

Pages are A4.  Text is wrapped by its measured width (matplotlib's own
text metrics, so nothing runs past the margins); tables are set in a
monospaced font, their columns split into groups that fit the width, their
rows continued on the next page.  Every page carries a header (the report
and the section, how it was computed) and a footer (the command that
reproduces it, the data's and the model's SHA-256, package versions, page
``i of n``).  Page 2 is the table of contents, with page numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .cells import HTML_ROWS, format_cell, provenance_rows

__all__ = ["write_pdf", "PAGE_SIZE", "MARGIN"]

#: A4 in inches, and the margins (left/right, top, bottom) in points.
PAGE_SIZE = (8.27, 11.69)
MARGIN = {"side": 54.0, "top": 60.0, "bottom": 72.0}
_SANS, _MONO = "DejaVu Sans", "DejaVu Sans Mono"
_BODY, _TABLE, _SMALL = 9.0, 7.0, 6.0
_LINE = 1.3  # line height as a multiple of the font size


def _width_of(text: str, size: float, family: str, weight: str = "normal") -> float:
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextToPath

    font = FontProperties(family=family, size=size, weight=weight)
    width, _, _ = TextToPath().get_text_width_height_descent(text, font, ismath=False)
    return width


def wrap(text: str, size: float, family: str, width: float, weight: str = "normal") -> list[str]:
    """Lines of ``text`` no wider than ``width`` points in that font (words kept whole unless one alone is
    too wide)."""
    lines: list[str] = []
    for paragraph in str(text).split("\n"):
        line = ""
        for word in paragraph.split(" "):
            candidate = word if not line else f"{line} {word}"
            if _width_of(candidate, size, family, weight) <= width:
                line = candidate
                continue
            if line:
                lines.append(line)
            line = ""
            while _width_of(word, size, family, weight) > width:  # a long word (a hash, a path) is cut
                cut = len(word)
                while cut > 1 and _width_of(word[:cut], size, family, weight) > width:
                    cut -= 1
                lines.append(word[:cut])
                word = word[cut:]
            line = word
        lines.append(line)
    return lines


@dataclass
class _Block:
    height: float
    draw: Callable  # draw(page, top_in_points)
    heading: str | None = None


def _text_block(lines: list[str], size: float, family: str, *, weight="normal", color="black",
                gap: float = 4.0) -> _Block:
    height = len(lines) * size * _LINE + gap

    def draw(page, top):
        for i, line in enumerate(lines):
            y = top - (i + 1) * size * _LINE + 0.25 * size
            page.text(MARGIN["side"] / 72 / PAGE_SIZE[0], y / 72 / PAGE_SIZE[1], line, fontsize=size,
                      family=family, weight=weight, color=color, va="baseline", ha="left")

    return _Block(height, draw)


def _content_width() -> float:
    return PAGE_SIZE[0] * 72 - 2 * MARGIN["side"]


def _table_lines(frame, max_rows: int) -> tuple[list[list[str]], bool]:
    """The table as groups of text lines (columns split to fit the width), and whether rows were cut."""
    shown = frame.head(max_rows)
    columns = [str(c) for c in frame.columns]
    cells = [[format_cell(v)[0] for v in row] for row in shown.itertuples(index=False, name=None)]
    limit = 22

    def clip(text):
        return text if len(text) <= limit else text[: limit - 1] + "~"

    widths = [max([len(clip(columns[j]))] + [len(clip(r[j])) for r in cells]) for j in range(len(columns))]
    char = _width_of("0" * 10, _TABLE, _MONO) / 10
    per_line = int(_content_width() // char)
    groups, current, used = [], [], 0
    for j, w in enumerate(widths):
        if current and used + w + 2 > per_line:
            groups.append(current)
            current, used = [], 0
        current.append(j)
        used += w + 2
    groups.append(current)
    out = []
    for group in groups:
        header = "  ".join(clip(columns[j]).rjust(widths[j]) for j in group)
        rule = "  ".join("-" * widths[j] for j in group)
        body = ["  ".join(clip(r[j]).rjust(widths[j]) for j in group) for r in cells]
        out.append([header, rule] + body)
    return out, frame.shape[0] > max_rows


def _figure_block(draw_figure: Callable, size: tuple) -> _Block:
    width = _content_width()
    height = min(width * size[1] / size[0], 0.55 * PAGE_SIZE[1] * 72)

    def draw(page, top):
        # A subfigure is placed by its grid's width and height ratios (not by subplot margins).
        page_height = PAGE_SIZE[1] * 72
        grid = page.add_gridspec(3, 3, width_ratios=[MARGIN["side"], width, MARGIN["side"]],
                                 height_ratios=[page_height - top, height, top - height], wspace=0, hspace=0)
        part = page.add_subfigure(grid[1, 1])
        draw_figure(part)
        _fit_into(part, page.canvas.get_renderer())

    return _Block(height + 8, draw)


def _fit_into(part, renderer, pad: float = 4.0) -> None:
    """Move the Axes of a subfigure so that everything drawn (labels, ticks, legends) lies inside it.

    A subfigure has no layout engine of its own: long tick labels or
    annotations would run past its edges (and off the page's text area).
    The Axes are mapped linearly so that the union of their tight boxes
    fits the subfigure, less ``pad`` points.
    """
    axes = [ax for ax in part.axes if ax.get_visible()]
    if not axes:
        return
    scale = part.figure.dpi / 72.0
    box = part.bbox
    for _ in range(2):  # a second pass settles labels that moved with the first
        tight = [ax.get_tightbbox(renderer) for ax in axes]
        placed = [ax.get_window_extent(renderer) for ax in axes]
        u0, u1 = min(b.x0 for b in tight), max(b.x1 for b in tight)
        v0, v1 = min(b.y0 for b in tight), max(b.y1 for b in tight)
        a0, a1 = min(b.x0 for b in placed), max(b.x1 for b in placed)
        b0, b1 = min(b.y0 for b in placed), max(b.y1 for b in placed)
        room = pad * scale
        new_x = (box.x0 + room + (a0 - u0), box.x1 - room - (u1 - a1))
        new_y = (box.y0 + room + (b0 - v0), box.y1 - room - (v1 - b1))
        if new_x[1] <= new_x[0] or new_y[1] <= new_y[0]:
            return
        inside = u0 >= box.x0 + room - 0.5 and u1 <= box.x1 - room + 0.5 and v0 >= box.y0 + room - 0.5 \
            and v1 <= box.y1 - room + 0.5
        if inside:
            return
        to_figure = part.figure.transFigure.inverted()
        for ax, extent in zip(axes, placed):
            x0 = new_x[0] + (extent.x0 - a0) * (new_x[1] - new_x[0]) / (a1 - a0)
            x1 = new_x[0] + (extent.x1 - a0) * (new_x[1] - new_x[0]) / (a1 - a0)
            y0 = new_y[0] + (extent.y0 - b0) * (new_y[1] - new_y[0]) / (b1 - b0)
            y1 = new_y[0] + (extent.y1 - b0) * (new_y[1] - new_y[0]) / (b1 - b0)
            (fx0, fy0), (fx1, fy1) = to_figure.transform([(x0, y0), (x1, y1)])
            ax.set_position([fx0, fy0, fx1 - fx0, fy1 - fy0])


def _section_blocks(section) -> list[_Block]:
    width = _content_width()
    blocks = [_text_block(wrap(section.title, 13, _SANS, width, "bold"), 13, _SANS, weight="bold", gap=6)]
    blocks[0].heading = section.title
    blocks.append(_text_block(wrap("What was computed and how: " + section.method, _BODY, _SANS, width), _BODY,
                              _SANS, color="#243a52", gap=8))
    for paragraph in section.paragraphs:
        blocks.append(_text_block(wrap(paragraph, _BODY, _SANS, width), _BODY, _SANS, gap=6))
    for _, caption, draw_figure, size in section.figures:
        blocks.append(_figure_block(draw_figure, size))
        blocks.append(_text_block(wrap(caption + " (vector figure)", _SMALL + 1, _SANS, width), _SMALL + 1, _SANS,
                                  color="#555555", gap=8))
    for name, caption, frame in section.tables:
        groups, cut = _table_lines(frame, HTML_ROWS)
        note = f" (first {HTML_ROWS} of {frame.shape[0]} rows; all in {section.key}__{name}.csv)" if cut else \
            f" ({section.key}__{name}.csv)"
        title = _text_block(wrap(caption + note, _BODY, _SANS, width, "bold"), _BODY, _SANS, weight="bold", gap=2)
        for lines in groups:
            header = lines[:2]
            for start in range(2, max(len(lines), 3), 50):  # row pieces short enough for any page
                piece = _text_block(header + lines[start:start + 50], _TABLE, _MONO, gap=6)
                if title is not None:  # the caption stays with the table's first rows
                    piece, title = _joined(title, piece), None
                blocks.append(piece)
    return blocks


def _joined(first: _Block, second: _Block) -> _Block:
    """One block drawing ``first`` then ``second`` below it (never split across pages)."""

    def draw(page, top):
        first.draw(page, top)
        second.draw(page, top - first.height)

    return _Block(first.height + second.height, draw)


def _usable(footer: list[str]) -> float:
    """The height left for content between the header and a footer of these lines (points)."""
    bottom = max(MARGIN["bottom"], 14 + (len(footer) + 1) * _SMALL * _LINE + 12)
    return PAGE_SIZE[1] * 72 - MARGIN["top"] - bottom


def _paginate(sections, usable: float) -> list[dict]:
    """Pages as ``{"section": title, "blocks": [...]}``; each section starts on a new page."""
    pages = []
    for section in sections:
        page = {"section": section.title, "blocks": [], "used": 0.0}
        pages.append(page)
        for block in _section_blocks(section):
            if page["blocks"] and page["used"] + block.height > usable:
                page = {"section": section.title + " (continued)", "blocks": [], "used": 0.0}
                pages.append(page)
            page["blocks"].append(block)
            page["used"] += block.height
    return pages


def _footer_lines(provenance: dict) -> list[str]:
    width = _content_width()
    versions = ", ".join(f"{k} {v}" for k, v in provenance.get("versions", {}).items())
    text = [f"Reproduce: {provenance.get('command', '')}",
            f"data SHA-256 {provenance.get('data_sha256', '')}",
            f"model SHA-256 {provenance.get('model_sha256', '')}",
            f"versions: {versions}"]
    lines = []
    for item in text:
        lines += wrap(item, _SMALL, _MONO, width)
    return lines


def _decorate(page, number: int, total: int, title: str, section: str, how: str, footer: list[str]) -> None:
    width = _content_width()
    top = PAGE_SIZE[1] * 72 - 24
    header = wrap(f"{title} - {section}", _SMALL + 1, _SANS, width)[:1] + wrap(how, _SMALL, _SANS, width)[:2]
    for i, line in enumerate(header):
        page.text(MARGIN["side"] / 72 / PAGE_SIZE[0], (top - i * 9) / 72 / PAGE_SIZE[1], line,
                  fontsize=_SMALL + (1 if i == 0 else 0), family=_SANS, color="#444444", va="baseline")
    lines = footer + [f"page {number} of {total}"]
    for i, line in enumerate(lines):
        y = 14 + (len(lines) - 1 - i) * _SMALL * _LINE
        page.text(MARGIN["side"] / 72 / PAGE_SIZE[0], y / 72 / PAGE_SIZE[1], line, fontsize=_SMALL,
                  family=_MONO, color="#444444", va="baseline")


def _new_page():
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    page = Figure(figsize=PAGE_SIZE)
    FigureCanvasAgg(page)  # a renderer to measure the figures with; PdfPages writes the page as PDF
    return page


def _front_blocks(title: str, provenance: dict, omitted: list) -> list[_Block]:
    width = _content_width()
    blocks = [_text_block(wrap(title, 16, _SANS, width, "bold"), 16, _SANS, weight="bold", gap=10),
              _text_block(wrap("Evidence package written by pyale. Every number is in the CSV and JSON files "
                               "beside this PDF at full precision; the command below gives the same numbers "
                               "again.", _BODY, _SANS, width), _BODY, _SANS, gap=10)]
    for label, value in provenance_rows(provenance):
        blocks.append(_text_block(wrap(label, _BODY, _SANS, width, "bold"), _BODY, _SANS, weight="bold", gap=0))
        blocks.append(_text_block(wrap(value, _SMALL + 1, _MONO, width), _SMALL + 1, _MONO, gap=6))
    if omitted:
        blocks.append(_text_block(["Not included"], _BODY + 2, _SANS, weight="bold", gap=2))
        for what, why in omitted:
            blocks.append(_text_block(wrap(f"- {what}: {why}", _BODY, _SANS, width), _BODY, _SANS, gap=2))
    return blocks


def write_pdf(path, title: str, sections: list, provenance: dict, omitted: list) -> None:
    """Lay out and write the PDF (front page, contents, one or more pages per section)."""
    import matplotlib
    from matplotlib.backends.backend_pdf import PdfPages

    footer = _footer_lines(provenance)
    usable = _usable(footer)
    front = [{"section": "Provenance", "blocks": [], "used": 0.0}]
    for block in _front_blocks(title, provenance, omitted):
        if front[-1]["blocks"] and front[-1]["used"] + block.height > usable:
            front.append({"section": "Provenance (continued)", "blocks": [], "used": 0.0})
        front[-1]["blocks"].append(block)
        front[-1]["used"] += block.height
    body = _paginate(sections, usable)
    n_contents = 1 + len(sections) // 45
    first_body = len(front) + n_contents + 1
    starts, page_number = [], first_body
    for page in body:
        if not page["section"].endswith("(continued)"):
            starts.append((page["section"], page_number))
        page_number += 1
    contents = []
    for i in range(n_contents):
        chunk = starts[i * 45:(i + 1) * 45]
        lines = [f"{name}  {'.' * 4}  page {number}" for name, number in chunk]
        blocks = [_text_block(["Contents"], 13, _SANS, weight="bold", gap=8)] if i == 0 else []
        blocks += [_text_block(wrap(line, _BODY + 1, _SANS, _content_width()), _BODY + 1, _SANS, gap=3)
                   for line in lines]
        contents.append({"section": "Contents", "blocks": blocks})
    pages = front + contents + body
    total = len(pages)
    how = f"{provenance.get('conventions', '')}; {provenance.get('bootstrap', '')}; random_state " \
          f"{provenance.get('random_state', '')}"
    metadata = {"Title": title, "Creator": "pyale report", "CreationDate": None, "ModDate": None}
    with matplotlib.rc_context({"pdf.fonttype": 42, "text.parse_math": False}), \
            PdfPages(path, metadata=metadata) as pdf:
        for number, page_plan in enumerate(pages, start=1):
            page = _new_page()
            top = PAGE_SIZE[1] * 72 - MARGIN["top"]
            for block in page_plan["blocks"]:
                block.draw(page, top)
                top -= block.height
            _decorate(page, number, total, title, page_plan["section"], how, footer)
            pdf.savefig(page)
