"""Random models for the property-based tests, and what their effects must be.

A :class:`Spec` is a model whose structure is known: each output is a
constant plus a sum of per-column *components* (additive) and, optionally,
a product of two components (interacting).  Because the structure is
known, the tests can state what any correct ALE or PD must satisfy without
re-implementing pyale: an additive component is recovered at the grid
points up to a constant, an ignored column has no effect, a pair of an
additive model has no second-order effect, a product's double differences
are the product of the components' differences.

A :class:`Wrapper` decides how the model hands its answer back (array, list,
Series or DataFrame with the same, reversed, shuffled or default index, in
float64, float32, int64, bool or nullable Float64), and an *edit* what it
does to ``newdata`` in place after predicting.  A *failure* makes it raise
or return something that is not predictions.
"""

from __future__ import annotations

import warnings
import zlib
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from hypothesis import strategies as st

from prop_frames import FrameCase

# ---------------------------------------------------------------- components


def _level_value(level, salt: int) -> float:
    """A fixed pseudo-random value in [-5, 5) for a categorical level."""
    text = repr(level).encode("utf-8", "surrogatepass")
    return (zlib.crc32(text, salt) % 1000) / 100.0 - 5.0


def read_numbers(column: pd.Series) -> np.ndarray:
    """A column as float64 (NaN where missing), whatever its dtype (numbers, booleans, date-times)."""
    dtype = column.dtype
    if pd.api.types.is_datetime64_any_dtype(dtype):
        reference = pd.Timestamp(0, tz=getattr(dtype, "tz", None))
        return (column - reference).dt.total_seconds().to_numpy(dtype=float, na_value=np.nan)
    if pd.api.types.is_timedelta64_dtype(dtype):
        return column.dt.total_seconds().to_numpy(dtype=float, na_value=np.nan)
    return column.to_numpy(dtype=float, na_value=np.nan)


@dataclass(frozen=True)
class Component:
    """``g(column)``: a function of one column.

    Numeric columns are standardised by constants taken from the data
    (``center``, ``scale``) so that every component is of order ``coef``
    whatever the column's magnitude (uint64 near 2**64, 1e-300, ...).
    Categorical columns map each level to a fixed value.  Missing values
    contribute 0.
    """

    column: object
    categorical: bool
    shape: str = "linear"
    coef: float = 1.0
    center: float = 0.0
    scale: float = 1.0
    salt: int = 0

    def __call__(self, d: pd.DataFrame) -> np.ndarray:
        column = d[self.column]
        if self.categorical:
            # One hash per distinct level (not per row): PD grids ask about many rows.  A Python dict,
            # not pd.factorize: pandas 2.x's object hash table takes "a" and "a\x00" for one value.
            table: dict = {}
            out = np.empty(column.shape[0])
            for i, v in enumerate(column.astype(object).tolist()):
                key = (type(v), v) if not _missing(v) else None
                if key not in table:
                    table[key] = 0.0 if key is None else self.coef * _level_value(v, self.salt)
                out[i] = table[key]
            return out
        return self.at(read_numbers(column))

    def at(self, x) -> np.ndarray:
        """The component at numeric values ``x`` (float64 array)."""
        x = np.asarray(x, dtype=float)
        with np.errstate(over="ignore", invalid="ignore"):
            u = (x - self.center) / self.scale
        if self.shape == "linear":
            out = self.coef * u
        elif self.shape == "square":
            out = self.coef * u * u
        elif self.shape == "sin":
            out = self.coef * np.sin(3.0 * u)
        elif self.shape == "step":
            out = self.coef * (u > 0.1).astype(float)
        else:  # "abs"
            out = self.coef * np.abs(u - 0.2)
        return np.where(np.isnan(x), 0.0, out)

    def level(self, level) -> float:
        """The component at a categorical level."""
        return self.coef * _level_value(level, self.salt)


def _missing(value) -> bool:
    return value is None or value is pd.NA or (isinstance(value, float) and np.isnan(value))


