"""The tables R's ``ale`` 0.5.0 returns from ``get()``, built from arrays.

Given a term's centred curves (the full-data curve and the bootstrap
replicates), its bins and counts, these functions return pandas DataFrames
with R's columns, dtypes and row order; and the statistics tables and the
response summary (``y_summary``).  See ``docs/ale-package.md``, sections 6 and 8.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from ..._rbase import quantile_type7
from .stats import STATISTICS, r_median

__all__ = [
    "EFFECT_COLUMNS",
    "Y_SUMMARY_ROWS",
    "band_summary",
    "r_ceiling_labels",
    "r_level_labels",
    "effect_table_1d",
    "effect_table_2d",
    "statistics_long_table",
    "statistics_estimate_table",
    "y_summary",
]

EFFECT_COLUMNS = (".y", ".y_lo", ".y_mean", ".y_median", ".y_hi")
_QUANTILE_ROWS = ("1%", "2.5%", "5%", "10%", "20%", "25%", "30%", "40%", "50%",
                  "60%", "70%", "75%", "80%", "90%", "95%", "97.5%", "99%")
_QUANTILE_PROBS = np.array([0.01, 0.025, 0.05, 0.1, 0.2, 0.25, 0.3, 0.4, 0.5,
                            0.6, 0.7, 0.75, 0.8, 0.9, 0.95, 0.975, 0.99])
Y_SUMMARY_ROWS = ("min", *_QUANTILE_ROWS[:9], "mean", *_QUANTILE_ROWS[9:], "max")


def band_summary(curves, *, boot_alpha: float, boot_centre: str) -> dict[str, np.ndarray]:
    """``.y``, ``.y_lo``, ``.y_mean``, ``.y_median``, ``.y_hi`` of one term, bin by bin.

    Parameters
    ----------
    curves : array-like, shape (1 + boot_it, ...)
        The centred full-data curve first, then one curve per bootstrap replicate
        (NaN where a replicate has no value).  As R's ``ale`` 0.5.0 does, the
        full-data curve is counted among the replicates.
    boot_alpha : float
    boot_centre : {"mean", "median"}

    Returns
    -------
    dict
        Arrays of the bins' shape.  Without replicates all five equal the curve;
        otherwise, per bin and over its non-NaN values, type-7 quantiles at
        ``boot_alpha/2``, 0.5 and ``1 - boot_alpha/2`` and the mean; ``.y`` is the
        mean or the median by ``boot_centre``.

    Examples
    --------
    >>> s = band_summary(np.array([[0.0], [1.0], [np.nan], [3.0]]), boot_alpha=0.5, boot_centre="mean")
    >>> [float(s[c][0]) for c in (".y", ".y_lo", ".y_median", ".y_hi")]
    [1.3333333333333333, 0.5, 1.0, 2.0]
    """
    curves = np.asarray(curves, dtype=float)
    full = curves[0]
    if curves.shape[0] == 1:
        return {name: full.copy() for name in EFFECT_COLUMNS}
    flat = curves.reshape(curves.shape[0], -1)
    probs = np.array([boot_alpha / 2, 0.5, 1 - boot_alpha / 2])
    lo, med, hi, mean = (np.empty(flat.shape[1]) for _ in range(4))
    for j in range(flat.shape[1]):
        v = flat[:, j]
        v = v[~np.isnan(v)]
        lo[j], med[j], hi[j] = quantile_type7(v, probs)
        mean[j] = np.mean(v) if not np.all(np.isfinite(v)) else math.fsum(v.tolist()) / v.shape[0]
    shape = full.shape
    out = {".y_lo": lo.reshape(shape), ".y_mean": mean.reshape(shape), ".y_median": med.reshape(shape),
           ".y_hi": hi.reshape(shape)}
    out[".y"] = (out[".y_mean"] if boot_centre == "mean" else out[".y_median"]).copy()
    return {name: out[name] for name in EFFECT_COLUMNS}


def r_ceiling_labels(ceilings) -> np.ndarray:
    """Ceilings as R's ``get()`` shows them: ``as.numeric(as.character(x))``.

    R 4.2's ``as.character`` keeps 15 significant digits, except that a number
    printed in fixed notation shows its whole integer part (so integers up to
    2^53 survive exactly).

    Examples
    --------
    >>> r_ceiling_labels(np.array([0.013390333158895373, 12345678901234567.0])).tolist()
    [0.0133903331588954, 1.2345678901234568e+16]
    """
    return np.array([float(_r_double(float(c))) for c in np.asarray(ceilings, dtype=float)])


def _r_double(v: float) -> str:
    """R's ``as.character(<double>)``: the fewest significant digits (<= 15) that give the
    15-digit value, in fixed notation unless scientific notation is shorter."""
    if v == 0 or not math.isfinite(v):
        return {0.0: "0", math.inf: "Inf", -math.inf: "-Inf"}.get(v, "NaN")
    target = float(f"{v:.14e}")
    digits = next(k for k in range(1, 16) if float(f"{v:.{k - 1}e}") == target)
    sci = f"{v:.{digits - 1}e}"
    exponent = int(sci.split("e")[1])
    fixed = f"{v:.{max(0, digits - 1 - exponent)}f}"
    return fixed if len(fixed) <= len(sci) else sci


def r_level_labels(values: Sequence) -> list[str]:
    """R's ``as.character`` of bin values: "TRUE"/"FALSE", numbers with 15 significant digits, strings as they are."""
    out = []
    for v in values:
        if isinstance(v, (bool, np.bool_)):
            out.append("TRUE" if v else "FALSE")
        elif isinstance(v, (int, np.integer)):
            out.append(str(int(v)))
        elif isinstance(v, (float, np.floating)):
            out.append(_r_double(float(v)))
        else:
            out.append(str(v))
    return out


