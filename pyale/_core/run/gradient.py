"""Gradient ALE (DALE / RHALE) and heterogeneity-aware intervals in the one estimator.

Gradient ALE (Gkolemis et al., 2022, 2023) replaces each row's local
difference across its interval, ``f(z_k) - f(z_{k-1})``, by its derivative
times the interval's width, ``(z_k - z_{k-1}) * df/dx_s(x^i)``: the mean per
interval is then ``(z_k - z_{k-1}) * mu_k`` with ``mu_k`` the mean derivative
of the interval's rows, and accumulating those gives DALE's (RHALE's)

.. math::

    \\hat f(z_k) = \\sum_{j \\le k} (z_j - z_{j-1})\\, \\mu_j .

So a gradient plan is an ordinary :class:`~pyale._core.map.local.Plan` whose
convention is a :class:`GradientRule`: the map stage reads the derivatives
(one Jacobian per block of rows, shared by every feature of the call:
:class:`JacobianTable`) instead of calling the model twice per feature, and
the reduce stage is the base convention's own (weighted local means,
accumulation, centring, bootstrap replicates, heterogeneity).  The
heterogeneity of an interval is the spread of ``width * derivative``: the
interval's width times the standard deviation of the derivatives
(effector's ``sqrt(bin_variance)`` times the width).

Heterogeneity-aware intervals (:mod:`.binning`) need each row's local effect
before the grid exists: the derivatives (gradient), or the secants across
the cells of the candidate grid (finite differences, one pass of two
predictions per row).  :func:`heterogeneity_plans` replaces the numeric
main-effect plans of a call by plans on those intervals.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import Callable

import numpy as np
import pandas as pd

from ..grid.binning import HeterogeneityBinning, NoBinningError, cell_sums, edges_from_cells, find_edges
from ..conventions import CONVENTIONS
from ..conventions.base import Convention
from ..grid.features import read_feature
from ..map.jacobians import jacobian_function
from ..map.local import Entries, NumericAxis, Plan

__all__ = ["JacobianTable", "GradientRule", "METHODS", "heterogeneity_plans", "rhale_plans", "secant_local_effects"]


def left_closed_bins(values: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Interval of each value for intervals ``[edges[k], edges[k + 1])``, the maximum in the last; -1 outside.

    As the bin search counts rows, and as effector assigns them (``np.digitize``).
    """
    bins = np.searchsorted(edges, values, side="right") - 1
    bins[values == edges[-1]] = edges.shape[0] - 2
    bins[(values < edges[0]) | (values > edges[-1])] = -1
    return bins


@dataclass(frozen=True)
class SearchedAxis(NumericAxis):
    """Heterogeneity-aware intervals ``[z[k], z[k + 1])`` (the maximum in the last), as the search counted rows.

    Every other numeric axis is right-closed (R's ``cut``); these intervals
    hold the rows the bin search weighed when it chose them, and the rows
    effector puts in them.
    """

    def bins(self, block: pd.DataFrame) -> np.ndarray:
        if self.known is not None and self.known[0] is block:
            return self.known[1]
        return left_closed_bins(block[self.name].to_numpy(dtype=float, na_value=np.nan), self.edges)


def searched_axis(frame: pd.DataFrame, feature, edges: np.ndarray) -> SearchedAxis:
    """The axis of heterogeneity-aware ``edges`` over ``frame``'s column (bins and counts computed once)."""
    bins = left_closed_bins(feature.values, edges)
    counts = np.bincount(bins[bins >= 0], minlength=edges.shape[0] - 1)
    known = (frame, bins, counts if (bins >= 0).all() else None)
    return SearchedAxis(feature.name, edges, counts > 0, known=known)


class JacobianTable:
    """Each row's derivatives with respect to each column of X, once per block of rows.

    ``function(array (n, p)) -> (n, p)`` is called on a block's columns (all
    numeric, in X's order) at most once: every gradient plan of the call
    reads its column from the same table.  ``max_rows`` splits the call.
    """

    def __init__(self, function: Callable[[np.ndarray], np.ndarray], columns, *, max_rows: int | None = None,
                 caller: str = "ale"):
        self.function = function
        self.columns = list(columns)
        self.max_rows = max_rows
        self.caller = caller
        self.calls = 0
        self._last = None

    def __getstate__(self):
        state = dict(self.__dict__)
        state["_last"] = None
        return state

    def values(self, block: pd.DataFrame) -> np.ndarray:
        """The ``(n, p)`` derivatives of the block's rows (memoised for the latest block)."""
        if self._last is not None and self._last[0] is block:
            return self._last[1]
        array = block[self.columns].to_numpy(dtype=np.float64)
        n = array.shape[0]
        step = n if not self.max_rows else self.max_rows
        parts = [self._one(array[start:start + step]) for start in range(0, n, max(step, 1))]
        out = np.concatenate(parts, axis=0) if parts else np.empty((0, len(self.columns)))
        self._last = (block, out)
        return out

    def _one(self, array: np.ndarray) -> np.ndarray:
        self.calls += 1
        out = np.asarray(self.function(array), dtype=np.float64)
        if out.ndim == 3 and out.shape[2] == 1:
            out = out[:, :, 0]
        if out.shape != array.shape:
            raise ValueError(
                f"The jacobian of {self.caller} must return one derivative per row and column, shape "
                f"{array.shape}; it returned shape {out.shape}. (method='gradient' explains a model with one output.)"
            )
        if not np.isfinite(out).all():
            bad = np.argwhere(~np.isfinite(out))[0]
            raise ValueError(
                f"The jacobian of {self.caller} returned {float(out[bad[0], bad[1]])!r} for column "
                f"{self.columns[bad[1]]!r}; derivatives must be finite."
            )
        return out

    def column(self, block: pd.DataFrame, name) -> np.ndarray:
        return self.values(block)[:, self.columns.index(name)]


