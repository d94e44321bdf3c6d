"""``pyale.ALEpDist``: R's ``ale::ALEpDist`` (ale 0.5.0), the random-variable distributions behind ale's p-values.

R's algorithm (``R/ALEpDist.R``): the residuals of the model on its data
(``y - prediction``; ``(y == positive) - p`` for a binary response; the row
means of ``indicator - p`` for a categorical one) are fitted by
``univariateML::model_select`` (:func:`pyale._rbase.univariate_ml.model_select`);
then for ``it = 1..rand_it``: ``set.seed(seed + it)`` (kind L'Ecuyer-CMRG,
which furrr leaves behind), ``random_variable <- rml(n, fit)``, the model
refitted on the data with that column added, and the ALE of
``random_variable`` (``max_num_bins`` 100, 10 for a surrogate) summarised by
``calc_stats`` with the normaliser of the original model's predictions.  The
statistics of all iterations are the distribution against which
:class:`pyale.ALE` turns each statistic into a p-value (:func:`value_to_p`).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import pandas as pd

from ..._core.map.calls import ModelCaller
from ..._core.conventions import ALE_PACKAGE
from ..._core.conventions.alepkg import AleNumericAxis, ale_numeric_bins
from ..._core.reduce.estimate import estimate
from ..._core.map.local import Plan
from ..._core.reduce.stats import Normaliser
from ..._core.map.sums import group_sums
from ..._engines.pandas import PandasEngine
from ..._inputs.frames import as_pandas
from ..._rbase import quantile_type7
from ..._rbase.mersenne import MersenneTwister
from ..._rbase.rng import LecuyerCMRG, seed_as_r_integer
from ..._rbase.univariate_ml import Fit, model_select
from .model import Prediction
from .stats import STATISTICS, ale_statistics_1d
from .surrogate import surrogate_refit
from .types import ale_var_type, numeric_bins

__all__ = ["ALEpDist", "ALEpDistWarning", "value_to_p", "p_to_random_value"]

CALLER = "ALEpDist"
RANDOM = "random_variable"
MIN_RAND_IT = 100  # R: "With < 100 successful iterations, p-values are invalid."


class ALEpDistWarning(UserWarning):
    """Some refits, or their ALE, failed; R's ``ALEpDist`` drops those iterations too (``rand_it_ok``)."""


@dataclass(frozen=True)
class _Failed:
    """An iteration whose refit or random-variable ALE raised (R: ``tryCatch`` returns ``NULL``, then ``compact``)."""

    it: int
    stage: str
    error: BaseException

    def describe(self) -> str:
        return f"iteration {self.it} ({self.stage}: {type(self.error).__name__}: {self.error})"


def value_to_p(random_values, statistic: str, values) -> np.ndarray:
    """ale's ``value_to_p``: the p-value of each statistic value against the random variables' values.

    ``ecdf(random)(x)`` for ``aler_min`` and ``naler_min`` (smaller is more
    extreme), ``1 - ecdf(random)(x)`` for the others (``ecdf(v)(x)`` is the
    share of ``v`` that is ``<= x``).

    Examples
    --------
    >>> value_to_p([1.0, 2.0, 3.0, 4.0], "aled", [2.0, 5.0]).tolist()
    [0.5, 0.0]
    >>> value_to_p([-4.0, -3.0, -2.0, -1.0], "aler_min", [-3.0]).tolist()
    [0.5]
    """
    v = np.sort(np.asarray(random_values, dtype=float))
    x = np.atleast_1d(np.asarray(values, dtype=float))
    share = np.searchsorted(v, x, side="right") / v.shape[0]
    share = np.where(np.isnan(x), np.nan, share)
    return share if statistic.endswith("_min") else 1 - share


def p_to_random_value(random_values, statistic: str, p) -> np.ndarray:
    """ale's ``p_to_random_value``: the type-7 quantile at ``p`` (``_min`` statistics) or ``1 - p``."""
    p = np.atleast_1d(np.asarray(p, dtype=float))
    probs = p if statistic.endswith("_min") else 1 - p
    return quantile_type7(np.asarray(random_values, dtype=float), probs)


