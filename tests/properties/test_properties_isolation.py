"""The caller's data is never changed, whatever the model does to what it is given: properties.

Random small tables (numeric and categorical columns, no missing values) in
each kind pyale accepts (a NumPy array, a pandas DataFrame with NumPy,
categorical, string or ArrowDtype columns, a polars DataFrame, a pyarrow
Table) go through every front-end with a model that edits what it is handed
in place after predicting (a pandas frame: ``prop_models.EDITS`` and a few
more; a NumPy array: written, sorted, shuffled, frozen; a polars DataFrame:
its in-place methods; a pyarrow Table is immutable and is only read).  After
each run the caller's object must be as it was (values, dtypes or schema,
column labels, index, array flags), and the result must equal that of a model
that does not edit (an edit that leaked into a frame pyale reuses would change
a later prediction).  ``model_bootstrap``'s ``fit`` edits its training rows and
target too, and the caller's ``y`` must be unchanged.

The example-based counterpart is ``tests/frontends/test_isolation.py``; profiles are in
``conftest.py`` (``HYPOTHESIS_PROFILE=long`` explores).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st
from numpy.testing import assert_array_equal
from pandas.testing import assert_frame_equal

import pyale
from prop_effects import examples
from prop_models import EDITS as FRAME_EDITS
from prop_models import apply_edit
from snapshots import Snapshot

pl = pytest.importorskip("polars")  # the frames extra, as in tests/inputs/test_frames.py
pa = pytest.importorskip("pyarrow")



KINDS = ["numpy", "pandas", "pandas_arrow", "polars", "pyarrow"]
LEVELS = ["a", "b", "c", "d"]
LEVEL_VALUES = {"a": 0.0, "b": 1.5, "c": -2.0, "d": 0.25}

# ---------------------------------------------------------------- the caller's data


@dataclass(frozen=True)
class Table:
    """A drawn table: its columns' values and how the caller holds them.

    ``types`` is ``"float"``, ``"int"`` or ``"str"`` per column (named ``x0``,
    ``x1``, ... as pyale names a NumPy array's columns); ``style`` is how
    string columns are stored (object, category, string, ... per kind);
    ``layout`` the NumPy array's order and write flag, or the pandas index (or
    read-only memory under a one-dtype numeric frame).
    """

    kind: str
    types: tuple
    seed: int
    n: int
    style: str
    layout: str

    @property
    def names(self) -> list:
        return [f"x{i}" for i in range(len(self.types))]

    def named(self, kind: str) -> list:
        return [name for name, t in zip(self.names, self.types) if t == kind]

    def columns(self) -> dict:
        """Each column's values (float64, int64, or Python strings in an object array)."""
        rng = np.random.default_rng(self.seed)
        out = {}
        for name, kind in zip(self.names, self.types):
            if kind == "float":
                values = np.round(rng.normal(size=self.n) * 10.0 ** int(rng.integers(-2, 3)), 3)
            elif kind == "int":
                values = rng.integers(-3, 4, self.n).astype(np.int64)
            else:
                values = np.array([LEVELS[i] for i in rng.integers(0, len(LEVELS), self.n)], dtype=object)
            if values[0] == values[-1]:  # at least two distinct values: every column can be a feature
                values[-1] = values[0] + 1 if kind != "str" else LEVELS[(LEVELS.index(values[0]) + 1) % 4]
            out[name] = values
        return out

    def build(self) -> object:
        """A new object of the caller's kind (each call its own memory)."""
        columns = self.columns()
        if self.kind == "numpy":
            strings = "str" in self.types
            dtype = object if strings else (np.float64 if "float" in self.types else np.int64)
            X = np.empty((self.n, len(self.types)), dtype=dtype, order="F" if "F" in self.layout else "C")
            for i, values in enumerate(columns.values()):
                X[:, i] = values.tolist() if strings else values  # Python floats, ints and strings
            X.flags.writeable = "read-only" not in self.layout
            return X
        one_numeric_dtype = len(set(self.types)) == 1 and self.types[0] != "str"
        if self.kind == "pandas" and self.layout == "read-only" and one_numeric_dtype:
            values = np.column_stack(list(columns.values()))  # one block over read-only memory, as a memory map
            values.flags.writeable = False
            return pd.DataFrame(values, columns=self.names, copy=False)
        if self.kind == "pandas":
            data = {name: _pandas_strings(values, self.style) if values.dtype == object else values
                    for name, values in columns.items()}
            return pd.DataFrame(data, index=_index(self.layout, self.n, self.seed))
        if self.kind == "pandas_arrow":
            data = {name: pd.array(values.tolist(), dtype=pd.ArrowDtype(_arrow_type(values, self.style)))
                    for name, values in columns.items()}
            return pd.DataFrame(data, index=_index(self.layout, self.n, self.seed))
        if self.kind == "polars":
            return pl.DataFrame([pl.Series(name, values.tolist(), dtype=_polars_type(values, self.style))
                                 for name, values in columns.items()])
        arrays = [pa.array(values.tolist(), type=pa.float64() if values.dtype.kind == "f" else
                           pa.int64() if values.dtype.kind == "i" else pa.string()) for values in columns.values()]
        arrays = [a.dictionary_encode() if self.style == "dictionary" and pa.types.is_string(a.type) else a
                  for a in arrays]
        return pa.table(arrays, names=self.names)


