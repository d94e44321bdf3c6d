"""R's L'Ecuyer-CMRG generator, sample.int and furrr's seeds (pyale._rbase.rng).

Three kinds of check: a plain scalar re-implementation of R's C code (one
value at a time, Python integers) against the vectorised generator; the
committed R answers in reference/rng/rng.json; and live R (marker ``r``) on
seeds no fixture uses.
"""

from __future__ import annotations

import json
import math
import re
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from pyale._rbase import rng

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = json.loads((ROOT / "reference" / "rng" / "rng.json").read_text())
CASES = FIXTURE["cases"]


# --- a plain scalar port of R's C code, written separately from the module -------------------


class PlainLecuyer:
    """unif_rand() and R_unif_index() one value at a time, as R's RNG.c does."""

    def __init__(self, seed: int):
        s = seed & 0xFFFFFFFF
        for _ in range(50):
            s = (69069 * s + 1) & 0xFFFFFFFF
        self.x = []
        for _ in range(6):
            s = (69069 * s + 1) & 0xFFFFFFFF
            while s >= 4294944443:
                s = (69069 * s + 1) & 0xFFFFFFFF
            self.x.append(s)

    def unif(self) -> float:
        x = self.x
        p1 = (1403580 * x[1] - 810728 * x[0]) % 4294967087
        x[0], x[1], x[2] = x[1], x[2], p1
        p2 = (527612 * x[5] - 1370589 * x[3]) % 4294944443
        x[3], x[4], x[5] = x[4], x[5], p2
        return float(p1 - p2 if p1 > p2 else p1 - p2 + 4294967087) * 2.328306549295727688e-10

    def index(self, n: int) -> int:
        bits = math.ceil(math.log2(n))
        while True:
            v = 0
            for _ in range(0, bits + 1, 16):
                v = 65536 * v + math.floor(self.unif() * 65536)
            v &= (1 << bits) - 1
            if v < n:
                return v


@pytest.mark.parametrize("seed", [0, 1, -5, 2147483647, 12345])
@pytest.mark.parametrize("size", [1, 2, 3, 31, 32, 33, 1000, 4097])
def test_vectorised_uniforms_equal_the_plain_recurrence(seed, size):
    plain = PlainLecuyer(seed)
    expected = np.array([plain.unif() for _ in range(size)])
    gen = rng.LecuyerCMRG.from_seed(seed)
    np.testing.assert_array_equal(gen.unif_rand(size), expected)
    assert [int(v) for v in gen.state] == plain.x  # the state advanced by exactly `size` steps


def test_uniforms_across_block_boundaries_and_in_pieces():
    whole = rng.LecuyerCMRG.from_seed(8).unif_rand(rng.BLOCK + 5000)
    gen = rng.LecuyerCMRG.from_seed(8)
    pieces = np.concatenate([gen.unif_rand(1), gen.unif_rand(rng.BLOCK - 3), gen.unif_rand(5002)])
    np.testing.assert_array_equal(whole, pieces)
    plain = PlainLecuyer(8)
    tail = [plain.unif() for _ in range(rng.BLOCK + 5000)][-50:]
    np.testing.assert_array_equal(whole[-50:], tail)


@pytest.mark.parametrize("n", [1, 2, 3, 10, 255, 256, 257, 65535, 65536, 65537, 100000, 2**31 - 1, 2**31 + 3, 2**48 + 1])
def test_rejection_index_equals_the_plain_port(n):
    plain = PlainLecuyer(77)
    expected = [plain.index(n) for _ in range(60)]
    gen = rng.LecuyerCMRG.from_seed(77)
    assert gen.unif_index(n, 60).astype(np.int64).tolist() == expected
    assert [int(v) for v in gen.state] == plain.x


def test_jumps_equal_single_steps():
    gen = rng.LecuyerCMRG.from_seed(4)
    start = gen.state.copy()
    gen.unif_rand(1000)
    assert [int(v) for v in rng._advance(start, 1000)] == [int(v) for v in gen.state]


def test_stream_and_substream_are_jumps_of_2_127_and_2_76():
    seed = np.array([10407, 1, 2, 3, 4, 5, 6])
    a1 = rng._companion(rng.M1, True)
    # squaring 127 times by hand, separately from the module's power function
    power = a1
    for _ in range(127):
        power = rng._mat_mul(power, power, rng.M1)
    first = [sum(power[i][k] * (k + 1) for k in range(3)) % rng.M1 for i in range(3)]
    assert [v & 0xFFFFFFFF for v in rng.next_rng_stream(seed)[1:4].tolist()] == first
    assert rng.next_rng_stream(seed)[0] == 10407
    assert not np.array_equal(rng.next_rng_substream(seed), rng.next_rng_stream(seed))


def test_ale_rows_are_one_long_sample():
    rows = rng.ale_bootstrap_rows(17, 5, seed=3)
    gen = rng.LecuyerCMRG.from_seed(3)
    each = np.stack([gen.sample_int(17, 17, replace=True) - 1 for _ in range(5)])
    np.testing.assert_array_equal(rows, each)
    lazily = np.stack(list(rng.iter_ale_bootstrap_rows(17, 5, seed=3, chunk=40)))
    np.testing.assert_array_equal(rows, lazily)


