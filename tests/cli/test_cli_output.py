"""The ``--out`` folder of every writing subcommand (pyale/_cli/output.py): staged, refused, replaced whole.

A run writes into a new folder beside ``--out`` and moves it into place only
when complete; a non-empty ``--out`` is refused unless ``--overwrite``; an
error or Ctrl-C leaves the earlier results byte for byte as they were.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest

from pyale._cli import command as _command
from pyale._cli import output as _output
from pyale._cli import run as _run_module
from pyale._cli import validate as _validate
from pyale._cli.inputs import CommandError
from pyale._cli.output import staged_output
from test_cli import grunfeld, run_inputs, run_main  # noqa: F401 - fixtures


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` by relative path, with its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def leftovers(parent: Path) -> list[str]:
    """Staging or set-aside folders left beside the results."""
    return sorted(p.name for p in parent.iterdir() if ".pyale-" in p.name)


def manifest_lists_the_folder(out: Path) -> None:
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert {p.name for p in out.iterdir()} == {*manifest["files"], "manifest.json"}
    assert len(manifest["files"]) == len(set(manifest["files"]))


def run_argv(inputs: Path, out, *features: str, extra=()) -> list:
    return ["run", "--data", inputs / "grunfeld.csv", "--model", inputs / "pipeline.pkl",
            "--features", *(features or ("value",)), "--intervals", "4", "--out", out, *extra]


@pytest.fixture
def first_run(run_inputs, tmp_path):  # noqa: F811
    """A completed ``pyale run`` in ``tmp_path / "out"`` and its files' bytes."""
    out = tmp_path / "out"
    code, _, stderr = run_main(run_argv(run_inputs, out, "value", "firm"))
    assert code == 0, stderr
    return out, snapshot(out)


# ---------------------------------------------------------------- refusals


def test_run_refuses_a_non_empty_out_and_leaves_it_unchanged(run_inputs, first_run):  # noqa: F811
    out, before = first_run
    code, _, stderr = run_main(run_argv(run_inputs, out, "capital"))
    assert code == 2
    assert f"--out {str(out)!r} is not empty (it holds 'ale_firm.csv' and 8 more)" in stderr
    assert "--overwrite" in stderr
    assert snapshot(out) == before
    assert leftovers(out.parent) == []


@pytest.mark.parametrize("command", ["run", "validate"])
def test_a_non_empty_out_is_refused_before_any_work(tmp_path, monkeypatch, command):
    monkeypatch.setattr(_validate, "r_problem", lambda conventions: None)
    out = tmp_path / "out"
    out.mkdir()
    (out / "ale_x.csv").write_text("earlier")
    code, _, stderr = run_main([command, "--data", tmp_path / "missing.csv", "--model", tmp_path / "missing.pkl",
                                "--features", "x", "--out", out])
    assert code == 2
    assert f"--out {str(out)!r} is not empty (it holds 'ale_x.csv'); results are written to a new or empty " \
           "folder only, so that two runs never mix. Add --overwrite to replace that folder whole, or choose " \
           "another --out." in stderr
    assert "no such file" not in stderr
    assert snapshot(out) == {"ale_x.csv": b"earlier"}


def test_the_first_run_manifest_lists_exactly_its_files(first_run):
    manifest_lists_the_folder(first_run[0])


OUT_REFUSALS = [
    ("demo", ["demo", "--out", ""]),
    ("run", ["run", "--data", "d.csv", "--model", "m.pkl", "--features", "x", "--out", ""]),
    ("validate", ["validate", "--data", "d.csv", "--model", "m.pkl", "--features", "x", "--out", " "]),
]


@pytest.mark.parametrize(("command", "argv"), OUT_REFUSALS, ids=[c for c, _ in OUT_REFUSALS])
def test_empty_out_is_refused_and_the_current_folder_untouched(tmp_path, monkeypatch, command, argv):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "summary.md").write_text("mine")
    code, _, stderr = run_main(argv)
    assert code == 2
    assert f"argument --out: must name a folder, got {argv[-1]!r}" in stderr
    assert snapshot(tmp_path) == {"summary.md": b"mine"}


def test_out_that_is_or_holds_the_current_folder_is_refused_even_with_overwrite(run_inputs, first_run,  # noqa: F811
                                                                                monkeypatch):
    out, before = first_run
    (out / "work").mkdir()
    monkeypatch.chdir(out / "work")
    for given in (out, Path("..")):
        code, _, stderr = run_main(run_argv(run_inputs, given, extra=["--overwrite"]))
        assert code == 2
        assert f"--out {str(given)!r} is the current directory or holds it" in stderr
    assert snapshot(out) == before