def _pandas_strings(values: np.ndarray, style: str):
    if style == "category":
        return pd.Categorical(values, categories=LEVELS[::-1])  # unused levels, not sorted
    if style == "string":
        return pd.array(values, dtype="string")
    return values  # object


def _arrow_type(values: np.ndarray, style: str):
    if values.dtype.kind == "f":
        return pa.float64()
    if values.dtype.kind == "i":
        return pa.int64()
    return pa.large_string() if style == "large_string" else pa.string()


def _polars_type(values: np.ndarray, style: str):
    if values.dtype.kind == "f":
        return pl.Float64
    if values.dtype.kind == "i":
        return pl.Int64
    return {"categorical": pl.Categorical, "enum": pl.Enum(LEVELS[::-1])}.get(style, pl.String)


def _index(layout: str, n: int, seed: int) -> pd.Index:
    if layout == "permuted":
        return pd.Index(100 + np.random.default_rng(seed).permutation(n))
    if layout == "strings":
        return pd.Index([f"r{i}" for i in range(n)], dtype=object)
    return pd.RangeIndex(n)


STYLES = {"numpy": ["plain"], "pandas": ["object", "category", "string"],
          "pandas_arrow": ["string", "large_string"], "polars": ["string", "categorical", "enum"],
          "pyarrow": ["string", "dictionary"]}
LAYOUTS = {"numpy": ["C", "F", "C read-only", "F read-only"], "pandas": ["range", "permuted", "strings", "read-only"],
           "pandas_arrow": ["range", "permuted"], "polars": ["-"], "pyarrow": ["-"]}


@st.composite
def tables(draw, *, kinds=KINDS, strings=True) -> Table:
    kind = draw(st.sampled_from(kinds))
    numeric = draw(st.lists(st.sampled_from(["float", "int"]), min_size=1, max_size=3))
    n_strings = draw(st.integers(0, 2)) if strings else 0
    types = tuple(draw(st.permutations(numeric + ["str"] * n_strings)))
    return Table(kind, types, draw(st.integers(0, 2**32 - 1)), draw(st.integers(3, 14)),
                 draw(st.sampled_from(STYLES[kind])), draw(st.sampled_from(LAYOUTS[kind])))


class Record:
    """Everything about the caller's object, kept apart from its memory."""

    def __init__(self, X: object):
        self.kind = type(X).__module__.split(".")[0]
        if isinstance(X, pd.DataFrame):
            self.snapshot = Snapshot(X)
        elif isinstance(X, np.ndarray):
            self.values = X.copy(order="K")
            self.facts = self._array_facts(X)
        elif isinstance(X, pl.DataFrame):
            self.values = X.to_dict(as_series=False)  # Python objects: no memory shared
            self.facts = (X.columns, X.schema, X.shape)
        else:
            self.values = X.to_pydict()
            self.facts = (X.column_names, X.schema, X.shape, [c.num_chunks for c in X.columns])

    @staticmethod
    def _array_facts(X: np.ndarray) -> tuple:
        flags = X.flags
        return (X.dtype, X.shape, X.strides, flags.writeable, flags.c_contiguous, flags.f_contiguous,
                flags.owndata)

    def assert_unchanged(self, X: object) -> None:
        if isinstance(X, pd.DataFrame):
            self.snapshot.assert_unchanged(X)
        elif isinstance(X, np.ndarray):
            assert self._array_facts(X) == self.facts, "X's dtype, shape or flags changed"
            assert_array_equal(X, self.values, strict=True)
        elif isinstance(X, pl.DataFrame):
            assert (X.columns, X.schema, X.shape) == self.facts, "X's columns or schema changed"
            assert X.to_dict(as_series=False) == self.values, "X's values changed"
        else:
            facts = (X.column_names, X.schema, X.shape, [c.num_chunks for c in X.columns])
            assert facts == self.facts and X.schema.equals(self.facts[1], check_metadata=True), "X's schema changed"
            assert X.to_pydict() == self.values, "X's values changed"


