"""What the HTML page and the PDF both show: cells as text, the provenance's rows, how many rows a table shows."""

from __future__ import annotations

import math

import numpy as np

__all__ = ["HTML_ROWS", "format_cell", "provenance_rows"]

#: Rows of a table shown on the page and in the PDF (all of them are in its CSV).
HTML_ROWS = 40


def format_cell(value) -> tuple[str, bool]:
    """``(text, is_text)``: numbers to 6 significant digits, everything else as written."""
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value)), True
    if isinstance(value, (int, np.integer)):
        return str(int(value)), False
    if isinstance(value, (float, np.floating)):
        if math.isnan(value):
            return "", False
        return f"{float(value):.6g}", False
    return str(value), True


def provenance_rows(provenance: dict) -> list[tuple[str, str]]:
    """The provenance as ``(label, text)`` rows, in a fixed order."""
    labels = [("command", "command to reproduce"), ("data", "data"), ("data_sha256", "data SHA-256"),
              ("model", "model"), ("model_sha256", "model SHA-256"), ("response", "response explained"),
              ("features", "features"),
              ("conventions", "conventions and grid"), ("bootstrap", "bootstrap"),
              ("random_state", "random_state (seed)"), ("versions", "package versions")]
    rows = []
    for key, label in labels:
        if key in provenance:
            value = provenance[key]
            if isinstance(value, dict):
                value = ", ".join(f"{k} {v}" for k, v in value.items())
            elif isinstance(value, (list, tuple)):
                value = ", ".join(map(str, value))
            rows.append((label, str(value)))
    return rows
