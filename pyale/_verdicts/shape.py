"""``pyale.check_shape``: is an effect increasing (positive, ...), with what confidence, and where not?"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .. import _present
from .._ale_result import ALEResult
from .._checks import check_choice
from .._core.bootstrap import percentile_interval
from .decision import MarginTest, margin_test
from .expectations import Expectation, read_expectation
from .inputs import check_verdict_level, collect_results, feature_label, native, output_index, require_replicates

__all__ = ["check_shape", "ShapeCheck", "Check"]

_CALLER = "check_shape"

DECISION_RULE = (
    "Margins that the expectation wants >= 0 (> 0 when strict): the curve's increments along the axis "
    "(monotone), its last minus its first value (sign), or the user function's values; each pair line along "
    "the axis counts. fail: some margin's simultaneous one-sided upper band (max-t over the bootstrap "
    "replicates, studentised) lies below zero, i.e. the max-t adjusted p-value p_violation <= level; a true "
    "expectation fails with probability at most about level. pass: not fail, and every margin is on the "
    "right side in all but a share level of the replicates (intersection-union test, p_holds <= level); a "
    "violated expectation passes with probability at most about level. Otherwise inconclusive. A main effect's "
    "studentised increments are read as Student's t with the interval's rows less one degrees of freedom."
)

_TABLE_COLUMNS = [
    "feature", "axis", "output", "kind", "effect", "expectation", "verdict", "level", "statistic", "p_violation", "p_holds",
    "worst_violation", "worst_violation_pct", "worst_start", "worst_end", "worst_at", "n_violations", "n_significant",
    "n_bootstrap", "bootstrap",
]
_VIOLATION_COLUMNS = [
    "feature", "axis", "output", "expectation", "at", "element", "start", "trough", "end", "size", "size_pct",
    "size_ci_low", "size_ci_high", "significant",
]


@dataclass(frozen=True, eq=False)
class Check:
    """One expectation on one axis of one result, with what the figure needs."""

    result: ALEResult
    axis: int
    output: int
    expectation: Expectation
    test: MarginTest
    violations: list
    effect: str  # "main", "interaction" or "total"
    lines: np.ndarray  # (L, n): the curves judged, along the axis
    replicate_lines: np.ndarray  # (B, L, n)


@dataclass(frozen=True, eq=False, repr=False)
class ShapeCheck:
    """What :func:`pyale.check_shape` found: a verdict per expectation and where it breaks.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per expectation (per axis of a pair): ``feature`` (``"a x b"``
        for a pair), ``axis`` (the feature along which the curve is read),
        ``output``, ``kind``, ``effect`` (``"main"``, ``"interaction"`` or
        ``"total"``: what was judged, see ``pair_effect``), ``expectation``, ``verdict`` (``"pass"``,
        ``"fail"`` or ``"inconclusive"``), ``level``, ``statistic`` (the
        largest studentised violation, on the normal scale after the
        small-sample calibration), ``p_violation`` (p-value of the test
        that fails), ``p_holds`` (p-value of the test that passes),
        ``worst_violation`` (largest violation in units of the prediction:
        for a monotone expectation the largest fall of the curve from a grid
        point to a later one against the expected direction; 0 when there
        is none), ``worst_violation_pct`` (the same fall in percentile points
        of the response, as NALED reads effects; NaN without a response
        distribution or for a user function), ``worst_start`` and
        ``worst_end`` (where that fall starts and reaches its bottom),
        ``worst_at`` (for a pair: the other axis's grid point of that fall),
        ``n_violations``, ``n_significant`` (rows of ``violations``, and
        those beyond doubt), ``n_bootstrap`` and ``bootstrap`` (``"data"``
        or ``"model"``).
    violations : pandas.DataFrame
        One row per stretch where the estimated curve breaks the
        expectation: ``at`` (the other axis's grid point, for a pair),
        ``element`` (the margin's index, for a user function), ``start``
        (the grid point the curve falls from), ``trough`` (its lowest point
        against the expected direction), ``end`` (the last grid point before
        the curve recovers), ``size`` and ``size_pct`` (the fall from start
        to trough in the prediction's units and in percentile points),
        ``size_ci_low``/``size_ci_high`` (percentile bootstrap interval of
        that fall at ``1 - level``) and ``significant`` (whether a margin in
        the stretch is a violation beyond doubt at ``level``).
    level : float
        The significance level.
    checks : list
        The checks behind each row (used by ``plot``).

    See Also
    --------
    pyale.check_shape : what makes it.

    Examples
    --------
    >>> import numpy as np, pandas as pd, pyale
    >>> X = pd.DataFrame({"x": np.linspace(0, 1, 200), "z": np.tile([-1.0, 1.0], 100)})
    >>> result = pyale.ale(lambda d: d["x"] * (1 + d["z"]), X, "x", n_intervals=4, n_bootstrap=100, random_state=0)
    >>> check = pyale.check_shape(result, {"x": "increasing"})
    >>> check.table.loc[0, "verdict"], len(check.violations)
    ('pass', 0)
    """

    table: pd.DataFrame
    violations: pd.DataFrame
    level: float
    checks: list = field(repr=False)

    def __repr__(self) -> str:
        verdicts = ", ".join(f"{row.axis if row.feature == row.axis else row.feature + ':' + row.axis}="
                             f"{row.verdict}" for row in self.table.itertuples())
        return f"ShapeCheck(level={self.level!r}, {verdicts})"

    def _repr_html_(self) -> str:
        return self.table.to_html(index=False)

    def plot(self, ax=None, **kwargs):
        """Draw each checked curve with its band, its violations shaded and its verdict in the title.

        Parameters
        ----------
        ax : matplotlib Axes or array of Axes, optional
            One Axes per row of ``table``; a new figure by default.
        **kwargs
            Keywords of the display's ``plot`` (``n_cols``: panels per row).

        Returns
        -------
        ShapeCheckDisplay
        """
        return _present.display_class("ShapeCheckDisplay")(self).plot(ax=ax, **kwargs)

    def to_dict(self) -> dict:
        """Everything as plain Python values (JSON-ready: NaN as None).

        Returns
        -------
        dict
            ``level``, ``decision_rule`` (the rule in words), ``checks`` (the
            rows of ``table``) and ``violations`` (the rows of ``violations``).
        """
        return {
            "level": self.level,
            "decision_rule": DECISION_RULE,
            "checks": _records(self.table),
            "violations": _records(self.violations),
        }


def _records(frame: pd.DataFrame) -> list:
    return [{k: native(v) for k, v in row.items()} for row in frame.to_dict(orient="records")]


def check_shape(result, expect: dict, *, level: float = 0.05, output=None,
                pair_effect: str = "interaction") -> ShapeCheck:
    """Check the shape of ALE curves against expectations, with a verdict from the bootstrap.

    Parameters
    ----------
    result : ALEResult, list of ALEResult, or pyale.ALE
        Effects computed with bootstrap replicates: ``pyale.ale(...,
        n_bootstrap=B)`` (data bootstrap, the model fixed),
        :func:`pyale.model_bootstrap` (the model refitted) or
        ``pyale.ALE(..., boot_it=B)``.  ``B`` of 200 or more is advised;
        fewer than ``1 / level - 1`` cannot reach ``level`` and are refused.
    expect : dict
        Feature -> expectation: one of ``"increasing"``,
        ``"non-decreasing"``, ``"decreasing"``, ``"non-increasing"``,
        ``"positive"``, ``"negative"``, or a function ``fn(grid, curve)``
        that returns a number or a 1-D array of margins, ``>= 0`` where the
        expectation holds (``grid``: the grid points along the axis, edges or
        level labels; ``curve``: the effect there).  A pair is keyed by its
        two features with a dict per axis: ``{("dti", "income"): {"dti":
        "increasing"}}`` reads the pair's effect along ``dti`` at every grid
        point of ``income``.
    level : float, default 0.05
        Significance level of both tests.
    output : label, optional
        The model output to judge (needed when the results have several
        outputs, other than a binary classifier's, whose positive class is
        the default).
    pair_effect : {"interaction", "total"}, default "interaction"
        What a pair's axis is judged on: the pair's effect as computed (in
        pyale the second-order, interaction effect alone), or ``"total"``:
        that plus the main effect of the axis feature, which the results
        must hold with the same replicates (one :func:`pyale.ale` call with
        both, e.g. ``["dti", ("dti", "income")]``).  Along ``dti`` the total
        effect ``f_dti + f_income + f_dti,income`` changes as
        ``f_dti + f_dti,income`` does, so "the prediction increases with dti
        at every income" is ``{("dti", "income"): {"dti": "increasing"}}``
        with ``pair_effect="total"``.

    Returns
    -------
    ShapeCheck
        ``table`` (a verdict per expectation), ``violations``, ``plot()`` and ``to_dict()``.

    Notes
    -----
    **Decision rule.**  Each expectation becomes margins the expectation
    wants non-negative: the curve's increments between neighbouring grid
    points along the axis ("increasing": every increment ``> 0``;
    "non-decreasing": ``>= 0``; decreasing ones mirrored), its last value
    minus its first ("positive": ``> 0``; moving the feature from its
    smallest to its largest grid point raises the prediction; a centred ALE
    cannot be positive everywhere), or the function's values.  With the
    same margins in every bootstrap replicate (``se_k`` their standard
    deviation):

    - **fail** when a part of the curve breaks the expectation beyond
      doubt: the simultaneous one-sided ``1 - level`` upper band of the
      margins (max-t: the quantile of ``max_k (m_k - m*_k) / se_k`` over
      the replicates) excludes zero somewhere.  ``p_violation`` is the
      smallest max-t adjusted p-value.  A curve that meets the
      expectation fails with probability at most about ``level``.
    - **pass** otherwise when every margin is on the right side in all but a
      share ``level`` of the replicates (an intersection-union test:
      ``p_holds`` is the largest of the margins' percentile p-values).  A
      curve that breaks the expectation somewhere passes with probability
      at most about ``level``.
    - **inconclusive** otherwise: the data cannot tell (a flat stretch of a
      noisy curve under "increasing", a dip within the band).

    A main effect's studentised increment is read as Student's t with the
    interval's rows less one degrees of freedom (level jumps: the two
    levels' rows less two) and mapped to the normal scale before both tests,
    so that few rows per interval do not make the fail test liberal.
    A margin whose replicates do not vary (every row has the same local
    difference there, and the model is fixed) is known exactly: a certain
    violation fails, a certain non-violation counts as evidence.  The
    error rates are checked by simulation (``tests/verdicts``; the
    verdicts guide gives the table).  Verdicts are about the model's ALE on
    this data (data bootstrap) or also about refits (model bootstrap), on the
    result's grid: a violation inside one interval is invisible.

    A categorical axis is read in the result's level order: an ordered
    categorical's or a given ``level_order`` keeps the user's order; an
    unordered one is ordered by similarity (pyale's choice), and a
    monotone or sign expectation along it is refused (a function is allowed).  A pair's effect in pyale is the
    second-order (interaction) effect alone; ``pair_effect="total"`` adds
    the axis feature's main effect.

    Examples
    --------
    >>> import numpy as np, pandas as pd, pyale
    >>> rng = np.random.default_rng(0)
    >>> X = pd.DataFrame({"dti": rng.uniform(size=300), "age": rng.normal(size=300)})
    >>> model = lambda d: 2 * d["dti"] + d["dti"] * d["age"]
    >>> result = pyale.ale(model, X, ["dti", "age"], n_intervals=5, n_bootstrap=200, random_state=0)
    >>> check = pyale.check_shape(result, {"dti": "increasing", "age": "negative"})
    >>> check.table[["feature", "expectation", "verdict"]]
      feature expectation verdict
    0     dti  increasing    pass
    1     age    negative    fail
    """
    level = check_verdict_level(level, caller=_CALLER)
    pair_effect = check_choice(pair_effect, ("interaction", "total"), param="pair_effect", caller=_CALLER)
    results = collect_results(result, caller=_CALLER)
    if not isinstance(expect, dict) or not expect:
        raise TypeError(
            f"The 'expect' parameter of {_CALLER} must be a non-empty dict of feature -> expectation. "
            f"Got {expect!r} instead."
        )
    checks = []
    for key, value in expect.items():
        if isinstance(value, dict):
            found = _find(results, key, pair=True)
            if not value:
                raise ValueError(
                    f"The 'expect' parameter of {_CALLER} gives pair {key!r} no axis; give it a dict of "
                    f"axis -> expectation, e.g. {{{key[0]!r}: 'increasing'}}."
                )
            for axis_name, wanted in value.items():
                axis = _axis(found, axis_name, key)
                where = f"axis {axis_name!r} of pair {key!r}"
                main = None
                if pair_effect == "total":
                    main = _find(results, found.features[axis], pair=False, purpose=" (pair_effect='total' adds "
                                 f"it to pair {key!r}: compute it in the same call as the pair)")
                checks.append(_check(found, axis, read_expectation(wanted, where=where, caller=_CALLER),
                                     level, output, main=main))
        else:
            if isinstance(key, tuple) and len(key) == 2 and not any(
                    len(r.features) == 1 and _same(r.features[0], key) for r in results):
                _find(results, key, pair=True)  # a pair that exists: it needs an expectation per axis
                raise TypeError(
                    f"The 'expect' parameter of {_CALLER} must give pair {key!r} a dict of axis -> expectation, "
                    f"e.g. {{{key!r}: {{{key[0]!r}: {value!r}}}}}. Got {value!r} instead."
                )
            found = _find(results, key, pair=False)
            where = f"feature {key!r}"
            checks.append(_check(found, 0, read_expectation(value, where=where, caller=_CALLER), level, output))
    table = pd.DataFrame([_table_row(c, level) for c in checks], columns=_TABLE_COLUMNS)
    rows = [v for c in checks for v in c.violations]
    violations = pd.DataFrame(rows, columns=_VIOLATION_COLUMNS)
    return ShapeCheck(table=table, violations=violations, level=level, checks=checks)


def _same(a, b) -> bool:
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - incomparable labels differ
        return False


def _find(results: list, key, *, pair: bool, purpose: str = "") -> ALEResult:
    for r in results:
        if pair:
            if (isinstance(key, tuple) and len(key) == 2 and len(r.features) == 2
                    and {0, 1} == {i for k in key for i, f in enumerate(r.features) if _same(k, f)}):
                return r
        elif len(r.features) == 1 and _same(r.features[0], key):
            return r
    held = [r.features[0] if len(r.features) == 1 else tuple(r.features) for r in results]  # keys of 'expect'
    what = "pair" if pair else "feature"
    raise ValueError(
        f"The 'expect' parameter of {_CALLER} names {what} {key!r}, which no result holds{purpose}; the results "
        f"hold {held!r}."
    )


def _axis(result: ALEResult, name, key) -> int:
    for i, f in enumerate(result.features):
        if _same(f, name):
            return i
    raise ValueError(
        f"The 'expect' parameter of {_CALLER} names axis {name!r} of pair {key!r}, which is not one of its "
        f"features {list(result.features)!r}."
    )


def _lines(array: np.ndarray, axis: int, lead: int) -> np.ndarray:
    """``array`` (``lead`` leading axes, then the grid) as ``(..., L, n)`` lines along ``axis``."""
    moved = np.moveaxis(array, lead + axis, -1)
    if moved.ndim == lead + 1:
        moved = moved[..., None, :]
    return moved


def _refuse_unordered(result: ALEResult, axis: int, expectation: Expectation) -> None:
    """A direction along levels that pyale ordered by similarity means nothing: refused (functions are the
    user's own reading of the levels, and allowed)."""
    similarity = result.ordered_by_similarity
    if expectation.kind == "function" or not similarity or not similarity[axis]:
        return
    name = result.features[axis]
    raise ValueError(
        f"The 'expect' parameter of {_CALLER} asks {name!r} to be {expectation.name!r}, but {name!r} is an unordered "
        f"categorical: its levels {list(result.grid[axis])!r} are in the order pyale chose by similarity, so a "
        "direction along them means nothing. Make it an ordered categorical (pd.CategoricalDtype(levels, "
        "ordered=True)) or pass level_order= to pyale.ale, or give a function of the curve."
    )


def _check(result: ALEResult, axis: int, expectation: Expectation, level: float, output, *, main=None) -> Check:
    """Judge one axis of one result; ``main``: the axis feature's main effect, added to a pair's lines."""
    _refuse_unordered(result, axis, expectation)
    out = output_index(result, output, caller=_CALLER)
    replicates = require_replicates(result, level, caller=_CALLER)[..., out]
    grid = result.grid[axis]
    where = f"axis {result.features[axis]!r} of {feature_label(result.features)!r}"
    lines = _lines(result.effects[..., out], axis, 0)  # (L, n)
    lines_b = _lines(replicates, axis, 1)  # (B, L, n)
    effect = "main" if len(result.features) == 1 else "interaction"
    if main is not None:
        along, along_b = _main_along(main, result, axis, level, output)
        lines, lines_b, effect = lines + along, lines_b + along_b[:, None, :], "total"
    margins = expectation.margins(grid, lines, where=where)  # (L, M)
    margins_b = expectation.margins(grid, lines_b, where=where)  # (B, L, M)
    test = margin_test(margins.ravel(), margins_b.reshape(margins_b.shape[0], -1),
                       strict=expectation.strict, level=level, df=_degrees_of_freedom(result, expectation, margins))
    normaliser = None
    if result.normaliser is not None and expectation.kind != "function":
        normaliser = result.normaliser()[out]
    significant = test.significant.reshape(margins.shape)
    others = result.grid[1 - axis] if len(result.features) == 2 else [None]
    found = []
    for line in range(lines.shape[0]):
        episodes = _episodes(expectation, lines[line], margins[line])
        for episode in episodes:
            found.append(_violation(result, axis, out, expectation, others[line], grid, episode, lines[line],
                                    lines_b[:, line], margins[line], margins_b[:, line], significant[line],
                                    normaliser, level))
    return Check(result=result, axis=axis, output=out, expectation=expectation, test=test, violations=found,
                 effect=effect, lines=lines, replicate_lines=lines_b)


def _main_along(main: ALEResult, pair: ALEResult, axis: int, level: float, output):
    """The main effect of a pair's axis feature at the pair's grid points along that axis (and its replicates).

    Numeric: read on the main effect's curve, linear between its grid points
    (as :func:`pyale.reason_codes` reads it); categorical: by level.
    """
    out = output_index(main, output, caller=_CALLER)
    effects = main.effects[:, out]
    replicates = require_replicates(main, level, caller=_CALLER)[..., out]
    n_pair = pair.replicates.shape[0]
    if replicates.shape[0] != n_pair:
        raise ValueError(
            f"The main effect of {main.features[0]!r} carries {replicates.shape[0]} bootstrap replicates and the "
            f"pair {pair.features!r} {n_pair}; compute them in one call so that every replicate is the same "
            "resample."
        )
    grid = pair.grid[axis]
    if pair.numeric_axes[axis]:
        edges = np.asarray(main.grid[0], dtype=float)
        points = np.asarray(grid, dtype=float)
        right = np.clip(np.searchsorted(edges, points, side="left"), 1, edges.shape[0] - 1)
        weight = np.clip((points - edges[right - 1]) / (edges[right] - edges[right - 1]), 0.0, 1.0)
        return (effects[right - 1] * (1 - weight) + effects[right] * weight,
                replicates[:, right - 1] * (1 - weight) + replicates[:, right] * weight)
    levels = list(main.grid[0])
    missing = [level_ for level_ in grid if level_ not in levels]
    if missing:
        raise ValueError(
            f"The main effect of {main.features[0]!r} lacks level {missing[0]!r} of pair {pair.features!r}."
        )
    index = np.array([levels.index(level_) for level_ in grid])
    return effects[index], replicates[:, index]


def _degrees_of_freedom(result: ALEResult, expectation: Expectation, margins: np.ndarray) -> np.ndarray:
    """Per margin, the rows behind it less one (``inf``: no small-sample calibration; see ``decision.py``).

    A main effect's increment is a mean over one interval's rows (numeric)
    or over the rows of the two levels it joins (categorical); a sign margin
    over all rows.  Counts that are weight sums rather than whole rows, pair
    effects and user functions are not calibrated.
    """
    df = np.full(margins.shape, np.inf)
    counts = np.asarray(result.counts, dtype=float)
    if len(result.features) != 1 or expectation.kind == "function" or not np.all(counts == np.round(counts)):
        return df.ravel()
    if expectation.kind == "sign":
        df[:] = counts.sum() - 1.0
    elif result.numeric_axes[0]:
        df[0] = counts - 1.0
    else:
        df[0] = counts[1:] + counts[:-1] - 2.0
    return np.maximum(df, 1.0).ravel()


def _episodes(expectation: Expectation, line: np.ndarray, margins: np.ndarray) -> list:
    """Stretches where the estimate breaks the expectation: ``(start, trough, end)`` point indices
    (monotone and sign) or ``(element,)`` (a function)."""
    strict = expectation.strict
    if expectation.kind == "function":
        bad = margins <= 0 if strict else margins < 0
        return [(int(k),) for k in np.flatnonzero(bad)]
    if expectation.kind == "sign":
        bad = margins[0] <= 0 if strict else margins[0] < 0
        return [(0, line.shape[0] - 1, line.shape[0] - 1)] if bad else []
    g = expectation.direction * line
    running = np.maximum.accumulate(g)
    below = np.zeros(g.shape[0], dtype=bool)
    below[1:] = g[1:] <= running[:-1] if strict else g[1:] < running[:-1]
    episodes = []
    i = 1
    while i < g.shape[0]:
        if not below[i]:
            i += 1
            continue
        j = i
        while j + 1 < g.shape[0] and below[j + 1]:
            j += 1
        trough = i + int(np.argmin(g[i:j + 1]))
        episodes.append((i - 1, trough, j))
        i = j + 1
    return episodes


def _violation(result, axis, out, expectation, at, grid, episode, line, line_b, margins, margins_b, significant,
               normaliser, level) -> dict:
    row = {"feature": feature_label(result.features), "axis": result.features[axis],
           "output": result.outputs[out], "expectation": expectation.name, "at": at, "element": None,
           "start": None, "trough": None, "end": None}
    if expectation.kind == "function":
        (k,) = episode
        size, size_b = -margins[k], -margins_b[:, k]
        row.update(element=k, size_pct=np.nan, significant=bool(significant[k]))
    else:
        start, trough, end = episode
        size = expectation.direction * (line[start] - line[trough])
        size_b = expectation.direction * (line_b[:, start] - line_b[:, trough])
        pct = np.nan
        if normaliser is not None:
            pct = float(abs(normaliser(np.array([line[start]]))[0] - normaliser(np.array([line[trough]]))[0]))
        stretch = significant[0:1] if expectation.kind == "sign" else significant[start:end]
        row.update(start=_point(grid, start), trough=_point(grid, trough), end=_point(grid, end), size_pct=pct,
                   significant=bool(np.any(stretch)))
    low, high = percentile_interval(size_b[:, None], 1.0 - level)
    row.update(size=float(size), size_ci_low=float(low[0]), size_ci_high=float(high[0]))
    return row


def _point(grid, index: int):
    value = grid[index]
    return float(value) if isinstance(grid, np.ndarray) and grid.dtype.kind == "f" else value


def _worst_pct(check: Check, worst: dict | None) -> float:
    """The worst fall in percentile points: NaN for a function or without a response distribution."""
    if check.expectation.kind == "function" or check.result.normaliser is None:
        return np.nan
    return 0.0 if worst is None else worst["size_pct"]


def _table_row(check: Check, level: float) -> dict:
    result, test = check.result, check.test
    worst = max(check.violations, key=lambda v: v["size"], default=None)
    return {
        "feature": feature_label(result.features),
        "axis": result.features[check.axis],
        "output": result.outputs[check.output],
        "kind": result.kind,
        "effect": check.effect,
        "expectation": check.expectation.name,
        "verdict": test.verdict,
        "level": level,
        "statistic": test.statistic,
        "p_violation": test.p_violation,
        "p_holds": test.p_holds,
        "worst_violation": 0.0 if worst is None else worst["size"],
        "worst_violation_pct": _worst_pct(check, worst),
        "worst_start": None if worst is None else worst["start"],
        "worst_end": None if worst is None else worst["trough"],
        "worst_at": None if worst is None else worst["at"],
        "n_violations": len(check.violations),
        "n_significant": sum(v["significant"] for v in check.violations),
        "n_bootstrap": int(result.replicates.shape[0]),
        "bootstrap": result.bootstrap,
    }

