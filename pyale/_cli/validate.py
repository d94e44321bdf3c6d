"""``pyale validate``: R's ALEPlot / iml and pyale on the same data and model, compared.

The R side runs ALEPlot 1.1's ``ALEPlot``, iml's ``FeatureEffect$new(...,
method = "ale")`` or ale 0.5.0's ``ALE()`` with ``get()`` through rpy2 on the data exactly as pyale sees it
(:func:`pyale.r.to_r_dataframe`).  An R model (``.rds``) is evaluated by R's
own ``predict`` on both sides; a Python model is handed to R as a callback,
so both sides call the very same model.  Every effect is compared cell by
cell (rtol 1e-10 with an absolute floor of 1e-10 times the effect's range;
grids, levels and K exactly) and written to a report by
:mod:`pyale._cli.report`.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .._core.grid.edges import equivalent_intervals
from .._results.aleplot import tidy_frame
from .files import feature_label
from .inputs import exact_csv_options
from .validate_r import PACKAGES, RSide, r_problem, unsyntactic_names, versions

__all__ = ["PACKAGES", "Comparison", "COMPARE", "RSide", "as_r_factors", "checked_model", "compare_ale",
           "compare_aleplot", "compare_iml", "is_r_model", "model_predict", "pyale_side", "python_setup", "r_callback",
           "r_problem", "report_context", "unsyntactic_names", "versions"]

RTOL = 1e-10
ATOL_SCALE = 1e-10
DEFAULT_INTERVALS = {"aleplot": 40, "iml": 20, "ale": 9}  # ale: max_num_bins - 1


@dataclass
class Comparison:
    """One effect computed by R and by pyale, and how far apart they are.

    ``label`` tells the features apart in text (``'a' x 'b'``); ``features``
    holds their exact names.
    """

    conventions: str
    label: str
    r_call: str
    py_call: str
    table: pd.DataFrame
    max_abs: float
    max_rel: float
    atol: float
    within: bool
    problems: list = field(default_factory=list)
    features: tuple = ()

    @property
    def ok(self) -> bool:
        """Every cell within tolerance, and grids, levels, K and shapes equal."""
        return self.within and not self.problems


def as_r_factors(X: pd.DataFrame) -> pd.DataFrame:
    """String columns as Categoricals with the levels pyale uses (sorted by code point).

    R's ALEPlot treats a character column as numeric and fails; a factor with
    the same levels on both sides makes R and pyale see the same feature.
    """
    converted = []
    for name in X.columns:
        column = X[name]
        if isinstance(column.dtype, pd.CategoricalDtype) or pd.api.types.is_numeric_dtype(column.dtype) \
                or pd.api.types.is_bool_dtype(column.dtype):
            continue
        if pd.api.types.is_object_dtype(column.dtype) or pd.api.types.is_string_dtype(column.dtype):
            values = column.astype(object).where(column.notna(), None)
            levels = np.unique(np.asarray([str(v) for v in values if v is not None], dtype=object).astype(str))
            converted.append((name, pd.Categorical([None if v is None else str(v) for v in values],
                                                   categories=[str(v) for v in levels])))
    if not converted:
        return X
    out = X.copy(deep=False)  # not X.assign(**...): a column may be called 'self'
    for name, column in converted:
        out[name] = column
    return out


def is_r_model(model) -> bool:
    """Whether ``model`` is a :class:`pyale.r.RModel` (without importing rpy2 to find out)."""
    r_module = sys.modules.get("pyale.r")  # an RModel exists only once pyale.r was imported
    return r_module is not None and isinstance(model, r_module.RModel)


def model_predict(model, response=None):
    """``predict(frame) -> array`` for the pyale side (and for R to call back for a Python model).

    A Python model goes through :func:`pyale._core.map.adapters.adapt_model`; an R
    model (:class:`pyale.r.RModel`) returns R's ``predict``, and for a matrix
    answer (``--r-predict-type prob``) ``response`` names the column, as
    ``predict(...)[, response]`` does on the R side.
    """
    from .._core.map.adapters import adapt_model

    predict = adapt_model(model, response=response).predict
    if not is_r_model(model) or response is None:
        return predict
    return lambda frame: np.asarray(predict(frame), dtype=float).reshape(-1)


def checked_model(model, response=None):
    """The model behind a :class:`~pyale._core.map.calls.ModelCaller` (isolation, answers read by label, checks).

    ``checked(frame, purpose, private=False) -> (n, n_outputs)`` float64 array.
    """
    from .._core.map.calls import ModelCaller

    return ModelCaller(model_predict(model, response), name=f"{type(model).__name__}.predict", single_output=False)


def r_callback(checked):
    """``predict(frame) -> 1-D array`` for R to call back: R's newdata, rebuilt as a frame of its own per call."""

    def predict(frame):
        return checked(frame, "R's call of the model", private=True)[:, 0]

    return predict


