"""Running every front-end on a random case and checking what comes back.

:class:`Call` runs one front-end (``pyale.ale`` under each convention, with
weights or a bootstrap; ``ALEPlot``; ``PDPlot``; iml's ``FeatureEffect`` for
ALE, PDP, ICE and PDP+ICE; ``FeatureEffects``; ``ALEDisplay.from_estimator``)
and reads its answer into :class:`Effect` objects of one shape (axes, values
per grid point and output, ICE curves, bootstrap replicates), so that the
properties are written once:

* :func:`check_structure`: the answer of a model whose structure is known
  (:mod:`prop_models`) is right: additive components recovered at the grid
  points up to a constant, ignored columns without effect, no second-order
  effect of an additive pair, double differences of a product;
* :func:`assert_clear_refusal`: a refusal is a ``ValueError``, ``TypeError``
  or :class:`pyale.PredictionError` whose message opens with one of the
  accepted forms (:data:`ACCEPTED_OPENINGS`), never a NumPy or pandas message;
* :func:`expected_outcome`: inputs inside what pyale supports must give an
  answer, inputs outside it (a missing value in the feature, a boolean
  feature, ...) a refusal;
* relations between two runs (rows permuted, model shifted or scaled,
  integer weights against repeated rows, reordered answers) via
  :func:`assert_same_effects`.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from hypothesis import settings
from numpy.testing import assert_allclose, assert_array_equal
from pandas.testing import assert_frame_equal

import pyale
from pyale import PredictionError
from pyale._core.grid.bounds import pd_point_limit
from pyale._frontends.iml.tables import RESERVED_COLUMNS
from prop_frames import FrameCase
from prop_models import Spec, read_numbers
from snapshots import Snapshot

__all__ = ["Call", "Effect", "Outcome", "examples", "run_checked", "assert_clear_refusal",
           "expected_outcome", "check_structure", "assert_same_effects"]


def examples(weight: float) -> int:
    """This test's number of examples: the profile's ``max_examples`` times ``weight``."""
    import os

    factor = float(os.environ.get("HYPOTHESIS_EXAMPLES", "1"))
    return max(1, int(settings.default.max_examples * weight * factor))


# ---------------------------------------------------------------- refusals

#: How a refusal's message may open: the parameter, a column or feature, the model's
#: function, or the front-end saying what it does not do.
ACCEPTED_OPENINGS = [
    r"The '[^']+' parameter of ",                      # The 'K' parameter of ALEPlot must be ...
    r"Columns? ",                                       # Column 'x' (J) has 2 missing value(s) ...
    r"Features? ",                                      # Feature 'x' has a single value ...
    r"(pred_fun|predict_function|model|[A-Za-z_]\w*\.predict) ",  # pred_fun returned ...
    r"(ALEPlot|PDPlot|ale|FeatureEffects?|Predictor|ALEDisplay(\.\w+)?) (does not|needs|cannot) ",
]
_OPENING = re.compile("|".join(f"(?:{p})" for p in ACCEPTED_OPENINGS))
REFUSALS = (ValueError, TypeError, PredictionError)


def assert_clear_refusal(exc: BaseException) -> None:
    """A refusal must be one of the clear kinds, with a message opening as accepted."""
    assert isinstance(exc, REFUSALS), f"not a clear refusal: {type(exc).__name__}: {exc}"
    message = str(exc)
    assert _OPENING.match(message), f"refusal message of unclear form: {type(exc).__name__}: {message!r}"


# ---------------------------------------------------------------- effects in one shape


@dataclass
class Effect:
    """One effect as the properties see it.

    Attributes
    ----------
    features : tuple
        The feature(s), in axis order.
    numeric : tuple of bool
        Whether each axis is numeric.
    axes : list
        Per axis: float64 grid values (numeric) or level labels.
    values : numpy.ndarray
        ``axes shape + (n_outputs,)``.
    method : str
        ``"ale"`` (centred), ``"pd"`` (centred, PDPlot) or ``"pdp"`` (iml, not centred).
    ice : numpy.ndarray or None
        ``(n_rows, len(axis), n_outputs)`` ICE curves, row ``i`` of X.
    empty : numpy.ndarray or None
        Pairs: cells without rows (ALE).
    replicates : numpy.ndarray or None
        Bootstrap: ``(B,) + values.shape``.
    """

    features: tuple
    numeric: tuple
    axes: list
    values: np.ndarray
    method: str
    ice: np.ndarray | None = None
    empty: np.ndarray | None = None
    replicates: np.ndarray | None = None
    outputs: tuple = ()


@dataclass
class Outcome:
    """What a call gave: effects and a canonical table, or the exception it raised."""

    effects: list = field(default_factory=list)
    table: pd.DataFrame | None = None
    error: BaseException | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


def _ale_effect(result) -> Effect:
    return Effect(
        features=tuple(result.features), numeric=tuple(result.numeric_axes),
        axes=[np.asarray(g, dtype=float) if num else list(g) for g, num in zip(result.grid, result.numeric_axes)],
        values=np.asarray(result.effects, dtype=float), method="ale",
        empty=None if result.empty_cells is None else np.asarray(result.empty_cells),
        replicates=result.replicates, outputs=tuple(result.outputs),
    )


def _ale_pkg_effect(result, entry: tuple) -> tuple[Effect, pd.DataFrame]:
    """One term of :class:`pyale.ALE` (its ``get(ale_centre="zero")`` tables) as an Effect, and its table."""
    term = entry[0] if len(entry) == 1 else entry
    got = result.get([term], ale_centre="zero")
    tables = got if isinstance(got, dict) else {result.y_cats[0]: got}
    types = [result.feature_types[name] for name in entry]
    axes = [np.asarray(result.bins[name], dtype=float) if t == "numeric" else list(result.bins[name])
            for name, t in zip(entry, types)]
    shape = tuple(len(a) for a in axes)
    columns = []
    for cat in result.y_cats:
        y = tables[cat][".y"].to_numpy(dtype=float)
        columns.append(y if len(entry) == 1 else y.reshape(shape[::-1]).T)  # first feature varies fastest
    empty = None
    if len(entry) == 2:
        empty = tables[result.y_cats[0]][".n"].to_numpy().reshape(shape[::-1]).T == 0
    table = pd.concat([t.set_axis(range(t.shape[1]), axis=1) for t in tables.values()], ignore_index=True)
    effect = Effect(tuple(entry), tuple(t == "numeric" for t in types), axes, np.stack(columns, axis=-1), "ale",
                    empty=empty, outputs=tuple(result.y_cats))
    return effect, table


def _r_effect(result, method: str) -> Effect:
    numeric = tuple(part == "numeric" for part in result.kind.split(" x "))
    pair = len(numeric) == 2
    features = tuple(result.feature) if pair else (result.feature,)
    x_values = list(result.x_values) if pair else [result.x_values]
    axes = [np.asarray(x, dtype=float) if num else list(x) for x, num in zip(x_values, numeric)]
    values = np.asarray(result.f_values, dtype=float)[..., None]
    empty = None
    if pair and method == "ale" and result.empty_cells is not None:
        empty = np.asarray(result.empty_cells)
    return Effect(features, numeric, axes, values, method, empty=empty, outputs=("yhat",))


def _iml_effects(effect, features: tuple, feature_columns: tuple | None = None) -> Effect:
    """Read iml's results table (one feature or a pair) into an Effect."""
    table = effect.results
    columns = feature_columns or features
    value = ".ale" if ".ale" in table.columns else ".value"
    classes = list(table[".class"].cat.categories) if ".class" in table.columns else ["yhat"]
    class_of = (table[".class"].astype(object).to_numpy() if ".class" in table.columns
                else np.full(table.shape[0], "yhat", dtype=object))
    types = table[".type"].astype(object).to_numpy()
    numeric = tuple(not f.categorical for f in effect._features)
    keys = []
    for column, num in zip(columns, numeric):
        raw = table[column]
        keys.append(raw.to_numpy(dtype=float) if num else raw.astype(object).to_numpy())
    axes = []
    for key, num, t in zip(keys, numeric, [types] * len(keys)):
        present = key[t != "ice"] if (t != "ice").any() else key
        if num:
            axes.append(np.unique(present))
        else:
            axes.append(list(dict.fromkeys(present.tolist())))
    positions = [({v: i for i, v in enumerate(a.tolist())} if num else {v: i for i, v in enumerate(a)})
                 for a, num in zip(axes, numeric)]
    shape = tuple(len(a) for a in axes) + (len(classes),)
    method = "ale" if (types == "ale").any() else "pdp"
    values = np.full(shape, np.nan)
    ice = None
    vals = table[value].to_numpy(dtype=float)
    cls = np.array([classes.index(c) for c in class_of.tolist()], dtype=np.int64)
    main = types != "ice"
    for row in np.flatnonzero(main):
        cell = tuple(positions[a][keys[a][row].item() if numeric[a] else keys[a][row]] for a in range(len(keys)))
        values[cell + (cls[row],)] = vals[row]
    if (types == "ice").any():
        ids = table[".id"].to_numpy(dtype=float, na_value=np.nan)
        n_rows = int(np.nanmax(ids))
        rows = np.flatnonzero(types == "ice")
        grid = axes[0]
        if not main.any():
            values = None
        ice = np.full((n_rows, len(grid), len(classes)), np.nan)
        for row in rows:
            point = positions[0][keys[0][row].item() if numeric[0] else keys[0][row]]
            ice[int(ids[row]) - 1, point, cls[row]] = vals[row]
    if values is None:
        values = np.full(shape, np.nan)
        method = "ice"
    return Effect(features, numeric, axes, values, method, ice=ice, outputs=tuple(classes))


