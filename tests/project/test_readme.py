"""The README's Python examples run as written, and their printed numbers are the ones shown."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"


def _python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


def _tokens(text: str) -> list[str]:
    return re.findall(r"[^\s\[\]]+|[\[\]]", text)


def _same_token(shown: str, printed: str) -> bool:
    """Equal, or numbers equal to the last printed digit or so.

    The README's model is a least-squares fit; the last of ten printed digits
    can differ between BLAS builds, so numbers compare at rtol 1e-9.
    """
    if shown == printed:
        return True
    try:
        a, b = float(shown), float(printed)
    except ValueError:
        return False
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def _appears(shown: list[str], printed: list[str]) -> bool:
    width = len(shown)
    return any(
        all(_same_token(s, p) for s, p in zip(shown, printed[start:start + width]))
        for start in range(len(printed) - width + 1)
    )


def test_readme_has_the_usage_and_pipeline_examples():
    blocks = _python_blocks()
    assert len(blocks) >= 3
    assert any("pyale.ALEPlot(" in b for b in blocks)
    assert any("make_pipeline(" in b and "pyale.ale(" in b for b in blocks)


def test_readme_python_blocks_run_in_order(tmp_path, monkeypatch, capsys):
    pytest.importorskip("sklearn")
    pytest.importorskip("statsmodels")
    import matplotlib

    matplotlib.use("Agg")
    monkeypatch.chdir(tmp_path)
    namespace: dict = {}
    for block in _python_blocks():
        exec(compile(block, str(README), "exec"), namespace)  # noqa: S102 - our own README
    printed = capsys.readouterr().out
    # The numbers the README shows as comments are what the code prints.
    printed_words = _tokens(printed)
    shown = [line for line in re.findall(r"^# (.+)$", _python_blocks()[0], flags=re.M) if re.search(r"\d\.\d", line)]
    assert len(shown) >= 3
    for line in shown:
        assert _appears(_tokens(line), printed_words), f"{line!r} not printed; printed:\n{printed}"
    assert (tmp_path / "ale_value.png").stat().st_size > 1000
    assert (tmp_path / "ale_value_capital.png").stat().st_size > 1000
    assert (tmp_path / "grunfeld_effects.png").stat().st_size > 1000
    assert (tmp_path / "wine_classes.png").stat().st_size > 1000
    assert "True" in printed
    import matplotlib.pyplot as plt

    plt.close("all")


def test_readme_examples_need_only_the_examples_extra():
    # The README installs `pip install ".[examples]"`; every library its Python blocks import comes with it.
    import ast
    import sys

    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((README.parent / "pyproject.toml").read_text())["project"]
    installed = {re.split(r"[<>=!~\[ ;]", spec)[0].lower() for spec in
                 project["dependencies"] + project["optional-dependencies"]["examples"]}
    distribution = {"sklearn": "scikit-learn", "pyale": "pyale-r"}
    imported = set()
    for block in _python_blocks():
        for node in ast.walk(ast.parse(block)):
            if isinstance(node, ast.Import):
                imported.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                imported.add(node.module.split(".")[0])
    needed = {distribution.get(name, name) for name in imported if name not in sys.stdlib_module_names}
    assert {"scikit-learn", "polars", "statsmodels"} <= needed
    assert needed - installed - {"pyale-r"} == set()
    assert "narwhals" in installed  # pyale reads a polars frame through narwhals
    assert 'pip install ".[examples]"' in README.read_text()
