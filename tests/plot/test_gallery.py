"""Every gallery example's figures pass the display checks: no text cut, no tick labels running together.

Each example in examples/ is run as sphinx-gallery runs it (its source, as
``__main__``), with the slowest numbers made smaller where the figures do
not depend on them (bootstrap replicates, rows of the Dask example), and
each figure it leaves is checked.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from matplotlib.text import Text  # noqa: E402

from test_display import assert_no_overlapping_ticks, assert_no_text_cut  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

FASTER = {  # text replaced in an example's source: fewer replicates or rows, the same figures
    "plot_uncertainty.py": [("n_bootstrap=300", "n_bootstrap=20"), ("n_bootstrap=15", "n_bootstrap=2")],
    "plot_dask.py": [("n = 200_000", "n = 40_000")],
}


@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("plot_*.py")))
def test_example_figures_show_every_text_whole(name, capsys):
    pytest.importorskip("sklearn")
    if name == "plot_dask.py":
        pytest.importorskip("dask.dataframe")
    source = (EXAMPLES / name).read_text(encoding="utf-8")
    for old, new in FASTER.get(name, []):
        assert old in source, f"{name} no longer contains {old!r}: update FASTER"
        source = source.replace(old, new)
    plt.close("all")
    with matplotlib.rc_context():
        exec(compile(source, str(EXAMPLES / name), "exec"), {"__name__": "__main__", "__file__": str(EXAMPLES / name)})
        try:
            figures = [plt.figure(number) for number in plt.get_fignums()]
            assert figures, f"{name} draws no figure"
            for figure in figures:
                if any(t.get_visible() and t.get_text().strip() for t in figure.findobj(Text)):
                    assert_no_text_cut(figure)
                    assert_no_overlapping_ticks(figure)
        finally:
            plt.close("all")
