"""The environment for child Python processes started by the tests."""

from __future__ import annotations

import os
import sys


def child_env() -> dict:
    """The environment for a child Python, without the library path rpy2 added.

    When R is present, importing rpy2 (tests/conftest.py does) prepends R's
    library directories to ``LD_LIBRARY_PATH``; a child Python built with a
    shared libpython may then load the system's libpython instead of its own
    and lose its site-packages.
    """
    env = dict(os.environ)
    openrlib = sys.modules.get("rpy2.rinterface_lib.openrlib")
    added = getattr(openrlib, "LD_LIBRARY_PATH", "") if openrlib is not None else ""
    path = env.get("LD_LIBRARY_PATH")
    if added and path is not None and path.startswith(added + ":"):
        rest = path[len(added) + 1:]
        if rest:
            env["LD_LIBRARY_PATH"] = rest
        else:
            del env["LD_LIBRARY_PATH"]
    return env