class GradientRule(Convention):
    """A numeric main effect from derivatives: ``width * df/dx`` per row, then the base convention's reduce."""

    name = "gradient"
    label = "gradient ALE (DALE / RHALE)"

    def __init__(self, base: Convention, table: JacobianTable):
        self.base = base
        self.table = table
        self.default_intervals = base.default_intervals

    def __eq__(self, other) -> bool:
        return self is other

    def __hash__(self) -> int:
        return id(self)

    def edges(self, values, n_intervals, integer=False):
        return self.base.edges(values, n_intervals, integer)

    def block_entries(self, plan: Plan, block: pd.DataFrame, caller, *, rows_per_call=None,
                      shared=None) -> dict[str, Entries]:
        axis = plan.axes[0]
        bins = axis.bins(block)
        rows = None if bins.shape[0] == 0 or bins.min() >= 0 else np.flatnonzero(bins >= 0)
        kept = bins if rows is None else bins[rows]
        derivatives = self.table.column(block, axis.name)
        if rows is not None:
            derivatives = derivatives[rows]
        widths = np.diff(axis.edges)
        values = (derivatives * widths[kept])[:, None]
        counts = axis.counts(block) if rows is None else None
        return {"local": Entries(kept, rows, axis.n_intervals, values, counts)}

    def model_rows(self, plan: Plan, frame: pd.DataFrame) -> int:
        return 0

    def finish(self, plan: Plan, sums: dict):
        return self.base.finish(plan, sums)


def secant_local_effects(frame: pd.DataFrame, name, edges: np.ndarray, caller, purpose: str) -> np.ndarray:
    """Each row's secant ``(f(e_{m+1}) - f(e_m)) / dx`` across its cell of the uniform candidate grid.

    Cells as the bin search puts rows in them (``[e_m, e_{m+1})``, the
    maximum in the last).  Returns ``(n, n_outputs)``.
    """
    x = frame[name].to_numpy(dtype=float)
    n_cells = edges.shape[0] - 1
    dx = (edges[-1] - edges[0]) / n_cells
    cell = np.clip(np.searchsorted(edges, x, side="right") - 1, 0, n_cells - 1)
    lower, upper = frame.copy(), frame.copy()
    lower[name] = edges[cell]
    upper[name] = edges[cell + 1]
    y_upper = caller(upper, f"{purpose} (rows at the upper candidate edge)", private=True)
    y_lower = caller(lower, f"{purpose} (rows at the lower candidate edge)", private=True)
    return (y_upper - y_lower) / dx


def heterogeneity_plans(planned: list, X: pd.DataFrame, *, weights, caller, binning: HeterogeneityBinning | None,
                        table: JacobianTable | None, caller_name: str) -> list:
    """The call's ``(names, kind, Plan)`` list with numeric main effects on RHALE's intervals and/or from gradients.

    ``binning`` None keeps each plan's intervals; ``table`` None keeps the
    finite differences.  Categorical features and pairs are left as planned.
    """
    out = []
    for names, kind, plan in planned:
        if kind != "numeric" or (binning is None and table is None):
            out.append((names, kind, plan))
            continue
        axis = plan.axes[0]
        edges = axis.edges
        if binning is not None:
            feature = read_feature(X[axis.name], label=f"Column {axis.name!r}")
            values = feature.values
            label = f"Column {axis.name!r}"
            if table is not None:
                local = table.column(X, axis.name)
            else:
                candidates = binning.candidate_edges(float(values.min()), float(values.max()))
                secants = secant_local_effects(X, axis.name, candidates, caller,
                                               f"the heterogeneity-aware intervals of {axis.name!r}")
                if secants.shape[1] != 1:
                    raise ValueError(
                        f"The 'binning' parameter of {caller_name} chooses intervals from one output's local "
                        f"effects; the model has {secants.shape[1]} outputs. Pick one with response=."
                    )
                local = secants[:, 0]
            try:
                edges = find_edges(values, local, binning, weights=weights, label=label)
            except NoBinningError as exc:
                raise ValueError(f"The 'binning' parameter of {caller_name}: {exc}") from None
            axis = searched_axis(X, feature, edges)
        convention = plan.convention if table is None else GradientRule(plan.convention, table)
        out.append((names, kind, dataclasses.replace(plan, axes=(axis,), convention=convention)))
    return out


