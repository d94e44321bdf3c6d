"""Explain a model that still lives in R, from Python (needs R and the ``r`` extra).

``pyale.r.RModel`` wraps an R model object (an rpy2 object, or a path to an
``.rds`` file) so that pyale can call R's ``predict(model, newdata = ...)``
on a pandas DataFrame.  Columns are converted exactly: float64 to double,
integers to integer, pandas ``Categorical`` to ``factor`` with the same levels
in the same order (ordered factors stay ordered), strings to character,
booleans to logical.

This module imports rpy2 when it is imported; ``import pyale`` does not.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from pandas.api import types as ptypes

try:
    import rpy2.robjects as _ro
except ImportError as exc:  # pragma: no cover - exercised only without rpy2
    raise ImportError(
        "pyale.r needs rpy2 and R: install R, then run `pip install \".[r]\"` in the top folder of a clone "
        "of pyale's repository (or `pip install \"rpy2>=3.5,<3.6\"`)."
    ) from exc
except (ValueError, RuntimeError, OSError) as exc:  # pragma: no cover - rpy2 without R
    raise ImportError(f"pyale.r could not start R through rpy2: {exc}") from exc

__all__ = ["RModel", "to_r_dataframe", "r_version", "load_predict_packages"]


def r_version() -> str:
    """R's version string, e.g. ``'R version 4.2.2 Patched (2022-11-10 r83330)'``.

    Returns
    -------
    str
        R's ``R.version.string`` of the R that rpy2 embeds.

    Examples
    --------
    >>> from pyale.r import r_version
    >>> r_version().startswith("R version")
    True
    """
    return str(_ro.r("R.version.string")[0])


def _r_column(series: pd.Series):
    name = series.name
    if isinstance(series.dtype, pd.CategoricalDtype):
        codes = np.asarray(series.array.codes, dtype=np.int64) + 1
        values = _ro.IntVector([int(c) if c > 0 else _ro.NA_Integer for c in codes])
        levels = _ro.StrVector([str(c) for c in series.dtype.categories])
        factor = _ro.r("function(codes, levels, ordered) factor(levels[codes], levels = levels, ordered = ordered)")
        return factor(values, levels, bool(series.dtype.ordered))
    if ptypes.is_bool_dtype(series.dtype):
        return _ro.BoolVector(series.to_numpy().tolist())
    if ptypes.is_integer_dtype(series.dtype):
        values = series.to_numpy(dtype=float, na_value=np.nan)
        if np.all(np.isnan(values) | (np.abs(values) < 2**31)):
            return _ro.IntVector([_ro.NA_Integer if np.isnan(v) else int(v) for v in values])
        return _ro.FloatVector(values)
    if ptypes.is_numeric_dtype(series.dtype):
        return _ro.FloatVector(series.to_numpy(dtype=float, na_value=np.nan))
    if ptypes.is_object_dtype(series.dtype) or ptypes.is_string_dtype(series.dtype):
        return _ro.StrVector([_ro.NA_Character if pd.isna(v) else str(v) for v in series.to_numpy(dtype=object)])
    raise TypeError(
        f"Column {name!r} has dtype {series.dtype}, which pyale.r cannot hand to R "
        "(numbers, booleans, strings and Categorical only)."
    )


def to_r_dataframe(frame: pd.DataFrame):
    """An R ``data.frame`` with the same columns, types and values as ``frame``.

    Parameters
    ----------
    frame : pandas.DataFrame
        Float, integer, boolean, string and Categorical columns.

    Returns
    -------
    rpy2.robjects.DataFrame
        Doubles, integers, logicals, characters and factors (same levels in
        the same order; ordered factors stay ordered).

    Examples
    --------
    >>> import pandas as pd
    >>> import rpy2.robjects as ro
    >>> from pyale.r import to_r_dataframe
    >>> frame = pd.DataFrame({"x": [1.5, 2.0], "n": [1, 2], "g": pd.Categorical(["a", "b"])})
    >>> list(ro.r["sapply"](to_r_dataframe(frame), "class"))
    ['numeric', 'integer', 'factor']
    """
    columns = {str(name): _r_column(frame[name]) for name in frame.columns}
    out = _ro.DataFrame(columns)
    out.names = _ro.StrVector([str(name) for name in frame.columns])
    return out


def load_predict_packages(fit) -> list[str]:
    """Load the R package whose ``predict`` method an R model needs, and name it.

    ``readRDS`` does not load the package that made a model, so R's ``predict``
    finds no method for e.g. a ``randomForest``.  For each class of the model
    without a visible ``predict`` method, an installed package of that name
    (``randomForest``, ``rpart``, ``ranger``, ...) is loaded until one is found.
    Returns the package holding the method found, unless R attaches it at
    start-up (``stats`` for ``lm``/``glm``), so a report can load it too.

    Parameters
    ----------
    fit : rpy2 object
        A fitted R model.

    Returns
    -------
    list of str
        The R package(s) loaded for its ``predict`` method; empty when R
        attaches it at start-up.

    Examples
    --------
    >>> import rpy2.robjects as ro
    >>> from pyale.r import load_predict_packages
    >>> load_predict_packages(ro.r("lm(mpg ~ wt, data = mtcars)"))
    []
    """
    found = _ro.r("""function(fit) {
      for (cls in class(fit)) {
        method <- utils::getS3method("predict", cls, optional = TRUE)
        if (is.null(method) && nzchar(system.file(package = cls))) {
          loadNamespace(cls)
          method <- utils::getS3method("predict", cls, optional = TRUE)
        }
        if (!is.null(method)) {
          package <- environmentName(environment(method))
          return(setdiff(package, c(getOption("defaultPackages"), "base", "R_GlobalEnv", "")))
        }
      }
      character(0)
    }""")(fit)
    return [str(name) for name in found]



class RModel:
    """An R model called through R's ``predict``.

    Parameters
    ----------
    model : rpy2 object or path
        A fitted R model, or the path of an ``.rds`` file holding one.
    **predict_args
        Extra arguments for R's ``predict`` (e.g. ``type = "prob"`` for a
        randomForest classifier, ``type = "response"`` for a glm).

    Attributes
    ----------
    packages : list of str
        The R package(s) loaded so that ``predict`` finds the model's method
        (``readRDS`` does not load them), e.g. ``["randomForest"]``.

    Examples
    --------
    >>> import numpy as np, pandas as pd, pyale
    >>> import rpy2.robjects as ro
    >>> from pyale.r import RModel
    >>> model = RModel(ro.r("lm(mpg ~ wt + hp, data = mtcars)"))
    >>> model
    RModel(class=['lm'], predict_args={})
    >>> cars = pd.DataFrame({"wt": np.linspace(2, 5, 20), "hp": np.linspace(60, 300, 20)})
    >>> pyale.ale(model, cars, "wt", n_intervals=4).effects[:, 0].round(3).tolist()
    [5.587, 3.138, 0.077, -2.985, -6.046]
    """

    def __init__(self, model, **predict_args):
        if isinstance(model, (str, Path)):
            path = Path(model)
            if not path.is_file():
                raise FileNotFoundError(f"No R model file at {str(path)!r}.")
            model = _ro.r["readRDS"](str(path))
        self.model = model
        self.packages = load_predict_packages(model)
        self.predict_args = predict_args
        self._predict = _ro.r["predict"]

    def __repr__(self) -> str:
        cls = list(_ro.r["class"](self.model))
        return f"RModel(class={cls!r}, predict_args={self.predict_args!r})"

    def predict(self, frame: pd.DataFrame):
        """R's ``predict(model, newdata = frame, ...)`` as a NumPy array or DataFrame.

        A matrix answer (e.g. class probabilities) becomes a DataFrame whose
        columns are R's column names.

        Parameters
        ----------
        frame : pandas.DataFrame
            The rows to predict, handed to R by :func:`to_r_dataframe`.

        Returns
        -------
        numpy.ndarray or pandas.DataFrame
            One number per row, or one column per output.
        """
        answer = self._predict(self.model, newdata=to_r_dataframe(frame), **self.predict_args)
        values = np.asarray(answer, dtype=float)
        dims = _ro.r["dim"](answer)
        if dims is not _ro.NULL and len(dims) == 2:
            values = values.reshape(int(dims[0]), int(dims[1]), order="F") if values.ndim == 1 else values
            names = _ro.r["colnames"](answer)
            columns = list(names) if names is not _ro.NULL else [str(i) for i in range(values.shape[1])]
            # R's rows are newdata's rows in order; a wrong count is the model caller's to report.
            index = frame.index if values.shape[0] == frame.shape[0] else None
            return pd.DataFrame(values, columns=columns, index=index)
        return values
