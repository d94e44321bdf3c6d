"""``pyale.ModelBoot``: R's ``ale::ModelBoot()`` (ale 0.5.x), full-model bootstrap, and its ``get()``.

For each of ``boot_it`` resamples (the rows R's ``sample(n, replace = TRUE)``
draws after ``set.seed(seed)``: :func:`pyale._rbase.mersenne.r_sample_rows`)
the model is refitted by the user's ``refit`` on the resampled data, and then:

* its ALE is computed on the resampled data with the full data's bins (R's
  ``ALE(.bins = )``, through :class:`pyale.ALE`); the band of each term is the
  replicates' quantiles, the statistics each replicate's own;
* its out-of-bootstrap predictions give ``staccuracy``'s measures (MAE, RMSE and
  their standardised accuracies; AUC for a binary response), which are
  reported with the .632 correction ``0.632 * mean + 0.368 * full-data value``;
* ``glance`` and ``tidy`` (``broom``'s, mirrored for statsmodels) give the
  model statistics and coefficients summarised over the refits.

See ``docs/ale-package.md`` (section "ModelBoot").
"""

from __future__ import annotations

import inspect
import math
import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..._core.grid.bounds import check_replicates
from ..._inputs.frames import as_pandas
from ..._rbase import quantile_type7
from ..._rbase.mersenne import r_sample_rows
from .ale import ALE, _simplified
from .model import Prediction
from .pdist import ALEpDist, check_p_values, with_aler_rows
from .performance import aucroc, glance_statsmodels, numeric_measures, tidy_statsmodels
from .stats import STATISTICS, r_mean, r_median, summarise_statistics
from .tables import band_summary, effect_table_1d, effect_table_2d, statistics_estimate_table, statistics_long_table
from .types import ale_var_type

__all__ = ["ModelBoot", "ModelBootWarning"]

CALLER = "ModelBoot"
_STATS_COLUMNS = ["term", "statistic", "estimate", "conf.low", "median", "mean", "conf.high"]


class ModelBootWarning(UserWarning):
    """A refit, or its ALE, failed for one resample; R's ``ModelBoot`` skips that iteration too."""


@dataclass(frozen=True, eq=False)
class _Iteration:
    """One row of R's ``boot_data``: iteration 0 is the full data."""

    it: int
    row_idxs: np.ndarray  # 0-based
    model: object
    ale: object
    tidy: pd.DataFrame | None
    stats: dict | None
    perf: dict | None


