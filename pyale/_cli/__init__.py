"""The ``pyale`` command: ``demo``, ``run`` and ``validate``."""

from .command import build_parser, main

__all__ = ["main", "build_parser"]
