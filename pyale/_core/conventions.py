"""Whose numbers to reproduce: each reference package's rules as settings.

One estimator serves every front-end; a :class:`Convention` says which grid
rule, default grid size, pair layout and replicate treatment it uses.  The
front-ends and ``pyale.ale(conventions=...)`` read these settings, and the
documentation's conventions table is generated from :meth:`Convention.describe`,
so the table and the code cannot drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from .._rbase import r_seq
from .._rbase.weighted import weighted_sample, weighted_type1_positions
from .grid import aleplot_edges, iml_edges

__all__ = ["Convention", "CONVENTIONS", "weighted_edges"]

#: Beyond this many intervals per row (with weights) pyale refuses rather than build the probabilities.
_MAX_INTERVALS_PER_ROW = 16


@dataclass(frozen=True)
class Convention:
    """The rules of one reference package.

    Attributes
    ----------
    name : str
        The value of ``conventions=``.
    label : str
        The package and version reproduced.
    default_intervals : int
        Intervals per numeric feature when none is given.
    edges : callable
        ``edges(values, n_intervals, integer=False) -> numpy.ndarray``.
    imputation : str
        Layout of the nearest-non-empty-cell search for pairs.
    empty_user_intervals : str
        What an interval of a user grid without rows contributes.
    rules : dict
        Row name -> plain-language statement of each rule (documentation).
    """

    name: str
    label: str
    default_intervals: int
    edges: Callable[..., np.ndarray]
    imputation: str
    empty_user_intervals: str
    rules: dict

    def describe(self) -> dict:
        """Row name -> text, for the documentation's conventions table."""
        return dict(self.rules)

    def probabilities(self, n_intervals: int) -> tuple[np.ndarray, bool]:
        """The grid's probability vector as R builds it, and whether the minimum is prepended."""
        if self.name == "iml":
            return r_seq(0.0, 1.0, n_intervals + 1), False
        return r_seq(1.0 / n_intervals, 1.0, n_intervals), True


def weighted_edges(
    convention: Convention, values: np.ndarray, weights: np.ndarray, n_intervals: int, *,
    integer: bool = False, label: str = "the feature",
) -> np.ndarray:
    """The convention's interval edges for frequency-weighted rows.

    Type-1 quantiles of the weighted sample (the smallest value whose
    cumulative weight reaches ``N * p``, ``N`` the total weight counted in
    rows of the smallest positive weight; see
    :func:`pyale._rbase.weighted.type1_targets`): for integer weights with a
    weight of 1 exactly the edges of the rows repeated that many times, and
    the same edges for the weights times any positive constant.  Rows with
    weight 0 take no part.

    Like the unweighted rules, an ``n_intervals`` so large that every value
    becomes an edge gives the distinct values without building ``K``
    probabilities: every value's cumulative-weight range (at least the
    smallest weight ``w``) then holds a probability point when the points'
    spacing ``N / K`` is at most ``w / 2`` and the rounding of ``N p`` and of
    the cumulative sums stays below ``w / 4``.  Between ``16`` intervals per
    row and that size, the request is refused.
    """
    sorted_values, cumulative = weighted_sample(values, weights)
    n = sorted_values.shape[0]
    total = float(cumulative[-1])
    smallest = float(np.min(np.asarray(weights, dtype=float)[np.asarray(weights) > 0]))
    ratio = total / smallest
    if n_intervals >= 2 * ratio and 4 * (8 + n) * ratio < 2**53:
        edges = np.unique(sorted_values)
    elif n_intervals > _MAX_INTERVALS_PER_ROW * n:
        limit = _MAX_INTERVALS_PER_ROW * n
        raise ValueError(
            f"n_intervals={n_intervals!r} for {label} with sample_weight asks for more than "
            f"{_MAX_INTERVALS_PER_ROW} intervals per row ({n} rows with a positive weight), and the "
            f"weights are too uneven for every value to be an edge (that needs at least "
            f"{int(np.ceil(2 * ratio))}). Use at most {limit}."
        )
    else:
        probs, prepend = convention.probabilities(n_intervals)
        positions = weighted_type1_positions(cumulative, probs, smallest)
        edges = sorted_values[positions]
        if prepend:
            edges = np.concatenate(([sorted_values[0]], edges))
        if integer and convention.name == "iml":
            edges = np.round(edges)
        edges = np.unique(edges)
    return edges


def _aleplot(values, n_intervals, integer=False):
    return aleplot_edges(values, n_intervals)


