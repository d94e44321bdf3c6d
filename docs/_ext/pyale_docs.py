"""Tables of the documentation site generated at build time from the code and the fixtures.

Nothing here is typed by hand: each directive reads its source when the site
is built, so a page cannot drift from what it describes.

``pyale-conventions``
    The conventions table: one column per reference package, one row per
    rule, from :data:`pyale._core.conventions.CONVENTIONS` (each
    convention's ``label`` and ``describe()``).
``pyale-fixture-sets``
    The fixture sets under ``reference/``: per directory the generator, the
    number of files and cases, the R and package versions and the tolerance,
    all read from each file's own metadata.  With ``:detail:``, one table per
    set listing every file.
``pyale-live-tests``
    The tests that call R live (marker ``r``): per test file, the test
    functions and the first line of their docstrings, read with :mod:`ast`.

Each directive builds docutils nodes directly, so it works the same in a
Markdown (MyST) page and in a reStructuredText page.

One more hook: a Markdown page added at the top of ``docs/`` that no toctree
lists (for example a new guide written alongside a feature) is listed under
"More" on the user guide (the line ``% pyale-docs: unlisted pages`` in
``guides.md``), so it is on the site instead of failing the build; move it
to its proper place when convenient.
"""

from __future__ import annotations

import ast
import json
import re
from collections import Counter, OrderedDict
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import Directive, directives

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "reference"
TESTS = ROOT / "tests"


# ------------------------------------------------------------------ nodes


def _inline(text: str) -> list[nodes.Node]:
    """Plain text with ``code`` spans (single or double backticks) as literals."""
    out: list[nodes.Node] = []
    parts = text.replace("``", "`").split("`")
    for i, part in enumerate(parts):
        if not part:
            continue
        out.append(nodes.literal(part, part) if i % 2 else nodes.Text(part))
    return out


def _cell(text: str) -> nodes.entry:
    entry = nodes.entry()
    paragraph = nodes.paragraph()
    paragraph.extend(_inline(str(text)))
    entry += paragraph
    return entry


def table(header: list[str], rows: list[list[str]], *, widths: list[int] | None = None) -> nodes.table:
    """A docutils table with a header row; cell text may hold `code` spans."""
    tbl = nodes.table(classes=["pyale-generated"])
    group = nodes.tgroup(cols=len(header))
    tbl += group
    for width in widths or [1] * len(header):
        group += nodes.colspec(colwidth=width)
    head = nodes.thead()
    row = nodes.row()
    for text in header:
        row += _cell(text)
    head += row
    group += head
    body = nodes.tbody()
    for values in rows:
        row = nodes.row()
        for text in values:
            row += _cell(text)
        body += row
    group += body
    return tbl


def _note(text: str) -> nodes.note:
    note = nodes.note()
    paragraph = nodes.paragraph()
    paragraph.extend(_inline(text))
    note += paragraph
    return note


# ------------------------------------------------------------------ conventions


def conventions_rows() -> tuple[list[str], list[list[str]]] | None:
    """Header and rows of the conventions table, or None without the registry."""
    try:
        from pyale._core.conventions import CONVENTIONS
    except ImportError:
        return None
    columns = list(CONVENTIONS.values())
    described = [c.describe() for c in columns]
    names: list[str] = []
    for rules in described:
        names.extend(name for name in rules if name not in names)
    header = ["rule"] + [f"{c.label} (`conventions=\"{getattr(c, 'name', '')}\"`)" if getattr(c, "name", "")
                         else c.label for c in columns]
    rows = [[name] + [rules.get(name, "-") for rules in described] for name in names]
    return header, rows


class ConventionsTable(Directive):
    """``.. pyale-conventions::`` -- the conventions table from the code's own settings."""

    has_content = False

    def run(self):
        found = conventions_rows()
        if found is None:
            return [_note("Coming: the conventions table is generated from `pyale._core.conventions`, "
                          "which this version of pyale does not have yet.")]
        header, rows = found
        return [table(header, rows, widths=[2] + [5] * (len(header) - 1))]


