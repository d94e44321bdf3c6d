"""iml's classes on a Dask, Spark or polars lazy frame.

``Predictor(data=ddf)`` keeps the frame and an
:class:`~pyale._core.engine_grid.EngineData` of its features;
``FeatureEffect`` then computes ALE and partial dependence
(``method="pdp"``) through :mod:`.run`, the same code as for pandas.  What
is left here is the Predictor's side: the target column taken out of the
features, and each column's kind.
"""

from __future__ import annotations

from .._core.engine_grid import EngineData, open_engine
from .._engines import as_engine, drop_column, engine_name, is_engine_frame
from .._engines.columns import dtype_kind

__all__ = ["engine_predictor_data", "engine_kinds", "is_engine_frame"]

_CALLER = "FeatureEffect"


def engine_predictor_data(data, y, *, caller: str):
    """``(features frame, EngineData, y)``: the target column (a name) taken out of the features."""
    if y is not None and not isinstance(y, str):
        raise TypeError(
            f"The 'y' parameter of {caller} must be a column name when data is a {engine_name(data)} "
            f"(values cannot be aligned with its partitions). Got {type(y).__name__} instead."
        )
    columns = list(as_engine(data).columns)
    if y is not None:
        if y not in columns:
            raise ValueError(
                f"The 'y' parameter of {caller} must name a column of data. Got {y!r}; the "
                f"columns are {columns!r}."
            )
        data = drop_column(data, y)
    return data, open_engine(data, caller=caller, param="data"), y


def engine_kinds(data: EngineData) -> dict:
    """Each column's kind (an ``object`` column's from one pass over its values)."""
    kinds = {name: dtype_kind(data.engine.dtypes[name]) for name in data.columns}
    undecided = [name for name, kind in kinds.items() if kind is None]
    if undecided:
        kinds.update({name: check.kind for name, check in data.checks(undecided).items()})
    return kinds