def pyale_side(checked):
    """``predict(frame) -> 1-D array`` for pyale's ALEPlot and FeatureEffect, which isolate the frame first."""

    def predict(frame):
        return checked(frame, "pyale's call of the model", private=True)[:, 0]

    return predict


def _differences(r_values: np.ndarray, py_values: np.ndarray) -> tuple[float, float, float, bool]:
    """Max absolute and relative differences, the absolute floor, and whether all cells are within."""
    r_values = np.asarray(r_values, dtype=float)
    py_values = np.asarray(py_values, dtype=float)
    finite = r_values[np.isfinite(r_values)]
    spread = float(np.ptp(finite)) if finite.size else 0.0
    diff = np.abs(r_values - py_values)
    diff = np.where(np.isnan(r_values) & np.isnan(py_values), 0.0, diff)
    max_abs = float(np.nanmax(diff)) if diff.size else 0.0
    if np.isnan(diff).any():
        max_abs = float("inf")
    scale = np.maximum(np.abs(r_values), np.finfo(float).tiny)
    max_rel = float(np.nanmax(diff / scale)) if diff.size else 0.0
    atol = ATOL_SCALE * max(1.0, spread)
    within = bool(np.allclose(py_values, r_values, rtol=RTOL, atol=atol, equal_nan=True))
    return max_abs, max_rel, atol, within


def _same_levels(r_levels: list, py_levels: list, name: str, problems: list) -> np.ndarray | None:
    """Positions of R's levels among pyale's; R's order or its exact reverse is accepted."""
    py_levels = [str(v) for v in py_levels]
    if sorted(py_levels) != sorted(r_levels):
        problems.append(f"levels of {name!r} differ: R {r_levels}, pyale {py_levels}")
        return None
    if py_levels not in (r_levels, r_levels[::-1]):
        problems.append(f"level order of {name!r} differs: R {r_levels}, pyale {py_levels}")
        return None
    return np.array([py_levels.index(level) for level in r_levels])


def compare_aleplot(side: RSide, predict, feature, K: int) -> Comparison:
    """ALEPlot in R against pyale.ALEPlot for one feature or a pair."""
    import pyale

    names = list(feature) if isinstance(feature, tuple) else [feature]
    J = [list(side.X.columns).index(n) + 1 for n in names]
    # pyale first: a grid it refuses (too many cells) is refused before R spends its time
    py = pyale.ALEPlot(side.X, None, lambda _, newdata: predict(newdata),
                       tuple(names) if len(names) == 2 else names[0], K=K, plot=False)
    # R allocates K; beyond the data a K <= 2n gives R the same edges (pyale._core.grid)
    r = side.aleplot(J, equivalent_intervals(side.X.shape[0], K, "aleplot"))
    problems: list[str] = []
    py_K = list(py.K) if isinstance(py.K, tuple) else [py.K]
    if r["K"] is not None and r["K"] != py_K:
        problems.append(f"K differs: R {r['K']}, pyale {py_K}")
    r_axes = r["x"] if len(names) == 2 else [r["x"]]
    py_axes = list(py.x_values) if len(names) == 2 else [py.x_values]
    f_py = np.asarray(py.f_values, dtype=float)
    for axis, (name, r_axis, py_axis) in enumerate(zip(names, r_axes, py_axes)):
        if isinstance(r_axis, list):
            order = _same_levels(r_axis, list(py_axis), name, problems)
            if order is not None and axis == 0:
                f_py = f_py[order]
        elif np.shape(r_axis) != np.shape(py_axis) or not np.allclose(py_axis, r_axis, rtol=RTOL, atol=0):
            problems.append(f"grid of {name!r} differs")
    f_r = np.asarray(r["f"], dtype=float).reshape(np.shape(f_py)) if np.size(r["f"]) == np.size(f_py) else None
    if f_r is None:
        problems.append(f"shapes differ: R {np.shape(r['f'])}, pyale {np.shape(f_py)}")
        f_r = np.full(np.shape(f_py), np.nan)
    table = _aleplot_table(names, r_axes, f_r, f_py)
    max_abs, max_rel, atol, within = _differences(f_r.ravel(), f_py.ravel())
    py_J = repr(tuple(names)) if len(names) == 2 else repr(names[0])
    return Comparison("aleplot", feature_label(names), r["code"],
                      f"pyale.ALEPlot(X, None, pred_fun, J={py_J}, K={K})", table, max_abs, max_rel, atol,
                      within, problems, tuple(names))


