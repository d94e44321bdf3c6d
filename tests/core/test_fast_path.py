"""The fast paths of issue 6 against a plain reference, on samples large enough to take them.

pyale finds interval edges and bins of large columns through a cell map
(``pyale._rbase.cells``, from ``MIN_SIZE`` values on) and writes shifted columns
into one private copy of the rows (``pyale._core.map.shifted.ShiftedFrames``).  The
reference below shares no code with either: a full ``np.sort`` and R's
type-1 quantile rule for the edges, ``np.searchsorted`` for the bins, a
fresh ``X.copy()`` per shifted frame, one model call per frame, and
ALEPlot's accumulation and centring written out as in its R source
(``cran/ALEPlot`` 1.1 ``R/ALEPlot.R``; iml 0.11.4's
``calculate.ale.num`` centres the same way).  Every number must be
identical, not merely close.  Two bugs this file found (more interval edges
than values; a model that changes its ``newdata`` in place) are pinned by
tests of their own.

The model is a polynomial (plus one division) in the columns: each value is
a correctly rounded function of its own row, so the answer cannot depend on
how rows are split into blocks or which SIMD loop computed them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_array_equal

import pyale
from pyale._rbase import cells as _cells

N_ROWS = 300_000
COLUMNS = ["normal", "ties", "count", "heavy", "cauchy", "floored"]


# --- the plain reference ----------------------------------------------------------------


def r_seq(start: float, stop: float, length_out: int) -> np.ndarray:
    """R's ``seq(from, to, length.out = n)``: ``c(from, from + (1:(n-2)) * ((to - from)/(n - 1)), to)``."""
    if length_out == 1:
        return np.array([start])
    steps = np.arange(1, length_out - 1) * ((stop - start) / (length_out - 1))
    return np.concatenate([[start], start + steps, [stop]])


def type1_positions(n: int, probs: np.ndarray) -> np.ndarray:
    """0-based positions of R's ``quantile(x, probs, type = 1)`` (R 4.2) in the sorted sample:
    with ``j = floor(n * p)``, the j-th order statistic when ``n * p == j``, else the
    (j + 1)-th; the 0-th is the 1st."""
    n_times_p = n * probs
    j = np.floor(n_times_p)
    rank = np.where(n_times_p > j, j + 1, j)
    return np.maximum(rank, 1).astype(np.int64) - 1


def r_quantile_type1(values: np.ndarray, probs: np.ndarray) -> np.ndarray:
    """R's ``quantile(x, probs, type = 1)``, from a full sort."""
    return np.sort(values)[type1_positions(values.shape[0], probs)]


def aleplot_edges(values: np.ndarray, K: int) -> np.ndarray:
    """``unique(c(min(x), quantile(x, seq(1/K, 1, length.out = K), type = 1)))``."""
    return np.unique(np.concatenate([[np.min(values)], r_quantile_type1(values, r_seq(1 / K, 1.0, K))]))


def iml_edges(values: np.ndarray, grid_size: int, integer: bool) -> np.ndarray:
    """``quantile(x, seq(0, 1, length.out = grid.size + 1), type = 1)``, rounded for an
    integer column (R rounds half to even, as NumPy), then ``unique``."""
    edges = r_quantile_type1(values, r_seq(0.0, 1.0, grid_size + 1))
    return np.unique(np.round(edges) if integer else edges)


