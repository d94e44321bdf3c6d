"""The response distribution of the ALE statistics on an engine, exactly.

NALED and NALER map effect values through the normaliser ``N`` of the
response's distribution (:class:`~pyale._core.reduce.stats.Normaliser`): it needs
the (weighted) median ``m`` of the response, the largest negative and the
smallest positive ``c = y - m``, and the ECDFs of ``-c[c <= 0]`` and
``c[c >= 0]`` at the effect values asked about.  In memory the normaliser
keeps the sorted response; on an engine the response is too long for
that, and only the values at which ``N`` is evaluated matter.  So:

* the median comes from exact order statistics (weighted: the smallest
  values whose cumulative weight reaches ``W / 2`` and exceeds it) of the
  response column, or of the model's predictions seen as a column
  (:class:`PredictionEngine`: every pass over it calls the model on every
  row);
* one more pass counts, per asked value ``v``, the rows with ``v <= c <= 0``
  (``v < 0``) or ``0 <= c <= v`` (``v > 0``), and finds the largest
  negative and smallest positive ``c``;
* :class:`TabulatedNormaliser` is a :class:`Normaliser` whose ECDF tables
  hold exactly those values, so :meth:`Normaliser.__call__`'s arithmetic
  gives the in-memory doubles (weights are added exactly before one
  rounding, :mod:`pyale._rbase.exact`).  A value not yet in the table costs
  one more counting pass, never a wrong number.

:class:`EngineNormalisers` asks every result of a call for its values
first, so one counting pass serves them all.
"""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd

from ..._engines import Engine, add_results
from ..exact import order_statistics_of, weighted_order_statistics_of
from ..exact.columns import numeric_values
from ..._rbase.exact import ExactSums, as_doubles, exact_group_sums, exact_total
from .stats import Normaliser, ale_statistics

__all__ = ["PredictionEngine", "EngineNormalisers", "TabulatedNormaliser"]


def _predicted(block, offset, *, func, caller, weight, names):
    model_rows = block if weight is None else block.drop(columns=[weight])
    y = caller(model_rows, "the response distribution of the ALE statistics")
    frame = pd.DataFrame({name: y[:, j] for j, name in enumerate(names)})
    if weight is not None:
        frame[weight] = block[weight].to_numpy()
    return func(frame, offset)


class PredictionEngine(Engine):
    """The model's predictions on another engine's rows, one column per output (and the weights).

    Every pass calls the model on every row again: nothing is stored.
    """

    def __init__(self, rows: Engine, caller, n_outputs: int, weight=None):
        self.base, self.caller, self.weight = rows, caller, weight
        self._speaks_as(rows)
        names = [f"output {j}" for j in range(n_outputs)]
        self.names = names
        self.columns = pd.Index(names + ([] if weight is None else [weight]))
        self.dtypes = pd.Series([np.dtype(float)] * len(self.columns), index=self.columns, dtype=object)

    def map_reduce(self, func, combine=add_results, *, columns=None):
        return self.base.map_reduce(functools.partial(_predicted, func=func, caller=self.caller, weight=self.weight,
                                                      names=self.names), combine)


def _count_block(block, offset, *, columns, weight, medians, points):
    """Per column: rows (weights) with c <= 0 and c >= 0, the extreme c around 0, and per asked value the rows between."""
    w = None if weight is None else numeric_values(block[weight])
    out = {}
    for name in columns:
        y = numeric_values(block[name])
        c = y - medians[name]
        lows, highs = c <= 0, c >= 0
        negative, positive = c[c < 0], c[c > 0]
        neg_points, pos_points = points[name]
        low_c, high_c = c[lows], c[highs]
        low_w = None if w is None else w[lows]
        high_w = None if w is None else w[highs]
        out[name] = {
            "lower": _weight(low_w, low_c.shape[0]),
            "upper": _weight(high_w, high_c.shape[0]),
            "below": float(negative.max()) if negative.size else -np.inf,
            "above": float(positive.min()) if positive.size else np.inf,
            # v <= c (v < 0, among c <= 0) and c <= v (v > 0, among c >= 0)
            "at_lower": _at_least(low_c, low_w, neg_points),
            "at_upper": _at_most(high_c, high_w, pos_points),
        }
    return out


