"""R's ``nlminb`` (PORT, no gradient): bit for bit against R's fixture, live R and R's compiled PORT."""

from __future__ import annotations

import ctypes
import glob
import json
import math
import re
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyale._rbase import port
from pyale._rbase.port import NlminbResult, nlminb

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

import port_cases  # noqa: E402

FIXTURE = json.loads((ROOT / "reference" / "port" / "nlminb.json").read_text())


def _floats(hexes) -> list[float]:
    return [float.fromhex(h) for h in hexes]


def _run_python(case: dict) -> tuple[NlminbResult, list[list[float]], list[str]]:
    objective, _ = port_cases.build(case)
    points: list[list[float]] = []

    def recorded(p):
        points.append([float(z) for z in p])
        return objective(p)

    lines: list[str] = []
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NaN objectives warn, as in R
        result = nlminb(_floats(case["start"]), recorded, trace_out=lines.append, **port_cases.arguments(case))
    return result, points, lines


def _assert_same_as_r(case: dict, answer: dict) -> None:
    result, points, lines = _run_python(case)
    name = case["name"]
    assert [z.hex() for z in result.par.tolist()] == [float.fromhex(h).hex() for h in answer["par"]], name
    assert float(result.objective).hex() == float.fromhex(answer["objective"]).hex(), name
    assert result.convergence == answer["convergence"], name
    assert result.iterations == answer["iterations"], name
    assert result.evaluations == answer["evaluations"], name
    if not case.get("message_undefined"):
        assert result.message == answer["message"], name
    # R calls the objective once more at the stopping point after PORT has finished
    r_points = [_floats(p.split(" ")) for p in answer["points"]]
    assert r_points[-1] == _floats(answer["par"]), name
    assert len(points) == len(r_points) - 1, name
    for k, (ours, theirs) in enumerate(zip(points, r_points)):
        assert [z.hex() for z in ours] == [z.hex() for z in theirs], f"{name}: evaluation {k}"
    assert lines == answer["trace"], name


@pytest.mark.parametrize("case", FIXTURE["cases"], ids=[c["name"] for c in FIXTURE["cases"]])
def test_nlminb_equals_r_fixture_to_the_bit(case):
    _assert_same_as_r(case, case["r"])


def test_fixture_covers_every_message_and_all_cases_ran():
    meta = FIXTURE["meta"]
    assert meta["generator"] == "scripts/make_port_fixtures.py"
    expected = port_cases.cases(meta["arguments"]["seed"], meta["arguments"]["random"])
    assert [c["name"] for c in FIXTURE["cases"]] == [c["name"] for c in expected]
    messages = {c["r"]["message"] for c in FIXTURE["cases"]}
    for wanted in ("X-convergence (3)", "relative convergence (4)", "both X-convergence and relative convergence (5)",
                   "absolute function convergence (6)", "singular convergence (7)", "false convergence (8)",
                   "function evaluation limit reached without convergence (9)",
                   "iteration limit reached without convergence (10)", "See PORT documentation.  Code (82)",
                   "'control' component 'rel.tol' = -1, is out of range"):
        assert wanted in messages


@pytest.mark.r
def test_nlminb_equals_live_r_on_fresh_problems(R):
    fresh = [c for c in port_cases.cases(seed=7, random_count=3)
             if c["name"].startswith(("random", "normal", "two_piece_3", "nan_region_bounded", "rosenbrock_box"))]
    assert len(fresh) >= 9
    for case in fresh:
        _assert_same_as_r(case, port_cases.parse_r_answer(list(R(port_cases.r_call(case)))))


# --- R's compiled PORT in lockstep: every iv, v and x entry after every call --------------------

def _stats_library(R):
    R.require("stats")
    folder = str(R("system.file('libs', package = 'stats')")[0])
    found = glob.glob(folder + "/stats.so") + glob.glob(folder + "/*/stats.so")
    if not found:
        pytest.skip(f"R's stats shared library was not found under {folder}")
    try:
        return ctypes.CDLL(found[0])
    except OSError as exc:  # pragma: no cover - depends on the R build
        pytest.skip(f"R's stats library could not be loaded ({exc})")


