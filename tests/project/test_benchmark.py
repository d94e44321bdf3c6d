"""benchmarks/bench_ale.py runs end to end on a small task and rewrites only its results section."""

from __future__ import annotations

import os
import platform
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import bench_ale  # noqa: E402
from subprocess_env import child_env  # noqa: E402


def test_shifted_frames_move_rows_to_their_interval_edges_and_keep_the_layout():
    rng = np.random.default_rng(0)
    X = pd.DataFrame({f"x{j}": rng.normal(size=500) for j in range(3)})
    lower, upper = bench_ale.shifted_frames(X, ["x1"])
    edges, _ = bench_ale._edges_and_bins(X["x1"].to_numpy())
    assert np.isin(lower["x1"], edges).all() and np.isin(upper["x1"], edges).all()
    assert (lower["x1"] <= X["x1"]).all() and (upper["x1"] >= X["x1"]).all()
    pd.testing.assert_frame_equal(lower.drop(columns="x1"), X.drop(columns="x1"))
    assert lower._mgr.nblocks == X._mgr.nblocks == 1  # the bare predictions pay what ALE's do
    corners = bench_ale.shifted_frames(X, ["x0", "x2"])
    assert len(corners) == 4


def test_benchmark_writes_its_results_section(tmp_path, monkeypatch):
    pytest.importorskip("sklearn")
    child = child_env()  # the script re-runs itself in a child Python (the allocator pinned)
    for name in set(os.environ) - set(child):
        monkeypatch.delenv(name)
    for name, value in child.items():
        monkeypatch.setenv(name, value)
    out = tmp_path / "performance.md"
    out.write_text(f"# Title\n\nkept above\n\n{bench_ale.BEGIN}\nstale results\n{bench_ale.END}\n\nkept below\n")
    assert bench_ale.main(["--n", "3000", "--realistic-n", "2000", "--repeats", "1", "--no-r",
                           "--no-packages", "--out", str(out)]) == 0
    text = out.read_text()
    assert text.startswith("# Title\n\nkept above\n") and text.rstrip().endswith("kept below")
    assert "stale results" not in text
    for what in ("pyale.ALEPlot, 5 features one at a time", "pyale.FeatureEffect (iml), pair ('x0', 'x1')",
                 "pyale.ALEPlot, max_rows_per_call=300", "HistGradientBoostingRegressor, n=2,000"):
        assert what in text, what
    # On Linux with glibc the run happens in a process with the allocator's thresholds pinned, and says so.
    pinned = platform.system() == "Linux" and platform.libc_ver()[0] == "glibc"
    assert ("Allocator: glibc's large-allocation thresholds pinned" in text) == pinned
    assert ("Allocator: the platform's own settings." in text) == (not pinned)


def test_bounded_benchmark_runs_small_and_writes_its_section(tmp_path):
    import bench_bounded

    out = tmp_path / "performance.md"
    out.write_text(f"# Title\n\nkept above\n\n{bench_bounded.BEGIN}\nold\n{bench_bounded.END}\n\nkept below\n")
    cases = ["categorical", "long-text", "pair-aleplot", "huge-aleplot-12", "huge-pdplot-8"]
    assert bench_bounded.main(["--scale", "0.02", "--only", *cases, "--out", str(out)]) == 0
    text = out.read_text()
    assert text.startswith("# Title\n\nkept above\n") and text.rstrip().endswith("kept below")
    assert "old" not in text
    for what in ("ALEPlot, K = 10**12, 100 rows", "The 'K' parameter of PDPlot is 100000000",
                 "2,000-character strings", "ALEPlot, K = 40 x 40"):
        assert what in text, what
    # A file without the section gets it appended, the rest kept.
    fresh = tmp_path / "fresh.md"
    fresh.write_text("# Performance\n\nexisting\n")
    assert bench_bounded.main(["--scale", "0.02", "--only", "huge-ale-12", "--out", str(fresh)]) == 0
    text = fresh.read_text()
    assert text.startswith("# Performance\n\nexisting\n") and "## Bounded cost" in text
    assert text.count(bench_bounded.BEGIN) == 1 and "ale, K = 10**12" in text


def test_uncertainty_benchmark_writes_its_section(tmp_path):
    pytest.importorskip("sklearn")
    import bench_uncertainty

    out = tmp_path / "performance.md"
    out.write_text("# Title\n\nkept\n")
    assert bench_uncertainty.main(["--n", "800", "--replicates", "20", "--repeats", "1", "--out", str(out)]) == 0
    text = out.read_text()
    assert text.startswith("# Title\n\nkept\n") and bench_uncertainty.BEGIN in text and bench_uncertainty.END in text
    assert "| with `n_bootstrap=20` |" in text
    first = text
    assert bench_uncertainty.main(["--n", "800", "--replicates", "20", "--repeats", "1", "--out", str(out)]) == 0
    assert out.read_text().count(bench_uncertainty.BEGIN) == 1 and len(out.read_text()) > len(first) - 200


def test_bootstrap_benchmark_writes_its_section_without_r(tmp_path):
    import bench_bootstrap

    out = tmp_path / "performance.md"
    out.write_text("# Performance\n\nexisting\n")
    assert bench_bootstrap.main(["--quick", "--no-r", "--repeats", "1", "--out", str(out)]) == 0
    text = out.read_text()
    assert text.startswith("# Performance\n\nexisting\n") and "## R's ale package: bootstrap" in text
    assert "| 300 rows, x1, g, boot_it = 10 | not run |" in text
    # rerun: the section is replaced, not appended
    assert bench_bootstrap.main(["--quick", "--no-r", "--repeats", "1", "--out", str(out)]) == 0
    assert out.read_text().count(bench_bootstrap.BEGIN) == 1


@pytest.mark.r
def test_bootstrap_benchmark_against_r(R, tmp_path):
    import os

    import bench_bootstrap

    library = Path(os.environ.get("ALE_R_LIB", "~/Rlib-ale")).expanduser()
    if not (library / "ale").is_dir():
        pytest.skip(f"R's ale is not installed in {library}")
    out = tmp_path / "performance.md"
    assert bench_bootstrap.main(["--quick", "--repeats", "1", "--out", str(out)]) == 0
    rows = [line for line in out.read_text().splitlines() if line.startswith("| 300 rows") or
            line.startswith("| 400 rows")]
    assert len(rows) == 2
    for row in rows:
        assert float(row.rstrip(" |").split("|")[-1]) < 1e-9, row  # R and pyale agree