# Weighted counts are exact weight sums (pyale._rbase.exact), added across blocks and rounded
# once in ``tabulate``: the doubles of the in-memory Normaliser, whatever the partitions.
def _weight(w, n):
    return n if w is None else exact_total(w)


def _at_least(values, w, points):
    """Rows (weights) with ``value >= point``, per point (``points`` sorted)."""
    if w is None:
        index = np.searchsorted(np.sort(values), points, side="left")
        return (values.shape[0] - index).astype(np.int64)
    above = np.searchsorted(points, values, side="right")  # points <= value
    sums = exact_group_sums(above, w, points.shape[0] + 1)
    return ExactSums(sums.base, np.cumsum(sums.limbs[::-1], axis=0)[::-1][1:])


def _at_most(values, w, points):
    """Rows (weights) with ``value <= point``, per point (``points`` sorted)."""
    if w is None:
        return np.searchsorted(np.sort(values), points, side="right").astype(np.int64)
    below = np.searchsorted(points, values, side="left")  # points < value
    return exact_group_sums(below, w, points.shape[0] + 1).cumsum(0)[: points.shape[0]]



def _combine_counts(a, b):
    out = {}
    for name in a:
        x, y = a[name], b[name]
        out[name] = {
            "lower": x["lower"] + y["lower"], "upper": x["upper"] + y["upper"],
            "below": max(x["below"], y["below"]), "above": min(x["above"], y["above"]),
            "at_lower": x["at_lower"] + y["at_lower"], "at_upper": x["at_upper"] + y["at_upper"],
        }
    return out


class TabulatedNormaliser:
    """:class:`~pyale._core.reduce.stats.Normaliser` of an engine's response, exact at the values asked about."""

    def __init__(self, owner: "EngineNormalisers", column):
        self.owner, self.column = owner, column

    def __call__(self, values: np.ndarray) -> np.ndarray:
        v = np.asarray(values, dtype=float)
        self.owner.tabulate({self.column: v.ravel()})
        return self.owner.normaliser(self.column)(v)


class _Recorder:
    """A normaliser stand-in that notes the values it is asked about."""

    def __init__(self):
        self.values = []

    def __call__(self, values):
        v = np.asarray(values, dtype=float)
        self.values.append(v.ravel())
        return np.zeros(v.shape)


