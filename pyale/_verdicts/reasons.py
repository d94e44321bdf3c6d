"""``pyale.reason_codes``: each feature's main-effect contribution to given rows, and the top adverse ones."""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .. import _present
from .._ale_result import ALEResult
from .._checks import check_choice, check_int
from .._engines import is_engine_frame
from .._frames import as_pandas
from .inputs import collect_results, native, output_index

__all__ = ["reason_codes", "ReasonCodes", "contribution_at"]

_CALLER = "reason_codes"
_COLUMNS = ["row", "feature", "value", "contribution", "adverse", "adverse_rank", "reason", "local_change",
            "heterogeneity", "flag", "outside_grid"]


@dataclass(frozen=True, eq=False, repr=False)
class ReasonCodes:
    """What :func:`pyale.reason_codes` found for each row.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per (row, feature): ``row`` (the row's index label),
        ``feature``, ``value`` (the row's value), ``contribution`` (the
        feature's centred ALE at that value), ``adverse`` (whether the
        contribution points the adverse way), ``adverse_rank`` (1 = the most
        adverse; missing for features that do not point the adverse way),
        ``reason`` (whether the feature is one of the row's ``top`` reasons),
        ``local_change`` (the curve's change across the interval or level
        jump that holds the value), ``heterogeneity`` (the spread of the
        rows' own local changes there, from ``ALEResult.heterogeneity``),
        ``flag`` (heterogeneity larger than ``heterogeneity_ratio`` times
        ``|local_change|``: rows disagree about this feature's effect here,
        so the main effect alone summarises it poorly; missing when the
        result carries no heterogeneity) and ``outside_grid`` (the value lies
        beyond the grid: the curve's end value is used).
    top : pandas.DataFrame
        One row per row of ``rows`` (same index): ``reason_1`` ..
        ``reason_<k>``, ``k`` the smaller of ``top`` and the number of main
        effects (feature names, most adverse first; missing where
        fewer features point the adverse way), ``contribution_<i>`` and ``flag_<i>``.
    contributions : pandas.DataFrame
        Rows x features: every contribution.
    adverse : str
        ``"high"`` or ``"low"``.

    See Also
    --------
    pyale.reason_codes : what makes it.

    Examples
    --------
    >>> import numpy as np, pandas as pd, pyale
    >>> X = pd.DataFrame({"a": np.linspace(0, 1, 50), "b": np.linspace(1, 0, 50) ** 2})
    >>> codes = pyale.reason_codes(pyale.ale(lambda d: d["a"] - d["b"], X, ["a", "b"]), X.iloc[[0, -1]], top=1)
    >>> codes.top["reason_1"].tolist()
    [None, 'a']
    """

    table: pd.DataFrame
    top: pd.DataFrame
    contributions: pd.DataFrame
    adverse: str

    def __repr__(self) -> str:
        return f"ReasonCodes(rows={self.contributions.shape[0]}, features={list(self.contributions.columns)!r}, " \
               f"adverse={self.adverse!r})"

    def _repr_html_(self) -> str:
        return self.top.to_html()

    def plot(self, row: int = 0, ax=None):
        """Bars of one row's contributions, largest magnitude on top, adverse ones coloured, flagged ones hatched.

        Parameters
        ----------
        row : int, default 0
            The row to draw, by 0-based position in ``rows``.
        ax : matplotlib Axes, optional
            Where to draw; a new figure by default.

        Returns
        -------
        ReasonCodesDisplay
        """
        n_rows = self.contributions.shape[0]
        position = check_int(row, param="row", caller="ReasonCodes.plot", minimum=0)
        if position >= n_rows:
            raise ValueError(
                f"The 'row' parameter of ReasonCodes.plot must be a position below {n_rows}. Got {row!r} instead."
            )
        return _present.display_class("ReasonCodesDisplay")(self, position).plot(ax=ax)

    def to_dict(self) -> dict:
        """Everything as plain Python values (JSON-ready: NaN as None).

        Returns
        -------
        dict
            ``adverse``, ``method`` (what a contribution is), ``top`` (the
            rows of ``top``, with a ``row`` key) and ``table`` (the rows of ``table``).
        """
        top = self.top.reset_index(names="row")
        return {
            "adverse": self.adverse,
            "method": "main-effect decomposition: each feature's centred ALE at the row's value (not Shapley values)",
            "top": [{k: native(v) for k, v in row.items()} for row in top.to_dict(orient="records")],
            "table": [{k: native(v) for k, v in row.items()} for row in self.table.to_dict(orient="records")],
        }