# ---------------------------------------------------------------- models


def as_frame(d: object, names: list) -> pd.DataFrame:
    """What the model was handed, as a pandas frame to read numbers from (a copy where converted)."""
    if isinstance(d, pd.DataFrame):
        return d
    if isinstance(d, np.ndarray):
        return pd.DataFrame(d, columns=names[: d.shape[1]])
    return d.to_pandas()


@dataclass(frozen=True)
class Formula:
    """The model's answer: a fixed function of the named columns, scaled by ``factor``."""

    numeric: tuple
    strings: tuple
    factor: float = 1.0

    def __call__(self, d: object) -> np.ndarray:
        frame = as_frame(d, [f"x{i}" for i in range(len(self.numeric) + len(self.strings))])
        y = np.zeros(frame.shape[0])
        for i, name in enumerate(self.numeric):
            x = frame[name].to_numpy(dtype=float)
            y = y + (i + 1.0) * x + (0.5 * x * x if i == 0 else 0.0)
        for j, name in enumerate(self.strings):
            level = np.array([LEVEL_VALUES[v] for v in frame[name].astype(str).tolist()])
            y = y + (j + 1.0) * level
            if j == 0 and self.numeric:
                y = y + level * frame[self.numeric[0]].to_numpy(dtype=float)
        return self.factor * y


def formula_of(table: Table, factor: float = 1.0) -> Formula:
    return Formula(tuple(table.named("float") + table.named("int")), tuple(table.named("str")), factor)


# In-place edits of a pandas frame: prop_models' table, and edits of its arrays' memory.
def _write_column_arrays(d):
    for position in range(d.shape[1]):
        values = d.iloc[:, position].to_numpy()  # a view where pandas can give one (read-only under copy-on-write)
        if values.dtype.kind in "fi":
            values[:] = 0


def _write_categories(d):
    for position, dtype in enumerate(d.dtypes):
        if isinstance(dtype, pd.CategoricalDtype):
            dtype.categories.values[0] = "zz"
            d.iloc[:, position].array.codes[:] = 0  # read-only codes refuse


def _set_first_row(d):
    for position in range(d.shape[1]):  # ArrowExtensionArray.__setitem__ replaces the array it wraps
        d.iloc[0, position] = d.iloc[-1, position]


FRAME_EDIT_NAMES = [name for name in FRAME_EDITS if name != "none"]
MORE_FRAME_EDITS = {
    "column arrays written": _write_column_arrays,
    "categories written": _write_categories,
    "first row set": _set_first_row,
    "index values written": lambda d: d.index.values.__setitem__(0, d.index.values[-1]),
}


def _edit_frame(name: str, d: pd.DataFrame) -> None:
    if name in FRAME_EDITS:
        apply_edit(name, d)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            MORE_FRAME_EDITS[name](d)
        except (ValueError, TypeError) as exc:  # read-only memory, values a column refuses
            if isinstance(exc, ValueError) and "read-only" not in str(exc) and "read only" not in str(exc):
                raise


ARRAY_EDITS = {
    "written": lambda a: a.__setitem__(slice(None), 0),
    "first column reversed": lambda a: a.__setitem__((slice(None), 0), a[::-1, 0].copy()),
    "rows shuffled": lambda a: np.random.default_rng(0).shuffle(a),
    "doubled": lambda a: np.multiply(a, 2, out=a) if a.dtype != object else a.__setitem__(slice(None), a * 2),
    "sorted": lambda a: a.sort(axis=0) if a.dtype != object else a.__setitem__(slice(None), a[::-1].copy()),
    "frozen": lambda a: setattr(a.flags, "writeable", False),
}


def _edit_array(name: str, a: np.ndarray) -> None:
    ARRAY_EDITS[name](a)


def _polars_first_row(d):
    name = d.columns[0]
    d[0, name] = d[-1, name]


POLARS_EDITS = {
    "drop_in_place": lambda d: d.drop_in_place(d.columns[0]),
    "insert_column": lambda d: d.insert_column(0, pl.Series("__new__", [1.0] * d.height)),
    "replace_column": lambda d: d.replace_column(0, d.get_column(d.columns[0]).reverse()),
    "columns renamed": lambda d: setattr(d, "columns", [f"r{i}" for i in range(d.width)]),
    "cell set": _polars_first_row,
}


