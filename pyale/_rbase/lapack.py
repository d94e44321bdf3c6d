"""The sign R's ``eigen(symmetric = TRUE)`` gives an eigenvector, as reference LAPACK 3.11 does.

R's ``cmdscale(k = 1)`` orders categorical levels by the top eigenvector of a
double-centred matrix, computed by LAPACK's ``dsyevr`` (R's ``La_rs``: lower
triangle, all eigenvalues, ``abstol = 0``, the workspace ``dsyevr`` asks
for).  An eigenvector's sign is arbitrary; ``dsyevr`` fixes it through three
steps:

1. ``dsytrd`` reduces the matrix to a tridiagonal ``T = Q^T A Q`` with
   Householder reflectors (``dsytd2``; blocks of ``dlatrd`` + ``dsyr2k`` for
   more than 32 rows);
2. ``dstemr`` computes the eigenvectors of ``T`` (MRRR), each with a positive
   entry at the twist index its algorithm picks;
3. ``dormtr`` applies ``Q``.

The sign chosen in step 2 turns out to depend on the last bits of ``T``, so
step 1 is reproduced here operation for operation as reference LAPACK 3.11
with the reference BLAS (netlib, no fused multiply-add: x86-64) computes it
(sequential sums, the new ``dnrm2``, ``dlapy2``, ``dlarfg``), giving ``T``
bit for bit; step 2 is SciPy's ``dstemr``, which is LAPACK's own code and
returns the same vector for the same ``T``; step 3 is a plain product.  This
is what R computes on Debian/Ubuntu with the default ``libblas3``/
``liblapack3`` (and with R's own bundled BLAS and LAPACK); R linked to
OpenBLAS, MKL or Accelerate may pick the other sign.

Everything here is plain NumPy on ``n x n`` arrays, ``n`` the number of
levels.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.linalg.lapack

from .mds import double_centre

__all__ = ["reference_dsytrd_lower", "reference_top_eigenvector", "cmdscale_1d_reference"]

_EPS = 2.0**-53  # dlamch('E') (eps * base / 2 with rounding)
_SAFMIN = 2.0**-1022  # dlamch('S')
# dnrm2.f90 (LAPACK 3.10+) thresholds and scalings for float64
_TSML = 2.0**-511
_TBIG = 2.0**486
_SSML = 2.0**537
_SBIG = 2.0**-538
# ILAENV's block size and crossover for DSYTRD (and DORMTR)
_NB = 32
_NX = 32


def _seq_sum(values: np.ndarray, axis: int = 0) -> np.ndarray:
    """Sum from first to last element along ``axis`` (a Fortran DO loop), not NumPy's pairwise sum.

    NumPy adds the rows of a C-contiguous array one after the other when it
    reduces over the first axis of a 2-D array with at least two columns (the
    reduction is then not along the memory-contiguous axis, where it would
    sum pairwise); a single column or a vector goes through ``cumsum``.
    """
    if values.shape[axis] == 0:
        return np.zeros(np.delete(values.shape, axis))
    rows = np.moveaxis(values, axis, 0)
    if rows.ndim == 2 and rows.shape[1] >= 2:
        total = np.add.reduce(np.ascontiguousarray(rows), axis=0)
    else:
        total = np.cumsum(rows, axis=0)[-1]
    # 0.0 + ...: a Fortran sum starts from +0.0, so a sum of zeros is +0.0 (never -0.0)
    return 0.0 + total


def _dnrm2(x: np.ndarray) -> float:
    """BLAS ``dnrm2`` of LAPACK 3.10+ (Blue's three accumulators)."""
    if x.shape[0] == 0:
        return 0.0
    ax = np.abs(x)
    big = ax > _TBIG
    small = ax < _TSML
    medium = ~(big | small)
    scaled_big = np.where(big, ax * _SBIG, 0.0)
    scaled_small = np.where(small, ax * _SSML, 0.0)
    plain = np.where(medium, ax, 0.0)
    abig = float(_seq_sum(scaled_big * scaled_big)) if big.any() else 0.0
    # asml only counts while no big value has been seen; with any big value it is unused
    asml = float(_seq_sum(scaled_small * scaled_small)) if small.any() and not big.any() else 0.0
    amed = float(_seq_sum(plain * plain)) if medium.any() else 0.0
    if abig > 0:
        if amed > 0 or math.isnan(amed):
            abig = abig + (amed * _SBIG) * _SBIG
        return (1.0 / _SBIG) * math.sqrt(abig)
    if asml > 0:
        if amed > 0 or math.isnan(amed):
            amed = math.sqrt(amed)
            asml = math.sqrt(asml) / _SSML
            ymin, ymax = (amed, asml) if asml > amed else (asml, amed)
            ratio = ymin / ymax
            return 1.0 * math.sqrt(ymax * ymax * (1.0 + ratio * ratio))
        return (1.0 / _SSML) * math.sqrt(asml)
    return 1.0 * math.sqrt(amed)


def _dlapy2(x: float, y: float) -> float:
    """LAPACK ``dlapy2``: ``sqrt(x**2 + y**2)`` avoiding overflow."""
    if math.isnan(x) or math.isnan(y):
        return y if math.isnan(y) else x
    xabs, yabs = abs(x), abs(y)
    w, z = max(xabs, yabs), min(xabs, yabs)
    if z == 0.0 or w > 1.7976931348623157e308:
        return w
    ratio = z / w
    return w * math.sqrt(1.0 + ratio * ratio)  # Fortran's **2 is a product (Python's ** is pow())


def _dlarfg(alpha: float, x: np.ndarray) -> tuple[float, float]:
    """LAPACK ``dlarfg`` on ``(alpha, x)``: returns ``(beta, tau)`` and scales ``x`` in place."""
    if x.shape[0] == 0:
        return alpha, 0.0
    xnorm = _dnrm2(x)
    if xnorm == 0.0:
        return alpha, 0.0
    beta = -math.copysign(_dlapy2(alpha, xnorm), alpha)
    safmin = _SAFMIN / _EPS
    knt = 0
    if abs(beta) < safmin:
        rsafmn = 1.0 / safmin
        while True:
            knt += 1
            x *= rsafmn
            beta *= rsafmn
            alpha *= rsafmn
            if not (abs(beta) < safmin and knt < 20):
                break
        xnorm = _dnrm2(x)
        beta = -math.copysign(_dlapy2(alpha, xnorm), alpha)
    tau = (beta - alpha) / beta
    x *= 1.0 / (alpha - beta)
    for _ in range(knt):
        beta *= safmin
    return beta, tau


def _dsymv_lower(alpha: float, a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """BLAS ``dsymv`` (lower, ``beta = 0``): ``alpha * A @ x`` in the reference loop order.

    Only the lower triangle of ``a`` is read (as in BLAS; the upper one may
    hold anything).
    """
    n = x.shape[0]
    if n == 0:
        return np.zeros(0)
    temp1 = alpha * x
    upper = np.triu(np.ones((n, n), dtype=bool))  # (j, i) with j <= i
    # y(i) = ((0 + temp1(1) a(i,1)) + ... + temp1(i) a(i,i)) + alpha * temp2(i): rows j of a(i, j) laid out (j, i)
    by_column = np.where(upper, a.T, 0.0)
    by_column *= temp1[:, None]
    y = _seq_sum(by_column)
    below = np.where(upper, 0.0, a)  # strictly lower, (i, j)
    below *= x[:, None]
    temp2 = _seq_sum(below)  # column j: the sum over i > j of a(i,j) x(i), i in order
    return y + alpha * temp2


def _dsyr2_lower(alpha: float, x: np.ndarray, y: np.ndarray, a: np.ndarray) -> None:
    """BLAS ``dsyr2`` (lower) in place: ``A += alpha x y^T + alpha y x^T``.

    The upper triangle is updated too (it is never read, here or in BLAS).
    """
    columns = (x != 0) | (y != 0)
    temp1 = alpha * y
    temp2 = alpha * x
    if columns.all():
        a += np.multiply.outer(x, temp1)
        a += np.multiply.outer(y, temp2)
        return
    a[:, columns] = a[:, columns] + np.multiply.outer(x, temp1[columns]) + np.multiply.outer(y, temp2[columns])


def _dgemv_n(alpha: float, a: np.ndarray, x: np.ndarray, y: np.ndarray) -> None:
    """BLAS ``dgemv('N')`` with ``beta = 1`` in place: ``y += alpha A x``."""
    if a.shape[0] == 0 or a.shape[1] == 0 or alpha == 0.0:
        return
    temp = alpha * x
    y[:] = _seq_sum(np.concatenate([y[:, None], a * temp[None, :]], axis=1), axis=1)


def _dgemv_t(alpha: float, a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """BLAS ``dgemv('T')`` with ``beta = 0``: ``alpha A^T x``."""
    temp = _seq_sum(a * x[:, None], axis=0)
    return 0.0 + alpha * temp


def _ddot(x: np.ndarray, y: np.ndarray) -> float:
    return float(_seq_sum(x * y)) if x.shape[0] else 0.0


def _dsyr2k_lower(alpha: float, a: np.ndarray, b: np.ndarray, c: np.ndarray) -> None:
    """BLAS ``dsyr2k('L', 'N')`` with ``beta = 1`` in place: ``C += alpha (A B^T + B A^T)``.

    The upper triangle of ``c`` is updated too (never read).
    """
    n, k = a.shape
    if n == 0 or k == 0:
        return
    for col in range(k):
        columns = (a[:, col] != 0) | (b[:, col] != 0)
        temp1 = alpha * b[:, col]
        temp2 = alpha * a[:, col]
        if columns.all():
            c += np.multiply.outer(a[:, col], temp1)
            c += np.multiply.outer(b[:, col], temp2)
        else:
            c[:, columns] = (c[:, columns] + np.multiply.outer(a[:, col], temp1[columns])
                             + np.multiply.outer(b[:, col], temp2[columns]))


def _dsytd2_lower(a: np.ndarray, d: np.ndarray, e: np.ndarray, tau: np.ndarray) -> None:
    """LAPACK ``dsytd2`` (lower) in place on ``a`` (``d``, ``e``, ``tau`` views to fill)."""
    n = a.shape[0]
    for i in range(n - 1):
        column = a[i + 2 :, i]
        beta, taui = _dlarfg(float(a[i + 1, i]), column)
        a[i + 1, i] = beta
        e[i] = beta
        if taui != 0.0:
            a[i + 1, i] = 1.0
            v = a[i + 1 :, i].copy()
            w = _dsymv_lower(taui, a[i + 1 :, i + 1 :], v)
            alpha = -0.5 * taui * _ddot(w, v)
            if alpha != 0.0:
                w = w + alpha * v
            _dsyr2_lower(-1.0, v, w, a[i + 1 :, i + 1 :])
            a[i + 1, i] = e[i]
        d[i] = a[i, i]
        tau[i] = taui
    d[n - 1] = a[n - 1, n - 1]


def _dlatrd_lower(a: np.ndarray, nb: int, e: np.ndarray, tau: np.ndarray, w: np.ndarray) -> None:
    """LAPACK ``dlatrd`` (lower): reduce the first ``nb`` columns, filling ``w`` (``n x nb``)."""
    n = a.shape[0]
    for i in range(nb):
        _dgemv_n(-1.0, a[i:, :i], w[i, :i].copy(), a[i:, i])
        _dgemv_n(-1.0, w[i:, :i], a[i, :i].copy(), a[i:, i])
        if i < n - 1:
            beta, tau[i] = _dlarfg(float(a[i + 1, i]), a[i + 2 :, i])
            a[i + 1, i] = beta
            e[i] = beta
            a[i + 1, i] = 1.0
            v = a[i + 1 :, i].copy()
            w[i + 1 :, i] = _dsymv_lower(1.0, a[i + 1 :, i + 1 :], v)
            if i > 0:
                w[:i, i] = _dgemv_t(1.0, w[i + 1 :, :i], v)
                _dgemv_n(-1.0, a[i + 1 :, :i], w[:i, i].copy(), w[i + 1 :, i])
                w[:i, i] = _dgemv_t(1.0, a[i + 1 :, :i], v)
                _dgemv_n(-1.0, w[i + 1 :, :i], w[:i, i].copy(), w[i + 1 :, i])
            w[i + 1 :, i] *= tau[i]
            alpha = -0.5 * tau[i] * _ddot(w[i + 1 :, i], v)
            if alpha != 0.0:
                w[i + 1 :, i] += alpha * v


def reference_dsytrd_lower(matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """LAPACK 3.11 ``dsytrd('L')`` as ``dsyevr`` calls it from R (block size 28 beyond 32 rows).

    Parameters
    ----------
    matrix : numpy.ndarray
        Symmetric ``(n, n)``; only its lower triangle is read.

    Returns
    -------
    (d, e, tau, reflectors)
        The tridiagonal's diagonal and off-diagonal, the reflectors' scalars,
        and the reduced matrix whose strict lower triangle below the
        subdiagonal holds the reflectors' vectors (LAPACK's layout).
    """
    a = np.array(matrix, dtype=float, order="C", copy=True)
    n = a.shape[0]
    d = np.zeros(n)
    e = np.zeros(max(n - 1, 0))
    tau = np.zeros(max(n - 1, 0))
    nb, nx = _NB, n
    if 1 < nb < n:
        nx = max(nb, _NX)
        if nx < n:
            # dsyevr hands dsytrd 33 n - 5 n = 28 n of workspace (R asks dsyevr for its
            # optimal size, (NB + 1) n): too little for NB = 32 columns, so NB becomes 28.
            nb = (33 * n - 5 * n) // n
        else:
            nx = n
    start = 0
    if nx < n:
        work = np.zeros((n, nb))
        while start + 1 <= n - nx:
            sub = a[start:, start:]
            work[:] = 0.0
            w = work[: n - start]
            _dlatrd_lower(sub, nb, e[start:], tau[start:], w)
            _dsyr2k_lower(-1.0, sub[nb:, :nb], w[nb:, :nb], sub[nb:, nb:])
            for j in range(start, start + nb):
                a[j + 1, j] = e[j]
                d[j] = a[j, j]
            start += nb
    _dsytd2_lower(a[start:, start:], d[start:], e[start:], tau[start:])
    return d, e, tau, a


def _apply_q(reflected: np.ndarray, tau: np.ndarray, z: np.ndarray) -> np.ndarray:
    """``Q z`` with ``Q = H(1) ... H(n-1)`` from ``dsytrd('L')``'s reflectors."""
    v = np.array(z, dtype=float, copy=True)
    n = reflected.shape[0]
    for i in range(n - 2, -1, -1):
        if tau[i] == 0.0:
            continue
        h = np.concatenate(([1.0], reflected[i + 2 :, i]))
        part = v[i + 1 :]
        v[i + 1 :] = part - tau[i] * h * float(h @ part)
    return v


def reference_top_eigenvector(matrix: np.ndarray) -> tuple[float, np.ndarray]:
    """The largest eigenvalue of a symmetric matrix and its eigenvector, signed as R's ``eigen``.

    Parameters
    ----------
    matrix : numpy.ndarray
        Symmetric ``(n, n)``, ``n >= 3``, finite.

    Returns
    -------
    (value, vector)
        The eigenvector has unit length, and the sign that reference LAPACK
        3.11's ``dsyevr`` (R's ``eigen(symmetric = TRUE)``) gives it.

    Examples
    --------
    >>> m = np.array([[2.0, 1.0, 0.0], [1.0, 2.0, 1.0], [0.0, 1.0, 2.0]])
    >>> value, vector = reference_top_eigenvector(m)
    >>> round(value, 6), np.round(vector, 6).tolist()
    (3.414214, [0.5, 0.707107, 0.5])
    """
    a = np.array(matrix, dtype=float)
    anrm = float(np.max(np.abs(np.tril(a)))) if a.size else 0.0
    rmin, rmax = 2.0**-485, 2.0**255.5  # dsyevr: sqrt(smlnum), 1 / sqrt(sqrt(safmin))
    if 0.0 < anrm < rmin or anrm > rmax:  # dsyevr scales the lower triangle by a positive factor
        a = a * ((rmin if anrm < rmin else rmax) / anrm)
    d, e, tau, reflected = reference_dsytrd_lower(a)
    m, values, vectors, info = scipy.linalg.lapack.dstemr(
        d.copy(), np.concatenate([e, [0.0]]), 0, 0.0, 0.0, 0, 0)
    if info != 0:
        raise np.linalg.LinAlgError(f"LAPACK dstemr failed (info = {info}).")
    top = int(np.argmax(values[:m]))
    return float(values[top]), _apply_q(reflected, tau, vectors[:, top])


def cmdscale_1d_reference(distances: np.ndarray) -> np.ndarray | None:
    """R's ``cmdscale(d, k = 1)`` with the eigenvector's sign as reference LAPACK 3.11 gives it.

    Same numbers as :func:`pyale._rbase.cmdscale_1d` (whose sign is SciPy's
    LAPACK's choice) up to the sign, which here is R's on a reference
    BLAS/LAPACK build (see the module notes).  ``None`` when the largest
    eigenvalue is not positive.

    Examples
    --------
    >>> d = np.abs(np.subtract.outer([0.0, 1.0, 3.0], [0.0, 1.0, 3.0]))
    >>> np.round(cmdscale_1d_reference(d), 6).tolist()
    [-1.333333, -0.333333, 1.666667]
    """
    d = np.asarray(distances, dtype=float)
    if d.shape[0] < 3:
        raise ValueError("cmdscale_1d_reference needs at least three points.")
    value, vector = reference_top_eigenvector(-double_centre(d * d) / 2.0)
    if not value > 0:
        return None
    return vector * np.sqrt(value)