@dataclass(frozen=True)
class _Setup:
    X: pd.DataFrame  # the data without the response and without a random_variable column
    max_num_bins: int
    prediction_of: Callable
    templates: dict = field(default_factory=dict, compare=False, repr=False)  # "data", "X": _Template or None

    def frames(self, data: pd.DataFrame, values: np.ndarray) -> tuple[pd.DataFrame, pd.DataFrame, np.ndarray | None]:
        """``data`` and ``X`` with the column ``random_variable`` added (new frames, the first the refit's
        own), and ``X``'s values as one ``(columns, rows)`` array when its columns are all float64."""
        if "data" not in self.templates:  # once per ALEpDist, not per refit
            self.templates.update(data=_Template.of(data), X=_Template.of(self.X))
        rand_data = _with_random(self.templates["data"], data, values)[0]
        X, block = _with_random(self.templates["X"], self.X, values)
        return rand_data, X, block


@dataclass(frozen=True)
class _Template:
    """A frame of float64 columns only (the usual case) as one ``(columns + 1, rows)`` array, the last row
    for ``random_variable``, and its column labels with ``random_variable`` last."""

    block: np.ndarray
    columns: pd.Index

    @classmethod
    def of(cls, frame: pd.DataFrame) -> "_Template | None":
        if not (frame.shape[1] and RANDOM not in frame.columns and all(dtype == np.float64 for dtype in frame.dtypes)):
            return None  # (a column random_variable already there is replaced, in its place, by the general path)
        block = np.empty((frame.shape[1] + 1, frame.shape[0]))  # (columns, rows): each column contiguous
        block[:-1] = frame.to_numpy().T
        return cls(block, frame.columns.append(pd.Index([RANDOM])))



def _with_random(template: _Template | None, frame: pd.DataFrame, values: np.ndarray):
    """A new frame: ``frame``'s columns (copied) with ``random_variable`` set to ``values``; its
    ``(columns, rows)`` values (None without a template).

    With a template: one array copy and one frame, without pandas' per-column inserts (their cost,
    not the model's, dominated a refit on small data); the values are the same either way.
    """
    if template is None:
        out = frame.copy()
        out[RANDOM] = values
        return out, None
    block = template.block.copy()
    block[-1] = values
    return pd.DataFrame(block.T, index=frame.index, columns=template.columns, copy=False), block


def _local_sums(plan: Plan, X: pd.DataFrame, block: np.ndarray, bins: np.ndarray, caller):
    """The sums :func:`~pyale._core.reduce.estimate.estimate` makes for ``plan`` (ale's ALE of ``random_variable``,
    the last column of ``X``, whose values ``block`` holds as ``(columns, rows)``), made straight from the array.

    The same frames reach the model (the rows of bins 1 and up, ``random_variable`` at their bin's upper and
    lower ceiling, the columns in ``X``'s layout, ``X``'s index), the same local differences and the same
    :func:`~pyale._core.map.sums.group_sums`: the same numbers, without the general path's frame machinery,
    whose pandas cost (not the model's) dominated a refit on a few hundred rows.
    """
    (axis,) = plan.axes
    rows = np.flatnonzero(bins >= 1)
    positions = np.flatnonzero(bins >= 0)
    index = X.index.take(rows)
    predictions = []
    for label, chosen in (("rows at their bin's upper value", bins[rows]),
                          ("rows at their bin's lower value", bins[rows] - 1)):
        # A new C-ordered (columns, rows) array, as the core's private copy: the model's to_numpy() then has
        # the memory order it has there (``block[:, rows]`` would be ordered the other way, and BLAS may sum
        # in another order on it).
        shifted = block.take(rows, axis=1)
        shifted[-1] = axis.ceilings.take(chosen)
        frame = pd.DataFrame(shifted.T, index=index, columns=X.columns, copy=False)
        predictions.append(caller(frame, f"{plan.purpose} ({label})", private=True))
    differences = np.subtract(predictions[0], predictions[1], out=predictions[0])
    values = np.zeros((X.shape[0], differences.shape[1]))
    values[rows] = differences
    return {"local": group_sums(bins[positions], axis.n_bins, values[positions], None, spread=plan.spread)}


