"""pyale's layers hold: the import-linter contracts in pyproject.toml are kept, and they bite.

``.ci/run`` runs ``lint-imports`` too; these tests make a broken layer fail
the test suite locally as well.  See docs/architecture.md, "Layers and their
contract".
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from subprocess_env import child_env

pytest.importorskip(
    "importlinter", reason="import-linter (pyale's `test` extra) is not installed: the layer contracts are unchecked"
)

import pyale  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
PACKAGE = Path(pyale.__file__).resolve().parent

_LINT = (
    "import sys\n"
    "from importlinter.cli import lint_imports\n"
    "sys.exit(lint_imports(config_filename=sys.argv[1], no_cache=True, no_logo=True))\n"
)


def _lint(root: Path, config: Path) -> subprocess.CompletedProcess:
    """``lint-imports`` on the ``pyale`` found in ``root``, with the contracts of ``config``."""
    env = {**child_env(), "COLUMNS": "200"}  # a report's lines unwrapped
    return subprocess.run([sys.executable, "-c", _LINT, str(config)], cwd=root, env=env, capture_output=True,
                          text=True, timeout=300)


def test_layer_contracts_are_kept():
    result = _lint(PACKAGE.parent, REPO / "pyproject.toml")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


# A change that breaks a layer, and what lint-imports answers.
BREAKS = [
    # the core imports a front-end: an import that climbs, even inside a function
    ("_core/grid/edges.py", "\n\ndef _climb():\n    from ..._frontends.ale.api import ale\n",
     "pyale._core is not allowed to import pyale._frontends"),
    # a result imports plotting (plotting imports results, never the reverse)
    ("_results/ale.py", "\nfrom .._plot import display\n", "pyale._results is not allowed to import pyale._plot"),
    # R-exact blocks import the engines
    ("_rbase/pretty.py", "\nfrom .._engines import base\n", "pyale._rbase is not allowed to import pyale._engines"),
    # an engine imports the exact statistics built on the engines
    ("_engines/dask.py", "\nfrom .._core.exact import selection\n", "pyale._engines is not allowed to import pyale._core"),
    # one engine imports another (engines are plug-ins)
    ("_engines/polars.py", "\nfrom . import dask\n", "pyale._engines.polars is not allowed to import pyale._engines.dask"),
    # an earlier stage of the core imports a later one (the grid imports the map stage)
    ("_core/grid/levels.py", "\nfrom ..map import local\n", "pyale._core.grid is not allowed to import pyale._core.map"),
    # a stage imports the conventions it serves
    ("_core/reduce/accumulate.py", "\nfrom .. import conventions\n",
     "pyale._core.reduce is not allowed to import pyale._core.conventions"),
    # two modules of one stage import each other
    ("_core/map/shifted.py", "\nfrom . import calls\n", "No cycles are allowed in pyale._core.map"),
    # one R-shaped front-end imports another
    ("_frontends/iml/tables.py", "\nfrom .. import aleplot\n",
     "pyale._frontends.iml is not allowed to import pyale._frontends.aleplot"),
    # the computation draws
    ("_core/exact/columns.py", "\nimport matplotlib\n", "pyale._core is not allowed to import matplotlib"),
    # a module of pyale without a layer, and a module of the core without a stage
    ("_unplaced.py", "", "The following modules are not listed as layers"),
    ("_core/unplaced.py", "", "The following modules are not listed as layers"),
]


@pytest.mark.parametrize(("path", "addition", "message"), BREAKS, ids=[b[0] for b in BREAKS])
def test_a_broken_layer_fails(tmp_path, path, addition, message):
    shutil.copytree(PACKAGE, tmp_path / "pyale", ignore=shutil.ignore_patterns("__pycache__", "data"))
    target = tmp_path / "pyale" / path
    target.write_text((target.read_text() if target.exists() else "") + addition)
    result = _lint(tmp_path, REPO / "pyproject.toml")
    assert result.returncode != 0, result.stdout
    assert message in result.stdout, result.stdout + result.stderr