class ModelBoot:
    """Full-model bootstrap as R's ``ale`` package computes it (``ale::ModelBoot``, ale 0.5.0 and 0.5.3).

    Parameters
    ----------
    model : object
        The model fitted on ``data`` (anything :class:`pyale.ALE` accepts).
        It is iteration 0: the ``single`` ALE and the full-data performance.
    data : pandas.DataFrame
        The data the model was trained on, response included.
    refit : callable, optional
        ``refit(boot_data) -> model``: trains a fresh model on a resample (a
        DataFrame with ``data``'s columns, rows in R's resample order, index
        0..n-1).  It takes the place of R's ``model_call_string``
        (``data = boot_data``).  Omitted: a statsmodels formula model is
        refitted from its formula (and GLM family), as R re-evaluates the
        model's call.
    y_col : str, optional
        The response column (found from a statsmodels or R formula when omitted).
    positive : object, default True
        For a binary response: the value counted as the positive class (R's
        ``positive``; ``True`` also matches 1).
    pred_fun, pred_type
        As for :class:`pyale.ALE`; also used for the out-of-bootstrap
        predictions.
    boot_it : int, default 100
        Number of refits; 0 gives the full-data results alone.
    boot_alpha : float, default 0.05
        The intervals run from the ``boot_alpha / 2`` to the
        ``1 - boot_alpha / 2`` quantile (R's type 7).
    boot_centre : {"mean", "median"}, default "mean"
        The ALE's ``.y`` and the statistics' ``estimate``.
    seed : int, default 0
        R's ``seed``: the resamples are those of ``set.seed(seed)`` under R's
        default generator (Mersenne-Twister, sampling by rejection).
    output_model_stats, output_model_coefs, output_ale, output_boot_data : bool
        As R: model statistics (``model_stats``), coefficients
        (``model_coefs``), ALE (``ale``) and every iteration's raw results
        (``boot_data``; default False).
    ale_options : dict, optional
        Keywords of :class:`pyale.ALE` (``x_cols``, ``max_num_bins``, ...) for
        the full-data ALE and every refit's (not ``p_values``: R refuses it
        there and takes ``ale_p``).
    ale_p : pyale.ALEpDist, optional
        R's ``ale_p``: the p-value distributions of the model.  As in ale
        0.5.0 and 0.5.3, they change only the full-data ALE's ``y_summary``
        (``mb.ale["single"].y_summary`` gains R's rows ``aler_lo_lo``,
        ``aler_lo``, ``aler_hi``, ``aler_hi_hi`` at ``ale_options``'
        ``aler_alpha``), which every ``get()`` of this ModelBoot shares; no
        statistics table gains a ``p.value`` column (R computes the
        full-data and the refits' ALE with ``p_values = NULL``).  For
        p-values of the full-data statistics use ``pyale.ALE(model, data=data,
        p_values=ale_p)``.  ``"auto"`` is R's default: a surrogate
        ``ALEpDist(model, data, y_col, surrogate=True, pred_fun=,
        pred_type=, seed=seed)`` made first (100 refits of R's surrogate
        glm; not made when ``output_ale=False``, where it changes nothing).
        None (pyale's default) is R's ``ale_p = NULL``.
    replicate_r_bugs : bool, default False
        Give R's numbers where ``ale`` is knowingly wrong: each refit's ALE
        then uses the full data's ceilings as R hands them on (rounded to 15
        significant digits, so a row at a ceiling can fall into the next bin)
        and centres a categorical feature with the level frequencies in the
        column's level order rather than in ALE order; the full-data ALE
        gets :class:`pyale.ALE`'s own switch.  See ``docs/deviations.md``.
    glance, tidy : callable, optional
        ``glance(model) -> dict`` of model statistics and ``tidy(model) ->
        DataFrame`` with ``term`` and ``estimate`` columns, in place of
        ``broom``'s.  By default statsmodels OLS and GLM results are read as
        ``broom`` reads R's ``lm`` and ``glm`` (``pyale._frontends.alepkg.performance``);
        for other models these tables are left out (R warns and leaves them
        out too).

    Attributes
    ----------
    model_stats : pandas.DataFrame or None
        ``name, boot_valid, conf.low, median, mean, conf.high, sd``: glance's
        statistics (``logLik``, ``AIC``, ``BIC``, ``deviance`` dropped) and the
        bootstrap-validated measures, whose ``boot_valid`` is the .632 estimate
        (their ``median`` and ``mean`` are NaN, as R blanks them).
    model_coefs : pandas.DataFrame or None
        ``term, conf.low, median, mean, conf.high, std.error`` over the refits.
    ale : dict or None
        ``{"single": ALE}`` (the full data's, no bootstrap) and, with
        ``boot_it > 0``, ``"boot"``: the refits' curves per term.
    boot_data : pandas.DataFrame or None
        With ``output_boot_data``: ``it``, ``row_idxs`` (1-based, as R),
        ``model``, ``ale``, ``tidy``, ``stats``, ``perf``.
    ale_p : pyale.ALEpDist or None
        The ``ale_p`` passed (R's ``params$ale_p``).
    y_col, y_type, y_cats, boot_it, boot_alpha, boot_centre, seed

    Notes
    -----
    The performance measures need the response and predictions on ``data``;
    the out-of-bootstrap rows are those no resample row repeats, and a row
    whose categorical value the resample never saw gets no prediction (R sets
    that value to NA, so ``predict`` gives NA, dropped by ``na.rm``); the
    reference spread (mean absolute deviation, SD) still counts it.
    A refit that raises is skipped with a warning (``ModelBootWarning``, a ``UserWarning``), as R
    skips it.  Iteration 0 uses ``model`` itself where R refits it from its
    call on the full data (the same model for a deterministic fit).

    Without ``ale_p``, compare with R's ``ale_p = NULL``.

    References
    ----------
    Okoli, C. (2023). Statistical inference using machine learning and
    classical techniques based on accumulated local effects (ALE).
    arXiv:2310.09877.  Efron, B. and Tibshirani, R. (1986). Bootstrap methods
    for standard errors, confidence intervals, and other measures of
    statistical accuracy. Statistical Science 1(1), 54-75.  R packages
    ``ale`` 0.5.0/0.5.3, ``staccuracy`` 0.2.2, ``broom`` 1.0.3.

    Examples
    --------
    >>> import numpy as np, pandas as pd, statsmodels.formula.api as smf, pyale
    >>> rng = np.random.default_rng(0)
    >>> data = pd.DataFrame({"x": rng.uniform(size=60), "z": rng.normal(size=60)})
    >>> data["y"] = 2 * data["x"] - data["z"] + rng.normal(size=60)
    >>> fit = smf.ols("y ~ x + z", data).fit()
    >>> mb = pyale.ModelBoot(fit, data, boot_it=10, seed=1)
    >>> list(mb.model_stats["name"][-4:])
    ['mae', 'sa_mae', 'rmse', 'sa_rmse']
    >>> mb.get("x").shape
    (10, 7)
    """

    def __init__(self, model, data, refit=None, *, y_col=None, positive=True, pred_fun=None,
                 pred_type="response", boot_it=100, boot_alpha=0.05, boot_centre="mean", seed=0,
                 output_model_stats=True, output_model_coefs=True, output_ale=True, output_boot_data=False,
                 ale_options=None, ale_p=None, replicate_r_bugs=False, glance=None, tidy=None):
        data, native = as_pandas(data, param="data", caller=CALLER)
        self.boot_it = _whole_number(boot_it, param="boot_it", minimum=0)
        self.seed = _whole_number(seed, param="seed", minimum=-(2**31 - 1), maximum=2**31 - 1)
        if isinstance(boot_alpha, bool) or not isinstance(boot_alpha, (int, float)) or not 0 <= boot_alpha <= 1:
            raise ValueError(f"The 'boot_alpha' parameter of {CALLER} must be a float in [0, 1]. "
                             f"Got {boot_alpha!r} instead.")
        if boot_centre not in ("mean", "median"):
            raise ValueError(f"The 'boot_centre' parameter of {CALLER} must be 'mean' or 'median'. "
                             f"Got {boot_centre!r} instead.")
        for name, flag in (("output_model_stats", output_model_stats), ("output_model_coefs", output_model_coefs),
                           ("output_ale", output_ale), ("output_boot_data", output_boot_data)):
            if not isinstance(flag, (bool, np.bool_)):
                raise TypeError(f"The '{name}' parameter of {CALLER} must be True or False. Got {flag!r} instead.")
        if output_ale:
            missing = data.isna().to_numpy().any(axis=0)
            if missing.any():
                column = data.columns[int(missing.argmax())]
                raise ValueError(f"The 'data' parameter of {CALLER} must not have missing values with output_ale=True "
                                 f"(its ALE refuses them, as R's ale does). Column {column!r} has "
                                 f"{int(data[column].isna().sum())} missing value(s).")
        ale_options = dict(ale_options or {})
        for key in ("model", "data", "boot_it", "replicate_r_bugs"):
            if key in ale_options:
                raise ValueError(f"The 'ale_options' parameter of {CALLER} must not set {key!r} (ModelBoot sets it).")
        if "p_values" in ale_options:  # R: 'The ale_options$p_values option is disabled. Use the ale_p argument instead.'
            raise ValueError(f"The 'ale_options' parameter of {CALLER} must not set 'p_values' (R disables it): "
                             "pass the ALEpDist as ale_p=.")
        if isinstance(ale_p, str):
            if ale_p != "auto":
                raise ValueError(f"The 'ale_p' parameter of {CALLER} must be None, 'auto' or a pyale.ALEpDist. "
                                 f"Got {ale_p!r} instead.")
        elif ale_p is not None and not isinstance(ale_p, ALEpDist):  # categories: checked once the ALE knows them
            raise TypeError(f"The 'ale_p' parameter of {CALLER} must be None, 'auto' or a pyale.ALEpDist. "
                            f"Got {type(ale_p).__name__} instead.")
        taken = [name for name in inspect.signature(ALE).parameters if name not in ("model", "data", "y_col")]
        for key in ale_options:
            if key not in taken:
                raise ValueError(f"The 'ale_options' parameter of {CALLER} sets {key!r}, which ALE does not take; "
                                 f"it takes {[t for t in taken if t not in ('boot_it', 'replicate_r_bugs')]!r}.")
        self.boot_alpha, self.boot_centre = float(boot_alpha), boot_centre
        self.positive = positive
        if not isinstance(replicate_r_bugs, (bool, np.bool_)):
            raise TypeError(f"The 'replicate_r_bugs' parameter of {CALLER} must be True or False. "
                            f"Got {replicate_r_bugs!r} instead.")
        self.replicate_r_bugs = bool(replicate_r_bugs)
        ale_options["replicate_r_bugs"] = self.replicate_r_bugs
        refit = refit if refit is not None else _formula_refit(model)
        if not callable(refit):
            raise TypeError(f"The 'refit' parameter of {CALLER} must be a callable refit(boot_data) -> model. "
                            f"Got {type(refit).__name__} instead.")
        glance = glance if glance is not None else glance_statsmodels
        tidy = tidy if tidy is not None else tidy_statsmodels
        prediction = Prediction.of(model, pred_fun, pred_type, native)
        if y_col is None:
            y_col = prediction.response_column(data)
        if y_col is not None and y_col not in data.columns:
            raise ValueError(f"The 'y_col' parameter of {CALLER} must be a column of 'data'. Got {y_col!r} instead.")
        self.y_col = y_col
        self._pred = (pred_fun, pred_type, native)
        if isinstance(ale_p, str):  # R's default 'auto': a surrogate ALEpDist made before the refits
            ale_p = ALEpDist(model, data, y_col, surrogate=True, pred_fun=pred_fun, pred_type=pred_type,
                             seed=self.seed) if output_ale else None
        n = data.shape[0]
        # Every resample's rows are drawn at once and each refit keeps its resample's rows and curves.
        check_replicates(self.boot_it, n, param="boot_it", caller=CALLER, advice=" Use a smaller boot_it.")
        rows = r_sample_rows(n, self.boot_it, self.seed) if self.boot_it else np.empty((0, n), dtype=np.int64)

        self.y_type = ale_var_type(data[y_col]) if y_col is not None else None
        full_predictions = None
        if self.boot_it and y_col is not None and self.y_type in ("numeric", "binary", "ordinal"):
            full_predictions = np.asarray(prediction.predict(data), dtype=float)
            full_predictions = full_predictions.reshape(n, -1)
        calc_boot_valid = full_predictions is not None

        single = None
        if output_ale:
            single = ALE(model, ale_options.get("x_cols"), data, y_col,
                         **_ale_keywords(ale_options, pred_fun, pred_type))
        self.y_cats = list(single.y_cats) if single is not None else [y_col]
        self.ale_p = ale_p
        if single is not None and ale_p is not None:
            # R re-makes the full-data ALE's y_summary with the random variables' ALER bands
            # (var_summary(p_dist = ale_p)); its statistics, and the refits', stay without p-values.
            check_p_values(ale_p, single.y_cats, CALLER, param="ale_p")
            single.y_summary = with_aler_rows(single.y_summary, ale_p, single.y_cats,
                                              ale_options.get("aler_alpha", (0.01, 0.05)))
        iterations = [_Iteration(0, np.arange(n), model, single,
                                 tidy(model) if output_model_coefs else None,
                                 glance(model) if output_model_stats else None, None)]
        for b in range(self.boot_it):
            iterations.append(self._iteration(b + 1, data, rows[b], refit, single, ale_options, glance, tidy,
                                              output_model_stats, output_model_coefs, calc_boot_valid))
        used = iterations[1:] if self.boot_it else iterations
        self.model_stats = None
        if output_model_stats:
            self.model_stats = self._model_stats(used, data, full_predictions, calc_boot_valid)
        self.model_coefs = _coef_summary(used, self.boot_alpha) if output_model_coefs else None
        self.ale = None
        if output_ale:
            self.ale = {"single": single}
            if self.boot_it:
                self.ale["boot"] = _BootALE(single, [it.ale for it in used if it.ale is not None],
                                            self.boot_alpha, self.boot_centre)
        self.boot_data = _boot_data_frame(iterations) if output_boot_data else None

    # ------------------------------------------------------------------ the refits

    def _iteration(self, it, data, rows, refit, single, ale_options, glance, tidy, want_stats, want_coefs,
                   calc_boot_valid) -> _Iteration:
        boot_data = data.iloc[rows].reset_index(drop=True)
        try:
            model = refit(boot_data)
            if model is None:
                raise TypeError("refit returned None")
        except Exception as exc:  # R: the iteration is skipped
            warnings.warn(f"{CALLER}: refit failed on resample {it} ({type(exc).__name__}: {exc}); that "
                          "iteration is skipped, as R skips it.", ModelBootWarning, stacklevel=3)
            return _Iteration(it, rows, None, None, None, None, None)
        stats = glance(model) if want_stats else None
        perf = self._performance(model, data, rows) if (want_stats and calc_boot_valid) else None
        coefs = tidy(model) if want_coefs else None
        ale = None
        if single is not None and not _undefined_coefficients(model):
            pred_fun, pred_type, _ = self._pred
            try:
                ale = RefitALE(single._infos, model, single.terms, boot_data, self.y_col,
                               **_ale_keywords(ale_options, pred_fun, pred_type))
            except Exception as exc:
                warnings.warn(f"{CALLER}: the ALE of refit {it} failed ({type(exc).__name__}: {exc}); it is "
                              "left out, as R leaves it out.", ModelBootWarning, stacklevel=3)
        return _Iteration(it, rows, model, ale, coefs, stats, perf)

    def _performance(self, model, data: pd.DataFrame, rows: np.ndarray) -> dict:
        """Out-of-bootstrap measures of one refit (R's ``boot_perf``)."""
        n = data.shape[0]
        seen = np.zeros(n, dtype=bool)
        seen[rows] = True
        oob = np.flatnonzero(~seen)
        data_oob = data.iloc[oob]
        unseen = np.zeros(oob.shape[0], dtype=bool)
        for name in data.columns:
            column = data[name]
            if isinstance(column.dtype, pd.CategoricalDtype) or column.dtype == object or \
                    pd.api.types.is_string_dtype(column.dtype):
                known = pd.unique(column.iloc[rows])
                unseen |= ~data_oob[name].isin(known).to_numpy()
        pred = np.full(oob.shape[0], np.nan)
        asked = np.flatnonzero(~unseen)
        if asked.shape[0]:
            pred_fun, pred_type, native = self._pred
            predicted = np.asarray(Prediction.of(model, pred_fun, pred_type, native).predict(data_oob.iloc[asked]),
                                   dtype=float)
            pred[asked] = predicted.reshape(asked.shape[0], -1)[:, 0]
        actual = data_oob[self.y_col]
        if self.y_type == "binary":
            return {"auc": aucroc(_is_positive(actual, self.positive), pred)}
        return numeric_measures(_numeric_response(actual), pred)

    def _model_stats(self, used, data, full_predictions, calc_boot_valid) -> pd.DataFrame | None:
        values: dict[str, list] = {}
        for it in used:
            for key, value in (it.stats or {}).items():
                values.setdefault(key, []).append(float(value))
        if calc_boot_valid:
            for it in used:
                for key, value in (it.perf or {}).items():
                    values.setdefault(key, []).append(float(value))
        if not values:
            return None
        rows = []
        for name, vals in values.items():
            v = np.asarray(vals, dtype=float)
            v = v[~np.isnan(v)]
            low, high = quantile_type7(v, np.array([self.boot_alpha / 2, 1 - self.boot_alpha / 2])) if v.size \
                else (math.nan, math.nan)
            rows.append({"name": name, "conf.low": float(low), "median": r_median(v), "mean": r_mean(v),
                         "conf.high": float(high), "sd": _r_sd(v)})
        table = pd.DataFrame(rows, columns=["name", "conf.low", "median", "mean", "conf.high", "sd"])
        if not calc_boot_valid:
            return table
        actual = data[self.y_col]
        if self.y_type == "binary":
            full = {"auc": aucroc(_is_positive(actual, self.positive), full_predictions[:, 0])}
        else:
            full = numeric_measures(_numeric_response(actual), full_predictions[:, 0])
        boot_valid = np.full(table.shape[0], np.nan)
        for i, name in enumerate(table["name"]):
            if name in full:
                boot_valid[i] = 0.632 * table["mean"].iloc[i] + 0.368 * full[name]
        valid = ~np.isnan(boot_valid)
        table.loc[valid, ["median", "mean"]] = np.nan
        table.insert(1, "boot_valid", boot_valid)
        return table

    # ------------------------------------------------------------------ get()

    def get(self, x_cols=None, *, type="auto", stats=None, cats=None, ale_centre="median", simplify=True):
        """R's ``get(mb, x_cols, type =, stats =, cats =, ale_centre =, simplify =)``.

        Parameters
        ----------
        x_cols : str, sequence or dict, optional
            As :meth:`pyale.ALE.get`.
        type : {"auto", "boot", "single"}, default "auto"
            ``"single"``: the full-data ALE; ``"boot"``: the refits' curves
            and statistics; ``"auto"``: ``"boot"`` when there are refits.
        stats, cats, ale_centre, simplify
            As :meth:`pyale.ALE.get`.

        Returns
        -------
        pandas.DataFrame or dict
            As :meth:`pyale.ALE.get`.  The ``"boot"`` statistics tables have
            R's ModelBoot column order ``term, statistic, estimate, conf.low,
            median, mean, conf.high``.
        """
        if type not in ("auto", "boot", "single"):
            raise ValueError(f"The 'type' parameter of get must be 'auto', 'boot' or 'single'. Got {type!r} instead.")
        if self.ale is None:
            raise ValueError("This ModelBoot has no ALE (output_ale=False).")
        if type == "auto":
            type = "boot" if "boot" in self.ale else "single"
        single = self.ale["single"]
        if type == "single":
            return single.get(x_cols, stats=stats, cats=cats, ale_centre=ale_centre, simplify=simplify)
        if "boot" not in self.ale:
            raise ValueError("This ModelBoot has no bootstrapped ALE (boot_it=0); use type='single'.")
        return self.ale["boot"].get(x_cols, stats=stats, cats=cats, ale_centre=ale_centre, simplify=simplify)

    def __repr__(self) -> str:
        terms = self.ale["single"].terms if self.ale else []
        return (f"ModelBoot(boot_it={self.boot_it}, y_col={self.y_col!r}, y_type={self.y_type!r}, "
                f"terms={terms!r})")