def _random_statistics(model, X: pd.DataFrame, setup: _Setup, norms: list, block: np.ndarray | None = None
                       ) -> list[dict]:
    """The ALE statistics of ``random_variable`` (a column of ``X``) under ``model`` (one dict per category).

    ``block``: ``X``'s values as ``(columns, rows)``, ``random_variable`` last (see :func:`_local_sums`).
    """
    prediction = setup.prediction_of(model)
    caller = ModelCaller(prediction.predict, name=prediction.name, single_output=False)
    values = X[RANDOM].to_numpy(dtype=float)
    bins = numeric_bins(values, setup.max_num_bins)  # as ale_axis, without the labels nobody reads here
    row_bins = ale_numeric_bins(values, bins.ceilings)
    plan = Plan((AleNumericAxis(RANDOM, bins.ceilings, known=(X, row_bins)),), ALE_PACKAGE)
    if block is not None and (row_bins >= 1).any():
        est = ALE_PACKAGE.finish(plan, _local_sums(plan, X, block, row_bins, caller))
    else:
        (est,) = estimate(PandasEngine(X), [plan], caller)
    effects = est.effects.reshape(est.effects.shape[0], -1)
    if effects.shape[1] != len(norms):
        raise ValueError(f"{CALLER}: a refitted model gave {effects.shape[1]} outputs; the original gave "
                         f"{len(norms)}.")
    return [ale_statistics_1d(effects[:, c], est.bin_counts, numeric=True, norm=norms[c])
            for c in range(len(norms))]


def _iteration(it: int, refit, data: pd.DataFrame, values: np.ndarray, y_col, setup: _Setup, norms: list):
    """One iteration's statistics, or :class:`_Failed` when its refit or its ALE raises (R skips it)."""
    # The refit's own copy: whatever it does to it, the caller's data stay as they were.
    rand_data, X, block = setup.frames(data, values)
    try:
        model = refit(rand_data)
        if model is None:
            raise TypeError("refit returned None")
    except Exception as exc:  # R: 'Error creating random model; skipped iteration'
        return _Failed(it, "refit", exc)
    try:
        return _random_statistics(model, X, setup, norms, block)
    except Exception as exc:  # R: 'Error calculating ALE; skipped iteration'
        return _Failed(it, "ALE", exc)


def _kept_iterations(results: list, rand_it: int) -> list:
    """R's ``compact(rand_ales)`` and its checks on ``rand_it_ok``: the iterations that worked.

    None worked, or fewer than 100: ``ValueError`` (R aborts: p-values on fewer than 100 iterations
    are invalid), chained from the first failure.  Some failed: an ``ALEpDistWarning`` naming them.
    """
    failed = [r for r in results if isinstance(r, _Failed)]
    kept = [r for r in results if not isinstance(r, _Failed)]
    if not failed:
        return kept
    shown = "; ".join(f.describe() for f in failed[:3]) + ("; ..." if len(failed) > 3 else "")
    if len(kept) < MIN_RAND_IT:
        raise ValueError(f"{CALLER}: {len(failed)} of {rand_it} iterations failed; only {len(kept)} "
                         f"{'was' if len(kept) == 1 else 'were'} valid. With fewer than {MIN_RAND_IT} successful "
                         f"iterations, p-values are invalid (R's ALEpDist stops here too). Failures: "
                         f"{shown}") from failed[0].error
    exactness = "exact" if len(kept) >= 1000 else "approximate"
    warnings.warn(f"{CALLER}: {len(failed)} of {rand_it} iterations failed and are dropped, as R drops them; "
                  f"only {len(kept)} were valid (params['rand_it_ok']), so p-values are {exactness}. "
                  f"Failures: {shown}", ALEpDistWarning, stacklevel=3)
    return kept