# ------------------------------------------------------------------ fixtures


def _meta(data: dict) -> dict:
    return data.get("meta") or data.get("metadata") or {}


def _r_function(data: dict, case: dict) -> str:
    """The R function a fixture records: named in its metadata, or the last ``pkg::Fun(`` its R code calls."""
    call = data.get("call")
    for candidate in (case.get("function"), case.get("call"), call,
                      call.get("function") if isinstance(call, dict) else None):
        if isinstance(candidate, str) and candidate:
            return candidate.split("(")[0].strip()
    code = data.get("r_code") or (call.get("r_code") if isinstance(call, dict) else "") or ""
    found = re.findall(r"\b\w+::(\w+)\(", code) if isinstance(code, str) else []
    return found[-1] if found else ""


def _library(meta: dict) -> str:
    """Which build of the R package made the file, when the generator records it."""
    if "r_library" not in meta:
        return ""
    fixed = meta.get("r_library_has_bootstrap_fix")
    note = "" if fixed is None else (" with the bootstrap fix" if fixed else " as released")
    return f"{meta['r_library']}{note}"


def _number(value):
    """A tolerance as a float: some generators record it exactly, as ``float.hex`` text."""
    if isinstance(value, str):
        return float.fromhex(value) if value.lower().lstrip("-").startswith("0x") else float(value)
    return value


def fixture_record(path: Path) -> dict:
    """What a fixture file says about itself, whichever generator wrote it."""
    data = json.loads(path.read_text())
    meta = _meta(data)
    versions = dict(meta.get("versions") or {})
    r_version = meta.get("r_version") or versions.pop("R", None) or "-"
    packages = dict(meta.get("packages") or {})
    packages.update({k: v for k, v in versions.items() if k != "R"})
    packages.update({key[: -len("_version")]: value for key, value in meta.items()
                     if key.endswith("_version") and key != "r_version"})
    tolerance = meta.get("tolerance") or {}
    rtol = _number(meta.get("rtol", tolerance.get("rtol")))
    atol_scale = _number(meta.get("atol_scale", tolerance.get("atol_scale")))
    case = meta.get("case") or (meta.get("arguments") if isinstance(meta.get("arguments"), dict) else {}) or {}
    cases = len(data["cases"]) if isinstance(data.get("cases"), list) else 1
    function = _r_function(data, case)
    description = meta.get("description") or data.get("note") or case.get("note") or ""
    seed = meta.get("seed")
    if seed is None:
        seed = case.get("seed")
    return {
        "file": path.relative_to(ROOT).as_posix(),
        "set": path.parent.relative_to(REFERENCE).as_posix(),
        "generator": meta.get("generator", "-"),
        "r_version": r_version,
        "packages": packages,
        "rtol": rtol,
        "atol_scale": atol_scale,
        "tolerance_reason": meta.get("tolerance_reason", ""),
        "cases": int(cases),
        "function": function,
        "description": description,
        "seed": seed,
        "created": meta.get("created") or meta.get("generated") or "",
        "library": _library(meta),
    }


def fixture_records() -> list[dict]:
    return [fixture_record(path) for path in sorted(REFERENCE.rglob("*.json"))]


def _join(values) -> str:
    return ", ".join(str(v) for v in values if v not in (None, ""))


def _packages(records: list[dict]) -> str:
    versions: dict[str, set] = OrderedDict()
    for record in records:
        for name, version in record["packages"].items():
            versions.setdefault(name, set()).add(str(version))
    return _join(f"{name} {' / '.join(sorted(v))}" for name, v in versions.items())


def _tolerance(records: list[dict]) -> str:
    rtols = sorted({r["rtol"] for r in records if r["rtol"] is not None})
    if not rtols:
        return "exact (see the file)"
    return _join(f"rtol {t:g}" for t in rtols)