def _compared(keys: list, f_r: np.ndarray, f_py: np.ndarray) -> pd.DataFrame:
    """Key columns, then ``r``, ``pyale``, ``difference``; a key named like those is written ``feature_<name>``."""
    f_r, f_py = np.ravel(f_r), np.ravel(f_py)
    return tidy_frame(keys, [("r", f_r), ("pyale", f_py), ("difference", f_py - f_r)])


def _aleplot_table(names, axes, f_r, f_py) -> pd.DataFrame:
    if len(names) == 1:
        return _compared([(names[0], list(axes[0]))], f_r, f_py)
    a, b = np.meshgrid(np.arange(len(axes[0])), np.arange(len(axes[1])), indexing="ij")
    first = np.empty(len(axes[0]), dtype=object)
    first[:] = list(axes[0])
    return _compared([(names[0], first[a.ravel()]), (names[1], np.asarray(axes[1], dtype=float)[b.ravel()])],
                     f_r, f_py)


def compare_iml(side: RSide, predict, feature, grid_size: int) -> Comparison:
    """iml's FeatureEffect in R against pyale.FeatureEffect (method "ale").

    A categorical feature with unused categories is compared with ``replicate_r_bugs=True`` (iml's
    centring with other levels' shares, which R computes on such a factor); ``py_call`` says so.
    """
    import pyale

    names = list(feature) if isinstance(feature, tuple) else [feature]
    # iml centres a factor with unused categories with other levels' shares (docs/deviations.md): R's factor
    # keeps the Categorical's categories, so that number is what is compared (and said in py_call)
    column = side.X[names[0]]
    replicate = len(names) == 1 and isinstance(column.dtype, pd.CategoricalDtype) and \
        bool((column.value_counts(sort=False) == 0).any())
    # pyale first: a feature iml cannot lay out (e.g. '.value') gets pyale's clear refusal, not R's error
    effect = pyale.FeatureEffect(pyale.Predictor(predict_function=predict, data=side.X),
                                 names if len(names) == 2 else [names[0]], method="ale", grid_size=grid_size,
                                 replicate_r_bugs=replicate)
    py_frame = effect.results.reset_index(drop=True)
    r_frame, code = side.iml(names, equivalent_intervals(side.X.shape[0], grid_size, "iml"))
    problems: list[str] = []
    if list(r_frame.columns) != list(py_frame.columns):
        problems.append(f"columns differ: R {list(r_frame.columns)}, pyale {list(py_frame.columns)}")
    if r_frame.shape[0] != py_frame.shape[0]:
        problems.append(f"rows differ: R {r_frame.shape[0]}, pyale {py_frame.shape[0]}")
    value = ".ale" if len(names) == 2 else ".value"
    keys = [c for c in py_frame.columns if c in r_frame.columns and c != value]
    for column in keys if not problems else []:
        r_col, py_col = r_frame[column], py_frame[column]
        if pd.api.types.is_numeric_dtype(py_col) and pd.api.types.is_numeric_dtype(r_col):
            if not np.allclose(py_col.to_numpy(float), r_col.to_numpy(float), rtol=RTOL, atol=0, equal_nan=True):
                problems.append(f"column {column!r} differs")
        elif [str(v) for v in r_col] != [str(v) for v in py_col]:
            problems.append(f"column {column!r} differs")
    n = min(r_frame.shape[0], py_frame.shape[0])
    f_r = r_frame[value].to_numpy(float)[:n] if value in r_frame else np.full(n, np.nan)
    f_py = py_frame[value].to_numpy(float)[:n]
    columns = [*names, *(c for c in py_frame.columns if c not in names and c != value)]
    table = _compared([(c, py_frame[c].to_numpy()[:n]) for c in columns], f_r, f_py)
    max_abs, max_rel, atol, within = _differences(f_r, f_py)
    py_feature = repr(names) if len(names) == 2 else repr(names[0])
    return Comparison("iml", feature_label(names), code,
                      f"pyale.FeatureEffect(pyale.Predictor(predict_function=predict, data=X), {py_feature}, "
                      f"method='ale', grid_size={grid_size}{', replicate_r_bugs=True' if replicate else ''}).results",
                      table, max_abs, max_rel, atol, within,
                      problems, tuple(names))


