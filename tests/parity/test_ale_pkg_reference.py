"""A plain, slow re-computation of R's ale 0.5.0 effects, checked against every fixture.

This is the specification of docs/ale-package.md (sections 3-6) written out
row by row with pandas and no pyale estimator code: bins, high/low values,
local means, accumulation, 2-D intrapolation of empty cells, centring, and
the bootstrap replicates (resampled rows from pyale's port of R's RNG, binned
by their own values as the corrected ale does).  It reproduces every curve R
stored -- the full-data curve and each replicate's, NaN where R has NA -- so
the written specification is confirmed numerically, and the estimator core
has an independent oracle.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from pyale._frontends.alepkg import numeric_bins
from pyale._frontends.alepkg.tables import r_level_labels
from pyale._rbase import r_seq
from pyale._rbase.rng import ale_bootstrap_rows

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))

import ale_cases  # noqa: E402
from test_ale_pkg_fixtures import FILES, _centre, droplevels, frame, load, response_values  # noqa: E402


# --- the model ------------------------------------------------------------------------------


def model_of(fx: dict, cats: list[str]):
    """newdata -> (rows, classes) predictions: the Python twin, or R's recorded answers."""
    model = fx["model"]
    if model["kind"] == "closed_form":
        twin = ale_cases.PY_MODELS[model["name"]]
        return lambda newdata: np.asarray(twin(newdata), dtype=float).reshape(len(newdata), -1)
    rec = model["recorded"]
    where = {tuple(r): i for i, r in enumerate(rec["rows"])}
    outputs = np.asarray(rec["outputs"], dtype=float)

    def replay(newdata: pd.DataFrame) -> np.ndarray:
        cols = [newdata[c].astype(object).tolist() for c in rec["columns"]]
        keys = [tuple(str(v) if isinstance(v, str) else v for v in row) for row in zip(*cols)]
        return outputs[[where[k] for k in keys]]

    return replay


# --- one axis: bins and high/low values -------------------------------------------------------


def _value_of_label(column: pd.Series, label: str):
    """The column value whose R label is ``label`` (the "low" level)."""
    for value in pd.unique(column):
        if r_level_labels([value])[0] == label:
            return value
    raise KeyError(label)


def axis(column: pd.Series, feature: dict, max_num_bins: int, rows: np.ndarray):
    """(bin of each resampled row, high values, low values) for one feature."""
    values = column.iloc[rows]
    if feature["type"] == "numeric":
        full = numeric_bins(column.to_numpy(dtype=float), max_num_bins)
        c = full.ceilings
        x = values.to_numpy(dtype=float)
        k = np.where(x == c[0], 0, np.searchsorted(c, x, side="left"))  # (c[k-1], c[k]] -> k
        return k, c[k], c[np.maximum(k - 1, 0)]
    labels = feature["bins"]
    position = {label: i for i, label in enumerate(labels)}
    k = np.array([position[lab] for lab in r_level_labels(values.tolist())])
    lows = [_value_of_label(column, labels[max(i - 1, 0)]) for i in k]
    low = pd.Series(lows, dtype=column.dtype) if isinstance(column.dtype, pd.CategoricalDtype) \
        else np.array(lows, dtype=column.to_numpy().dtype)
    return k, values.to_numpy() if not isinstance(column.dtype, pd.CategoricalDtype) else values.to_numpy(), low


def _set(frame_: pd.DataFrame, name: str, values, like: pd.Series) -> None:
    if isinstance(like.dtype, pd.CategoricalDtype):
        frame_[name] = pd.Categorical(np.asarray(values, dtype=object), dtype=like.dtype)
    else:
        frame_[name] = np.asarray(values)


# --- ale's 2-D intrapolation -------------------------------------------------------------------


def _lines(shape):
    """Every row, column, NW-SE diagonal and SW-NE diagonal as lists of cells, with its direction."""
    m, n = shape
    out = [("row", [(i, j) for j in range(n)]) for i in range(m)]
    out += [("col", [(i, j) for i in range(m)]) for j in range(n)]
    for d in range(-(n - 1), m):
        out.append(("nwse", [(i, i - d) for i in range(m) if 0 <= i - d < n]))
    for s in range(m + n - 1):
        out.append(("swne", [(i, s - i) for i in range(m - 1, -1, -1) if 0 <= s - i < n]))
    return out