ALL_FRAME_EDITS = FRAME_EDIT_NAMES + list(MORE_FRAME_EDITS)
NATIVE_EDITS = {"numpy": list(ARRAY_EDITS), "polars": list(POLARS_EDITS), "pyarrow": ["none"],
                "pandas": ALL_FRAME_EDITS, "pandas_arrow": ALL_FRAME_EDITS}


@dataclass(frozen=True)
class Editing:
    """``formula`` answers, then an edit changes what the model was handed.

    ``frame_edit`` for a pandas frame (what pyale.ALE's ``pred_fun`` always
    gets), ``native_edit`` for an array or a polars DataFrame.
    """

    formula: Formula
    frame_edit: str
    native_edit: str

    def __call__(self, d: object) -> np.ndarray:
        y = self.formula(d)
        if isinstance(d, pd.DataFrame):
            _edit_frame(self.frame_edit, d)
        elif isinstance(d, np.ndarray):
            _edit_array(self.native_edit, d)
        elif isinstance(d, pl.DataFrame):
            POLARS_EDITS[self.native_edit](d)
        return y  # a pyarrow Table cannot be changed


# ---------------------------------------------------------------- the properties


def features_of(data, table: Table):
    """One column, or sometimes a pair whose second is numeric (ALEPlot's categorical feature goes first)."""
    first = data.draw(st.sampled_from(table.names), label="feature")
    numeric = [n for n in table.named("float") + table.named("int") if n != first]
    if numeric and data.draw(st.integers(0, 3), label="pair?") == 0:
        return (first, data.draw(st.sampled_from(numeric), label="with"))
    return first


def draw_case(data, *, kinds=KINDS, strings=True):
    table = data.draw(tables(kinds=kinds, strings=strings), label="table")
    note(f"X = {table.build()!r}")
    native_edit = data.draw(st.sampled_from(NATIVE_EDITS[table.kind]), label="edit")
    frame_edit = native_edit if table.kind.startswith("pandas") else data.draw(
        st.sampled_from(ALL_FRAME_EDITS), label="edit of a pandas frame")
    return table, Editing(formula_of(table), frame_edit, native_edit)


def check(table: Table, run, model) -> None:
    """``run(X, model)`` leaves X unchanged and gives what ``run(fresh X, plain model)`` gives."""
    X = table.build()
    record = Record(X)
    got = run(X, model)
    record.assert_unchanged(X)
    assert_same(got, run(table.build(), formula_of(table)))


def assert_same(got, want) -> None:
    if isinstance(got, dict):
        assert list(got) == list(want)
        for key in got:
            assert_same(got[key], want[key])
    elif isinstance(got, (list, tuple)):
        assert len(got) == len(want)
        for a, b in zip(got, want):
            assert_same(a, b)
    elif isinstance(got, pd.DataFrame):
        assert_frame_equal(got, want, check_exact=True)
    elif got is None:
        assert want is None
    else:
        assert_array_equal(np.asarray(got), np.asarray(want), strict=True)


def _ale_outcome(result):
    return [result.to_frame(), result.replicates, result.statistics, result.level_order, result.grid]


@settings(max_examples=examples(3))
@given(data=st.data())
def test_ale_leaves_x_unchanged_and_its_answer_unedited(data):
    table, edit = draw_case(data)
    features = features_of(data, table)
    n_bootstrap = data.draw(st.sampled_from([0, 0, 3]), label="n_bootstrap")
    max_rows = data.draw(st.sampled_from([None, None, 5]), label="max_rows_per_call")
    conventions = data.draw(st.sampled_from(["aleplot", "iml", "ale"]), label="conventions")

    def run(X, model):
        return _ale_outcome(pyale.ale(model, X, features, n_intervals=3, n_bootstrap=n_bootstrap, random_state=4,
                                      max_rows_per_call=max_rows, conventions=conventions))

    check(table, run, edit)