class RefitALE(ALE):
    """A refit's ALE on its resample with the full data's bins (R's ``ALE(.bins = )``); a bin may be empty."""

    def __init__(self, bins: dict, *args, **kwargs):
        self._fixed_bins = bins
        super().__init__(*args, **kwargs)


class _BootALE:
    """The refits' ALE per term (R's ``mb@ale$boot``), read through ``get()`` as ale's ``get.ModelBoot``."""

    def __init__(self, single: ALE, replicates: list, boot_alpha: float, boot_centre: str):
        self.single, self.boot_alpha, self.boot_centre = single, boot_alpha, boot_centre
        self.n_replicates = len(replicates)
        self.curves = {}
        self.statistics = {}
        for cat in single.y_cats:
            self.curves[cat] = {t: np.stack([r.curves(t, cat)[0] for r in replicates]) if replicates else None
                                for t in single._terms}
            dims = {"d1": [], "d2": []}
            per_replicate = [r._statistics()[cat] for r in replicates]
            for term in single._terms.values():
                per = [dict(next(s for label, s in stats_r[term.dimension] if label == term.label))
                       for stats_r in per_replicate]
                values = [{name: s[name]["estimate"] for name in STATISTICS} for s in per]
                dims[term.dimension].append((term.label, summarise_statistics(
                    values, boot_alpha=boot_alpha, boot_centre=boot_centre)))
            self.statistics[cat] = dims

    def table(self, label: str, cat, centre: float) -> pd.DataFrame:
        term = self.single._terms[label]
        curves = self.curves[cat][label]
        if curves is None:
            summary = {k: np.full(term.counts.shape, np.nan) for k in (".y", ".y_lo", ".y_mean", ".y_median", ".y_hi")}
        else:
            # band_summary counts its first curve among the rest: here every curve is a refit's
            summary = band_summary(curves, boot_alpha=self.boot_alpha, boot_centre=self.boot_centre)
        if len(term.features) == 1:
            info = term.infos[0]
            bins = info.bins if info.ale_type == "numeric" else info.labels
            return effect_table_1d(str(info.name), info.ale_type, bins, term.counts, summary, centre=centre)
        bins = tuple(i.bins if i.ale_type == "numeric" else i.labels for i in term.infos)
        return effect_table_2d(tuple(str(i.name) for i in term.infos), term.types, bins, term.counts, summary,
                               centre=centre)

    def get(self, x_cols=None, *, stats=None, cats=None, ale_centre="median", simplify=True):
        single = self.single
        wanted = single._wanted_terms(x_cols)
        cats = single._wanted_cats(cats)
        if ale_centre not in ("median", "mean", "zero"):
            raise ValueError(f"The 'ale_centre' parameter of get must be 'median', 'mean' or 'zero'. "
                             f"Got {ale_centre!r} instead.")
        names = single._wanted_stats(stats) if stats is not None else None
        out = {}
        for cat in cats:
            if stats is None:
                centre = single._centre(cat, ale_centre)
                part = {dim: {t: self.table(t, cat, centre) for t in terms} for dim, terms in wanted.items()}
            else:
                part = {}
                for dim, terms in wanted.items():
                    rows = [item for item in self.statistics[cat][dim] if item[0] in terms]
                    if stats == "estimate":
                        part[dim] = statistics_estimate_table(rows)
                    else:
                        part[dim] = statistics_long_table(rows, names)[_STATS_COLUMNS]
            out[cat] = _simplified(part) if simplify else part
        return out[cats[0]] if len(cats) == 1 else out


