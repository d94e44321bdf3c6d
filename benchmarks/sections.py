"""Each benchmark script owns one section of docs/performance.md, between its markers."""

from __future__ import annotations

from pathlib import Path

__all__ = ["write_section"]


def write_section(path: Path, begin: str, end: str, text: str, *, intro: str = "") -> None:
    """Replace the section between ``begin`` and ``end`` in ``path``, or append it (after ``intro``).

    The rest of the file is kept as it is; a missing file starts with a title.
    """
    section = f"{begin}\n{text}{end}"
    old = path.read_text() if path.exists() else "# Performance\n"
    if begin in old and end in old:
        before, rest = old.split(begin, 1)
        path.write_text(before + section + rest.split(end, 1)[1])
    else:
        path.write_text(old.rstrip("\n") + "\n" + intro + section + "\n")
