"""``pyale validate``: R's ALEPlot / iml and pyale on the same data and model, compared.

The R side runs ALEPlot 1.1's ``ALEPlot`` and iml's ``FeatureEffect$new(...,
method = "ale")`` through rpy2 on the data exactly as pyale sees it
(:func:`pyale.r.to_r_dataframe`).  An R model (``.rds``) is evaluated by R's
own ``predict`` on both sides; a Python model is handed to R as a callback,
so both sides call the very same model.  Every effect is compared cell by
cell (rtol 1e-10 with an absolute floor of 1e-10 times the effect's range;
grids, levels and K exactly) and written to a report by
:mod:`pyale._report`.
"""

from __future__ import annotations

import importlib.metadata as metadata
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

__all__ = ["Comparison", "as_r_factors", "r_problem", "compare_aleplot", "compare_iml", "RSide", "versions"]

RTOL = 1e-10
ATOL_SCALE = 1e-10
PACKAGES = {"aleplot": ("ALEPlot", "yaImpute"), "iml": ("iml",)}
DEFAULT_INTERVALS = {"aleplot": 40, "iml": 20}


@dataclass
class Comparison:
    """One effect computed by R and by pyale, and how far apart they are."""

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

    @property
    def ok(self) -> bool:
        """Every cell within tolerance, and grids, levels, K and shapes equal."""
        return self.within and not self.problems


def as_r_factors(X: pd.DataFrame) -> pd.DataFrame:
    """String columns as Categoricals with the levels pyale uses (sorted by code point).

    R's ALEPlot treats a character column as numeric and fails; a factor with
    the same levels on both sides makes R and pyale see the same feature.
    """
    converted = {}
    for name in X.columns:
        column = X[name]
        if isinstance(column.dtype, pd.CategoricalDtype) or pd.api.types.is_numeric_dtype(column.dtype) \
                or pd.api.types.is_bool_dtype(column.dtype):
            continue
        if pd.api.types.is_object_dtype(column.dtype) or pd.api.types.is_string_dtype(column.dtype):
            values = column.astype(object).where(column.notna(), None)
            levels = np.unique(np.asarray([str(v) for v in values if v is not None], dtype=object).astype(str))
            converted[name] = pd.Categorical([None if v is None else str(v) for v in values],
                                             categories=[str(v) for v in levels])
    return X.assign(**converted) if converted else X


def r_problem(conventions: list[str]) -> str | None:
    """Why R cannot run here (missing rpy2, R or an R package), or None."""
    try:
        import rpy2.robjects as ro
    except ImportError as exc:
        return (f"rpy2 is not installed ({exc}). Install R, then `pip install \"pyale-r[r]\"` "
                "(with R older than 4.5 use `pip install \"rpy2<3.6\"`).")
    except Exception as exc:  # noqa: BLE001 - rpy2 without R raises ValueError/RuntimeError/OSError
        return (f"rpy2 could not start R ({type(exc).__name__}: {exc}). Install R "
                "(Debian/Ubuntu: `apt install r-base-core`).")
    wanted = [p for c in conventions for p in PACKAGES[c]]
    missing = [p for p in dict.fromkeys(wanted)
               if not bool(ro.r(f"isTRUE(requireNamespace('{p}', quietly = TRUE))")[0])]
    if missing:
        return (f"R ({ro.r('R.version.string')[0]}) lacks the package(s) {', '.join(missing)}. Install "
                "them in R (ALEPlot 1.1 has left CRAN: install it from CRAN's archive); pyale never "
                "installs R packages.")
    return None


def versions(conventions: list[str]) -> dict:
    """Versions of R, the R packages, pyale and the Python stack."""
    import platform

    import rpy2.robjects as ro

    from . import __version__

    out = {"R": str(ro.r("R.version.string")[0])}
    for conv in conventions:
        for package in PACKAGES[conv]:
            out[f"R package {package}"] = str(ro.r(f"as.character(packageVersion('{package}'))")[0])
    out["pyale"] = __version__
    out["Python"] = platform.python_version()
    for package in ("numpy", "pandas", "rpy2"):
        out[package] = metadata.version(package)
    return out


def _r_string(text: str) -> str:
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"') + '"'


def _r_names(names) -> str:
    return "c(" + ", ".join(_r_string(n) for n in names) + ")"


