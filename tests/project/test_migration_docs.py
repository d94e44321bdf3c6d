"""docs/migrating-from-r.md: its generated proof table, its example scripts and their outputs.

The document is written by scripts/make_migration_table.py (R needed).  Without R
these tests check that it is complete and fresh: one row per call the script
lists, every row a match, the scripts shown as they are on disk, and the Python
twin still printing the numbers R printed (rtol 1e-10).  With R (marker ``r``)
migration.R is run by Rscript and compared with migration.py, and every call of
the table is run again in R and in pyale.
"""

from __future__ import annotations

import math
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from numpy.testing import assert_allclose

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import make_migration_table as generator  # noqa: E402
from subprocess_env import child_env  # noqa: E402

DOC = ROOT / "docs" / "migrating-from-r.md"
EXAMPLES = ROOT / "docs" / "examples"


def _block(name: str) -> str:
    text = DOC.read_text()
    match = re.search(rf"<!-- BEGIN GENERATED: {name} -->\n(.*?)<!-- END GENERATED: {name} -->", text, re.S)
    assert match, f"docs/migrating-from-r.md has no generated '{name}' block"
    return match.group(1)


def _table_rows() -> list[dict]:
    rows = []
    for line in _block("table").splitlines()[2:]:
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        assert len(cells) == 6, line
        r_call, py_call, n_cells, max_abs, max_rel, verdict = cells
        rows.append({"r": r_call.strip("`"), "py": py_call.strip("`"), "cells": int(n_cells),
                     "max_abs": float(max_abs), "max_rel": float(max_rel), "match": verdict})
    return rows


def _doc_outputs(side: str) -> list[str]:
    """The output of one script as the document shows it, section by section."""
    found = re.findall(rf"<!-- {side} output: (.*?) -->\n\n```text\n(.*?)```", _block("example"), re.S)
    assert found, f"no {side} output in the document"
    lines = []
    for title, body in found:
        lines += [f"== {title}", *body.rstrip("\n").split("\n")]
    return lines


def _run_python_twin() -> list[str]:
    done = subprocess.run([sys.executable, str(EXAMPLES / "migration.py")], capture_output=True, text=True,
                          check=True, timeout=300, env=child_env())
    return done.stdout.splitlines()


def _is_number(cell: str) -> bool:
    if cell == "NA":
        return True
    try:
        float(cell)
    except ValueError:
        return False
    return True


def assert_same_tables(actual: list[str], expected: list[str], label: str) -> None:
    """Printed tables equal: titles, headers and labels exactly, numbers to rtol 1e-10.

    Numbers carry an absolute floor of 1e-10 times the range of the expected
    column, as the proof table does, so values that are 0 up to rounding compare.
    """
    got, want = generator._sections(actual), generator._sections(expected)
    assert [t for t, _ in got] == [t for t, _ in want], f"{label}: section titles differ"
    for (title, got_rows), (_, want_rows) in zip(got, want):
        where = f"{label}, {title!r}"
        assert got_rows[0] == want_rows[0], f"{where}: header"
        assert len(got_rows) == len(want_rows), f"{where}: {len(got_rows)} lines, expected {len(want_rows)}"
        got_cells = [row.split(",") for row in got_rows[1:]]
        want_cells = [row.split(",") for row in want_rows[1:]]
        assert [len(r) for r in got_cells] == [len(r) for r in want_cells], where
        for j, name in enumerate(want_rows[0].split(",")):
            g = [row[j] for row in got_cells]
            w = [row[j] for row in want_cells]
            if all(_is_number(c) for c in w):
                w_num = np.array([math.nan if c == "NA" else float(c) for c in w])
                g_num = np.array([math.nan if c == "NA" else float(c) for c in g])
                finite = w_num[np.isfinite(w_num)]
                span = float(np.ptp(finite)) if finite.size else 0.0
                assert_allclose(g_num, w_num, rtol=1e-10, atol=1e-10 * max(1.0, span),
                                err_msg=f"{where}: column {name!r}")
            else:
                assert g == w, f"{where}: column {name!r}"


# ---------------------------------------------------------------- the proof table (no R)
def test_table_has_one_row_per_call_in_the_script():
    rows = _table_rows()
    assert [(row["r"], row["py"]) for row in rows] == [(c.r, c.py) for c in generator.CASES], (
        "the table is stale: rerun python scripts/make_migration_table.py"
    )


def test_every_row_of_the_table_matches():
    rows = _table_rows()
    failed = [f"{row['py']}: {row['match']}" for row in rows if row["match"] != "yes"]
    assert not failed, failed
    for row in rows:
        assert row["cells"] > 0, row["py"]
        assert math.isfinite(row["max_abs"]) and math.isfinite(row["max_rel"]), row["py"]


@pytest.mark.parametrize("entry", [
    "ALEPlot(X, NULL, pred.fun, J = ",                # ALEPlot one feature and pairs
    "PDPlot(X, NULL, pred.fun, J = c(",               # PDPlot pair
    '"ice"', '"pdp+ice"', 'method = "pdp"',           # iml PDP / ICE
    "FeatureEffects$new(", "class = ", "classifier",  # FeatureEffects, class probabilities
])
def test_table_covers_each_kind_of_call(entry):
    assert any(entry in case.r for case in generator.CASES), entry


@pytest.mark.parametrize("conventions", ["aleplot", "iml"])
def test_table_covers_ale_under_both_conventions(conventions):
    calls = [c.py for c in generator.CASES if c.py.startswith("pyale.ale(")]
    ours = [c for c in calls if ('conventions="iml"' in c) == (conventions == "iml")]
    assert any(", X, (" in c for c in ours), f"no pair under {conventions}"
    assert len(ours) >= 3