def intrapolate(local: np.ndarray) -> np.ndarray:
    """Fill NaN cells with the mean of the linear interpolations along the four lines through them."""
    sums = np.zeros(local.shape)
    counts = np.zeros(local.shape)
    for _, cells in _lines(local.shape):
        if len(cells) < 3:
            continue
        v = np.array([local[c] for c in cells])
        known = np.flatnonzero(~np.isnan(v))
        for a, b in zip(known[:-1], known[1:]):
            if b - a > 1:
                filled = r_seq(v[a], v[b], b - a + 1)
                for t in range(a + 1, b):
                    sums[cells[t]] += filled[t - a]
                    counts[cells[t]] += 1
    out = local.copy()
    gap = np.isnan(local) & (counts > 0)
    out[gap] = sums[gap] / counts[gap]
    return out


# --- curves ---------------------------------------------------------------------------------------


def local_effects(X, names, features, max_num_bins, rows, predict, n_cats):
    """Per-class local-effect arrays (bins...) of the resampled rows, NaN in empty bins; and counts."""
    bins, highs, lows = zip(*(axis(X[n], f, max_num_bins, rows) for n, f in zip(names, features)))
    base = X.iloc[rows].reset_index(drop=True)
    shape = tuple(f["n_bins"] for f in features)

    def with_values(choice):
        out = base.copy()
        for name, pick, hi, lo in zip(names, choice, highs, lows):
            _set(out, name, hi if pick else lo, X[name])
        return predict(out)

    if len(names) == 1:
        delta = with_values((1,)) - with_values((0,))
    else:
        delta = (with_values((1, 1)) - with_values((1, 0))) - (with_values((0, 1)) - with_values((0, 0)))
    flat = np.ravel_multi_index(bins, shape)
    counts = np.bincount(flat, minlength=int(np.prod(shape))).astype(float)
    out = []
    for c in range(n_cats):
        sums = np.bincount(flat, weights=delta[:, c], minlength=int(np.prod(shape)))
        with np.errstate(invalid="ignore", divide="ignore"):
            out.append((sums / counts).reshape(shape))
    return out, counts.reshape(shape)


def accumulate(local: np.ndarray, kinds: list[str]) -> np.ndarray:
    if local.ndim == 1:
        local = local.copy()
        if kinds[0] == "numeric":
            local[0] = 0.0
        return local if kinds[0] == "binary" else np.cumsum(local)
    filled = local.copy()
    if np.isnan(filled[1:, 1:]).any():
        filled = intrapolate(filled)
    filled[np.isnan(filled)] = 0.0
    return np.cumsum(np.cumsum(filled, axis=0), axis=1)


def centring(F: np.ndarray, counts: np.ndarray, X, names, features, max_num_bins):
    """The full-data shift (1-D) or (row shift, column shift, constant) (2-D)."""
    if F.ndim == 1:
        if features[0]["type"] == "numeric":
            w = numeric_bins(X[names[0]].to_numpy(dtype=float), max_num_bins).interval_counts
            return np.sum((F[:-1] + F[1:]) / 2 * w) / w.sum()
        return np.sum(F * counts / counts.sum())
    N = counts
    ma, mb = F.shape
    pa = np.r_[0, np.arange(ma - 1)]
    pb = np.r_[0, np.arange(mb - 1)]
    dr = F[1:, :] - F[:-1, :]
    r = np.r_[0, np.cumsum((N[1:, :] * (dr[:, pb] + dr) / 2).sum(axis=1) / N[1:, :].sum(axis=1))]
    dc = F[:, 1:] - F[:, :-1]
    s = np.r_[0, np.cumsum((N[:, 1:] * (dc[pa, :] + dc) / 2).sum(axis=0) / N[:, 1:].sum(axis=0))]
    D = F - r[:, None] - s[None, :]
    const = np.sum(N * (D[np.ix_(pa, pb)] + D[pa, :] + D[:, pb] + D) / 4) / N.sum()
    return r[:, None] + s[None, :] + const


