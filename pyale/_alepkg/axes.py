"""Each feature's ale type and bins, as core axes (plans under :data:`~pyale._core.conventions.alepkg.ALE_PACKAGE`).

``ale_axis`` decides a column's type as ``ale`` 0.5.0 does
(:func:`~pyale._alepkg.types.ale_var_type`) and builds the axis the
estimator core moves rows along: numeric ceilings with the minimum's own bin,
a binary feature's two values, a categorical feature's levels in ALEPlot's
order (with R's eigenvector sign, so that backward differences match R) or
an ordinal feature's levels as given.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from pandas.api import types as ptypes

from .._core.conventions.alepkg import ALE_PACKAGE, AleLevelAxis, AleNumericAxis, ale_numeric_bins
from .._core.features import missing_error, read_covariate, read_feature
from .._core.levels import Covariate, level_distances
from .._rbase import stable_order
from .._rbase.lapack import cmdscale_1d_reference
from .tables import r_ceiling_labels, r_level_labels
from .types import ale_var_type, binary_levels, numeric_bins

__all__ = ["AleAxisInfo", "ale_axis", "ale_level_order", "ale_covariate", "rebound_axis"]


@dataclass(frozen=True)
class AleAxisInfo:
    """A feature as ``ale`` sees it.

    Attributes
    ----------
    name : object
        The column.
    ale_type : str
        "numeric", "binary", "categorical" or "ordinal".
    axis : AleNumericAxis or AleLevelAxis
        What the estimator core moves rows along.
    bins : tuple
        Numeric: the ceilings (floats); otherwise the levels in ALE order.
    labels : tuple
        The bins as R prints them in ``get()`` tables (``as.character``).
    """

    name: object
    ale_type: str
    axis: object
    bins: tuple
    labels: tuple


def ale_covariate(series: pd.Series) -> Covariate:
    """Another column for the level distances, as ``ale``'s ``idxs_kolmogorov_smirnov`` reads it.

    ``is.numeric`` columns (integers, floats) by their values (Kolmogorov-Smirnov
    distance); any other column (logical, factor, character, dates) by its
    frequency table.
    """
    dtype = series.dtype
    if ptypes.is_numeric_dtype(dtype) and not ptypes.is_bool_dtype(dtype):
        return read_covariate(series)
    if isinstance(dtype, pd.CategoricalDtype) or ptypes.is_string_dtype(dtype) or ptypes.is_object_dtype(dtype):
        return read_covariate(series)
    codes, uniques = pd.factorize(series, sort=True, use_na_sentinel=True)
    return Covariate(series.name, True, np.asarray(codes, dtype=np.int64), len(uniques))


def ale_level_order(X: pd.DataFrame, name, codes: np.ndarray, n_levels: int) -> np.ndarray | None:
    """Level order of a categorical feature (indices into its levels), or None when all levels look alike.

    The distances of ALEPlot (summed over every other column of ``X``),
    classical MDS with R's eigenvector sign on a reference LAPACK, a stable sort.
    """
    covariates = [ale_covariate(X[c]) for c in X.columns if c != name]
    distances = level_distances(codes, n_levels, covariates)
    coordinate = cmdscale_1d_reference(distances)
    return None if coordinate is None else stable_order(coordinate)


def _level_codes(column: pd.Series, levels: list) -> np.ndarray:
    index = pd.Index(levels, dtype=object)
    return index.get_indexer(column.to_numpy(dtype=object)).astype(np.int64)


def ale_axis(X: pd.DataFrame, name, max_num_bins: int, *, caller: str = "ALE", fct_order: str = "ksd",
             response: np.ndarray | None = None) -> AleAxisInfo:
    """The ale axis of column ``name`` of ``X`` (``X`` without the response).

    ``fct_order`` orders an unordered categorical's levels (the development
    version's option, :meth:`~pyale._core.conventions.alepkg.AlePackageConvention.level_order`;
    ``"y_col"`` needs ``response``, the ``(rows, outputs)`` response values).

    Raises
    ------
    TypeError
        A column type ``ale`` has no ALE for (dates, complex numbers, mixed objects).
    ValueError
        A constant column or a single-level factor (R's ``ale`` returns NaN or
        fails there), or a categorical feature whose levels cannot be ordered.
    """
    column = X[name]
    if ptypes.is_datetime64_any_dtype(column.dtype) or ptypes.is_timedelta64_dtype(column.dtype):
        raise TypeError(f"Column {name!r} has dtype {column.dtype}; {caller} computes no ALE of dates or "
                        "durations. Convert it to numbers (e.g. days since a reference date) first.")
    missing = column.isna().to_numpy()
    if missing.any():  # R's ale refuses NA; a binary column's levels would silently drop those rows
        raise missing_error(f"Column {name!r}", int(missing.sum()), f"index {column.index[missing.argmax()]!r}")
    ale_type = ale_var_type(column)
    if ale_type == "numeric":
        values = read_feature(column, label=f"Column {name!r}").values
        if not values.min() < values.max():
            raise ValueError(f"Column {name!r} is constant ({float(values[0])!r}); its ALE is undefined "
                             "(R's ale returns NaN effects with warnings).")
        bins = numeric_bins(values, max_num_bins)
        axis = AleNumericAxis(name, bins.ceilings, known=(X, ale_numeric_bins(values, bins.ceilings)))
        ceilings = tuple(float(c) for c in bins.ceilings)
        return AleAxisInfo(name, ale_type, axis, ceilings, tuple(r_level_labels(list(ceilings))))
    if ale_type == "binary":
        if isinstance(column.dtype, pd.CategoricalDtype) or not (
                ptypes.is_numeric_dtype(column.dtype) or ptypes.is_bool_dtype(column.dtype)):
            feature = read_feature(column, label=f"Column {name!r}")
            levels, codes = list(feature.levels), feature.codes
        else:
            levels = binary_levels(column)
            if len(levels) < 2:  # a boolean column is binary whatever its values
                raise ValueError(f"Column {name!r} has a single value {levels[0]!r} in the data; its ALE is "
                                 "undefined.")
            codes = _level_codes(column, levels)
        axis = AleLevelAxis(name, tuple(levels), np.arange(2, dtype=np.int64), known=(X, codes), ale_type="binary")
        return AleAxisInfo(name, ale_type, axis, tuple(levels), tuple(r_level_labels(levels)))
    feature = read_feature(column, label=f"Column {name!r}")
    if len(feature.levels) < 2:
        raise ValueError(f"Column {name!r} has a single level {feature.levels[0]!r} in the data; its ALE is "
                         "undefined (R's ale fails with 'subscript out of bounds').")
    if ale_type == "ordinal":
        order = np.arange(len(feature.levels), dtype=np.int64)
    else:
        order = ALE_PACKAGE.level_order(
            fct_order, feature.codes, len(feature.levels), response=response,
            similarity=lambda: ale_level_order(X, name, feature.codes, len(feature.levels)))
        if order is None:
            raise ValueError(
                f"The levels of column {name!r} cannot be ordered: every other column is distributed alike "
                "within every level (R's ale fails here). Make it an ordered Categorical with the order "
                "wanted.")
    axis = AleLevelAxis(name, tuple(feature.levels), order, known=(X, feature.codes), ale_type=ale_type)
    levels = [feature.levels[i] for i in order]
    return AleAxisInfo(name, ale_type, axis, tuple(levels), tuple(r_level_labels(levels)))


def rebound_axis(X: pd.DataFrame, info: AleAxisInfo, *, r_ceilings: bool = False) -> AleAxisInfo:
    """``info``'s bins on other rows ``X`` (R's ``ALE(.bins = )``: a ``ModelBoot`` refit's ALE on its resample).

    The ceilings, levels and level order stay those of ``info`` (the full
    data's); only each row's bin is read again from ``X``.  A bin may then be
    empty.  ``r_ceilings``: the ceilings as R's ``ModelBoot`` hands them on,
    read back from the printed table (15 significant digits,
    :func:`~pyale._alepkg.tables.r_ceiling_labels`), so that a row at a ceiling
    may move to the next bin (R's bug, kept on request).
    """
    column = X[info.name]
    axis = info.axis
    if info.ale_type == "numeric":
        values = read_feature(column, label=f"Column {info.name!r}").values
        if r_ceilings:
            ceilings = np.unique(r_ceiling_labels(axis.ceilings))
            bins = _r_cut_bins(values, ceilings)
            # R's prep_var_for_ale: cut(x, ceilings, include.lowest = TRUE), rows outside left out
            interval = np.searchsorted(ceilings, values, side="left")
            interval[values == ceilings[0]] = 1
            inside = (interval >= 1) & (interval < ceilings.shape[0])
            centring = np.bincount(interval[inside] - 1, minlength=ceilings.shape[0] - 1).astype(float)
        else:
            ceilings, bins = axis.ceilings, ale_numeric_bins(values, axis.ceilings)
            centring = None
        new_axis = AleNumericAxis(info.name, ceilings, known=(X, bins), centring_counts=centring)
    else:
        codes = _level_codes(column, list(axis.levels))
        new_axis = AleLevelAxis(info.name, axis.levels, axis.order, known=(X, codes), ale_type=info.ale_type)
    return AleAxisInfo(info.name, info.ale_type, new_axis, info.bins, info.labels)


def _r_cut_bins(values: np.ndarray, ceilings: np.ndarray) -> np.ndarray:
    """Each row's bin as R's ``calc_ale`` cuts it: ``(c[0] - 1, c[0]]``, then ``(c[k-1], c[k]]``, the last up to
    ``c[-1] + 1e-8``; -1 outside.  Differs from :func:`ale_numeric_bins` only for ceilings that are not data
    values (R's rounded ceilings)."""
    edges = np.concatenate([[ceilings[0] - 1], ceilings[:-1], [ceilings[-1] + 1e-8]])
    index = np.searchsorted(edges, values, side="left")
    return np.where((index >= 1) & (index < edges.shape[0]), index - 1, -1).astype(np.int64)
