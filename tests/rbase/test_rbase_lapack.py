"""R's eigenvector sign (reference LAPACK 3.11): the committed cmdscale values with their sign, and live R."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from numpy.testing import assert_allclose

from pyale._rbase import double_centre
from pyale._rbase.lapack import cmdscale_1d_reference, reference_dsytrd_lower, reference_top_eigenvector

FIXTURE = Path(__file__).resolve().parents[2] / "reference" / "rbase" / "building_blocks.json"
CMDSCALE = [c for c in json.loads(FIXTURE.read_text())["cases"] if c["fn"] == "cmdscale_1d"]


def _distances(rng: np.random.Generator, n: int) -> np.ndarray:
    points = rng.normal(size=(n, int(rng.integers(1, 4))))
    d = np.sqrt(((points[:, None, :] - points[None, :, :]) ** 2).sum(axis=2))
    return np.round(d, 1) if rng.integers(2) else d


def test_tridiagonal_reduction_is_similar_to_the_matrix():
    rng = np.random.default_rng(2)
    for n in (3, 7, 33, 70):  # 33 and 70 use the blocked reduction (dlatrd + dsyr2k)
        a = rng.normal(size=(n, n))
        a = a + a.T
        d, e, tau, reflected = reference_dsytrd_lower(a)
        q = np.eye(n)
        for i in range(n - 2, -1, -1):
            h = np.concatenate((np.zeros(i + 1), [1.0], reflected[i + 2:, i]))
            q = q - tau[i] * np.outer(h, h @ q)
        t = np.diag(d) + np.diag(e, 1) + np.diag(e, -1)
        assert_allclose(q.T @ a @ q, t, atol=1e-10 * np.abs(a).max())
        value, vector = reference_top_eigenvector(a)
        assert_allclose(a @ vector, value * vector, atol=1e-9 * np.abs(a).max())
        assert value == pytest.approx(np.linalg.eigvalsh(a)[-1], rel=1e-12)


@pytest.mark.parametrize("case", CMDSCALE, ids=[f"cmdscale-{i}" for i in range(len(CMDSCALE))])
def test_committed_r_cmdscale_with_its_sign(case):
    """R's own coordinates (R 4.2.2, reference LAPACK 3.11), sign included."""
    d = np.asarray(case["args"]["distances"])
    expected = np.asarray(case["expected"], dtype=float)
    if d.shape[0] < 3 or expected.size == 0:
        return  # two points (no ale categorical has two levels) or no positive eigenvalue
    got = cmdscale_1d_reference(d)
    assert_allclose(got, expected, rtol=1e-9, atol=1e-12)


@pytest.mark.r
def test_live_r_eigen_sign(R):
    rng = np.random.default_rng(20261124)
    for trial in range(120):
        n = int(rng.integers(3, 12)) if trial < 100 else int(rng.integers(33, 80))
        d = _distances(rng, n)
        R.ro.globalenv["d"] = R.ro.r.matrix(R.ro.FloatVector(d.ravel(order="F")), nrow=n)
        expected = R.floats("cmdscale(d, k = 1)")
        lapack = str(R("La_library()")[0])
        if "liblapack.so" not in lapack or "openblas" in lapack.lower():
            pytest.skip(f"R uses {lapack}, not the reference LAPACK whose sign pyale reproduces")
        got = cmdscale_1d_reference(d)
        assert_allclose(got, expected, rtol=1e-8, atol=1e-10, err_msg=f"trial {trial}, n = {n}")


def test_double_centred_input_matches_cmdscale():
    rng = np.random.default_rng(9)
    d = _distances(rng, 6)
    value, vector = reference_top_eigenvector(-double_centre(d * d) / 2)
    coordinate = cmdscale_1d_reference(d)
    assert_allclose(np.abs(coordinate), np.abs(vector * np.sqrt(value)))