def test_out_that_holds_the_data_is_refused_even_with_overwrite(run_inputs, tmp_path):  # noqa: F811
    folder = tmp_path / "project"
    folder.mkdir()
    data = folder / "grunfeld.csv"
    data.write_bytes((run_inputs / "grunfeld.csv").read_bytes())
    code, _, stderr = run_main(["run", "--data", data, "--model", run_inputs / "pipeline.pkl", "--features", "value",
                                "--out", folder, "--overwrite"])
    assert code == 2
    assert f"--out {str(folder)!r} holds the --data file {str(data)!r}" in stderr
    assert data.read_bytes() == (run_inputs / "grunfeld.csv").read_bytes()


# ---------------------------------------------------------------- --overwrite


def test_overwrite_replaces_the_folder_whole(run_inputs, first_run):  # noqa: F811
    out, before = first_run
    (out / "notes.txt").write_text("a file of the user's")
    code, stdout, stderr = run_main(run_argv(run_inputs, out, "capital", extra=["--overwrite"]))
    assert code == 0, stderr
    after = snapshot(out)
    assert set(after) == {"ale_capital.csv", "stats_capital.csv", "ale_capital.png", "summary.md",
                          "effects.html", "manifest.json"}
    manifest_lists_the_folder(out)
    assert leftovers(out.parent) == []
    assert f"Wrote 6 files to {out.resolve()}" in stdout


def test_a_failed_swap_puts_the_earlier_results_back(run_inputs, first_run, monkeypatch):  # noqa: F811
    out, before = first_run
    rename = os.rename

    def failing_rename(source, target):
        if ".pyale-new-" in str(source):
            raise PermissionError(13, "Permission denied (test)", str(target))
        rename(source, target)

    monkeypatch.setattr(_output.os, "rename", failing_rename)
    code, _, stderr = run_main(run_argv(run_inputs, out, "capital", extra=["--overwrite"]))
    assert code == 1
    assert f"the results could not be written, and --out {str(out)!r} was left as it was" in stderr
    assert snapshot(out) == before
    assert leftovers(out.parent) == []


# ---------------------------------------------------------------- failures while writing


@pytest.mark.parametrize("overwrite", [[], ["--overwrite"]], ids=["refused-anyway", "overwrite"])
@pytest.mark.parametrize("failure", [OSError(28, "No space left on device (test)"), KeyboardInterrupt()],
                         ids=["write-error", "ctrl-c"])
def test_run_failing_midway_leaves_the_earlier_results_byte_for_byte(run_inputs, first_run, monkeypatch,  # noqa: F811
                                                                      failure, overwrite):
    out, before = first_run

    def failing_page(path, *args, **kwargs):
        assert (path.parent / "summary.md").is_file()  # the CSVs, plots and summary are written by now
        raise failure

    monkeypatch.setattr(_run_module, "write_page", failing_page)
    code, _, stderr = run_main(run_argv(run_inputs, out, "value", "firm", "capital", extra=overwrite))
    if not overwrite:
        assert code == 2 and "is not empty" in stderr
    elif isinstance(failure, KeyboardInterrupt):
        assert code == 130 and "pyale run: error: interrupted" in stderr
    else:
        assert code == 1 and "No space left on device (test)" in stderr
        assert f"--out {str(out)!r} was left as it was" in stderr
    assert snapshot(out) == before
    assert leftovers(out.parent) == []


@pytest.mark.parametrize("failure", [OSError(28, "No space left on device (test)"), KeyboardInterrupt()],
                         ids=["write-error", "ctrl-c"])
def test_a_first_run_failing_midway_leaves_no_folder(run_inputs, tmp_path, monkeypatch, failure):  # noqa: F811
    def failing_manifest(*args, **kwargs):
        raise failure

    monkeypatch.setattr(_run_module, "_manifest", failing_manifest)
    code, _, _ = run_main(run_argv(run_inputs, tmp_path / "out"))
    assert code == (130 if isinstance(failure, KeyboardInterrupt) else 1)
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- demo


