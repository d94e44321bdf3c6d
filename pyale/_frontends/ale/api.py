"""``pyale.ale``: the Pythonic front door.

Hand over a fitted model (scikit-learn, statsmodels, R through rpy2, or any
callable) and a DataFrame; choose whose conventions to follow.  The numbers
come from the same core as :func:`pyale.ALEPlot` (``conventions="aleplot"``)
or iml's ``FeatureEffect`` (``conventions="iml"``).
"""

from __future__ import annotations

import functools
import math
from typing import Sequence

import numpy as np
import pandas as pd

from ..._results.ale import ALEResult
from ..alepkg.plans import ale_plan, check_ale_options
from ..._core.map.adapters import RESPONSE_METHODS, adapt_model
from ..._core.grid.binning import check_binning
from ..._core.map.bootstrap import CHUNK
from ..._core.run.gradient import METHODS, GradientRule, SearchedAxis, rhale_plans
from ..._core.map.jacobians import array_model
from ..._core.conventions import CONVENTIONS
from ..._core.conventions.alepkg import AlePackageConvention
from ..._core.reduce.stats import Normaliser
from ..._core.map.calls import ModelCaller, PredictionError
from ..._core.grid.features import Feature, column_kind, require_intervals, require_levels
from ..._core.map.local import Plan
from ..._core.run.frame_grid import FrameData
from ..._core.run.engine_passes import engine_draws, engine_estimate, probe, probe_rows
from ..._core.reduce.engine_stats import EngineNormalisers
from ..._inputs.checks import (
    check_choice, check_feature_options, check_frame, check_int, check_level, check_numbers, check_random_state,
    check_response, check_weights, is_tuple_label, resolve_column, resolve_pair,
)
from ..._inputs.frames import as_pandas
from ..progress import check_progress, effect_progress
from ..._results.ale_list import ALEResults
from ..._results.present import FeatureValues
from ..._core.grid.bounds import check_effects, check_pair_cells, check_replicates, effect_values, pair_cell_limit
from ..._core.run.engine_grid import EngineData, open_engine, response_column
from ..._engines import is_engine_frame

__all__ = ["ale", "ALEResult"]

_CALLER = "ale"


def _alepkg_rules(conventions: str) -> bool:
    """Whether ``conventions`` names R's ale rules (or a variant of them), whose plans ``pyale.ALE``'s front-end
    builds (:mod:`pyale._frontends.alepkg.plans`)."""
    return isinstance(CONVENTIONS[conventions], AlePackageConvention)


# ----------------------------------------------------------------------------- the plans
def _plans(data: FrameData | EngineData, entries: list, options: list, conventions: str, n_intervals,
           caller: str) -> list:
    """``(names, kind, Plan)`` of every entry of :func:`pyale.ale`, for a pandas frame or an engine's rows.

    ``data`` answers the grid stage's questions (:class:`FrameData`: whole
    columns; :class:`EngineData`: exact summaries over the blocks);
    ``options[i]`` is entry ``i``'s ``(grid, level_order)``.  On an engine
    every feature's checks come from one pass, all default edges from shared
    passes and the user grids' counts from one pass.
    """
    data.checks(list(dict.fromkeys(name for entry in entries for name in entry)))
    staged = []
    for entry, (grid, level_order) in zip(entries, options):
        if len(entry) == 1:
            name = entry[0]
            feature = data.feature(name, f"Column {name!r}")
            check_feature_options(feature.categorical, name, grid, level_order, caller)
            if feature.categorical:
                require_levels(feature, f"Column {name!r}")
                staged.append((entry, "categorical", [feature], level_order, grid))
            else:
                staged.append((entry, "numeric", [_numeric(data, feature, grid, caller)], None, grid))
            continue
        given = tuple(entry)
        first, second, names = CONVENTIONS[conventions].read_pair(data, given, caller)
        grid1, grid2 = (None, None) if grid is None else _pair_grids(grid, given)
        if level_order is not None and not first.categorical:
            raise ValueError(
                f"The 'level_order' parameter of {caller} applies to a categorical feature; columns "
                f"{given[0]!r} and {given[1]!r} are numeric."
            )
        if names != given:
            grid1, grid2 = grid2, grid1
        second_axis = _numeric(data, second, grid2, caller)
        if first.categorical:
            require_levels(first, f"Column {first.name!r}")
            staged.append((names, "categorical x numeric", [first, second_axis], level_order, grid))
        else:
            staged.append((names, "numeric x numeric", [_numeric(data, first, grid1, caller), second_axis],
                           None, grid))
    _edges(data, [axis for _, _, axes, _, _ in staged for axis in axes], conventions, n_intervals, caller)
    planned = []
    convention = CONVENTIONS[conventions]
    for names, kind, axes, level_order, grid in staged:
        if kind == "numeric":
            planned.append((names, kind, Plan((_axis(data, axes[0]),), convention, spread=True)))
            continue
        if kind == "categorical":
            order = data.level_order(axes[0], level_order, caller=caller)
            planned.append((names, kind, Plan((data.level_axis(axes[0], order),), convention, spread=True)))
            continue
        first, second = axes
        limit = pair_cell_limit(data.n_rows)
        if kind == "categorical x numeric":
            order = data.level_order(first, level_order, caller=caller)
            shape = (len(first.levels), second.edges.shape[0] - 1)
            _check_cells(data, names, shape, n_intervals, grid, f"Use n_intervals <= {max(1, limit // shape[0]):,}.",
                         caller)
            planned.append((names, kind, Plan((data.level_axis(first, order), _axis(data, second)),
                                              convention, spread=True)))
            continue
        shape = (first.edges.shape[0] - 1, second.edges.shape[0] - 1)
        _check_cells(data, names, shape, n_intervals, grid, f"Use n_intervals <= {math.isqrt(limit):,}.", caller)
        planned.append((names, kind, Plan((_axis(data, first), _axis(data, second)),
                                          convention, spread=True)))
    return planned


