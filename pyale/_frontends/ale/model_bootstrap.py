"""``pyale.model_bootstrap``: ALE bands that include the model's own uncertainty.

A data bootstrap (``ale(..., n_bootstrap=)``) keeps the fitted model and
resamples the rows it is explained on.  Here the model is refitted on every
resample, and each refit is explained on the full data with the full data's
grid, so the band shows how much the effect would change had the model been
trained on another sample from the same population.
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from .api import _Job, _Normalisers, _output_names, _result
import pandas as pd

from ..._engines import collect_hint, engine_name, is_engine_frame
from ..._inputs.checks import check_int, check_random_state, check_response
from ..._inputs.frames import Converted, as_pandas
from ..progress import check_progress, open_bar
from ..._core.map.calls import PredictionError, model_frame
from ..._results.ale_list import ALEResults
from ..._results.present import FeatureValues

__all__ = ["model_bootstrap"]

_CALLER = "model_bootstrap"


def model_bootstrap(
    fit: Callable,
    X,
    y,
    features: object,
    *,
    n_bootstrap: int = 100,
    random_state: object = None,
    n_jobs: int = 1,
    conventions: str = "aleplot",
    n_intervals: int | None = None,
    grid: Sequence | None = None,
    response: object | None = None,
    level_order: Sequence | None = None,
    ci_level: float = 0.95,
    sample_weight: Sequence | None = None,
    max_rows_per_call: int | None = None,
    feature_names: Sequence | None = None,
    progress: bool | None = None,
):
    """ALE with bootstrap bands from refitting the model on resampled rows.

    Parameters
    ----------
    fit : callable
        ``fit(X_rows, y_rows) -> model``: trains a fresh model on the given
        rows (a DataFrame with X's columns, and the matching ``y`` values as
        a NumPy array) and returns it fitted; anything :func:`pyale.ale`
        accepts as a model.  Each call gets copies of its own, so a ``fit``
        that edits them in place changes neither X, y nor the rows explained.
    X : pandas.DataFrame, polars.DataFrame, pyarrow.Table or numpy.ndarray
        The training data, on which every refit is also explained.
    y : array-like or column label
        The training target, one value per row of X: numbers, or class
        labels (strings, booleans, categories) for a classifier.  The name
        of a column of X takes that column as the target and leaves it out
        of the features: ``fit`` gets X without it and the model is explained
        without it (as a ``sample_weight`` column is left out).  A numeric
        target is also the response distribution of the normalised
        statistics (NALED, NALER); for class labels they come from the
        model's predictions.
    features : column label, pair of labels, or list of those
        As for :func:`pyale.ale`.
    n_bootstrap : int, default 100
        Number of refits.
    random_state : None, int, numpy.random.Generator or SeedSequence
        Seed of the resamples.
    n_jobs : int, default 1
        Refits in parallel with joblib (``-1``: every core).  Results do not
        depend on it.
    conventions, n_intervals, grid, response, level_order, ci_level, sample_weight, max_rows_per_call, feature_names
        As for :func:`pyale.ale`.  With ``sample_weight`` the rows are
        resampled with probabilities proportional to the weights (the refits
        see unweighted resampled rows) and the effects are weighted.
    progress : bool or None, default None
        A progress bar (tqdm, on stderr) counting the fits (the full model,
        then each refit with its ALE), with an ETA.  None: only in an
        interactive terminal or a notebook, once the job has run 2 seconds;
        True: always; False: never.

    Returns
    -------
    ALEResult or ALEResults
        ``effects`` of the model fitted on all rows, ``replicates`` of every
        refit (explained on the full data, with the full data's grid and
        level order), the percentile band ``ci_low``/``ci_high``, and
        statistics with intervals; ``bootstrap`` is ``"model"``.

    Notes
    -----
    This band covers the variability of the *fitted model* across training
    samples of the same size (with the ALE's own data held fixed); a data
    bootstrap with a fixed model (``ale(..., n_bootstrap=)``) covers only the
    sampling of the rows the ALE averages over.  Neither covers a model that
    is misspecified in the same way on every sample.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from sklearn.linear_model import LinearRegression
    >>> rng = np.random.default_rng(0)
    >>> X = pd.DataFrame({"a": rng.normal(size=200), "b": rng.normal(size=200)})
    >>> y = 3 * X["a"] + rng.normal(size=200)
    >>> res = model_bootstrap(lambda Xr, yr: LinearRegression().fit(Xr, yr), X, y, "a",
    ...                       n_bootstrap=20, random_state=1)
    >>> res.replicates.shape, res.bootstrap
    ((20, 41, 1), 'model')
    """
    if not callable(fit):
        raise TypeError(f"The 'fit' parameter of {_CALLER} must be callable as fit(X_rows, y_rows). "
                        f"Got {type(fit).__name__} instead.")
    if is_engine_frame(X):
        raise TypeError(
            f"The 'X' parameter of {_CALLER} is a {engine_name(X)}: {_CALLER} refits the "
            "model on resamples of X, which it hands to fit as pandas frames, so X must fit in memory. Pass "
            f"{collect_hint(X)}, or use pyale.ale(..., n_bootstrap=) for the data bootstrap."
        )
    X, native = as_pandas(X, param="X", caller=_CALLER, feature_names=feature_names)
    X, target = _target(X, y)
    job = _Job(Converted(X, native), features, caller_name=_CALLER, conventions=conventions,
               n_intervals=n_intervals, grid=grid, level_order=level_order, max_rows_per_call=max_rows_per_call,
               feature_names=feature_names, sample_weight=sample_weight, ci_level=ci_level, y=None)
    n_bootstrap = check_int(n_bootstrap, param="n_bootstrap", caller=_CALLER, minimum=1)
    # Before any fit: the resamples' row counts (float64, then int64) are kept with the curves.
    job.check_replicates(n_bootstrap, 0, caller_name=_CALLER, bytes_each=16 * job.X.shape[0])
    n_jobs = check_int(n_jobs, param="n_jobs", caller=_CALLER, minimum=-(2**31)) if n_jobs != -1 else -1
    if n_jobs == 0:
        raise ValueError(f"The 'n_jobs' parameter of {_CALLER} must be a positive int or -1. Got 0 instead.")
    random_state = check_random_state(random_state, caller=_CALLER)
    progress = check_progress(progress, caller=_CALLER)
    if job.kept is not None:
        target = target[job.kept]
    bar = open_bar(progress, total=n_bootstrap + 1, unit="fit", desc="model bootstrap")
    try:
        full_model = _fitted(fit, model_frame(job.X), target.copy(), "all rows")
        adapter, caller = job.caller_for(full_model, response)
        estimates = job.estimate(caller, full_model)
        bar.update(1)
        replicate_effects = _refits(job, fit, target, response, n_bootstrap, random_state, n_jobs, bar)
    finally:
        bar.close()
    outputs = _output_names(adapter, caller)
    numeric_target = target.dtype.kind in "iuf"
    normaliser = _Normalisers(caller, job.X, job.weights, target.astype(float) if numeric_target else None,
                              len(outputs))
    results = []
    for index, ((names, kind, plan), est) in enumerate(zip(job.planned, estimates)):
        result = _result(names, kind, plan, est, outputs, job.conventions, normaliser, adapter,
                         FeatureValues(job.X if job.data.engine.in_memory else None), job.similarity[index])
        replicates = np.stack([effects[index] for effects in replicate_effects])
        replicate_counts = np.broadcast_to(est.counts, (n_bootstrap,) + est.counts.shape)
        results.append(result._with_bootstrap(replicates, replicate_counts, job.ci_level, "model"))
    return ALEResults(results) if job.many else results[0]


def _refits(job, fit, target, response, n_bootstrap, random_state, n_jobs, bar) -> list:
    """Each refit's effects (a list per replicate), counting finished refits on ``bar``."""
    draws = job.draws(n_bootstrap, random_state)
    counts = draws.counts(0, job.X.shape[0], weights=job.weights if draws.weighted else None).astype(np.int64)

    def refit(b: int):
        rows = np.repeat(np.arange(job.X.shape[0]), counts[b])
        model = _fitted(fit, model_frame(job.X.iloc[rows], private=True), target[rows], f"resample {b}")
        _, refit_caller = job.caller_for(model, response)
        return [est.effects for est in job.estimate(refit_caller, model)]

    if n_jobs == 1:
        done = []
        for b in range(n_bootstrap):
            done.append(refit(b))
            bar.update(1)
        return done
    from joblib import Parallel, delayed

    try:  # joblib >= 1.3 hands results over as they finish (in order)
        parallel = Parallel(n_jobs=n_jobs, return_as="generator")
    except TypeError:
        parallel = Parallel(n_jobs=n_jobs)
    done = []
    for effects in parallel(delayed(refit)(b) for b in range(n_bootstrap)):
        done.append(effects)
        bar.update(1)
    return done


def _target(X: pd.DataFrame, y) -> tuple:
    """X without the target column when ``y`` names one, and the target (checked) as an array."""
    if isinstance(y, str) or (np.ndim(y) == 0 and not isinstance(y, (bool, np.bool_)) and _is_column(y, X)):
        if not _is_column(y, X):
            raise ValueError(
                f"The 'y' parameter of {_CALLER} must be one value per row of X or the name of a column of X. "
                f"Got {y!r}, which is not a column."
            )
        X, y = X.drop(columns=[y]), X[y]
    target = np.asarray(y.to_numpy() if isinstance(y, (pd.Series, pd.Index)) else y)
    if target.dtype.kind in "iuf":
        check_response(target, X, caller=_CALLER)  # finite numbers, one per row
        return X, target
    if target.ndim != 1 or target.shape[0] != X.shape[0]:
        raise ValueError(
            f"The 'y' parameter of {_CALLER} must be one value per row of X ({X.shape[0]}). Got "
            f"{f'{target.shape[0]} values' if target.ndim == 1 else f'an array of shape {target.shape}'} instead."
        )
    missing = np.asarray(pd.isna(target), dtype=bool)
    if missing.any():
        first = int(np.flatnonzero(missing)[0])
        raise ValueError(
            f"The 'y' parameter of {_CALLER} must have no missing values. Got {target[first]!r} at position "
            f"{first} ({int(missing.sum())} missing value(s))."
        )
    return X, target


def _is_column(label, X: pd.DataFrame) -> bool:
    try:
        return label in X.columns
    except TypeError:  # unhashable
        return False


def _fitted(fit, X_rows, y_rows, which: str):
    try:
        model = fit(X_rows, y_rows)
    except Exception as exc:
        raise PredictionError(
            f"fit raised {type(exc).__name__} while training on {which} ({X_rows.shape[0]} rows): {exc}"
        ) from exc
    if model is None:
        raise TypeError(f"fit must return the fitted model; it returned None (training on {which}).")
    return model