class RSide:
    """The data and model as R sees them, and R's two functions run on them.

    Parameters
    ----------
    X : pandas.DataFrame
        Model inputs (string columns already made categorical).
    predict : callable
        ``predict(frame) -> 1-D array``: the model's one output, used for the
        Python side and, for a Python model, called back from R.
    r_model : pyale.r.RModel or None
        An R model, evaluated natively in R on the R side.
    """

    def __init__(self, X: pd.DataFrame, predict, r_model=None):
        import rpy2.robjects as ro
        import rpy2.rinterface as ri

        from .r import to_r_dataframe

        self.ro = ro
        self.X = X
        ro.globalenv[".pyale_X"] = to_r_dataframe(X)
        if r_model is not None:
            ro.globalenv[".pyale_fit"] = r_model.model
            extra = "".join(f", {k} = {_r_string(v)}" for k, v in r_model.predict_args.items())
            self.predict_code = f"as.numeric(predict(model, newdata = newdata{extra}))"
            self.model_name = ".pyale_fit"
        else:
            columns = list(X.columns)
            dtypes = X.dtypes

            @ri.rternalize
            def call_python(newdata):
                frame = self._to_frame(newdata, columns, dtypes)
                return ro.FloatVector(np.asarray(predict(frame), dtype=float).reshape(-1))

            self._callback = call_python  # keep a reference while R may call it
            ro.globalenv[".pyale_python_model"] = call_python
            self.predict_code = ".pyale_python_model(newdata)"
            self.model_name = "NULL"
        ro.r(f".pyale_pf <- function(X.model, newdata) {{ model <- X.model; {self.predict_code} }}")
        ro.r(f".pyale_ipf <- function(model, newdata) {self.predict_code}")

    def _to_frame(self, newdata, columns, dtypes) -> pd.DataFrame:
        from rpy2.robjects import pandas2ri
        from rpy2.robjects.conversion import localconverter

        with localconverter(self.ro.default_converter + pandas2ri.converter):
            frame = self.ro.conversion.get_conversion().rpy2py(newdata)
        out = {}
        for name in columns:
            dtype = dtypes[name]
            values = frame[name]
            if isinstance(dtype, pd.CategoricalDtype):
                out[name] = pd.Categorical(np.asarray(values, dtype=object), categories=dtype.categories,
                                           ordered=dtype.ordered)
            else:
                out[name] = np.asarray(values).astype(dtype)
        return pd.DataFrame(out)

    def aleplot(self, J: list[int], K: int) -> dict:
        """R's ``ALEPlot`` (drawn into a throw-away PNG device); K, x.values, f.values."""
        code = (f"ALEPlot::ALEPlot(.pyale_X, {self.model_name}, .pyale_pf, J = c({', '.join(map(str, J))}), "
                f"K = {K})")
        self.ro.r(f"png(tempfile(fileext = '.png')); .pyale_res <- {code}; invisible(dev.off())")
        res = self.ro.r(".pyale_res")
        names = list(res.names)
        x_values = res.rx2("x.values")
        if len(J) == 2:
            x = [self._vector(x_values[0]), self._vector(x_values[1])]
        else:
            x = self._vector(x_values)
        f = np.asarray(res.rx2("f.values"), dtype=float)
        dims = self.ro.r("dim(.pyale_res$f.values)")
        if dims is not self.ro.NULL:
            f = np.asarray(f).reshape([int(d) for d in dims], order="F") if f.ndim == 1 else f
        K_r = [int(k) for k in res.rx2("K")] if "K" in names else None
        return {"K": K_r, "x": x, "f": f, "code": code}

    def _vector(self, value):
        if str(self.ro.r["class"](value)[0]) in ("character", "factor"):
            return [str(v) for v in self.ro.r["as.character"](value)]
        return np.asarray(value, dtype=float)

    def iml(self, features: list[str], grid_size: int) -> tuple[pd.DataFrame, str]:
        """iml's ``FeatureEffect$new(..., method = "ale")$results`` as a DataFrame."""
        from rpy2.robjects import pandas2ri
        from rpy2.robjects.conversion import localconverter

        model = self.model_name
        code = (f"iml::FeatureEffect$new(iml::Predictor$new(model = {model}, data = .pyale_X, "
                f"predict.function = .pyale_ipf), {_r_names(features)}, method = \"ale\", "
                f"grid.size = {grid_size})$results")
        self.ro.r(f".pyale_iml <- as.data.frame({code})")
        with localconverter(self.ro.default_converter + pandas2ri.converter):
            frame = self.ro.conversion.get_conversion().rpy2py(self.ro.r(".pyale_iml"))
        return frame.reset_index(drop=True), code


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
    r = side.aleplot(J, K)
    py = pyale.ALEPlot(side.X, None, lambda _, newdata: predict(newdata),
                       tuple(names) if len(names) == 2 else names[0], K=K, plot=False)
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
    return Comparison("aleplot", " x ".join(names), r["code"],
                      f"pyale.ALEPlot(X, None, pred_fun, J={py_J}, K={K})", table, max_abs, max_rel, atol,
                      within, problems)


def _aleplot_table(names, axes, f_r, f_py) -> pd.DataFrame:
    if len(names) == 1:
        return pd.DataFrame({names[0]: list(axes[0]), "r": f_r, "pyale": f_py, "difference": f_py - f_r})
    a, b = np.meshgrid(np.arange(len(axes[0])), np.arange(len(axes[1])), indexing="ij")
    first = np.asarray(list(axes[0]), dtype=object)
    return pd.DataFrame({names[0]: first[a.ravel()], names[1]: np.asarray(axes[1], dtype=float)[b.ravel()],
                         "r": f_r.ravel(), "pyale": f_py.ravel(), "difference": (f_py - f_r).ravel()})


def compare_iml(side: RSide, predict, feature, grid_size: int) -> Comparison:
    """iml's FeatureEffect in R against pyale.FeatureEffect (method "ale")."""
    import pyale

    names = list(feature) if isinstance(feature, tuple) else [feature]
    r_frame, code = side.iml(names, grid_size)
    effect = pyale.FeatureEffect(pyale.Predictor(predict_function=predict, data=side.X),
                                 names if len(names) == 2 else names[0], method="ale", grid_size=grid_size)
    py_frame = effect.results.reset_index(drop=True)
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
    table = py_frame.iloc[:n][columns].assign(r=f_r, pyale=f_py, difference=f_py - f_r)
    max_abs, max_rel, atol, within = _differences(f_r, f_py)
    py_feature = repr(names) if len(names) == 2 else repr(names[0])
    return Comparison("iml", " x ".join(names), code,
                      f"pyale.FeatureEffect(pyale.Predictor(predict_function=predict, data=X), {py_feature}, "
                      f"method='ale', grid_size={grid_size}).results", table, max_abs, max_rel, atol, within,
                      problems)
