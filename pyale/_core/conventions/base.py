"""The interface every convention implements, and what all of them share.

A :class:`Convention` is one reference package's rules as an object that the
estimator core calls at each stage; the core never asks which package it
serves:

* grid: :meth:`~Convention.edges`, :meth:`~Convention.probabilities`,
  :meth:`~Convention.every_value_is_an_edge` and
  :attr:`~Convention.rounds_integer_edges` (the engines' shared passes build
  the same edges from them), and :meth:`~Convention.read_pair` (which pairs
  it accepts, in which order);
* map (where rows move): :meth:`~Convention.block_entries`, with
  :meth:`~Convention.shares_rows` and :meth:`~Convention.model_rows`;
* reduce (how local effects are accumulated and centred):
  :meth:`~Convention.finish`.

Each convention is one module of this package (:mod:`.aleplot`,
:mod:`.iml`, :mod:`.alepkg`); :data:`pyale._core.conventions.CONVENTIONS`
names them for ``conventions=``.  The documentation's conventions table is
generated from :meth:`Convention.describe`, so the table and the code cannot
drift apart.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..._rbase.weighted import weighted_sample, weighted_type1_positions
from ..grid.pairs import read_pair
from ..reduce.estimate import Estimate
from ..map.local import Entries, Plan

__all__ = ["Convention", "COMMON_RULES", "weighted_edges"]

#: Beyond this many intervals per row (with weights) pyale refuses rather than build the probabilities.
_MAX_INTERVALS_PER_ROW = 16


class Convention:
    """The rules of one reference package, as the estimator core calls them.

    Subclasses set the class attributes and implement the methods; one
    instance of each serves every effect (a :class:`~pyale._core.map.local.Plan`
    holds it).  Conventions hold no state: two instances of one class are
    equal, so plans survive being pickled to Dask or Spark workers.

    Attributes
    ----------
    name : str
        The value of ``conventions=``.
    label : str
        The package and version reproduced.
    default_intervals : int
        Intervals per numeric feature when none is given.
    empty_user_intervals : {"error", "zero"}
        What an interval of a user grid without rows contributes.
    rounds_integer_edges : bool
        Whether the quantile edges of an integer column are rounded.
    rules : dict
        Row name -> plain-language statement of each rule (documentation).
    no_derivatives : str
        Empty when ``method="gradient"`` and heterogeneity-aware ``binning``
        may follow this convention; otherwise why not (the error says it).
    no_comparison : str
        Empty when :func:`pyale.compare` may compare segments under this
        convention; otherwise why not.
    """

    name: str
    label: str
    default_intervals: int
    empty_user_intervals: str = "error"
    rounds_integer_edges: bool = False
    rules: dict = {}
    no_derivatives: str = ""
    no_comparison: str = ""

    def __eq__(self, other) -> bool:
        return type(self) is type(other)

    def __hash__(self) -> int:
        return hash(type(self))

    def __repr__(self) -> str:
        return f"<convention {self.name!r}: {self.label}>"

    def describe(self) -> dict:
        """Row name -> text, for the documentation's conventions table."""
        return dict(self.rules)

    # -- grid
    def edges(self, values: np.ndarray, n_intervals: int, integer: bool = False) -> np.ndarray:
        """Interval edges of a numeric feature's values (in memory)."""
        raise NotImplementedError

    def probabilities(self, n_intervals: int) -> tuple[np.ndarray, bool]:
        """The grid's probability vector as R builds it, and whether the minimum is prepended."""
        raise NotImplementedError

    def every_value_is_an_edge(self, n_values: int, n_intervals: int) -> bool:
        """Whether ``n_intervals`` makes every distinct value an edge (see :mod:`pyale._core.grid`)."""
        raise NotImplementedError

    def read_pair(self, data, names: tuple, caller: str) -> tuple:
        """The two features of a pair and their names, in the order the effect uses.

        ``data`` answers the grid stage's questions (a frame's or an
        engine's rows).  ALEPlot's rule by default: numeric x numeric, or a
        categorical feature first; anything else is a clear error.
        """
        first, second = read_pair(data, names, caller, param="features")
        return first, second, tuple(names)

    # -- map
    def block_entries(self, plan: Plan, block: pd.DataFrame, caller, *, rows_per_call=None,
                      shared=None) -> dict[str, Entries]:
        """The local differences of one block of rows for one effect.

        Returns ``{"local": Entries}`` and, where centring uses other groups
        than the local effects, ``"centre"`` too.  ``shared`` is a
        ``(ShiftedFrames, last_use)`` pair over all of the block's rows, for
        plans whose :meth:`shares_rows` is true (see
        :func:`~pyale._core.map.calls.predict_variants`).
        """
        raise NotImplementedError

    def shares_rows(self, plan: Plan) -> bool:
        """Whether the plan's map stage can use a private copy of all rows shared with other effects."""
        return False

    def model_rows(self, plan: Plan, frame: pd.DataFrame) -> int:
        """Rows the model is asked about for the plan on an in-memory frame (progress bars)."""
        return 2 * len(plan.axes) * frame.shape[0]

    # -- reduce
    def finish(self, plan: Plan, sums: dict) -> Estimate:
        """The summed blocks of one plan (set name -> GroupSums) as its centred effect and replicates."""
        raise NotImplementedError


#: The rules ALEPlot 1.1 and iml 0.11.4 share (rows of the conventions table).
COMMON_RULES = {
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
        if integer and convention.rounds_integer_edges:
            edges = np.round(edges)
        edges = np.unique(edges)
    return edges
