"""``RegionalResult``: the regions found for one feature, their tree table and their curves."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .. import _present
from .._ale_result import ALEResult

__all__ = ["Region", "RegionalResult"]


@dataclass(frozen=True, eq=False, repr=False)
class Region:
    """One region of the tree: the rows meeting every condition on its path.

    Attributes
    ----------
    index : int
        Position in ``RegionalResult.regions`` (0 is all rows).
    parent : int or None
        The region it was split from.
    depth : int
        Number of conditions on its path.
    conditions : tuple of Condition
        The path of split conditions from the root (``str(c)`` reads
        ``x3 >= 0``, ``colour == 'red'``).
    mask : numpy.ndarray or None
        Which rows of X (those with a positive weight) belong to it (None
        on a Dask, Spark or polars lazy frame, whose rows stay where they
        live: use ``conditions`` or :meth:`RegionalResult.region_of`).
    size : float
        Its rows (the sum of their weights, when weights were given).
    heterogeneity : float
        The split criterion in the region (prediction units; see :func:`pyale.regional`).
    result : ALEResult
        The feature's ALE in the region on the common grid (with a bootstrap
        band when asked for).

    Examples
    --------
    >>> import numpy as np, pandas as pd, pyale
    >>> X = pd.DataFrame({"x": np.linspace(0, 1, 200), "g": np.tile(["a", "b"], 100)})
    >>> res = pyale.regional(lambda d: d["x"] * np.where(d["g"] == "a", 1.0, -1.0), X, "x")
    >>> leaf = res.leaves[0]
    >>> leaf.rule, leaf.size, leaf.parent
    ("g == 'a'", 100.0, 0)
    """

    index: int
    parent: int | None
    depth: int
    conditions: tuple
    mask: np.ndarray | None
    size: float
    heterogeneity: float
    result: ALEResult

    @property
    def rule(self) -> str:
        """The path as one rule, conditions on one column merged (``-0.5 <= x2 < 0``); ``"all rows"`` at the root."""
        if not self.conditions:
            return "all rows"
        parts = []
        for column in dict.fromkeys(c.column for c in self.conditions):
            own = [c for c in self.conditions if c.column == column]
            below = [c.value for c in own if c.operator == "<"]
            above = [c.value for c in own if c.operator == ">="]
            equal = [c.value for c in own if c.operator == "=="]
            if equal:
                parts.append(own[[c.operator for c in own].index("==")].text())
                continue
            if below or above:
                low = f"{max(above):.6g} <= " if above else ""
                high = f" < {min(below):.6g}" if below else ""
                parts.append(f"{low}{column}{high}" if below else f"{column} >= {max(above):.6g}")
            excluded = [c.value for c in own if c.operator == "!="]
            if len(excluded) == 1:
                parts.append(f"{column} != {excluded[0]!r}")
            elif excluded:
                parts.append(f"{column} not in {excluded!r}")
        return " and ".join(parts)

    def __repr__(self) -> str:
        return f"Region({self.index}: {self.rule}, size={self.size:g}, heterogeneity={self.heterogeneity:.4g})"


@dataclass(frozen=True, eq=False, repr=False)
class RegionalResult:
    """Regions where a feature's effect is homogeneous, and the feature's ALE in each.

    Attributes
    ----------
    feature : object
        The feature whose effect is split.
    method : str
        ``"ale"`` (finite differences) or ``"gradient"`` (the model's derivatives).
    search : str
        ``"node"`` or ``"level"`` (see :func:`pyale.regional`).
    edges : numpy.ndarray or None
        The common grid: interval edges of the feature, from all rows (None
        for a categorical feature, whose levels are each region's
        ``result.grid[0]``; with
        ``binning``, the root's intervals; each region's own are its
        ``result.grid[0]``).
    regions : tuple of Region
        Every region of the tree, the root (all rows) first, then in the
        order the search created them.
    scale : float
        Standard deviation of the feature over all rows (the criterion's
        factor from slopes to prediction units; of the level ranks for an
        ordinal feature; 1 for a nominal one, whose pairwise differences are
        already in prediction units).
    conditioning : tuple
        The columns the search could split on.

    Examples
    --------
    >>> import numpy as np, pandas as pd, pyale
    >>> rng = np.random.default_rng(1)
    >>> X = pd.DataFrame({"x": rng.uniform(-1, 1, 400), "g": rng.integers(0, 2, 400)})
    >>> res = pyale.regional(lambda d: d["x"] * np.where(d["g"] == 1, 2.0, -1.0), X, "x")
    >>> res.table["rule"].tolist(), res.table["size"].tolist()
    (['all rows', 'g == 0', 'g != 0'], [400.0, 199.0, 201.0])
    """

    feature: object
    method: str
    search: str
    edges: np.ndarray
    regions: tuple
    scale: float
    conditioning: tuple
    _cache: dict = field(default_factory=dict, repr=False)

    @property
    def leaves(self) -> tuple:
        """The regions that were not split further (a partition of the rows)."""
        parents = {r.parent for r in self.regions if r.parent is not None}
        return tuple(r for r in self.regions if r.index not in parents)

    @property
    def table(self) -> pd.DataFrame:
        """The tree, one row per region.

        Columns ``parent``, ``depth``, ``condition`` (the split that made
        the region), ``rule`` (its whole path), ``size``, ``share`` (of all
        rows), ``heterogeneity``, ``decrease`` (relative to the parent's)
        and ``leaf``; indexed by ``region``.
        """
        total = self.regions[0].size
        rows = []
        for r in self.regions:
            parent = None if r.parent is None else self.regions[r.parent]
            rows.append({
                "region": r.index,
                "parent": pd.NA if parent is None else parent.index,
                "depth": r.depth,
                "condition": r.conditions[-1].text() if r.conditions else "",
                "rule": r.rule,
                "size": r.size,
                "share": r.size / total,
                "heterogeneity": r.heterogeneity,
                "decrease": np.nan if parent is None else 1.0 - r.heterogeneity / parent.heterogeneity,
                "leaf": r in self.leaves,
            })
        table = pd.DataFrame(rows).set_index("region")
        table["parent"] = table["parent"].astype("Int64")
        return table

    def level_heterogeneity(self) -> pd.Series:
        """Per depth: the heterogeneity of the tree cut at that depth, size-weighted over its regions.

        The regions at that depth, and the leaves above it, partition the rows.
        """
        out = {}
        depth_max = max(r.depth for r in self.regions)
        for depth in range(depth_max + 1):
            cut = [r for r in self.regions if r.depth == depth or (r.depth < depth and r in self.leaves)]
            sizes = np.array([r.size for r in cut])
            out[depth] = float(np.sum(sizes * np.array([r.heterogeneity for r in cut])) / sizes.sum())
        return pd.Series(out, name="heterogeneity").rename_axis("depth")

    def to_frame(self, leaves_only: bool = True) -> pd.DataFrame:
        """Every region's curve as one long table: a ``region`` and ``rule`` column before each result's ``to_frame()``.

        Parameters
        ----------
        leaves_only : bool, default True
            Only the leaves (False: every region, the root first).

        Returns
        -------
        pandas.DataFrame
        """
        parts = []
        for r in (self.leaves if leaves_only else self.regions):
            frame = r.result.to_frame()
            frame.insert(0, "rule", r.rule)
            frame.insert(0, "region", r.index)
            parts.append(frame)
        return pd.concat(parts, ignore_index=True)

    def region_of(self, X: pd.DataFrame) -> np.ndarray:
        """The leaf each row of ``X`` falls into (its index in ``regions``).

        Parameters
        ----------
        X : pandas.DataFrame
            Rows with the columns the rules read (new rows too).

        Returns
        -------
        numpy.ndarray
            One region index per row.
        """
        out = np.full(X.shape[0], -1, dtype=np.int64)
        for leaf in self.leaves:
            inside = np.ones(X.shape[0], dtype=bool)
            for condition in leaf.conditions:
                inside &= condition.contains(X)
            out[inside] = leaf.index
        return out

    def plot(self, ax=None, *, leaves_only: bool = True, **kwargs):
        """Draw one panel per region, titled with its path (:meth:`pyale.ALEDisplay.from_regional`).

        Parameters
        ----------
        ax : matplotlib Axes or array of Axes, optional
            Where to draw (see :meth:`pyale.ALEDisplay.plot`).
        leaves_only : bool, default True
            Only the leaves (False: every region, the root first).
        **kwargs
            Passed to :meth:`pyale.ALEDisplay.plot`.

        Returns
        -------
        ALEDisplay
        """
        return _present.display_class("ALEDisplay").from_regional(self, ax=ax, leaves_only=leaves_only, **kwargs)

    def __repr__(self) -> str:
        leaves = self.leaves
        return (f"RegionalResult(feature={self.feature!r}, method={self.method!r}, regions={len(self.regions)}, "
                f"leaves={len(leaves)}, heterogeneity {self.regions[0].heterogeneity:.4g} -> "
                f"{self.level_heterogeneity().iloc[-1]:.4g})")

    def _repr_html_(self) -> str:
        return f"<p>{_escape(repr(self))}</p>" + self.table.to_html()


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
