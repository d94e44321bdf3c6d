"""The R side of ``pyale validate``: is R there, and R's ALEPlot / iml run through rpy2.

R sees the data exactly as pyale does (:func:`pyale.r.to_r_dataframe`); an R
model is evaluated by R's own ``predict``, a Python model is called back
from R.  :class:`RSide` also records the R code that defines the names its
calls use, for the report.
"""

from __future__ import annotations

import importlib.metadata as metadata

import numpy as np
import pandas as pd

__all__ = ["PACKAGES", "RSide", "r_problem", "unsyntactic_names", "versions"]

PACKAGES = {"aleplot": ("ALEPlot", "yaImpute"), "iml": ("iml",), "ale": ("ale",)}

INSTALL_R = (
    "Install R, then rpy2 through pyale's 'r' extra: in the top folder of a clone of pyale's repository run "
    "`pip install \".[r]\"` (its distribution, pyale-r, is on no package index; `pip install \"rpy2>=3.5,<3.6\"` "
    "installs the same rpy2), "
    "and in R install the packages the report compares with: iml and yaImpute from CRAN, ALEPlot 1.1 from "
    "CRAN's archive (it has left CRAN)."
)
"""How to get what ``pyale validate`` needs (named by every message about a missing piece)."""


def r_problem(conventions: list[str]) -> str | None:
    """Why R cannot run here (missing rpy2, R or an R package), or None."""
    try:
        import rpy2.robjects as ro
    except ImportError as exc:
        return (f"rpy2 is not installed ({exc}). {INSTALL_R}")
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


def unsyntactic_names(names: list[str]) -> dict:
    """Column names that R's ``make.names`` would change, mapped to what R makes of them.

    iml 0.11.4 fails on data with such a column (``subscript out of bounds``,
    or the model receives no columns), whichever feature is asked for.
    """
    import rpy2.robjects as ro

    made = list(ro.r["make.names"](ro.StrVector([str(n) for n in names])))
    return {str(n): m for n, m in zip(names, made) if str(n) != m}


def versions(conventions: list[str]) -> dict:
    """Versions of R, the R packages, pyale and the Python stack."""
    import platform

    import rpy2.robjects as ro

    from .. import __version__

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
    response : str or None
        For an R model whose ``predict`` answers a matrix: the column to explain.
    model_file : str
        Where the R model was read from (named in :attr:`setup` only).

    Attributes
    ----------
    setup : str
        The R code that defines the names the R calls use (for the report).
    """

    def __init__(self, X: pd.DataFrame, predict, r_model=None, response=None, model_file: str = "model.rds"):
        import rpy2.robjects as ro
        import rpy2.rinterface as ri

        from ..r import to_r_dataframe

        self.ro = ro
        self.X = X
        ro.globalenv[".pyale_X"] = to_r_dataframe(X)
        if r_model is not None:
            ro.globalenv[".pyale_fit"] = r_model.model
            loads = [f"loadNamespace({_r_string(name)})" for name in r_model.packages]
            extra = "".join(f", {k} = {_r_string(v)}" for k, v in r_model.predict_args.items())
            column = "" if response is None else f"[, {_r_string(response)}]"
            self.predict_code = f"as.numeric(predict(model, newdata = newdata{extra}){column})"
            self.model_name = ".pyale_fit"
            source = "\n".join([*loads, f".pyale_fit <- readRDS({_r_string(model_file)})"])
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
            source = ("# .pyale_python_model: an rpy2 callback; it turns newdata into a pandas DataFrame with\n"
                      "# X's dtypes and categories and returns the Python model's predictions.")
        definitions = [f".pyale_pf <- function(X.model, newdata) {{ model <- X.model; {self.predict_code} }}",
                       f".pyale_ipf <- function(model, newdata) {self.predict_code}"]
        for line in definitions:
            ro.r(line)
        self.setup = "\n".join([
            f"# .pyale_X: the model inputs ({', '.join(map(str, X.columns))}) as pandas holds them, handed to R",
            "# column by column by pyale.r.to_r_dataframe (doubles exact, categoricals as factors).",
            source, *definitions,
            "# ALEPlot always draws: each ALEPlot call runs as png(tempfile(fileext = '.png')); "
            "res <- ALEPlot(...); dev.off()"])

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

    def ale(self, features: list[str], max_num_bins: int, response: np.ndarray) -> tuple[pd.DataFrame, str]:
        """ale's ``get(ALE(...), term, ale_centre = "zero")`` as a DataFrame.

        ``ALE()`` needs a response column in its data: ``.pyale_y``, the
        model's predictions on the data (``response``), on both sides.
        """
        from rpy2.robjects import pandas2ri
        from rpy2.robjects.conversion import localconverter

        ro = self.ro
        if not hasattr(self, "_ale_ready"):
            ro.globalenv[".pyale_ale_y"] = ro.FloatVector(np.asarray(response, dtype=float))
            lines = [".pyale_Xy <- cbind(.pyale_X, .pyale_y = .pyale_ale_y)",
                     f".pyale_apf <- function(object, newdata, type) {{ model <- object; {self.predict_code} }}"]
            for line in lines:
                ro.r(line)
            # ale's progress bar (cli) reads an option RStudio sets; R embedded through rpy2 has none
            ro.r("if (is.null(getOption('rstudio.notebook.executing'))) options(rstudio.notebook.executing = FALSE)")
            self.setup += ("\n# .pyale_ale_y: the model's predictions on .pyale_X (ALE() needs a response column)\n"
                           + "\n".join(lines))
            self._ale_ready = True
        term = ":".join(map(str, features))
        code = (f"ale::get(ale::ALE({self.model_name}, x_cols = {_r_string(term)}, data = .pyale_Xy, "
                f"y_col = \".pyale_y\", pred_fun = .pyale_apf, max_num_bins = {max_num_bins}, parallel = 0, "
                f"p_values = NULL, silent = TRUE), {_r_string(term)}, ale_centre = \"zero\")")
        ro.r(f".pyale_ale <- as.data.frame({code})")
        with localconverter(ro.default_converter + pandas2ri.converter):
            frame = ro.conversion.get_conversion().rpy2py(ro.r(".pyale_ale"))
        return frame.reset_index(drop=True), code

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