class ALEpDist:
    """Random-variable distributions of the ALE statistics, for p-values (R's ``ale::ALEpDist``, ale 0.5.0).

    Parameters
    ----------
    model : object
        The fitted model (called as :class:`pyale.ALE` calls it).
    data : pandas.DataFrame
        Its training data, response included.  Never modified.
    y_col : str, optional
        The response column (found from a statsmodels or R formula when omitted).
    refit : callable, optional
        ``refit(rand_data) -> model``: trains the model again on ``rand_data``,
        the data with a column ``random_variable`` added (R's
        ``random_model_call_string``).  Omitted: an R model (rpy2 or
        :class:`pyale.r.RModel`) is refitted by R itself (its call with
        ``+ random_variable`` and ``data = rand_data``); required otherwise
        (unless ``surrogate=True``).
    rand_it : int, optional
        Refits (R's default: 1000, or 100 with ``surrogate=True``); R refuses
        fewer than 100, and so does pyale.
    surrogate : bool, default False
        Use R's surrogate instead of the model: a ``glm`` of the response on every
        other column (gaussian; binomial for a binary, categorical or ordinal
        response), fitted as R's ``glm.fit`` fits it; 10 bins instead of 100.
        With more than 1000 rows, the 1000 rows R samples (``set.seed(seed);
        slice_sample(n = 1000)`` under R's default Mersenne-Twister generator,
        as in a fresh R session).
    positive : object, default True
        The value of a binary response counted as 1 for its residuals.
    pred_fun, pred_type
        As for :class:`pyale.ALE`; used for the model and every refit.
    output_residuals : bool, default False
        Keep the residuals (``residuals``).
    seed : int, default 0
        Iteration ``it`` draws its random variable after R's ``set.seed(seed + it)``.
    n_jobs : int, optional
        Refits run in parallel with joblib (processes; ``-1``: every core).
        None or 1: one after another.  R models are always refitted in this process.
        The numbers do not depend on ``n_jobs``.  In a Python process where rpy2
        has started R, the worker processes inherit R's environment and may fail
        to start; use ``n_jobs=None`` there.

    Attributes
    ----------
    rand_stats : dict
        ``{category: DataFrame}``, one row per iteration, columns ``aled``,
        ``aler_min``, ``aler_max``, ``naled``, ``naler_min``, ``naler_max``.
    residual_distribution : Fit
        The family ``model_select`` chose, with its parameters
        (``.family``, ``.model``, ``.estimates``, ``.loglik``, ``.aic``).
    residuals : numpy.ndarray or None
        With ``output_residuals=True``: the residuals (one column per category,
        as R's matrix; a single column for a numeric response).
    params : dict
        ``rand_it``, ``rand_it_ok``, ``exactness`` (``"surrogate"``; else
        ``"exact"`` with at least 1000 iterations, ``"approx"`` otherwise),
        ``seed``, ``y_col``, ``positive``, ``surrogate``, ``max_num_bins``.

    Notes
    -----
    The random variables are R's for the same ``seed`` (L'Ecuyer-CMRG, each
    family's ``r*`` function; ``pyale._rbase.distributions``).  Every family's
    fit is R's to the bit for the same residuals: the closed forms (normal,
    Laplace, uniform) and Gumbel's iteration as R computes them, and the
    optimiser fits (Cauchy, logistic, ``sstd`` by R's ``nlm``; fGarch's
    ``ged``, ``sged``, ``snorm``, ``std`` by ``nlminb``) with R's objectives and
    ports of both optimisers, stopping where R stops (short of the maximum
    where R's does).  Residuals that differ from R's in the last bits (a Python
    refit of R's model) can move an optimiser's stopping point by up to its
    tolerance (about 1e-8 relative for Cauchy and logistic, up to 5e-3 on a
    flat generalised error shape), as they would move R's; an R model gives
    R's residuals to the bit.  Every family is drawn as R draws it
    (``rgamma`` and ``rt`` included).  A refit that reproduces R's model (``lm`` or ``glm``
    through statsmodels or through R) gives R's random statistics.
    An iteration whose refit or random-variable ALE raises is dropped, as R
    drops it: ``params["rand_it_ok"]`` counts the rest, ``exactness`` follows
    it, and an ``ALEpDistWarning`` (a ``UserWarning``) names the failed
    iterations; with fewer than 100 left, ``ValueError`` (R aborts there too).
    The other iterations keep their random variables (each is drawn after
    ``set.seed(seed + it)``), so they equal R's.

    References
    ----------
    Okoli, C. (2023). Statistical inference using machine learning and classical
    techniques based on accumulated local effects (ALE). arXiv:2310.09877.
    R packages ``ale`` 0.5.0 and ``univariateML`` 1.1.1.

    Examples
    --------
    >>> import numpy as np, pandas as pd, pyale
    >>> rng = np.random.default_rng(0)
    >>> data = pd.DataFrame({"x": rng.normal(size=60), "z": rng.normal(size=60)})
    >>> data["y"] = data["x"] + rng.normal(size=60)
    >>> def refit(frame):
    ...     X = np.column_stack([np.ones(len(frame)), frame.drop(columns="y")])
    ...     beta = np.linalg.lstsq(X, frame["y"], rcond=None)[0]
    ...     return lambda new: np.column_stack([np.ones(len(new)), new]) @ beta
    >>> dist = pyale.ALEpDist(refit(data), data, "y", refit=refit, rand_it=100)
    >>> dist.rand_stats["y"].shape, dist.params["exactness"]
    ((100, 6), 'approx')
    >>> res = pyale.ALE(refit(data), ["x", "z"], data, "y", p_values=dist)
    >>> table = res.get(stats="all")
    >>> print(table[table["statistic"] == "aled"][["term", "p.value"]].to_string(index=False))
    term  p.value
       x      0.0
       z      0.9
    """

    def __init__(self, model, data, y_col=None, *, refit: Callable | None = None, rand_it: int | None = None,
                 surrogate: bool = False, positive=True, pred_fun: Callable | None = None,
                 pred_type: str = "response", output_residuals: bool = False, seed=0, n_jobs: int | None = None):
        data, native = as_pandas(data, param="data", caller=CALLER)
        if not isinstance(surrogate, (bool, np.bool_)):
            raise TypeError(f"The 'surrogate' parameter of {CALLER} must be a bool. Got {surrogate!r} instead.")
        if not isinstance(output_residuals, (bool, np.bool_)):
            raise TypeError(f"The 'output_residuals' parameter of {CALLER} must be a bool. "
                            f"Got {output_residuals!r} instead.")
        rand_it = _check_rand_it(rand_it, surrogate)
        try:
            seed = seed_as_r_integer(seed)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"The 'seed' parameter of {CALLER} must be a whole number in R's integer range. "
                             f"Got {seed!r} instead.") from exc
        if n_jobs is not None and (not isinstance(n_jobs, (int, np.integer)) or n_jobs == 0):
            raise ValueError(f"The 'n_jobs' parameter of {CALLER} must be None or a nonzero int. "
                             f"Got {n_jobs!r} instead.")
        prediction = Prediction.of(model, pred_fun, pred_type, native)
        if y_col is None:
            y_col = prediction.response_column(data)
        if y_col is None or y_col not in data.columns:
            raise ValueError(f"The 'y_col' parameter of {CALLER} must name the response column of 'data'. "
                             f"Got {y_col!r} instead.")
        if data.isna().any().any():
            raise ValueError(f"The 'data' parameter of {CALLER} has missing values; pass complete rows.")
        X = data.drop(columns=[y_col])
        caller = ModelCaller(prediction.predict, name=prediction.name, single_output=False)
        y_preds = caller(X, "the model's predictions on 'data'")
        names = prediction.output_names or caller.output_names
        cats = [y_col] if y_preds.shape[1] == 1 else (
            list(names) if names is not None and len(names) == y_preds.shape[1] else
            [str(i) for i in range(y_preds.shape[1])])
        if np.std(y_preds) == 0:
            raise ValueError(f"{CALLER}: all predictions are identical. p-values cannot be created.")
        y_type = ale_var_type(data[y_col])
        residuals = _residuals(data[y_col], y_type, y_preds, cats, positive)
        self.residual_distribution: Fit = model_select(residuals)

        max_num_bins = 100
        refit_model = refit
        prediction_of: Callable = (lambda m: Prediction.of(m, pred_fun, pred_type, native))
        if surrogate:
            if data.shape[0] > 1000:  # R: set.seed(seed); slice_sample(n = 1000), i.e. sample.int(n, 1000)
                rows = MersenneTwister.from_seed(seed).sample_int(data.shape[0], 1000) - 1
                data = data.iloc[rows].reset_index(drop=True)
                X = data.drop(columns=[y_col])
            family = "binomial" if y_type in ("binary", "ordinal", "categorical") else "gaussian"
            refit_model = surrogate_refit(y_col, family)
            max_num_bins = 10
            prediction_of = (lambda m: Prediction.of(m, None, "response", None))
        elif refit is None:
            refit_model = _r_refit(model, y_col)
            if refit_model is None:
                raise TypeError(f"The 'refit' parameter of {CALLER} is required for a "
                                f"{type(model).__name__}: pass refit(rand_data) -> model (R's "
                                "random_model_call_string), or surrogate=True.")
            n_jobs = None
        elif not callable(refit):
            raise TypeError(f"The 'refit' parameter of {CALLER} must be a callable refit(rand_data) -> model. "
                            f"Got {type(refit).__name__} instead.")

        norms = [Normaliser.from_response(y_preds[:, c]) for c in range(y_preds.shape[1])]
        setup = _Setup(X.drop(columns=[RANDOM]) if RANDOM in X.columns else X, max_num_bins, prediction_of)
        n_rows = data.shape[0]
        draws = [self.residual_distribution.draw(LecuyerCMRG.from_seed(seed + it), n_rows)
                 for it in range(1, rand_it + 1)]
        per_it = _kept_iterations(_run(refit_model, data, y_col, setup, norms, draws, n_jobs), rand_it)
        if surrogate and y_type == "categorical" and len(cats) > 1:
            per_it = [[stats[0]] * len(cats) for stats in per_it]
        self.rand_stats = {cat: pd.DataFrame([stats[c] for stats in per_it], columns=list(STATISTICS))
                           for c, cat in enumerate(cats)}
        self.residuals = residuals.reshape(-1, 1) if output_residuals else None
        self.y_cats = cats
        self.params = {
            "y_col": y_col, "rand_it": rand_it, "rand_it_ok": len(per_it), "surrogate": bool(surrogate),
            "exactness": "surrogate" if surrogate else ("exact" if len(per_it) >= 1000 else "approx"),
            "positive": positive, "seed": seed, "max_num_bins": max_num_bins, "pred_type": pred_type,
            "y_type": y_type, "n_rows": n_rows,
        }

    def __repr__(self) -> str:
        fit = self.residual_distribution
        return (f"ALEpDist(y_col={self.params['y_col']!r}, rand_it_ok={self.params['rand_it_ok']}, "
                f"exactness={self.params['exactness']!r}, residual_distribution={fit.family} "
                f"{ {k: round(v, 6) for k, v in fit.estimates.items()} })")

    def p_values(self, statistic: str, values, cat=None) -> np.ndarray:
        """The p-values of ``values`` of ``statistic`` (ale's ``value_to_p``) for a response category.

        Parameters
        ----------
        statistic : str
            One of ``"aled"``, ``"aler_min"``, ``"aler_max"``, ``"naled"``, ``"naler_min"``, ``"naler_max"``.
        values : array-like
            Values of that statistic (for example a feature's estimate).
        cat : optional
            The response category (the first by default).

        Returns
        -------
        numpy.ndarray
            The share of random-variable values at least as extreme: ``1 - ecdf`` (``ecdf`` for the minima).

        Examples
        --------
        >>> import numpy as np, pandas as pd, pyale
        >>> data = pd.DataFrame({"x": np.linspace(-1, 1, 40), "y": np.sin(np.arange(40.0))})
        >>> def refit(frame):
        ...     X = np.column_stack([np.ones(len(frame)), frame.drop(columns="y")])
        ...     beta = np.linalg.lstsq(X, frame["y"], rcond=None)[0]
        ...     return lambda new: np.column_stack([np.ones(len(new)), new]) @ beta
        >>> dist = pyale.ALEpDist(refit(data), data, "y", refit=refit, rand_it=100)
        >>> dist.p_values("aled", [0.0, 1e9]).tolist()
        [1.0, 0.0]
        """
        if statistic not in STATISTICS:
            raise ValueError(f"The 'statistic' parameter of p_values must be one of {list(STATISTICS)!r}. "
                             f"Got {statistic!r} instead.")
        cat = self.y_cats[0] if cat is None else cat
        if cat not in self.rand_stats:
            raise ValueError(f"The 'cat' parameter of p_values must be one of {self.y_cats!r}. Got {cat!r} instead.")
        return value_to_p(self.rand_stats[cat][statistic].to_numpy(), statistic, values)