def test_one_replicate_of_100000_rows_is_fast():
    rng.ale_bootstrap_rows(1000, 1, seed=1)  # warm the cached jump matrices
    start = time.perf_counter()
    rows = rng.ale_bootstrap_rows(100_000, 1, seed=0)
    elapsed = time.perf_counter() - start
    assert rows.shape == (1, 100_000) and rows.min() >= 0 and rows.max() < 100_000
    assert elapsed < 0.5, f"one replicate of 100,000 rows took {elapsed:.3f} s"


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: rng.set_seed(1.5e10), ValueError, "R's set.seed() cannot use the seed 15000000000.0"),
        (lambda: rng.set_seed(float("nan")), ValueError, "R's set.seed() cannot use the seed nan"),
        (lambda: rng.set_seed(-(2**31)), ValueError, "R's set.seed() cannot use the seed -2147483648"),
        (lambda: rng.LecuyerCMRG([1, 2, 3]), ValueError, "A L'Ecuyer-CMRG state has 6 words."),
        (lambda: rng.LecuyerCMRG.from_seed(1, "Fast"), ValueError,
         "sample_kind must be one of ('Rejection', 'Rounding'). Got 'Fast' instead."),
        (lambda: rng.LecuyerCMRG.from_seed(1).sample_int(5, 6), ValueError,
         "cannot take a sample larger than the population when 'replace = FALSE'"),
        (lambda: rng.next_rng_stream([403, 1, 2, 3, 4, 5, 6]), ValueError, "Not a L'Ecuyer-CMRG .Random.seed"),
    ],
)
def test_errors(call, error, message):
    with pytest.raises(error, match=re.escape(message)):
        call()


def test_set_seed_truncates_like_as_integer():
    np.testing.assert_array_equal(rng.set_seed(7.9), rng.set_seed(7))
    np.testing.assert_array_equal(rng.set_seed(-7.9), rng.set_seed(-7))


# --- against R (committed) ------------------------------------------------------------------


def pyale_answer(case: dict) -> list:
    """pyale's answer to one fixture case (the same shape as R's)."""
    kind, seed = case["kind"], case["seed"]
    if kind == "set_seed":
        return rng.LecuyerCMRG.from_seed(seed).random_seed().tolist()
    if kind == "runif":
        return rng.LecuyerCMRG.from_seed(seed).unif_rand(case["size"]).tolist()
    if kind == "streams":
        s = rng.LecuyerCMRG.from_seed(seed).random_seed()
        out = []
        for _ in range(case["count"]):
            out += rng.next_rng_stream(s).tolist() + rng.next_rng_substream(s).tolist()
            s = rng.next_rng_stream(s)
        return out
    if kind == "sample_int":
        gen = rng.LecuyerCMRG.from_seed(seed, case["sample_kind"])
        return gen.sample_int(case["n"], case["size"], replace=case["replace"]).tolist()
    if kind == "ale_rows":
        return (rng.ale_bootstrap_rows(case["n"], case["boot_it"], seed=seed) + 1).ravel().tolist()
    if kind == "furrr_seeds":
        return np.concatenate(rng.furrr_element_seeds(seed, case["count"])).tolist()
    raise AssertionError(f"unknown case kind {kind!r}")


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_matches_r(case):
    got = pyale_answer(case)
    if case["kind"] == "runif":
        np.testing.assert_array_equal(np.array(got), np.array(case["expected"], dtype=float))
    else:
        assert got == case["expected"]


def test_fixture_covers_every_kind_and_the_chunk_boundaries():
    kinds = {c["kind"] for c in CASES}
    assert kinds == {"set_seed", "runif", "streams", "sample_int", "ale_rows", "furrr_seeds"}
    ns = {c["n"] for c in CASES if c["kind"] == "sample_int"}
    assert {65535, 65536, 65537, 2**31 - 1, 2**31, 2**31 + 1, 2**48 + 1, 20000001} <= ns
    assert {c["sample_kind"] for c in CASES if c["kind"] == "sample_int"} == {"Rejection", "Rounding"}
    assert FIXTURE["meta"]["generator"] == "scripts/make_rng_fixtures.py"


# --- against R (live, held-back seeds) ------------------------------------------------------


@pytest.mark.r
def test_held_back_seeds_match_live_r(R):
    R.require("parallel", "furrr", "future")
    sys.path.insert(0, str(ROOT / "scripts"))
    import make_rng_fixtures

    cases = make_rng_fixtures.build_cases(make_rng_fixtures.HELD_BACK_SEEDS)
    assert not {c["seed"] for c in cases} & set(FIXTURE["meta"]["seeds"])
    for case in cases:
        expected = make_rng_fixtures.run_case(R.ro, case)
        got = pyale_answer(case)
        if case["kind"] == "runif":
            np.testing.assert_array_equal(np.array(got), np.array(expected), err_msg=case["name"])
        else:
            assert got == expected, case["name"]