def right_closed_bins(values: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Interval k is ``(edges[k], edges[k + 1]]``, ``edges[0]`` itself in interval 0;
    below the edges -1, above them ``len(edges) - 1``."""
    bins = np.searchsorted(edges, values, side="left") - 1
    bins[values == edges[0]] = 0
    return bins


def plain_ale(X: pd.DataFrame, name, edges: np.ndarray, predict) -> tuple[np.ndarray, np.ndarray]:
    """Counts per interval and the centred ALE at each edge, as ALEPlot's R code."""
    bins = right_closed_bins(X[name].to_numpy(dtype=float), edges)
    at_lower, at_upper = X.copy(), X.copy()
    at_lower[name] = edges[bins]
    at_upper[name] = edges[bins + 1]
    differences = predict(at_upper) - predict(at_lower)
    K = edges.shape[0] - 1
    counts = np.bincount(bins, minlength=K)
    local = np.bincount(bins, weights=differences, minlength=K) / counts  # sums in row order
    curve = np.concatenate([[0.0], np.cumsum(local)])
    centre = np.sum((curve[:-1] + curve[1:]) / 2 * counts) / np.sum(counts)
    return counts, curve - centre


def plain_ale_pair(X, names, edges1, edges2, predict) -> tuple[np.ndarray, np.ndarray]:
    """Counts per cell and the centred second-order ALE, as ALEPlot's R code (no empty cells)."""
    bins1 = right_closed_bins(X[names[0]].to_numpy(dtype=float), edges1)
    bins2 = right_closed_bins(X[names[1]].to_numpy(dtype=float), edges2)
    y = {}
    for corner in ("11", "12", "21", "22"):
        shifted = X.copy()
        shifted[names[0]] = edges1[bins1 + int(corner[0]) - 1]
        shifted[names[1]] = edges2[bins2 + int(corner[1]) - 1]
        y[corner] = predict(shifted)
    second_order = (y["22"] - y["21"]) - (y["12"] - y["11"])
    K1, K2 = edges1.shape[0] - 1, edges2.shape[0] - 1
    cell = bins1 * K2 + bins2
    b = np.bincount(cell, minlength=K1 * K2).reshape(K1, K2)
    assert b.min() > 0, "the reference has no nearest-cell imputation"
    delta = (np.bincount(cell, weights=second_order, minlength=K1 * K2) / b.ravel()).reshape(K1, K2)
    fJ = np.zeros((K1 + 1, K2 + 1))
    fJ[1:, 1:] = np.cumsum(np.cumsum(delta, axis=1), axis=0)
    step = fJ[1:, :] - fJ[:-1, :]
    fJ1 = np.concatenate([[0.0], np.cumsum(np.sum(b * (step[:, :-1] + step[:, 1:]) / 2, axis=1) / b.sum(axis=1))])
    step = fJ[:, 1:] - fJ[:, :-1]
    fJ2 = np.concatenate([[0.0], np.cumsum(np.sum(b * (step[:-1, :] + step[1:, :]) / 2, axis=0) / b.sum(axis=0))])
    fJ = fJ - fJ1[:, None] - fJ2[None, :]
    corners = (fJ[:-1, :-1] + fJ[:-1, 1:] + fJ[1:, :-1] + fJ[1:, 1:]) / 4
    return b, fJ - np.sum(b * corners) / np.sum(b)


# --- data and model ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def X() -> pd.DataFrame:
    rng = np.random.default_rng(2024)
    n = N_ROWS
    return pd.DataFrame({
        "normal": rng.standard_normal(n),
        "ties": np.round(rng.standard_normal(n), 1),  # about 90 distinct values
        "count": rng.integers(0, 8, n),  # int64: iml rounds its grid
        "heavy": rng.standard_t(3, n),  # heavy tails: crowded cells in the centre
        "cauchy": rng.standard_cauchy(n),  # so skewed that the cell map declines
        "floored": np.maximum(rng.standard_normal(n), -1.3),  # the minimum is about 10% of the rows
    })


def model(frame: pd.DataFrame) -> np.ndarray:
    a, t, c, h, s, m = (frame[name].to_numpy(dtype=float) for name in COLUMNS)
    return a * t + t * c - c * c / 3 + h * a + s / (1 + s * s) + m * m * a


def ale_plot_model(X_model, newdata):
    return model(newdata)


# What pyale._rbase.cells must do without plain work for each column.  Edges: order
# statistics without sorting every value, for grids up to this many intervals.
# Bins: no binary search of every value.  The rest may fall back to plain NumPy
# by design: ties, integers and the crowded centre of the t(3) sample put the
# wanted order statistics into cells holding many values; the Cauchy sample
# sits in a few cells of its huge range, so no cell map is built.
FAST_EDGES_UP_TO = {"normal": 250, "heavy": 40, "floored": 250}
FAST_BINS = {"normal", "ties", "count", "heavy", "floored"}


class _PlainWorkSpy:
    """Stands in for NumPy inside ``pyale._rbase.cells``; records the sizes of full sorts and searches."""

    def __init__(self, monkeypatch):
        self.sorted_sizes: list[int] = []
        self.searched_sizes: list[int] = []
        search = _cells._bins_by_search

        def recorded_search(values, edges):
            self.searched_sizes.append(values.shape[0])
            return search(values, edges)

        monkeypatch.setattr(_cells, "np", self)
        monkeypatch.setattr(_cells, "_bins_by_search", recorded_search)

    def __getattr__(self, name):
        return getattr(np, name)

    def sort(self, values, *args, **kwargs):
        self.sorted_sizes.append(np.shape(values)[0])
        return np.sort(values, *args, **kwargs)

    def check(self, column: str, n_intervals: int) -> None:
        if n_intervals <= FAST_EDGES_UP_TO.get(column, 0):
            assert max(self.sorted_sizes, default=0) < N_ROWS // 4, self.sorted_sizes
        if column in FAST_BINS:
            assert max(self.searched_sizes, default=0) < N_ROWS // 4, self.searched_sizes


@pytest.fixture
def spy(monkeypatch):
    return _PlainWorkSpy(monkeypatch)


# --- the front-ends against the reference ----------------------------------------------


@pytest.mark.parametrize("K", [40, 250])
@pytest.mark.parametrize("column", COLUMNS)
def test_aleplot_and_ale_match_the_plain_reference(X, column, K, spy):
    edges = aleplot_edges(X[column].to_numpy(dtype=float), K)
    counts, effects = plain_ale(X, column, edges, model)

    result = pyale.ALEPlot(X, None, ale_plot_model, J=column, K=K, plot=False)
    spy.check(column, K)
    assert result.K == edges.shape[0] - 1
    assert_array_equal(result.x_values, edges)
    assert_array_equal(result.counts, counts)
    assert_array_equal(result.f_values, effects)

    result = pyale.ale(model, X, column, n_intervals=K)
    assert_array_equal(result.grid[0], edges)
    assert_array_equal(result.counts, counts)
    assert_array_equal(result.effects[:, 0], effects)


@pytest.mark.parametrize("grid_size", [20, 250])
@pytest.mark.parametrize("column", COLUMNS)
def test_iml_conventions_match_the_plain_reference(X, column, grid_size, spy):
    edges = iml_edges(X[column].to_numpy(dtype=float), grid_size, integer=column == "count")
    counts, effects = plain_ale(X, column, edges, model)

    effect = pyale.FeatureEffect(pyale.Predictor(data=X, predict_function=model), column, grid_size=grid_size)
    spy.check(column, grid_size)
    assert_array_equal(effect.results[column], edges)
    assert_array_equal(effect.effect.counts, counts)
    assert_array_equal(effect.results[".value"], effects)

    result = pyale.ale(model, X, column, conventions="iml", n_intervals=grid_size)
    assert_array_equal(result.grid[0], edges)
    assert_array_equal(result.counts, counts)
    assert_array_equal(result.effects[:, 0], effects)


@pytest.mark.parametrize("pair", [("normal", "heavy"), ("ties", "count")])
def test_numeric_pair_matches_the_plain_reference(X, pair, spy):
    edges1 = aleplot_edges(X[pair[0]].to_numpy(dtype=float), 10)
    edges2 = aleplot_edges(X[pair[1]].to_numpy(dtype=float), 10)
    counts, effects = plain_ale_pair(X, pair, edges1, edges2, model)

    result = pyale.ALEPlot(X, None, ale_plot_model, J=list(pair), K=10, plot=False)
    spy.check(pair[0], 10)
    spy.check(pair[1], 10)
    assert_array_equal(result.x_values[0], edges1)
    assert_array_equal(result.x_values[1], edges2)
    assert_array_equal(result.counts, counts)
    assert_array_equal(result.f_values, effects)


# --- the fast helpers against plain NumPy ------------------------------------------------


def test_the_cell_map_is_built_where_the_fast_path_is_expected(X):
    assert N_ROWS >= _cells.MIN_SIZE
    for column in COLUMNS:
        cells = _cells._slot_map(X[column].to_numpy(dtype=float))
        if column == "cauchy":  # so its cases compare the plain fallback with the reference
            assert cells is None
        else:
            assert cells is not None, column


def _positions(n: int, rng) -> np.ndarray:
    """Type-1 positions of ALEPlot's and iml's grids, both ends, and random positions."""
    wanted = [[0, 1, n - 2, n - 1], rng.integers(0, n, 200)]
    for K in (1, 2, 40, 250, 5000):
        wanted.append(type1_positions(n, r_seq(1 / K, 1.0, K)))
        wanted.append(type1_positions(n, r_seq(0.0, 1.0, K + 1)))
    return np.concatenate(wanted)


@pytest.mark.parametrize("column", COLUMNS)
def test_order_statistics_equal_a_full_sort(X, column):
    values = X[column].to_numpy(dtype=float, copy=True)
    positions = _positions(values.shape[0], np.random.default_rng(7))
    expected = np.sort(values)[positions]
    assert_array_equal(_cells.order_statistics(values, positions), expected)
    values.flags.writeable = False  # read-only: the cell map is kept and reused
    assert_array_equal(_cells.order_statistics(values, positions), expected)
    assert_array_equal(_cells.order_statistics(values, positions[::-1]), expected[::-1])


def _edge_sets(values: np.ndarray, rng) -> dict[str, np.ndarray]:
    ordered = np.sort(values)
    low, high = ordered[0], ordered[-1]
    quantiles = aleplot_edges(values, 40)
    inner = np.unique(ordered[np.linspace(0, values.shape[0] - 1, 60).astype(np.int64)])
    return {
        "ALEPlot grid": quantiles,
        "iml grid": iml_edges(values, 250, integer=False),
        "beyond the data": np.concatenate([[low - 1.0], quantiles[1:-1], [high + 1.0]]),
        "far beyond the data": np.concatenate([[-1e300], quantiles[1:-1], [1e300]]),
        "inside the data": inner[3:-3],
        "all above the data": high + np.arange(1.0, 4.0),
        "minimum and the next double": np.unique(np.concatenate([[low, np.nextafter(low, np.inf)], quantiles])),
        "from the second smallest value": np.concatenate([[ordered[ordered > low][0]], quantiles[1:]]),
        "every distinct value": np.unique(values)[:50_000],
        "thousands of data values": np.unique(rng.choice(values, 3000)),
        "between data values": np.unique((inner[:-1] + inner[1:]) / 2),
    }


@pytest.mark.parametrize("column", COLUMNS)
def test_right_closed_bins_equal_binary_search(X, column):
    values = X[column].to_numpy(dtype=float, copy=True)
    values.flags.writeable = False
    for label, edges in _edge_sets(values, np.random.default_rng(11)).items():
        if edges.shape[0] < 2:
            continue
        assert_array_equal(_cells.bins_right_closed(values, edges), right_closed_bins(values, edges), err_msg=label)


def test_more_edges_than_values_in_the_cell_map_range():
    rng = np.random.default_rng(3)
    values = rng.standard_normal(_cells.MIN_SIZE)
    edges = np.sort(rng.standard_normal(_cells.MIN_SIZE + 10_000))
    assert_array_equal(_cells.bins_right_closed(values, edges), right_closed_bins(values, edges))


# --- rows in blocks, and the shifted frames themselves -----------------------------------


def test_rows_in_blocks_give_identical_numbers(X):
    block = 70_001  # five blocks, the last one short
    calls = []

    def counted(X_model, newdata):
        calls.append(newdata.shape[0])
        return model(newdata)

    edges = aleplot_edges(X["normal"].to_numpy(dtype=float), 40)
    _, effects = plain_ale(X, "normal", edges, model)
    whole = pyale.ALEPlot(X, None, ale_plot_model, J="normal", K=40, plot=False)
    split = pyale.ALEPlot(X, None, counted, J="normal", K=40, plot=False, max_rows_per_call=block)
    # Block by block, the lower then the upper edges of each block.
    assert calls == [block] * 8 + [N_ROWS - 4 * block] * 2
    assert_array_equal(split.f_values, whole.f_values)
    assert_array_equal(split.f_values, effects)
    assert_array_equal(split.counts, whole.counts)

    for conventions in ("aleplot", "iml"):
        whole = pyale.ale(model, X, "count", conventions=conventions)
        split = pyale.ale(model, X, "count", conventions=conventions, max_rows_per_call=block)
        assert_array_equal(split.grid[0], whole.grid[0])
        assert_array_equal(split.effects, whole.effects)

    predictor = pyale.Predictor(data=X, predict_function=model)
    whole = pyale.FeatureEffect(predictor, "heavy", grid_size=50)
    split = pyale.FeatureEffect(predictor, "heavy", grid_size=50, max_rows_per_call=block)
    pd.testing.assert_frame_equal(split.results, whole.results, check_exact=True)

    whole = pyale.ALEPlot(X, None, ale_plot_model, J=["normal", "heavy"], K=10, plot=False)
    split = pyale.ALEPlot(X, None, ale_plot_model, J=["normal", "heavy"], K=10, plot=False,
                          max_rows_per_call=block)
    assert_array_equal(split.f_values, whole.f_values)


@pytest.mark.parametrize("block", [None, 70_001])
def test_a_frame_with_a_categorical_column_matches_the_plain_reference(X, block):
    # Not all columns numeric: shifted frames share the untouched columns instead
    # of writing into a private copy.
    mixed = X.assign(group=pd.Categorical(np.where(X["count"] > 3, "b", "a")))

    def grouped(frame):
        return model(frame) + (frame["group"] == "b").to_numpy() * frame["heavy"].to_numpy(dtype=float)

    edges = aleplot_edges(X["heavy"].to_numpy(dtype=float), 40)
    counts, effects = plain_ale(mixed, "heavy", edges, grouped)
    result = pyale.ALEPlot(mixed, None, lambda m, d: grouped(d), J="heavy", K=40, plot=False,
                           max_rows_per_call=block)
    assert_array_equal(result.x_values, edges)
    assert_array_equal(result.counts, counts)
    assert_array_equal(result.f_values, effects)


def test_frames_a_model_keeps_still_hold_what_it_was_asked(X):
    # The shifted column is written in place into one private copy of the rows;
    # a frame the model still holds must not change when the next one is built.
    kept = []

    def keeping(X_model, newdata):
        kept.append(newdata)
        return model(newdata)

    result = pyale.ALEPlot(X, None, keeping, J="ties", K=40, plot=False)
    edges = result.x_values
    bins = right_closed_bins(X["ties"].to_numpy(dtype=float), edges)
    lower, upper = kept
    assert_array_equal(lower["ties"], edges[bins])
    assert_array_equal(upper["ties"], edges[bins + 1])
    for frame in kept:
        pd.testing.assert_frame_equal(frame.drop(columns="ties"), X.drop(columns="ties"), check_exact=True)


def test_a_model_that_changes_newdata_does_not_change_the_next_frame(X):
    def rescaling(X_model, newdata):
        newdata["normal"] = newdata["normal"] * 2  # e.g. a unit conversion inside pred_fun
        return model(newdata)

    small = X.iloc[:2000]
    expected = pyale.ALEPlot(small, None, lambda m, d: model(d.assign(normal=d["normal"] * 2)),
                             J="heavy", K=20, plot=False)
    got = pyale.ALEPlot(small, None, rescaling, J="heavy", K=20, plot=False)
    assert_array_equal(got.f_values, expected.f_values)
