"""``FeatureEffect`` and ``FeatureEffects``: iml 0.11.4's classes with its ``results``."""

from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Hashable
from typing import Sequence

import numpy as np
import pandas as pd

from ..._results import present as _present
from ..progress import check_progress, feature_progress
from ..._core.run.frame_grid import FrameData
from .tables import check_feature_names
from .predictor import Predictor
from .run import ale_run, pd_run, read_features
from ..._inputs.checks import check_int, check_numbers
from .checks import (
    check_center_at,
    check_feature_list,
    check_grid_size,
    check_method,
    check_predictor,
    is_label,
    level_list,
    resolve_features,
)
from ..._core.grid.bounds import check_pd_points, pd_point_limit

__all__ = ["FeatureEffect", "FeatureEffects"]

_CALLER = "FeatureEffect"


def _check_replicate(replicate_r_bugs, caller: str, predictor, method) -> bool:
    if not isinstance(replicate_r_bugs, (bool, np.bool_)):
        raise TypeError(f"The 'replicate_r_bugs' parameter of {caller} must be True or False. "
                        f"Got {replicate_r_bugs!r} instead.")
    if replicate_r_bugs and getattr(predictor, "engine", None) is not None:
        raise ValueError(f"The 'replicate_r_bugs' parameter of {caller} needs the predictor's data as a pandas "
                         "DataFrame (iml's numbers are reproduced on in-memory data only).")
    return bool(replicate_r_bugs)