@settings(max_examples=examples(2))
@given(data=st.data())
def test_model_bootstrap_leaves_x_and_y_unchanged_whatever_fit_and_the_model_edit(data):
    table, edit = draw_case(data)
    feature = data.draw(st.sampled_from(table.names), label="feature")
    fit_edit = data.draw(st.sampled_from(ALL_FRAME_EDITS), label="fit's edit")
    y_kind = data.draw(st.sampled_from(["array", "list", "series", "read-only array"]), label="y")

    def make_y():
        values = formula_of(table)(table.build()) + np.random.default_rng(table.seed).normal(size=table.n)
        if y_kind == "list":
            return values.tolist()
        if y_kind == "series":
            return pd.Series(values, index=pd.RangeIndex(table.n) + 7, name="target")
        values.flags.writeable = y_kind != "read-only array"
        return values

    def fitting(editing: bool):
        def fit(X_rows, y_rows):
            factor = 1.0 + float(np.mean(y_rows)) / 64.0  # the refit depends on its rows
            model = formula_of(table, factor)
            if editing:
                _edit_frame(fit_edit, X_rows)
                if y_rows.flags.writeable:
                    y_rows[:] = -y_rows
                return Editing(model, edit.frame_edit, edit.native_edit)
            return model

        return fit

    y = make_y()
    y_before = Record(y) if isinstance(y, np.ndarray) else y.copy(deep=True) if isinstance(y, pd.Series) else list(y)

    def run(X, fit, y=y):
        result = pyale.model_bootstrap(fit, X, y, feature, n_bootstrap=3, random_state=2, n_intervals=3)
        return _ale_outcome(result)

    X = table.build()
    record = Record(X)
    got = run(X, fitting(True))
    record.assert_unchanged(X)
    if isinstance(y, pd.Series):
        pd.testing.assert_series_equal(y, y_before, check_exact=True)
    elif isinstance(y, np.ndarray):
        y_before.assert_unchanged(y)
    else:
        assert y == y_before
    assert_same(got, run(table.build(), fitting(False), y=make_y()))


@settings(max_examples=examples(2))
@given(data=st.data())
def test_aleplot_and_pdplot_leave_x_unchanged_and_their_answer_unedited(data):
    table, edit = draw_case(data)
    features = features_of(data, table)
    front_end = data.draw(st.sampled_from(["ALEPlot", "PDPlot"]), label="front-end")
    max_rows = data.draw(st.sampled_from([None, 4]), label="max_rows_per_call")

    def run(X, model):
        function = pyale.ALEPlot if front_end == "ALEPlot" else pyale.PDPlot
        result = function(X, None, lambda X_model, newdata: model(newdata), features, K=3, plot=False,
                          max_rows_per_call=max_rows)
        return result.to_frame()

    check(table, run, edit)


@settings(max_examples=examples(2))
@given(data=st.data())
def test_iml_front_ends_leave_x_unchanged_and_their_answer_unedited(data):
    table, edit = draw_case(data)
    features = features_of(data, table)
    method = data.draw(st.sampled_from(["ale", "pdp"] + ([] if isinstance(features, tuple) else ["ice", "pdp+ice"])),
                       label="method")
    batch_size = data.draw(st.sampled_from([1000, 5]), label="batch_size")

    def run(X, model):
        predictor = pyale.Predictor(predict_function=model, data=X, batch_size=batch_size)
        effect = pyale.FeatureEffect(predictor, list(features) if isinstance(features, tuple) else features,
                                     method=method, grid_size=3)
        return [effect.results, predictor.predict(X)]

    check(table, run, edit)


@settings(max_examples=examples(2))
@given(data=st.data())
def test_ale_package_front_end_leaves_x_unchanged_and_its_answer_unedited(data):
    table, edit = draw_case(data)
    x_col = data.draw(st.sampled_from(table.names), label="x_col")
    boot_it = data.draw(st.sampled_from([0, 3]), label="boot_it")

    def run(X, model):
        result = pyale.ALE(None, [x_col], X, pred_fun=lambda object, newdata, type: model(newdata),
                           max_num_bins=4, boot_it=boot_it)
        return [result.get(x_col), result.get(stats="estimate")]

    check(table, run, edit)


@settings(max_examples=examples(0.4))
@given(data=st.data())
def test_a_numpy_model_may_write_into_its_array(data):
    # Every edit of ARRAY_EDITS, also where the array pyale hands over would be read-only.
    table = data.draw(tables(kinds=["numpy"]), label="table")
    edit = data.draw(st.sampled_from([e for e in ARRAY_EDITS if e != "frozen"]), label="edit")
    feature = data.draw(st.sampled_from(table.names), label="feature")

    def writing(d):
        y = formula_of(table)(d)
        ARRAY_EDITS[edit](d)
        return y

    def run(X, model):
        return _ale_outcome(pyale.ale(model, X, feature, n_intervals=3))

    check(table, run, writing)  # on pandas 3 the array was read-only before (issue 26 item 8)