# ---------------------------------------------------------------- models


@dataclass(frozen=True)
class Output:
    """One model output: ``constant + sum(terms) + product[0] * product[1]``."""

    constant: float
    terms: tuple
    product: tuple | None = None

    def __call__(self, d: pd.DataFrame) -> np.ndarray:
        y = np.full(d.shape[0], self.constant)
        for term in self.terms:
            y = y + term(d)
        if self.product is not None:
            y = y + self.product[0](d) * self.product[1](d)
        return y

    def component(self, column):
        """The additive component of ``column`` (None when the output ignores it)."""
        found = [t for t in self.terms if t.column == column]
        return found[0] if found else None

    def reads(self, column) -> bool:
        involved = [t.column for t in self.terms] + ([p.column for p in self.product] if self.product else [])
        return column in involved


@dataclass(frozen=True)
class Spec:
    """A model with known structure: one or more outputs (a "classifier" when several)."""

    outputs: tuple
    names: tuple

    def values(self, d: pd.DataFrame) -> np.ndarray:
        """``(n, n_outputs)`` float64 predictions."""
        return np.column_stack([out(d) for out in self.outputs]) if d.shape[0] else np.empty((0, len(self.outputs)))

    @property
    def additive(self) -> bool:
        return all(out.product is None for out in self.outputs)

    def reads(self, column) -> bool:
        return any(out.reads(column) for out in self.outputs)

    def transformed(self, *, shift: float = 0.0, factor: float = 1.0) -> "Spec":
        """``factor * model + shift`` (every output)."""
        return Spec(tuple(_scaled(out, shift, factor) for out in self.outputs), self.names)


def _scaled(out: Output, shift: float, factor: float) -> Output:
    terms = tuple(_scaled_component(t, factor) for t in out.terms)
    product = None if out.product is None else (_scaled_component(out.product[0], factor), out.product[1])
    return Output(out.constant * factor + shift, terms, product)


def _scaled_component(c: Component, factor: float) -> Component:
    return Component(c.column, c.categorical, c.shape, c.coef * factor, c.center, c.scale, c.salt)


@st.composite
def components(draw, case: FrameCase, column) -> Component:
    info = case.info(column)
    salt = draw(st.integers(0, 2**16))
    coef = draw(st.sampled_from([1.0, -2.0, 0.5, 3.0, -0.75]))
    if info.kind == "categorical":
        return Component(column, True, coef=coef, salt=salt)
    x = read_numbers(case.X[column])
    x = x[np.isfinite(x)]
    if x.size:
        center = float(np.median(x))
        with np.errstate(over="ignore"):
            scale = float(np.max(np.abs(x - center)))
        if not np.isfinite(scale) or scale == 0.0:
            scale = max(abs(center), 1.0)
    else:
        center, scale = 0.0, 1.0
    shape = draw(st.sampled_from(["linear", "square", "sin", "step", "abs"]))
    return Component(column, False, shape, coef, center, scale, salt)


@st.composite
def specs(draw, case: FrameCase, *, features=(), ignore=(), additive=None, n_outputs=None) -> Spec:
    """A random model on ``case``'s columns.

    ``features`` are read by every output (unless ignored), ``ignore`` by none.
    ``additive`` True forbids products, False requires one (when two columns can be read).
    """
    columns = [c.name for c in case.columns if c.name not in ignore]
    n_outputs = draw(st.sampled_from([1, 1, 1, 2, 3])) if n_outputs is None else n_outputs
    outputs = []
    for _ in range(n_outputs):
        chosen = [f for f in features if f not in ignore]
        others = [c for c in columns if c not in chosen]
        if others:
            chosen += draw(st.lists(st.sampled_from(others), max_size=3, unique=True))
        terms = tuple(draw(components(case, c)) for c in chosen)
        product = None
        want = draw(st.booleans()) if additive is None else not additive
        if want and len(columns) >= 1:
            pair = draw(st.lists(st.sampled_from(columns), min_size=2, max_size=2)) if len(columns) > 1 else columns * 2
            pair = [features[0], features[1]] if len(features) == 2 and draw(st.booleans()) and not set(features) & set(ignore) else pair
            product = (draw(components(case, pair[0])), draw(components(case, pair[1])))
        outputs.append(Output(draw(st.sampled_from([0.0, 1.5, -40.0])), terms, product))
    names = tuple(draw(st.sampled_from([("p", "q", "r"), ("0", "1", "2"), ("no", "yes", "maybe"),
                                        ("ale", "output", ".value")]))[:n_outputs])
    return Spec(tuple(outputs), names)