def reason_codes(result, rows, *, top: int = 3, adverse: str = "high", output=None,
                 heterogeneity_ratio: float = 1.0) -> ReasonCodes:
    """Reason codes from ALE main effects: which features push each row's prediction the adverse way.

    Parameters
    ----------
    result : list of ALEResult, ALEResult, or pyale.ALE
        Main effects (pairs are left out: this is a main-effect
        decomposition).  No bootstrap is needed.
    rows : pandas.DataFrame, pandas.Series, polars.DataFrame or pyarrow.Table
        The rows to explain (a Series is one row), with a column for every
        feature of the main effects.
    top : int, default 3
        Reasons per row (at most one per main effect: a larger ``top`` gives
        one column group per feature).
    adverse : {"high", "low"}, default "high"
        Which way is adverse: ``"high"`` when a higher prediction hurts the
        applicant (a probability of default), ``"low"`` when a lower one does
        (a score).  Features whose contribution points the other way are no reason.
    output : label, optional
        The model output to read (as in :func:`pyale.check_shape`).
    heterogeneity_ratio : float, default 1.0
        A contribution is flagged when the heterogeneity of the interval
        (level jump) holding the row's value exceeds this multiple of the
        curve's change across it.

    Returns
    -------
    ReasonCodes
        ``table`` (long), ``top`` (the reasons per row), ``contributions`` and ``to_dict()``.

    Notes
    -----
    **A main-effect decomposition, not Shapley values.**  The contribution of
    a feature to a row is its centred ALE at the row's value: how much the
    model's prediction moves, on average over the data, as this feature goes
    from its typical level (the centred effect averages to 0 over the data)
    to the row's value, everything else as the data has it.  Contributions
    of the features do not add up to the row's prediction (interactions and
    the intercept are left out), and two rows with the same value of a
    feature get the same contribution whatever their other values: where
    the feature interacts with others, the ``flag`` says so.  SHAP values
    instead split each row's own prediction among its features.

    Between grid points the curve is linear, as iml's ``FeatureEffect$predict``
    (``approxfun(rule = 2)``) and ALEPlot's and ale's pictures read it; beyond
    the grid it keeps its end value (``outside_grid``).  A categorical value
    takes its level's effect; a level the effect has not seen is refused.
    Numeric values are located in the grid's right-closed intervals
    ``(z[k-1], z[k]]`` (the minimum in the first), the intervals the
    heterogeneity describes; a level takes the jump into it from the
    previous level of the order (the first level the jump out of it).

    Examples
    --------
    >>> import numpy as np, pandas as pd, pyale
    >>> rng = np.random.default_rng(0)
    >>> X = pd.DataFrame({"dti": rng.uniform(size=300), "income": rng.uniform(size=300)})
    >>> results = pyale.ale(lambda d: d["dti"] - 2 * d["income"], X, ["dti", "income"], n_intervals=4)
    >>> rows = pd.DataFrame({"dti": [0.9, 0.1], "income": [0.2, 0.9]})
    >>> codes = pyale.reason_codes(results, rows, top=2, adverse="high")
    >>> codes.contributions.round(2)
        dti  income
    0  0.36    0.61
    1 -0.44   -0.79
    >>> codes.top["reason_1"].tolist(), codes.top["reason_2"].tolist()
    (['income', None], ['dti', None])
    """
    top = check_int(top, param="top", caller=_CALLER, minimum=1)
    adverse = check_choice(adverse, ("high", "low"), param="adverse", caller=_CALLER)
    if isinstance(heterogeneity_ratio, (bool, np.bool_)) or not isinstance(heterogeneity_ratio, numbers.Real) \
            or not np.isfinite(heterogeneity_ratio) or heterogeneity_ratio < 0:
        raise ValueError(
            f"The 'heterogeneity_ratio' parameter of {_CALLER} must be a finite number >= 0. "
            f"Got {heterogeneity_ratio!r} instead."
        )
    main = [r for r in collect_results(result, caller=_CALLER) if len(r.features) == 1]
    if not main:
        raise ValueError(f"The 'result' parameter of {_CALLER} must hold at least one main effect (one feature).")
    frame = _rows(rows)
    sign = 1.0 if adverse == "high" else -1.0
    parts, contributions = [], {}
    for r in main:
        name = r.features[0]
        if name not in frame.columns:
            raise ValueError(
                f"The 'rows' parameter of {_CALLER} must have a column for every feature of the effects; "
                f"{name!r} is missing. Its columns are {list(frame.columns)!r}."
            )
        out = output_index(r, output, caller=_CALLER)
        value, change, spread, outside = contribution_at(r, frame[name], out)
        contributions[name] = value
        flag = pd.array(np.where(np.isnan(spread), False, spread > heterogeneity_ratio * np.abs(change)),
                        dtype="boolean")
        flag[np.isnan(spread)] = pd.NA
        parts.append(pd.DataFrame({
            "row": frame.index, "feature": [name] * frame.shape[0], "value": frame[name].to_numpy(dtype=object),
            "contribution": value, "adverse": sign * value > 0, "local_change": change, "heterogeneity": spread,
            "flag": flag, "outside_grid": outside,
        }))
    table = pd.concat(parts, ignore_index=True)
    table["_position"] = np.tile(np.arange(frame.shape[0]), len(main))
    adverse_value = np.where(table["adverse"], sign * table["contribution"], -np.inf)
    order = np.lexsort((np.repeat(np.arange(len(main)), frame.shape[0]), -adverse_value, table["_position"]))
    ranked = table.iloc[order]
    rank = ranked.groupby("_position").cumcount() + 1
    rank = rank.where(ranked["adverse"].to_numpy()).reindex(table.index)
    table["adverse_rank"] = pd.array(rank, dtype="Int64")
    table["reason"] = (table["adverse_rank"] <= top).fillna(False).astype(bool)
    table["_order"] = np.repeat(np.arange(len(main)), frame.shape[0])
    table = table.sort_values(["_position", "adverse_rank", "_order"], kind="stable", na_position="last")
    table = table.reset_index(drop=True)
    codes = _top(table, frame.index, min(top, len(main)))  # a row has no more reasons than features
    return ReasonCodes(table=table[_COLUMNS], top=codes, adverse=adverse,
                       contributions=pd.DataFrame(contributions, index=frame.index))


