"""pyale.ALE beyond the fixtures: model calls, get()'s shapes, models, errors, and where pyale corrects ale."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal

import pyale
from pyale._core.map.explicit_draws import ExplicitDraws
from pyale._rbase.rng import ale_bootstrap_rows, iter_ale_bootstrap_rows


def _data(n=60, seed=3):
    rng = np.random.default_rng(seed)
    x = rng.uniform(0, 2, n)
    z = rng.normal(size=n)
    g = pd.Categorical(rng.choice(["a", "b", "c"], n))
    frame = pd.DataFrame({"x": x, "z": z, "g": g})
    frame["y"] = _f(frame) + rng.normal(0, 0.1, n)
    return frame


def _f(d):
    g = d["g"].map({"a": 0.0, "b": 1.0, "c": -1.0}).to_numpy(dtype=float)
    return (d["x"] ** 2 + d["x"] * d["z"] + g * d["z"]).to_numpy(dtype=float)


class Counting:
    """pred_fun counting calls and rows."""

    def __init__(self):
        self.calls = self.rows = 0

    def __call__(self, object, newdata, type):  # noqa: A002
        self.calls += 1
        self.rows += newdata.shape[0]
        return _f(newdata)


def test_replicates_cost_no_model_call():
    data = _data()
    counts = []
    for boot_it in (0, 1, 40):
        pf = Counting()
        res = pyale.ALE(None, ["x", "g", "x:z"], data, "y", pred_fun=pf, boot_it=boot_it, seed=5)
        counts.append((pf.calls, pf.rows))
        assert res.curves("x").shape[0] == 1 + boot_it
    assert counts[0] == counts[1] == counts[2]
    # one call on the data, 2 per 1-D term, 4 for the pair: each on the rows that move
    assert counts[0][0] == 1 + 2 + 2 + 4


def test_replicates_are_r_resamples_recomputed():
    """Replicate b equals the full computation on R's resampled rows with the full data's bins and centring."""
    data = _data()
    res = pyale.ALE(None, ["x"], data, "y", pred_fun=Counting(), boot_it=5, seed=11, max_num_bins=6)
    rows = ale_bootstrap_rows(len(data), 5, seed=11)
    ceilings = np.asarray(res.bins["x"])
    full = res.curves("x")[0]
    n_int = np.bincount(np.searchsorted(ceilings, data["x"], side="left").clip(1) - 1, minlength=len(ceilings) - 1)
    local_full = _local(data, ceilings, np.arange(len(data)))
    curve = np.cumsum(local_full)
    shift = np.sum((curve[:-1] + curve[1:]) / 2 * n_int) / n_int.sum()
    assert_allclose(full, curve - shift, rtol=1e-12)
    for b in range(5):
        local = _local(data, ceilings, rows[b])
        assert_allclose(res.curves("x")[b + 1], np.cumsum(local) - shift, rtol=1e-12, atol=1e-14)


def _local(data, ceilings, rows):
    x = data["x"].to_numpy()[rows]
    k = np.where(x == ceilings[0], 0, np.searchsorted(ceilings, x, side="left"))
    hi, lo = data.iloc[rows].copy(), data.iloc[rows].copy()
    hi["x"], lo["x"] = ceilings[k], ceilings[np.maximum(k - 1, 0)]
    d = _f(hi) - _f(lo)
    with np.errstate(invalid="ignore"):
        out = np.bincount(k, weights=d, minlength=len(ceilings)) / np.bincount(k, minlength=len(ceilings))
    out[0] = 0.0
    return out


def test_get_nests_as_r():
    data = _data()
    res = pyale.ALE(None, ["x", "g", "x:z"], data, "y", pred_fun=Counting())
    assert isinstance(res.get("x"), pd.DataFrame)
    assert list(res.get(["x", "g"])) == ["x", "g"]
    both = res.get()
    assert list(both) == ["d1", "d2"] and list(both["d1"]) == ["x", "g"] and list(both["d2"]) == ["x:z"]
    assert list(res.get("x:z").columns) == ["x.ceil", "z.ceil", ".n", ".y", ".y_lo", ".y_mean", ".y_median", ".y_hi"]
    assert list(res.get([("x", "z")]).columns)[:2] == ["x.ceil", "z.ceil"]
    estimate = res.get(stats="estimate")
    assert list(estimate) == ["d1", "d2"] and estimate["d1"]["term"].tolist() == ["x", "g"]
    assert list(res.get(["x", "g"], stats="estimate")["term"]) == ["x", "g"]
    long = res.get("g", stats=["aled", "naled"])
    assert long["statistic"].tolist() == ["aled", "naled"] and long["term"].tolist() == ["g", "g"]
    assert res.get("x", ale_centre="zero")[".y"].iloc[0] == res.curves("x")[0][0]
    assert res.get("x", ale_centre="mean")[".y"].iloc[0] == pytest.approx(res.curves("x")[0][0] + data["y"].mean())


def test_statistics_with_only_two_feature_terms():
    """R's get(stats = ...) fails with only 2-D terms (docs/ale-package.md, s. 10, case 9); pyale answers."""
    res = pyale.ALE(None, ["x:z"], _data(), "y", pred_fun=Counting(), boot_it=3)
    table = res.get(stats="estimate")
    assert table["term"].tolist() == ["x:z"] and np.isfinite(table["aled"]).all()