# ---------------------------------------------------------------- calls


@dataclass(frozen=True)
class Call:
    """One front-end with its arguments.

    Attributes
    ----------
    front : str
        ``"ale"``, ``"ALEPlot"``, ``"PDPlot"``, ``"FeatureEffect"``, ``"FeatureEffects"`` or ``"ALEDisplay"``.
    features : object
        A label, a pair (tuple), or a list of those (``ale``, ``FeatureEffects``, ``ALEDisplay``).
    options : tuple
        Keyword arguments as ``(name, value)`` pairs (hashable, printable).
    """

    front: str
    features: object
    options: tuple = ()

    @property
    def kw(self) -> dict:
        return dict(self.options)

    def entries(self) -> list:
        """The requested features as tuples of labels (a pair is a 2-tuple)."""
        features = self.features
        if isinstance(features, list):
            return [tuple(f) if isinstance(f, (tuple, list)) else (f,) for f in features]
        return [tuple(features)] if isinstance(features, tuple) else [(features,)]

    def run(self, model, X: pd.DataFrame, *, sample_weight=None) -> Outcome:
        """Call the front-end with ``model(newdata)``; any exception is returned, not raised."""
        try:
            return self._run(model, X, sample_weight)
        except Exception as exc:  # noqa: BLE001 - classified by the caller
            return Outcome(error=exc)

    def _run(self, model, X, sample_weight):
        kw = self.kw
        if self.front == "ale":
            if sample_weight is not None:
                kw["sample_weight"] = sample_weight
            results = pyale.ale(model, X, self.features, **kw)
            results = list(results) if isinstance(results, list) else [results]
            table = pd.concat([r.to_frame().set_axis(range(r.to_frame().shape[1]), axis=1) for r in results],
                              ignore_index=True)
            return Outcome([_ale_effect(r) for r in results], table)
        if self.front == "ALEDisplay":
            import matplotlib.pyplot as plt

            try:
                display = pyale.ALEDisplay.from_estimator(model, X, self.features, **kw)
                results = list(display.results)
            finally:
                plt.close("all")
            table = pd.concat([r.to_frame().set_axis(range(r.to_frame().shape[1]), axis=1) for r in results],
                              ignore_index=True)
            return Outcome([_ale_effect(r) for r in results], table)
        if self.front == "ALE":  # R's ale::ALE: terms are labels; a pair as (a, b)
            x_cols = [f if isinstance(f, tuple) else f for f in
                      (self.features if isinstance(self.features, list) else [self.features])]
            result = pyale.ALE(None, x_cols, X, pred_fun=lambda object, newdata, type: model(newdata), **kw)
            effects, tables = [], []
            for entry in self.entries():
                effect, table = _ale_pkg_effect(result, entry)
                effects.append(effect)
                tables.append(table)
            return Outcome(effects, pd.concat(tables, ignore_index=True))
        if self.front in ("ALEPlot", "PDPlot"):
            function = pyale.ALEPlot if self.front == "ALEPlot" else pyale.PDPlot
            result = function(X, None, lambda m, d: model(d), J=self.features, plot=False, **kw)
            return Outcome([_r_effect(result, "ale" if self.front == "ALEPlot" else "pd")], result.to_frame())
        predictor = pyale.Predictor(predict_function=model, data=X, **kw.pop("predictor", {}))
        if self.front == "FeatureEffect":
            features = list(self.features) if isinstance(self.features, tuple) else self.features
            effect = pyale.FeatureEffect(predictor, features, **kw)
            names = tuple(effect.feature_name) if effect.n_features == 2 else (effect.feature_name,)
            return Outcome([_iml_effects(effect, names)], effect.results)
        effects = pyale.FeatureEffects(predictor, features=self.features, **kw)
        out = [_iml_effects(e, (name,)) for name, e in effects.effects.items()]
        table = pd.concat(list(effects.results.values()), ignore_index=True)
        return Outcome(out, table)