class FeatureEffect:
    """Accumulated local effects, partial dependence or ICE curves, as iml's ``FeatureEffect$new``.

    Parameters
    ----------
    predictor : Predictor
        The model and data.
    feature : str, int, or pair of them
        Feature name or **0-based** position among the predictor's features
        (iml's are 1-based); a pair for a two-feature effect.
    method : {"ale", "pdp", "ice", "pdp+ice"}, default "ale"
    center_at : float or level, optional
        PDP/ICE: subtract each curve's value at this point (added to the
        grid when missing; a point outside the data is evaluated there, as
        iml does).  Must be finite (NaN and infinities are refused, as iml
        refuses ``NA``).  Ignored, with a warning, for ALE and pairs.
    grid_size : int or pair of int, default 20
        ALE: number of quantile intervals; PDP/ICE: number of equally spaced
        grid points (iml's ``grid.size``).  NumPy integers and whole floats
        are accepted; fractions are refused (iml rounds ``length.out`` up).
        ALE accepts any size (beyond the data every distinct value is an
        edge, as in iml); a pair's grid may have at most ``max(rows, 2**22)``
        cells and a PDP/ICE grid at most ``max(4096, 2**24 // rows)`` points
        (see ``docs/deviations.md``).
    grid_points : sequence, or pair of sequences, optional
        User grid (iml's ``grid.points``); ALE intervals need not cover the
        data: rows outside are left out with a warning.
    max_rows_per_call : int, optional
        ALE only (keyword): at most this many rows per model call, with the
        shifted copies of the data built one block of rows at a time, which
        caps memory.  By default ALE sends each shifted copy whole, as iml
        does (iml ignores ``batch.size`` for ALE); partial dependence and
        ICE are batched by the predictor's ``batch_size``.
    replicate_r_bugs : bool, default False
        ALE of one feature (keyword): give iml 0.11.4's numbers where it
        returns wrong ones rather than failing (``docs/deviations.md``): a
        ``grid_points`` interval without rows (iml drops it, pairs the curve
        with the grid by position and loses the last grid points) and a
        categorical feature with unused categories (iml centres with the
        shares of other levels).  Rows outside ``grid_points`` are then refused
        (iml evaluates the model at ``NA`` for them); pandas data only.  The
        default gives the correct numbers.

    Attributes
    ----------
    results : pandas.DataFrame
        iml's ``results``: the same columns, column order, row order and types.
    feature_name : str or tuple
    feature_type : str or tuple
        ``"numerical"``, ``"integer"`` or ``"categorical"``.
    n_features : int
    grid_size : tuple
    method : str
    center_at : object

    Notes
    -----
    ALE of a numeric feature uses ``quantile(x, seq(0, 1, length.out =
    grid.size + 1), type = 1)`` without repeats (rounded first for an
    integer column); a categorical feature's levels are ordered by the
    similarity of the other features (kept for an ordered Categorical).  PDP
    grids are ``seq(min, max, length.out = grid.size)`` (rounded for
    integers, repeats kept) or the values in order of appearance.  Where iml
    fails or misaligns, pyale answers instead: see ``docs/deviations.md``.

    References
    ----------
    Apley, D. W. and Zhu, J. (2020). Visualizing the effects of predictor
    variables in black box supervised learning models. JRSS B 82(4).
    Molnar, C., Casalicchio, G. and Bischl, B. (2018). iml: An R package for
    Interpretable Machine Learning. JOSS 3(26).  iml 0.11.4.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> X = pd.DataFrame({"a": np.arange(10.0), "b": np.ones(10)})
    >>> p = Predictor(predict_function=lambda newdata: 2 * newdata["a"], data=X)
    >>> res = FeatureEffect(p, "a", grid_size=3).results
    >>> res["a"].tolist(), res[".value"].round(6).tolist()
    ([0.0, 3.0, 6.0, 9.0], [-8.4, -2.4, 3.6, 9.6])
    """

    def __init__(
        self,
        predictor: Predictor,
        feature: object,
        method: str = "ale",
        center_at: object = None,
        grid_size: int | Sequence[int] = 20,
        grid_points: Sequence | None = None,
        *,
        max_rows_per_call: int | None = None,
        replicate_r_bugs: bool = False,
    ):
        self.predictor = check_predictor(predictor, _CALLER)
        self.replicate_r_bugs = _check_replicate(replicate_r_bugs, _CALLER, predictor, method)
        if max_rows_per_call is not None:
            max_rows_per_call = check_int(max_rows_per_call, param="max_rows_per_call", caller=_CALLER, minimum=1)
        self.max_rows_per_call = max_rows_per_call
        self.method = check_method(method, _CALLER)
        self._grid_size_given = grid_size
        names = resolve_features(predictor, feature)
        check_feature_names(names, self.method, _CALLER)
        self.n_features = len(names)
        self.grid_size = check_grid_size(grid_size, self.n_features)
        center_at = check_center_at(center_at)
        if center_at is not None and (method == "ale" or self.n_features == 2):
            where = "ALE" if method == "ale" else "two features"
            warnings.warn(
                f"The 'center_at' parameter of {_CALLER} is ignored for {where}, as iml ignores it.",
                UserWarning,
                stacklevel=2,
            )
            center_at = None
        if self.n_features == 2 and method in ("ice", "pdp+ice"):
            raise ValueError(f"{_CALLER} does not compute ICE curves for two features (iml neither).")
        self.center_at = center_at
        self.feature_name = names[0] if self.n_features == 1 else names
        # The rows as the grid stage sees them: a pandas frame's, or a Dask, Spark or polars lazy frame's
        self._rows = predictor.engine if predictor.engine is not None else FrameData(predictor.data, caller=_CALLER)
        self._features = read_features(self._rows, names)
        self.feature_type = (
            predictor.feature_types[names[0]] if self.n_features == 1
            else tuple(predictor.feature_types[n] for n in names)
        )
        self.grid_points = self._check_grid_points(grid_points)
        if self.center_at is not None:
            f = self._features[0]
            if f.categorical and self.center_at not in f.levels:
                raise ValueError(
                    f"The 'center_at' parameter of {_CALLER} must be a level of feature {f.name!r} "
                    f"({list(f.levels)!r}). Got {self.center_at!r} instead."
                )
            if not f.categorical and not isinstance(self.center_at, numbers.Real):
                raise TypeError(
                    f"The 'center_at' parameter of {_CALLER} must be a number for numeric feature "
                    f"{f.name!r}. Got {self.center_at!r} instead."
                )
        self.effect = None
        self.results = self._run()

    def _check_grid_points(self, grid_points):
        if grid_points is None:
            return None
        if self.n_features == 1:
            points = [grid_points]
        else:
            points = list(grid_points) if isinstance(grid_points, (list, tuple)) else [grid_points]
            if len(points) != 2:
                raise ValueError(
                    f"The 'grid_points' parameter of {_CALLER} must hold one sequence per feature "
                    f"for a pair. Got {len(points)} instead."
                )
        checked = []
        for f, p in zip(self._features, points):
            if f.categorical:
                checked.append(level_list(p, f))
                continue
            array = check_numbers(p, param="grid_points", caller=_CALLER, where=f"feature {f.name!r}")
            if array.shape[0] < 2 and self.method == "ale" or not np.all(np.isfinite(array)):
                raise ValueError(
                    f"The 'grid_points' parameter of {_CALLER} must hold at least two finite values "
                    f"for feature {f.name!r}. Got {p!r} instead."
                )
            if self.method == "ale" and np.unique(array).shape[0] < 2:
                raise ValueError(
                    f"The 'grid_points' parameter of {_CALLER} must hold at least two distinct "
                    f"values for feature {f.name!r}. Got {p!r} instead."
                )
            checked.append(array)
        return checked[0] if self.n_features == 1 else checked

    def _check_pd_size(self, user) -> None:
        """Refuse a PDP/ICE grid from ``grid_size`` that asks the model about too many rows."""
        if all(points is not None or f.categorical for f, points in zip(self._features, user)):
            return  # sized by the user's own grid points and the data's levels
        shape = tuple(
            len(dict.fromkeys(np.asarray(points).tolist())) if points is not None
            else len(f.levels) if f.categorical else size
            for f, size, points in zip(self._features, self.grid_size, user)
        )
        engine = self.predictor.engine
        n_rows = self.predictor.data.shape[0] if engine is None else engine.n_rows
        others = int(np.prod([size for size, points, f in zip(shape, user, self._features)
                              if points is not None or f.categorical]))
        fixed = len(shape) - sum(points is not None or f.categorical for points, f in zip(user, self._features))
        largest = pd_point_limit(n_rows) // others
        largest = math.isqrt(largest) if fixed == 2 else largest
        check_pd_points(
            n_rows, shape, param="grid_size", caller=_CALLER, value=self._grid_size_given,
            advice=f"Use grid_size <= {max(1, largest):,}, or pass grid_points= with the values wanted.",
        )

    def _outputs_of(self):
        return self.predictor.output_names

    def _run(self) -> pd.DataFrame:
        """iml's ``results`` (and ``self.effect`` for ALE), through :mod:`.run` for any kind of rows."""
        if self.method == "ale":
            return ale_run(self, self._rows)
        return pd_run(self, self._rows)

    def predict(self, data, extrapolate: bool = False) -> np.ndarray:
        """The effect curve at given feature values (iml's ``$predict``).

        Parameters
        ----------
        data : pandas.DataFrame or array-like
            A frame holding the feature, or the feature values.
        extrapolate : bool, default False
            Numeric feature: outside the grid, return NaN (False) or the
            nearest end value (True).

        Returns
        -------
        numpy.ndarray
            Linear interpolation of the ALE/PDP curve (numeric feature), or
            the value of each level (categorical; NaN for unknown levels).
        """
        if not isinstance(extrapolate, (bool, np.bool_)):
            raise TypeError(f"The 'extrapolate' parameter of FeatureEffect.predict must be a bool. Got {extrapolate!r} instead.")
        if self.n_features == 2:
            raise ValueError("FeatureEffect.predict works for a single feature only (iml too).")
        if ".class" in self.results.columns:
            raise ValueError("FeatureEffect.predict works for a single model output only (iml too); use class_= in Predictor.")
        if self.method == "ice":
            raise ValueError("FeatureEffect.predict needs an ALE or PDP curve; method 'ice' has none.")
        name = self.feature_name
        if isinstance(data, pd.DataFrame):
            if name not in data.columns:
                raise ValueError(
                    f"The 'data' parameter of FeatureEffect.predict must hold the feature column {name!r}. "
                    f"Got a frame with columns {list(data.columns)!r}."
                )
            values = data[name]
        elif data is None or isinstance(data, (dict, set)):
            raise TypeError(
                "The 'data' parameter of FeatureEffect.predict must be a DataFrame holding the feature or "
                f"the feature's values. Got {data!r} instead."
            )
        else:
            values = data
        curve = self.results[self.results[".type"].isin(["ale", "pdp"])]
        if self._features[0].categorical:
            lookup = dict(zip(curve[name].astype(object), curve[".value"]))
            items = list(values) if isinstance(values, (list, tuple, np.ndarray, pd.Series, pd.Index, pd.Categorical)) else [values]
            return np.array([lookup.get(v, np.nan) if isinstance(v, Hashable) else np.nan for v in items], dtype=float)
        x = check_numbers(values, param="data", caller="FeatureEffect.predict", where=f"feature {name!r}")
        grid = curve[name].to_numpy(dtype=float)
        order = np.argsort(grid, kind="stable")
        out = np.interp(x, grid[order], curve[".value"].to_numpy(dtype=float)[order])
        if not extrapolate:
            out = np.where((x < grid.min()) | (x > grid.max()), np.nan, out)
        return out

    def set_feature(self, feature: object) -> None:
        """Compute the same effect for another feature or pair (iml's ``$set.feature``).

        Method, ``center_at`` and the ``grid_size`` first given are kept and
        ``results`` is recomputed; ``grid_points`` belong to the old feature
        and are dropped.

        Parameters
        ----------
        feature : str, int, or list of two of them
            The new feature (name or 0-based position) or pair.
        """
        self.__init__(self.predictor, feature, method=self.method, center_at=self.center_at,
                      grid_size=self._grid_size_given, max_rows_per_call=self.max_rows_per_call,
                      replicate_r_bugs=self.replicate_r_bugs)

    def center(self, center_at: object) -> None:
        """Centre PDP/ICE curves at another value and recompute (iml's ``$center``).

        As iml, this does nothing but warn for ALE; ``center_at=None``
        removes the centring.

        Parameters
        ----------
        center_at : float or None
            The feature value at which the curves are 0, or None.
        """
        if self.method == "ale":
            warnings.warn("Centering only works for PDPs and ICE, not for ALE (iml: the same warning).",
                          UserWarning, stacklevel=2)
            return
        self.__init__(self.predictor, self.feature_name, method=self.method, center_at=center_at,
                      grid_size=self._grid_size_given, grid_points=self.grid_points,
                      max_rows_per_call=self.max_rows_per_call, replicate_r_bugs=self.replicate_r_bugs)

    def plot(self, ax=None, *, rug: bool = True, show_data: bool = False, ylim=None):
        """Draw the effect as iml's ``plot()``.

        Parameters
        ----------
        ax : matplotlib Axes or array of Axes, optional
            Where to draw (one per output); a new figure by default.
        rug, show_data : bool, default True, False
            Mark the data values on the x axis; draw the data (iml's ``show.data``).
        ylim : tuple, optional
            Limits of the y axis.

        Returns
        -------
        FeatureEffectDisplay
            With ``figure_``, ``axes_`` and the drawn ``artists_``.
        """
        display = _present.display_class("FeatureEffectDisplay")(self)
        return display.plot(ax=ax, rug=rug, show_data=show_data, ylim=ylim)

    def _facts(self) -> dict:
        values = self.results[".ale" if ".ale" in self.results.columns else ".value"]
        outputs = (list(self.results[".class"].cat.categories) if ".class" in self.results.columns
                   else self.predictor.output_names)
        return {
            "feature": repr(self.feature_name), "method": repr(self.method), "grid_size": repr(self.grid_size),
            "rows": str(self.results.shape[0]), "value range": _present._range(values),
            "outputs": ", ".join(map(str, outputs or [])),
        }

    def __repr__(self) -> str:
        return "FeatureEffect(" + ", ".join(f"{k}={v}" for k, v in self._facts().items()) + ")"

    def _repr_html_(self) -> str:
        return _present.html_view("FeatureEffect", self._facts(), lambda ax: self.plot(ax=ax))

    def equals(self, other: object, *, rtol: float = 0.0, atol: float = 0.0) -> bool:
        """Whether ``other`` is a FeatureEffect of the same feature and method with equal ``results``.

        Floating columns compare within ``rtol``/``atol`` (exactly by
        default), all other columns exactly.  ``==`` is identity.

        Parameters
        ----------
        other : object
        rtol, atol : float, default 0.0
            Relative and absolute tolerance for floating columns.

        Returns
        -------
        bool
        """
        return (
            isinstance(other, FeatureEffect) and other.feature_name == self.feature_name
            and other.method == self.method
            and _present.frames_equal(self.results, other.results, rtol=rtol, atol=atol)
        )


