"""pyale.ale's weights, bootstrap bands, statistics and heterogeneity (issue 12)."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

import pyale
from pyale._core.map.bootstrap import make_draws

CONVENTIONS = ["aleplot", "iml"]


def _data(seed: int, n: int = 400) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    x1 = rng.normal(size=n)
    return pd.DataFrame({
        "x1": x1,
        "x2": (0.5 * x1 + rng.normal(size=n)).round(2),
        "k": rng.integers(0, 12, size=n),
        "g": pd.Categorical(rng.choice(list("pqrs"), size=n, p=[0.4, 0.3, 0.2, 0.1])),
    })


def model(frame: pd.DataFrame) -> np.ndarray:
    level = frame["g"].cat.codes.to_numpy().astype(float)
    x1, x2, k = frame["x1"].to_numpy(), frame["x2"].to_numpy(), frame["k"].to_numpy()
    return np.sin(2 * x1) + x1 * x2 + 0.1 * k**1.5 + level * (x1 - x2)


class Counting:
    def __init__(self):
        self.calls = 0
        self.rows = 0

    def __call__(self, frame):
        self.calls += 1
        self.rows += frame.shape[0]
        return model(frame)


NUMERIC_FEATURES = ["x1", "k", ("x1", "x2")]
ALL_FEATURES = NUMERIC_FEATURES + ["g", ("g", "x2")]


@pytest.mark.parametrize("conventions", CONVENTIONS)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_integer_weights_equal_repeated_rows(conventions, seed):
    X = _data(seed)
    rng = np.random.default_rng(seed + 50)
    weights = rng.integers(0, 4, size=X.shape[0])
    repeated = X.iloc[np.repeat(np.arange(X.shape[0]), weights)].reset_index(drop=True)
    for feature in ALL_FEATURES:
        if conventions == "aleplot" and isinstance(feature, tuple) and feature[0] == "g":
            pass
        weighted = pyale.ale(model, X, feature, conventions=conventions, sample_weight=weights, n_intervals=8)
        plain = pyale.ale(model, repeated, feature, conventions=conventions, n_intervals=8)
        for a, b in zip(weighted.grid, plain.grid):
            if isinstance(a, tuple):
                assert a == b
            else:
                np.testing.assert_array_equal(a, b)
        np.testing.assert_allclose(weighted.effects, plain.effects, rtol=1e-12, atol=1e-12)
        np.testing.assert_array_equal(weighted.counts, plain.counts)
        np.testing.assert_allclose(weighted.heterogeneity, plain.heterogeneity, rtol=1e-9, atol=1e-12)
        pd.testing.assert_frame_equal(weighted.statistics, plain.statistics, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("conventions", CONVENTIONS)
@pytest.mark.parametrize("scale", [2.0**-20, 2.0**30, "1/n"])
def test_weights_scaled_by_a_constant_change_nothing(conventions, scale):
    # The level order of 'g' reads the numeric columns' type-7 probes, where the smallest positive
    # weight counts as one row: total weights below 1 (all 1/n) used to collapse every probe onto the
    # minimum, so numeric covariates stopped counting and the order changed.
    X = _data(3, n=300)
    for weights in [np.ones(X.shape[0]), np.random.default_rng(1).integers(1, 4, X.shape[0]).astype(float)]:
        factor = 1.0 / X.shape[0] if scale == "1/n" else scale
        # 1/n is not a power of two: each scaled weight is rounded, so a quantile edge on a tie of
        # cumulative weights may move (x2's grid); the level order must not.
        features = ["g"] if scale == "1/n" else ["g", ("g", "x2")]
        base = pyale.ale(model, X, features, conventions=conventions, sample_weight=weights)
        scaled = pyale.ale(model, X, features, conventions=conventions, sample_weight=weights * factor)
        for a, b in zip(base, scaled):
            if scale != "1/n":
                assert a.grid[0] == b.grid[0], (weights[:3], factor)
                np.testing.assert_allclose(b.effects, a.effects, rtol=1e-12, atol=1e-12)
                continue
            # 1/n rounds the ECDFs' last bits, which may flip the MDS eigenvector's sign (a reversed
            # order, each level's effect unchanged); before, the numeric columns stopped counting.
            assert b.grid[0] in (a.grid[0], a.grid[0][::-1]), (a.grid[0], b.grid[0])
            order = [b.grid[0].index(level) for level in a.grid[0]]
            np.testing.assert_allclose(b.effects[order], a.effects, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("feature", ALL_FEATURES)
def test_unit_weights_change_nothing(feature):
    X = _data(4)
    plain = pyale.ale(model, X, feature)
    weighted = pyale.ale(model, X, feature, sample_weight=np.ones(X.shape[0]))
    assert weighted.equals(plain)


@pytest.mark.parametrize("feature", ALL_FEATURES)
def test_bootstrap_costs_no_model_call_and_is_reproducible(feature):
    X = _data(5)
    plain_model, boot_model = Counting(), Counting()
    plain = pyale.ale(plain_model, X, feature)
    first = pyale.ale(boot_model, X, feature, n_bootstrap=300, random_state=7)
    assert (boot_model.calls, boot_model.rows) == (plain_model.calls, plain_model.rows)
    np.testing.assert_array_equal(first.effects, plain.effects)
    again = pyale.ale(model, X, feature, n_bootstrap=300, random_state=np.random.default_rng(7))
    other = pyale.ale(model, X, feature, n_bootstrap=300, random_state=8)
    same_seed = pyale.ale(model, X, feature, n_bootstrap=300, random_state=7)
    np.testing.assert_array_equal(first.replicates, same_seed.replicates)
    assert not np.array_equal(first.replicates, other.replicates)
    assert again.replicates.shape == (300,) + plain.effects.shape
    assert first.ci_low.shape == first.effects.shape == first.ci_high.shape
    assert np.all(first.ci_low <= first.ci_high)
    assert first.ci_level == 0.95 and first.bootstrap == "data"


@pytest.mark.parametrize("feature", ALL_FEATURES)
def test_replicates_equal_the_plain_effect_of_the_resampled_rows(feature):
    X = _data(6, n=600)
    result = pyale.ale(model, X, feature, n_bootstrap=6, random_state=3, n_intervals=5)
    counts = make_draws(X.shape[0], 6, 3).counts(0, X.shape[0])
    for b in range(6):
        resampled = X.iloc[np.repeat(np.arange(X.shape[0]), counts[b].astype(int))]
        # The full data's grid and level order, recomputed on the resampled rows.
        grids = [g for g, part in zip(result.grid, result.kind.split(" x ")) if part == "numeric"]
        kwargs = {}
        if result.level_order is not None:
            kwargs["level_order"] = list(result.level_order)
        if grids:
            kwargs["grid"] = grids[0] if len(result.features) == 1 else [
                None if part != "numeric" else g for g, part in zip(result.grid, result.kind.split(" x "))]
        try:
            again = pyale.ale(model, resampled, feature, **kwargs)
        except ValueError as exc:  # an interval without drawn rows: the replicate borrows the full mean
            assert "without rows" in str(exc)
            continue
        np.testing.assert_allclose(result.replicates[b], again.effects, rtol=1e-10, atol=1e-10)


def test_max_rows_per_call_gives_identical_bands():
    X = _data(8)
    a = pyale.ale(model, X, ["x1", "g", ("x1", "x2")], n_bootstrap=40, random_state=2)
    b = pyale.ale(model, X, ["x1", "g", ("x1", "x2")], n_bootstrap=40, random_state=2, max_rows_per_call=37)
    for r, s in zip(a, b):
        np.testing.assert_allclose(r.replicates, s.replicates, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(r.effects, s.effects, rtol=1e-12, atol=1e-12)


def test_weighted_bootstrap_never_draws_zero_weight_rows():
    X = _data(9)
    weights = np.ones(X.shape[0])
    weights[X["x1"] > 1] = 0.0  # those rows do not exist for the estimate
    with_zero = pyale.ale(model, X, "x2", sample_weight=weights, n_bootstrap=30, random_state=1)
    dropped = pyale.ale(model, X[weights > 0], "x2", n_bootstrap=30, random_state=1)
    np.testing.assert_allclose(with_zero.replicates, dropped.replicates, rtol=1e-12, atol=1e-12)


def test_heterogeneity_is_zero_for_an_additive_feature_and_positive_with_interactions():
    X = _data(10)
    additive = pyale.ale(lambda d: np.sin(d["x1"]) + d["x2"] ** 2, X, "x1")
    # Every row changes by the same amount (up to rounding of (a + c) - (b + c)).
    assert np.all(additive.heterogeneity[1:] < 1e-14) and np.isnan(additive.heterogeneity[0]).all()
    exactly = pyale.ale(lambda d: np.sin(d["x1"]), X, "x1")
    assert np.all(exactly.heterogeneity[1:] == 0.0)
    interacting = pyale.ale(lambda d: d["x1"] * d["x2"], X, "x1")
    assert np.all(interacting.heterogeneity[1:] > 0)
    frame = interacting.to_frame()
    assert list(frame.columns) == ["x1", "output", "ale", "heterogeneity"]


@pytest.mark.parametrize("piece", [None, 2])
def test_heterogeneity_with_weights_far_apart_is_the_exact_weighted_sd(monkeypatch, piece):
    """Rows of weight 1e-8 beside rows of weight 1e8: the spread is taken around the heaviest row's
    difference, so the light rows cost no digits (checked against fractions.Fraction), also when the
    rows are summed in pieces."""
    from fractions import Fraction

    from pyale._core.map import sums as sums_module

    if piece is not None:
        monkeypatch.setattr(sums_module, "PIECE", piece)
    X = pd.DataFrame({"x": [0.0, 1.0, 1.0, 2.0, 2.0, 3.0, 3.0], "z": [0.0, 0.3, 0.7, 0.2, 0.9, 0.5, 0.8]})
    w = np.array([1.0, 1e8, 1e-8, 1e-8, 1e8, 1.0, 1e-8])
    result = pyale.ale(lambda d: d["x"] * d["z"], X, "x", sample_weight=w, n_intervals=3)
    edges = result.grid[0]
    for k in range(1, edges.shape[0]):
        inside = ((X["x"] > edges[k - 1]) | (k == 1) & (X["x"] == edges[0])) & (X["x"] <= edges[k])
        d = [Fraction(float(edges[k]) * z - float(edges[k - 1]) * z) for z in X["z"][inside]]  # the model's doubles
        weights = [Fraction(v) for v in w[inside.to_numpy()]]
        total = sum(weights)
        mean = sum(a * b for a, b in zip(weights, d)) / total
        exact = float(sum(a * (b - mean) ** 2 for a, b in zip(weights, d)) / total) ** 0.5
        np.testing.assert_allclose(result.heterogeneity[k, 0], exact, rtol=1e-9)



@pytest.mark.parametrize("scale", [1e-300, 1e-200, 1e-160, 1e160, 1e200])
def test_equal_weights_of_any_size_give_the_unweighted_heterogeneity(scale):
    """Only the weights' ratios matter.  Weights near 1e-160 or 1e160 square the weighted sums out of the
    normal range of doubles; the heterogeneity was then not centred (tiny weights) or 0 everywhere (huge)."""
    import warnings

    rng = np.random.default_rng(16)
    X = pd.DataFrame({"x": rng.normal(size=200), "t": rng.integers(0, 5, size=200)})

    def model(d):
        return d["x"].to_numpy() * d["t"].to_numpy()

    plain = pyale.ale(model, X, "x", n_intervals=6)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        weighted = pyale.ale(model, X, "x", n_intervals=6, sample_weight=np.full(200, scale))
    np.testing.assert_allclose(weighted.effects, plain.effects, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(weighted.heterogeneity[1:], plain.heterogeneity[1:], rtol=1e-9)
    assert np.all(plain.heterogeneity[1:] > 0.1)

def test_statistics_of_a_linear_effect_by_hand():
    X = _data(11)
    result = pyale.ale(lambda d: 2.0 * d["x1"], X, "x1", n_intervals=10, y=2.0 * X["x1"])
    edges = result.grid[0]
    counts = result.counts
    curve = 2.0 * edges - np.sum((2.0 * (edges[:-1] + edges[1:]) / 2) * counts) / counts.sum()
    np.testing.assert_allclose(result.effects[:, 0], curve, rtol=1e-12, atol=1e-12)
    mids = (curve[:-1] + curve[1:]) / 2
    stats = result.statistics["estimate"]
    assert stats["aled"] == pytest.approx(np.sum(np.abs(mids) * counts) / counts.sum(), rel=1e-12)
    assert stats["aler_min"] == pytest.approx(curve.min(), rel=1e-12)
    assert stats["aler_max"] == pytest.approx(curve.max(), rel=1e-12)
    assert -50 <= stats["naler_min"] <= 0 <= stats["naler_max"] <= 50


def test_statistics_of_a_list_and_of_classifiers():
    from sklearn.linear_model import LogisticRegression

    X = _data(12)[["x1", "x2"]]
    target = (X["x1"] + X["x2"] > 0).map({True: "yes", False: "no"})
    clf = LogisticRegression().fit(X, target)
    result = pyale.ale(clf, X, "x1", n_bootstrap=20, random_state=0)
    table = result.statistics
    assert list(table.index.names) == ["output", "statistic"]
    assert set(table.index.get_level_values("output")) == {"no", "yes"}
    assert list(table.columns) == ["estimate", "ci_low", "ci_high"]


BAD = [
    ({"sample_weight": np.full(400, "1.0")}, TypeError, "The 'sample_weight' parameter of ale must be non-negative finite numbers, one per row of X (400). Got text (e.g. ['1.0']) instead; convert it with pandas.to_numeric first."),
    ({"sample_weight": [1.0, 2.0]}, ValueError, "The 'sample_weight' parameter of ale must be non-negative finite numbers, one per row of X (400). Got 2 values instead."),
    ({"sample_weight": -np.ones(400)}, ValueError, "The 'sample_weight' parameter of ale must hold non-negative finite numbers. Got -1.0 at position 0 (400 bad value(s))."),
    ({"sample_weight": np.zeros(400)}, ValueError, "The 'sample_weight' parameter of ale must give at least one row a positive weight."),
    # a string names a column of X (issue 27: as on Dask and Spark and in the CLI's --weights)
    ({"sample_weight": "w"}, ValueError, "The 'sample_weight' parameter of ale must be one weight per row of X or name a column of X. Got 'w'; the columns are ['x1', 'x2', 'k', 'g']."),
    ({"n_bootstrap": -1}, ValueError, "The 'n_bootstrap' parameter of ale must be an int >= 0. Got -1 instead."),
    ({"n_bootstrap": 2.5}, TypeError, "The 'n_bootstrap' parameter of ale must be an int >= 0. Got 2.5 instead."),
    ({"ci_level": 1.0}, ValueError, "The 'ci_level' parameter of ale must be a number in (0, 1). Got 1.0 instead."),
    ({"ci_level": "95%"}, TypeError, "The 'ci_level' parameter of ale must be a number in (0, 1). Got '95%' instead."),
    ({"random_state": "seed"}, TypeError, "The 'random_state' parameter of ale must be None, an int, a numpy.random.Generator or SeedSequence. Got str instead."),
    ({"random_state": -3}, ValueError, "The 'random_state' parameter of ale must be a non-negative int. Got -3 instead."),
    ({"y": np.full(400, np.nan)}, ValueError, "The 'y' parameter of ale must hold finite numbers. Got nan at position 0 (400 missing or infinite value(s))."),
    ({"y": "nope"}, ValueError, "The 'y' parameter of ale must be one number per row of X or the name of a column of X. Got 'nope', which is not a column."),
]


@pytest.mark.parametrize("kwargs, error, message", BAD)
def test_bad_uncertainty_arguments(kwargs, error, message):
    with pytest.raises(error, match=re.escape(message)):
        pyale.ale(model, _data(0), "x1", **kwargs)


@pytest.mark.parametrize("features", ["w", ["x1", "w"], [("x1", "w")]])
def test_the_weight_column_is_no_feature(features):
    # The sample_weight column weighs the rows and never reaches the model: asking for its effect is refused
    # by name (it was reported as "not a column of X").
    X = _data(0).assign(w=1.0)
    with pytest.raises(ValueError, match=re.escape(
            "The 'features' parameter of ale names 'w', the sample_weight column: it weighs the rows and is no "
            "feature (the model never sees it).")):
        pyale.ale(model, X, features, sample_weight="w")


def test_a_weight_column_of_text_is_refused():
    # As a Dask or Spark text column is: numbers read as text (a CSV) are not parsed silently.
    X = _data(0).assign(w="1.0")
    with pytest.raises(TypeError, match=re.escape("Got text (e.g. ['1.0']) instead")):
        pyale.ale(model, X, "x1", sample_weight="w")


def test_the_spread_of_ordinary_weights_is_the_same_double_as_before():
    """The spread divides before squaring only where the square leaves the normal range: with weights and
    values of ordinary size every double is the plain formula's, squares - centred * centred / weight."""
    from pyale._core.map.sums import GroupSums

    rng = np.random.default_rng(7)
    for _ in range(200):
        groups, outputs = int(rng.integers(1, 30)), int(rng.integers(1, 3))
        weight = rng.uniform(1e-5, 1e5, size=groups) * (rng.random(groups) > 0.1)
        centred = rng.normal(size=(groups, outputs)) * 10.0 ** rng.integers(-20, 20, size=(groups, 1))
        squares = centred * centred / np.where(weight > 0, weight, 1.0)[:, None] * rng.uniform(1, 3, (groups, 1))
        sums = GroupSums(rows=np.ones(groups), weight=weight, total=np.zeros((groups, outputs)),
                         reference=np.zeros((groups, outputs)), centred=centred, squares=squares)
        w = weight[:, None]
        with np.errstate(invalid="ignore", divide="ignore"):
            plain = np.where(w > 0, np.maximum(squares - centred * centred / np.where(w > 0, w, 1.0), 0.0), 0.0)
        assert np.array_equal(sums.spread, plain)