_PYALE_FILE = re.compile(r"[/\\]pyale[/\\]")


def run_checked(call: Call, model, X: pd.DataFrame, **kwargs) -> Outcome:
    """Run ``call``; X must be unchanged afterwards, refusals clear, and pyale must not warn unexpectedly.

    A warning raised from pyale's own code that is not pyale's ``UserWarning``
    (a NumPy ``RuntimeWarning``, a pandas ``FutureWarning``, ...) fails.
    """
    snapshot = Snapshot(X)
    weight = kwargs.get("sample_weight")
    weight_copy = None if weight is None else np.array(weight, copy=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        outcome = call.run(model, X, **kwargs)
    snapshot.assert_unchanged(X)
    if weight is not None:
        assert_array_equal(np.asarray(weight), weight_copy)
    for w in caught:
        if _PYALE_FILE.search(w.filename or "") and w.category is not UserWarning:
            raise AssertionError(f"pyale emitted {w.category.__name__} at {w.filename}:{w.lineno}: {w.message}")
    if not outcome.ok:
        assert_clear_refusal(outcome.error)
    return outcome


# ---------------------------------------------------------------- what must happen


def _distinct(series: pd.Series) -> int:
    """Distinct non-missing values, by Python equality (pandas 2.x's ``nunique`` takes "a" and "a\x00" for one)."""
    return len({(type(v), v) for v in series.dropna().astype(object).tolist()})


def column_problem(case: FrameCase, name, rows=None) -> str | None:
    """Why column ``name`` cannot be a feature (None when it can)."""
    info = case.info(name)
    series = case.X[name] if rows is None else case.X[name].iloc[rows]
    if info.kind == "other":
        return f"dtype {info.dtype}"
    if series.isna().any():
        return "missing values"
    if info.kind == "numeric":
        x = series.to_numpy(dtype=float, na_value=np.nan)
        if x.size == 0 or not np.isfinite(x).all():
            return "not finite"
        with np.errstate(over="ignore"):
            if not np.isfinite(x.max() - x.min()):
                return "span overflows"
        if x.min() == x.max():
            return "constant"
        return None
    if _distinct(series) < 2:
        return "single level"
    return None


def _level_order_problem(case: FrameCase, entry: tuple, rows) -> str | None:
    """Why the levels of an unordered categorical feature cannot be ordered (None when they can).

    The Kolmogorov-Smirnov distance needs, within every level, a value of
    each other numeric (or date-time) column that is not missing; R's
    ``ecdf`` stops otherwise, and pyale refuses naming the column.
    """
    X = case.X if rows is None else case.X.iloc[rows]
    for name in entry:
        info = case.info(name)
        if info.kind != "categorical" or info.dtype == "ordered":
            continue
        if len(entry) == 2 and case.info(entry[0]).kind == case.info(entry[1]).kind:
            continue
        levels = X[name].astype(object)
        for other in case.columns:
            if other.name == name or other.kind == "categorical" or not other.missing:
                continue
            present = X[other.name].notna().to_numpy()
            seen: dict = {}  # per level (Python equality, see _distinct): any value present
            for level, here in zip(levels.tolist(), present.tolist()):
                seen[(type(level), level)] = seen.get((type(level), level), False) or here
            if present.any() and not all(seen.values()):
                return f"column {other.name!r} has only missing values within a level of {name!r}"
    return None


def _pd_size(case: FrameCase, call: Call, size: int):
    """A partial dependence's grid against pyale's bound (``pyale._core.grid.bounds``), or None when within it.

    Refused when the numeric grid points alone pass the bound; "either" when
    only the product with levels or with a second grid may pass it.
    """
    limit = pd_point_limit(case.X.shape[0])
    entries = call.entries()
    numeric = [sum(case.info(resolve_label(case.X, n)).kind != "categorical" for n in entry) for entry in entries]
    if any(k and size**k > limit for k in numeric):
        return "refuse", "PD grid beyond the bound"
    if any(len(entry) == 2 for entry in entries) and size > 4096 // 2:
        return "either", "PD grid of a pair may pass the bound"
    return None


def resolve_label(X: pd.DataFrame, label):
    """A label, or a 0-based position (when it is not a label)."""
    if isinstance(label, (int, np.integer)) and not isinstance(label, bool) and label not in X.columns:
        return X.columns[label]
    return label


def _expected_under_ale_rules(case: FrameCase, call: Call, weights) -> tuple[str, str]:
    """What R's ale 0.5.0 rules (``pyale.ALE``, ``conventions="ale"``) accept.

    No weights; no missing value in a feature (``ALE``: anywhere in the data);
    booleans and any column with two values are binary; dates are refused;
    any pair of features in either order.  A categorical feature of three or
    more unordered levels may be refused when its levels cannot be ordered.
    """
    if weights is not None:
        return "refuse", "no sample_weight under ale's rules"
    if call.front == "ALE" and case.X.isna().to_numpy().any():
        return "refuse", "ALE refuses missing values anywhere in the data"
    verdict = ("ok", "")
    for entry in call.entries():
        for name in entry:
            info, series = case.info(name), case.X[name]
            if info.dtype in ("datetime", "datetime_tz", "timedelta"):
                return "refuse", f"column {name!r}: dtype {info.dtype}"
            if series.isna().any():
                return "refuse", f"column {name!r}: missing values"
            distinct = _distinct(series)
            if distinct < 2:
                return "refuse", f"column {name!r}: a single value"
            if info.kind == "numeric":
                problem = column_problem(case, name)
                if problem and distinct > 2:
                    return "refuse", f"column {name!r}: {problem}"
            if info.kind == "categorical" and info.dtype != "ordered" and distinct > 2:
                verdict = ("either", f"levels of {name!r} may not be orderable")
    return verdict


def expected_outcome(case: FrameCase, call: Call, *, weights=None) -> tuple[str, str]:
    """``("ok" | "refuse" | "either", reason)`` for a well-behaved float64 model.

    "ok": pyale must answer.  "refuse": it must refuse.  "either": a clear
    refusal and an answer are both acceptable (e.g. a grid too large for
    partial dependence, which is refused only above a bound).
    """
    front, kw = call.front, call.kw
    if front == "ALE" or (front in ("ale", "ALEDisplay") and kw.get("conventions") == "ale"):
        return _expected_under_ale_rules(case, call, weights)
    rows = None
    if weights is not None:
        rows = np.flatnonzero(np.asarray(weights) > 0)
        if rows.size == 0:
            return "refuse", "every weight is zero"
    iml = front in ("FeatureEffect", "FeatureEffects")
    if iml:
        bad = [c.name for c in case.columns if c.kind == "other"]
        if bad:
            return "refuse", f"iml's Predictor refuses columns {bad!r}"
        if call.kw.get("method", "ale") in ("pdp", "ice", "pdp+ice"):
            size = kw.get("grid_size", 20)
            verdict = _pd_size(case, call, max(size) if isinstance(size, (tuple, list)) else size)
            if verdict:
                return verdict
    if front == "PDPlot":
        verdict = _pd_size(case, call, kw.get("K", 40))
        if verdict:
            return verdict
    for entry in call.entries():
        for name in entry:
            problem = column_problem(case, name, rows)
            if problem == "single level" and front == "PDPlot":
                # R's PDPlot draws one point for a one-level factor (0 after centring); in a pair, pyale decides
                if len(entry) == 2:
                    return "either", "PDPlot pair with a one-level factor"
                continue
            if problem:
                return "refuse", f"column {name!r}: {problem}"
        if iml:
            # Documented refusal: a feature named like a column of iml's results table.
            method = kw.get("method", "ale")
            reserved = RESERVED_COLUMNS["ale pair" if method == "ale" and len(entry) == 2 else method]
            if any(isinstance(name, str) and name in reserved for name in entry):
                return "refuse", "feature named like a column of iml's results"
        ale_method = front in ("ale", "ALEDisplay", "ALEPlot") or (iml and kw.get("method", "ale") == "ale")
        problem = _level_order_problem(case, entry, rows) if ale_method else None
        if problem:
            return "refuse", problem
        if len(entry) == 2:
            kinds = [case.info(n).kind for n in entry]
            iml_pd = iml and kw.get("method") in ("pdp", "ice", "pdp+ice")
            if kinds == ["categorical", "categorical"] and not iml_pd:  # iml's PDP takes them (R: a tile plot)
                return "refuse", "two categorical features"
            conventions = kw.get("conventions", "aleplot")
            r_order = front in ("ALEPlot", "PDPlot") or (front in ("ale", "ALEDisplay") and conventions != "iml")
            if kinds == ["numeric", "categorical"] and r_order:
                return "refuse", "categorical feature second"
            if iml and kw.get("method") in ("ice", "pdp+ice"):
                return "refuse", "ICE of a pair"
    return "ok", ""


def must_refuse_for_answer(model, wrapper, X: pd.DataFrame, front: str) -> str:
    """``"ok"``, or ``"either"`` when the model's answer may legitimately be refused.

    Labelled answers are refused when the data repeats index labels; an
    answer with the default index 0..n-1 when newdata's labels are 0..n-1 in
    another order.  iml reads booleans and strings as class labels, whose
    set may change between calls.
    """
    if wrapper is not None and wrapper.labelled:
        if not X.index.is_unique:
            return "either"
        # newdata's labels are 0..n-1 in another order: an answer whose index reads 0..n-1 (reset, or
        # reversed/shuffled labels that happen to fall in that order) is ambiguous and refused.
        if pd.api.types.is_integer_dtype(X.index.dtype) and not X.index.equals(pd.RangeIndex(X.shape[0])) and (
                wrapper.order == "reset" or X.index.sort_values().equals(pd.RangeIndex(X.shape[0]))):
            return "either"
    if wrapper is not None and front in ("FeatureEffect", "FeatureEffects") and wrapper.dtype == "bool":
        return "either"
    return "ok"


# ---------------------------------------------------------------- correctness


def _scale(spec: Spec, X: pd.DataFrame) -> float:
    y = spec.values(X)
    return float(np.max(np.abs(y))) + 100.0 if y.size else 100.0


def _on_axis(component, grid) -> np.ndarray:
    """A component at an axis's points: levels of a categorical column, values of a numeric one.

    Under ale's rules a numeric or boolean column with two values is a
    "binary" axis whose points are its two values (not a numeric grid).
    """
    if component.categorical:
        return np.array([component.level(g) for g in grid], dtype=float)
    return component.at(np.asarray(list(grid), dtype=float))


def _first_order(output, name, numeric: bool, grid):
    """``(values at the grid, checkable)`` of the part of ``output`` that depends on ``name`` alone.

    Not checkable (for ALE) when a product couples ``name`` with another column.
    """
    values = np.zeros(len(grid))
    for term in output.terms:
        if term.column == name:
            values = values + (_on_axis(term, grid))
    if output.product is not None:
        a, b = output.product
        involved = [a.column == name, b.column == name]
        if all(involved):
            fa = _on_axis(a, grid)
            fb = _on_axis(b, grid)
            values = values + fa * fb
        elif any(involved):
            return values, False
    return values, True


def _empty_cells(x1: pd.Series, x2: pd.Series, g1: np.ndarray, g2: np.ndarray) -> np.ndarray:
    """Cells of a numeric pair's grid without rows (right-closed intervals, the lowest edge in the first)."""
    v1, v2 = x1.to_numpy(dtype=float), x2.to_numpy(dtype=float)
    inside = (v1 >= g1[0]) & (v1 <= g1[-1]) & (v2 >= g2[0]) & (v2 <= g2[-1])
    i1 = np.clip(np.searchsorted(g1, v1[inside], side="left") - 1, 0, len(g1) - 2)
    i2 = np.clip(np.searchsorted(g2, v2[inside], side="left") - 1, 0, len(g2) - 2)
    counts = np.zeros((len(g1) - 1, len(g2) - 1), dtype=np.int64)
    np.add.at(counts, (i1, i2), 1)
    return counts == 0


def _product_mean(output, name, numeric, grid, X, per_row=False):
    """PD of a product coupling ``name`` with another column: ``a(z) * mean(b)`` (or per row for ICE)."""
    a, b = output.product
    if a.column == name:
        own, other = a, b
    else:
        own, other = b, a
    f_own = _on_axis(own, grid)
    f_other = other(X)
    if per_row:
        return f_own[None, :] * f_other[:, None]
    return f_own * f_other.mean()


def check_structure(effect: Effect, spec: Spec, X: pd.DataFrame) -> int:
    """Assert what a model of known structure implies about ``effect``; returns how many checks ran."""
    scale = _scale(spec, X)
    checks = 0
    if len(effect.features) == 1:
        name, numeric, grid = effect.features[0], effect.numeric[0], effect.axes[0]
        atol = 1e-9 * scale * (len(grid) + 1)
        for j, output in enumerate(spec.outputs):
            expected, checkable = _first_order(output, name, numeric, grid)
            pd_row = None
            if not checkable:
                if effect.method == "ale":
                    continue  # a product with another column: its ALE depends on the data
                expected = expected + _product_mean(output, name, numeric, grid, X)
                pd_row = True
            diffs = expected - expected[0]
            if effect.method != "ice":
                got = effect.values[:, j]
                assert_allclose(got - got[0], diffs, rtol=1e-9, atol=atol,
                                err_msg=f"{effect.method} of {name!r}, output {j}: not the model's component")
                checks += 1
                if not spec.reads(name) and effect.method in ("ale", "pd"):
                    assert_allclose(got, 0.0, atol=atol, err_msg=f"ignored feature {name!r} has an effect")
            if effect.ice is not None:
                curves = effect.ice[:, :, j]
                if pd_row:
                    per_row = _first_order(output, name, numeric, grid)[0][None, :] + _product_mean(
                        output, name, numeric, grid, X, per_row=True)
                    want = per_row - per_row[:, :1]
                else:
                    want = np.broadcast_to(diffs, curves.shape)
                assert_allclose(curves - curves[:, :1], want, rtol=1e-9, atol=atol,
                                err_msg=f"ICE of {name!r}, output {j}: not the model's component")
                checks += 1
            if effect.replicates is not None and checkable:
                reps = effect.replicates[..., j]
                finite = np.isfinite(reps).all(axis=1)
                assert_allclose((reps - reps[:, :1])[finite], np.broadcast_to(diffs, reps[finite].shape),
                                rtol=1e-9, atol=atol, err_msg=f"bootstrap replicate of {name!r}, output {j}")
                checks += 1
        return checks
    (n1, n2), (num1, num2) = effect.features, effect.numeric
    g1, g2 = effect.axes
    atol = 1e-9 * scale * (len(g1) + 1) * (len(g2) + 1)
    for j, output in enumerate(spec.outputs):
        expected = np.zeros((len(g1), len(g2)))
        if output.product is not None:
            a, b = output.product
            pair = {a.column, b.column}
            if pair == {n1, n2} and n1 != n2:
                if a.column != n1:
                    a, b = b, a
                fa = _on_axis(a, g1)
                fb = _on_axis(b, g2)
                empty = effect.empty
                if effect.method == "ale" and empty is None and num1 and num2:  # iml's table does not say
                    empty = _empty_cells(X[n1], X[n2], np.asarray(g1, dtype=float), np.asarray(g2, dtype=float))
                if effect.method == "ale" and (empty is not None and np.asarray(empty).any()):
                    continue  # empty cells borrow a neighbour's local effect
                if effect.method == "ale" and not (num1 and num2):
                    continue  # categorical x numeric: level jumps are averaged both ways
                expected = np.outer(fa, fb)
            elif pair & {n1, n2} and len(pair) == 2 and effect.method == "ale":
                continue  # a product with a third column: its ALE depends on the data
        got = effect.values[..., j]
        double = got - got[:1, :] - got[:, :1] + got[:1, :1]
        want = expected - expected[:1, :] - expected[:, :1] + expected[:1, :1]
        assert_allclose(double, want, rtol=1e-9, atol=atol,
                        err_msg=f"second-order {effect.method} of {(n1, n2)!r}, output {j}")
        checks += 1
        if effect.method == "ale" and not (spec.reads(n1) and spec.reads(n2)) and output.product is None:
            assert_allclose(got, 0.0, atol=atol, err_msg=f"pair {(n1, n2)!r} of an additive model")
    return checks


# ---------------------------------------------------------------- comparing two runs


def _same_axis(a, b, numeric: bool) -> bool:
    if numeric:
        return np.array_equal(np.asarray(a, dtype=float), np.asarray(b, dtype=float))
    return list(a) == list(b)


def assert_same_effects(first: Outcome, second: Outcome, *, shift=0.0, factor=1.0, rtol=1e-9, scale=1.0,
                        levels_by_label=False, ice_rows=None, replicates=True) -> None:
    """``second`` is ``first`` with every effect times ``factor`` (plus ``shift`` where not centred).

    Grids must be equal exactly (categorical axes as the same order, or as
    the same set when ``levels_by_label``); values up to rounding.
    ``ice_rows[i]`` is the row of ``first``'s X that is row ``i`` of ``second``'s.
    """
    assert len(first.effects) == len(second.effects)
    for e1, e2 in zip(first.effects, second.effects):
        assert e1.features == e2.features and e1.numeric == e2.numeric
        v1, v2 = e1.values, e2.values
        for axis, (a1, a2, num) in enumerate(zip(e1.axes, e2.axes, e1.numeric)):
            if num or not levels_by_label:
                assert _same_axis(a1, a2, num), f"axis {axis} differs: {a1!r} vs {a2!r}"
            else:
                assert sorted(map(repr, a1)) == sorted(map(repr, a2)), f"levels differ: {a1!r} vs {a2!r}"
                order = [list(a2).index(level) for level in a1]
                v2 = np.take(v2, order, axis=axis)
        uncentred = e1.method in ("pdp", "ice")
        want = v1 * factor + (shift if uncentred else 0.0)
        atol = 1e-9 * scale * max(1.0, abs(factor)) + 1e-9 * abs(shift)
        assert_allclose(v2, want, rtol=rtol, atol=atol, equal_nan=True, err_msg="effects differ")
        if e1.ice is not None:
            ice2 = e2.ice
            ice1 = e1.ice if ice_rows is None else e1.ice[ice_rows]
            if levels_by_label and not e1.numeric[0]:
                ice2 = ice2[:, [list(e2.axes[0]).index(level) for level in e1.axes[0]]]
            assert_allclose(ice2, ice1 * factor + shift, rtol=rtol, atol=atol, equal_nan=True,
                            err_msg="ICE curves differ")
        if replicates and e1.replicates is not None:
            assert_allclose(e2.replicates, e1.replicates * factor, rtol=rtol, atol=atol, equal_nan=True,
                            err_msg="bootstrap replicates differ")


def assert_same_tables(first: Outcome, second: Outcome) -> None:
    """Exactly the same answer (the canonical tables compare equal, bit for bit)."""
    assert_frame_equal(first.table, second.table, check_exact=True)