def _lockstep(lib, start, objective, lower=None, upper=None, control=None) -> int:
    """Drive R's drmnfb_/drmnf_ and the port side by side; return the calls made."""
    n = len(start)
    liv, lv = 78 + 3 * n, 130 + n * (n + 27) // 2
    iv_p, v_p = [0] * (liv + 1), [0.0] * (lv + 1)
    port.divset(2, iv_p, liv, lv, v_p)
    for key, value in (control or {}).items():
        if key in port._IV_CONTROLS:
            iv_p[port._CONTROL_POSITIONS[key]] = int(value)
        else:
            v_p[port._CONTROL_POSITIONS[key]] = float(value)
    iv_r, v_r = np.array(iv_p[1:], dtype=np.int32), np.array(v_p[1:], dtype=float)
    x_r, x_p = np.array(start, dtype=float), [0.0] + [float(z) for z in start]
    d_r, d_p = np.ones(n), [0.0] + [1.0] * n
    dbl, i32 = ctypes.POINTER(ctypes.c_double), ctypes.POINTER(ctypes.c_int)
    ref = ctypes.byref
    if lower is not None:
        b_r = np.empty(2 * n)
        b_r[0::2], b_r[1::2] = lower, upper
        b_p = [0.0] + b_r.tolist()
    fx = math.inf
    for call in range(5000):
        fx_r = ctypes.c_double(fx)
        sizes = (ref(ctypes.c_int(liv)), ref(ctypes.c_int(lv)), ref(ctypes.c_int(n)))
        if lower is not None:
            lib.drmnfb_(b_r.ctypes.data_as(dbl), d_r.ctypes.data_as(dbl), ref(fx_r), iv_r.ctypes.data_as(i32),
                        *sizes, v_r.ctypes.data_as(dbl), x_r.ctypes.data_as(dbl))
            port.drmnfb(b_p, d_p, fx, iv_p, liv, lv, n, v_p, x_p)
        else:
            lib.drmnf_(d_r.ctypes.data_as(dbl), ref(fx_r), iv_r.ctypes.data_as(i32), *sizes,
                       v_r.ctypes.data_as(dbl), x_r.ctypes.data_as(dbl))
            port.drmnf(d_p, fx, iv_p, liv, lv, n, v_p, x_p)
        assert iv_r.tolist() == iv_p[1:], f"iv differs after call {call}"
        same_v = [a == b or (a != a and b != b) for a, b in zip(v_r.tolist(), v_p[1:])]
        if not all(same_v) and iv_r[47] == 0 and [i + 1 for i, s in enumerate(same_v) if not s] == [6]:
            return call  # R stored an uninitialised local into V(NREDUC) (every parameter on a bound)
        assert all(same_v), f"v differs after call {call} at {[i + 1 for i, s in enumerate(same_v) if not s]}"
        assert [z.hex() for z in x_r.tolist()] == [z.hex() for z in x_p[1:]], f"x differs after call {call}"
        if iv_r[0] >= 3:
            return call
        with np.errstate(all="ignore"):
            fx = float(objective(x_r.copy()))
        if math.isnan(fx):
            fx = math.inf
    raise AssertionError("no convergence in 5000 calls")


@pytest.mark.r
def test_every_work_array_entry_equals_r_compiled_port_after_every_call(R):
    lib = _stats_library(R)
    rng = np.random.default_rng(20261127)
    calls = 0
    for trial in range(24):
        n = int(rng.integers(1, 5))
        a = rng.normal(size=(n, n))
        hessian, centre = a @ a.T + 0.1 * np.eye(n), rng.normal(size=n) * 2.0

        def quad(p, h=hessian, c=centre):
            return float((p - c) @ h @ (p - c)) + 0.1 * float(np.sum(p ** 4)) + 1.5

        def with_nan(p, h=hessian, c=centre):
            return math.nan if p[0] > c[0] + 0.3 else quad(p, h, c)

        lower = rng.normal(size=n) - 1.0
        upper = lower + rng.uniform(0.1, 4.0, size=n)
        start = rng.normal(size=n) * 2.0
        objective = with_nan if trial % 3 == 2 else quad
        control = {"iter.max": 4} if trial % 8 == 7 else None
        calls += _lockstep(lib, start, objective, control=control)
        calls += _lockstep(lib, start + (3.0 if trial % 2 else 0.0), objective, lower, upper, control=control)
    assert calls > 1000