# ---------------------------------------------------------------- how the answer comes back

CONTAINERS = ["array", "column", "list", "series", "frame"]
ORDERS = ["same", "reversed", "shuffled", "reset"]
DTYPES = ["float64", "float32", "int64", "bool", "Float64"]


@dataclass(frozen=True)
class Wrapper:
    """How a model returns its predictions."""

    container: str = "array"
    order: str = "same"
    dtype: str = "float64"
    as_float: bool = False

    @property
    def labelled(self) -> bool:
        return self.container in ("series", "frame")

    @property
    def keeps_values(self) -> bool:
        """Whether the numbers are the model's float64 values (not rounded or cast)."""
        return self.dtype in ("float64", "Float64")

    def reference(self) -> "Wrapper":
        """The same numbers, as float64, in the same container and in newdata's order."""
        return Wrapper(self.container, "same", self.dtype, as_float=True)

    def values(self, y: np.ndarray) -> np.ndarray:
        """The numbers the wrapper will hand back (after its dtype), as float64."""
        if self.dtype == "float32":
            return y.astype(np.float32).astype(float)
        if self.dtype == "int64":
            return np.rint(np.clip(y, -1e15, 1e15))
        if self.dtype == "bool":
            return (y > 0).astype(float)
        return y

    def __call__(self, y: np.ndarray, d: pd.DataFrame, names: tuple, seed: int = 0):
        """Wrap ``(n, m)`` predictions ``y`` for newdata ``d``."""
        y = self.values(y)
        if self.as_float:
            pass
        elif self.dtype == "float32":
            y = y.astype(np.float32)
        elif self.dtype == "int64":
            y = y.astype(np.int64)
        elif self.dtype == "bool":
            y = y.astype(bool)
        single = y.shape[1] == 1
        if self.container in ("array", "column", "list"):
            if self.container == "list":
                return y[:, 0].tolist() if single else y.tolist()
            if self.container == "array" and single:
                return y[:, 0]
            return y
        n = d.shape[0]
        index = d.index
        if self.container == "series" and single:
            answer = pd.Series(y[:, 0], index=index, dtype="Float64" if self.dtype == "Float64" and not self.as_float
                               else None)
        else:
            answer = pd.DataFrame(y, index=index, columns=list(names[: y.shape[1]]))
            if self.dtype == "Float64" and not self.as_float:
                answer = answer.astype("Float64")
        if self.order == "reversed":
            answer = answer.iloc[::-1]
        elif self.order == "shuffled":
            answer = answer.iloc[np.random.default_rng(seed).permutation(n)]
        elif self.order == "reset":
            answer = answer.reset_index(drop=True)
        return answer


wrappers = st.builds(Wrapper, st.sampled_from(CONTAINERS), st.sampled_from(ORDERS), st.sampled_from(DTYPES))

# ---------------------------------------------------------------- in-place edits of newdata


def _first_numeric(d):
    for name, dtype in d.dtypes.items():
        if pd.api.types.is_float_dtype(dtype) and isinstance(dtype, np.dtype):
            return name
    return None


def _scale_first(d):
    name = _first_numeric(d)
    if name is not None:
        d[name] *= 2


def _assign_first(d):
    name = _first_numeric(d)
    if name is not None:
        d.loc[:, name] = 0.0