def test_numeric_binary_moves_from_its_smaller_value():
    """docs/ale-package.md, s. 10, case 2: R gives -1, 1 for 0/1 numbers (level code 1 as low value); pyale -10, 10."""
    d = pd.DataFrame({"x": [1.0, 2, 3, 10, 20, 30], "b": [0.0, 0, 0, 1, 1, 1], "y": np.arange(1.0, 7)})

    def pf(object, newdata, type):  # noqa: A002
        return newdata["x"] * newdata["b"].astype(float)

    numeric = pyale.ALE(None, "b", d, "y", pred_fun=pf).get("b", ale_centre="zero")[".y"].tolist()
    logical = pyale.ALE(None, "b", d.assign(b=d["b"] == 1), "y", pred_fun=pf).get("b", ale_centre="zero")
    assert numeric == [-10.0, 10.0] == logical[".y"].tolist()
    assert logical["b.bin"].astype(str).tolist() == ["FALSE", "TRUE"]


def test_models_without_pred_fun_and_response_from_the_formula():
    smf = pytest.importorskip("statsmodels.formula.api")
    data = _data()
    fit = smf.ols("y ~ x + I(x**2) + z + g", data=data).fit()
    res = pyale.ALE(fit, ["x", "g"], data)
    assert res.y_col == "y" and res.y_type == "numeric"
    ref = pyale.ALE(None, ["x", "g"], data, "y", pred_fun=lambda object, newdata, type: fit.predict(newdata))
    assert res.equals(ref)
    with pytest.raises(ValueError, match=re.escape("The 'pred_type' parameter of ALE is 'link'")):
        pyale.ALE(fit, ["x"], data, pred_type="link")


def test_sklearn_classifier_gives_one_table_per_class():
    pytest.importorskip("sklearn")
    from sklearn.linear_model import LogisticRegression

    data = _data()
    data["cls"] = pd.Categorical(np.where(data["y"] > data["y"].median(), "hi", "lo"))
    X = data[["x", "z"]]
    model = LogisticRegression().fit(X, data["cls"])
    res = pyale.ALE(model, ["x"], data.drop(columns=["y", "g"]), "cls", boot_it=4)
    assert res.y_type == "binary" and res.y_cats == ["hi", "lo"]
    tables = res.get("x")
    assert list(tables) == ["hi", "lo"]
    assert_allclose(tables["hi"][".y"] - res.y_summary.loc["50%", "hi"],
                    -(tables["lo"][".y"] - res.y_summary.loc["50%", "lo"]), atol=1e-12)


def test_no_response_column_uses_the_predictions():
    data = _data().drop(columns=["y"])
    res = pyale.ALE(None, ["x"], data, pred_fun=Counting())
    assert res.y_col is None and res.y_cats == ["yhat"]
    assert res.y_summary.loc["50%", "yhat"] == pytest.approx(np.median(_f(data)))


