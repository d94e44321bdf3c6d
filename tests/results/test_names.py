"""Result tables keep every column whatever the features are called.

pyale's own tables (``ALEResult.to_frame``, ``ALEPlotResult.to_frame``,
``PDPlotResult.to_frame``) keep their value columns and write a clashing
feature as ``feature_<name>``; iml's tables keep iml's column names and
refuse a feature named like one of them (iml 0.11.4 fails or loses the
column: see docs/deviations.md).  Labels that are not strings (ints,
tuples) stay as they are.
"""

from __future__ import annotations

import re
import warnings

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_array_equal

import pyale
from pyale._results.aleplot import feature_columns


def _frame(names, n=40, seed=0):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({f"c{i}": rng.normal(size=n) for i in range(len(names))})
    X.columns = pd.Index(list(names), tupleize_cols=False)
    return X


def _additive(X):
    """A model whose ALE of column i has slope i + 1 (an independent check of the table's values)."""
    return lambda d: sum((i + 1) * d.iloc[:, i].to_numpy() for i in range(d.shape[1]))


# ---------------------------------------------------------------- the naming rule


@pytest.mark.parametrize(
    ("labels", "reserved", "expected"),
    [
        (["x"], ["output", "ale"], ["x"]),
        (["ale"], ["output", "ale"], ["feature_ale"]),
        (["output", "ale"], ["output", "ale"], ["feature_output", "feature_ale"]),
        (["ale", "feature_ale"], ["ale"], ["feature_feature_ale", "feature_ale"]),
        (["feature_ale", "ale"], ["ale"], ["feature_ale", "feature_feature_ale"]),
        (["feature_x"], ["ale"], ["feature_x"]),  # a prefix alone changes nothing
        ([0, 1], ["output", "ale"], [0, 1]),
        ([("a", "b")], ["ale"], [("a", "b")]),
        (["pd"], ["pd"], ["feature_pd"]),
        (["ale"], ["pd"], ["ale"]),  # only the table's own columns are reserved
    ],
)
def test_feature_columns(labels, reserved, expected):
    names = feature_columns(labels, reserved)
    assert names == expected
    assert len(set(map(repr, names + list(reserved)))) == len(names) + len(reserved)


# ---------------------------------------------------------------- ALEResult.to_frame


@pytest.mark.parametrize(
    ("names", "feature", "columns"),
    [
        (["output", "z"], "output", ["feature_output", "output", "ale", "heterogeneity"]),
        (["ale", "z"], "ale", ["feature_ale", "output", "ale", "heterogeneity"]),
        (["x", "z"], "x", ["x", "output", "ale", "heterogeneity"]),
        ([0, 1], 0, [0, "output", "ale", "heterogeneity"]),
        ([("a", "b"), ("c", "d")], 0, [("a", "b"), "output", "ale", "heterogeneity"]),
        ([("output",), "ale"], 1, ["feature_ale", "output", "ale", "heterogeneity"]),
        (["heterogeneity", "z"], "heterogeneity", ["feature_heterogeneity", "output", "ale", "heterogeneity"]),
    ],
)
def test_ale_result_to_frame_keeps_the_grid_and_the_effect(names, feature, columns):
    X = _frame(names)
    res = pyale.ale(_additive(X), X, feature, n_intervals=5)
    frame = res.to_frame()
    assert list(frame.columns) == columns
    assert_array_equal(frame[columns[0]].to_numpy(float), res.grid[0])
    assert_array_equal(frame["ale"].to_numpy(float), res.effects[:, 0])
    assert frame["output"].tolist() == ["yhat"] * len(res.grid[0])
    slope = list(X.columns).index(res.features[0]) + 1
    steps = np.diff(frame["ale"].to_numpy(float)) / np.diff(frame[columns[0]].to_numpy(float))
    np.testing.assert_allclose(steps, slope, rtol=1e-12, atol=0)


@pytest.mark.parametrize(
    ("names", "columns"),
    [
        (["output", "ale", "heterogeneity"], ["feature_output", "feature_ale", "output", "ale", "heterogeneity"]),
        (["ale", "feature_ale"], ["feature_feature_ale", "feature_ale", "output", "ale", "heterogeneity"]),
        ([1, "1"], None),
        ([("a", "b"), ("c", "d")], [("a", "b"), ("c", "d"), "output", "ale", "heterogeneity"]),
    ],
)
def test_ale_result_pair_to_frame(names, columns):
    X = _frame(names)
    pair = (names[0], names[1]) if columns is not None else (1, "1")
    if columns is None:  # labels 1 and "1" are different columns
        X = pd.DataFrame({1: X.iloc[:, 0], "1": X.iloc[:, 1]})
        columns = [1, "1", "output", "ale", "heterogeneity"]
    res = pyale.ale(_additive(X), X, pair, n_intervals=3)
    frame = res.to_frame()
    assert list(frame.columns) == columns
    g1, g2 = np.meshgrid(res.grid[0], res.grid[1], indexing="ij")
    assert_array_equal(frame[columns[0]].to_numpy(float), g1.ravel())
    assert_array_equal(frame[columns[1]].to_numpy(float), g2.ravel())
    assert_array_equal(frame["ale"].to_numpy(float), res.effects[..., 0].ravel())


