"""``Predictor``: iml's wrapper of a model and the data it is explained on."""

from __future__ import annotations

import functools
import numbers
from typing import Callable, Sequence

import numpy as np
import pandas as pd
from pandas.api import types as ptypes

from ..._core.map.adapters import feeder
from ..._core.map.calls import ModelCaller, real_numbers
from ..._core.grid.features import column_kind
from ..._inputs.checks import check_frame, check_int
from ..._inputs.frames import as_pandas
from .engine import engine_kinds, engine_predictor_data, is_engine_frame

__all__ = ["Predictor"]

_CALLER = "Predictor"
_SINGLE_OUTPUT = "..prediction"


def _feature_type(series: pd.Series) -> str:
    """iml's feature type of a column: 'numerical', 'integer' or 'categorical'."""
    return _type_of(series.name, column_kind(series), series.dtype)


def _type_of(name, kind: str, dtype) -> str:
    if kind == "numeric":
        return "integer" if ptypes.is_integer_dtype(dtype) else "numerical"
    if kind == "categorical":
        return "categorical"
    raise TypeError(
        f"The 'data' parameter of {_CALLER} has column {name!r} of dtype {dtype}; "
        "iml accepts numeric, integer, categorical and string columns only "
        "(convert booleans with .astype(int) or .astype('category'))."
    )


def _one_hot(labels: np.ndarray, classes: list) -> pd.DataFrame:
    """Class labels as 0/1 columns, one per class (iml's ``factor_to_dataframe``)."""
    position = {label: i for i, label in enumerate(classes)}
    try:
        codes = np.array([position[label] for label in labels.tolist()], dtype=np.int64)
    except KeyError as exc:
        raise ValueError(f"the model predicted label {exc.args[0]!r}, which is not among {classes!r}") from exc
    table = np.zeros((labels.shape[0], len(classes)))
    table[np.arange(labels.shape[0]), codes] = 1.0
    return pd.DataFrame(table, columns=[str(c) for c in classes])


def _as_prediction_frame(raw: object, model: object, *, without_model: bool = False) -> pd.DataFrame:
    """A model answer, its rows already in newdata's order, as a frame with named columns.

    Column names follow iml's ``sanitizePrediction``: a vector becomes
    ``..prediction``; an unnamed matrix ``..prediction.1``, ``..prediction.2``, ...
    Without a model (``without_model``) iml uses ``data.frame(pred, check.names =
    FALSE)`` instead: ``pred``, and ``1``, ``2``, ... for an unnamed matrix.
    Class labels (strings, booleans or a Categorical) become one 0/1 column per
    class; real numbers in an ``object`` array are numbers.
    The row labels do not matter here: :class:`~pyale._core.map.calls.ModelCaller`
    has put the rows in newdata's order before (``rows_in_order``).
    """
    if isinstance(raw, pd.DataFrame):
        if raw.shape[1] == 1 and not ptypes.is_numeric_dtype(raw.dtypes.iloc[0]) and not (
                raw.dtypes.iloc[0] == object and real_numbers(raw.iloc[:, 0].to_numpy()) is not None):
            raw = raw.iloc[:, 0]  # class labels (numbers in an object column keep the column's name)
        else:
            return raw.set_axis([str(c) for c in raw.columns], axis=1)
    if isinstance(raw, pd.Series) and isinstance(raw.dtype, pd.CategoricalDtype):
        return _one_hot(raw.to_numpy(dtype=object), list(raw.dtype.categories))
    values = np.asarray(raw)
    if values.ndim > 2 or values.ndim == 2 and values.shape[1] == 0:
        return values  # refused by the model caller's checks (no silent first column of a 3-D answer)
    if values.dtype == object and (numeric := real_numbers(values)) is not None:
        values = numeric  # numbers, as R's numeric vector (not one class per distinct value)
    if values.dtype.kind in "OUSb" and values.ndim == 1:
        classes = getattr(model, "classes_", None)
        if classes is None and values.dtype.kind == "b":
            classes = [False, True]  # always both, whichever rows a call holds (a partition, a few rows)
        if classes is None:
            classes = sorted(set(values.tolist()), key=str)
            frame = _one_hot(values, classes)
            frame.attrs["pyale_labels_seen"] = True  # classes read off this call's answer only
            return frame
        return _one_hot(values, list(np.asarray(classes).tolist()))
    if values.ndim == 2 and values.shape[1] > 1:
        prefix = "" if without_model else f"{_SINGLE_OUTPUT}."
        return pd.DataFrame(values, columns=[f"{prefix}{i + 1}" for i in range(values.shape[1])])
    name = "pred" if without_model else _SINGLE_OUTPUT
    # No copy here: the model caller copies what it keeps.  The one-column frame is built from a
    # 2-D view, its column index copied from one made once: inferring a string index per call
    # (pandas 3) took longer than the rest of the frame.  A copy, so that no frame shares it.
    column = values.reshape(values.shape[0], -1)[:, :1]
    return pd.DataFrame(column, columns=_one_column(name).copy(), copy=False)