def test_demo_follows_the_same_rules(tmp_path, monkeypatch):
    pytest.importorskip("statsmodels")
    out = tmp_path / "demo-out"
    code, _, stderr = run_main(["demo", "--out", out])
    assert code == 0, stderr
    before = snapshot(out)
    assert len(before) == 8

    code, _, stderr = run_main(["demo", "--out", out])
    assert code == 2 and f"--out {str(out)!r} is not empty" in stderr and "--overwrite" in stderr
    assert snapshot(out) == before

    write, calls = _command._write, []

    def interrupted_write(*args, **kwargs):
        calls.append(args[1])
        if len(calls) == 3:
            raise KeyboardInterrupt
        return write(*args, **kwargs)

    monkeypatch.setattr(_command, "_write", interrupted_write)
    code, _, stderr = run_main(["demo", "--out", out, "--overwrite"])
    assert code == 130 and len(calls) == 3
    assert snapshot(out) == before
    assert leftovers(tmp_path) == []

    (out / "ale_value.csv").write_text("edited")
    monkeypatch.setattr(_command, "_write", write)
    code, stdout, stderr = run_main(["demo", "--out", out, "--overwrite"])
    assert code == 0, stderr
    assert snapshot(out) == before  # the same eight files, the edit replaced
    assert str(out / "ale_value.csv") in stdout
    assert leftovers(tmp_path) == []


# ---------------------------------------------------------------- validate (R's side replaced)


def _fake_compare(side, predict, feature, K):
    """What a comparison with R gives, without R: pyale's effect against itself."""
    table = pd.DataFrame({feature: [0.0, 1.0], "r": [0.5, -0.5], "pyale": [0.5, -0.5], "difference": [0.0, 0.0]})
    return _validate.Comparison("aleplot", repr(feature), "ALEPlot(...)", "pyale.ALEPlot(...)", table,
                                max_abs=0.0, max_rel=0.0, atol=1e-10, within=True, features=(feature,))


@pytest.fixture
def fake_r(monkeypatch):
    monkeypatch.setattr(_validate, "r_problem", lambda conventions: None)
    monkeypatch.setattr(_validate, "RSide", lambda *args: SimpleNamespace(setup="library(ALEPlot)"))
    monkeypatch.setattr(_validate, "COMPARE", {"aleplot": _fake_compare})
    monkeypatch.setattr(_validate, "report_context", lambda *args, **kwargs: {
        "inputs": {"data": "d.csv"}, "versions": {"R": "test"}, "r_setup": "", "python_setup": "",
        "command": "pyale validate ...", "model_note": ""})


def validate_argv(inputs: Path, out, *extra) -> list:
    return ["validate", "--data", inputs / "grunfeld.csv", "--model", inputs / "ols.pkl", "--features", "value",
            "capital", "--drop", "invest", "year", "--conventions", "aleplot", "--out", out, *extra]


def test_validate_stages_its_report_and_refuses_a_non_empty_out(run_inputs, tmp_path, fake_r,  # noqa: F811
                                                                monkeypatch):
    out = tmp_path / "report"
    code, stdout, stderr = run_main(validate_argv(run_inputs, out))
    assert code == 0, stderr
    manifest_lists_the_folder(out)
    assert {"report.md", "report.html", "aleplot_value.csv", "aleplot_capital.png"} <= {p.name for p in out.iterdir()}
    before = snapshot(out)

    code, _, stderr = run_main(validate_argv(run_inputs, out))
    assert code == 2 and f"--out {str(out)!r} is not empty" in stderr
    assert snapshot(out) == before

    def failing_compare(side, predict, feature, K):
        if feature == "capital":  # the first effect's files are written by now
            raise KeyboardInterrupt
        return _fake_compare(side, predict, feature, K)

    monkeypatch.setattr(_validate, "COMPARE", {"aleplot": failing_compare})
    code, _, stderr = run_main(validate_argv(run_inputs, out, "--overwrite"))
    assert code == 130
    assert snapshot(out) == before
    assert leftovers(tmp_path) == []


# ---------------------------------------------------------------- the helper itself


def test_staged_output_refuses_what_appeared_in_out_while_the_job_ran(tmp_path):
    out = tmp_path / "out"
    with pytest.raises(CommandError, match=re.escape(f"--out {str(out)!r} is not empty")):
        with staged_output(out, overwrite=False) as folder:
            (folder / "a.csv").write_text("new")
            out.mkdir()
            (out / "b.csv").write_text("someone else's")
    assert snapshot(out) == {"b.csv": b"someone else's"}
    assert leftovers(tmp_path) == []


def test_staged_output_fills_an_empty_folder_and_follows_a_link(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    with staged_output(empty, overwrite=False) as folder:
        (folder / "a.csv").write_text("new")
    assert snapshot(empty) == {"a.csv": b"new"}

    link = tmp_path / "link"
    link.symlink_to(empty, target_is_directory=True)
    with staged_output(link, overwrite=True) as folder:
        (folder / "b.csv").write_text("newer")
    assert link.is_symlink() and snapshot(link) == {"b.csv": b"newer"}
    assert leftovers(tmp_path) == []