def curves_of(fx: dict, term: str, cats: list[str], r_misaligned: bool = True):
    """Per class: (1 + boot_it, bins...) centred curves, as R's ale computes them.

    ``r_misaligned=False`` gives the right 2-D curves for several response classes.
    """
    call, inter = fx["call"], fx["intermediates"]
    data = droplevels(frame(fx["data"]))
    X = data.drop(columns=[call["y_col"]])
    names = term.split(":")
    features = [inter["features"][n] for n in names]
    kinds = [f["type"] for f in features]
    predict = model_of(fx, cats)
    n = len(X)
    replicates = [np.arange(n)]
    if call["boot_it"]:
        replicates += list(ale_bootstrap_rows(n, call["boot_it"], seed=call["seed"]))
    per_cat = [[] for _ in cats]
    shifts = None
    for b, rows in enumerate(replicates):
        local, counts = local_effects(X, names, features, call["max_num_bins"], rows, predict, len(cats))
        if b == 0:
            shifts = [centring(accumulate(lc, kinds), counts, X, names, features, call["max_num_bins"])
                      for lc in local]
        for c in range(len(cats)):
            per_cat[c].append(accumulate(local[c], kinds) - shifts[c])
    curves = [np.stack(c) for c in per_cat]
    if r_misaligned and len(names) == 2 and len(cats) > 1:
        curves = misalign_like_r(curves, shifts)
    return curves


def misalign_like_r(curves: list[np.ndarray], shifts: list[np.ndarray]) -> list[np.ndarray]:
    """ale 0.5.0's 2-D result for several response classes (docs/ale-package.md, s. 10, case 13).

    R subtracts the lower-order parts (row + column shifts, per class and cell,
    flattened class by class) from a table whose rows run class-fastest, so the
    class c, cell j value loses the parts of flat position j * K + c instead.
    """
    k = len(curves)
    parts = [sh - sh[0, 0] for sh in shifts]  # r + s (r[0] = s[0] = 0), without the constant
    flat = np.concatenate([np.tile(p.ravel(order="F"), curves[0].shape[0]) for p in parts])
    out = []
    for c, cur in enumerate(curves):
        reps, shape = cur.shape[0], cur.shape[1:]
        cells = int(np.prod(shape))
        fixed = np.empty_like(cur)
        for b in range(reps):
            composite = (cur[b] + shifts[c]).ravel(order="F")
            positions = (b * cells + np.arange(cells)) * k + c
            fixed[b] = (composite - flat[positions] - shifts[c][0, 0]).reshape(shape, order="F")
        out.append(fixed)
    return out


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_plain_recomputation_gives_r_curves(path):
    check_curves(load(path), path.stem)


def check_curves(fx: dict, name: str) -> None:
    """Every curve of one fixture (full data and replicates) against the plain re-computation."""
    cats = fx["intermediates"]["y_cats"]
    values = response_values(fx, droplevels(frame(fx["data"])))
    for term, entry in fx["tables"].items():
        mine = curves_of(fx, term, cats)
        shape = mine[0].shape[1:]
        for ci, cat in enumerate(cats):
            tables = entry["categories"][cat]
            if fx["call"]["boot_it"]:
                boot = frame(tables["boot_data"])
                k = int(boot[".it"].max()) + 1
                expected = np.stack([r.reshape(shape, order="F") for r in boot[".y"].to_numpy(float).reshape(k, -1)])
            else:
                got = frame(tables["get"])[".y"].to_numpy(float) - _centre(fx, cat)
                expected = got.reshape(shape, order="F")[None]
            floor = 1e-10 * float(np.max(np.abs(values[:, ci] - np.median(values[:, ci]))))
            label = f"{name}[{term}][{cat}]"
            np.testing.assert_array_equal(np.isnan(mine[ci]), np.isnan(expected), err_msg=label)
            np.testing.assert_allclose(mine[ci], expected, rtol=1e-9, atol=floor, err_msg=label)


def test_ale_misaligns_2d_terms_of_several_classes():
    """The right 2-D curves differ from R's for a categorical response; the misalignment explains R exactly."""
    fx = load(ROOT / "reference" / "ale" / "iris_multiclass.json")
    cats = fx["intermediates"]["y_cats"]
    term = "Sepal.Width:Petal.Width"
    right = curves_of(fx, term, cats, r_misaligned=False)
    for ci, cat in enumerate(cats):
        got = frame(fx["tables"][term]["categories"][cat]["get"])[".y"].to_numpy(float) - _centre(fx, cat)
        assert np.max(np.abs(right[ci][0].ravel(order="F") - got)) > 0.1