def test_result_object():
    data = _data()
    res = pyale.ALE(None, ["x", "g", "x:z"], data, "y", pred_fun=Counting(), boot_it=4)
    again = pyale.ALE(None, ["x", "g", "x:z"], data, "y", pred_fun=Counting(), boot_it=4)
    assert res.equals(again) and res != again
    other = pyale.ALE(None, ["x", "g", "x:z"], data, "y", pred_fun=Counting(), boot_it=4, seed=1)
    assert not res.equals(other)
    assert repr(res) == "ALE(terms=['x', 'g', 'x:z'], y_col='y', y_cats=y, max_num_bins=10, boot_it=4)"
    results = res.to_results()
    assert [r.kind for r in results] == ["numeric", "categorical", "numeric x numeric"]
    assert_allclose(results[0].effects[:, 0], res.get("x", ale_centre="zero")[".y"])
    assert_allclose(results[0].ci_high[:, 0], res.get("x", ale_centre="zero")[".y_hi"])
    pytest.importorskip("matplotlib")
    display = res.plot()
    assert type(display).__name__ == "ALEDisplay"
    assert "<img" in res._repr_html_()


def test_explicit_draws_across_chunks():
    n = 9000  # three chunks of rows
    rows = ale_bootstrap_rows(n, 3, seed=4)
    draws = ExplicitDraws.from_rows(rows, n)
    counts = draws.counts(0, n)
    for b in range(3):
        assert_array_equal(counts[b], np.bincount(rows[b], minlength=n))
    pieces = [c for chunk in range(3) for _, c in draws.chunk_counts(chunk)]
    assert_array_equal(np.concatenate(pieces).T, counts)
    assert draws.n_replicates == 3 and draws.n_rows == n and not draws.weighted


def test_streamed_draws_read_each_replicate_once_per_block_and_equal_the_kept_ones():
    n, B = 9000, 70  # three chunks of rows, three groups of replicates
    passes = []

    def replicates():
        passes.append(1)
        return iter_ale_bootstrap_rows(n, B, seed=6)

    streamed = ExplicitDraws.streamed(replicates, B, n)
    kept = ExplicitDraws.from_rows(ale_bootstrap_rows(n, B, seed=6), n)
    assert_array_equal(streamed.counts(0, n), kept.counts(0, n))
    passes.clear()
    pieces = list(streamed.block_counts(1000, 7000))
    assert len(passes) == 1  # one pass over the replicates for the block
    full = kept.counts(0, n)
    seen = np.zeros((B, 7000))
    for start, stop, group, counts in pieces:
        assert counts.dtype == np.float64 and counts.shape == (stop - start, group.shape[0]) and stop - start <= 4096
        seen[np.ix_(group, np.arange(start, stop))] = counts.T
    assert_array_equal(seen, full[:, 1000:8000])
    with pytest.raises(ValueError, match=re.escape("A replicate names a row beyond the 3 rows of the data.")):
        ExplicitDraws.from_rows([np.array([0, 3])], 3)


BAD = [
    (dict(pred_fun=None), TypeError, "The 'model' parameter of ALE is None: pass a fitted model, or a pred_fun"),
    (dict(pred_fun=3), TypeError, "The 'pred_fun' parameter of ALE must be None or a callable"),
    (dict(x_cols=["d"]), TypeError, "; ALE computes no ALE of dates or durations. Convert it to numbers"),
    (dict(x_cols=["c"]), ValueError, "Column 'c' is constant (1.0); its ALE is undefined"),
    (dict(x_cols=["one"]), ValueError, "Column 'one' has a single level 'a' in the data; its ALE is undefined"),
    (dict(max_num_bins=1), ValueError, "The 'max_num_bins' parameter of ALE must be a whole number >= 2. Got 1"),
    (dict(seed=1.5), ValueError, "The 'seed' parameter of ALE must be a whole number from"),
    (dict(x_cols=["x:z"], max_num_bins=10**9, data=pd.DataFrame({"x": np.arange(3000.0), "z": np.arange(3000.0)[::-1],
                                                                   "y": np.zeros(3000)})),
     ValueError, "The 'max_num_bins' parameter of ALE is 1000000000, which gives the pair ('x', 'z') a grid of "
                 "3,000 x 3,000 = 9,000,000 cells"),
]


