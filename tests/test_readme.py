"""The README's Python examples run as written, and their printed numbers are the ones shown."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


def _python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


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
    printed_words = " ".join(printed.split())
    shown = [line for line in re.findall(r"^# (.+)$", _python_blocks()[0], flags=re.M) if re.search(r"\d\.\d", line)]
    assert len(shown) >= 3
    for line in shown:
        assert " ".join(line.split()) in printed_words, line
    assert (tmp_path / "ale_value.png").stat().st_size > 1000
    assert (tmp_path / "ale_value_capital.png").stat().st_size > 1000
    import matplotlib.pyplot as plt

    plt.close("all")