def _check_cells(data, names, shape, n_intervals, grid, advice, caller) -> None:
    param, value = ("grid", None) if grid is not None else ("n_intervals", n_intervals)
    if grid is not None:
        advice = "Pass fewer edges."
    check_pair_cells(data.n_rows, shape, param=param, caller=caller, features=tuple(names), value=value,
                     advice=advice)


def _axis(data, numeric: "_Numeric"):
    return data.numeric_axis(numeric.feature, numeric.edges)


def _edges(data, axes: list, conventions: str, n_intervals, caller: str) -> None:
    """Fill in every numeric axis' edges: the convention's (shared passes), user grids checked (one pass)."""
    numeric = [a for a in axes if isinstance(a, _Numeric)]
    convention = CONVENTIONS[conventions]
    k = convention.default_intervals if n_intervals is None else n_intervals
    default = list({a.feature.name: a.feature for a in numeric if a.grid is None}.values())
    if default:
        found = data.edges(default, convention, k, param="n_intervals")
        for a in numeric:
            if a.grid is None:
                a.edges = require_intervals(found[a.feature.name], f"Column {a.feature.name!r}")
    user = {a.feature.name: a.edges for a in numeric if a.grid is not None}
    if user:
        counts = data.interval_counts(user)
        for name, edges in user.items():
            empty = np.flatnonzero(counts[name][1] == 0)
            if empty.shape[0]:
                k = int(empty[0])
                raise ValueError(
                    f"The 'grid' parameter of {caller} leaves interval ({float(edges[k])!r}, "
                    f"{float(edges[k + 1])!r}] of column {name!r} without rows; "
                    "ALE needs at least one row per interval."
                )


def _user_edges(grid, name, caller: str) -> np.ndarray:
    points = check_numbers(grid, param="grid", caller=caller, where=f"column {name!r}")
    edges = np.unique(points)
    if edges.shape[0] < 2 or not np.all(np.isfinite(edges)):
        raise ValueError(
            f"The 'grid' parameter of {caller} must hold at least two distinct finite values "
            f"for column {name!r}. Got {grid!r} instead."
        )
    return edges


def _covering(data, name, edges, caller: str) -> None:
    low, high = data.value_range(name)
    if low < edges[0] or high > edges[-1]:
        raise ValueError(
            f"The 'grid' parameter of {caller} must cover column {name!r} "
            f"([{low!r}, {high!r}]). Got edges from {float(edges[0])!r} to {float(edges[-1])!r}."
        )


def _not_constant(data, feature: Feature, label: str) -> None:
    low, high = data.value_range(feature.name)
    if low == high:
        require_intervals(np.array([low]), label)


class _Numeric:
    """A numeric axis to be: its feature and its user grid (None: the convention's edges)."""

    def __init__(self, feature: Feature, grid):
        self.feature, self.grid, self.edges = feature, grid, None