@pytest.mark.parametrize(("override", "error", "message"), BAD)
def test_errors(override, error, message):
    data = _data().assign(d=pd.date_range("2020-01-01", periods=60), c=1.0,
                          one=pd.Categorical(["a"] * 60, categories=["a", "b"]))
    args = dict(model=None, x_cols=["x"], data=data, y_col="y", pred_fun=Counting())
    args.update(override)
    with pytest.raises(error, match=re.escape(message)):
        pyale.ALE(args.pop("model"), args.pop("x_cols"), args.pop("data"), args.pop("y_col"), **args)


GET_BAD = [
    (dict(x_cols="z"), ValueError, "The 'x_cols' parameter of get names ['z'], which this ALE did not compute"),
    (dict(ale_centre="mode"), ValueError, "The 'ale_centre' parameter of get must be 'median', 'mean' or 'zero'."),
    (dict(stats="aled2"), ValueError, "The 'stats' parameter of get must be 'estimate', 'all', or one or more of"),
    (dict(cats="q"), ValueError, "The 'cats' parameter of get must name categories of the response ['y']."),
]


@pytest.mark.parametrize(("kwargs", "error", "message"), GET_BAD)
def test_get_errors(kwargs, error, message):
    res = pyale.ALE(None, ["x"], _data(), "y", pred_fun=Counting())
    with pytest.raises(error, match=re.escape(message)):
        res.get(**kwargs)


PYTHONIC_BAD = [
    (dict(grid=[0, 1, 2]), "The 'grid' parameter of ale is not used under conventions='ale'"),
    (dict(sample_weight=np.ones(60)), "The 'sample_weight' parameter of ale is not supported under conventions='ale'."),
    (dict(level_order=["a", "b"], features="x"), "The 'level_order' parameter of ale applies to a categorical feature"),
]


@pytest.mark.parametrize(("kwargs", "message"), PYTHONIC_BAD)
def test_pythonic_door_refusals(kwargs, message):
    data = _data().drop(columns=["y"])
    arguments = dict(features="x")
    arguments.update(kwargs)
    with pytest.raises(ValueError, match=re.escape(message)):
        pyale.ale(_f, data, arguments.pop("features"), conventions="ale", **arguments)


def test_pythonic_door_level_order_and_bootstrap():
    data = _data().drop(columns=["y"])
    res = pyale.ale(_f, data, "g", conventions="ale", level_order=["c", "a", "b"], n_bootstrap=20, random_state=0)
    assert res.grid[0] == ("c", "a", "b") and res.replicates.shape == (20, 3, 1)
    assert np.isfinite(res.ci_low).all() and res.statistics.shape == (6, 3)
    pair = pyale.ale(_f, data, [("z", "g")], conventions="ale", n_intervals=3)[0]
    assert pair.kind == "numeric x categorical" and pair.effects.shape == (4, 3, 1)


def test_where_r_crashes_on_names_and_near_equal_ceilings():
    """docs/ale-package.md, s. 10, cases 5 and 6: R crashes; pyale answers."""
    d = pd.DataFrame({"my.bin.size": np.linspace(0, 1, 10), "z": np.arange(1.0, 11) / 7, "y": np.arange(10.0)})
    res = pyale.ALE(None, "my.bin.size", d, "y",
                    pred_fun=lambda object, newdata, type: newdata["my.bin.size"] ** 2 + newdata["z"])
    assert list(res.get("my.bin.size").columns)[0] == "my.bin.size.ceil"
    x = np.array([1, 1 + 2e-15, 1 + 4e-15, 2, 3, 4, 5, 6, 7, 8])
    d = pd.DataFrame({"x": x, "y": np.arange(10.0)})
    res = pyale.ALE(None, "x", d, "y", pred_fun=lambda object, newdata, type: newdata["x"] * 2)
    table = res.get("x", ale_centre="zero")
    assert table[".n"].tolist() == [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
    assert_allclose(np.diff(table[".y"]), 2 * np.diff(x), rtol=1e-9, atol=1e-14)
