"""Adding a convention is one module and one registry entry (docs/architecture.md, "Add a convention").

The conventions here are registered for one test only (``monkeypatch``), as
a new module would register itself in :data:`pyale._core.conventions.CONVENTIONS`;
nothing else of pyale is edited.  Each is a variant of a shipped convention,
so its numbers are known: the variant's own defaults reproduce the shipped
convention with those options passed by hand.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import pyale
from pyale._cli.command import build_parser
from pyale._core.conventions import CONVENTIONS
from pyale._core.conventions.alepkg import AlePackageConvention
from pyale._core.conventions.aleplot import ALEPlotConvention
from pyale._core.conventions.iml import ImlConvention


class Coarse(ALEPlotConvention):
    """ALEPlot's rules with 10 intervals by default."""

    name = "coarse"
    label = "ALEPlot 1.1, 10 intervals"
    default_intervals = 10


class Iml10(ImlConvention):
    """iml's rules with 10 intervals by default."""

    name = "iml10"
    label = "iml 0.11.4, 10 intervals"
    default_intervals = 10


class Ale5(AlePackageConvention):
    """R's ale rules with 5 intervals by default (its plans come from pyale.ALE's front-end, as ale's do)."""

    name = "ale5"
    label = "ale 0.5.0, 5 intervals"
    default_intervals = 5


@pytest.fixture
def registered(monkeypatch):
    for convention in (Coarse(), Iml10(), Ale5()):
        monkeypatch.setitem(CONVENTIONS, convention.name, convention)


def _data(n=300, seed=3):
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"x": rng.normal(size=n), "z": rng.uniform(size=n),
                         "cat": pd.Categorical(rng.choice(["a", "b", "c"], size=n))})


def _model(frame):
    return frame["x"] * frame["z"] + frame["cat"].cat.codes.to_numpy() * frame["x"] ** 2


def _same(got, expected):
    assert got.features == expected.features
    for a, b in zip(got.grid, expected.grid):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
    np.testing.assert_array_equal(got.counts, expected.counts)
    np.testing.assert_array_equal(got.effects, expected.effects)


@pytest.mark.parametrize("features", ["x", "cat", ("x", "z"), ("cat", "x")])
def test_a_registered_convention_serves_ale_with_its_own_defaults(registered, features):
    X = _data()
    _same(pyale.ale(_model, X, features, conventions="coarse"),
          pyale.ale(_model, X, features, conventions="aleplot", n_intervals=10))


@pytest.mark.parametrize("features", ["x", "cat"])
def test_a_variant_of_r_ale_rules_is_served_by_their_front_end(registered, features):
    X = _data()
    _same(pyale.ale(_model, X, features, conventions="ale5"),
          pyale.ale(_model, X, features, conventions="ale", n_intervals=5))


def test_a_variant_keeps_its_base_conventions_pair_rules(registered):
    """iml's pair rule (either order, the categorical feature first) comes with the object, not its name."""
    X = _data()
    got = pyale.ale(_model, X, ("x", "cat"), conventions="iml10")
    _same(got, pyale.ale(_model, X, ("x", "cat"), conventions="iml", n_intervals=10))
    assert got.features == ("cat", "x")
    with pytest.raises(ValueError, match="categorical"):
        pyale.ale(_model, X, ("x", "cat"), conventions="coarse")  # ALEPlot's rule: categorical first


def test_a_registered_convention_reaches_compare_bootstrap_and_the_command_line(registered):
    X = _data().assign(region=lambda d: np.where(np.arange(len(d)) % 2, "north", "south"))
    model = lambda d: _model(d.drop(columns="region"))  # noqa: E731
    got = pyale.compare(model, X, "x", by="region", conventions="coarse", n_bootstrap=5, n_permutations=9,
                        random_state=0)
    expected = pyale.compare(model, X, "x", by="region", conventions="aleplot", n_intervals=10, n_bootstrap=5,
                             n_permutations=9, random_state=0)
    pd.testing.assert_frame_equal(got.table, expected.table)
    banded = pyale.ale(_model, _data(), "x", conventions="coarse", n_bootstrap=20, random_state=1)
    same = pyale.ale(_model, _data(), "x", conventions="aleplot", n_intervals=10, n_bootstrap=20, random_state=1)
    np.testing.assert_array_equal(banded.replicates, same.replicates)
    args = build_parser().parse_args(["run", "--data", "d.csv", "--model", "m.pkl", "--features", "x",
                                      "--out", "o", "--conventions", "iml10"])
    assert args.conventions == "iml10"


def test_a_convention_states_what_it_refuses(registered):
    X = _data()
    with pytest.raises(ValueError, match=r"conventions='ale' \(R's ale package has neither derivatives"):
        pyale.ale(_model, X, "x", conventions="ale", method="gradient", jacobian=lambda d: np.ones((len(d), 3)))
    with pytest.raises(ValueError, match="must be 'aleplot' or 'iml' or 'coarse' or 'iml10'. Got 'ale' instead: "
                                         "R's ale package centres"):
        pyale.compare(_model, X.assign(g=np.arange(len(X)) % 2), "x", by="g", conventions="ale")
