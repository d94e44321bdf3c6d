"""Cheap checks of the documentation site's sources; the full Sphinx build runs in .ci/run.

- every public name is in the API reference's source;
- the build command the README documents is the one .ci/run runs, and the
  ``docs`` extra exists;
- the generated tables (conventions, fixture sets, live tests) read their
  sources: every convention, every fixture file's metadata, every live test;
- the Getting started page's examples print what the page shows;
- the gallery's examples download nothing.
"""

from __future__ import annotations

import doctest
import importlib
import inspect
import re
import sys
from pathlib import Path

import pytest

import pyale

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


@pytest.fixture(scope="module")
def pyale_docs():
    """The site's table generators (docs/_ext/pyale_docs.py; needs docutils, from the docs extra)."""
    pytest.importorskip("docutils", reason="the docs extra is not installed")
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        return importlib.import_module("pyale_docs")
    finally:
        sys.path.remove(str(DOCS / "_ext"))

BUILD_COMMAND = "python -m sphinx -W --keep-going -n -b html docs docs/_build/html"


def _autosummary_entries(text: str) -> dict[str, set[str]]:
    """Module -> names listed in ``.. autosummary::`` blocks after ``.. currentmodule::``."""
    found: dict[str, set[str]] = {}
    module = None
    lines = text.splitlines()
    for i, line in enumerate(lines):
        match = re.match(r"\.\. currentmodule:: (\S+)", line)
        if match:
            module = match.group(1)
        if line.startswith(".. autosummary::"):
            for entry in lines[i + 1:]:
                if entry and not entry[0].isspace():
                    break
                name = entry.strip()
                if name and not name.startswith(":"):
                    found.setdefault(module, set()).add(name)
    return found


def test_every_public_name_is_in_the_api_reference():
    listed = _autosummary_entries((DOCS / "api.rst").read_text())
    public = [name for name in pyale.__all__ if name != "__version__"]
    missing = [name for name in public if name not in listed.get("pyale", set())]
    assert not missing, f"pyale.__all__ names missing from docs/api.rst (add them to a section): {missing}"
    unknown = sorted(listed["pyale"] - set(public))
    assert not unknown, f"docs/api.rst lists names that pyale does not export: {unknown}"
    assert "pyale.__version__" in (DOCS / "api.rst").read_text()


def test_pyale_r_is_in_the_api_reference():
    text = (ROOT / "pyale" / "r.py").read_text()
    exported = re.search(r"__all__ = \[(.*?)\]", text, flags=re.S).group(1)
    names = re.findall(r'"(\w+)"', exported)
    assert names
    listed = _autosummary_entries((DOCS / "api.rst").read_text()).get("pyale.r", set())
    assert sorted(listed) == sorted(names)


def test_the_cli_page_documents_the_parser():
    text = (DOCS / "cli.rst").read_text()
    assert ":module: pyale._cli" in text and ":func: build_parser" in text
    from pyale._cli import build_parser

    assert build_parser().prog == "pyale"


def test_readme_documents_the_build_command_that_ci_runs():
    readme = (ROOT / "README.md").read_text()
    assert f'pip install ".[docs]" && {BUILD_COMMAND}' in readme
    ci = (ROOT / ".ci" / "run").read_text()
    body = re.search(r"docs_build_command\(\) \{\n(.*?)\n\}", ci, flags=re.S).group(1)
    assert body.strip() == BUILD_COMMAND
    assert 'pip install ".[docs]"' in ci
    assert re.search(r"^docs_build_command$", ci, flags=re.M)
    assert BUILD_COMMAND in (DOCS / "conf.py").read_text()
    assert re.search(r"^docs = \[", (ROOT / "pyproject.toml").read_text(), flags=re.M)


def test_conventions_table_comes_from_the_registry(pyale_docs):
    from pyale._core.conventions import CONVENTIONS

    header, rows = pyale_docs.conventions_rows()
    assert len(header) == 1 + len(CONVENTIONS)
    for column, convention in enumerate(CONVENTIONS.values(), start=1):
        assert convention.label in header[column]
        described = convention.describe()
        assert described
        for name, text in described.items():
            row = next(r for r in rows if r[0] == name)
            assert row[column] == text


def test_fixture_record_reads_every_fixture_file(pyale_docs):
    records = pyale_docs.fixture_records()
    files = sorted((ROOT / "reference").rglob("*.json"))
    assert len(records) == len(files) > 100
    for record in records:
        assert record["generator"].startswith("scripts/"), record
        # every set comes from R but effector/ (and effector/regional/), which comes from Python's effector
        assert record["r_version"].startswith("R version") or (
            record["set"].split("/")[0] == "effector" and "effector" in record["packages"]), record
        assert record["packages"], record
        assert record["cases"] >= 1
    sets = pyale_docs.fixture_sets(records)
    assert {"aleplot", "iml", "rbase", "nearest"} <= set(sets)
    assert sum(r["cases"] for r in sets["rbase"]) > 1