class FeatureEffects:
    """Effects of many features at once, as iml's ``FeatureEffects$new``.

    Parameters
    ----------
    predictor : Predictor
    features : list, optional
        Feature names (all features by default).
    method : {"ale", "pdp", "ice", "pdp+ice"}, default "ale"
    center_at : float, optional
    grid_size : int, default 20
    max_rows_per_call : int, optional
        As for :class:`FeatureEffect` (keyword only).
    progress : bool or None, default None
        Keyword only: a progress bar (tqdm, on stderr) per feature, counting
        the rows the model is asked about.  None: only in an interactive
        terminal or a notebook, once the job has run 2 seconds; True:
        always; False: never.
    replicate_r_bugs : bool, default False
        Keyword only: iml's numbers for a categorical feature with unused
        categories (as for :class:`FeatureEffect`); the default is correct.

    Attributes
    ----------
    effects : dict
        Feature name -> :class:`FeatureEffect`.
    results : dict
        Feature name -> its ``results`` with the feature column renamed
        ``.borders`` and a ``.feature`` column added, as iml.

    References
    ----------
    R package iml 0.11.4 (Molnar et al.), ``FeatureEffects``.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> X = pd.DataFrame({"a": np.arange(10.0), "b": np.arange(10.0) % 3})
    >>> p = Predictor(predict_function=lambda newdata: newdata["a"] + newdata["b"], data=X)
    >>> list(FeatureEffects(p, grid_size=2).results["b"].columns)
    ['.type', '.value', '.borders', '.feature']
    """

    def __init__(
        self,
        predictor: Predictor,
        features: Sequence | None = None,
        method: str = "ale",
        center_at: float | None = None,
        grid_size: int = 20,
        *,
        max_rows_per_call: int | None = None,
        progress: bool | None = None,
        replicate_r_bugs: bool = False,
    ):
        caller = "FeatureEffects"
        progress = check_progress(progress, caller=caller)
        self.predictor = check_predictor(predictor, caller)
        self.replicate_r_bugs = _check_replicate(replicate_r_bugs, caller, predictor, method)
        self.method = check_method(method, caller)
        self.features = check_feature_list(predictor, features, caller)
        for name in self.features:
            check_feature_names([name], self.method, caller)
        grid_size = check_int(grid_size, param="grid_size", caller=caller, minimum=1)
        center_at = check_center_at(center_at, caller)
        if max_rows_per_call is not None:
            max_rows_per_call = check_int(max_rows_per_call, param="max_rows_per_call", caller=caller, minimum=1)
        self.center_at = center_at
        self.grid_size = grid_size
        if method == "ale" and center_at is not None:
            warnings.warn(f"The 'center_at' parameter of {caller} is ignored for ALE, as iml ignores it.",
                          UserWarning, stacklevel=2)
            center_at = None
        self.effects = {}
        with feature_progress(progress, predictor, self.features, method, grid_size, center_at) as track:
            for j, name in enumerate(self.features):
                track.start(j)
                self.effects[name] = FeatureEffect(predictor, [name], method=method, center_at=center_at,
                                                   grid_size=grid_size, max_rows_per_call=max_rows_per_call,
                                                   replicate_r_bugs=self.replicate_r_bugs)
                track.finish(j)
        self.results = {name: self._long(name, effect.results) for name, effect in self.effects.items()}

    @staticmethod
    def _long(name, results: pd.DataFrame) -> pd.DataFrame:
        out = results.copy()
        out.columns = pd.Index([".borders" if is_label(c, [name]) else c for c in out.columns],
                               tupleize_cols=False)
        if isinstance(name, tuple):  # a tuple label is one value per row, not a sequence to spread
            feature = np.empty(out.shape[0], dtype=object)
            feature[:] = [name] * out.shape[0]
            out[".feature"] = feature
        else:
            out[".feature"] = name
        return out

    def plot(self, features: Sequence | None = None, *, ncols: int | None = None, nrows: int | None = None,
             fixed_y: bool = True, **kwargs):
        """One panel per feature in a grid (3 columns by default), as iml's ``plot()``.

        Parameters
        ----------
        features : sequence, optional
            The features to draw (all by default).
        ncols, nrows : int, optional
            Grid of panels (iml's ``ncols``, ``nrows``).
        fixed_y : bool, default True
            One y range for all panels.
        **kwargs
            Passed to :meth:`FeatureEffect.plot` (``rug``, ``show_data``).

        Returns
        -------
        FeatureEffectsDisplay
            With ``figure_`` and per-feature ``axes_``.
        """
        ncols = None if ncols is None else check_int(ncols, param="ncols", caller="FeatureEffects.plot", minimum=1)
        nrows = None if nrows is None else check_int(nrows, param="nrows", caller="FeatureEffects.plot", minimum=1)
        display = _present.display_class("FeatureEffectsDisplay")(self)
        return display.plot(features=features, ncols=ncols, nrows=nrows, fixed_y=fixed_y, **kwargs)

    def __repr__(self) -> str:
        values = np.concatenate([e.results[".value"].to_numpy(dtype=float) for e in self.effects.values()])
        return (f"FeatureEffects(features={self.features!r}, method={self.method!r}, "
                f"value range={_present._range(values)})")

    def _repr_html_(self) -> str:
        rows = {name: f"{e.feature_type}, value range {_present._range(e.results['.value'])}"
                for name, e in self.effects.items()}
        return _present.html_view("FeatureEffects", {"method": self.method, **rows}, self._draw_into,
                                  size=(4.0 * min(3, len(self.features)), 3.2 * -(-len(self.features) // 3)))

    def _draw_into(self, ax) -> None:
        """Draw the panels into the figure of ``ax`` (the notebook view)."""
        _present.display_class("FeatureEffectsDisplay")(self).plot(figure=ax.figure)

    def equals(self, other: object, *, rtol: float = 0.0, atol: float = 0.0) -> bool:
        """Whether ``other`` holds equal effects for the same features (see :meth:`FeatureEffect.equals`).

        Parameters
        ----------
        other : object
        rtol, atol : float, default 0.0
            Relative and absolute tolerance for floating columns.

        Returns
        -------
        bool
        """
        return (
            isinstance(other, FeatureEffects) and other.features == self.features
            and all(self.effects[n].equals(other.effects[n], rtol=rtol, atol=atol) for n in self.features)
        )