def _overwrite_first_column(d):
    # The column's own array (not .to_numpy()): pandas 3.1 refuses a NumPy array of one
    # element written into a one-row nullable Int64 column ("Invalid value '[274]' for
    # dtype 'Int64'"), which made this model fail on one-row calls (found by the long profile).
    d.iloc[:, 0] = d.iloc[::-1, 0].array


EDITS = {
    "none": None,
    "scale a float column": _scale_first,
    "loc assign": _assign_first,
    "iloc write": _overwrite_first_column,
    "drop a column": lambda d: d.drop(columns=[d.columns[0]], inplace=True),
    "add a column": lambda d: d.insert(0, "__new__", 1.0),
    "reorder columns": lambda d: _reverse_columns(d),
    "change the index": lambda d: setattr(d, "index", pd.RangeIndex(10**6, 10**6 + d.shape[0])),
    "sort rows": lambda d: d.sort_index(ascending=False, inplace=True),
    "reset index": lambda d: d.reset_index(drop=True, inplace=True),
    "rename": lambda d: d.rename(columns={d.columns[0]: "__renamed__"}, inplace=True),
    "values written": lambda d: _write_values(d),
}


def _reverse_columns(d):
    for name in list(d.columns)[::-1]:
        column = d.pop(name)
        d.insert(d.shape[1], name, column)


def _write_values(d):
    try:
        d.values[:] = 0  # a view of the only block on pandas 2.x; read-only under copy-on-write
    except (ValueError, TypeError):
        pass


def apply_edit(name: str, d: pd.DataFrame) -> None:
    edit = EDITS[name]
    if edit is None:
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            edit(d)
        except ValueError as exc:  # read-only arrays under copy-on-write
            if "read-only" not in str(exc) and "read only" not in str(exc):
                raise


# ---------------------------------------------------------------- failures

FAILURES = ["raise", "raise later", "wrong length", "scalar", "none", "strings", "nan", "inf", "3-d",
            "dict", "no columns", "outputs change"]


class ModelFailed(Exception):
    """What a failing model raises."""


@dataclass
class Model:
    """A callable model ``f(newdata)``: a spec, a wrapper, an edit and maybe a failure.

    ``failed`` records whether the failure happened (then pyale must refuse).
    """

    spec: Spec
    wrapper: Wrapper = field(default_factory=Wrapper)
    edit: str = "none"
    failure: str | None = None
    seed: int = 0
    calls: int = 0
    failed: bool = False

    def __call__(self, d: pd.DataFrame):
        self.calls += 1
        y = self.spec.values(d)
        if self.failure is not None:
            bad = self._failure(y, d)
            if bad is not _NOTHING:
                self.failed = True
                return bad
        answer = self.wrapper(y, d, self.spec.names, seed=self.seed + self.calls)
        apply_edit(self.edit, d)
        return answer

    def _failure(self, y, d):
        kind = self.failure
        if kind == "raise":
            self.failed = True
            raise ModelFailed("the model could not predict")
        if kind == "raise later":
            if self.calls >= 2:
                self.failed = True
                raise ModelFailed("the model failed on its second call")
            return _NOTHING
        n = d.shape[0]
        if kind == "wrong length":
            return y[: max(0, n - 1), 0] if n > 1 else np.zeros(2)
        if kind == "scalar":
            return 1.5
        if kind == "none":
            return None
        if kind == "strings":
            return np.array(["yes"] * n, dtype=object) if n else np.array([], dtype=object)
        if kind in ("nan", "inf"):
            y = y[:, 0].copy()
            y[(self.seed + self.calls) % max(n, 1)] = np.nan if kind == "nan" else -np.inf
            return y
        if kind == "3-d":
            return np.zeros((n, 1, 2))
        if kind == "dict":
            return {"pred": y[:, 0]}
        if kind == "no columns":
            return np.zeros((n, 0))
        if kind == "outputs change":
            if self.calls >= 2:
                return pd.DataFrame(y, index=d.index, columns=[f"out{j}_{self.calls}" for j in range(y.shape[1])])
            return _NOTHING
        raise AssertionError(kind)


_NOTHING = object()
