"""``pyale.compare``: is a model's effect the same in every segment (region, period, sample)?

One pass over the pooled rows gives every row's local differences; each
segment's effect, each bootstrap replicate of a segment and each segment of
a permutation of the labels is the same differences weighted differently
(:class:`~pyale._core.map.segment_draws.SegmentDraws`), so the whole comparison
costs the model calls of one :func:`pyale.ale`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Sequence

import numpy as np
import pandas as pd

from .._frontends.ale.api import _Job, _output_names
from .._inputs.checks import check_int, check_level, check_random_state, check_choice, resolve_column
from .._core.conventions import CONVENTIONS
from .._core.reduce.accumulate import level_centre, numeric_centre
from .._core.map.adapters import RESPONSE_METHODS
from .._core.map.segment_draws import SegmentDraws
from .._core.reduce.stats import aled, interval_values, naled
from .._engines import is_engine_frame
from .._inputs.frames import as_pandas
from .comparison import Comparison

__all__ = ["compare"]


def comparable_conventions() -> tuple[str, ...]:
    """The conventions a comparison is defined for (see the Notes of :func:`compare`)."""
    return tuple(name for name, rules in CONVENTIONS.items() if not rules.no_comparison)


_CALLER = "compare"
#: Permuted and resampled p-values count a replicate as extreme within this relative distance of the observed.
_TIE = 1e-12


def compare(
    model: object,
    X,
    feature: object,
    *,
    by: object = None,
    conventions: str = "aleplot",
    n_intervals: int | str | None = None,
    grid: Sequence | None = None,
    level_order: Sequence | None = None,
    sample_weight: object = None,
    y: object = None,
    response: object = None,
    response_method: str = "auto",
    n_bootstrap: int = 200,
    n_permutations: int = 999,
    ci_level: float = 0.95,
    random_state: object = None,
    max_rows_per_call: int | None = None,
    feature_names: Sequence | None = None,
) -> Comparison:
    """Compare one feature's ALE across segments or data sets: curves, differences, a distance and its p-value.

    Parameters
    ----------
    model : object
        A fitted model, as for :func:`pyale.ale`.
    X : data frame, or a mapping of names to data frames
        The rows, with the segments given by ``by``; or ``{"dev": X1, "oot":
        X2}``: one segment per data set (pandas, polars, pyarrow or NumPy
        tables with the same columns), named by the keys.  A Dask, Spark or
        polars lazy frame is computed on where it lives, with ``by`` naming
        its segment column.
    feature : column label
        One feature (name or 0-based position), numeric or categorical.
    by : column label or array-like
        The segment of each row: a column of X (it stays in X: the model sees
        it if it is one of the model's inputs), or one label per row,
        matched to X's rows by position (a Series' index is not aligned).
        At least two segments; missing labels are refused.  Not with a
        mapping X.
    conventions : {"aleplot", "iml"}, default "aleplot"
        Whose grid and local differences (see :func:`pyale.ale`).
    n_intervals, grid, level_order : optional
        As for :func:`pyale.ale`; the grid and level order come from the
        pooled rows, so every segment's effect is on the same grid.
    sample_weight : array-like or column name, optional
        Frequency weights, as for :func:`pyale.ale`.
    y : array-like or column name, optional
        The observed response, for the NALED-scaled distance (the pooled
        response's distribution); by default the model's predictions on the
        pooled rows.  Leave it out for a 0/1 response: NALED maps values to
        half-percentiles of the response, which a two-valued response does
        not have (every positive value maps to the share of zeros).
    response, response_method : optional
        Which output of a classifier, as for :func:`pyale.ale`.
    n_bootstrap : int, default 200
        Bootstrap replicates per segment (rows resampled inside their
        segment) for the simultaneous bands; 0: no bands (at least 2 otherwise).
    n_permutations : int, default 999
        Permutations of the segment labels for the p-values; 0: none.
    ci_level : float, default 0.95
        The bands' simultaneous coverage.
    random_state : None, int, numpy.random.Generator or SeedSequence
        Seed of the bootstrap and the permutations (recorded in the result:
        ``seed_entropy``).
    max_rows_per_call, feature_names : optional
        As for :func:`pyale.ale`.

    Returns
    -------
    Comparison
        Curves per segment, their differences with bands, distances and
        p-values (``.table``), and ``.plot()``.

    Notes
    -----
    *Common grid and centring.*  The grid (interval edges, or the level
    order) comes from the pooled rows.  Each segment's effect is the pooled
    rows' local differences averaged over that segment's rows only (weighted
    by ``sample_weight``), accumulated, and centred with the *pooled* rows'
    interval (level) weights.  Centring every curve the same way makes two
    segments whose local effects agree have identical curves, so a
    difference is a difference of local effects, never of centring.  Where a
    segment has no row in an interval (a level jump), its local effect there
    is the pooled one (no evidence of a difference);
    ``Comparison.segment_counts`` shows those intervals (weight 0).

    *Distance.*  For two segments ``a`` and ``b``, ``D = f_a - f_b`` and
    the distance is the ALED of ``D`` (the pooled-weight mean of ``|D|`` over
    the interval mid-values, or the levels), in the units of the
    prediction, and its NALED (the same values as half-percentiles of the
    pooled response around its median, :func:`pyale.ale`'s NALED).

    *p-value.*  A permutation test of the segment labels: the distance is
    recomputed with the labels permuted among the rows, ``p = (1 + #{T_perm
    >= T}) / (1 + P)``.  When the rows are exchangeable between segments
    (the segments are random subsamples of one population; the null
    hypothesis), every permutation of the labels is as likely as the
    observed one, so the test has size at most the nominal level for any
    sample size, grid and model (checked by simulation in the docs and the
    tests).  It asks whether the *segments* differ in a way that changes the
    model's effect, which is what effect drift means.  If the segments'
    feature distributions differ but the effect is the same, the rows are
    not exchangeable and the test may reject (it then detects the shift of
    the data, not of the effect): read the curves and bands.  With more
    than two segments every pair is tested; ``p_adjusted`` is the pair's
    p-value from the maximum distance over all pairs (Westfall and Young's
    single-step max-T: the family-wise error rate is controlled) and
    ``p_global`` tests that no pair differs.

    *Bands.*  Rows are resampled with replacement inside each segment
    (stratified bootstrap; the grid stays the pooled one).  The band of a
    curve or a difference is simultaneous over its grid: the estimate plus
    or minus ``q`` bootstrap standard deviations, ``q`` the ``ci_level``
    quantile of the largest standardised deviation over the grid (sup-t
    band; Montiel Olea and Plagborg-Moller 2019).  They describe the
    sampling variability of each segment's effect for this fitted model.

    *Cost.*  The model is called as in one :func:`pyale.ale` of the
    feature on the pooled rows.  Every segment, bootstrap replicate and
    permuted segment is a reweighting of those rows' local differences:
    ``S (1 + B + P)`` replicates in all, whose weights each block of rows
    rebuilds (a pass over the segment labels per replicate) and sums with
    its differences.  On a Dask, Spark or polars lazy frame the segment
    column (and the weights) are gathered to the driver once; the rows stay
    where they are.

    *Conventions.*  ``"aleplot"`` and ``"iml"``.  R's ``ale`` convention
    (``"ale"``) is refused: its bins give the minimum its own interval and
    its curves are centred on the response's median, and a comparison on
    its grid would be a comparison of pyale's own making, not R's.  Pairs
    of features are refused (compare each feature).

    References
    ----------
    Apley, D. W. and Zhu, J. (2020). Visualizing the effects of predictor
    variables in black box supervised learning models. *JRSS B* 82(4).
    Westfall, P. H. and Young, S. S. (1993). *Resampling-based multiple
    testing*. Wiley.  Montiel Olea, J. L. and Plagborg-Moller, M. (2019).
    Simultaneous confidence bands. *Journal of Applied Econometrics* 34(1).

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> X = pd.DataFrame({"x": rng.uniform(size=200), "z": rng.uniform(size=200)})
    >>> X["region"] = np.where(rng.uniform(size=200) < 0.5, "north", "south")
    >>> res = compare(lambda d: d["x"] * d["z"], X, "x", by="region", n_intervals=5,
    ...               n_bootstrap=20, n_permutations=99, random_state=0)
    >>> res.segments
    ('north', 'south')
    >>> list(res.table.columns)[:4]
    ['segment_a', 'segment_b', 'output', 'aled']
    """
    conventions = check_choice(conventions, tuple(CONVENTIONS), param="conventions", caller=_CALLER)
    if CONVENTIONS[conventions].no_comparison:
        able = [repr(name) for name in comparable_conventions()]
        raise ValueError(
            f"The 'conventions' parameter of {_CALLER} must be {' or '.join(able)}. Got {conventions!r} "
            f"instead: {CONVENTIONS[conventions].no_comparison}."
        )
    response_method = check_choice(response_method, RESPONSE_METHODS, param="response_method", caller=_CALLER)
    n_bootstrap = check_int(n_bootstrap, param="n_bootstrap", caller=_CALLER, minimum=0)
    if n_bootstrap == 1:
        raise ValueError(f"The 'n_bootstrap' parameter of {_CALLER} must be 0 or at least 2. Got 1 instead.")
    n_permutations = check_int(n_permutations, param="n_permutations", caller=_CALLER, minimum=0)
    ci_level = check_level(ci_level, param="ci_level", caller=_CALLER)
    random_state = check_random_state(random_state, caller=_CALLER)
    X, by = _pooled(X, by, feature_names)
    _refuse_pair(feature)
    job = _Job(X, feature, caller_name=_CALLER, conventions=conventions, n_intervals=n_intervals, grid=grid,
               level_order=level_order, max_rows_per_call=max_rows_per_call, feature_names=feature_names,
               sample_weight=sample_weight, ci_level=ci_level, y=y)
    (names, kind, plan), = job.planned
    labels, codes, weights = _segments(job, X, by)
    seed = _seed(random_state)
    draws = SegmentDraws(codes, weights, len(labels), n_bootstrap, n_permutations, seed.entropy,
                         tuple(seed.spawn_key))
    adapter, caller = job.caller_for(model, response, response_method)
    estimate, = job.estimate(caller, model, draws)
    outputs = _output_names(adapter, caller)
    normalisers = job.normalisers(caller, len(outputs))()
    return _comparison(names[0], kind, plan, estimate, labels, outputs, normalisers, draws, conventions, ci_level,
                       seed)


def _refuse_pair(feature) -> None:
    if isinstance(feature, (list, tuple, np.ndarray, pd.Index)) and not isinstance(feature, str):
        raise ValueError(
            f"The 'feature' parameter of {_CALLER} must be one column label (name or 0-based position). Got "
            f"{feature!r} instead; compare one feature at a time."
        )


def _pooled(X, by, feature_names):
    """``(X, by)``: a mapping of data sets becomes one frame whose segments are the mapping's keys."""
    if not isinstance(X, Mapping):
        if by is None:
            raise ValueError(
                f"The 'by' parameter of {_CALLER} must name the segment column of X or give one segment label "
                "per row (or pass X as a mapping of data sets, e.g. {'dev': X1, 'oot': X2}). Got None instead."
            )
        return X, by
    if by is not None:
        raise ValueError(
            f"The 'by' parameter of {_CALLER} must be None when X is a mapping of data sets (each data set is "
            f"one segment). Got {by!r} instead."
        )
    if len(X) < 2:
        raise ValueError(
            f"The 'X' parameter of {_CALLER} must map at least two names to data sets. Got {list(X)!r} instead."
        )
    frames, labels = [], []
    for name, frame in X.items():
        if is_engine_frame(frame):
            raise TypeError(
                f"The 'X' parameter of {_CALLER} maps {name!r} to a {type(frame).__name__}: data sets given as a "
                "mapping are read into memory. For rows that live in Dask, Spark or polars lazy, put them in one "
                "frame with a segment column and pass by='that column'."
            )
        pandas_frame, _ = as_pandas(frame, param="X", caller=_CALLER, feature_names=feature_names)
        frames.append(pandas_frame)
        labels.append(np.full(pandas_frame.shape[0], name, dtype=object))
    columns = list(frames[0].columns)
    for name, frame in zip(X, frames):
        if list(frame.columns) != columns:
            raise ValueError(
                f"The 'X' parameter of {_CALLER} must hold data sets with the same columns. {name!r} has "
                f"{list(frame.columns)[:10]!r}; {next(iter(X))!r} has {columns[:10]!r}."
            )
    pooled = pd.concat(frames, ignore_index=True)
    codes = np.concatenate(labels)
    return pooled, pd.Categorical(codes, categories=list(X))


def _seed(random_state) -> np.random.SeedSequence:
    if isinstance(random_state, np.random.SeedSequence):
        return random_state
    if isinstance(random_state, np.random.Generator):
        return np.random.SeedSequence(random_state.integers(0, 2**63, size=4, dtype=np.int64).tolist())
    if isinstance(random_state, np.random.RandomState):
        return np.random.SeedSequence(random_state.randint(0, 2**31, size=4).tolist())
    return np.random.SeedSequence(random_state)


def _segments(job, X, by):
    """``(labels, codes, weights)`` of the rows taking part, in their order."""
    if not job.data.engine.in_memory:
        return _engine_segments(job, X, by)
    if isinstance(by, (pd.Categorical, pd.Series, np.ndarray, list, tuple, pd.Index)):
        n_rows = X.shape[0] if hasattr(X, "shape") else len(X)
        if len(by) != n_rows:
            raise ValueError(
                f"The 'by' parameter of {_CALLER} must give one segment label per row of X ({n_rows}). Got "
                f"{len(by)} labels instead."
            )
        if isinstance(by, pd.Series):
            values = by.reset_index(drop=True)
        elif isinstance(by, pd.Categorical):
            values = pd.Series(by)
        else:
            values = pd.Series(np.asarray(by, dtype=object))
        if job.kept is not None:
            values = values.iloc[job.kept].reset_index(drop=True)
    else:  # a column of X (job.X: the rows taking part)
        column = resolve_column(job.X, by, param="by", caller=_CALLER)
        values = job.X[column].reset_index(drop=True)
    labels, codes = _codes(values)
    return labels, codes, job.weights


def _codes(values: pd.Series):
    """Segment labels (categories in order, else sorted) and each row's code; refuses missing and single labels."""
    missing = values.isna().to_numpy()
    if missing.any():
        raise ValueError(
            f"The 'by' parameter of {_CALLER} must give every row a segment. Row {int(np.flatnonzero(missing)[0])} "
            "has a missing label."
        )
    if isinstance(values.dtype, pd.CategoricalDtype):
        categorical = values.cat.remove_unused_categories()
        labels = tuple(categorical.cat.categories)
        codes = categorical.cat.codes.to_numpy().astype(np.intp)
    else:
        try:
            labels_index, codes = np.unique(values.to_numpy(), return_inverse=True)
        except TypeError:  # labels of mixed types: in order of appearance
            codes, labels_index = pd.factorize(values)
        labels = tuple(v.item() if isinstance(v, np.generic) else v for v in labels_index)
        codes = np.asarray(codes, dtype=np.intp).ravel()
    if len(labels) < 2:
        raise ValueError(
            f"The 'by' parameter of {_CALLER} must give at least two segments. Got only {list(labels)!r}."
        )
    return labels, codes


def _column_block(block, offset, *, column):
    return [(offset, block[column].to_numpy())]


def _engine_segments(job, X, by):
    """The segment column (and weights) of an engine's rows, gathered by global position (one pass)."""
    data = job.data
    if isinstance(by, (pd.Series, np.ndarray, list, tuple, pd.Index, pd.Categorical)):
        raise TypeError(
            f"The 'by' parameter of {_CALLER} must be the name of a column of X when X is a {data.engine.name} "
            "(labels cannot be aligned with its partitions)."
        )
    if by not in list(data.engine.columns) or by == data.weight:
        raise ValueError(
            f"The 'by' parameter of {_CALLER} must name a column of X. Got {by!r}; the columns are "
            f"{list(data.engine.columns)[:10]!r}."
        )
    if data.filtered:
        raise ValueError(
            f"The 'sample_weight' parameter of {_CALLER} holds zeros; on a {data.engine.name} every row must "
            "take part in a comparison. Drop those rows first."
        )
    wanted = [by] + ([data.weight] if data.weight is not None else [])
    pieces = data.rows.map_reduce(lambda block, offset: [(offset, block[wanted].reset_index(drop=True))],
                                  lambda a, b: a + b, columns=wanted)
    frame = pd.concat([piece for _, piece in sorted(pieces, key=lambda p: p[0])], ignore_index=True)
    labels, codes = _codes(frame[by])
    weights = None if data.weight is None else frame[data.weight].to_numpy(dtype=float)
    return labels, codes, weights


def _comparison(feature, kind, plan, estimate, labels, outputs, normalisers, draws, conventions, ci_level,
                seed) -> Comparison:
    S, B, P = draws.n_segments, draws.n_bootstrap, draws.n_permutations
    numeric = kind == "numeric"
    pooled_weights = np.asarray(estimate.counts, dtype=float)
    centre = numeric_centre if numeric else level_centre
    replicates = estimate.replicates
    curves = centre(replicates - replicates[:, :1], pooled_weights)  # (R, G, m): pooled-weight centring
    segment_curves = curves[:S]
    boot = curves[S:S + S * B].reshape((S, B) + curves.shape[1:])
    perm = curves[S + S * B:].reshape((P, S) + curves.shape[1:])
    pairs = [(a, b) for a in range(S) for b in range(a + 1, S)]
    first, second = [a for a, _ in pairs], [b for _, b in pairs]
    differences = segment_curves[first] - segment_curves[second]  # (pairs, G, m)

    def distance(d):
        return aled(interval_values(d, (numeric,)), pooled_weights)

    aled_diff = distance(differences)
    values = interval_values(differences, (numeric,))
    naled_diff = np.stack([naled(values[..., j:j + 1], pooled_weights, normalisers[j])[..., 0]
                           for j in range(len(outputs))], axis=-1)
    p_value = p_adjusted = p_global = None
    if P:
        permuted = distance(perm[:, first] - perm[:, second])  # (P, pairs, m)
        slack = _TIE * np.abs(aled_diff)
        p_value = (1 + (permuted >= aled_diff - slack).sum(axis=0)) / (1 + P)
        largest = permuted.max(axis=1)  # (P, m)
        p_adjusted = (1 + (largest[:, None, :] >= aled_diff - slack).sum(axis=0)) / (1 + P)
        observed_max = aled_diff.max(axis=0)
        p_global = (1 + (largest >= observed_max - _TIE * np.abs(observed_max)).sum(axis=0)) / (1 + P)
    curve_band = difference_band = None
    if B:
        curve_band = _sup_t_band(segment_curves, boot, ci_level)
        difference_band = _sup_t_band(differences, boot[first] - boot[second], ci_level)
    counts = estimate.replicate_counts[:S]
    grid = plan.axes[0].edges if numeric else tuple(plan.axes[0].levels[i] for i in plan.axes[0].order)
    return Comparison(
        feature=feature, kind=kind, grid=grid, segments=tuple(labels), outputs=tuple(outputs),
        effects=segment_curves, pooled=estimate.effects, segment_counts=np.asarray(counts, dtype=float),
        pooled_counts=pooled_weights, pairs=tuple((labels[a], labels[b]) for a, b in pairs),
        differences=differences,
        difference_low=None if difference_band is None else difference_band[0],
        difference_high=None if difference_band is None else difference_band[1],
        effect_low=None if curve_band is None else curve_band[0],
        effect_high=None if curve_band is None else curve_band[1],
        aled=aled_diff, naled=naled_diff, p_value=p_value, p_adjusted=p_adjusted, p_global=p_global,
        n_bootstrap=B, n_permutations=P, ci_level=ci_level, conventions=conventions,
        seed_entropy=seed.entropy, weighted=draws.weights is not None,
    )


def _sup_t_band(estimate: np.ndarray, replicates: np.ndarray, level: float):
    """Simultaneous band over the grid axis: ``estimate -+ q * sd`` (``q``: the sup-t quantile).

    ``estimate`` is ``(..., G, m)`` and ``replicates`` ``(..., B, G, m)``;
    the band is simultaneous over ``G`` for each leading index and output.
    Grid points where the replicates do not vary (sd 0) get a band of zero
    width and do not enter the maximum.
    """
    sd = replicates.std(axis=-3, ddof=1)
    scaled = np.abs(replicates - estimate[..., None, :, :])
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = np.where(sd[..., None, :, :] > 0, scaled / np.where(sd > 0, sd, 1.0)[..., None, :, :], 0.0)
    largest = ratio.max(axis=-2)  # (..., B, m)
    q = np.quantile(largest, level, axis=-2)  # (..., m)
    half = q[..., None, :] * sd
    return estimate - half, estimate + half
