"""pyale.model_bootstrap's target and data handling: ``y`` as a column of X, class labels, and a
``fit`` that edits its training rows (issue 26)."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from sklearn.linear_model import LinearRegression, LogisticRegression

import pyale
from snapshots import Snapshot


def _data(n: int = 120) -> pd.DataFrame:
    rng = np.random.default_rng(3)
    X = pd.DataFrame({"a": rng.normal(size=n), "b": rng.normal(size=n)})
    return X.assign(t=3 * X["a"] - X["b"] + rng.normal(size=n) * 0.1)


def linear(rows, target):
    return LinearRegression().fit(rows, target)


def test_y_as_a_column_name_is_the_target_and_leaves_the_features():
    X = _data()
    seen = []

    def fit(rows, target):
        seen.append(list(rows.columns))
        return linear(rows, target)

    by_name = pyale.model_bootstrap(fit, X, "t", "a", n_bootstrap=3, random_state=0)
    by_values = pyale.model_bootstrap(linear, X[["a", "b"]], X["t"].to_numpy(), "a", n_bootstrap=3, random_state=0)
    assert all(columns == ["a", "b"] for columns in seen)
    np.testing.assert_array_equal(by_name.effects, by_values.effects)
    np.testing.assert_array_equal(by_name.replicates, by_values.replicates)
    assert list(X.columns) == ["a", "b", "t"]


@pytest.mark.parametrize("labels", [
    lambda t: np.where(t > 0, "high", "low"),
    lambda t: t > 0,
    lambda t: pd.Series(pd.Categorical(np.where(t > 0, "high", "low"))),
], ids=["strings", "booleans", "categorical"])
def test_class_labels_are_accepted(labels):
    X = _data()
    y = labels(X["t"].to_numpy())
    res = pyale.model_bootstrap(lambda rows, target: LogisticRegression().fit(rows, target), X[["a", "b"]], y, "a",
                                n_bootstrap=3, random_state=1)
    assert res.replicates.shape[0] == 3 and np.isfinite(res.effects).all()


@pytest.mark.parametrize("y, error, message", [
    ("nope", ValueError, "The 'y' parameter of model_bootstrap must be one value per row of X or the name of a "
                         "column of X. Got 'nope', which is not a column."),
    (np.array(["u", None, "v"] * 40, dtype=object), ValueError,
     "The 'y' parameter of model_bootstrap must have no missing values. Got None at position 1 (40 missing value(s))."),
    (np.array(["u", "v"]), ValueError, "The 'y' parameter of model_bootstrap must be one value per row of X (120). "
                                       "Got 2 values instead."),
    (np.r_[np.nan, np.zeros(119)], ValueError, "The 'y' parameter of model_bootstrap must hold finite numbers. Got nan"),
])
def test_bad_targets_are_refused_naming_y(y, error, message):
    with pytest.raises(error, match=re.escape(message)):
        pyale.model_bootstrap(linear, _data()[["a", "b"]], y, "a", n_bootstrap=2)


def _editing_fit(rows, target):
    model = linear(rows, target)
    rows.loc[:, "a"] = 0.0  # edits its training frame and target in place after fitting
    del rows["b"]
    target[:] = 0
    return model


@pytest.mark.parametrize("y_kind", ["array", "column"])
def test_a_fit_that_edits_its_rows_changes_neither_x_nor_y_nor_the_answer(y_kind):
    X = _data()
    y = X["t"].to_numpy().copy()
    frame = X if y_kind == "column" else X[["a", "b"]].copy()
    snapshot, y_before = Snapshot(frame), y.copy()
    plain = pyale.model_bootstrap(linear, frame, "t" if y_kind == "column" else y, "a", n_bootstrap=3, random_state=2)
    got = pyale.model_bootstrap(_editing_fit, frame, "t" if y_kind == "column" else y, "a", n_bootstrap=3,
                                random_state=2)
    snapshot.assert_unchanged(frame)
    np.testing.assert_array_equal(y, y_before)
    np.testing.assert_array_equal(got.effects, plain.effects)
    np.testing.assert_array_equal(got.replicates, plain.replicates)