def _iml(values, n_intervals, integer=False):
    return iml_edges(values, n_intervals, integer=integer)


_COMMON = {
    "intervals": "right-closed (z[k-1], z[k]]; the minimum falls into the first interval",
    "numeric local effect": "mean over the interval's rows of f(z[k]) - f(z[k-1]), other columns held",
    "accumulation": "cumulative sum from 0 at the lowest edge",
    "centring (numeric)": "subtract the count-weighted mean of the interval mid-values",
    "categorical level order": (
        "classical MDS (cmdscale, k = 1) of summed distances between levels: Kolmogorov-Smirnov "
        "of numeric columns at their 100 type-7 quantiles, half the L1 distance of categorical "
        "columns' frequency tables; an ordered categorical keeps its order"
    ),
    "categorical local effect": "rows moved one level up and one level down, both differences averaged per jump",
    "centring (categorical)": "subtract the level-frequency-weighted mean",
    "pairs": (
        "second-order differences on the cell corners, mean per cell; first-order effects and a "
        "count-weighted constant removed"
    ),
}

CONVENTIONS: dict[str, Convention] = {
    "aleplot": Convention(
        name="aleplot",
        label="ALEPlot 1.1",
        default_intervals=40,
        edges=_aleplot,
        imputation="aleplot",
        empty_user_intervals="error",
        rules={
            "grid": "c(min(x), quantile(x, seq(1/K, 1, length.out = K), type = 1)), repeats removed",
            "default K": "40",
            **_COMMON,
            "empty pair cells": (
                "nearest non-empty cell (yaImpute::ann, exact, ties as ANN's kd-tree), cell mid-points "
                "scaled as ((a + b) / 2) / range, candidates in column-major order"
            ),
            "pairs accepted": "numeric x numeric, categorical x numeric (categorical first)",
        },
    ),
    "iml": Convention(
        name="iml",
        label="iml 0.11.4",
        default_intervals=20,
        edges=_iml,
        imputation="iml",
        empty_user_intervals="zero",
        rules={
            "grid": (
                "quantile(x, seq(0, 1, length.out = grid.size + 1), type = 1), rounded for integer "
                "columns, repeats removed; user grid.points sorted and made unique"
            ),
            "default K": "20 (grid.size)",
            **_COMMON,
            "empty pair cells": (
                "nearest non-empty cell (yaImpute::ann), cell mid-points scaled as (a + b) / (2 * range), "
                "candidates along the second axis first"
            ),
            "pairs accepted": "numeric x numeric, categorical x numeric in either order",
        },
    ),
    "ale": Convention(
        name="ale",
        label="ale 0.5.0",
        default_intervals=9,
        edges=_aleplot,
        imputation="ale",
        empty_user_intervals="error",
        rules={
            "grid": (
                "ceilings c(min(x), quantile(x, seq(1/K, 1, length.out = K), type = 1)), repeats removed, "
                "K = max_num_bins - 1; bins: the minimum's rows alone, then (c[k-1], c[k]]"
            ),
            "default K": "9 (max_num_bins = 10)",
            "intervals": "the minimum's own bin (local effect 0), then right-closed (c[k-1], c[k]]",
            "numeric local effect": "mean over the bin's rows of f(c[k]) - f(c[k-1]), other columns held",
            "accumulation": "cumulative sum from 0 at the minimum; a feature with two values (binary) is not accumulated",
            "centring (numeric)": (
                "subtract the mean of the interval mid-values weighted by interval counts (the minimum's rows "
                "in the first interval)"
            ),
            "categorical level order": (
                "ALEPlot's MDS order (logical and date columns by frequency tables), with R's eigenvector sign "
                "on reference LAPACK; an ordered categorical keeps its order; binary: sorted values"
            ),
            "categorical local effect": "backward differences only: rows moved from the previous level to their own",
            "centring (categorical)": "subtract the level-frequency-weighted mean",
            "pairs": (
                "second-order differences on the cell corners, mean per cell; ale's row and column parts and a "
                "count-weighted constant removed"
            ),
            "empty pair cells": (
                "intrapolation: mean of the linear interpolations along the cell's row, column and both "
                "diagonals between filled cells; the rest 0"
            ),
            "pairs accepted": "any two features (numeric, binary, categorical, ordinal) in either order",
            "bootstrap replicates": (
                "rows resampled (pyale.ALE: R's own resamples for seed), full-data bins and centring constant; "
                "an empty bin makes it and every later bin NaN"
            ),
        },
    ),
}