def _check_rand_it(rand_it, surrogate: bool) -> int:
    if rand_it is None:
        return 100 if surrogate else 1000
    if isinstance(rand_it, bool) or not isinstance(rand_it, (int, np.integer, float)) or (
            isinstance(rand_it, float) and not rand_it.is_integer()):
        raise TypeError(f"The 'rand_it' parameter of {CALLER} must be a whole number >= 100. Got {rand_it!r} instead.")
    if rand_it < 100:
        raise ValueError(f"The 'rand_it' parameter of {CALLER} must be a whole number >= 100 (R: p-values created "
                         f"on fewer than 100 iterations are invalid). Got {rand_it!r} instead.")
    return int(rand_it)


def _residuals(y: pd.Series, y_type: str, y_preds: np.ndarray, cats: list, positive) -> np.ndarray:
    """R's residuals: ``(y == positive) - p`` (binary), row means of ``indicator - p`` (categorical), ``y - p``."""
    if y_type == "binary":
        if ptypes_numeric(y) and positive is True:
            actual = (y.to_numpy(dtype=float) == 1.0)
        else:
            actual = (y.astype(object) == positive).to_numpy()
        return actual.astype(float) - y_preds[:, 0]
    if y_type == "categorical":
        actual = np.column_stack([(y.astype(str) == str(cat)).to_numpy(dtype=float) for cat in cats])
        return (actual - y_preds).mean(axis=1)
    if y_type == "ordinal":
        return y.cat.codes.to_numpy(dtype=float) + 1.0 - y_preds[:, 0]
    return y.to_numpy(dtype=float) - y_preds[:, 0]