@functools.lru_cache(maxsize=4)
def _one_column(name: str) -> pd.Index:
    return pd.Index([name], dtype=object)


def _prediction_function(model, predict_function, type_, native=None) -> tuple[Callable, Callable]:
    """iml's ``create_predict_fun``: which call answers ``newdata``, and how its answer is read.

    Returns ``(predict, convert)``: ``predict(newdata)`` is the model's own
    answer, which :class:`~pyale._core.map.calls.ModelCaller` puts in newdata's
    row order before ``convert`` names its columns.  ``predict_function`` is
    handed ``newdata`` of the type the user passed as data (``native``); a
    model is handed what :func:`~pyale._core.map.adapters.feeder` says (a
    scikit-learn model what it was fitted on).
    """
    if predict_function is not None:
        convert = None if native is None else native.convert
        if convert is not None:
            user_function = predict_function

            def predict_function(*args):
                return user_function(*args[:-1], convert(args[-1]))

        if model is None:
            return predict_function, lambda raw: _as_prediction_frame(raw, None, without_model=True)
        return (lambda newdata: predict_function(model, newdata)), lambda raw: _as_prediction_frame(raw, model)
    convert = lambda raw: _as_prediction_frame(raw, model)  # noqa: E731
    if type(model).__module__.startswith("rpy2."):
        from ...r import RModel

        r_model = RModel(model) if type_ is None else RModel(model, type=type_)
        return r_model.predict, lambda raw: _as_prediction_frame(raw, None)
    feed = feeder(model, native) or (lambda newdata: newdata)
    if type_ == "prob":
        if not hasattr(model, "predict_proba"):
            raise TypeError(
                f"The 'type' parameter of {_CALLER} is 'prob' but {type(model).__name__} has no "
                "predict_proba method; pass predict_function= instead."
            )
        classes = getattr(model, "classes_", None)
        if classes is None:
            return (lambda newdata: model.predict_proba(feed(newdata))), convert
        names = [str(c) for c in np.asarray(classes).tolist()]
        return (lambda newdata: model.predict_proba(feed(newdata))), (
            lambda raw: pd.DataFrame(np.asarray(raw), columns=names))
    if not hasattr(model, "predict"):
        raise TypeError(
            f"The 'model' parameter of {_CALLER} must have a predict method, or pass "
            f"predict_function=. Got {type(model).__name__} instead."
        )
    if type_ is None:
        return (lambda newdata: model.predict(feed(newdata))), convert
    return (lambda newdata: model.predict(feed(newdata), type=type_)), convert


class _BoundedOutputs:
    """``predict(frame, purpose)`` through a predictor, at most ``max_rows`` rows per model call.

    The estimator core reads ``max_rows`` to build shifted copies one block
    of rows at a time.  It holds the predictor's model caller, feature names
    and class, not its data, so it travels to an engine's workers light.
    """

    def __init__(self, predictor: "Predictor", max_rows: int | None):
        self._caller, self._names, self._class = predictor._caller, predictor.feature_names, predictor.class_
        self.max_rows = max_rows

    def __call__(self, frame: pd.DataFrame, purpose: str, *, private: bool = False) -> np.ndarray:
        return _outputs(self._caller, self._names, self._class, frame, purpose, max_rows=self.max_rows,
                        private=private)


def _outputs(caller: ModelCaller, feature_names: list, class_, frame: pd.DataFrame, purpose: str, *,
             max_rows: int | None = None, private: bool = False) -> np.ndarray:
    """Predictions as a float array ``(n, n_outputs)`` after class selection.

    ``max_rows`` bounds the rows per model call (whole frames by default);
    ``private`` is passed on to :class:`~pyale._core.map.calls.ModelCaller`.
    """
    if list(frame.columns) != feature_names:
        frame = frame[feature_names]
    y = caller(frame, purpose, max_rows=max_rows, private=private)
    names = caller.output_names
    if class_ is not None and len(names) > 1:
        if class_ not in names:
            raise ValueError(
                f"The 'class_' parameter of {_CALLER} must name one of the model's outputs "
                f"{names!r}. Got {class_!r} instead."
            )
        y = y[:, [names.index(class_)]]
    return y


