"""Exact global summaries over blocks (pyale._core.exact.summaries) against plain NumPy.

Every summary is computed on ``BlockEngine`` (blocks of any size, empty ones
and one-row ones included, combined in a shuffled order, the distributed
code paths) and on ``PandasEngine`` (the in-memory paths), and compared with
a plain computation on the whole column: ``np.sort`` for order statistics,
``pyale._rbase``'s quantiles, and the level distances of
``pyale._core.grid.levels`` for the level-ordering summaries.  Small gather
budgets and few histogram cells make small samples go through every
refinement step of the selection.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numpy.testing import assert_array_equal

from engine_helpers import BlockEngine, distances_from, one_row_blocks, random_sizes, same_values
from pyale import _rbase
from pyale._core.grid.features import read_covariate, read_feature
from pyale._core.grid.levels import level_distances
from pyale._engines import PandasEngine
from pyale._core.exact import (
    column_checks,
    level_order_summaries,
    order_statistics,
    order_statistics_of,
    quantiles_type1,
    quantiles_type7,
    weighted_order_statistics_of,
    weighted_quantiles_type1,
    weighted_quantiles_type7_of,
)
from pyale._core.exact.cellmaps import CellMap, float_keys, float_of_key, key_of

SPECIAL = [0.0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
           -1.7976931348623157e308, 1.0, -1.0, 1e-300, 1e300]


def sorted_finite(x: np.ndarray) -> np.ndarray:
    return np.sort(x[np.isfinite(x)])


def engines(frame: pd.DataFrame, rng):
    n = frame.shape[0]
    yield PandasEngine(frame)
    yield BlockEngine(frame, [n])
    yield BlockEngine(frame, random_sizes(rng, n), seed=int(rng.integers(1 << 30)))
    if n <= 200:
        yield BlockEngine(frame, one_row_blocks(n), seed=1)


TUNINGS = [{}, {"gather_budget": 0, "cell_bits": 2}, {"gather_budget": 5, "cell_bits": 3}]


# --- keys ------------------------------------------------------------------------------


def test_keys_preserve_order_and_round_trip():
    values = np.array(sorted(SPECIAL + [-np.inf, np.inf, 3.5, -2.25]))
    values = np.array([-np.inf, -1.7976931348623157e308, -1e300, -2.25, -1.0, -2.2250738585072014e-308,
                       -5e-324, -0.0, 0.0, 5e-324, 1e-300, 1.0, 3.5, 1e300, 1.7976931348623157e308, np.inf])
    keys = float_keys(values).astype(object)
    assert all(a < b for a, b in zip(keys, keys[1:]))
    for value in values:
        back = float_of_key(key_of(value))
        assert back == value and np.signbit(back) == np.signbit(value)


@settings(max_examples=200, deadline=None, database=None)
@given(
    ends=st.lists(st.one_of(st.floats(allow_nan=False, allow_infinity=False), st.sampled_from(SPECIAL)), min_size=2, max_size=2),
    bits=st.integers(2, 16),
    seed=st.integers(0, 2**32 - 1),
)
def test_cell_maps_are_monotone_and_know_where_each_cell_starts(ends, bits, seed):
    low, high = sorted(key_of(v) for v in ends)
    if low == high:
        return
    cell_map = CellMap.over(low, high, bits)
    rng = np.random.default_rng(seed)
    sampled = [low + int(f * (high - low)) for f in rng.random(200)]
    sampled += [low + int(d) for d in rng.integers(0, 1000, size=50) if low + int(d) <= high]
    keys = np.unique(np.array([low, high, *sampled], dtype=np.uint64))
    values = np.array([float_of_key(int(k)) for k in keys])
    cells = cell_map.cells(values, keys)
    assert np.all(np.diff(cells) >= 0) and cells.min() >= 0 and cells.max() < cell_map.n_cells
    wanted = np.unique(cells)
    for cell, first in zip(wanted, cell_map.first_keys(wanted)):
        first = int(first)
        assert low <= first <= high
        at = np.array([first], dtype=np.uint64)
        assert cell_map.cells(np.array([float_of_key(first)]), at)[0] >= cell
        if first > low:
            before = np.array([first - 1], dtype=np.uint64)
            assert cell_map.cells(np.array([float_of_key(first - 1)]), before)[0] < cell


# --- order statistics --------------------------------------------------------------------


def column_values(draw_kind: str, rng, n: int) -> np.ndarray:
    if draw_kind == "normal":
        return rng.normal(size=n)
    if draw_kind == "ties":
        return rng.integers(0, 4, size=n).astype(float)
    if draw_kind == "integers":
        return rng.integers(-10**6, 10**6, size=n).astype(float)
    if draw_kind == "constant":
        return np.full(n, 2.5)
    if draw_kind == "special":
        return rng.choice(SPECIAL, size=n)
    if draw_kind == "huge":
        return rng.choice([-1, 1], size=n) * rng.uniform(1e307, 1.7976931348623157e308, size=n)
    if draw_kind == "subnormal":
        return rng.integers(-50, 50, size=n) * 5e-324
    if draw_kind == "heavy":
        return rng.standard_cauchy(size=n) ** 3
    if draw_kind == "with_missing":
        x = rng.normal(size=n)
        x[rng.random(n) < 0.2] = np.nan
        x[rng.random(n) < 0.05] = np.inf
        x[rng.random(n) < 0.05] = -np.inf
        return x
    raise AssertionError(draw_kind)


KINDS = ["normal", "ties", "integers", "constant", "special", "huge", "subnormal", "heavy", "with_missing"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("tuning", TUNINGS, ids=["default", "tiny", "small"])
def test_order_statistics_equal_a_full_sort(kind, tuning):
    rng = np.random.default_rng(abs(hash((kind, len(tuning)))) % (1 << 32))
    for n in [1, 2, 7, 60, 500]:
        x = column_values(kind, rng, n)
        expected_sorted = sorted_finite(x)
        if expected_sorted.shape[0] == 0:
            continue
        positions = rng.integers(0, expected_sorted.shape[0], size=12)
        positions = np.concatenate((positions, [0, expected_sorted.shape[0] - 1]))
        frame = pd.DataFrame({"x": x, "other": np.arange(n)})
        for engine in engines(frame, rng):
            got = order_statistics(engine, "x", positions, **tuning) if not engine.in_memory else \
                order_statistics(engine, "x", positions)
            same_values(got, expected_sorted[positions])


@settings(max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    values=st.lists(
        st.one_of(
            st.floats(allow_nan=True, allow_infinity=True),
            st.sampled_from(SPECIAL),
            st.integers(-3, 3).map(float),
        ),
        min_size=1,
        max_size=60,
    ),
    seed=st.integers(0, 2**32 - 1),
    cell_bits=st.integers(2, 16),
    budget=st.integers(0, 70),
)
def test_order_statistics_property(values, seed, cell_bits, budget):
    x = np.array(values, dtype=float)
    expected_sorted = sorted_finite(x)
    if expected_sorted.shape[0] == 0:
        return
    rng = np.random.default_rng(seed)
    positions = np.arange(expected_sorted.shape[0])
    engine = BlockEngine(pd.DataFrame({"x": x}), random_sizes(rng, x.shape[0]), seed=seed)
    got = order_statistics(engine, "x", positions, gather_budget=budget, cell_bits=cell_bits)
    same_values(got, expected_sorted)


def test_order_statistics_with_infinite_values_kept():
    x = np.array([np.inf, 1.0, -np.inf, np.nan, 0.5, np.inf])
    frame = pd.DataFrame({"x": x})
    for engine in [PandasEngine(frame), BlockEngine(frame, [2, 0, 1, 3])]:
        got = order_statistics(engine, "x", np.arange(5), include_infinite=True)
        assert_array_equal(got, [-np.inf, 0.5, 1.0, np.inf, np.inf])


def test_order_statistics_of_several_columns_share_passes():
    rng = np.random.default_rng(3)
    n = 3000
    frame = pd.DataFrame({"a": rng.normal(size=n), "b": rng.integers(0, 9, size=n), "c": rng.standard_cauchy(n)})
    engine = BlockEngine(frame, random_sizes(rng, n))
    checks = column_checks(engine)
    wanted = {c: rng.integers(0, n, size=40) for c in frame.columns}
    engine.passes = 0
    got = order_statistics_of(engine, wanted, checks=checks, gather_budget=200, cell_bits=8)
    for column, positions in wanted.items():
        same_values(got[column], np.sort(frame[column].to_numpy(dtype=float))[positions])
    together = engine.passes
    alone = []
    for column, positions in wanted.items():
        engine.passes = 0
        order_statistics(engine, column, positions, checks=checks, gather_budget=200 // 3, cell_bits=8)
        alone.append(engine.passes)
    assert together < sum(alone)  # the columns share passes


def test_large_column_takes_three_passes():
    rng = np.random.default_rng(4)
    n = 3_000_000  # more than the gather budget
    frame = pd.DataFrame({"x": rng.normal(size=n)})
    engine = BlockEngine(frame, [n // 4] * 4)
    checks = column_checks(engine)
    positions = _rbase.quantile_type1_positions(n, _rbase.r_seq(1 / 40, 1, 40))
    engine.passes = 0
    got = order_statistics(engine, "x", positions, checks=checks)
    same_values(got, np.sort(frame["x"].to_numpy())[positions])
    assert engine.passes == 2  # one histogram, one gather


def test_heavy_ties_in_a_large_column_need_no_gathering():
    n = 3_000_000
    frame = pd.DataFrame({"x": np.repeat([1.0, 2.0, 7.0], n // 3)})
    engine = BlockEngine(frame, [n // 3] * 3)
    positions = np.array([0, n // 3 - 1, n // 3, n - 1])
    got = order_statistics(engine, "x", positions, checks=column_checks(engine))
    assert_array_equal(got, [1.0, 1.0, 2.0, 7.0])


@pytest.mark.parametrize(
    "positions, message",
    [
        ([3], "Order statistics of column 'x' must be at positions 0 to 2 (it has 3 values). Got [3] instead."),
        ([-1], "Order statistics of column 'x' must be at positions 0 to 2 (it has 3 values). Got [-1] instead."),
    ],
)
def test_order_statistics_refuse_positions_outside_the_sample(positions, message):
    frame = pd.DataFrame({"x": [1.0, np.nan, 2.0, 3.0]})
    for engine in [PandasEngine(frame), BlockEngine(frame, [2, 2])]:
        with pytest.raises(ValueError, match=re.escape(message)):
            order_statistics(engine, "x", positions)


def test_order_statistics_refuse_a_categorical_column():
    frame = pd.DataFrame({"s": ["a", "b"]})
    with pytest.raises(TypeError, match=re.escape("order_statistics needs a numeric column; column 's' is categorical")):
        order_statistics(PandasEngine(frame), "s", [0])


# --- quantiles ---------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["normal", "ties", "integers", "special", "with_missing", "huge"])
def test_quantiles_equal_rbase(kind):
    rng = np.random.default_rng(7)
    for n in [1, 2, 3, 10, 101, 997]:
        x = column_values(kind, rng, n)
        finite = x[np.isfinite(x)]
        if finite.shape[0] == 0:
            continue
        frame = pd.DataFrame({"x": x})
        for k in [1, 4, 40]:
            probs = _rbase.r_seq(1 / k, 1.0, k)
            for engine in engines(frame, rng):
                assert_array_equal(quantiles_type1(engine, "x", probs), _rbase.quantile_type1(finite, probs))
        probs7 = np.concatenate((_rbase.r_seq(0.0, 1.0, 100), rng.random(20)))
        expected = _rbase.quantile_type7(finite, probs7)
        for engine in engines(frame, rng):
            got = quantiles_type7(engine, "x", probs7)
            assert got.tobytes() == expected.tobytes() or np.array_equal(got, expected)


# --- column checks -----------------------------------------------------------------------


def test_column_checks_equal_plain_counts():
    rng = np.random.default_rng(11)
    n = 400
    x = rng.normal(size=n)
    x[rng.random(n) < 0.1] = np.nan
    x[[17, 230]] = [-np.inf, np.inf]
    strings = rng.choice(["b", "a", "Z", "é", "a b"], size=n).astype(object)
    strings[rng.random(n) < 0.1] = None
    frame = pd.DataFrame(
        {
            "x": x,
            "i": rng.integers(-5, 5, size=n),
            "cat": pd.Categorical(rng.choice(["lo", "mid", "hi"], size=n), categories=["lo", "mid", "hi", "unused"], ordered=True),
            "s": strings,
            "flag": rng.random(n) < 0.5,
            "when": pd.to_datetime(rng.integers(0, 10**9, size=n), unit="s"),
            "mixed": np.array([1, "a"] * (n // 2), dtype=object),
        }
    )
    for engine in engines(frame, rng):
        checks = column_checks(engine)
        c = checks["x"]
        assert (c.kind, c.n_rows, c.n_missing) == ("numeric", n, int(np.isnan(x).sum()))
        assert c.first_missing == int(np.flatnonzero(np.isnan(x))[0])
        assert (c.n_negative_infinite, c.n_positive_infinite, c.first_infinite, c.first_infinite_value) == (1, 1, 17, -np.inf)
        finite = x[np.isfinite(x)]
        assert (c.n_finite, c.minimum, c.maximum) == (finite.shape[0], finite.min(), finite.max())
        assert checks["i"].integer and checks["i"].n_missing == 0 and checks["i"].first_missing is None
        cat = checks["cat"]
        assert cat.kind == "categorical" and cat.ordered
        assert cat.categories == ("lo", "mid", "hi", "unused")
        assert cat.levels == ("lo", "mid", "hi")
        assert cat.level_counts.tolist() == [int((frame["cat"] == v).sum()) for v in cat.levels]
        assert cat.categorical_dtype == frame["cat"].dtype
        s = checks["s"]
        present = [v for v in strings if v is not None]
        assert s.levels == tuple(sorted(set(present))) == ("Z", "a", "a b", "b", "é")
        assert s.level_counts.tolist() == [present.count(v) for v in s.levels]
        assert s.first_missing == next(i for i, v in enumerate(strings) if v is None)
        assert checks["flag"].kind == "bool" and checks["when"].kind == "datetime"
        assert checks["mixed"].kind == "other"


def test_column_checks_weighted():
    frame = pd.DataFrame({"x": [1.0, np.nan, 3.0, 4.0], "s": ["a", "b", "a", None], "w": [1.0, 2.0, 0.5, 4.0]})
    for engine in [PandasEngine(frame), BlockEngine(frame, [1, 0, 3])]:
        checks = column_checks(engine, ["x", "s"], weight="w")
        assert checks["x"].finite_weight == 5.5
        assert checks["s"].level_weights.tolist() == [1.5, 2.0]


def test_column_checks_of_an_all_missing_and_an_empty_frame():
    frame = pd.DataFrame({"x": [np.nan, np.nan], "s": pd.Series([None, None], dtype=object)})
    checks = column_checks(BlockEngine(frame, [0, 1, 1]))
    assert checks["x"].n_finite == 0 and checks["x"].minimum is None and checks["x"].first_missing == 0
    assert checks["s"].kind == "categorical" and checks["s"].levels == ()
    empty = column_checks(BlockEngine(frame.iloc[:0], []))
    assert empty["x"].n_rows == 0


# --- level ordering ----------------------------------------------------------------------


def level_frame(rng, n: int) -> pd.DataFrame:
    levels = ["d", "b", "a", "c"]
    feature = rng.choice(levels, size=n)
    shift = np.array([levels.index(v) for v in feature], dtype=float)
    x = rng.normal(size=n) + shift
    x[rng.random(n) < 0.05] = np.nan
    x[rng.random(n) < 0.02] = np.inf
    ties = rng.integers(0, 3, size=n) + (shift > 1)
    s = rng.choice(["u", "v", "w"], size=n).astype(object)
    s[rng.random(n) < 0.05] = None
    return pd.DataFrame(
        {
            "x": x,
            "f": pd.Categorical(feature, categories=["c", "a", "zz", "b", "d"]),
            "ties": ties,
            "s": s,
            "g": pd.Categorical(rng.choice(["p", "q"], size=n), categories=["q", "p", "r"]),
            "flag": rng.random(n) < 0.3 + 0.1 * shift,
        }
    )


@pytest.mark.parametrize("feature", ["f", "s"])
def test_level_order_summaries_give_the_core_distances(feature):
    rng = np.random.default_rng(21)
    for n in [9, 150, 2000]:
        frame = level_frame(rng, n)
        if feature == "s":
            frame = frame[frame["s"].notna()].reset_index(drop=True)
        read = read_feature(frame[feature], label="f")
        covariates = [read_covariate(frame[c]) for c in frame.columns if c != feature]
        expected = level_distances(read.codes, len(read.levels), covariates)
        for engine in engines(frame, rng):
            summary = level_order_summaries(engine, feature)
            assert summary.levels == read.levels
            assert_array_equal(summary.level_sizes, np.bincount(read.codes))
            assert_array_equal(distances_from(summary, len(read.levels)), expected)


def test_level_order_summaries_ecdfs_and_tables_equal_plain_counts():
    rng = np.random.default_rng(5)
    frame = level_frame(rng, 300)
    summary = level_order_summaries(BlockEngine(frame, random_sizes(rng, 300)), "f", ["x", "s"])
    levels = summary.levels
    assert levels == ("c", "a", "b", "d")
    x = frame["x"].to_numpy()
    finite = np.isfinite(x)
    probes = _rbase.quantile_type7(x[finite], _rbase.r_seq(0, 1, 100))
    numeric, categorical = summary.covariates
    assert_array_equal(numeric.probes, probes)
    for i, level in enumerate(levels):
        sample = x[finite & (frame["f"] == level).to_numpy()]
        assert_array_equal(numeric.ecdfs[i], _rbase.ecdf_at(sample, probes))
        assert numeric.present[i] == sample.shape[0]
        s = frame["s"][frame["f"] == level]
        assert categorical.table[i].tolist() == [int((s == v).sum()) for v in categorical.categories]


def test_level_order_summaries_weighted_counts_equal_repeated_rows():
    rng = np.random.default_rng(8)
    frame = level_frame(rng, 120)
    weights = rng.integers(0, 4, size=120)
    weighted = frame.assign(w=weights.astype(float))
    repeated = frame.loc[frame.index.repeat(weights)].reset_index(drop=True)
    plain = level_order_summaries(PandasEngine(repeated), "f", ["s", "g"])
    got = level_order_summaries(BlockEngine(weighted, random_sizes(rng, 120)), "f", ["s", "g"], weight="w")
    assert_array_equal(got.level_sizes, plain.level_sizes)
    for a, b in zip(got.covariates, plain.covariates):
        assert_array_equal(a.table, b.table)


def test_level_order_summaries_refuse_a_numeric_feature():
    frame = pd.DataFrame({"x": [1.0, 2.0], "y": [1.0, 2.0]})
    with pytest.raises(TypeError, match=re.escape("Column 'x' is numeric (dtype float64); only a categorical feature has levels to order.")):
        level_order_summaries(PandasEngine(frame), "x")


# --- weighted ----------------------------------------------------------------------------


def repeated(x: np.ndarray, weights: np.ndarray) -> np.ndarray:
    return np.repeat(x, weights.astype(np.int64))


@pytest.mark.parametrize("kind", ["normal", "ties", "special", "with_missing", "huge"])
@pytest.mark.parametrize("tuning", TUNINGS, ids=["default", "tiny", "small"])
def test_weighted_quantiles_equal_those_of_repeated_rows(kind, tuning):
    rng = np.random.default_rng(len(kind) + len(tuning))
    for n in [1, 5, 80, 600]:
        x = column_values(kind, rng, n)
        weights = rng.integers(0, 4, size=n).astype(float)
        weights[rng.integers(0, n)] = 1.0  # at least one row of positive weight
        expanded = repeated(x, weights)
        expanded = expanded[np.isfinite(expanded)]
        if expanded.shape[0] == 0:
            continue
        frame = pd.DataFrame({"x": x, "w": weights})
        probs1 = np.concatenate((_rbase.r_seq(1 / 40, 1.0, 40), [0.0, 0.5]))
        probs7 = _rbase.r_seq(0.0, 1.0, 100)
        for engine in engines(frame, rng):
            got1 = weighted_quantiles_type1(engine, "x", probs1, "w") if engine.in_memory else \
                weighted_order_statistics_of(
                    engine, {"x": column_checks(engine, ["x"], weight="w")["x"].finite_weight * probs1}, "w", **tuning
                )["x"]
            same_values(got1, _rbase.quantile_type1(expanded, probs1))
            got7 = weighted_quantiles_type7_of(engine, {"x": probs7}, "w")["x"]
            assert_array_equal(got7, _rbase.quantile_type7(expanded, probs7))


def test_unit_weights_change_no_order_statistic():
    rng = np.random.default_rng(12)
    x = column_values("with_missing", rng, 300)
    frame = pd.DataFrame({"x": x, "w": np.ones(300)})
    finite = sorted_finite(x)
    engine = BlockEngine(frame, random_sizes(rng, 300))
    got = weighted_order_statistics_of(engine, {"x": np.arange(finite.shape[0]) + 1.0}, "w", gather_budget=7, cell_bits=3)
    same_values(got["x"], finite)


def test_weighted_order_statistics_skip_rows_of_weight_zero():
    frame = pd.DataFrame({"x": [-5.0, 1.0, 2.0, 9.0], "w": [0.0, 2.0, 1.0, 0.0]})
    for engine in [PandasEngine(frame), BlockEngine(frame, [1, 2, 1])]:
        got = weighted_order_statistics_of(engine, {"x": [0.0, 1.0, 2.0, 2.5, 3.0]}, "w")["x"]
        assert_array_equal(got, [1.0, 1.0, 1.0, 2.0, 2.0])


def test_weighted_level_order_summaries_equal_those_of_repeated_rows():
    rng = np.random.default_rng(13)
    frame = level_frame(rng, 150)
    weights = rng.integers(0, 4, size=150)
    weighted = frame.assign(w=weights.astype(float))
    expanded = frame.loc[frame.index.repeat(weights)].reset_index(drop=True)
    plain = level_order_summaries(PandasEngine(expanded), "f")
    for engine in [PandasEngine(weighted), BlockEngine(weighted, random_sizes(rng, 150))]:
        got = level_order_summaries(engine, "f", weight="w")
        assert_array_equal(got.level_sizes, plain.level_sizes)
        assert_array_equal(distances_from(got, len(got.levels)), distances_from(plain, len(plain.levels)))
        for a, b in zip(got.covariates, plain.covariates):
            if hasattr(a, "probes"):
                assert_array_equal(a.probes, b.probes)
                assert_array_equal(a.at_or_below, b.at_or_below)


@pytest.mark.parametrize("arrow", [False, True], ids=["numpy", "arrow"])
def test_date_time_covariates_count_by_rank_in_memory_and_are_refused_elsewhere(arrow):
    rng = np.random.default_rng(14)
    n = 400
    frame = level_frame(rng, n)
    # nanosecond instants 1 ns apart: float64 cannot tell them apart, their ranks can
    ticks = 1_600_000_000_000_000_000 + rng.integers(0, 50, size=n) + 10 * (frame["f"] == "a").to_numpy()
    frame["when"] = pd.to_datetime(ticks, unit="ns")
    frame.loc[rng.random(n) < 0.05, "when"] = pd.NaT
    frame["span"] = pd.to_timedelta(rng.integers(0, 5, size=n), unit="D")
    if arrow:  # Arrow-backed: their stored integers (ArrowExtensionArray has no .asi8)
        pa = pytest.importorskip("pyarrow")
        frame["when"] = frame["when"].astype(pd.ArrowDtype(pa.timestamp("ns")))
        frame["span"] = frame["span"].astype(pd.ArrowDtype(pa.duration("ns")))
        frame["day"] = pd.Series(pa.array(frame["when"].dt.floor("D").astype("datetime64[ns]").to_numpy(),
                                          from_pandas=True).cast(pa.date32()), dtype=pd.ArrowDtype(pa.date32()))
    read = read_feature(frame["f"], label="f")
    covariates = [read_covariate(frame[c]) for c in frame.columns if c != "f"]
    expected = level_distances(read.codes, len(read.levels), covariates)
    for engine in [PandasEngine(frame), PandasEngine(frame, max_rows_per_block=37)]:
        summary = level_order_summaries(engine, "f")
        assert_array_equal(distances_from(summary, len(read.levels)), expected)
    message = f"Column 'when' holds date-times (dtype {frame['when'].dtype}); pyale orders the levels of 'f' by the ranks"
    with pytest.raises(TypeError, match=re.escape(message)):
        level_order_summaries(BlockEngine(frame, [n]), "f")


def test_strings_holding_nul_stay_apart():
    frame = pd.DataFrame(
        {"s": pd.Series(["a", "a\x00", "b", "a", None, "a\x00b"], dtype=object), "x": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]}
    )
    for engine in [PandasEngine(frame), BlockEngine(frame, [2, 0, 4])]:
        check = column_checks(engine)["s"]
        assert check.levels == ("a", "a\x00", "a\x00b", "b")
        assert check.level_counts.tolist() == [2, 1, 1, 1]
        summary = level_order_summaries(engine, "s", ["x"], probe_probs=np.array([0.0, 1.0]))
        assert summary.level_sizes.tolist() == [2, 1, 1, 1]
        assert summary.covariates[0].present.tolist() == [2, 1, 1, 1]