def compare_ale(side: RSide, predict, feature, intervals: int) -> Comparison:
    """ale's ``get(ALE(...), ale_centre = "zero")`` in R against pyale.ALE: bins, counts and every ``.y`` column.

    pyale computes released ale's numbers (``replicate_r_bugs=True``): a binary
    feature stored as numbers is moved from the number 1 as ale moves it.

    ``intervals`` is ale's ``max_num_bins - 1``.  Both sides get the model's
    predictions as the response column ALE() requires (``.pyale_y``).
    """
    import pyale

    names = list(feature) if isinstance(feature, tuple) else [feature]
    response = np.asarray(predict(side.X), dtype=float).reshape(-1)
    data = side.X.copy(deep=False)
    data[".pyale_y"] = response
    # released ale's numbers (docs/deviations.md, ale cases 1 and 2): R's own bug is compared, not pyale's fix
    py = pyale.ALE(None, [tuple(names)] if len(names) == 2 else names[0], data, ".pyale_y",
                   pred_fun=lambda object, newdata, type: predict(newdata),  # noqa: A006
                   max_num_bins=intervals + 1, replicate_r_bugs=True).get(
        [tuple(names)] if len(names) == 2 else names[0], ale_centre="zero")
    max_num_bins = equivalent_intervals(side.X.shape[0], intervals, "aleplot") + 1
    r_frame, code = side.ale(names, max_num_bins, response)
    problems: list[str] = []
    if list(r_frame.columns) != list(py.columns) or r_frame.shape[0] != py.shape[0]:
        problems.append(f"tables differ: R {list(r_frame.columns)} x {r_frame.shape[0]}, "
                        f"pyale {list(py.columns)} x {py.shape[0]}")
    keys = [c for c in py.columns if c.endswith((".ceil", ".bin"))]
    for column in keys + [".n"] if not problems else []:
        r_col, py_col = r_frame[column], py[column]
        if column.endswith(".ceil"):
            same = np.allclose(py_col.to_numpy(float), r_col.to_numpy(float), rtol=RTOL, atol=0)
        else:
            same = [str(v) for v in r_col] == [str(v) for v in py_col]
        if not same:
            hint = (" (R orders a factor's levels by the sign of an eigenvector, which depends on the BLAS/LAPACK "
                    "R uses; pyale reproduces R on reference BLAS/LAPACK)" if column.endswith(".bin") else "")
            problems.append(f"column {column!r} differs{hint}")
    values = [".y", ".y_lo", ".y_mean", ".y_median", ".y_hi"]
    n = min(r_frame.shape[0], py.shape[0])
    f_r = np.concatenate([r_frame[c].to_numpy(float)[:n] if c in r_frame else np.full(n, np.nan) for c in values])
    f_py = np.concatenate([py[c].to_numpy(float)[:n] for c in values])
    table = _compared([(c, py[c].to_numpy()[:n]) for c in keys + [".n"]], f_r[:n], f_py[:n])
    max_abs, max_rel, atol, within = _differences(f_r, f_py)
    py_term = repr([tuple(names)]) if len(names) == 2 else repr(names[0])
    return Comparison("ale", feature_label(names), code,
                      f"pyale.ALE(None, {py_term}, X.assign(**{{'.pyale_y': predict(X)}}), '.pyale_y', "
                      f"pred_fun=lambda object, newdata, type: predict(newdata), max_num_bins={intervals + 1}, "
                      "replicate_r_bugs=True)"
                      f".get({py_term}, ale_centre='zero')", table, max_abs, max_rel, atol, within, problems,
                      tuple(names))


#: The comparison of each convention.
COMPARE = {"aleplot": compare_aleplot, "iml": compare_iml, "ale": compare_ale}

_TYPED = object()