class EngineNormalisers:
    """The normalisers of a call's outputs on an engine, built on first use (see the module notes).

    Parameters
    ----------
    data : EngineData
        The rows (and weights) of the call.
    response : label, optional
        A column of the data holding the observed response (one
        distribution for every output); by default the model's predictions.
    caller : ModelCaller
        The model (when there is no response column).
    n_outputs : int
    """

    def __init__(self, data, response, caller, n_outputs: int):
        self.data, self.response, self.caller, self.n_outputs = data, response, caller, n_outputs
        self.results = []  # the call's results: their values are tabulated together
        self._engine = None
        self._medians: dict = {}
        self._tables: dict = {}
        self._built = None

    def __call__(self) -> list:
        if self._built is None:
            if self.response is not None:
                self._engine, columns = self.data.rows, [self.response] * self.n_outputs
            else:
                self._engine = PredictionEngine(self.data.rows, self.caller, self.n_outputs, self.data.weight)
                columns = self._engine.names
            self._medians = self._median_of(list(dict.fromkeys(columns)))
            self._built = [TabulatedNormaliser(self, column) for column in columns]
            self._prefetch(columns)
        return self._built

    def _median_of(self, columns) -> dict:
        from ..exact import column_checks

        weight = self.data.weight
        checks = column_checks(self._engine, columns, weight=weight)
        self._checks = checks
        out = {}
        if weight is None:
            wanted = {}
            for c in columns:
                n = checks[c].n_finite
                cumulative_half = n / 2
                wanted[c] = [int(np.ceil(cumulative_half)) - 1 if n % 2 else n // 2 - 1, min(n // 2, n - 1)]
            found = order_statistics_of(self._engine, wanted, checks=checks)
        else:
            targets = {}
            for c in columns:
                half = checks[c].finite_weight / 2
                targets[c] = [half, np.nextafter(half, np.inf)]
            found = weighted_order_statistics_of(self._engine, targets, weight, checks=checks)
        for c in columns:
            a, b = found[c]
            median = float(a) if a == b else float((a + b) / 2)
            ca, cb = a - median, b - median
            middle = float(ca) if ca == cb else float((ca + cb) / 2)
            out[c] = (median, middle, float(checks[c].minimum) - median, float(checks[c].maximum) - median)
        return out

    def _prefetch(self, columns) -> None:
        """Tabulate every value the call's results will ask about, in one pass."""
        points: dict = {c: [] for c in set(columns)}
        for result in self.results:
            for j, column in enumerate(columns[: len(result.outputs)]):
                recorder = _Recorder()
                ale_statistics(result.effects[..., [j]], result.counts, result.numeric_axes, recorder)
                if result.replicates is not None:
                    ale_statistics(result.replicates[..., [j]], result.replicate_counts, result.numeric_axes,
                                   recorder)
                points[column].extend(recorder.values)
        self.tabulate({c: np.concatenate(v) if v else np.zeros(0) for c, v in points.items()})

    def tabulate(self, wanted: dict) -> None:
        """Count the rows around every new value of ``wanted`` (column -> values): at most one pass."""
        new = {}
        for column, values in wanted.items():
            values = values[np.isfinite(values) & (values != 0)]
            table = self._tables.get(column)
            known = np.zeros(0) if table is None else np.concatenate((table["neg"], table["pos"]))
            fresh = np.setdiff1d(np.unique(values), known)
            if fresh.shape[0] or table is None:
                new[column] = fresh
        if not new:
            return
        points = {c: (np.sort(v[v < 0]), np.sort(v[v > 0])) for c, v in new.items()}
        counts = self._engine.map_reduce(
            functools.partial(_count_block, columns=list(new), weight=self.data.weight,
                              medians={c: self._medians[c][0] for c in new}, points=points),
            _combine_counts, columns=list(new) + ([self.data.weight] if self.data.weight is not None else []),
        )
        for column, found in counts.items():
            neg, pos = points[column]
            table = self._tables.setdefault(column, {"neg": np.zeros(0), "pos": np.zeros(0), "neg_n": np.zeros(0),
                                                     "pos_n": np.zeros(0)})
            table.update(lower=as_doubles(found["lower"]), upper=as_doubles(found["upper"]), below=found["below"],
                         above=found["above"])
            table["neg"] = np.concatenate((table["neg"], neg))
            table["neg_n"] = np.concatenate((table["neg_n"], as_doubles(found["at_lower"])))
            table["pos"] = np.concatenate((table["pos"], pos))
            table["pos_n"] = np.concatenate((table["pos_n"], as_doubles(found["at_upper"])))

    def normaliser(self, column) -> Normaliser:
        """The tabulated :class:`Normaliser` of ``column`` (the values asked about so far)."""
        median, middle, lowest, highest = self._medians[column]
        table = self._tables[column]
        below = table["below"] if middle != highest else 0.0
        above = table["above"] if middle != lowest else 0.0
        lower_order = np.argsort(-table["neg"])  # the ECDF's argument -v, ascending
        upper_order = np.argsort(table["pos"])
        lower = -table["neg"][lower_order]
        upper = table["pos"][upper_order]
        return Normaliser(
            lower=lower,
            lower_cum=table["neg_n"][lower_order] / table["lower"] if lower.size else lower,
            upper=upper,
            upper_cum=table["pos_n"][upper_order] / table["upper"] if upper.size else upper,
            below=below,
            above=above,
        )