# --- helpers ---------------------------------------------------------------------------------


def _whole_number(value, *, param: str, minimum: int, maximum: int | None = None) -> int:
    """An int, or a float holding a whole number (R passes doubles), within bounds."""
    bounds = f">= {minimum}" if maximum is None else f"from {minimum} to {maximum}"
    message = f"The {param!r} parameter of {CALLER} must be a whole number {bounds}. Got {value!r} instead."
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(message)
    if not math.isfinite(float(value)) or float(value) != math.floor(float(value)):
        raise ValueError(message)
    number = int(value)
    if number < minimum or (maximum is not None and number > maximum):
        raise ValueError(message)
    return number


def _ale_keywords(ale_options: dict, pred_fun, pred_type) -> dict:
    keywords = {k: v for k, v in ale_options.items() if k != "x_cols"}
    keywords.setdefault("pred_fun", pred_fun)
    keywords.setdefault("pred_type", pred_type)
    return keywords


def _formula_refit(model):
    """R's automatic refit (``insight::get_call``, ``model_call$data <- boot_data``) for statsmodels formulas."""
    inner = getattr(model, "model", None)
    formula = getattr(inner, "formula", None)
    if inner is None or formula is None or not hasattr(type(inner), "from_formula"):
        raise TypeError(f"The 'refit' parameter of {CALLER} is needed: pyale cannot refit a "
                        f"{type(model).__name__} by itself (it refits statsmodels formula models). Pass "
                        "refit=lambda boot_data: <fit your model on boot_data>.")
    extra = {}
    family = getattr(inner, "family", None)
    if family is not None:
        extra["family"] = family
    cls = type(inner)

    def refit(boot_data):
        return cls.from_formula(formula, data=boot_data, **extra).fit()

    return refit