#: ``method=`` of :func:`pyale.ale`.
METHODS = ("finite_difference", "gradient")


def rhale_plans(planned: list, X: pd.DataFrame, weights, *, engine_data, conventions: str, method: str,
                model: object, jacobian: object, binning: HeterogeneityBinning | None, caller,
                max_rows: int | None, caller_name: str) -> list:
    """The front-end's hook: ``planned`` for ``method`` and ``binning`` (unchanged for plain finite differences)."""
    if method != "gradient" and jacobian is not None:
        raise ValueError(
            f"The 'jacobian' parameter of {caller_name} is used with method='gradient' only; "
            f"method={method!r} differentiates by calling the model."
        )
    if method != "gradient" and binning is None:
        return planned
    what = "method='gradient'" if method == "gradient" else "binning"
    if engine_data is not None and binning is not None and method != "gradient":
        raise ValueError(
            f"The binning option of {caller_name} chooses intervals from secants on in-memory frames only; on "
            f"this frame use it with method='gradient', or collect the rows into memory first "
            f"({engine_data.rows.collect})."
        )
    refusal = CONVENTIONS[conventions].no_derivatives
    if refusal:
        able = [repr(name) for name, rules in CONVENTIONS.items() if not rules.no_derivatives]
        raise ValueError(
            f"The {what} option of {caller_name} cannot follow conventions={conventions!r} ({refusal}); "
            f"use {' or '.join(able)}."
        )
    table = None
    if method == "gradient":
        numeric = [c for c in X.columns if not pd.api.types.is_numeric_dtype(X[c].dtype)
                   or pd.api.types.is_bool_dtype(X[c].dtype)]
        if numeric:
            raise ValueError(
                f"method='gradient' of {caller_name} hands the model one float array of X's columns; column "
                f"{numeric[0]!r} is not numeric ({X[numeric[0]].dtype}). Encode it first, or use "
                "method='finite_difference'."
            )
        table = JacobianTable(jacobian_function(model, jacobian, caller=caller_name), X.columns,
                              max_rows=max_rows, caller=caller_name)
    if engine_data is not None:
        return engine_heterogeneity_plans(planned, engine_data, binning=binning, table=table, caller_name=caller_name)
    return heterogeneity_plans(planned, X, weights=weights, caller=caller, binning=binning, table=table,
                               caller_name=caller_name)


def _cell_block(block, offset, *, table, ranges, n_cells, weight, unit):
    """One block's per-cell (rows, sum, sum of squares) of each feature's derivatives (weights in units)."""
    w = None if weight is None else block[weight].to_numpy(dtype=float) / unit
    rows = block if weight is None else block.drop(columns=[weight])
    out = {}
    for name, (lo, hi) in ranges.items():
        x = rows[name].to_numpy(dtype=float)
        y = table.column(rows, name)
        if w is not None:
            keep = w > 0
            x, y, wk = x[keep], y[keep], w[keep]
        else:
            wk = None
        out[name] = tuple(cell_sums(x, y, wk, lo, hi, n_cells))
    return out


def engine_heterogeneity_plans(planned: list, data, *, binning, table: JacobianTable, caller_name: str) -> list:
    """Gradient plans on an engine frame; with ``binning``, the edges from one pass of per-cell sums.

    The pass takes each block's Jacobian where its rows live and adds up,
    per feature and candidate cell, the rows (weights in units of the
    smallest positive one), the derivatives and their squares: what the
    search needs, the same sums as in memory up to the order of addition.
    """
    numeric = [plan.axes[0].name for _, kind, plan in planned if kind == "numeric"]
    edges = {}
    if binning is not None and numeric:
        ranges = {name: data.value_range(name) for name in dict.fromkeys(numeric)}
        unit = data.weight_unit if data.weight is not None else 1.0
        sums = data.rows.map_reduce(functools.partial(
            _cell_block, table=table, ranges=ranges, n_cells=binning.max_intervals, weight=data.weight,
            unit=unit))
        for name, (lo, hi) in ranges.items():
            try:
                edges[name] = edges_from_cells(*sums[name], binning, lo, hi, label=f"Column {name!r}")
            except NoBinningError as exc:
                raise ValueError(f"The 'binning' parameter of {caller_name}: {exc}") from None
    out = []
    for names, kind, plan in planned:
        if kind != "numeric":
            out.append((names, kind, plan))
            continue
        axis = plan.axes[0]
        if axis.name in edges:
            e = edges[axis.name]
            axis = SearchedAxis(axis.name, e, np.ones(e.shape[0] - 1, dtype=bool))
        out.append((names, kind, dataclasses.replace(plan, axes=(axis,), convention=GradientRule(plan.convention,
                                                                                                  table))))
    return out
