"""The conventions are objects behind one interface, and the estimator core has no import cycle.

The core's stages call a plan's convention (grid, map, reduce) and never ask
which package it serves; each convention lives in one module of
``pyale._core.conventions`` and imports the core pieces it needs, never the
reverse.  Imports are read from the source (inside functions too), so an
import moved into a function to dodge a cycle is still one.
"""

from __future__ import annotations

import ast
import pickle
from pathlib import Path

import numpy as np
import pytest

import pyale._core
from pyale._core.conventions import ALE_PACKAGE, ALEPLOT, CONVENTIONS, IML, Convention
from pyale._core.map.local import NumericAxis, Plan

CORE = Path(pyale._core.__file__).parent
#: What every convention must implement (the base class gives defaults for the rest).
REQUIRED = ("edges", "probabilities", "every_value_is_an_edge", "block_entries", "finish")


@pytest.mark.parametrize("name", sorted(CONVENTIONS))
def test_each_convention_implements_the_interface_and_travels_in_a_plan(name):
    convention = CONVENTIONS[name]
    assert isinstance(convention, Convention) and convention.name == name
    for method in REQUIRED:
        assert getattr(type(convention), method) is not getattr(Convention, method), method
    assert convention.describe() and convention.default_intervals >= 1
    plan = Plan((NumericAxis("x", np.array([0.0, 1.0, 2.0]), np.array([True, True])),), convention)
    again = pickle.loads(pickle.dumps(plan))  # Dask and Spark workers receive plans this way
    assert again.convention == convention and type(again.convention) is type(convention)


def test_the_registry_holds_the_three_reference_packages():
    assert {ALEPLOT, IML, ALE_PACKAGE} == set(CONVENTIONS.values())
    assert {name: rules.name for name, rules in CONVENTIONS.items()} == {"aleplot": "aleplot", "iml": "iml",
                                                                        "ale": "ale"}


def _module_name(path: Path) -> str:
    parts = ["pyale", "_core", *path.relative_to(CORE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(path: Path, modules: set[str]) -> set[str]:
    """The pyale._core modules that ``path`` imports anywhere in its source."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            base = base[: len(base) - node.level + 1] if node.level else []
            root = ".".join(base + ([node.module] if node.module else []))
            targets = [root] + [f"{root}.{alias.name}" for alias in node.names]
        else:
            continue
        out.update(t for t in targets if t in modules and t != name)
    return out


def test_the_estimator_core_has_no_import_cycle():
    paths = sorted(CORE.rglob("*.py"))
    modules = {_module_name(p) for p in paths}
    graph = {_module_name(p): _imported(p, modules) for p in paths}

    def reaches(start, goal):
        seen, todo = set(), [start]
        while todo:
            current = todo.pop()
            if current == goal:
                return True
            if current not in seen:
                seen.add(current)
                todo.extend(graph[current])
        return False

    cycles = sorted(f"{a} <-> {b}" for a, targets in graph.items() for b in targets
                    if not b.startswith(a + ".") and not a.startswith(b + ".") and reaches(b, a))
    assert cycles == []