def _undefined_coefficients(model) -> bool:
    """R skips a refit's ALE when a coefficient is NA (``is.na(sum(model$coefficients))``)."""
    params = getattr(model, "params", None)
    try:
        return params is not None and bool(np.isnan(np.asarray(params, dtype=float)).any())
    except (TypeError, ValueError):
        return False


def _is_positive(actual: pd.Series, positive) -> np.ndarray:
    """R's ``actual == positive`` (logical ``TRUE`` also matches 1)."""
    values = actual.to_numpy(dtype=object)
    return np.array([v == positive for v in values], dtype=float)


def _numeric_response(actual: pd.Series) -> np.ndarray:
    if isinstance(actual.dtype, pd.CategoricalDtype):  # ordinal: R's numbers are the level codes
        return actual.cat.codes.to_numpy(dtype=float) + 1.0
    return actual.to_numpy(dtype=float)


def _r_sd(values: np.ndarray) -> float:
    if values.shape[0] < 2:
        return math.nan
    centre = r_mean(values)
    return math.sqrt(math.fsum(((values - centre) ** 2).tolist()) / (values.shape[0] - 1))


def _coef_summary(used, boot_alpha: float) -> pd.DataFrame | None:
    frames = [it.tidy for it in used if it.tidy is not None]
    if not frames:
        return None
    tidy = pd.concat(frames, ignore_index=True)
    rows = []
    for term in pd.unique(tidy["term"]):
        v = tidy.loc[tidy["term"] == term, "estimate"].to_numpy(dtype=float)
        v = v[~np.isnan(v)]
        low, high = quantile_type7(v, np.array([boot_alpha / 2, 1 - boot_alpha / 2])) if v.size else (math.nan,) * 2
        rows.append({"term": term, "conf.low": float(low), "median": r_median(v), "mean": r_mean(v),
                     "conf.high": float(high), "std.error": _r_sd(v)})
    return pd.DataFrame(rows, columns=["term", "conf.low", "median", "mean", "conf.high", "std.error"])


def _boot_data_frame(iterations) -> pd.DataFrame:
    return pd.DataFrame({
        "it": [it.it for it in iterations],
        "row_idxs": [it.row_idxs + 1 for it in iterations],
        "model": [it.model for it in iterations],
        "ale": [it.ale for it in iterations],
        "tidy": [it.tidy for it in iterations],
        "stats": [it.stats for it in iterations],
        "perf": [it.perf for it in iterations],
    })
