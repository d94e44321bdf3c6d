"""R data frames exported by the fixture generators, and models replayed from R's recorded answers.

Shared by the ALEPlot and iml parity tests.  A table is ``{"columns": [...],
"types": {name: {"type": "double" | "integer" | "factor" | "character", ...}},
"values": {name: [...]}}`` as ``scripts/make_iml_fixtures.py`` writes it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd


def frame_from_table(table: dict) -> pd.DataFrame:
    """A DataFrame with R's column types: double, integer, factor (ordered or not), character."""
    columns = {}
    for name in table["columns"]:
        kind = table["types"][name]
        values = table["values"][name]
        if kind["type"] == "double":
            columns[name] = np.array([np.nan if v is None else v for v in values], dtype=float)
        elif kind["type"] == "integer":
            if any(v is None for v in values):
                columns[name] = pd.array(values, dtype="Int64")
            else:
                columns[name] = np.array(values, dtype=np.int64)
        elif kind["type"] == "factor":
            columns[name] = pd.Categorical(values, categories=kind["levels"], ordered=kind["ordered"])
        else:
            columns[name] = np.array(values, dtype=object)
    return pd.DataFrame(columns)


def _key(values) -> tuple:
    return tuple(float(v) if isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)
                 else str(v) for v in values)


def replay_model(recorded: dict):
    """predict(newdata) answering from the rows R's model was asked about."""
    lookup = {_key(row): out for row, out in zip(recorded["rows"], recorded["outputs"])}
    columns = recorded["columns"]
    names = recorded["output_names"]

    def predict(newdata: pd.DataFrame):
        rows = zip(*(newdata[c].astype(object).to_numpy() for c in columns))
        try:
            y = np.array([lookup[_key(r)] for r in rows], dtype=float)
        except KeyError as exc:
            raise AssertionError(f"pyale asked the replayed model about a row R never saw: {exc}") from None
        if names is None:
            return y[:, 0] if y.shape[1] == 1 else y
        return pd.DataFrame(y, columns=names)

    return predict