def test_live_tests_are_found(pyale_docs):
    found = {path: tests for path, _, tests in pyale_docs.live_tests()}
    assert "tests/test_aleplot_live.py" in found and "tests/test_iml_live.py" in found
    assert all(tests for tests in found.values())


def test_unlisted_pages_hook_reads_toctrees(pyale_docs):
    text = "```{toctree}\n:maxdepth: 1\n\nmethod\ngallery/index\n```\n\n.. toctree::\n   :hidden:\n\n   api\n"
    assert pyale_docs._toctree_entries(text) == {"method", "gallery/index", "api"}


def test_getting_started_examples_print_what_the_page_shows():
    pytest.importorskip("statsmodels")
    text = (DOCS / "getting-started.md").read_text()
    blocks = re.findall(r"```pycon\n(.*?)```", text, flags=re.S)
    assert len(blocks) >= 3
    parser = doctest.DocTestParser()
    test = parser.get_doctest("\n".join(blocks), {}, "getting-started", str(DOCS / "getting-started.md"), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def test_gallery_examples_download_nothing():
    examples = sorted((ROOT / "examples").glob("plot_*.py"))
    assert len(examples) >= 6
    for path in examples:
        code = path.read_text()
        assert code.startswith('"""\n'), f"{path.name}: a gallery example starts with its title docstring"
        for word in ("fetch_", "urlopen", "requests.", "http://", "https://"):
            assert word not in code, f"{path.name} mentions {word!r}: the gallery must not download"


# ------------------------------------------------------------------ numpydoc

# What every public docstring must satisfy (numpydoc.validate codes).  The
# Sphinx build checks the same codes but EX01 (see docs/conf.py).
_CHECKS = {"GL06", "GL07", "GL08", "PR01", "PR02", "PR03", "PR10", "RT02", "SS01"}
# Result containers built by pyale: their fields are documented once, as
# Attributes, so PR01 (constructor parameters) would ask for them twice.
_RESULTS = {"ALEResult", "ALEResults", "ALEPlotResult", "PDPlotResult", "ShapeCheck", "Materiality", "ReasonCodes",
            "RegionalResult", "Region", "Comparison", "Report"}


def _public_members(cls) -> list[str]:
    names = []
    for klass in cls.__mro__:
        if not klass.__module__.startswith("pyale"):
            continue
        names += [n for n in vars(klass) if not n.startswith("_") and n not in names]
    return names


def _errors(path: str, checks: set[str]) -> list[str]:
    from numpydoc.validate import validate

    return [f"{path}: {code} {message}" for code, message in validate(path)["errors"] if code in checks]


def _public_objects():
    pytest.importorskip("numpydoc")
    out = [("pyale", name) for name in pyale.__all__ if name != "__version__"]
    try:
        r_module = importlib.import_module("pyale.r")
    except ImportError:
        pass  # without R: pyale.r is checked where R is (CI installs it)
    else:
        out += [("pyale.r", name) for name in r_module.__all__]
    return out


def test_every_public_docstring_is_numpydoc_valid_with_a_checked_example():
    problems = []
    for module, name in _public_objects():
        obj = getattr(sys.modules[module], name)
        checks = _CHECKS | {"EX01"}
        if name in _RESULTS:
            checks = checks - {"PR01"}
        problems += _errors(f"{module}.{name}", checks)
        if isinstance(obj, type):
            for member in _public_members(obj):
                if callable(getattr(obj, member)) or isinstance(getattr(obj, member), property):
                    problems += _errors(f"{module}.{name}.{member}", _CHECKS)
    assert not problems, "\n".join(problems)


# Two inline literals joined without a space (``a``..``b``): reST does not end the first where meant, and the
# page shows ``a ..``b`` (numpydoc's validation does not look at inline markup).
_JOINED_LITERALS = re.compile(r"``[^`\s]+``[^\s`]{0,2}[^\s`\-:/'\"<(\[{]``")  # '/' or '-' between is valid


def test_no_public_docstring_joins_inline_literals():
    assert _JOINED_LITERALS.search('Shade ``ci_low``..``ci_high`` ("ci")')  # the markup that broke the page
    problems = []
    for name in pyale.__all__:
        obj = getattr(pyale, name)
        members = [obj] + ([getattr(obj, m) for m in vars(obj) if not m.startswith("_")] if inspect.isclass(obj) else [])
        for member in members:
            doc = getattr(member, "__doc__", None)
            if isinstance(doc, str) and _JOINED_LITERALS.search(doc):
                problems.append(f"{name}.{getattr(member, '__name__', '?')}: {_JOINED_LITERALS.search(doc).group()}")
    assert problems == []