def _axis_column(name: str, kind: str, bins: Sequence, index: np.ndarray, round_ceilings: bool):
    if kind == "numeric":
        values = np.asarray(bins, dtype=float)
        values = r_ceiling_labels(values) if round_ceilings else values
        return f"{name}.ceil", values[index]
    labels = [str(b) for b in bins]
    dtype = pd.CategoricalDtype(labels, ordered=True)
    return f"{name}.bin", pd.Categorical.from_codes(np.asarray(index, dtype=np.int64), dtype=dtype)


def effect_table_1d(name: str, kind: str, bins: Sequence, counts, summary: Mapping[str, np.ndarray], *,
                    centre: float = 0.0, round_ceilings: bool = True) -> pd.DataFrame:
    """``get(obj, name)``'s table for a 1-D term.

    Parameters
    ----------
    name : str
        The feature.
    kind : {"numeric", "binary", "categorical", "ordinal"}
        Its ``ale`` type: a numeric feature gets a ``<name>.ceil`` column of
        ceilings, the others a ``<name>.bin`` ordered Categorical of the bin
        labels in ALE order.
    bins : sequence
        Ceilings (numeric) or bin labels (strings).
    counts : array-like
        ``.n`` per bin.
    summary : mapping
        :func:`band_summary`'s arrays.
    centre : float, default 0.0
        Added to every ``.y`` column (``get()``'s ``ale_centre``: the response's
        median by default).
    round_ceilings : bool, default True
        Show ceilings to 15 significant digits, as R does.

    Returns
    -------
    pandas.DataFrame
        Columns ``<name>.ceil``/``<name>.bin``, ``.n``, ``.y``, ``.y_lo``,
        ``.y_mean``, ``.y_median``, ``.y_hi``; one row per bin, in bin order.
    """
    m = len(bins)
    column, values = _axis_column(name, kind, bins, np.arange(m), round_ceilings)
    table = {column: values, ".n": np.asarray(counts, dtype=np.int64).ravel()}
    for key in EFFECT_COLUMNS:
        table[key] = np.asarray(summary[key], dtype=float).ravel() + centre
    return pd.DataFrame(table)


def effect_table_2d(names: tuple[str, str], kinds: tuple[str, str], bins: tuple[Sequence, Sequence], counts,
                    summary: Mapping[str, np.ndarray], *, centre: float = 0.0,
                    round_ceilings: bool = True) -> pd.DataFrame:
    """``get(obj, "a:b")``'s table for a 2-D term: one row per cell, the first feature varying fastest.

    ``counts`` and the summary arrays have shape (m_a, m_b); see :func:`effect_table_1d`.
    """
    m_a, m_b = len(bins[0]), len(bins[1])
    ia = np.tile(np.arange(m_a), m_b)
    ib = np.repeat(np.arange(m_b), m_a)
    table = {}
    for name, kind, axis_bins, index in zip(names, kinds, bins, (ia, ib)):
        column, values = _axis_column(name, kind, axis_bins, index, round_ceilings)
        table[column] = values
    table[".n"] = np.asarray(counts, dtype=np.int64).ravel(order="F")
    for key in EFFECT_COLUMNS:
        table[key] = np.asarray(summary[key], dtype=float).ravel(order="F") + centre
    return pd.DataFrame(table)