def _numeric(data, feature, grid, caller) -> _Numeric:
    if grid is not None:
        edges = _user_edges(grid, feature.name, caller)
        _covering(data, feature.name, edges, caller)
        axis = _Numeric(feature, grid)
        axis.edges = edges
        return axis
    _not_constant(data, feature, f"Column {feature.name!r}")
    return _Numeric(feature, None)


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


#: scikit-learn's partial dependence keywords that pyale.ale does not take, and what pyale calls them.
_SKLEARN_KEYWORDS = {
    "grid_resolution": "pyale calls it n_intervals (ALEPlot's K, iml's grid.size; n_intervals='auto' picks "
                       "fewer intervals on small data)",
    "target": "pyale calls it response (the class or classes of a classifier to explain)",
    "percentiles": "pyale's intervals always cover the data (ALE needs every row in one); pass interval edges "
                   "as grid=",
    "custom_values": "pyale calls it grid (interval edges covering the data)",
    "kind": "ALE has no individual curves: pyale.ale computes the average effect (for ICE curves use "
            "pyale.FeatureEffect(..., method='ice'))",
    "subsample": "pass fewer rows as X (e.g. X.sample(n, random_state=0)); pyale.ale draws no individual curves",
    "categorical_features": "pyale reads a column's kind from its dtype: Categorical and string columns are "
                            "categorical (convert one with X.astype({name: 'category'}))",
}