def _rows(rows) -> pd.DataFrame:
    if isinstance(rows, pd.Series):
        return rows.to_frame().T.infer_objects()
    if is_engine_frame(rows):
        raise TypeError(
            f"The 'rows' parameter of {_CALLER} must hold the rows in memory (pandas, polars, pyarrow); "
            f"collect the rows to explain first. Got {type(rows).__name__} instead."
        )
    frame, _ = as_pandas(rows, param="rows", caller=_CALLER)
    return frame


def contribution_at(result: ALEResult, values: pd.Series, out: int):
    """The centred ALE of one main effect at ``values``: ``(contribution, local_change, heterogeneity, outside)``.

    Numeric: linear between grid points, the end values beyond the grid;
    categorical: the level's value.
    """
    effects = result.effects[:, out]
    spread_at = None if result.heterogeneity is None else result.heterogeneity[:, out]
    name = result.features[0]
    if result.numeric_axes[0]:
        edges = np.asarray(result.grid[0], dtype=float)
        try:
            x = pd.to_numeric(values, errors="raise").to_numpy(dtype=float)
        except (TypeError, ValueError) as exc:
            raise ValueError(
                f"Column {name!r} of the 'rows' parameter of {_CALLER} must be numeric, as the effect's feature "
                f"is. Got {values.iloc[0]!r} among its values."
            ) from exc
        _refuse_missing(np.isnan(x), values, name)
        contribution = np.interp(x, edges, effects)
        interval = np.clip(np.searchsorted(edges, x, side="left"), 1, edges.shape[0] - 1)
        outside = (x < edges[0]) | (x > edges[-1])
    else:
        levels = list(result.grid[0])
        lookup = {level: i for i, level in enumerate(levels)}
        raw = values.to_numpy(dtype=object)
        _refuse_missing(pd.isna(values).to_numpy(), values, name)
        unknown = [v for v in raw if v not in lookup]
        if unknown:
            raise ValueError(
                f"Column {name!r} of the 'rows' parameter of {_CALLER} holds level {unknown[0]!r}, which the "
                f"effect has not seen; its levels are {levels!r}."
            )
        index = np.array([lookup[v] for v in raw], dtype=np.int64)
        contribution = effects[index]
        interval = np.maximum(index, 1)
        outside = np.zeros(index.shape[0], dtype=bool)
    change = effects[interval] - effects[interval - 1]
    spread = np.full(change.shape, np.nan) if spread_at is None else spread_at[interval]
    return contribution, change, spread, outside


def _refuse_missing(missing: np.ndarray, values: pd.Series, name) -> None:
    if missing.any():
        where = values.index[np.flatnonzero(missing)[0]]
        raise ValueError(
            f"Column {name!r} of the 'rows' parameter of {_CALLER} has a missing value (row {where!r}); "
            "a main effect has no value there."
        )


def _top(table: pd.DataFrame, index: pd.Index, top: int) -> pd.DataFrame:
    """The reasons per row, from the long table (with its ``_position`` column)."""
    n = len(index)
    columns = {}
    for i in range(1, top + 1):
        pick = table[table["reason"] & (table["adverse_rank"] == i)]
        slots = pick["_position"].to_numpy()
        names = np.full(n, None, dtype=object)
        names[slots] = pick["feature"].to_numpy(dtype=object)
        values = np.full(n, np.nan)
        values[slots] = pick["contribution"].to_numpy(dtype=float)
        flags = pd.array([pd.NA] * n, dtype="boolean")
        flags[slots] = pick["flag"].array
        columns[f"reason_{i}"] = pd.Series(names, index=index, dtype=object)  # None where no reason
        columns[f"contribution_{i}"] = pd.Series(values, index=index)
        columns[f"flag_{i}"] = pd.Series(flags, index=index)
    return pd.DataFrame(columns, index=index)