def test_ale_result_categorical_named_ale_keeps_its_levels():
    X = pd.DataFrame({"ale": list("abcab") * 8, "x": np.arange(40.0)})
    res = pyale.ale(lambda d: d["x"] + (d["ale"] == "b") * 2.0, X, "ale")
    frame = res.to_frame()
    assert list(frame.columns) == ["feature_ale", "output", "ale", "heterogeneity"]
    assert frame["feature_ale"].tolist() == list(res.grid[0])
    assert frame["ale"].to_numpy(float).dtype == float
    assert_array_equal(frame["ale"].to_numpy(float), res.effects[:, 0])


# ---------------------------------------------------------------- ALEPlot / PDPlot


@pytest.mark.parametrize("function,value", [(pyale.ALEPlot, "ale"), (pyale.PDPlot, "pd")])
@pytest.mark.parametrize(
    ("names", "J", "first"),
    [
        (["ale", "pd"], 0, "feature_ale"),
        (["ale", "pd"], 1, "feature_pd"),
        ([0, 1], 0, 0),
        ([("a", "b"), ("c", "d")], 0, ("a", "b")),
    ],
)
def test_aleplot_and_pdplot_to_frame(function, value, names, J, first):
    X = _frame(names)
    res = function(X, None, lambda _, newdata: _additive(X)(newdata), J=J, K=5, plot=False)
    frame = res.to_frame()
    label = names[J]
    expected_first = first if label == value else label
    assert list(frame.columns) == [expected_first, value]
    assert_array_equal(frame[expected_first].to_numpy(float), np.asarray(res.x_values, dtype=float))
    assert_array_equal(frame[value].to_numpy(float), res.f_values)


@pytest.mark.parametrize("function,value", [(pyale.ALEPlot, "ale"), (pyale.PDPlot, "pd")])
def test_aleplot_pairs_to_frame_with_clashing_and_tuple_labels(function, value):
    for names in (["ale", "pd"], [("a", "b"), ("c", "d")], [0, 1]):
        X = _frame(names)
        res = function(X, None, lambda _, newdata: _additive(X)(newdata), J=(0, 1), K=3, plot=False)
        frame = res.to_frame()
        expected = feature_columns(names, [value]) + [value]
        assert list(frame.columns) == expected
        assert frame.shape[0] == np.size(res.f_values)
        assert_array_equal(frame[value].to_numpy(float), np.asarray(res.f_values).ravel())


def test_a_tuple_label_is_one_feature_in_plots():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    X = _frame([("a", "b"), ("c", "d")])
    res = pyale.ALEPlot(X, None, lambda _, newdata: _additive(X)(newdata), J=0, K=4, plot=True)
    assert not res.is_pair
    assert res.display.line_ is not None
    import matplotlib.pyplot as plt

    plt.close("all")


# ---------------------------------------------------------------- iml tables

ALE_COLUMNS = "['.type', '.value', '.class']"
PAIR_COLUMNS = "['.type', '.ale', '.right', '.left', '.bottom', '.top', '.class']"
PD_COLUMNS = "['.type', '.value', '.class']"
ICE_COLUMNS = "['.type', '.value', '.class', '.id']"


def _refusal(caller, name, method, columns):
    return (
        f"The 'feature' parameter of {caller} names feature {name!r}, which is the name of one of the columns "
        f"of iml's results table for method {method!r} ({columns}). Rename that column of the data (iml 0.11.4 "
        "fails or loses the column here: see docs/deviations.md)."
    )