def _scikit_learn_keywords(func):
    """Name pyale's keyword when ``func`` is given one of scikit-learn's (the signature stays ``func``'s)."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        for name in kwargs:
            if name in _SKLEARN_KEYWORDS:
                raise TypeError(
                    f"{func.__name__}() got an unexpected keyword argument {name!r}: "
                    f"{_SKLEARN_KEYWORDS[name]}."
                )
        return func(*args, **kwargs)

    return wrapper


@_scikit_learn_keywords
def ale(
    model: object,
    X: pd.DataFrame,
    features: object,
    *,
    conventions: str = "aleplot",
    n_intervals: int | str | None = None,
    grid: Sequence | None = None,
    response: object | None = None,
    level_order: Sequence | None = None,
    max_rows_per_call: int | None = None,
    feature_names: Sequence | None = None,
    sample_weight: Sequence | None = None,
    n_bootstrap: int = 0,
    ci_level: float = 0.95,
    random_state: object = None,
    y: Sequence | None = None,
    progress: bool | None = None,
    response_method: str = "auto",
    method: str = "finite_difference",
    jacobian: object = None,
    binning: object = None,
):
    """Accumulated Local Effects of a fitted model.

    Parameters
    ----------
    model : object
        A fitted scikit-learn estimator or pipeline (classifiers explain
        class probabilities, or decision scores: see ``response_method``), a statsmodels results object (formulas are
        applied to the DataFrame), an R model through rpy2, or a callable
        ``f(frame) -> predictions``.
    X : pandas.DataFrame, polars.DataFrame or LazyFrame, pyarrow.Table, numpy.ndarray, or a Dask or Spark DataFrame
        The data the effects are estimated on.  Never modified.  Non-pandas
        tables are converted to pandas once (polars and pyarrow through
        narwhals, the ``frames`` extra); a plain callable is then handed
        frames of the type passed, a scikit-learn model what it was fitted on
        (see Notes).  A Dask or Spark DataFrame is computed on where it
        lives, partition by partition, and a polars LazyFrame (e.g.
        ``pl.scan_parquet(...)``) in streaming batches without collecting it,
        with the same numbers (see Notes).  While a LazyFrame's pass runs,
        the model's BLAS and OpenMP threads are limited to the cores per
        worker thread (through threadpoolctl, when installed; restored
        after), as Dask's distributed workers limit them.
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
    conventions : {"aleplot", "iml", "ale"}, default "aleplot"
        Whose numbers to reproduce: ``ALEPlot::ALEPlot`` (grid from
        ``seq(1/K, 1, length.out = K)`` quantiles, K = 40 by default) or
        iml's ``FeatureEffect`` (grid from ``seq(0, 1, length.out =
        grid.size + 1)`` quantiles, rounded for integer columns, 20 by default).
        A pair with one categorical feature must list it first under
        ALEPlot's conventions; under iml's either order is accepted and the
        result lists the categorical feature first (iml's axes).  ``"ale"``:
        R's ale 0.5.0 (:class:`pyale.ALE`'s effects: the minimum's own bin,
        binary features, backward differences, its centring; any pair of
        features in either order; no ``grid`` or ``sample_weight``).
    n_intervals : int or "auto", optional
        ALEPlot's ``K``, iml's ``grid.size``, or ale's ``max_num_bins - 1``
        (9 by default).  ``"auto"`` keeps the convention's default where the
        data are large enough and otherwise takes fewer intervals, so that
        each holds about 20 rows (``min(default, n // 20)``) and each cell of
        a pair about 10 (``min(default, isqrt(n // 10))`` per axis), n being
        the rows with a positive weight; the intervals are then the
        convention's own for that count (the same result as passing it).
        Use it on small data, where the defaults give jagged curves and pair
        grids mostly without rows.  The count used is ``len(result.grid[i]) - 1``.
    grid : sequence, optional
        User interval edges for a numeric feature (a pair of sequences, or
        ``None`` for a feature on its default grid, for a pair).  They must
        cover the data and leave no interval empty.  Refused for a single
        categorical feature; in a list of features it serves the numeric
        entries.
    response : label or list, optional
        For a classifier, the class(es) to explain (all by default; for a
        binary classifier's decision score, the positive class).
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
    sample_weight : array-like or column name, optional
        One non-negative finite weight per row of X (frequency weights), or
        the name of the column of X holding them (for a Dask, Spark or polars
        lazy X, only a name); that column is then neither a feature nor shown to the
        model, on every kind of frame.
        Integer weights give exactly the result of repeating each row that
        many times, zero drops the row; other weights extend the same
        formulas (grid edges as type-1 order statistics of the weighted
        sample, weighted local means, centring, level ordering, counts).
    n_bootstrap : int, default 0
        Number of bootstrap replicates: the rows are resampled with
        replacement (with probabilities proportional to ``sample_weight``),
        the grid and level order stay those of the full data, and local
        means and centring are recomputed on each replicate.  No extra
        model call: a replicate reweights the local differences the full
        data already gave.  This is the sampling uncertainty of the ALE
        *for this fitted model*; it does not include the model's own
        uncertainty (refit it with :func:`pyale.model_bootstrap` for that).
    ci_level : float, default 0.95
        Coverage of the percentile intervals ``ci_low``/``ci_high``.
    random_state : None, int, numpy.random.Generator or SeedSequence
        Seed of the replicates; the same seed gives the same replicates.
    y : array-like or column name, optional
        The observed response, for the normalised statistics (NALED,
        NALER); by default the model's predictions on X (one model call,
        made when :attr:`ALEResult.statistics` is first read).
    progress : bool or None, default None
        A progress bar (tqdm, on stderr) counting the rows the model is asked
        about, per effect, with an ETA.  None: only in an interactive
        terminal or a notebook, and only once the job has run 2 seconds
        (never when stderr is piped, nor under pytest); True: always; False:
        never.  Bars need tqdm (the ``progress`` extra); without it None
        shows none and True is an ImportError.
    response_method : {"auto", "predict_proba", "decision_function", "predict"}, default "auto"
        What a classifier's effect is computed on, as in scikit-learn's
        ``partial_dependence``.  ``"auto"``: a classifier (a model with
        ``classes_``) gives ``predict_proba`` (one output per class), else
        ``decision_function``, else ``predict`` (its class labels, with a
        ``UserWarning``: labels jump between classes); any other model
        ``predict``.  ``decision_function`` gives one output per class, and
        one for a binary classifier: the score of ``classes_[1]`` (the
        positive class; ``response=classes_[0]`` explains its negation,
        the score of ``classes_[0]``).  A method named here must exist;
        ``"predict"`` explains a classifier's labels without a warning.
    method : {"finite_difference", "gradient"}, default "finite_difference"
        How a numeric feature's local effects are measured.
        ``"finite_difference"``: each row moved to both edges of its interval
        (Apley and Zhu, two predictions per row and feature).
        ``"gradient"`` (DALE/RHALE, Gkolemis et al.): each row's derivative
        times its interval's width, from one Jacobian of all rows shared by
        every feature (see ``jacobian``); the effect accumulates
        ``width * mean derivative`` per interval, and the heterogeneity is
        the width times the derivatives' standard deviation.  X must be all
        numeric; categorical features and pairs still use finite differences.
        ``conventions`` "aleplot" or "iml"; on a Dask, Spark or polars lazy
        frame the Jacobian is taken block by block where the rows live.
    jacobian : callable, "torch" or "jax", optional
        With ``method="gradient"``: ``jacobian(array) -> array`` of shape
        ``(n, p)``, the derivative of the (single) output with respect to
        each of X's ``p`` columns, given X's rows as one float array (as
        effector's ``model_jac``).  A ``torch.nn.Module`` model needs none
        (autograd; ``torch`` extra); ``"jax"`` differentiates a JAX function
        of a 2-D array with ``jax.grad`` (``jax`` extra).  Such models are
        also called on float arrays for predictions.
    binning : {"dp", "agglomerative", "greedy"} or HeterogeneityBinning, optional
        Heterogeneity-aware intervals for numeric features (RHALE): edges on
        a uniform grid of ``n_intervals`` cells (20 by default) chosen to
        minimise the within-interval variance of the local effects times the
        width, discounted for full intervals (:class:`HeterogeneityBinning`;
        the same edges as effector 0.6.0).  The local effects are the
        derivatives with ``method="gradient"``, else the secants across the
        grid's cells (one extra pass).  Chosen on the full data (weighted
        with ``sample_weight``); bootstrap replicates keep them.  Numeric
        main effects only (categorical features keep one jump per pair of
        neighbouring levels, pairs the convention's grid).  On a Dask, Spark
        or polars lazy frame with ``method="gradient"`` only (the search is
        then a sum over blocks, one more Jacobian pass).

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

    A Dask or Spark DataFrame gives the numbers pandas gives on the same rows
    (``X.compute()``, ``X.toPandas()``): grids, level orders and counts are
    identical (exact order statistics and level counts over the partitions,
    never approximate quantiles; weight sums exact), effects agree to the
    last bits of their sums.  The model is pickled once and called inside
    the partitions; only small arrays of sums come back.  ``sample_weight`` and ``y`` name columns
    of X; statistics from the model's predictions call the model on every
    row again (a few passes) when first read.  See ``docs/performance.md``.

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
    progress = check_progress(progress, caller=_CALLER)
    response_method = check_choice(response_method, RESPONSE_METHODS, param="response_method", caller=_CALLER)
    job = _Job(X, features, caller_name=_CALLER, conventions=conventions, n_intervals=n_intervals, grid=grid,
               level_order=level_order, max_rows_per_call=max_rows_per_call, feature_names=feature_names,
               sample_weight=sample_weight, ci_level=ci_level, y=y)
    n_bootstrap = check_int(n_bootstrap, param="n_bootstrap", caller=_CALLER, minimum=0)
    random_state = check_random_state(random_state, caller=_CALLER)
    method = check_choice(method, METHODS, param="method", caller=_CALLER)
    binning = check_binning(binning, n_intervals, grid, caller=_CALLER)
    adapter, caller = job.caller_for(array_model(model, jacobian if method == "gradient" else None), response,
                                     response_method)
    on_engine = None if job.data.engine.in_memory else job.data  # the bin search from derivatives is a reduction there
    job.planned = rhale_plans(job.planned, job.X, job.weights, engine_data=on_engine,
                              conventions=job.conventions, method=method, model=model, jacobian=jacobian,
                              binning=binning, caller=caller, max_rows=job.max_rows_per_call, caller_name=_CALLER)
    job.check_replicates(n_bootstrap, len(adapter.output_names or ()), caller_name=_CALLER)
    draws = job.draws(n_bootstrap, random_state) if n_bootstrap else None
    plans, names = [p for _, _, p in job.planned], [n for n, _, _ in job.planned]
    in_memory = job.X if job.data.engine.in_memory else None  # an engine's frame: its rows are counted by the engine
    with effect_progress(progress, caller, in_memory, plans, names=names):
        estimates = job.estimate(caller, model, draws)
    outputs = _output_names(adapter, caller)
    normaliser = job.normalisers(caller, len(outputs))
    results = []
    values = FeatureValues(in_memory)
    for (names, kind, plan), est, similarity in zip(job.planned, estimates, job.similarity):
        result = _result(names, kind, plan, est, outputs, conventions, normaliser, adapter, values, similarity,
                         binning=binning)
        if draws is not None:
            result = result._with_bootstrap(est.replicates, est.replicate_counts, job.ci_level, "data")
        results.append(result)
    normaliser.results = results  # an engine tabulates every result's values in one pass
    return ALEResults(results) if job.many else results[0]


class _Job:
    """One call's data, features and grids, checked and planned (shared by ale() and model_bootstrap())."""

    def __init__(self, X, features, *, caller_name, conventions, n_intervals, grid, level_order,
                 max_rows_per_call, feature_names, sample_weight, ci_level, y):
        X, self.native = as_pandas(X, param="X", caller=caller_name, feature_names=feature_names)
        data = None  # the rows as the grid stage sees them: an engine's (EngineData) or the frame's (FrameData)
        if is_engine_frame(X):  # Dask, Spark, polars lazy: the grid comes from the engine's summaries
            if isinstance(sample_weight, str):
                _refuse_weight_feature(features, sample_weight, caller=caller_name)
            data = open_engine(X, caller=caller_name, sample_weight=sample_weight)
            X, sample_weight = data.schema, None
        else:
            check_frame(X, param="X", caller=caller_name)
            if _names_a_column(sample_weight, X):
                _refuse_weight_feature(features, sample_weight, caller=caller_name)
                X, sample_weight = _weight_column(X, sample_weight, caller=caller_name)
        self.conventions = check_choice(conventions, tuple(CONVENTIONS), param="conventions", caller=caller_name)
        auto = isinstance(n_intervals, str) and n_intervals == "auto"
        if isinstance(n_intervals, str) and not auto:
            raise TypeError(f"The 'n_intervals' parameter of {caller_name} must be an int >= 1 or 'auto'. "
                            f"Got {n_intervals!r} instead.")
        if n_intervals is not None and not auto:
            n_intervals = check_int(n_intervals, param="n_intervals", caller=caller_name, minimum=1)
        if max_rows_per_call is not None:
            max_rows_per_call = check_int(max_rows_per_call, param="max_rows_per_call", caller=caller_name, minimum=1)
        self.max_rows_per_call = max_rows_per_call
        self.ci_level = check_level(ci_level, param="ci_level", caller=caller_name)
        weights = None if sample_weight is None else check_weights(sample_weight, X.shape[0], caller=caller_name)
        if data is not None:
            response = None if y is None else response_column(data, y, caller=caller_name)
        else:
            response = None if y is None else check_response(y, X, caller=caller_name)
        if data is None and isinstance(features, (list, np.ndarray, pd.Index)):
            # every effect's rows are held together (pyale._core.grid.bounds): checked before each entry is read
            check_effects(len(features), X.shape[0], param="features", caller=caller_name,
                          advice=" Ask for fewer features per call.")
        entries, self.many = _entries(X, features)
        if self.many:
            _check_list_options(X, entries, grid, level_order)
        self.similarity = [_ordered_by_similarity(X, entry, level_order if not self.many else
                                                  _options_for(X, entry, grid, level_order)[1], self.conventions)
                           for entry in entries]
        self.kept = None
        if weights is not None and not (weights > 0).all():
            self.kept = np.flatnonzero(weights > 0)  # a zero weight drops the row
            X, weights = X.take(self.kept), weights[self.kept]
            if response is not None:
                response = response[self.kept]
        if data is None:
            data = FrameData(X, caller=caller_name, weights=weights)
        self.data, self.X, self.weights, self.response = data, X, weights, response
        self.chunk_weights = None
        if auto:  # one count for main effects, one for pairs, from the rows taking part
            default = CONVENTIONS[self.conventions].default_intervals
            n_intervals = {size: auto_intervals(data.n_rows, default, pair=size == 2) for size in (1, 2)}
        options = [(grid, level_order) if not self.many else _options_for(X, entry, grid, level_order)
                   for entry in entries]
        if _alepkg_rules(self.conventions):  # R's ale rules: pyale._frontends.alepkg.plans builds the plans
            if not data.engine.in_memory:
                raise ValueError(
                    f"The 'conventions' parameter of {caller_name} cannot be {self.conventions!r} (R's ale "
                    f"package) for a {data.engine.name}: those rules run in memory only. Use 'aleplot' or 'iml', "
                    f"or collect the rows into memory first ({data.engine.collect})."
                )
            check_ale_options(grid, weights, caller=caller_name)
            if not auto and n_intervals is None:  # the convention's own default (ale's: 9, max_num_bins = 10)
                n_intervals = CONVENTIONS[self.conventions].default_intervals
            self.planned = [ale_plan(X, entry, n_intervals[len(entry)] if auto else n_intervals,
                                     level_order if not self.many else option[1], caller=caller_name)
                            for entry, option in zip(entries, options)]
            return
        if not auto:
            self.planned = _plans(data, entries, options, self.conventions, n_intervals, caller_name)
            return
        planned = {}
        for size in (1, 2):
            chosen = [i for i, entry in enumerate(entries) if len(entry) == size]
            if chosen:
                plans = _plans(data, [entries[i] for i in chosen], [options[i] for i in chosen],
                               self.conventions, n_intervals[size], caller_name)
                planned.update(zip(chosen, plans))
        self.planned = [planned[i] for i in range(len(entries))]

    def caller_for(self, model, response, response_method=None):
        """The model's adapter and :class:`ModelCaller` (``response_method``: see :func:`adapt_model`)."""
        adapter = adapt_model(model, response=response, native=self.native, response_method=response_method,
                              caller=_CALLER)
        name = f"{type(model).__name__}.predict" if adapter.kind != "callable" else "model"
        if adapter.kind == "sklearn-decision-function":
            name = f"{type(model).__name__}.decision_function"
        return adapter, ModelCaller(adapter.predict, name=name, max_rows=self.max_rows_per_call, single_output=False)

    def check_replicates(self, n_bootstrap: int, n_outputs: int, *, caller_name: str, bytes_each: int = 0) -> None:
        """Refuse more replicates than fit in memory, before any model call (see pyale._core.grid.bounds).

        ``n_outputs`` is 0 when the model's outputs are not known yet (counted as one).
        """
        if not n_bootstrap:
            return
        n_rows = self.data.engine.n_rows  # all rows: no pass over them
        values = sum(effect_values(plan.axes) for _, _, plan in self.planned) * max(n_outputs, 1)
        check_replicates(n_bootstrap, values, param="n_bootstrap", caller=caller_name,
                         bytes_each=bytes_each + 8 * -(-n_rows // CHUNK),  # + the draws per chunk of rows
                         advice=" Use a smaller n_bootstrap.")

    def draws(self, n_bootstrap, random_state):
        """The bootstrap draws of the rows (weighted: ``self.chunk_weights`` gives the chunks' weights)."""
        draws, self.chunk_weights = engine_draws(self.data, n_bootstrap, random_state, caller=_CALLER)
        return draws

    def estimate(self, caller, model, draws=None):
        """Every plan's estimate in one pass over the rows (an engine's model is probed on a few rows first)."""
        def explained(exc):
            return _explained(exc, self.X, model)

        if not self.data.engine.in_memory:  # the model runs on the workers: a first failure is explained here
            probe(caller, probe_rows(self.data), explained)
        try:
            return engine_estimate(self.data, [plan for _, _, plan in self.planned], caller, draws=draws,
                                   chunk_weights=self.chunk_weights if draws is not None else None,
                                   rows_per_call=self.max_rows_per_call)
        except PredictionError as exc:
            if caller.calls == 0 and exc.__cause__ is not None:  # the very first call raised
                raise explained(exc) from exc.__cause__
            raise

    def normalisers(self, caller, n_outputs: int):
        """The response distribution of each output (see :class:`_Normalisers`)."""
        if not self.data.engine.in_memory:
            return EngineNormalisers(self.data, self.response, caller, n_outputs)
        return _Normalisers(caller, self.X, self.weights, self.response, n_outputs)


def _names_a_column(sample_weight, X: pd.DataFrame) -> bool:
    """Whether ``sample_weight`` is a column name (a string, or a scalar label of X) rather than values."""
    if isinstance(sample_weight, str):
        return True
    if sample_weight is None or isinstance(sample_weight, (list, tuple, np.ndarray, pd.Series, pd.Index)):
        return False
    try:
        return np.ndim(sample_weight) == 0 and sample_weight in X.columns
    except TypeError:  # an unhashable object: not a label
        return False


def _refuse_weight_feature(features, name, *, caller: str) -> None:
    """Refuse a feature that is the ``sample_weight`` column (the model never sees that column)."""
    entries = list(features) if isinstance(features, (list, np.ndarray, pd.Index)) else [features]
    flat = []
    for entry in entries:
        flat.extend(list(entry) if isinstance(entry, (tuple, list, np.ndarray)) else [entry])
    if any(isinstance(label, type(name)) and label == name for label in flat):
        raise ValueError(
            f"The 'features' parameter of {caller} names {name!r}, the sample_weight column: it weighs the "
            "rows and is no feature (the model never sees it). Pass the weights as values to explain that "
            "column too."
        )


def _weight_column(X: pd.DataFrame, name, *, caller: str):
    """X without its weight column, and that column: no feature, never shown to the model (as on Dask and Spark)."""
    columns = list(X.columns)
    if name not in columns:
        raise ValueError(
            f"The 'sample_weight' parameter of {caller} must be one weight per row of X or name a column of X. "
            f"Got {name!r}; the columns are {columns[:10]!r}"
            f"{'' if len(columns) <= 10 else f' and {len(columns) - 10} more'}."
        )
    return X.drop(columns=[name]), X[name]


#: n_intervals="auto": at least this many rows per interval of a main effect, per cell of a pair (on average).
AUTO_ROWS_PER_INTERVAL, AUTO_ROWS_PER_CELL = 20, 10


def auto_intervals(n_rows: int, default: int, *, pair: bool) -> int:
    """``n_intervals="auto"``: the convention's default, or fewer so intervals (pair cells) keep rows.

    A main effect gets ``min(default, n // 20)`` intervals (about 20 rows
    each), a pair ``min(default, isqrt(n // 10))`` per axis (about 10 rows
    per cell of the k x k grid); never fewer than 1.
    """
    if pair:
        return max(1, min(default, math.isqrt(n_rows // AUTO_ROWS_PER_CELL)))
    return max(1, min(default, n_rows // AUTO_ROWS_PER_INTERVAL))


def _output_names(adapter, caller) -> list:
    """The model's output names once it has predicted ("yhat" for one unnamed output)."""
    names = adapter.output_names or caller.output_names or []
    return ["yhat"] if names in (["0"], []) else list(names)


class _Normalisers:
    """The response distribution of each output, built on first use and shared by a call's results.

    From ``y`` when given (one distribution for every output), else from the
    model's predictions on X (one model call, made only when statistics are
    asked for).
    """

    def __init__(self, caller, X, weights, response_values, n_outputs):
        self._args = (caller, X, weights, response_values, n_outputs)
        self._built = None

    def __call__(self) -> list:
        if self._built is None:
            caller, X, weights, response_values, n_outputs = self._args
            if response_values is not None:
                self._built = [Normaliser.from_response(response_values, weights)] * n_outputs
            else:
                predictions = caller(X, "the response distribution of the ALE statistics")
                self._built = [Normaliser.from_response(predictions[:, j], weights) for j in range(n_outputs)]
            self._args = None  # nothing of the data is kept once built
        return self._built


def _ordered_by_similarity(X: pd.DataFrame, entry, level_order, conventions: str) -> tuple:
    """Per feature of ``entry``: whether its levels will be ordered by similarity (not by the user).

    An unordered categorical without ``level_order``; under R's ale rules a
    two-valued feature is "binary", its values in sorted order, not by similarity.
    """
    def by_similarity(name) -> bool:
        column = X[name]
        if column_kind(column) != "categorical" or level_order is not None:
            return False
        if isinstance(column.dtype, pd.CategoricalDtype) and column.dtype.ordered:
            return False
        return not (_alepkg_rules(conventions) and column.nunique() <= 2)

    return tuple(by_similarity(name) for name in entry)


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


def _result(names, kind, plan, est, outputs, conventions, normaliser, adapter=None, values=None,
            similarity=None, *, binning=None) -> ALEResult:
    axes = plan.axes
    grids = []
    for axis in axes:
        if hasattr(axis, "edges"):
            grids.append(axis.edges)
        else:
            grids.append(tuple(axis.levels[i] for i in axis.order))
    levels = grids[0] if kind.startswith("categorical") else None
    return ALEResult(
        features=tuple(names),
        kind=kind,
        grid=tuple(grids),
        effects=est.effects,
        outputs=tuple(outputs),
        counts=est.counts,
        level_order=levels,
        empty_cells=est.empty_cells,
        conventions=conventions,
        heterogeneity=est.heterogeneity,
        normaliser=normaliser,
        classifier=getattr(adapter, "kind", None) == "sklearn-classifier",
        data_values=values,
        method="gradient" if isinstance(plan.convention, GradientRule) else "finite_difference",
        binning=repr(binning) if binning is not None and isinstance(axes[0], SearchedAxis) else None,
        ordered_by_similarity=similarity,
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
