"""Test helpers for engines: an engine over explicit blocks, and plain references."""

from __future__ import annotations

import numpy as np
import pandas as pd

from numpy.testing import assert_array_equal

from pyale._engines import Engine, add_results


class BlockEngine(Engine):
    """A pandas frame cut into given blocks, answered as a distributed engine would.

    ``in_memory`` is False, so the summaries take their distributed paths;
    blocks hold only the columns a ``columns`` hint names;
    block results are combined in a shuffled tree (``seed``) to show that
    nothing depends on the order of combination.
    """

    def __init__(self, frame: pd.DataFrame, sizes, *, seed: int = 0):
        sizes = list(sizes)
        assert sum(sizes) == frame.shape[0]
        self.frame = frame
        self.n_rows = frame.shape[0]
        self.columns = frame.columns
        self.dtypes = frame.dtypes
        self.starts = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(int).tolist()
        self.sizes = sizes
        self.rng = np.random.default_rng(seed)
        self.passes = 0

    def map_reduce(self, func, combine=add_results, *, columns=None):
        self.passes += 1
        frame = self.frame if columns is None else self.frame[list(dict.fromkeys(columns))]  # a wrong hint fails
        parts = [
            func(frame.iloc[start : start + size], start)
            for start, size in zip(self.starts, self.sizes)
        ]
        while len(parts) > 1:
            i = int(self.rng.integers(0, len(parts) - 1))
            parts[i : i + 2] = [combine(parts[i], parts[i + 1])]
        return parts[0] if parts else None


def random_sizes(rng, n: int, *, max_blocks: int = 8) -> list[int]:
    """Block sizes summing to ``n``, with empty blocks and blocks of one row now and then."""
    k = int(rng.integers(1, max_blocks + 1))
    cuts = np.sort(rng.integers(0, n + 1, size=k - 1))
    sizes = np.diff(np.concatenate(([0], cuts, [n]))).tolist()
    if rng.random() < 0.3:
        sizes.insert(int(rng.integers(0, len(sizes) + 1)), 0)
    return sizes


def one_row_blocks(n: int) -> list[int]:
    return [1] * n


def same_values(got: np.ndarray, expected: np.ndarray) -> None:
    """Identical doubles (a zero's sign may differ, as np.sort leaves it unspecified)."""
    assert_array_equal(got, expected)
    nonzero = expected != 0
    assert_array_equal(np.signbit(got[nonzero]), np.signbit(expected[nonzero]))


def distances_from(summary, n_levels: int) -> np.ndarray:
    """pyale._core.levels's distance, from the summaries only, with the core's own arithmetic."""
    from pyale._core.levels import _max_abs_differences, _sequential_l1

    total = np.zeros((n_levels, n_levels))
    for cov in summary.covariates:
        if hasattr(cov, "probes"):
            if cov.probes is None:
                continue
            total = total + _max_abs_differences(cov.ecdfs)
        else:
            used = np.flatnonzero(cov.table.any(axis=0))
            shares = cov.table[:, used] / summary.level_sizes.astype(float)[:, None]
            total = total + _sequential_l1(shares) / 2
    np.fill_diagonal(total, 0.0)
    return total


def assert_checks_equal(got: dict, expected: dict) -> None:
    """Two column_checks results agree field by field (dtypes aside)."""
    assert list(got) == list(expected)
    for name in expected:
        a, b = got[name], expected[name]
        for field in a.__dataclass_fields__:
            if field == "dtype":
                continue
            x, y = getattr(a, field), getattr(b, field)
            if isinstance(y, np.ndarray):
                assert_array_equal(x, y, err_msg=f"{name}.{field}")
            else:
                assert x == y or (x != x and y != y), f"{name}.{field}: {x!r} != {y!r}"