def python_setup(args, X: pd.DataFrame, r_model: bool, response=_TYPED) -> str:
    """The Python code that defines ``X``, ``predict`` and ``pred_fun`` as the pyale calls use them.

    ``response`` is the class the command matched to ``--response`` (e.g. the
    int 1 for ``--response 1``); by default the text typed.
    """
    if response is _TYPED:
        response = args.response
    reader = "read_csv" if str(args.data).lower().endswith(".csv") else "read_parquet"
    path = str(args.model)
    imports = ["import pandas as pd", "import pyale"]
    if r_model:
        imports.append("import pyale.r")
    else:
        imports += ["import joblib"] if path.lower().endswith(".joblib") else []
        imports.append("from pyale._core.map.adapters import adapt_model")
    options = "".join(f", {k}={v!r}" for k, v in exact_csv_options().items()) if reader == "read_csv" else ""
    from .inputs import split_dtype

    dtypes = {}
    for entry in getattr(args, "dtype", None) or []:  # --dtype COLUMN=TYPE, as the command read them
        column, name, _ = split_dtype(entry)
        dtypes[column] = name
    categorical = list(dict.fromkeys([*(getattr(args, "categorical", None) or []),
                                      *(c for c, d in dtypes.items() if d == "category")]))
    plain = {c: d for c, d in dtypes.items() if d != "category"}
    if plain and reader == "read_csv":
        options = f", dtype={plain!r}" + options
    lines = [*imports, f"data = pd.{reader}({str(args.data)!r}{options})"]
    if plain and reader != "read_csv":
        lines.append(f"data = data.astype({plain!r})")
    lines += [f"data[{c!r}] = data[{c!r}].astype('category')" for c in categorical]
    lines.append(f"X = data[{[str(c) for c in X.columns]!r}]")
    strings = [str(c) for c in X.columns if isinstance(X[c].dtype, pd.CategoricalDtype)]
    if strings:
        lines.append(f"# categorical columns {strings!r}: pandas Categoricals, the same levels as R's factors")
    if r_model:
        extra = "" if args.r_predict_type is None else f", type={args.r_predict_type!r}"
        lines.append(f"model = pyale.r.RModel({path!r}{extra})")
        if response is not None:
            lines.append(f"predict = lambda frame: model.predict(frame)[{str(response)!r}].to_numpy(float)")
        else:
            lines.append("predict = model.predict")
    else:
        loader = "joblib.load" if path.lower().endswith(".joblib") else "pd.read_pickle"
        lines.append(f"model = {loader}({path!r})")
        lines.append(f"predict = adapt_model(model, response={_literal(response)}).predict")
    lines.append("pred_fun = lambda X_model, newdata: predict(newdata)")
    return "\n".join(lines)


def _literal(value) -> str:
    """``repr`` of a class label that reads back as the same value (NumPy scalars as Python's)."""
    if isinstance(value, np.generic):
        value = value.item()
    return repr(value)


def report_context(args, data: pd.DataFrame, model, X: pd.DataFrame, features: list, conventions: list[str],
                   side: RSide, response=_TYPED) -> dict:
    """What :func:`pyale._cli.report.write_reports` writes besides the effects."""
    import shlex

    from .report import sha256

    r_model = is_r_model(model)
    argv = ["--data", str(args.data), "--model", str(args.model), "--features", *args.features,
            "--out", str(args.out), "--conventions", args.conventions]
    for option, value in (("--intervals", args.intervals), ("--response", args.response),
                          ("--r-predict-type", args.r_predict_type)):
        if value is not None:
            argv += [option, str(value)]
    if args.drop:
        argv += ["--drop", *args.drop]
    for option in ("--categorical", "--dtype"):
        values = getattr(args, option[2:], None)
        if values:
            argv += [option, *values]
    return {
        "inputs": {
            "data": f"{args.data} ({data.shape[0]} rows; SHA-256 {sha256(args.data)})",
            "model": f"{args.model} ({type(model).__module__}.{type(model).__name__}; "
                     f"SHA-256 {sha256(args.model)})",
            "model inputs": ", ".join(map(str, X.columns)),
            "features": ", ".join(feature_label(f if isinstance(f, tuple) else (f,)) for f in features),
        },
        "versions": versions(conventions),
        "r_setup": side.setup,
        "python_setup": python_setup(args, X, r_model, response),
        "command": "pyale validate " + " ".join(shlex.quote(a) for a in argv),
        "model_note": ("R evaluates the R model with its own predict() on both sides." if r_model
                       else "R calls the Python model back through rpy2, so both sides use the same model."),
    }