@pytest.mark.r
def test_blas_kernels_equal_r_blas(R):
    path = str(R("extSoftVersion()[['BLAS']]")[0])
    if not path or "libblas" not in path:
        pytest.skip(f"R uses the BLAS {path!r}, not the reference BLAS these kernels copy")
    blas = ctypes.CDLL(path)
    blas.ddot_.restype = ctypes.c_double
    blas.dnrm2_.restype = ctypes.c_double
    rng = np.random.default_rng(3)
    one = ctypes.byref(ctypes.c_int(1))
    dbl = ctypes.POINTER(ctypes.c_double)
    for n in list(range(0, 13)) + [37, 100]:
        for scale in (1.0, 1e-160, 1e160, 1e-300):
            x = rng.normal(size=n) * scale
            y = rng.normal(size=n)
            size = ctypes.byref(ctypes.c_int(n))
            ours_dot = port.dd7tpr(n, [0.0] + x.tolist(), 0, [0.0] + y.tolist(), 0)
            ours_nrm = port.dv2nrm(n, [0.0] + x.tolist(), 0)
            assert ours_dot.hex() == blas.ddot_(size, x.ctypes.data_as(dbl), one, y.ctypes.data_as(dbl), one).hex()
            assert ours_nrm.hex() == blas.dnrm2_(size, x.ctypes.data_as(dbl), one).hex()


# --- without R --------------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(-1e100, 1e100), min_size=1, max_size=9), st.sampled_from([1.0, 1e-200, 1e200]))
def test_dv2nrm_is_the_norm_without_overflow_or_underflow(values, scale):
    x = [v * scale for v in values]
    biggest = max(abs(v) for v in x)
    exact = biggest * math.sqrt(math.fsum((v / biggest) ** 2 for v in x)) if biggest > 0 else 0.0
    assert math.isclose(port.dv2nrm(len(x), [0.0] + x, 0), exact, rel_tol=1e-14, abs_tol=1e-320)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 4), st.integers(0, 2 ** 32 - 1))
def test_bounded_solution_is_feasible_and_inputs_unchanged(n, seed):
    rng = np.random.default_rng(seed)
    centre = rng.normal(size=n) * 3.0
    lower = rng.normal(size=n) - 1.0
    upper = lower + rng.uniform(0.0, 3.0, size=n)
    start = rng.normal(size=n) * 4.0
    kept = (start.copy(), lower.copy(), upper.copy())

    def f(p):
        return float(np.sum((p - centre) ** 2))

    fit = nlminb(start, f, lower=lower, upper=upper)
    assert np.all(fit.par >= lower) and np.all(fit.par <= upper)
    assert fit.objective == f(fit.par)
    # a separable quadratic's constrained minimum is the centre clipped into the box
    np.testing.assert_allclose(fit.par, np.clip(centre, lower, upper), rtol=0, atol=1e-5)
    for before, after in zip(kept, (start, lower, upper)):
        np.testing.assert_array_equal(before, after)


def test_ieee_rerun_gives_the_same_bits_as_the_fast_path():
    case = next(c for c in FIXTURE["cases"] if c["name"] == "two_piece_3_parameters")
    objective, _ = port_cases.build(case)
    n = len(case["start"])
    liv, lv = 78 + 3 * n, 130 + n * (n + 27) // 2
    results = []
    for ieee in (False, True):
        iv, v = [0] * (liv + 1), [0.0] * (lv + 1)
        port.divset(2, iv, liv, lv, v)
        b = [0.0]
        for lo, hi in zip(_floats(case["lower"]), _floats(case["upper"])):
            b += [lo, hi]
        x = [0.0] + _floats(case["start"])
        iv, v, x = port._iterate(iv, v, x, [0.0] + [1.0] * n, b, n, liv, lv,
                                 lambda p: objective(np.array(p[1:], dtype=float)), None, ieee=ieee)
        results.append(([float(z).hex() for z in x[1:]], float(v[10]).hex(), iv[1], iv[6], iv[30]))
    assert results[0] == results[1]


def test_nan_objective_warns_and_counts_as_infinite():
    with pytest.warns(RuntimeWarning, match="NA/NaN function evaluation"):
        fit = nlminb([0.0], lambda p: math.nan if p[0] > 0.5 else (p[0] - 2.0) ** 2)
    assert fit.par[0] <= 0.5


def test_trace_lines_have_r_format():
    lines: list[str] = []
    nlminb([-1.2, 1.0], lambda p: 100 * (p[1] - p[0] * p[0]) ** 2 + (1 - p[0]) ** 2, control={"trace": 10},
           trace_out=lines.append)
    assert lines[0] == "  0:     24.200000: -1.20000  1.00000"
    assert all(re.match(r"^ *\d+: *\S+:( +\S+){2}$", line) for line in lines)


