"""``pyale.ale``: the Pythonic front door.

Hand over a fitted model (scikit-learn, statsmodels, R through rpy2, or any
callable) and a DataFrame; choose whose conventions to follow.  The numbers
come from the same core as :func:`pyale.ALEPlot` (``conventions="aleplot"``)
or iml's ``FeatureEffect`` (``conventions="iml"``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import pandas as pd

from ._core.adapters import adapt_model
from ._core.main_effect import categorical_main_effect, numeric_main_effect
from ._core.pair_effect import categorical_numeric_pair_effect, numeric_pair_effect
from ._aleplot import read_pair
from ._core.calls import ModelCaller, PredictionError
from ._core.features import column_kind, read_feature, require_intervals, require_levels
from ._core.grid import aleplot_edges, iml_edges, resolve_level_order
from ._checks import check_choice, check_frame, check_int, check_numbers, is_tuple_label, resolve_column, resolve_pair
from ._frames import as_pandas
from ._result_list import ALEResults
from . import _present
from ._core.bounds import check_pair_cells, pair_cell_limit

__all__ = ["ale", "ALEResult"]

_CALLER = "ale"
_CONVENTIONS = ("aleplot", "iml")


@dataclass(frozen=True, eq=False, repr=False)
class ALEResult:
    """Accumulated local effects of one feature or a pair, for every model output.

    Attributes
    ----------
    features : tuple
        One or two column labels.
    kind : str
        ``"numeric"``, ``"categorical"``, ``"numeric x numeric"`` or
        ``"categorical x numeric"``.
    grid : tuple
        Per feature: interval edges (numeric) or level labels in the order used.
    effects : numpy.ndarray
        Centred ALE at every grid point (node for pairs) and output: shape
        ``grid shape + (n_outputs,)``.
    outputs : tuple
        Output names (class labels for a classifier; ``("yhat",)`` for one output).
    counts : numpy.ndarray
        Rows per interval, level, or cell.
    level_order : tuple or None
        Levels of the categorical feature in the order used.
    empty_cells : numpy.ndarray or None
        Pairs: cells without rows, whose local effect was borrowed from the
        nearest non-empty cell.
    conventions : str
        ``"aleplot"`` or ``"iml"``.

    Notes
    -----
    ``a == b`` is identity; :meth:`equals` compares the values.

    Examples
    --------
    >>> import numpy as np, pandas as pd, pyale
    >>> X = pd.DataFrame({"x": np.arange(8.0), "g": list("abababab")})
    >>> res = pyale.ale(lambda d: d["x"] * (d["g"] == "b"), X, "x", n_intervals=2)
    >>> res.kind, res.outputs, res.counts.tolist()
    ('numeric', ('yhat',), [4, 4])
    >>> print(res.to_frame())
         x output    ale
    0  0.0   yhat -1.625
    1  3.0   yhat -0.125
    2  7.0   yhat  1.875
    """

    features: tuple
    kind: str
    grid: tuple
    effects: np.ndarray
    outputs: tuple
    counts: np.ndarray
    level_order: tuple | None
    empty_cells: np.ndarray | None
    conventions: str

    def to_frame(self) -> pd.DataFrame:
        """Tidy long table: one row per grid point (node) and output.

        Columns: the feature(s), named by their column labels (grid values:
        interval edges as floats, or level labels), then ``output`` (the
        output's name) and ``ale``.  ``output`` and ``ale`` keep their names
        whatever the features are called: a feature labelled ``"output"`` or
        ``"ale"`` is written ``feature_output`` / ``feature_ale`` (prefixed
        again while still taken, e.g. by the pair's other feature).  Labels
        that are not strings (ints, tuples) are kept as they are.

        Examples
        --------
        >>> import numpy as np, pandas as pd
        >>> X = pd.DataFrame({"ale": np.arange(6.0), "x": np.arange(6.0) % 2})
        >>> list(ale(lambda d: d["ale"], X, "ale", n_intervals=2).to_frame().columns)
        ['feature_ale', 'output', 'ale']
        """
        from ._results import tidy_frame

        shape = self.effects.shape[:-1]
        index = np.indices(shape).reshape(len(shape), -1)
        n_out = len(self.outputs)
        features = []
        for axis, (name, values) in enumerate(zip(self.features, self.grid)):
            labels = np.empty(len(values), dtype=object)
            labels[:] = list(values)
            column = labels[index[axis]]
            if self.kind.split(" x ")[axis] == "numeric":
                column = column.astype(float)
            features.append((name, np.repeat(column, n_out)))
        outputs = np.empty(n_out, dtype=object)
        outputs[:] = list(self.outputs)
        return tidy_frame(features, [("output", np.tile(outputs, index.shape[1])),
                                     ("ale", self.effects.reshape(-1))])

    def __repr__(self) -> str:
        return _present.short_repr(self)

    def _repr_html_(self) -> str:
        return _present.html_view("ALEResult", _present.summary(self), lambda ax: self.plot(ax=ax),
                                  size=(5.0 * min(len(self.outputs), 3) if len(self.features) == 2 else 5.0, 3.6))

    def equals(self, other: object, *, rtol: float = 0.0, atol: float = 0.0) -> bool:
        """Whether ``other`` is an ALEResult with the same values (floats within ``rtol``/``atol``).

        Every field is compared, arrays element by element; the default is
        exact equality.  ``==`` is identity and never compares arrays.

        Parameters
        ----------
        other : object
            The object to compare with.
        rtol, atol : float, default 0.0
            Relative and absolute tolerance for floats.

        Returns
        -------
        bool
        """
        return _present.same_values(self, other, rtol=rtol, atol=atol)

    def plot(self, ax=None, *, output=None, **kwargs):
        """Draw the effect: a curve per output, bars, or one surface per output for a pair.

        Parameters
        ----------
        ax : matplotlib Axes or array of Axes, optional
            Where to draw (see :meth:`pyale.ALEDisplay.plot`); a new figure
            by default.
        output : label or list, optional
            The model output(s) to draw (all by default).
        **kwargs
            Keywords of :meth:`pyale.ALEDisplay.plot` (``label``, ``color``,
            ``line_kw``, ...).

        Returns
        -------
        ALEDisplay
        """
        from ._plot.display import ALEDisplay

        return ALEDisplay.from_results([self], ax=ax, output=output, **kwargs)


def _intervals(values, feature, conventions, n_intervals, grid):
    if grid is not None:
        points = check_numbers(grid, param="grid", caller=_CALLER, where=f"column {feature.name!r}")
        edges = np.unique(points)
        if edges.shape[0] < 2 or not np.all(np.isfinite(edges)):
            raise ValueError(
                f"The 'grid' parameter of {_CALLER} must hold at least two distinct finite values "
                f"for column {feature.name!r}. Got {grid!r} instead."
            )
        if values.min() < edges[0] or values.max() > edges[-1]:
            raise ValueError(
                f"The 'grid' parameter of {_CALLER} must cover column {feature.name!r} "
                f"([{float(values.min())!r}, {float(values.max())!r}]). Got edges from "
                f"{float(edges[0])!r} to {float(edges[-1])!r}."
            )
        counts = np.bincount(np.searchsorted(edges, values, side="left").clip(1) - 1, minlength=edges.size - 1)
        if (counts == 0).any():
            empty = int(np.flatnonzero(counts == 0)[0])
            raise ValueError(
                f"The 'grid' parameter of {_CALLER} leaves interval ({float(edges[empty])!r}, "
                f"{float(edges[empty + 1])!r}] of column {feature.name!r} without rows; "
                "ALE needs at least one row per interval."
            )
        return edges
    if conventions == "aleplot":
        edges = aleplot_edges(values, 40 if n_intervals is None else n_intervals)
    else:
        edges = iml_edges(values, 20 if n_intervals is None else n_intervals, integer=feature.integer)
    return require_intervals(edges, f"Column {feature.name!r}")


def _one(X, caller, name, conventions, n_intervals, grid, level_order):
    feature = read_feature(X[name], label=f"Column {name!r}")
    if level_order is not None and not feature.categorical:
        raise ValueError(
            f"The 'level_order' parameter of {_CALLER} applies to a categorical feature; column "
            f"{name!r} is numeric."
        )
    if grid is not None and feature.categorical:
        raise ValueError(
            f"The 'grid' parameter of {_CALLER} applies to a numeric feature; column {name!r} is "
            "categorical (use level_order= to order its levels)."
        )
    if feature.categorical:
        require_levels(feature, f"Column {name!r}")
        order = resolve_level_order(X, feature, level_order, caller=_CALLER)
        effect = categorical_main_effect(X, feature, order, caller)
        return "categorical", (effect.grid,), effect.effects, effect.counts, effect.grid, None
    edges = _intervals(feature.values, feature, conventions, n_intervals, grid)
    effect = numeric_main_effect(X, feature, edges, caller)
    return "numeric", (edges,), effect.effects, effect.counts, None, None


def _read_pair_for(X, names, conventions):
    """The pair's features, categorical first; under iml's conventions either order is accepted."""
    if conventions == "iml":
        first = read_feature(X[names[0]], label=f"Column {names[0]!r}")
        second = read_feature(X[names[1]], label=f"Column {names[1]!r}")
        if first.categorical and second.categorical:
            raise ValueError(
                f"{_CALLER} does not compute ALE for two categorical features ({names[0]!r}, "
                f"{names[1]!r}); iml 0.11.4 stops with 'ALE for two categorical features is not "
                "yet implemented.'"
            )
        if second.categorical:
            return second, first, (names[1], names[0])
        return first, second, names
    first, second = read_pair(X, names, caller_name=_CALLER, param="features")
    return first, second, names


def _check_cells(X, names, shape, n_intervals, grid, *, categorical_first=False) -> None:
    """Refuse a pair grid larger than pyale computes for the data (see pyale._core.bounds)."""
    limit = pair_cell_limit(X.shape[0])
    if grid is not None:
        param, value, advice = "grid", None, "Pass fewer edges."
    elif categorical_first:
        param, value, advice = "n_intervals", n_intervals, f"Use n_intervals <= {max(1, limit // shape[0]):,}."
    else:
        param, value, advice = "n_intervals", n_intervals, f"Use n_intervals <= {math.isqrt(limit):,}."
    check_pair_cells(X.shape[0], shape, param=param, caller=_CALLER, features=tuple(names), value=value,
                     advice=advice)


def _pair(X, caller, names, conventions, n_intervals, grid, level_order):
    given = tuple(names)
    first, second, names = _read_pair_for(X, given, conventions)
    grid1, grid2 = (None, None) if grid is None else _pair_grids(grid, given)
    if level_order is not None and not first.categorical:
        raise ValueError(
            f"The 'level_order' parameter of {_CALLER} applies to a categorical feature; columns "
            f"{given[0]!r} and {given[1]!r} are numeric."
        )
    if tuple(names) != given:  # iml: categorical x numeric given numeric first; the grids follow
        grid1, grid2 = grid2, grid1
    edges2 = _intervals(second.values, second, conventions, n_intervals, grid2)
    if first.categorical:
        require_levels(first, f"Column {first.name!r}")
        order = resolve_level_order(X, first, level_order, caller=_CALLER)
        _check_cells(X, names, (len(first.levels), len(edges2) - 1), n_intervals, grid, categorical_first=True)
        effect = categorical_numeric_pair_effect(X, first, order, second, edges2, caller, conventions=conventions)
        kind = "categorical x numeric"
        levels = effect.grid1
    else:
        edges1 = _intervals(first.values, first, conventions, n_intervals, grid1)
        _check_cells(X, names, (len(edges1) - 1, len(edges2) - 1), n_intervals, grid)
        effect = numeric_pair_effect(X, first, second, edges1, edges2, caller, conventions=conventions)
        kind = "numeric x numeric"
        levels = None
    return names, kind, (effect.grid1, effect.grid2), effect.effects, effect.counts, levels, effect.empty_cells


def _pair_grids(grid, names):
    """A pair's two user grids (None for a feature that uses the default grid)."""
    if not isinstance(grid, (list, tuple)) or len(grid) != 2 or not all(
        g is None or isinstance(g, (list, tuple, np.ndarray, pd.Index, pd.Series)) for g in grid
    ):
        raise ValueError(
            f"The 'grid' parameter of {_CALLER} must be a pair of sequences (or None) for the pair "
            f"{names!r}, one per feature. Got {grid!r} instead."
        )
    return grid


def _entries(X: pd.DataFrame, features: object) -> tuple[list, bool]:
    """The requested features as 1-tuples (one label) and 2-tuples (a pair); whether a list was given.

    A label (name or 0-based position) is one feature and a tuple of two
    labels a pair.  A list (or array, or pandas Index) holds such entries,
    where a list or array of two labels is a pair too.  A tuple that is a
    column's label names that column (refused when it is also a pair).
    """
    if isinstance(features, tuple):
        if is_tuple_label(X, features, param="features", caller=_CALLER, pair_form="[{pair}]"):
            return [(resolve_column(X, features, param="features", caller=_CALLER),)], False
        return [resolve_pair(X, features, caller_name=_CALLER, param="features")], False
    if not isinstance(features, (list, np.ndarray, pd.Index)):
        return [(resolve_column(X, features, param="features", caller=_CALLER),)], False
    entries = list(features)
    if not entries:
        raise ValueError(
            f"The 'features' parameter of {_CALLER} must name at least one feature. Got {features!r} instead."
        )
    out = []
    for entry in entries:
        if is_tuple_label(X, entry, param="features", caller=_CALLER, pair_form="[{pair}]"):
            out.append((resolve_column(X, entry, param="features", caller=_CALLER),))
        elif isinstance(entry, (tuple, list, np.ndarray, pd.Index)):
            out.append(resolve_pair(X, entry, caller_name=_CALLER, param="features"))
        else:
            out.append((resolve_column(X, entry, param="features", caller=_CALLER),))
    return out, True


def ale(
    model: object,
    X: pd.DataFrame,
    features: object,
    *,
    conventions: str = "aleplot",
    n_intervals: int | None = None,
    grid: Sequence | None = None,
    response: object | None = None,
    level_order: Sequence | None = None,
    max_rows_per_call: int | None = None,
    feature_names: Sequence | None = None,
):
    """Accumulated Local Effects of a fitted model.

    Parameters
    ----------
    model : object
        A fitted scikit-learn estimator or pipeline (classifiers explain
        class probabilities), a statsmodels results object (formulas are
        applied to the DataFrame), an R model through rpy2, or a callable
        ``f(frame) -> predictions``.
    X : pandas.DataFrame, polars.DataFrame, pyarrow.Table or numpy.ndarray
        The data the effects are estimated on.  Never modified.  Non-pandas
        tables are converted to pandas once; a plain callable is then handed
        frames of the type passed, a scikit-learn model what it was fitted on
        (see Notes).
    features : column label, pair of labels, or list of those
        One feature, a pair ``(a, b)``, or a list of such entries (then a
        list of results is returned, one per entry).  Labels may be column
        names or 0-based positions.  Inside the list a tuple, a list or an
        array of two labels is a pair: ``["a", "b"]`` asks for two main
        effects, ``[["a", "b"]]`` and ``[("a", "b")]`` for the pair.  A
        tuple that is a column's label (a flat index of tuples) names that
        column; one that is also a pair of labels is refused as ambiguous
        (pass its position, or ``[["a", "b"]]`` for the pair).  MultiIndex
        columns are refused (flatten them with ``X.columns.to_flat_index()``).
    conventions : {"aleplot", "iml"}, default "aleplot"
        Whose numbers to reproduce: ``ALEPlot::ALEPlot`` (grid from
        ``seq(1/K, 1, length.out = K)`` quantiles, K = 40 by default) or
        iml's ``FeatureEffect`` (grid from ``seq(0, 1, length.out =
        grid.size + 1)`` quantiles, rounded for integer columns, 20 by default).
        A pair with one categorical feature must list it first under
        ALEPlot's conventions; under iml's either order is accepted and the
        result lists the categorical feature first (iml's axes).
    n_intervals : int, optional
        ALEPlot's ``K`` or iml's ``grid.size``.
    grid : sequence, optional
        User interval edges for a numeric feature (a pair of sequences, or
        ``None`` for a feature on its default grid, for a pair).  They must
        cover the data and leave no interval empty.  Refused for a single
        categorical feature; in a list of features it serves the numeric
        entries.
    response : label or list, optional
        For a classifier, the class(es) to explain (all by default).
    level_order : sequence, optional
        Impose the order of a categorical feature's levels: any
        one-dimensional array-like listing each level once (compared by
        value; categories without rows may be listed and are dropped).
        Refused for a numeric feature; in a list of features it serves the
        categorical entries.
    max_rows_per_call : int, optional
        At most this many rows per model call.
    feature_names : sequence, optional
        Column names of a NumPy ``X`` (``x0``, ``x1``, ... by default).

    Returns
    -------
    ALEResult or ALEResults
        One result, or a list of them (with ``plot()``) for a list of features.

    Notes
    -----
    A scikit-learn model fitted on a DataFrame is handed a pandas DataFrame
    of its ``feature_names_in_`` columns (extra columns of X are dropped);
    one fitted on a NumPy array is handed a NumPy array; statsmodels and R
    models get pandas; any other model or callable gets the type of X.

    ``n_intervals`` and ``max_rows_per_call`` accept Python or NumPy
    integers and whole-number floats (``40.0``); anything else is a
    ``TypeError``.

    References
    ----------
    Apley, D. W. and Zhu, J. (2020). Visualizing the effects of predictor
    variables in black box supervised learning models. *Journal of the Royal
    Statistical Society: Series B* 82(4), 1059-1086.  R packages ALEPlot 1.1
    (``ALEPlot``) and iml 0.11.4 (``FeatureEffect``).

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> X = pd.DataFrame({"x": np.arange(8.0), "g": list("abababab")})
    >>> res = ale(lambda d: d["x"] * (d["g"] == "b"), X, "x", n_intervals=2)
    >>> res.grid[0].tolist(), res.effects[:, 0].round(3).tolist()
    ([0.0, 3.0, 7.0], [-1.625, -0.125, 1.875])
    """
    X, native = as_pandas(X, param="X", caller=_CALLER, feature_names=feature_names)
    check_frame(X, param="X", caller=_CALLER)
    check_choice(conventions, _CONVENTIONS, param="conventions", caller=_CALLER)
    if n_intervals is not None:
        n_intervals = check_int(n_intervals, param="n_intervals", caller=_CALLER, minimum=1)
    if max_rows_per_call is not None:
        max_rows_per_call = check_int(max_rows_per_call, param="max_rows_per_call", caller=_CALLER, minimum=1)
    entries, many = _entries(X, features)
    if many:
        _check_list_options(X, entries, grid, level_order)
    adapter = adapt_model(model, response=response, native=native)
    caller = ModelCaller(adapter.predict, name=f"{type(model).__name__}.predict" if adapter.kind != "callable" else "model",
                         max_rows=max_rows_per_call, single_output=False)
    results = []
    for entry in entries:
        entry_grid, entry_order = (grid, level_order) if not many else _options_for(X, entry, grid, level_order)
        try:
            results.append(_result(X, caller, adapter, entry, conventions, n_intervals, entry_grid, entry_order))
        except PredictionError as exc:
            if caller.calls == 0 and exc.__cause__ is not None:  # the very first call raised
                raise _explained(exc, X, model) from exc.__cause__
            raise
    return ALEResults(results) if many else results[0]

def _options_for(X: pd.DataFrame, entry, grid, level_order):
    """In a list of features, ``grid`` serves numeric entries and ``level_order`` categorical ones."""
    kinds = [column_kind(X[name]) for name in entry]
    categorical = "categorical" in kinds
    return (grid if "categorical" not in kinds or len(entry) == 2 else None,
            level_order if categorical else None)


def _check_list_options(X: pd.DataFrame, entries: list, grid, level_order) -> None:
    """Refuse a grid or level order that no entry of a feature list would use."""
    kinds = {column_kind(X[name]) for entry in entries for name in entry}
    if level_order is not None and "categorical" not in kinds:
        raise ValueError(
            f"The 'level_order' parameter of {_CALLER} applies to categorical features; none of the "
            f"requested features is categorical."
        )
    if grid is not None and kinds == {"categorical"}:
        raise ValueError(
            f"The 'grid' parameter of {_CALLER} applies to numeric features; every requested feature "
            "is categorical."
        )


def _result(X, caller, adapter, entry, conventions, n_intervals, grid, level_order) -> ALEResult:
    if len(entry) == 2:
        names, kind, grids, effects, counts, levels, empty = _pair(
            X, caller, entry, conventions, n_intervals, grid, level_order
        )
    else:
        names = entry
        kind, grids, effects, counts, levels, empty = _one(
            X, caller, entry[0], conventions, n_intervals, grid, level_order
        )
    outputs = adapter.output_names or caller.output_names
    if outputs == ["0"]:
        outputs = ["yhat"]
    return ALEResult(
        features=names,
        kind=kind,
        grid=tuple(tuple(g) if isinstance(g, tuple) else g for g in grids),
        effects=effects,
        outputs=tuple(outputs),
        counts=counts,
        level_order=None if levels is None else tuple(levels),
        empty_cells=empty,
        conventions=conventions,
    )


def _explained(exc: PredictionError, X: pd.DataFrame, model: object) -> PredictionError:
    """The model's first failure, with what differs between its fitted columns and X's.

    scikit-learn models are handed their ``feature_names_in_`` columns, and a
    missing one is named where they are selected; a statsmodels model gets X
    whole, so its formula or ``exog_names`` is compared with X here.
    """
    expected = None
    inner = getattr(model, "model", None)
    if inner is not None and hasattr(inner, "exog_names"):
        formula = getattr(inner, "formula", None)
        if formula is not None:
            return PredictionError(f"{exc} Its formula is {formula!r}: X must hold every variable it uses.")
        expected = inner.exog_names
    if expected is None:
        return exc
    return PredictionError(f"{exc}{_column_mismatch(list(expected), list(X.columns))}")


def _column_mismatch(expected: list, columns: list) -> str:
    """What differs between the columns a model was fitted on and X's (empty when nothing does)."""
    missing = [c for c in expected if c not in columns]
    if missing:
        return f" It expects columns {expected!r}; X lacks {missing!r}."
    extra = [c for c in columns if c not in expected]
    if extra:
        return f" It expects columns {expected!r}; X also has {extra!r}."
    if columns != expected:
        return f" It expects columns {expected!r}; X has them in another order: {columns!r}."
    return ""