REFUSED = [
    (".value", "ale", False, ALE_COLUMNS),
    (".type", "ale", False, ALE_COLUMNS),
    (".class", "ale", False, ALE_COLUMNS),
    (".value", "pdp", False, PD_COLUMNS),
    (".type", "pdp", False, PD_COLUMNS),
    (".id", "ice", False, ICE_COLUMNS),
    (".id", "pdp+ice", False, ICE_COLUMNS),
    (".value", "pdp+ice", False, ICE_COLUMNS),
    (".ale", "ale", True, PAIR_COLUMNS),
    (".right", "ale", True, PAIR_COLUMNS),
    (".left", "ale", True, PAIR_COLUMNS),
    (".bottom", "ale", True, PAIR_COLUMNS),
    (".top", "ale", True, PAIR_COLUMNS),
    (".type", "ale", True, PAIR_COLUMNS),
    (".class", "pdp", True, PD_COLUMNS),
]


@pytest.mark.parametrize(("name", "method", "pair", "columns"), REFUSED)
def test_feature_effect_refuses_a_feature_named_like_its_columns(name, method, pair, columns):
    X = _frame([name, "b"])
    p = pyale.Predictor(predict_function=_additive(X), data=X)
    with pytest.raises(ValueError, match=re.escape(_refusal("FeatureEffect", name, method, columns))):
        pyale.FeatureEffect(p, [name, "b"] if pair else name, method=method, grid_size=3)


@pytest.mark.parametrize("name", [".value", ".type", ".class"])
def test_feature_effects_refuses_before_computing(name):
    calls = []
    X = _frame(["a", name])
    p = pyale.Predictor(predict_function=lambda d: calls.append(1) or _additive(X)(d), data=X)
    calls.clear()
    with pytest.raises(ValueError, match=re.escape(_refusal("FeatureEffects", name, "ale", ALE_COLUMNS))):
        pyale.FeatureEffects(p, grid_size=3)
    assert calls == []  # refused before the first feature's effect was computed


def _renamed(results: pd.DataFrame, old, new) -> pd.DataFrame:
    out = results.copy()
    out.columns = pd.Index([new if c == old else c for c in out.columns], tupleize_cols=False)
    return out


@pytest.mark.parametrize(
    ("name", "method", "pair"),
    [
        (".id", "pdp", False),  # no .id column in a PDP table (iml evaluates the model at 1, 2, 3, ...)
        (".id", "ale", False),
        (".ale", "ale", False),
        (".ale", "pdp+ice", False),
        (".value", "ale", True),
        (".borders", "ale", False),
        (".feature", "pdp", False),
        ("output", "ale", False),
    ],
)
def test_feature_effect_table_is_correct_where_names_do_not_clash(name, method, pair):
    """The table equals the one computed with the column called 'z' instead, renamed back."""
    X = _frame([name, "b"])
    Z = _frame(["z", "b"])
    got = pyale.FeatureEffect(pyale.Predictor(predict_function=_additive(X), data=X),
                              [name, "b"] if pair else name, method=method, grid_size=3).results
    plain = pyale.FeatureEffect(pyale.Predictor(predict_function=_additive(Z), data=Z),
                                ["z", "b"] if pair else "z", method=method, grid_size=3).results
    pd.testing.assert_frame_equal(got, _renamed(plain, "z", name), check_exact=True)


@pytest.mark.parametrize("name", [".feature", ".borders", "x"])
def test_feature_effects_long_table_keeps_grid_and_name(name):
    X = _frame([name, "b"])
    effects = pyale.FeatureEffects(pyale.Predictor(predict_function=_additive(X), data=X), grid_size=3)
    table = effects.results[name]
    assert list(table.columns) == [".type", ".value", ".borders", ".feature"]
    single = effects.effects[name].results
    assert_array_equal(table[".borders"].to_numpy(float), single[name].to_numpy(float))
    assert_array_equal(table[".value"].to_numpy(float), single[".value"].to_numpy(float))
    assert table[".feature"].tolist() == [name] * table.shape[0]


@pytest.mark.parametrize("names", [[0, 1], [("a", "b"), ("c", "d")], [1, "1"]])
@pytest.mark.parametrize("method", ["ale", "pdp", "pdp+ice"])
def test_feature_effect_and_effects_with_labels_that_are_not_strings(names, method):
    X = _frame(names)
    p = pyale.Predictor(predict_function=_additive(X), data=X)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        effects = pyale.FeatureEffects(p, method=method, grid_size=3)
    assert list(effects.results) == list(X.columns)
    for i, name in enumerate(X.columns):
        single = effects.effects[name].results
        assert name in list(single.columns)
        assert not isinstance(single.columns, pd.MultiIndex)
        long = effects.results[name]
        assert ".borders" in long.columns and name not in list(long.columns)
        assert long[".feature"].tolist() == [name] * long.shape[0]
        if method == "ale":
            grid = long[".borders"].to_numpy(float)
            steps = np.diff(long[".value"].to_numpy(float)) / np.diff(grid)
            np.testing.assert_allclose(steps, i + 1, rtol=1e-12, atol=0)


