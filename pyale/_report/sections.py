"""The report's sections: each one computes its numbers and says how, as tables, figures and text.

A section builder is a function ``builder(job) -> list[Section]`` (empty when
it has nothing to say), listed in :data:`BUILDERS` in the report's order.
The verdicts that other parts of pyale offer (shape checks, materiality,
reason codes, ALE p-values) plug in here when the installed pyale has them
(``pyale.check_shape``, ``pyale.materiality``, ``pyale.reason_codes``,
``pyale.ALEpDist``): the caller hands them over in ``ReportJob.verdicts``
(name -> function; :func:`pyale.report` passes those that ``pyale`` has),
their objects' ``.table`` DataFrames and ``.plot()`` figures are shown as
they come; when one is absent, the report lists it under "Not included"
with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import pandas as pd

from .._frontends.alepkg.ale import ALE as R_ALE
from .._frontends.ale.api import ale
from .._core.map.adapters import adapt_model
from .._verdicts.compare import compare

__all__ = ["Section", "ReportJob", "BUILDERS", "build_sections"]


@dataclass
class Section:
    """One part of the report.

    Attributes
    ----------
    key : str
        Short file-safe name (tables are written as ``<key>__<table>.csv``).
    title : str
    method : str
        What was computed and how (conventions, grid, seeds, bootstrap kind), in sentences.
    paragraphs : list of str
        The findings, in words.
    tables : list of (name, caption, DataFrame)
    figures : list of (name, caption, draw, size)
        ``draw(figure)`` draws into a matplotlib Figure or SubFigure (a figure
        of its own for the SVG, a part of a page in the PDF); ``size`` is
        its size in inches.
    """

    key: str
    title: str
    method: str
    paragraphs: list = field(default_factory=list)
    tables: list = field(default_factory=list)
    figures: list = field(default_factory=list)


@dataclass
class ReportJob:
    """What the report is about: the model, the rows, the features and every option."""

    model: object
    X: pd.DataFrame
    features: list
    y: object = None
    sample_weight: object = None
    expect: dict = field(default_factory=dict)
    segments: object = None
    periods: object = None
    n_bootstrap: int = 200
    n_permutations: int = 999
    p_values: bool = False
    conventions: str = "aleplot"
    n_intervals: object = None
    ci_level: float = 0.95
    random_state: int = 0
    response: object = None
    response_method: str = "auto"
    observed: object = None  # the observed response as given (ALEpDist needs it even when it is 0/1)
    verdicts: dict = field(default_factory=dict)  # name -> function of pyale's public verdicts that exist
    reason_rows: int = 5
    units: str = "units of the prediction"  # what the effects are measured in (said in every section)
    omitted: list = field(default_factory=list)  # (what, why) of the sections left out
    cache: dict = field(default_factory=dict)

    def options(self) -> dict:
        return {"conventions": self.conventions, "n_intervals": self.n_intervals, "sample_weight": self.sample_weight,
                "response": self.response, "response_method": self.response_method}

    def effects(self):
        """``pyale.ale`` of every feature (one call, with the bootstrap): computed once."""
        if "effects" not in self.cache:
            self.cache["effects"] = ale(self.model, self.X, list(self.features), n_bootstrap=self.n_bootstrap,
                                        ci_level=self.ci_level, random_state=self.random_state, y=self.y,
                                        **self.options())
        return self.cache["effects"]


def _conventions_text(job: ReportJob) -> str:
    intervals = "the convention's default number of intervals" if job.n_intervals is None else \
        f"n_intervals={job.n_intervals!r}"
    weights = "each row counted once" if job.sample_weight is None else "rows weighted by sample_weight"
    return f"{job.conventions} conventions, {intervals}, {weights}"


def _bootstrap_text(job: ReportJob) -> str:
    if not job.n_bootstrap:
        return "No bootstrap (no bands)."
    return (f"Data bootstrap: {job.n_bootstrap} replicates, rows resampled with replacement with the model and "
            f"the grid fixed (the sampling uncertainty of the effect for this fitted model, not the model's own "
            f"uncertainty); {job.ci_level:.0%} percentile intervals; random_state={job.random_state}.")


def effects_section(job: ReportJob) -> list[Section]:
    """The ALE of every feature, with its bootstrap band and ALE statistics."""
    results = job.effects()
    sections = []
    for result in results:
        name = result.features[0] if len(result.features) == 1 else " x ".join(map(str, result.features))
        frame = result.to_frame()
        stats = result.statistics.reset_index()
        def draw(figure, result=result, name=name):
            axes = figure.add_subplot()
            result.plot(ax=axes)
            if len(result.features) == 1 and job.response is not None:  # not "ALE of 1" for a class
                axes.set_ylabel(f"ALE ({job.units})")
            figure.suptitle(f"ALE of {name}", fontsize=10)

        grid = (f"{len(result.grid[0]) - 1} intervals from the pooled rows' quantiles" if result.kind == "numeric"
                else f"{len(result.grid[0])} levels in the order {', '.join(map(str, result.grid[0]))}")
        method = (f"Accumulated local effect of {name} ({result.kind}) computed by pyale.ale: {_conventions_text(job)}; "
                  f"grid: {grid}. {_bootstrap_text(job)} Statistics: ALED, ALER, NALED, NALER (Okoli 2023), "
                  "NALED and NALER as half-percentiles of the "
                  + ("observed response." if job.y is not None else "model's predictions on the rows."))
        low, high = float(np.nanmin(result.effects)), float(np.nanmax(result.effects))
        text = [f"The effect of {name} ranges from {low:.4g} to {high:.4g} ({job.units})."]
        sections.append(Section(key=f"effect_{_safe(name)}", title=f"Effect of {name}", method=method,
                                paragraphs=text,
                                tables=[("curve", f"ALE of {name} per grid point", frame),
                                        ("statistics", f"ALE statistics of {name}", stats)],
                                figures=[("curve", f"ALE of {name}", draw, (6.4, 4.4))]))
    return sections


def _stability(job: ReportJob, by, what: str) -> list[Section]:
    if by is None:
        return []
    sections = []
    for feature in job.features:
        if isinstance(feature, (tuple, list)):
            job.omitted.append((f"{what} of the pair {feature!r}", "pyale.compare takes one feature at a time"))
            continue
        if isinstance(by, str) and feature == by:
            job.omitted.append((f"{what} of {feature}", f"{feature} is the {what} column itself"))
            continue
        result = compare(job.model, job.X, feature, by=by, y=job.y, n_bootstrap=job.n_bootstrap,
                         n_permutations=job.n_permutations, ci_level=job.ci_level, random_state=job.random_state,
                         **job.options())
        table = result.table
        worst = table.sort_values("p_value" if job.n_permutations else "aled").iloc[0]
        verdict = _stability_verdict(result, job.ci_level)
        by_name = by if isinstance(by, str) else "the given labels"
        method = (f"pyale.compare of {feature} across {what} ({by_name}: {', '.join(map(str, result.segments))}): "
                  f"every segment's effect on the pooled grid, centred with the pooled weights ({_conventions_text(job)}). "
                  f"Distance: ALED of the difference of two segments' curves (NALED: as half-percentiles of the "
                  f"pooled response). p-value: permutation test of the segment labels, {job.n_permutations} "
                  f"permutations, exact size under exchangeable segments; p_adjusted: max-T over all pairs. "
                  f"Bands: {job.n_bootstrap} bootstrap replicates per segment (rows resampled inside each segment), "
                  f"simultaneous sup-t bands at {job.ci_level:.0%}; random_state={job.random_state}.")
        text = [verdict, f"Largest difference: {worst['segment_a']} vs {worst['segment_b']}, ALED "
                         f"{worst['aled']:.4g} (NALED {worst['naled']:.3g}), p = {worst['p_value']:.4g}."]
        sections.append(Section(
            key=f"{what}_{_safe(feature)}", title=f"Stability of {feature} across {what}", method=method,
            paragraphs=text,
            tables=[("tests", f"Distances and p-values of {feature} between {what}", table),
                    ("differences", f"Differences of the effect of {feature} with simultaneous bands",
                     result.difference_table()),
                    ("counts", f"Rows (weights) per {what[:-1]} and interval of {feature}", result.count_table())],
            figures=[("compare", f"{feature} per {what[:-1]} (top) and differences (bottom)",
                      lambda figure, result=result: result.plot(figure=figure), (6.4, 6.0))],
        ))
    return sections


def _stability_verdict(result, level) -> str:
    alpha = 1 - level
    if result.p_global is None:
        return "No permutation test was run."
    p = float(np.min(result.p_global))
    if p <= alpha:
        return (f"Verdict: the effect differs between segments (global permutation p = {p:.4g} <= {alpha:.2g}).")
    return (f"Verdict: no difference detected at level {alpha:.2g} (global permutation p = {p:.4g}); the bands show "
            "how large a difference the data could hide.")


def segments_section(job: ReportJob) -> list[Section]:
    return _stability(job, job.segments, "segments")


def periods_section(job: ReportJob) -> list[Section]:
    return _stability(job, job.periods, "periods")


def _plug(name: str, title: str, key: str, call: Callable, job: ReportJob, why_absent: str, method: str,
          size=(6.4, 4.8)) -> list[Section]:
    """A section from another verdict of pyale (an object with ``.table`` and ``.plot()``), when present.

    Besides ``table``, the outcome's ``violations`` and ``top`` DataFrames
    (shape checks, reason codes) are shown when it has them.
    """
    function = job.verdicts.get(name)
    if function is None:
        job.omitted.append((title, why_absent))
        return []
    try:
        outcome = call(function)
    except ValueError as exc:  # e.g. too few bootstrap replicates for a verdict at its level
        job.omitted.append((title, f"pyale.{name} refused: {exc}"))
        return []
    tables = [("table", title, outcome.table)]
    for extra, caption in (("violations", "where the expectation is violated"), ("top", "top reasons per row")):
        frame = getattr(outcome, extra, None)
        if isinstance(frame, pd.DataFrame) and frame.shape[0]:
            tables.append((extra, f"{title}: {caption}", frame.reset_index() if extra == "top" else frame))
    figures = [("figure", title, lambda figure: _plot_into(outcome, figure), size)] \
        if hasattr(outcome, "plot") else []
    return [Section(key=key, title=title, method=f"pyale.{name}: {method}", tables=tables, figures=figures)]


def _plot_into(outcome, figure) -> None:
    """``outcome.plot`` into ``figure``: one Axes per check for a shape check, else one Axes."""
    checks = getattr(outcome, "checks", None)
    if checks is None:
        outcome.plot(ax=figure.add_subplot())
        return
    n_cols = min(2, len(checks))
    n_rows = -(-len(checks) // n_cols)
    axes = np.atleast_1d(figure.subplots(n_rows, n_cols, gridspec_kw={"hspace": 0.75, "wspace": 0.35})).ravel()
    for extra in axes[len(checks):]:
        extra.set_visible(False)
    outcome.plot(ax=axes[:len(checks)])


def shape_section(job: ReportJob) -> list[Section]:
    if not job.expect:
        return []
    n_rows = -(-len(job.expect) // 2)
    method = (f"each expectation ({', '.join(f'{k}: {v}' for k, v in job.expect.items() if not callable(v))}) "
              "is judged from the bootstrap replicates of the effect's margins (increments between grid points, "
              "or last minus first value): fail when the simultaneous one-sided 95% max-t band of the margins "
              "excludes zero somewhere; pass when every margin is on the right side in all but 5% of the "
              "replicates (intersection-union test); inconclusive otherwise (level 0.05; error rates: the "
              f"verdicts guide). {_bootstrap_text(job)}")
    return _plug("check_shape", "Shape checks", "shape", lambda f: f(job.effects(), job.expect), job,
                 "pyale.check_shape is not in this version of pyale", method, size=(6.4, 2.6 * n_rows + 0.6))


def materiality_section(job: ReportJob) -> list[Section]:
    method = (f"features ranked by ALED ({job.units}) with bootstrap percentile intervals on each "
              f"ALED and simultaneous intervals on the ranks, at level 0.05. {_bootstrap_text(job)}")
    size = (6.4, 1.2 + 0.4 * len(job.features))
    return _plug("materiality", "Materiality ranking", "materiality", lambda f: f(job.effects()), job,
                 "pyale.materiality is not in this version of pyale", method, size=size)


def reason_codes_section(job: ReportJob) -> list[Section]:
    if not job.reason_rows:
        return []
    rows = job.X.head(job.reason_rows)
    method = (f"for the first {rows.shape[0]} rows of the data, each feature's main-effect contribution (its centred "
              "ALE at the row's value) and the features that raise the prediction most (the adverse direction: "
              "high); a flag where the rows' local changes disagree (heterogeneity), so that a main effect is a "
              "poor summary. A main-effect decomposition, not a Shapley value.")
    return _plug("reason_codes", f"Reason codes of the first {rows.shape[0]} rows", "reason_codes",
                 lambda f: f(job.effects(), rows), job, "pyale.reason_codes is not in this version of pyale",
                 method)


P_VALUES_MEANING = (
    "What a p-value here means: the share of {rand_it} refits of R's ale surrogate (a generalised linear model "
    "of the observed response on every other column, binomial for a two-valued response, gaussian otherwise, "
    "on at most 1000 rows that R's sampler picks for seed {seed}) with an added random variable, drawn from the "
    "distribution that univariateML's model_select fits to the model's residuals ({family}), whose statistic "
    "is at least as extreme as the feature's. A small p-value says that an effect this large is unlikely for "
    "a variable with no relation to the response; it does not say the effect is causal, correct in shape, "
    "stable over segments or periods, or material; it is conditional on the surrogate's model class (not "
    "this model's own refits, which the command line does not attempt: refitting needs a training recipe), "
    "and with {rand_it} refits the smallest attainable non-zero p-value is 1/{rand_it} (0 means 'below "
    "1/{rand_it}'). The statistics in this table are R's ale 0.5 statistics of the model (ale conventions, "
    "at most 10 bins, NALED as percentiles of the observed response), so they differ from the effect "
    "sections' statistics, which follow {conventions} conventions. Numeric and categorical single features "
    "only; pairs are left out.")


def _one_output(job: ReportJob, observed: pd.Series):
    """R's ``pred_fun`` of the model: one prediction per row (a binary classifier's positive-class probability).

    Returns ``(pred_fun, positive, why_not)``.
    """
    adapter = adapt_model(job.model, response=job.response, response_method=job.response_method, caller="report")
    probe = np.asarray(adapter.predict(job.X.head(5)))
    n_outputs = 1 if probe.ndim == 1 else probe.shape[1]
    values = pd.unique(observed)
    positive = True
    if n_outputs == 2 and len(values) == 2:
        classes = getattr(job.model, "classes_", None)
        positive = classes[-1] if classes is not None and len(classes) == 2 else sorted(values)[-1]
        positive = positive.item() if isinstance(positive, np.generic) else positive
        column = 1
    elif n_outputs == 1:
        column = None
        if job.response is not None and len(values) == 2:  # a binary classifier's positive class
            positive = job.response
        elif len(values) == 2 and not (pd.api.types.is_numeric_dtype(observed) and set(values) <= {0, 1}):
            positive = sorted(values)[-1]
            positive = positive.item() if isinstance(positive, np.generic) else positive
    else:
        return None, None, (f"the model gives {n_outputs} outputs per row; the report's p-values cover a "
                            "numeric or two-valued response only")

    def pred_fun(object, newdata, type):  # noqa: A002 - R's pred_fun(object, newdata, type)
        out = np.asarray(adapter.predict(newdata), dtype=float)
        return out.reshape(-1) if column is None or out.ndim == 1 else out[:, column]

    return pred_fun, positive, None


def p_values_section(job: ReportJob) -> list[Section]:
    """p-values of each feature's ALE statistics: R's ``ale`` 0.5 ``ALEpDist(surrogate = TRUE)`` and ``ALE``.

    The command line cannot refit an arbitrary model (it has no training
    recipe), so it uses R's surrogate: a glm of the observed response on
    every other column, refitted with the random variable.  The statistics
    and their p-values are those of ``pyale.ALE(..., p_values=dist)``, i.e.
    R's numbers for the same model, data and seed.
    """
    if not job.p_values:
        return []
    title = "p-values of the ALE statistics"
    dist_class = job.verdicts.get("ALEpDist")
    if dist_class is None:
        job.omitted.append((title, "pyale.ALEpDist is not in this version of pyale"))
        return []
    if job.observed is None:
        job.omitted.append((title, "ALEpDist needs the observed response (y=, --y)"))
        return []
    singles = [f for f in job.features if not isinstance(f, (tuple, list))]
    if len(singles) < len(job.features):
        job.omitted.append((f"{title} of pairs", "R's ale p-values are for single features"))
    if not singles:
        return []
    y_col = "observed_response"
    while y_col in job.X.columns:
        y_col = "_" + y_col
    observed = pd.Series(np.asarray(job.observed), name=y_col)
    data = job.X.reset_index(drop=True).assign(**{y_col: observed.to_numpy()})
    try:
        pred_fun, positive, why_not = _one_output(job, observed)
        if why_not:
            job.omitted.append((title, why_not))
            return []
        with np.errstate(all="ignore"):  # model_select's optimisers probe where a likelihood is infinite
            dist = dist_class(job.model, data, y_col, surrogate=True, positive=positive, pred_fun=pred_fun,
                              seed=job.random_state)
            table = R_ALE(job.model, singles, data, y_col, pred_fun=pred_fun, p_values=dist,
                          seed=job.random_state).get(stats="all")
    except (TypeError, ValueError, KeyError) as exc:
        job.omitted.append((title, f"pyale.ALEpDist refused: {exc}"))
        return []
    table = table[["term", "statistic", "estimate", "p.value"]].rename(columns={"term": "feature",
                                                                                "p.value": "p_value"})
    fit = dist.residual_distribution
    family = f"{fit.family}, " + ", ".join(f"{k} {v:.4g}" for k, v in fit.estimates.items())
    rand_it = dist.params["rand_it_ok"]
    method = (f"pyale.ALEpDist(model, data, surrogate=True, seed={job.random_state}) with {rand_it} refits, then "
              f"pyale.ALE(model, features, data, p_values=dist) (R's ale 0.5 algorithm; rows: {data.shape[0]}"
              + (f", positive class {positive!r}" if positive is not True else "") + "). "
              + P_VALUES_MEANING.format(rand_it=rand_it, seed=job.random_state, family=family,
                                        conventions=job.conventions))
    aled = table[table["statistic"] == "aled"]
    small = aled[aled["p_value"] <= 1 - job.ci_level]
    text = [f"ALED p-value at most {1 - job.ci_level:.2g}: "
            + (", ".join(f"{f} (p = {p:.3g})" for f, p in zip(small["feature"], small["p_value"])) or "none")
            + "; the others: "
            + (", ".join(f"{f} (p = {p:.3g})" for f, p in zip(aled["feature"], aled["p_value"])
                         if f not in set(small["feature"])) or "none") + "."]
    return [Section(key="p_values", title=title, method=method, paragraphs=text,
                    tables=[("table", title, table.reset_index(drop=True))])]


#: The report's sections, in order.
BUILDERS = [effects_section, shape_section, materiality_section, segments_section, periods_section,
            reason_codes_section, p_values_section]


def build_sections(job: ReportJob, builders=None) -> list[Section]:
    """Every section of the report (``builders``: :data:`BUILDERS` by default)."""
    out = []
    for builder in BUILDERS if builders is None else builders:
        out.extend(builder(job))
    return out


def _safe(name) -> str:
    text = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in str(name))
    return text[:40] or "feature"