@pytest.mark.parametrize(("kwargs", "error", "message"), [
    ({"start": []}, ValueError, "The 'start' parameter of nlminb must have at least one value. Got [] instead."),
    ({"start": [1.0], "control": {"iter.maxx": 3}}, ValueError,
     "The 'control' parameter of nlminb has an unknown element 'iter.maxx'"),
    ({"start": [1.0], "control": {"x": 0.1}}, ValueError,
     "The 'control' parameter of nlminb has an unknown element 'x'"),
    ({"start": [1.0], "lower": []}, ValueError, "The 'lower' parameter of nlminb must have at least one value."),
    ({"start": [1.0, 2.0], "upper": [1.0, float("nan")]}, ValueError,
     "The 'upper' parameter of nlminb must not contain NaN. Got [1.0, nan] instead."),
])
def test_bad_arguments_are_named(kwargs, error, message):
    start = kwargs.pop("start")
    with pytest.raises(error, match=re.escape(message)):
        nlminb(start, lambda p: float(p[0] ** 2), **kwargs)


def test_port_messages_are_r_port_msg():
    assert port.port_message(4) == "relative convergence (4)"
    assert port.port_message(82) == "See PORT documentation.  Code (82)"


@pytest.mark.r
@pytest.mark.parametrize(("fit", "density", "start_shape", "lower_shape"), [
    ("snormFit", "dsnorm", [1.0], [0.0]),
    ("gedFit", "dged", [2.0], [0.0]),
    ("stdFit", "dstd", [4.0], [2.0]),
    ("sgedFit", "dsged", [2.0, 1.0], [0.0, 0.0]),
])
def test_fgarch_fits_equal_r_when_the_objective_returns_r_s_values(R, fit, density, start_shape, lower_shape):
    # fGarch's exported *Fit functions call nlminb(start = c(mean(x), sqrt(var(x)), ...),
    # loglik, lower = c(-Inf, 0, ...)); here R evaluates only the objective, pyale's nlminb
    # drives it, and the answer must be fGarch's to the bit.
    R.require("fGarch")
    from rpy2.robjects import FloatVector

    from pyale._rbase.summaries import r_mean, r_var

    rng = np.random.default_rng(20261128)
    x = np.concatenate([rng.normal(0.3, 1.1, 150), rng.standard_t(5, 60) * 0.8 + 0.6])
    R.ro.globalenv["pyale_x"] = FloatVector(x.tolist())
    expected = R(f"local({{f <- fGarch::{fit}(pyale_x); c(f$par, f$objective, f$convergence, f$iterations, "
                 "f$evaluations)})")
    expected_message = str(R(f"fGarch::{fit}(pyale_x)$message")[0])
    objective_in_r = R.ro.r(f"function(p) -sum(log(fGarch::{density}(pyale_x, "
                            + ", ".join(f"p[{i}]" for i in range(1, 3 + len(start_shape))) + ")))")

    def objective(p):
        return float(objective_in_r(FloatVector(p.tolist()))[0])

    start = [r_mean(x), math.sqrt(r_var(x)), *start_shape]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        got = nlminb(start, objective, lower=[-math.inf, 0.0, *lower_shape], upper=math.inf)
    k = len(start)
    assert [z.hex() for z in got.par.tolist()] == [float(z).hex() for z in expected[:k]]
    assert float(got.objective).hex() == float(expected[k]).hex()
    assert [got.convergence, got.iterations, got.evaluations["function"], got.evaluations["gradient"]] == [
        int(z) for z in expected[k + 1:]]
    assert got.message == expected_message


def test_objective_values_are_read_as_r_reads_them():
    # asReal: the first element of a vector; an empty one is NA, which counts as +Inf
    first = nlminb([1.0], lambda p: np.array([(p[0] - 2.0) ** 2, 99.0]))
    plain = nlminb([1.0], lambda p: (p[0] - 2.0) ** 2)
    assert first.par.tolist() == plain.par.tolist() and first.evaluations == plain.evaluations
    with pytest.warns(RuntimeWarning, match="NA/NaN function evaluation"):
        empty = nlminb([1.0], lambda p: np.array([]) if p[0] > 1.5 else (p[0] - 2.0) ** 2)
    assert empty.par[0] <= 1.5


def test_control_names_match_as_r_pmatch_does():
    def f(p):
        return (p[0] - 2.0) ** 2 + (p[1] * p[1] - 1.0) ** 2

    full = nlminb([0.5, 0.3], f, control={"iter.max": 3, "rel.tol": 1e-4})
    short = nlminb([0.5, 0.3], f, control={"iter": 3, "rel": 1e-4})
    assert full.iterations == short.iterations == 3
    assert full.par.tolist() == short.par.tolist()