def fixture_sets(records: list[dict]) -> "OrderedDict[str, list[dict]]":
    sets: OrderedDict[str, list[dict]] = OrderedDict()
    for record in records:
        sets.setdefault(record["set"], []).append(record)
    return sets


class FixtureSets(Directive):
    """``.. pyale-fixture-sets::`` -- the fixture sets, read from each file's metadata."""

    has_content = False
    option_spec = {"detail": directives.flag}

    def run(self):
        records = fixture_records()
        if not records:
            return [_note("No fixture files found under `reference/`.")]
        sets = fixture_sets(records)
        what, versions = [], []
        for name, members in sets.items():
            functions = Counter(r["function"] for r in members if r["function"])
            what.append([
                f"`{name}/`",
                _join(sorted({f"`{Path(r['generator']).name}`" for r in members})),
                str(len(members)),
                str(sum(r["cases"] for r in members)),
                _join(f"{f} ({n})" for f, n in functions.most_common()) or "-",
            ])
            versions.append([
                f"`{name}/`",
                _packages(members),
                _tolerance(members),
                _join(sorted({r["created"] for r in members})),
            ])
        r_versions = sorted({r["r_version"] for r in records})
        out: list[nodes.Node] = [
            table(["set (under reference/)", "generator (in scripts/)", "files", "cases", "R functions (files)"],
                  what, widths=[2, 4, 1, 1, 4]),
        ]
        if len(r_versions) == 1:
            line = nodes.paragraph()
            line.extend(_inline(f"Every fixture was made with {r_versions[0]}, and these R packages:"))
            out.append(line)
            out.append(table(["set", "R packages", "tolerance", "generated"], versions, widths=[2, 6, 2, 2]))
        else:
            with_r = [row[:1] + [_join(sorted({r["r_version"] for r in sets[row[0].strip("`/")]}))] + row[1:]
                      for row in versions]
            out.append(table(["set", "R", "R packages", "tolerance", "generated"], with_r, widths=[2, 3, 5, 2, 2]))
        total = sum(r["cases"] for r in records)
        summary = nodes.paragraph()
        summary.extend(_inline(f"{len(records)} fixture files, {total} cases in all."))
        out.append(summary)
        reasons = Counter(r["tolerance_reason"] for r in records if r["tolerance_reason"])
        if reasons:
            out.append(table(["tolerance reason (as each generator records it)", "files"],
                             [[reason, str(n)] for reason, n in reasons.most_common()], widths=[8, 1]))
        if "detail" in self.options:
            for name, members in sets.items():
                library = any(m["library"] for m in members)
                detail_rows = [[
                    f"`{Path(r['file']).name}`",
                    r["function"] or "-",
                    r["description"] or "-",
                    "-" if r["seed"] is None else str(r["seed"]),
                    "-" if r["rtol"] is None else f"{r['rtol']:g}",
                ] + ([r["library"] or "-"] if library else []) for r in members]
                header = ["file", "R function", "what it covers", "seed", "rtol"] + (["R package build"] if library else [])
                summary = f"reference/{name}/: {len(members)} file{'s' if len(members) != 1 else ''}"
                out.append(nodes.raw("", f"<details class='pyale-fixtures'><summary>{summary}</summary>", format="html"))
                out.append(table(header, detail_rows, widths=[3, 2, 6, 1, 1] + ([2] if library else [])))
                out.append(nodes.raw("", "</details>", format="html"))
        return out


# ------------------------------------------------------------------ live tests


def _marked_r(decorators) -> bool:
    for dec in decorators:
        text = ast.unparse(dec)
        if text in ("pytest.mark.r", "mark.r") or text.startswith("pytest.mark.r("):
            return True
    return False