def ptypes_numeric(y: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(y) and not pd.api.types.is_bool_dtype(y)


def _run(refit, data, y_col, setup, norms, draws, n_jobs) -> list:
    if n_jobs in (None, 1):
        return [_iteration(it, refit, data, values, y_col, setup, norms) for it, values in enumerate(draws, 1)]
    try:
        import joblib
    except ImportError as exc:  # pragma: no cover - joblib comes with scikit-learn
        raise ImportError(f"{CALLER}(n_jobs={n_jobs}) runs refits in parallel with joblib: pip install "
                          "'pyale-r[pdist]' (or joblib).") from exc
    tasks = (joblib.delayed(_iteration)(it, refit, data, values, y_col, setup, norms)
             for it, values in enumerate(draws, 1))
    return list(joblib.Parallel(n_jobs=n_jobs)(tasks))


def _r_refit(model, y_col) -> Callable | None:
    """R refits an R model: its call with ``formula = y ~ <term labels> + random_variable``, ``data = rand_data``."""
    from ..._core.map.adapters import _is_r_object

    fitted = model.model if type(model).__name__ == "RModel" and type(model).__module__ == "pyale.r" else model
    if not _is_r_object(fitted):
        return None
    import rpy2.robjects as ro

    from ...r import to_r_dataframe

    updater = ro.r("""function(m, rand_data, y_col) {
      cl <- insight::get_call(m)
      if (is.null(cl)) cl <- stats::getCall(m)
      preds <- attr(stats::terms(stats::formula(m), data = rand_data), 'term.labels')
      preds <- setdiff(preds, 'random_variable')
      cl$formula <- stats::as.formula(paste0(y_col, ' ~ ', paste(c(preds, 'random_variable'), collapse = ' + ')))
      cl$data <- rand_data
      eval(cl)
    }""")

    def refit(rand_data: pd.DataFrame):
        return updater(fitted, to_r_dataframe(rand_data), y_col)

    return refit


# --- how pyale.ALE shows p-values ------------------------------------------------------------

P_COLUMNS = ["statistic", "estimate", "p.value", "term", "conf.low", "mean", "median", "conf.high"]


def check_p_values(p_values, y_cats: list, caller: str, param: str = "p_values"):
    """``p_values`` of :class:`pyale.ALE` (``ale_p`` of :class:`pyale.ModelBoot`): None or an
    :class:`ALEpDist` with every response category."""
    if p_values is None:
        return None
    if not isinstance(p_values, ALEpDist):
        raise TypeError(f"The {param!r} parameter of {caller} must be None or a pyale.ALEpDist. "
                        f"Got {type(p_values).__name__} instead.")
    missing = [c for c in y_cats if c not in p_values.rand_stats]
    if missing:
        raise ValueError(f"The {param!r} parameter of {caller} has no distributions for the response "
                         f"categories {missing!r} (it has {list(p_values.rand_stats)!r}); build the ALEpDist "
                         "from the same model and data.")
    return p_values


def with_p_value_column(table: pd.DataFrame, p_values: ALEpDist, cat) -> pd.DataFrame:
    """ale's long statistics table with ``p.value`` (``value_to_p`` of each estimate) in R's column order."""
    table = table.copy()
    random = p_values.rand_stats[cat]
    table["p.value"] = [float(value_to_p(random[stat].to_numpy(), stat, [value])[0])
                        for stat, value in zip(table["statistic"], table["estimate"])]
    return table[P_COLUMNS]


def with_aler_rows(summary: pd.DataFrame, p_values: ALEpDist, y_cats: list, aler_alpha) -> pd.DataFrame:
    """``var_summary(p_dist = )``: rows ``aler_lo_lo``, ``aler_lo`` (before ``50%``), ``aler_hi``,
    ``aler_hi_hi`` (after ``mean``): the median plus the random ``aler_min``/``aler_max`` quantiles at
    ``1 - sqrt(1 - aler_alpha)`` (the joint level for both bounds)."""
    joint = 1 - np.sqrt(1 - np.asarray(aler_alpha, dtype=float))
    extra = {}
    for cat in y_cats:
        random = p_values.rand_stats[cat]
        mid = float(summary.loc["50%", cat])
        lo = p_to_random_value(random["aler_min"].to_numpy(), "aler_min", joint)
        hi = p_to_random_value(random["aler_max"].to_numpy(), "aler_max", joint)
        extra[cat] = {"aler_lo_lo": mid + lo[0], "aler_lo": mid + lo[1], "aler_hi": mid + hi[1],
                      "aler_hi_hi": mid + hi[0]}
    rows = list(summary.index)
    order = rows[:rows.index("50%")] + ["aler_lo_lo", "aler_lo"] + rows[rows.index("50%"):rows.index("mean") + 1] \
        + ["aler_hi", "aler_hi_hi"] + rows[rows.index("mean") + 1:]
    out = summary.reindex(order)
    for cat in y_cats:
        for row, value in extra[cat].items():
            out.loc[row, cat] = value
    first = summary.columns[0]
    if first not in y_cats:  # the summary column of a multi-class response: min of the lows, max of the highs
        for row, pick in (("aler_lo_lo", min), ("aler_lo", min), ("aler_hi", max), ("aler_hi_hi", max)):
            out.loc[row, first] = pick(extra[c][row] for c in y_cats)
    return out