class Predictor:
    """A model and the data to explain it on, as iml's ``Predictor$new``.

    Parameters
    ----------
    model : object, optional
        The fitted model: anything with ``predict`` (scikit-learn, a
        statsmodels results object), an R model through rpy2, or ``None``
        when ``predict_function`` does everything.
    data : pandas.DataFrame, polars.DataFrame or LazyFrame, pyarrow.Table, numpy.ndarray, or a Dask or Spark DataFrame
        The data (iml's ``data``); never modified.  A Dask or Spark
        DataFrame is computed on partition by partition, a polars LazyFrame
        in streaming batches, with pandas'
        numbers (ALE and ``method="pdp"``; ICE is refused there).  A ``predict_function``
        receives ``newdata`` of the same type (pandas inside); a scikit-learn
        model what it was fitted on.  Float columns are iml's
        "numerical", integer columns "integer" (grids are rounded), pandas
        Categorical and string columns "categorical" (an ordered Categorical
        keeps its order in ALE).
    predict_function : callable, optional
        ``predict_function(model, newdata)``, or ``predict_function(newdata)``
        when ``model`` is None (iml's ``predict.function``).  It may return a
        vector, a 2-D array, a DataFrame (its column names name the outputs)
        or class labels (turned into one 0/1 column per class).
    y : str or array-like, optional
        The target: a column name of ``data`` (removed from the features) or
        the values themselves (a column name for a Dask, Spark or polars lazy ``data``,
        which ``y`` then holds).
    class_ : str, optional
        Keep only this output column (iml's ``class``).
    type : str, optional
        ``"prob"`` calls ``model.predict_proba`` (outputs named by
        ``model.classes_``); any other value is passed as ``predict(newdata,
        type=type)`` as R does.  Ignored with ``predict_function``.
    batch_size : int, default 1000
        At most this many rows per model call for partial dependence and ICE
        (iml's ``batch.size``).  Like iml, ALE ignores it and sends whole
        frames; ``FeatureEffect(..., max_rows_per_call=)`` caps those.
    feature_names : sequence, optional
        Keyword only: column names of a NumPy ``data`` (``x0``, ``x1``, ...
        by default).

    Attributes
    ----------
    data : pandas.DataFrame
        The features (``data`` without the target column).
    feature_names : list
        Their labels.
    feature_types : dict
        Label -> ``"numerical"``, ``"integer"`` or ``"categorical"``.
    y, y_names
        The target and its name (None when not given).

    Notes
    -----
    iml 0.11.4 refuses data with a single feature; pyale accepts it.

    References
    ----------
    Molnar, C., Casalicchio, G. and Bischl, B. (2018). iml: An R package for
    interpretable machine learning. *Journal of Open Source Software* 3(26),
    786.  R package iml 0.11.4.

    Examples
    --------
    >>> import pandas as pd
    >>> X = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": [0.5, 0.5, 1.0]})
    >>> p = Predictor(predict_function=lambda newdata: newdata["a"] * newdata["b"], data=X)
    >>> p.predict(X)["pred"].tolist()
    [0.5, 1.0, 3.0]
    """

    def __init__(
        self,
        model: object = None,
        data: pd.DataFrame | None = None,
        predict_function: Callable | None = None,
        y: object = None,
        class_: str | None = None,
        type: str | None = None,
        batch_size: int = 1000,
        *,
        feature_names: Sequence | None = None,
    ):
        if model is None and predict_function is None:
            raise ValueError(f"{_CALLER} needs a model, a predict_function, or both.")
        if predict_function is not None and not callable(predict_function):
            raise TypeError(
                f"The 'predict_function' parameter of {_CALLER} must be callable. "
                f"Got {type_name(predict_function)} instead."
            )
        if data is None:
            raise ValueError(
                f"The 'data' parameter of {_CALLER} is required: pyale cannot extract the data "
                "from a model, pass data=."
            )
        data, native = as_pandas(data, param="data", caller=_CALLER, feature_names=feature_names)
        self.engine = None  # Dask, Spark or polars lazy data: see pyale._frontends.iml.engine
        if is_engine_frame(data):
            data, self.engine, y = engine_predictor_data(data, y, caller=_CALLER)
        else:
            check_frame(data, param="data", caller=_CALLER)
        self.batch_size = check_int(batch_size, param="batch_size", caller=_CALLER, minimum=1)
        if class_ is not None and not isinstance(class_, (str, numbers.Integral)):
            raise TypeError(
                f"The 'class_' parameter of {_CALLER} must be an output name (str). Got {class_!r} instead."
            )
        self.model = model
        self.class_ = None if class_ is None else str(class_)
        self.type = type
        self.y, self.y_names = None, None
        features = data
        if self.engine is not None:
            self.y, self.y_names = (None, None) if y is None else (y, [y])
        elif isinstance(y, str):
            if y not in data.columns:
                raise ValueError(
                    f"The 'y' parameter of {_CALLER} must name a column of data. Got {y!r}; the "
                    f"columns are {list(data.columns)!r}."
                )
            self.y, self.y_names = data[y], [y]
            features = data.drop(columns=[y])
        elif y is not None:
            values = np.asarray(y)
            if values.ndim != 1 or values.shape[0] != data.shape[0]:
                raise ValueError(
                    f"The 'y' parameter of {_CALLER} must be a column name or one value per row of "
                    f"data ({data.shape[0]}). Got shape {values.shape} instead."
                )
            self.y, self.y_names = pd.Series(values, name=".y"), [".y"]
        names = list(features.columns) if self.engine is None else list(self.engine.columns)
        if len(names) == 0:
            raise ValueError(f"The 'data' parameter of {_CALLER} has no feature besides the target.")
        self.data = features
        self.feature_names = names
        if self.engine is not None:
            kinds = engine_kinds(self.engine)
            self.feature_types = {name: _type_of(name, kinds[name], self.engine.engine.dtypes[name])
                                  for name in self.feature_names}
        else:
            self.feature_types = {name: _feature_type(features[name]) for name in self.feature_names}
        predict, convert = _prediction_function(model, predict_function, type, native)
        self._caller = ModelCaller(
            predict, name="predict_function" if predict_function is not None else
            f"{type_name(model)}.predict", single_output=False, convert=convert,
        )

    @property
    def output_names(self) -> list | None:
        """Names of the outputs after ``class_`` is applied (known after the first prediction)."""
        names = self._caller.output_names
        if names is None or self.class_ is None or len(names) == 1:
            return names
        return [self.class_]

    def _outputs(
        self, frame: pd.DataFrame, purpose: str, *, max_rows: int | None = None, private: bool = False
    ) -> np.ndarray:
        """Predictions as a float array ``(n, n_outputs)`` after class selection.

        ``max_rows`` bounds the rows per model call (whole frames by default);
        ``private`` is passed on to :class:`~pyale._core.map.calls.ModelCaller`.
        """
        return _outputs(self._caller, self.feature_names, self.class_, frame, purpose, max_rows=max_rows,
                        private=private)

    def _bounded(self, max_rows: int | None) -> _BoundedOutputs:
        return _BoundedOutputs(self, max_rows)

    def predict(self, newdata: pd.DataFrame) -> pd.DataFrame:
        """Predictions for ``newdata`` (its feature columns), one column per output.

        Parameters
        ----------
        newdata : pandas.DataFrame, polars.DataFrame, pyarrow.Table or numpy.ndarray
            Rows holding (at least) the predictor's feature columns.

        Returns
        -------
        pandas.DataFrame
            One column per model output (iml's ``predictor$predict``).
        """
        newdata, _ = as_pandas(newdata, param="newdata", caller="Predictor.predict")
        check_frame(newdata, param="newdata", caller="Predictor.predict")
        missing = [c for c in self.feature_names if c not in newdata.columns]
        if missing:
            raise ValueError(f"The 'newdata' parameter of Predictor.predict lacks columns {missing!r}.")
        y = self._outputs(newdata, "Predictor.predict")
        return pd.DataFrame(y, columns=self.output_names)

    def __repr__(self) -> str:
        return (
            f"Predictor(model={type_name(self.model)}, features={self.feature_names!r}, "
            f"class_={self.class_!r}, batch_size={self.batch_size})"
        )


def type_name(value: object) -> str:
    return type(value).__name__