@pytest.mark.parametrize("entry", [
    'get(ALE(NULL, "Wind"',                          # numeric
    'get(ALE(NULL, "Month"',                         # categorical (MDS order, backward differences)
    '"Wind:Temp"', '"Month:Temp"',                   # 2-D terms
    "boot_it = 50, seed = 7",                        # bootstrap bands with R's resamples
    'stats = "estimate"', 'stats = "all"',           # statistics tables
    "pred_fun = pf_class",                           # one table per class
    'ale_centre = "zero"',                           # pyale.ale(conventions="ale")
])
def test_table_covers_the_ale_package(entry):
    assert any(entry in case.r for case in generator.CASES), entry


def test_table_covers_ale_conventions_in_the_pythonic_door():
    calls = [c.py for c in generator.CASES if 'conventions="ale"' in c.py]
    assert len(calls) >= 3 and any(", X, (" in c for c in calls)


def test_document_shows_the_ale_setup_as_run():
    block = _block("ale-setup")
    assert re.findall(r"```r\n(.*?)```", block, re.S) == [generator.ALE_R_SETUP]
    assert re.findall(r"```python\n(.*?)```", block, re.S) == [generator.ALE_PY_SETUP]


def test_versions_and_data_are_recorded():
    block = _block("versions")
    assert re.search(r"^- R: R version \d+\.\d+\.\d+", block, re.M)
    assert "ALEPlot 1.1" in block and "iml 0.11.4" in block and "ale 0.5.0" in block
    assert re.search(r"^- Data: X identical in R and Python \(\d+ cells", block, re.M)
    assert re.search(r"^- Generated: \d{4}-\d{2}-\d{2}", block, re.M)


def test_the_comparison_can_fail():
    """The generator's comparison flags a difference just above the tolerance, and a relabelled level."""
    import pandas as pd

    frame = pd.DataFrame({".type": ["ale"] * 3, ".value": [-1.0, 0.5, 2.0],
                          "g": pd.Categorical(["a", "b", "c"], categories=["a", "b", "c"])})
    r_answer = generator._py_frame(frame)
    assert generator.compare(r_answer, frame).match
    nudged = frame.assign(**{".value": [-1.0, 0.5, 2.0 * (1 + 5e-10)]})
    out = generator.compare(r_answer, nudged)
    assert not out.match and out.max_rel == pytest.approx(5e-10, rel=1e-3)
    relabelled = frame.assign(g=pd.Categorical(["a", "c", "b"], categories=["a", "c", "b"]))
    assert not generator.compare(r_answer, relabelled).match


# ---------------------------------------------------------------- the example scripts (no R)
@pytest.mark.parametrize("fence, path", [("r", "migration.R"), ("python", "migration.py")])
def test_document_shows_the_scripts_as_they_are(fence, path):
    shown = re.findall(rf"```{fence}\n(.*?)```", _block("example"), re.S)
    assert shown == [(EXAMPLES / path).read_text()], f"{path} changed: rerun scripts/make_migration_table.py"


def test_document_r_and_python_outputs_agree():
    assert_same_tables(_doc_outputs("Python"), _doc_outputs("R"), "document, Python against R")


def test_python_twin_prints_the_tables_r_printed():
    printed = _run_python_twin()
    assert_same_tables(printed, _doc_outputs("R"), "migration.py against R's output in the document")
    assert_same_tables(printed, _doc_outputs("Python"), "migration.py against its output in the document")


def test_example_data_are_the_r_data_set():
    import pandas as pd

    aq = pd.read_csv(EXAMPLES / "airquality.csv")
    assert list(aq.columns) == ["Ozone", "Solar.R", "Wind", "Temp", "Month", "Day"]
    assert aq.shape == (111, 6) and not aq.isna().any().any()   # na.omit(airquality)
    assert aq.dtypes.drop("Wind").map(pd.api.types.is_integer_dtype).all()


# ---------------------------------------------------------------- live: R itself
def _rscript(R) -> str:
    home = str(R("R.home('bin')")[0])
    for candidate in (Path(home) / "Rscript", shutil.which("Rscript")):
        if candidate and Path(candidate).is_file():
            return str(candidate)
    pytest.skip("Rscript was not found next to R")


@pytest.mark.r
def test_migration_R_prints_what_migration_py_prints(R):
    R.require("ALEPlot", "iml")
    done = subprocess.run([_rscript(R), str(EXAMPLES / "migration.R")], capture_output=True, text=True,
                          timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    r_lines = done.stdout.splitlines()
    assert_same_tables(_run_python_twin(), r_lines, "migration.py against Rscript migration.R")
    assert_same_tables(_doc_outputs("R"), r_lines, "R's output in the document against Rscript migration.R")


@pytest.mark.r
def test_every_call_of_the_table_still_matches_live(R):
    R.require("ALEPlot", "iml", "data.table", "yaImpute")
    library = Path(generator.ale_library())
    if not (library / "ale").is_dir():
        pytest.skip(f"R's ale is not installed in {library} (set ALE_R_LIB)")
    answers, _ = generator.ale_answers(generator.CASES, env=child_env())
    ro = generator._start_r()
    _, _, namespace = generator._run_scripts(ro)
    exec(generator.ALE_PY_SETUP, namespace)  # noqa: S102 - the generator's own setup code
    failed = []
    for case in generator.CASES:
        out = generator.run_case(ro, case, namespace, answers.get(case.r) if generator.is_ale(case) else None)
        if not out.match:
            failed.append(f"{case.py}: {out.problems}")
    assert not failed, failed