def live_tests() -> list[tuple[str, str, list[tuple[str, str]]]]:
    """(test file, its docstring's first line, [(test, first docstring line)]) for tests marked ``r``."""
    found = []
    for path in sorted(TESTS.glob("test_*.py")):
        tree = ast.parse(path.read_text())
        module_marked = any(
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets)
            and "pytest.mark.r" in ast.unparse(node.value).replace("pytest.mark.r(", "pytest.mark.r")
            for node in tree.body
        )
        tests = []
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
                if module_marked or _marked_r(node.decorator_list):
                    doc = (ast.get_docstring(node) or "").strip().splitlines()
                    tests.append((node.name, doc[0] if doc else ""))
        if tests:
            doc = (ast.get_docstring(tree) or "").strip().splitlines()
            found.append((path.relative_to(ROOT).as_posix(), doc[0] if doc else "", tests))
    return found


class LiveTests(Directive):
    """``.. pyale-live-tests::`` -- the tests that run R live, read from tests/."""

    has_content = False

    def run(self):
        rows = []
        for path, doc, tests in live_tests():
            listing = "; ".join(f"`{name}`" + (f": {line}" if line else "") for name, line in tests)
            rows.append([f"`{path}`", doc or "-", str(len(tests)), listing])
        if not rows:
            return [_note("No test is marked `r` in this checkout.")]
        return [table(["test file", "what it checks", "tests", "tests marked r"], rows, widths=[3, 5, 1, 8])]


# ------------------------------------------------------------------ unlisted pages

UNLISTED_MARKER = "% pyale-docs: unlisted pages"
DOCS = ROOT / "docs"


def _toctree_entries(text: str) -> set[str]:
    """Entries of the toctrees in a page (MyST fences and reST directives)."""
    entries: set[str] = set()
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        if line.startswith("```{toctree}") or line.startswith(".. toctree::"):
            myst = line.startswith("```")
            i += 1
            while i < len(lines):
                raw = lines[i]
                item = raw.strip()
                if myst and item.startswith("```"):
                    break
                if not myst and item and not raw[:1].isspace():
                    break
                if item and not item.startswith(":"):
                    target = item.split("<")[-1].rstrip(">").strip() if "<" in item else item
                    entries.add(target)
                i += 1
        i += 1
    return entries


def unlisted_pages() -> list[str]:
    """Top-level pages of docs/ that no toctree lists (index excepted)."""
    pages = {p.stem for p in list(DOCS.glob("*.md")) + list(DOCS.glob("*.rst"))
             if ":orphan:" not in p.read_text()[:200] and "orphan: true" not in p.read_text()[:200]}
    listed: set[str] = set()
    for path in list(DOCS.glob("*.md")) + list(DOCS.glob("*.rst")):
        listed |= _toctree_entries(path.read_text())
    return sorted(pages - listed - {"index"})


def _list_unlisted(app, docname, source):
    if docname != "guides" or UNLISTED_MARKER not in source[0]:
        return
    pages = unlisted_pages()
    block = ("```{toctree}\n:caption: More\n:maxdepth: 1\n\n" + "\n".join(pages) + "\n```\n") if pages else ""
    source[0] = source[0].replace(UNLISTED_MARKER, block)


# ------------------------------------------------------------------ gallery


def reset_r_bridge(gallery_conf, fname):
    """sphinx-gallery ``reset_modules`` hook: forget a ``pyale.r`` imported against a mock.

    Without rpy2, the API pages document ``pyale.r`` from autodoc's mock of
    rpy2 (``autodoc_mock_imports`` in conf.py), and that module object stays
    in ``sys.modules``.  An example must then see what a user without R sees,
    an ImportError, not the mocked module.
    """
    import importlib.util
    import sys

    if "pyale.r" in sys.modules and importlib.util.find_spec("rpy2") is None:
        del sys.modules["pyale.r"]
        package = sys.modules.get("pyale")
        if package is not None and hasattr(package, "r"):
            delattr(package, "r")


def setup(app):
    app.connect("source-read", _list_unlisted)
    app.add_directive("pyale-conventions", ConventionsTable)
    app.add_directive("pyale-fixture-sets", FixtureSets)
    app.add_directive("pyale-live-tests", LiveTests)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