def test_a_tuple_label_and_a_pair_are_told_apart():
    X = _frame([("a", "b"), "a", "b"])
    p = pyale.Predictor(predict_function=_additive(X), data=X)
    with pytest.raises(ValueError, match=re.escape(
            "The 'feature' parameter of FeatureEffect is ambiguous: ('a', 'b') is a feature and also a pair of "
            "features. Pass [('a', 'b')] for the one feature, or a list for the pair.")):
        pyale.FeatureEffect(p, ("a", "b"))
    one = pyale.FeatureEffect(p, [("a", "b")], grid_size=3)
    assert one.feature_name == ("a", "b") and one.n_features == 1
    pair = pyale.FeatureEffect(p, ["a", "b"], grid_size=3)
    assert pair.n_features == 2
    only = _frame([("a", "b"), "c"])
    single = pyale.FeatureEffect(pyale.Predictor(predict_function=_additive(only), data=only), ("a", "b"),
                                 grid_size=3)
    assert single.n_features == 1 and ("a", "b") in list(single.results.columns)


# ---------------------------------------------------------------- iml itself (live)


def _r_frame(R, code):
    from rpy2.robjects import pandas2ri
    from rpy2.robjects.conversion import localconverter

    with localconverter(R.ro.default_converter + pandas2ri.converter):
        return R.ro.conversion.get_conversion().rpy2py(R(code))


@pytest.mark.r
def test_iml_breaks_on_the_names_pyale_refuses_and_agrees_where_it_does_not(R):
    """What docs/deviations.md says about iml 0.11.4 and feature names, checked live."""
    R.require("iml", "yaImpute")
    R("""
      suppressMessages(library(iml))
      set.seed(7)
      .names_d <- function(nm) { d <- data.frame(a = runif(40), b = runif(40)); names(d)[1] <- nm; d }
      .names_p <- function(nm) Predictor$new(data = .names_d(nm),
                                             predict.function = function(newdata) 2 * newdata[[1]] + newdata[[2]])
    """)
    with pytest.raises(Exception, match="need at least two non-NA values"):
        R('FeatureEffect$new(.names_p(".value"), ".value", grid.size = 3)')
    pdp = _r_frame(R, 'FeatureEffect$new(.names_p(".value"), ".value", method = "pdp", grid.size = 3)$results')
    assert list(pdp.columns) == [".value", ".value.1", ".type"]  # the grid column is lost
    with pytest.raises(Exception, match="undefined columns selected"):
        R('FeatureEffect$new(.names_p(".type"), ".type", grid.size = 3)')
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pair = _r_frame(R, 'FeatureEffect$new(.names_p(".ale"), c(".ale", "b"), grid.size = 3)$results')
    assert list(pair.columns) == [".type", ".ale", ".right", ".left", ".bottom", ".top", "b"]
    effects = _r_frame(R, 'FeatureEffects$new(.names_p(".feature"), grid.size = 3)$results[[".feature"]]')
    assert list(effects.columns) == [".type", ".value", ".borders"]
    assert set(effects[".borders"]) == {".feature"}  # the grid is replaced by the name
    pdp_id = _r_frame(R, 'FeatureEffect$new(.names_p(".id"), ".id", method = "pdp", grid.size = 3)$results')
    assert pdp_id[".id"].tolist() == [1, 2, 3]  # the model saw 1, 2, 3 instead of the grid

    # Where iml's table is right, pyale's equals it.
    for name in (".ale", ".borders", ".right"):
        R(f'.names_q <- .names_p("{name}")')
        r_res = _r_frame(R, f'FeatureEffect$new(.names_q, "{name}", grid.size = 4)$results')
        X = pd.DataFrame({name: np.asarray(R(f'.names_q$data$X[["{name}"]]'), dtype=float),
                          "b": np.asarray(R('.names_q$data$X[["b"]]'), dtype=float)})
        ours = pyale.FeatureEffect(pyale.Predictor(predict_function=lambda d: 2 * d.iloc[:, 0] + d["b"], data=X),
                                   name, grid_size=4).results
        assert list(ours.columns) == list(r_res.columns)
        np.testing.assert_allclose(ours[name].to_numpy(float), r_res[name].to_numpy(float), rtol=1e-12, atol=0)
        np.testing.assert_allclose(ours[".value"].to_numpy(float), r_res[".value"].to_numpy(float),
                                   rtol=1e-10, atol=1e-12)