def statistics_long_table(terms: Sequence[tuple[str, Mapping[str, Mapping[str, float]]]],
                          statistics: Sequence[str] = STATISTICS) -> pd.DataFrame:
    """``get(obj, stats = "all")`` (or a list of statistic names): six rows per term.

    Parameters
    ----------
    terms : sequence of (term, summary)
        ``summary`` as returned by :func:`pyale._frontends.alepkg.stats.summarise_statistics`;
        terms in ``ale``'s order (1-D in data-column order, 2-D sorted by the
        positions of their columns).
    statistics : sequence of str
        Which statistics to keep (R's ``filter(statistic %in% stats)``).

    Returns
    -------
    pandas.DataFrame
        Columns ``term, statistic, estimate, conf.low, mean, median, conf.high``.
    """
    rows = []
    for term, summary in terms:
        for stat in STATISTICS:
            if stat in statistics:
                s = summary[stat]
                rows.append((term, stat, s["estimate"], s["conf.low"], s["mean"], s["median"], s["conf.high"]))
    return pd.DataFrame(rows, columns=["term", "statistic", "estimate", "conf.low", "mean", "median", "conf.high"])


def statistics_estimate_table(terms: Sequence[tuple[str, Mapping[str, Mapping[str, float]]]]) -> pd.DataFrame:
    """``get(obj, stats = "estimate")``: one row per term, one column per statistic."""
    rows = [(term, *(summary[s]["estimate"] for s in STATISTICS)) for term, summary in terms]
    return pd.DataFrame(rows, columns=["term", *STATISTICS])


def y_summary(values, names: Sequence[str], y_col: str) -> pd.DataFrame:
    """The response summary ``ale`` stores as ``params$y_summary`` (``ale:::var_summary``).

    Parameters
    ----------
    values : array-like, shape (n,) or (n, k)
        The response values: the observed response for a numeric response, the
        model's predictions (one column per class) for a binary or categorical one.
    names : sequence of str
        The k column names (``y_cats``).
    y_col : str
        The response's name; with k > 1 a first summary column of that name is added.

    Returns
    -------
    pandas.DataFrame
        Rows :data:`Y_SUMMARY_ROWS`: type-7 quantiles of each column, ``mean``
        (as in R, the mean of *all* values, not of the column), ``min`` and
        ``max`` (0 and 1 when every value lies in [0, 1], else the 1% and 99%
        quantiles).  With k > 1 the first column holds the row-wise median of the
        class columns, with min, mean, 50% and max taken as min, mean, median and
        max over them.
    """
    v = np.asarray(values, dtype=float)
    v = v.reshape(-1, 1) if v.ndim == 1 else v
    overall_mean = float(np.mean(v)) if not np.all(np.isfinite(v)) else math.fsum(v.ravel().tolist()) / v.size
    probability = bool(v.min() >= 0 and v.max() <= 1)
    columns = {}
    for j, name in enumerate(names):
        q = quantile_type7(v[:, j], _QUANTILE_PROBS)
        col = dict(zip(_QUANTILE_ROWS, q))
        col["mean"] = overall_mean
        col["min"], col["max"] = (0.0, 1.0) if probability else (col["1%"], col["99%"])
        columns[name] = [float(col[r]) for r in Y_SUMMARY_ROWS]
    table = pd.DataFrame(columns, index=list(Y_SUMMARY_ROWS))
    if len(names) > 1:
        first = table.apply(lambda row: r_median(row.to_numpy()), axis=1)
        first["min"] = table.loc["min"].min()
        first["mean"] = float(np.mean(table.loc["mean"].to_numpy()))
        first["50%"] = r_median(table.loc["50%"].to_numpy())
        first["max"] = table.loc["max"].max()
        table.insert(0, y_col, first)
    else:
        table.columns = [y_col]
    return table
