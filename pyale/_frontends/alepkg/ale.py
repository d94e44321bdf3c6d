"""``pyale.ALE``: R's ``ale::ALE()`` (ale 0.5.0) and its ``get()``.

The effects come from pyale's one estimator core with ale's rules
(:mod:`pyale._core.conventions.alepkg`); the
bootstrap replicates are the rows R resamples (:func:`pyale._rbase.rng.ale_bootstrap_rows`)
as reweighted local differences (no extra model call); the tables, bands and
statistics are built as ``ale`` builds them (:mod:`pyale._frontends.alepkg.tables`,
:mod:`pyale._frontends.alepkg.stats`).  See ``docs/ale-package.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial

import numpy as np
import pandas as pd

from ..._results import present as _present
from ..._core.grid.bounds import check_effects, check_pair_cells, check_replicates, effect_values
from ..._core.map.calls import ModelCaller
from ..._core.conventions import ALE_PACKAGE
from ..._core.reduce.estimate import estimate
from ..._core.map.explicit_draws import ExplicitDraws
from ..._core.map.local import Plan
from ..._engines.pandas import PandasEngine
from ..._inputs.frames import as_pandas
from ..._rbase.rng import iter_ale_bootstrap_rows
from .axes import ale_axis, rebound_axis
from .bootdata import boot_data_table, composite_offset, data_sample
from .checks import CALLER, check_ale_arguments, check_choice, column_value, per_column_option, resolve_x_cols
from .model import Prediction, response_values
from .pdist import P_COLUMNS, check_p_values, with_aler_rows, with_p_value_column
from .rbugs import needs_r_pairing, r_paired_replicates
from .stats import STATISTICS, ale_statistics_1d, ale_statistics_2d, summarise_statistics
from .tables import (
    band_summary,
    effect_table_1d,
    effect_table_2d,
    statistics_estimate_table,
    statistics_long_table,
    y_summary,
)

__all__ = ["ALE"]


@dataclass(frozen=True, eq=False)
class _Term:
    """One computed term: its axes and the curves of every response category."""

    features: tuple
    label: str
    infos: tuple
    curves: np.ndarray  # (1 + boot_it, *bins, n_categories), centred at 0: full data first
    counts: np.ndarray  # .n: (bins...)
    replicate_counts: np.ndarray | None  # (boot_it, *bins)
    estimate: object

    @property
    def dimension(self) -> str:
        return "d1" if len(self.features) == 1 else "d2"

    @property
    def types(self) -> tuple:
        return tuple(info.ale_type for info in self.infos)


def _label(term: tuple):
    if len(term) == 1:
        return term[0]
    return f"{term[0]}:{term[1]}"


class ALE:
    """Accumulated local effects as R's ``ale`` package computes them (``ale::ALE``, ale 0.5.0).

    Parameters
    ----------
    model : object
        The fitted model.  Called through ``pred_fun`` when given, else
        through pyale's adapters (scikit-learn, statsmodels, R models via
        rpy2, xgboost/lightgbm boosters, a callable ``f(frame)``).
    x_cols : str, sequence, dict or None
        The terms, as R's ``x_cols``: a column name, ``"a:b"`` (or the tuple
        ``(a, b)``) for the 2-D term with ``a`` as first axis, a list of
        those, ``{"d1": True}`` (every column but ``y_col``; R's default,
        also given by ``None``) and ``{"d2": True}`` (every pair).
    data : pandas.DataFrame
        The data, response included; no missing values (R refuses them).
        Polars and pyarrow tables are converted to pandas.  Never modified.
    y_col : str, optional
        The response column.  When omitted: the response of a statsmodels
        formula, or of an R model's formula; otherwise there is no response,
        and the statistics' normaliser and ``get()``'s centre come from the
        model's predictions on ``data`` (see Notes).
    pred_fun : callable, optional
        ``pred_fun(object=model, newdata=frame, type=pred_type)`` returning
        one number per row, or one column per response category (a
        DataFrame names them), as R's ``pred_fun``.
    pred_type : str, default "response"
        Handed to ``pred_fun``, and to R's ``predict`` for an R model.  Other
        models accept only ``"response"`` (pass ``pred_fun`` to ask for
        another prediction type).
    max_num_bins : int or dict, default 10
        Bins of a numeric feature: the minimum, then ALEPlot's edges with
        ``K = max_num_bins - 1``, repeats removed.  Per column (``ale``'s
        development version): ``{"default": 10, "except": {"wt": 25}}``.
    boot_it : int, default 0
        Bootstrap replicates: the rows R's ``ale`` resamples for ``seed``
        (``sample.int`` under L'Ecuyer-CMRG), each a reweighting of the full
        data's local differences, so no extra model call.
    boot_alpha : float, default 0.05
        Bands ``.y_lo``/``.y_hi`` and intervals ``conf.low``/``conf.high`` at
        ``boot_alpha / 2`` and ``1 - boot_alpha / 2``.
    boot_centre : {"mean", "median"}, default "mean"
        ``.y`` and the statistics' ``estimate``: the replicates' mean or median.
    seed : int, default 0
        R's ``seed`` (a whole number in R's integer range).
    exclude_cols : str, sequence or dict, optional
        Terms to leave out of ``x_cols`` (R's ``exclude_cols``, the same
        forms): a 1-D term removes that column's 1-D term, a pair that pair.
    output_boot_data : bool, default False
        Keep every iteration's curve and counts for ``get(what="boot_data")``
        (R's ``output_boot_data``).
    sample_size : int, default 500
        Rows kept in ``data_sample`` (R's ``params$data$data_sample``: all
        of ``data`` up to that size, else the rows of
        ``sample(1:n, sample_size)`` after ``set.seed(seed)``).
    replicate_r_bugs : bool, default False
        Give released ``ale``'s numbers where pyale corrects them
        (``docs/deviations.md``, ale cases 1 and 2): a binary feature stored
        as two numbers is moved from the number 1 (ale's level code), and the
        bootstrap of a binary, categorical or ordinal feature bins resampled
        row *i* by full-data row *i*'s level (each replicate then calls the
        model on its resampled rows, as R does).  For replicating a
        published figure; the default gives the right numbers.
    fct_order : str or dict, default "ksd"
        How an unordered categorical feature's levels are ordered (``ale``'s
        development version; ordinal and binary features keep their order):
        ``"ksd"`` ALEPlot's similarity order, the only order of ``ale`` 0.5.x
        (the development version defaults to ``"levels"``); ``"levels"`` the
        Categorical's categories as given, text sorted by code point;
        ``"y_col"`` increasing mean response per level (the observed response
        for a numeric one, the predictions of the first class otherwise),
        ties in order of first appearance.  Per column:
        ``{"default": "levels", "except": {"continent": "y_col"}}``.  The
        first level is the reference (effect 0 before centring), so the order
        changes the effects of a categorical feature (backward differences).
    aled_fun : {"mad", "sd"}, default "mad"
        ALED's (and NALED's) deviation from zero (``ale``'s development
        version): ``"mad"`` the count-weighted mean absolute value (0.5.x),
        ``"sd"`` the count-weighted root mean square.
    p_values : pyale.ALEpDist, optional
        R's ``p_values``: ``get(stats="all")`` gains a ``p.value`` column (each
        estimate against the random variables' statistics, ``value_to_p``) and
        ``y_summary`` the rows ``aler_lo_lo``, ``aler_lo``, ``aler_hi``,
        ``aler_hi_hi``.  None (default; R's ``p_values = NULL``): no p-values.
    aler_alpha : pair of float, default (0.01, 0.05)
        R's ``aler_alpha``: the levels of those ``y_summary`` rows.

    Attributes
    ----------
    terms : list
        The requested terms: column labels and ``"a:b"`` strings, in the
        requested order (1-D first, as R stores them).
    ordered_x_cols : dict
        ``{"d1": [...], "d2": [...]}`` in ale's computation order (the row
        order of its statistics tables).
    y_col : object or None
    y_type : str or None
        The response's ale type (``"numeric"``, ``"binary"``, ...).
    y_cats : list
        The response categories: the model's output names, or ``[y_col]``
        for one output.
    y_summary : pandas.DataFrame
        R's ``params$y_summary``: quantiles, mean, min and max of the
        response values.
    feature_types : dict
        Each feature's ale type.
    bins : dict
        Each feature's bins: the ceilings of a numeric feature, the levels
        (values of the column) of the others in ale's order.
    max_num_bins, boot_it, boot_alpha, boot_centre, seed, pred_type
        The arguments, checked.

    Notes
    -----
    Where ``ale`` 0.5.0 is wrong, pyale is right unless ``replicate_r_bugs``
    asks for R's numbers (``docs/deviations.md``):
    the bootstrap of binary, categorical and ordinal features uses the
    resampled rows' own categories; a binary feature stored as two numbers
    moves from its smaller value (not from the level code 1); 2-D terms of a
    multi-class model subtract their own class's lower-order parts;
    ``get(stats=...)`` works with only 2-D terms; ``ale_centre="mean"`` uses
    each category's own mean.  Categorical levels are ordered as R orders
    them on reference BLAS/LAPACK (Debian/Ubuntu's default, R's own); an R
    linked to OpenBLAS or MKL may reverse an order, which here changes the
    values (backward differences): make the column an ordered Categorical
    to impose an order.  Character columns' levels are sorted by code
    point (R sorts in the session's locale).  R's ``p_values = "auto"`` (a
    surrogate ``ALEpDist`` whenever ``boot_it > 0``) is not followed: p-values
    come only from an explicit ``p_values=pyale.ALEpDist(...)``.

    Without a response column R stops; pyale then summarises the model's
    predictions on ``data`` instead (as R does for a binary or categorical
    response).

    References
    ----------
    Apley, D. W. and Zhu, J. (2020). Visualizing the effects of predictor
    variables in black box supervised learning models. JRSS B 82(4),
    1059-1086.  Okoli, C. (2023). Statistical inference using machine
    learning and classical techniques based on accumulated local effects
    (ALE). arXiv:2310.09877.  R package ``ale`` 0.5.0.

    Examples
    --------
    >>> import numpy as np, pandas as pd, pyale
    >>> data = pd.DataFrame({"x": np.arange(12.0), "z": np.tile([0.0, 1.0], 6)})
    >>> data["y"] = data["x"] * (1 + data["z"])
    >>> res = pyale.ALE(None, ["x"], data, "y", max_num_bins=4,
    ...                 pred_fun=lambda object, newdata, type: newdata["x"] * (1 + newdata["z"]))
    >>> print(res.get("x")[["x.ceil", ".n", ".y"]].round(4))
       x.ceil  .n       .y
    0     0.0   1  -1.1667
    1     3.0   3   3.8333
    2     7.0   4   9.8333
    3    11.0   4  15.8333
    >>> print(res.get(stats="estimate").round(4))
      term    aled  aler_min  aler_max    naled  naler_min  naler_max
    0    x  3.8889   -8.1667    8.8333  22.2222      -50.0    33.3333
    """

    _fixed_bins = None  # {column: AleAxisInfo} of the full data, in a ModelBoot refit's ALE (boot.RefitALE)
    probs_inverted = False  # pyale.invert_probs (R's invert_probs): .y becomes 1 - .y
    _inversions = 0
    _stats_p_values = None

    def __init__(self, model, x_cols, data, y_col=None, *, pred_fun=None, pred_type="response",
                 max_num_bins=10, boot_it=0, boot_alpha=0.05, boot_centre="mean", seed=0, exclude_cols=None,
                 output_boot_data=False, sample_size=500, replicate_r_bugs=False, fct_order="ksd", aled_fun="mad",
                 p_values=None, aler_alpha=(0.01, 0.05)):
        data, native = as_pandas(data, param="data", caller=CALLER)
        prediction = Prediction.of(model, pred_fun, pred_type, native)
        if y_col is None:
            y_col = prediction.response_column(data)
        args = check_ale_arguments(model, x_cols, data, y_col, pred_fun=pred_fun, pred_type=pred_type,
                                   max_num_bins=max_num_bins, boot_it=boot_it, boot_alpha=boot_alpha,
                                   boot_centre=boot_centre, seed=seed)
        self.y_col = y_col
        self.fct_order = per_column_option(
            fct_order, param="fct_order", columns=data.columns,
            read=lambda v, where: check_choice(v, param=where, choices=ALE_PACKAGE.fct_orders))
        self.aled_fun = check_choice(aled_fun, param="aled_fun", choices=ALE_PACKAGE.aled_funs)
        self._deviation = ALE_PACKAGE.deviation(self.aled_fun)
        self.replicate_r_bugs = _check_flag(replicate_r_bugs, "replicate_r_bugs")
        self.output_boot_data = _check_flag(output_boot_data, "output_boot_data")
        if exclude_cols is not None:
            args = _excluded(args, exclude_cols, data.columns, y_col)
        self.pred_type = args.pred_type
        self.max_num_bins, self.boot_it = args.max_num_bins, args.boot_it
        self.boot_alpha, self.boot_centre, self.seed = args.boot_alpha, args.boot_centre, args.seed
        self.terms = list(args.terms_1d) + [_label(t) for t in args.terms_2d]
        check_effects(len(args.ordered_1d) + len(args.ordered_2d), data.shape[0], param="x_cols", caller=CALLER,
                      advice=" Ask for fewer terms per call.")
        self.ordered_x_cols = {"d1": list(args.ordered_1d), "d2": [_label(t) for t in args.ordered_2d]}
        self._columns = list(data.columns)
        X = data if y_col is None else data.drop(columns=[y_col])
        ordered = [(t,) for t in args.ordered_1d] + list(args.ordered_2d)
        infos = {}
        by_response = []  # fct_order "y_col": ordered once the response values are known
        for term in ordered:
            for name in term:
                if name not in infos:  # a ModelBoot refit's ALE keeps the full data's bins (R's .bins)
                    if self._fixed_bins is not None:
                        infos[name] = rebound_axis(X, self._fixed_bins[name], r_ceilings=self.replicate_r_bugs)
                        continue
                    order = column_value(self.fct_order, name)
                    if order == "y_col":
                        by_response.append(name)
                    infos[name] = ale_axis(X, name, column_value(self.max_num_bins, name),
                                           fct_order="levels" if order == "y_col" else order)
        for term in args.ordered_2d:  # a pair's cells are bounded by the data (pyale._core.grid.bounds)
            check_pair_cells(X.shape[0], tuple(infos[n].axis.n_bins for n in term), param="max_num_bins",
                             caller=CALLER, features=term,
                             value=max(column_value(self.max_num_bins, n) for n in term),
                             advice="Use a smaller max_num_bins.")
        self._check_boot_it(ordered, infos, 1)  # before the model is called: at least one category
        self.feature_types = {name: info.ale_type for name, info in infos.items()}
        self.bins = {name: info.bins for name, info in infos.items()}
        caller = ModelCaller(prediction.predict, name=prediction.name, single_output=False)
        self.y_type, values, self.y_cats = response_values(caller, data, y_col, prediction)
        self.y_summary = y_summary(values, self.y_cats, y_col if y_col is not None else "yhat")
        self.p_values = check_p_values(p_values, self.y_cats, CALLER)
        self._stats_p_values = self.p_values  # what the p.value column comes from (invert_probs keeps it)
        if self.p_values is not None:  # R's var_summary(p_dist = ): the ALER bands of the random variables
            self.y_summary = with_aler_rows(self.y_summary, self.p_values, self.y_cats, aler_alpha)
        self._values = values
        for name in by_response:
            if infos[name].ale_type == "categorical":
                infos[name] = ale_axis(X, name, column_value(self.max_num_bins, name), fct_order="y_col",
                                       response=values)
        self.bins = {name: info.bins for name, info in infos.items()}
        self._check_boot_it(ordered, infos, len(self.y_cats))
        empty = "error" if self._fixed_bins is None else "nan"
        plans = [Plan(tuple(infos[n].axis for n in term), ALE_PACKAGE, empty_intervals=empty,
                      replicate_r_bugs=self.replicate_r_bugs) for term in ordered]
        self._infos = infos
        draws = None
        if self.boot_it:
            # R's resamples, drawn again for each pass over them: memory does not grow with boot_it x rows.
            draws = ExplicitDraws.streamed(partial(iter_ale_bootstrap_rows, X.shape[0], self.boot_it, seed=self.seed),
                                           self.boot_it, X.shape[0])
        estimates = estimate(PandasEngine(X), plans, caller, draws=draws)
        if estimates and estimates[0].effects.shape[-1] != len(self.y_cats):
            raise ValueError(f"{CALLER}: the model gave {estimates[0].effects.shape[-1]} outputs on the shifted "
                             f"data but {len(self.y_cats)} on 'data'.")
        self._terms = {}
        for term, plan, est in zip(ordered, plans, estimates):
            replicates, replicate_counts = est.replicates, est.replicate_bin_counts
            if self.replicate_r_bugs and self.boot_it and needs_r_pairing(plan.axes):
                replicates, replicate_counts = r_paired_replicates(
                    X, plan.axes, est, caller, iter_ale_bootstrap_rows(X.shape[0], self.boot_it, seed=self.seed))
            curves = est.effects[None] if replicates is None else np.concatenate([est.effects[None], replicates])
            self._terms[_label(term)] = _Term(term, _label(term), tuple(infos[n] for n in term), curves,
                                              est.bin_counts, replicate_counts, est)
        self._stats = None
        self.sample_size = _whole_sample_size(sample_size)
        self.data_sample = data_sample(data, self.sample_size, self.seed)

    def _check_boot_it(self, ordered: list, infos: dict, n_categories: int) -> None:
        """Refuse more replicates than fit in memory (see pyale._core.grid.bounds): per replicate, every term's
        curves and counts and, while a term's statistics are summarised, about 1 KiB of them."""
        if not self.boot_it:
            return
        bins = [effect_values(tuple(infos[n].axis for n in term)) for term in ordered]
        check_replicates(self.boot_it, sum(bins) * n_categories, param="boot_it", caller=CALLER,
                         bytes_each=8 * sum(bins) + 1024 * n_categories, advice=" Use a smaller boot_it.")

    # ------------------------------------------------------------------ get()

    def _centre(self, cat, ale_centre: str) -> float:
        column = self.y_cats.index(cat)
        if ale_centre == "median":
            return float(self.y_summary.loc["50%", self.y_summary.columns[-len(self.y_cats) + column]])
        if ale_centre == "mean":
            return float(np.mean(self._values[:, column]))
        return 0.0

    def _inverted(self, table: pd.DataFrame, centre: float) -> pd.DataFrame:
        """R's invert_probs: the stored (zero-centred) .y columns become 1 - .y, then get() adds the centre."""
        if not self._inversions:
            return table
        for name in [c for c in table.columns if c.startswith(".y")]:
            values = table[name].to_numpy(dtype=float)
            for _ in range(self._inversions):
                values = 1 - values
            table[name] = values + centre
        return table

    def _inverted_stats(self, rows: list) -> list:
        """R's invert_probs on the statistics: ALER and NALER minima and maxima swap places, negated.

        R rebuilds each table from ``split(stats, stats$term)``: the terms come back sorted (as R's
        ``sort`` orders strings in its usual locales: case-insensitively, lower case first on ties).
        """
        if self._inversions:
            rows = sorted(rows, key=lambda item: (str(item[0]).casefold(), [c.isupper() for c in str(item[0])]))
        for _ in range(self._inversions):
            rows = [(term, {**summary, **{a: {k: -v for k, v in summary[b].items()} for a, b in
                                          (("aler_min", "aler_max"), ("aler_max", "aler_min"),
                                           ("naler_min", "naler_max"), ("naler_max", "naler_min"))}})
                    for term, summary in rows]
        return rows

    def _with_p_values(self, table: pd.DataFrame, plain: list, cat) -> pd.DataFrame:
        """``table`` with R's ``p.value`` column: each statistic's p-value from the distribution the ALE was
        made with; after ``invert_probs`` R's rows carry their p-values along when ALER and NALER minima and
        maxima swap places (R stores p-values with the statistics and never recomputes them)."""
        if not self._inversions:
            return with_p_value_column(table, self._stats_p_values, cat)
        original = with_p_value_column(statistics_long_table(plain), self._stats_p_values, cat)
        p_of = {(str(t), s): p for t, s, p in zip(original["term"], original["statistic"], original["p.value"])}
        swapped = {"aler_min": "aler_max", "aler_max": "aler_min", "naler_min": "naler_max", "naler_max": "naler_min"}
        table = table.copy()
        sources = []
        for stat in table["statistic"]:
            for _ in range(self._inversions):
                stat = swapped.get(stat, stat)
            sources.append(stat)
        table["p.value"] = [p_of[(str(t), s)] for t, s in zip(table["term"], sources)]
        return table[P_COLUMNS]

    def _table(self, term: _Term, column: int, centre: float) -> pd.DataFrame:
        return self._inverted(self._plain_table(term, column, 0.0 if self._inversions else centre), centre)

    def _plain_table(self, term: _Term, column: int, centre: float) -> pd.DataFrame:
        summary = band_summary(term.curves[..., column], boot_alpha=self.boot_alpha, boot_centre=self.boot_centre)
        if len(term.features) == 1:
            info = term.infos[0]
            bins = info.bins if info.ale_type == "numeric" else info.labels
            return effect_table_1d(str(info.name), info.ale_type, bins, term.counts, summary, centre=centre)
        bins = tuple(i.bins if i.ale_type == "numeric" else i.labels for i in term.infos)
        return effect_table_2d(tuple(str(i.name) for i in term.infos), term.types, bins, term.counts, summary,
                               centre=centre)

    def _statistics(self) -> dict:
        """``{category: {dimension: [(term, summary), ...]}}`` in computation order (cached)."""
        if self._stats is None:
            from ..._core.reduce.stats import Normaliser

            out = {}
            for c, cat in enumerate(self.y_cats):
                norm = Normaliser.from_response(self._values[:, c])
                dims = {"d1": [], "d2": []}
                for term in self._terms.values():
                    curves = term.curves[..., c]
                    if self.boot_it:
                        pairs = zip(curves[1:], term.replicate_counts)
                    else:
                        pairs = [(curves[0], term.counts)]
                    numeric = tuple(t == "numeric" for t in term.types)
                    dev = self._deviation
                    per = [ale_statistics_1d(y, n, numeric=numeric[0], norm=norm, deviation=dev)
                           if len(numeric) == 1 else
                           ale_statistics_2d(y, n, numeric=numeric, norm=norm, deviation=dev) for y, n in pairs]
                    dims[term.dimension].append(
                        (term.label, summarise_statistics(per, boot_alpha=self.boot_alpha,
                                                          boot_centre=self.boot_centre)))
                out[cat] = dims
            self._stats = out
        return self._stats

    def get(self, x_cols=None, *, what: str = "ale", exclude_cols=None, stats=None, cats=None,
            ale_centre: str = "median", simplify: bool = True):
        """R's ``get(obj, x_cols, stats =, cats =, ale_centre =, simplify =)``.

        Parameters
        ----------
        x_cols : str, sequence or dict, optional
            Terms to return (as for ``ALE``), all by default; each must have
            been computed.
        what : {"ale", "boot_data"}, default "ale"
            ``"boot_data"``: every iteration's curve (needs
            ``output_boot_data=True``): ``.it`` (0 is the full data), the
            term's columns, ``.y_composite``, ``.n``, ``.y_distinct``, ``.y``.
        exclude_cols : str, sequence or dict, optional
            Terms left out of ``x_cols`` (R's ``exclude_cols``).
        stats : str or list of str, optional
            ``"estimate"``: one row per term with each statistic's estimate;
            ``"all"`` or statistic names (``"aled"``, ``"aler_min"``,
            ``"aler_max"``, ``"naled"``, ``"naler_min"``, ``"naler_max"``): the
            long table ``term, statistic, estimate, conf.low, mean, median,
            conf.high``.  Omitted: the effect tables.
        cats : str or list, optional
            Response categories to return (all by default).
        ale_centre : {"median", "mean", "zero"}, default "median"
            Added to every ``.y`` column: the response's median, its mean, or 0.
        simplify : bool, default True
            As R: drop an empty dimension and unwrap single elements.

        Returns
        -------
        pandas.DataFrame or dict
            Effect tables (``<x>.ceil`` or ``<x>.bin``, ``.n``, ``.y``,
            ``.y_lo``, ``.y_mean``, ``.y_median``, ``.y_hi``; rows in bin
            order, the first feature varying fastest for 2-D terms) or
            statistics tables, nested as R nests them: by category when
            there are several, by dimension (``"d1"``, ``"d2"``) when both
            are present, by term when there are several.
        """
        wanted = self._wanted_terms(x_cols, exclude_cols)
        cats = self._wanted_cats(cats)
        if ale_centre not in ("median", "mean", "zero"):
            raise ValueError(f"The 'ale_centre' parameter of get must be 'median', 'mean' or 'zero'. "
                             f"Got {ale_centre!r} instead.")
        if what not in ("ale", "boot_data"):
            raise ValueError(f"The 'what' parameter of get must be 'ale' or 'boot_data'. Got {what!r} instead.")
        if what == "boot_data" and stats is not None:
            raise ValueError("The 'stats' parameter of get needs what='ale' (R: \"If stats is specified, then what "
                             "must be 'ale'\").")
        if what == "boot_data" and not self.output_boot_data:
            raise ValueError("get(what='boot_data') needs the ALE computed with output_boot_data=True.")
        if stats is not None:
            names = self._wanted_stats(stats)
        out = {}
        for cat in cats:
            if what == "boot_data":
                column, centre = self.y_cats.index(cat), self._centre(cat, ale_centre)
                part = {dim: {t: self._boot_data(self._terms[t], column, centre) for t in terms}
                        for dim, terms in wanted.items()}
            elif stats is None:
                column, centre = self.y_cats.index(cat), self._centre(cat, ale_centre)
                part = {dim: {t: self._table(self._terms[t], column, centre) for t in terms}
                        for dim, terms in wanted.items()}
            else:
                computed = self._statistics()[cat]
                part = {}
                for dim, terms in wanted.items():
                    plain = [item for item in computed[dim] if item[0] in terms]
                    rows = self._inverted_stats(plain)
                    if stats == "estimate":
                        part[dim] = statistics_estimate_table(rows)
                    else:
                        part[dim] = statistics_long_table(rows, names)
                        if self._stats_p_values is not None:
                            part[dim] = self._with_p_values(part[dim], plain, cat)
            out[cat] = _simplified(part) if simplify else part
        return out[cats[0]] if len(cats) == 1 else out

    def _boot_data(self, term: _Term, column: int, centre: float) -> pd.DataFrame:
        counts = term.counts[None] if term.replicate_counts is None else np.concatenate(
            [term.counts[None], np.asarray(term.replicate_counts)])
        table = boot_data_table(term.infos, term.curves[..., column], composite_offset(term.estimate)[..., column],
                                counts, 0.0 if self._inversions else centre)
        return self._inverted(table, centre)

    def _wanted_terms(self, x_cols, exclude_cols=None) -> dict:
        if x_cols is None:
            d1 = [t for t in self.terms if t in self.ordered_x_cols["d1"]]
            d2 = [t for t in self.terms if t in self.ordered_x_cols["d2"]]
        else:
            r1, r2, _, _ = resolve_x_cols(x_cols, self._columns, self.y_col)
            d1, d2 = list(r1), [_label(t) for t in r2]
        if exclude_cols is not None:
            e1, e2, _, _ = resolve_x_cols(exclude_cols, self._columns, self.y_col, param="exclude_cols")
            d1 = [t for t in d1 if t not in e1]
            d2 = [t for t in d2 if t not in {_label(p) for p in e2}]
        missing = [t for t in d1 + d2 if t not in self._terms]
        if missing:
            raise ValueError(f"The 'x_cols' parameter of get names {missing!r}, which this ALE did not compute "
                             f"(it has {self.terms!r}).")
        return {"d1": d1, "d2": d2}

    def _wanted_cats(self, cats) -> list:
        if cats is None:
            return list(self.y_cats)
        cats = [cats] if isinstance(cats, str) or np.ndim(cats) == 0 else list(cats)
        unknown = [c for c in cats if c not in self.y_cats]
        if unknown:
            raise ValueError(f"The 'cats' parameter of get must name categories of the response "
                             f"{self.y_cats!r}. Got {unknown!r} instead.")
        return cats

    @staticmethod
    def _wanted_stats(stats) -> tuple:
        if isinstance(stats, str) and stats in ("estimate", "all"):
            return STATISTICS
        names = [stats] if isinstance(stats, str) else list(stats)
        if not names or any(n not in STATISTICS for n in names):
            raise ValueError(f"The 'stats' parameter of get must be 'estimate', 'all', or one or more of "
                             f"{list(STATISTICS)!r}. Got {stats!r} instead.")
        return tuple(names)

    # ------------------------------------------------------------------ the object

    def curves(self, term, cat=None) -> np.ndarray:
        """The centred curves of a term: the full data's first, then each replicate's (NaN where R has NA).

        Parameters
        ----------
        term : str or tuple
            A computed term: a column label, ``"a:b"`` or ``(a, b)``.
        cat : optional
            A response category (the first by default).

        Returns
        -------
        numpy.ndarray
            ``(1 + boot_it, *bins)``, centred at 0 (before ``get()``'s centre).
        """
        column = 0 if cat is None else self.y_cats.index(self._wanted_cats(cat)[0])
        key = _label(tuple(term)) if isinstance(term, tuple) else term
        if key not in self._terms:
            raise ValueError(f"{key!r} is not a term of this ALE ({self.terms!r}).")
        return self._terms[key].curves[..., column]

    def to_results(self, x_cols=None):
        """The terms as :class:`pyale.ALEResults` (effects = ``.y`` centred at 0, band = ``.y_lo``/``.y_hi``).

        Parameters
        ----------
        x_cols : optional
            Terms (as for :meth:`get`), all by default.

        Returns
        -------
        ALEResults
            One :class:`~pyale.ALEResult` per term (``conventions="ale"``).
        """
        from .results import to_results

        wanted = self._wanted_terms(x_cols)
        return to_results(self, [self._terms[t] for dim in ("d1", "d2") for t in wanted[dim]])

    def plot(self, x_cols=None, ax=None, **kwargs):
        """Draw the terms through :class:`pyale.ALEDisplay` (``.y`` with the band ``.y_lo``-``.y_hi``).

        Parameters
        ----------
        x_cols : optional
            Terms to draw (all by default); 2-D terms need a numeric second feature.
        ax : matplotlib Axes or array of Axes, optional
        **kwargs
            Keywords of :meth:`pyale.ALEDisplay.plot`.

        Returns
        -------
        ALEDisplay
        """
        return _present.display_class("ALEDisplay").from_results(list(self.to_results(x_cols)), ax=ax, **kwargs)

    def __repr__(self) -> str:
        return "ALE(" + ", ".join(f"{k}={v}" for k, v in self._facts().items()) + ")"

    def _facts(self) -> dict:
        return {"terms": repr(self.terms), "y_col": repr(self.y_col), "y_cats": ", ".join(map(str, self.y_cats)),
                "max_num_bins": str(self.max_num_bins), "boot_it": str(self.boot_it),
                **({} if self.fct_order == ALE_PACKAGE.default_fct_order else {"fct_order": repr(self.fct_order)}),
                **({} if self.aled_fun == ALE_PACKAGE.default_aled_fun else {"aled_fun": repr(self.aled_fun)})}

    def _repr_html_(self) -> str:
        first = self.terms[0]
        return _present.html_view("ALE", self._facts(), lambda ax: self.to_results(first)[0].plot(ax=ax))

    def equals(self, other: object, *, rtol: float = 0.0, atol: float = 0.0) -> bool:
        """Whether ``other`` is an ALE with the same terms, bins, counts and curves (floats within ``rtol``/``atol``).

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
        if type(other) is not type(self) or list(self._terms) != list(other._terms):
            return False
        if (self.y_cats, self.y_type, self.boot_alpha, self.boot_centre, self.aled_fun) != (
                other.y_cats, other.y_type, other.boot_alpha, other.boot_centre, other.aled_fun):
            return False
        for a, b in zip(self._terms.values(), other._terms.values()):
            if a.types != b.types or [i.labels for i in a.infos] != [i.labels for i in b.infos]:
                return False
            if not (np.array_equal(a.counts, b.counts) and _present._same(a.curves, b.curves, rtol, atol)):
                return False
        return _present._same(self._values, other._values, rtol, atol)


def _excluded(args, exclude_cols, columns, y_col):
    """The arguments with R's ``exclude_cols`` removed from the terms (``setdiff_x_cols``)."""
    e1, e2, _, _ = resolve_x_cols(exclude_cols, columns, y_col, param="exclude_cols")
    keep = dict(terms_1d=tuple(t for t in args.terms_1d if t not in e1),
                terms_2d=tuple(t for t in args.terms_2d if t not in e2),
                ordered_1d=tuple(t for t in args.ordered_1d if t not in e1),
                ordered_2d=tuple(t for t in args.ordered_2d if t not in e2))
    if not keep["terms_1d"] and not keep["terms_2d"]:
        raise ValueError(f"The 'exclude_cols' parameter of {CALLER} removes every term of x_cols. "
                         f"Got {exclude_cols!r} instead.")
    return replace(args, **keep)


def _whole_sample_size(value) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer, float, np.floating)) or \
            not float(value).is_integer() or value < 0:
        raise ValueError(f"The 'sample_size' parameter of {CALLER} must be a whole number >= 0. "
                         f"Got {value!r} instead.")
    return int(value)


def _check_flag(value, param: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"The {param!r} parameter of {CALLER} must be True or False. Got {value!r} instead.")
    return bool(value)


def _simplified(part: dict):
    """R's ``simplify``: drop an empty dimension, unwrap a single element."""
    def empty(value):
        return len(value) == 0 if isinstance(value, dict) else value.shape[0] == 0

    kept = {dim: value for dim, value in part.items() if not empty(value)}
    if len(kept) == 1:
        (kept,) = kept.values()
    if isinstance(kept, dict) and len(kept) == 1:
        (kept,) = kept.values()
    return kept
