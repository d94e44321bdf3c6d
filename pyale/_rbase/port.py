"""R's ``nlminb``: the PORT library's reverse-communication minimiser, bit for bit.

R's ``nlminb`` (``src/library/stats/R/nlminb.R``) drives David Gay's PORT
routines (``src/library/stats/src/portsrc.f``, through ``port.c``).  Without
a gradient it calls ``drmnfb`` (with bounds) or ``drmnf`` (without), which
estimate the gradient by finite differences (``ds3grd`` / ``ds7grd``) and
take double-dogleg steps on a secant (BFGS) model of the Hessian kept as a
Cholesky factor (``drmngb`` / ``drmng``).

This module translates that path routine by routine, keeping each routine's
floating-point operations in the Fortran's order and the ``iv``/``v`` work
arrays with their 1-based layout, so that for an objective whose values are
R's bits, the iterates, stopping point and counts are R's bits too.  Python
floats are IEEE doubles rounded to nearest like gfortran's on x86-64 (no
fused multiply-add), and ``x ** y`` is C's ``pow`` as in ``gfortran``'s
``x**y`` for real exponents.

Conventions of the translation
------------------------------
Every Fortran array argument becomes a pair ``(array, offset)``: element
``A(k)`` (1-based) is ``array[offset + k]``.  ``iv``, ``v``, ``x``, ``d`` and
``b`` are Python lists whose element 0 is unused, so ``V(k)`` is ``v[k]``, a
Fortran actual argument ``V(J)`` is ``(v, J - 1)`` and ``X`` is ``(x, 0)``;
``B(r, c)`` is ``b[2*(c-1) + r]``.  Statement labels become a ``while`` loop
over a ``label`` variable.  BLAS ``ddot`` and ``dnrm2`` (R calls the system
BLAS for ``dd7tpr`` and ``dv2nrm``) are the reference BLAS's (LAPACK 3.10+,
``dnrm2.f90``), which is what R 4.2.2 uses here (``sessionInfo()``:
``libblas.so.3.11.0``); an R linked to OpenBLAS or MKL may differ in the
last bits.

Where the compiled Fortran, not the source, decides
---------------------------------------------------
- ``drmngb`` calls ``dl7tvm`` with its input and output in the same storage.
  The source reads ``Y(I)`` before setting ``X(I) = 0``; gfortran, allowed to
  assume that dummy arguments do not overlap, stores first (R 4.2.2's
  ``stats.so``), so R computes zeros there.  ``dl7tvm`` below follows the
  compiled order.
- When every parameter is held at a bound at the start of an iteration,
  ``dd7dgb`` stores a local it never set into ``V(NREDUC)``: R then reads a
  leftover stack value, and its convergence message (3 or 5) can change from
  one run to the next (``par``, ``objective`` and the counts do not).  Here
  the value is 0, which is what R printed in the runs we made.
- R evaluates the objective once more after PORT has stopped (``port.c``'s
  ``do ... while`` loop); the answer does not depend on it, so it is not made.

The translation was checked against R's compiled ``drmnfb_``/``drmnf_`` called
side by side through ``ctypes``: every ``iv``, ``v`` and ``x`` entry equal after
every call on over a thousand random problems (``tests/rbase/test_port.py``).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from typing import Callable, Mapping

import numpy as np

__all__ = ["nlminb", "NlminbResult", "port_message"]

_INF = math.inf

# d1mach as R computes it (src/nmath/d1mach.c)
_D1MACH = {1: 2.2250738585072014e-308, 2: 1.7976931348623157e308, 3: 2.0 ** -53, 4: 2.0 ** -52,
           5: 0.30102999566398119521}


def dr7mdc(k: int) -> float:
    """PORT's machine constants (``DR7MDC``), from R's ``d1mach``."""
    big, eta, machep = _D1MACH[2], _D1MACH[1], _D1MACH[4]
    if k == 1:
        return eta
    if k == 2:
        return math.sqrt(256.0 * eta) / 16.0
    if k == 3:
        return machep
    if k == 4:
        return math.sqrt(machep)
    if k == 5:
        return math.sqrt(big / 256.0) * 16.0
    if k == 6:
        return big
    return 0.0  # unreachable in PORT (the Fortran returns an undefined value)


def _dmax1(a: float, b: float) -> float:
    """gfortran's ``MAX(a, b)`` for reals: ``b`` when ``b > a`` or ``a`` is NaN."""
    return b if (b > a or a != a) else a


# ---------------------------------------------------------------------------------------
# Reference BLAS used by port.c's C replacements (dd7tpr -> ddot, dv2nrm -> dnrm2)

def _sqrt(z: float) -> float:
    """Fortran's ``DSQRT``: NaN (not an exception) for a negative argument."""
    return type(z)(math.sqrt(z)) if z >= 0.0 else type(z)(math.nan)


def _pow(a: float, b: float) -> float:
    """gfortran's ``a**b`` for reals (C's ``pow``), with IEEE results where Python raises."""
    try:
        return a ** b
    except (OverflowError, ZeroDivisionError):
        with np.errstate(all="ignore"):
            return float(np.power(np.float64(a), np.float64(b)))


def dd7tpr(p: int, x: list, xo: int, y: list, yo: int) -> float:
    """Inner product (``DD7TPR`` = reference BLAS ``ddot``, unit strides, unrolled by 5)."""
    dtemp = 0.0
    if p <= 0:
        return dtemp
    m = p % 5
    if m != 0:
        for i in range(1, m + 1):
            dtemp = dtemp + x[xo + i] * y[yo + i]
        if p < 5:
            return dtemp
    for i in range(m + 1, p + 1, 5):
        dtemp = (dtemp + x[xo + i] * y[yo + i] + x[xo + i + 1] * y[yo + i + 1] + x[xo + i + 2] * y[yo + i + 2]
                 + x[xo + i + 3] * y[yo + i + 3] + x[xo + i + 4] * y[yo + i + 4])
    return dtemp


# la_constants.f90 for double precision
_TSML = 2.0 ** -511
_TBIG = 2.0 ** 486
_SSML = 2.0 ** 537
_SBIG = 2.0 ** -538
_MAXN = 1.7976931348623157e308


def dv2nrm(p: int, x: list, xo: int) -> float:
    """2-norm (``DV2NRM`` = reference BLAS ``dnrm2``, LAPACK 3.10+ ``dnrm2.f90``)."""
    if p <= 0:
        return 0.0
    notbig = True
    asml = amed = abig = 0.0
    for i in range(1, p + 1):
        ax = abs(x[xo + i])
        if ax > _TBIG:
            t = ax * _SBIG
            abig = abig + t * t
            notbig = False
        elif ax < _TSML:
            if notbig:
                t = ax * _SSML
                asml = asml + t * t
        else:
            amed = amed + ax * ax
    if abig > 0.0:
        if amed > 0.0 or amed > _MAXN or amed != amed:
            abig = abig + (amed * _SBIG) * _SBIG
        scl = 1.0 / _SBIG
        sumsq = abig
    elif asml > 0.0:
        if amed > 0.0 or amed > _MAXN or amed != amed:
            amed = _sqrt(amed)
            asml = _sqrt(asml) / _SSML
            if asml > amed:
                ymin, ymax = amed, asml
            else:
                ymin, ymax = asml, amed
            scl = 1.0
            r = ymin / ymax
            sumsq = ymax * ymax * (1.0 + r * r)
        else:
            scl = 1.0 / _SSML
            sumsq = asml
    else:
        scl = 1.0
        sumsq = amed
    return scl * _sqrt(sumsq)


# ---------------------------------------------------------------------------------------
# port.c's C replacements for PORT's vector utilities

def dv2axy(p: int, w: list, wo: int, a: float, x: list, xo: int, y: list, yo: int) -> None:
    """``w = a*x + y`` (``DV2AXY``)."""
    for i in range(1, p + 1):
        w[wo + i] = a * x[xo + i] + y[yo + i]


def dv7cpy(p: int, dest: list, do: int, src: list, so: int) -> None:
    """Copy (``DV7CPY``: ``memmove``, so overlapping copies act as one block)."""
    if p > 0:
        dest[do + 1:do + 1 + p] = src[so + 1:so + 1 + p]


def dv7ipr(p: int, ip: list, io: int, x: list, xo: int) -> None:
    """Forward permutation ``x[i] := x[ip[i]]`` (``DV7IPR``)."""
    copy = [x[xo + ip[io + i]] for i in range(1, p + 1)]
    x[xo + 1:xo + 1 + p] = copy


def dv7scp(p: int, dest: list, do: int, c: float) -> None:
    """Set to a constant (``DV7SCP``)."""
    for i in range(1, p + 1):
        dest[do + i] = c


# ---------------------------------------------------------------------------------------
# portsrc.f: linear algebra on the packed lower triangle L (row-wise)

def dl7tvm(n: int, x: list, xo: int, l: list, lo: int, y: list, yo: int) -> None:
    """``x = L**T * y`` (``DL7TVM``), as R's compiled code runs it.

    The Fortran reads ``YI = Y(I)`` before ``X(I) = 0``, but gfortran (which may assume
    that dummy arguments do not overlap) stores ``X(I) = 0`` first (checked in R 4.2.2's
    ``stats.so``).  ``drmngb`` calls it with ``x`` and ``y`` the same storage, where the
    compiled order gives zeros; this translation keeps R's order.
    """
    i0 = 0
    for i in range(1, n + 1):
        x[xo + i] = 0.0
        yi = y[yo + i]
        for j in range(1, i + 1):
            ij = i0 + j
            x[xo + j] = x[xo + j] + yi * l[lo + ij]
        i0 = i0 + i


def dl7vml(n: int, x: list, xo: int, l: list, lo: int, y: list, yo: int) -> None:
    """``x = L * y`` (``DL7VML``); ``x`` and ``y`` may be the same storage."""
    np1 = n + 1
    i0 = n * (n + 1) // 2
    for ii in range(1, n + 1):
        i = np1 - ii
        i0 = i0 - i
        t = 0.0
        for j in range(1, i + 1):
            ij = i0 + j
            t = t + l[lo + ij] * y[yo + j]
        x[xo + i] = t


def dl7itv(n: int, x: list, xo: int, l: list, lo: int, y: list, yo: int) -> None:
    """Solve ``L**T * x = y`` (``DL7ITV``)."""
    for i in range(1, n + 1):
        x[xo + i] = y[yo + i]
    np1 = n + 1
    i0 = n * (n + 1) // 2
    for ii in range(1, n + 1):
        i = np1 - ii
        xi = x[xo + i] / l[lo + i0]
        x[xo + i] = xi
        if i <= 1:
            return
        i0 = i0 - i
        if xi == 0.0:
            continue
        im1 = i - 1
        for j in range(1, im1 + 1):
            ij = i0 + j
            x[xo + j] = x[xo + j] - xi * l[lo + ij]


def dl7ivm(n: int, x: list, xo: int, l: list, lo: int, y: list, yo: int) -> None:
    """Solve ``L * x = y`` (``DL7IVM``)."""
    k_found = 0
    for k in range(1, n + 1):
        if y[yo + k] != 0.0:
            k_found = k
            break
        x[xo + k] = 0.0
    if k_found == 0:
        return
    k = k_found
    j = k * (k + 1) // 2
    x[xo + k] = y[yo + k] / l[lo + j]
    if k >= n:
        return
    k = k + 1
    for i in range(k, n + 1):
        t = dd7tpr(i - 1, l, lo + j, x, xo)
        j = j + i
        x[xo + i] = (y[yo + i] - t) / l[lo + j]


def i7shft(n: int, k: int, x: list, xo: int) -> None:
    """Circular shift of an integer vector (``I7SHFT``)."""
    if k < 0:
        k1 = -k
        if k1 >= n:
            return
        t = x[xo + n]
        nm1 = n - k1
        for ii in range(1, nm1 + 1):
            i = n - ii
            x[xo + i + 1] = x[xo + i]
        x[xo + k1] = t
        return
    if k >= n:
        return
    nm1 = n - 1
    t = x[xo + k]
    for i in range(k, nm1 + 1):
        x[xo + i] = x[xo + i + 1]
    x[xo + n] = t


def dv7shf(n: int, k: int, x: list, xo: int) -> None:
    """Left circular shift of ``x[k:]`` (``DV7SHF``)."""
    if k >= n:
        return
    nm1 = n - 1
    t = x[xo + k]
    for i in range(k, nm1 + 1):
        x[xo + i] = x[xo + i + 1]
    x[xo + n] = t


def dv7vmp(n: int, x: list, xo: int, y: list, yo: int, z: list, zo: int, k: int) -> None:
    """``x = y * z`` (``k >= 0``) or ``x = y / z`` (``DV7VMP``)."""
    if k >= 0:
        for i in range(1, n + 1):
            x[xo + i] = y[yo + i] * z[zo + i]
    else:
        for i in range(1, n + 1):
            x[xo + i] = y[yo + i] / z[zo + i]


def drldst(p: int, d: list, do: int, x: list, xo: int, x0: list, x0o: int) -> float:
    """Relative difference between ``x`` and ``x0`` (``DRLDST``)."""
    emax = 0.0
    xmax = 0.0
    for i in range(1, p + 1):
        t = abs(d[do + i] * (x[xo + i] - x0[x0o + i]))
        if emax < t:
            emax = t
        t = d[do + i] * (abs(x[xo + i]) + abs(x0[x0o + i]))
        if xmax < t:
            xmax = t
    result = 0.0
    if xmax > 0.0:
        result = emax / xmax
    return result


def dh2rfg(a: float, b: float) -> tuple[float, float, float, float]:
    """2x2 Householder reflection (``DH2RFG``): returns (value, x, y, z)."""
    if b == 0.0:
        return a, 0.0, 0.0, 0.0
    t = abs(a) + abs(b)
    a1 = a / t
    b1 = b / t
    c = _sqrt(a1 * a1 + b1 * b1)
    if a1 > 0.0:
        c = -c
    a1 = a1 - c
    z = b1 / a1
    x = a1 / c
    y = b1 / c
    return t * c, x, y, z


def dh2rfa(n: int, a: list, ao: int, b: list, bo: int, x: float, y: float, z: float) -> None:
    """Apply a 2x2 Householder reflection (``DH2RFA``)."""
    for i in range(1, n + 1):
        t = a[ao + i] * x + b[bo + i] * y
        a[ao + i] = a[ao + i] + t
        b[bo + i] = b[bo + i] + t * z


def dq7rsh(k: int, p: int, havqtr: bool, qtr: list, qo: int, r: list, ro: int, w: list, wo: int) -> None:
    """Permute column ``k`` of packed ``R`` to the end and restore triangularity (``DQ7RSH``)."""
    if k >= p:
        return
    km1 = k - 1
    k1 = k * km1 // 2
    dv7cpy(k, w, wo, r, ro + k1)
    wj = w[wo + k]
    pm1 = p - 1
    j1 = k1 + km1
    for j in range(k, pm1 + 1):
        jm1 = j - 1
        jp1 = j + 1
        if jm1 > 0:
            dv7cpy(jm1, r, ro + k1, r, ro + j1 + 1)
        j1 = j1 + jp1
        k1 = k1 + j
        a = r[ro + j1]
        b = r[ro + j1 + 1]
        if b == 0.0:
            r[ro + k1] = a
            x = 0.0
            z = 0.0
        else:
            r[ro + k1], x, y, z = dh2rfg(a, b)
            if j != pm1:
                i1 = j1
                for i in range(jp1, pm1 + 1):
                    i1 = i1 + i
                    dh2rfa(1, r, ro + i1 - 1, r, ro + i1, x, y, z)
            if havqtr:
                dh2rfa(1, qtr, qo + j - 1, qtr, qo + jp1 - 1, x, y, z)
        t = x * wj
        w[wo + j] = wj + t
        wj = t * z
    w[wo + p] = wj
    dv7cpy(p, r, ro + k1, w, wo)


def dl7upd(beta: list, bo: int, gamma: list, go: int, l: list, lo: int, lam: list, lmo: int,
           lplus: list, lpo: int, n: int, w: list, wo: int, z: list, zo: int) -> None:
    """Secant update of the Cholesky factor: ``LPLUS = L * (I + Z*W**T)`` (``DL7UPD``)."""
    nu = 1.0
    eta = 0.0
    if n > 1:
        nm1 = n - 1
        s = 0.0
        for i in range(1, nm1 + 1):
            j = n - i
            t = w[wo + j + 1]
            s = s + t * t
            lam[lmo + j] = s
        for j in range(1, nm1 + 1):
            wj = w[wo + j]
            a = nu * z[zo + j] - eta * wj
            theta = 1.0 + a * wj
            s = a * lam[lmo + j]
            lj = _sqrt(theta * theta + a * s)
            if theta > 0.0:
                lj = -lj
            lam[lmo + j] = lj
            b = theta * wj + s
            gamma[go + j] = b * nu / lj
            beta[bo + j] = (a - b * eta) / lj
            nu = -nu / lj
            eta = -(eta + (a * a) / (theta - lj)) / lj
    lam[lmo + n] = 1.0 + (nu * z[zo + n] - eta * w[wo + n]) * w[wo + n]
    np1 = n + 1
    jj = n * (n + 1) // 2
    for k in range(1, n + 1):
        j = np1 - k
        lj = lam[lmo + j]
        ljj = l[lo + jj]
        lplus[lpo + jj] = lj * ljj
        wj = w[wo + j]
        w[wo + j] = ljj * wj
        zj = z[zo + j]
        z[zo + j] = ljj * zj
        if k != 1:
            bj = beta[bo + j]
            gj = gamma[go + j]
            ij = jj + j
            jp1 = j + 1
            for i in range(jp1, n + 1):
                lij = l[lo + ij]
                lplus[lpo + ij] = lj * lij + bj * w[wo + i] + gj * z[zo + i]
                w[wo + i] = w[wo + i] + lij * wj
                z[zo + i] = z[zo + i] + lij * zj
                ij = ij + i
        jj = jj - j


def dw7zbf(l: list, lo: int, n: int, s: list, so: int, w: list, wo: int, y: list, yo: int,
           z: list, zo: int) -> None:
    """W and Z for the damped BFGS update of the Cholesky factor (``DW7ZBF``)."""
    eps = 0.1
    dl7tvm(n, w, wo, l, lo, s, so)
    shs = dd7tpr(n, w, wo, w, wo)
    ys = dd7tpr(n, y, yo, s, so)
    if ys >= eps * shs:
        cy = 1.0 / (_sqrt(ys) * _sqrt(shs))
        cs = 1.0 / shs
    else:
        theta = (1.0 - eps) * shs / (shs - ys)
        epsrt = _sqrt(eps)
        cy = theta / (shs * epsrt)
        cs = (1.0 + (theta - 1.0) / epsrt) / shs
    dl7ivm(n, z, zo, l, lo, y, yo)
    for i in range(1, n + 1):
        z[zo + i] = cy * z[zo + i] - cs * w[wo + i]


# v[] subscripts shared by the step routines
_DGNORM, _DSTNRM, _DST0, _GTSTEP, _STPPAR, _NREDUC, _PREDUC, _RADIUS = 1, 2, 3, 4, 5, 6, 7, 8
_BIAS, _GTHG, _GRDFAC, _NWTFAC = 43, 44, 45, 46


def dd7dog(dig: list, dgo: int, lv: int, n: int, nwtstp: list, nwo: int, step: list, sto: int,
           v: list) -> None:
    """Double-dogleg step (``DD7DOG``)."""
    nwtnrm = v[_DST0]
    rlambd = 1.0
    if nwtnrm > 0.0:
        rlambd = v[_RADIUS] / nwtnrm
    gnorm = v[_DGNORM]
    ghinvg = 2.0 * v[_NREDUC]
    v[_GRDFAC] = 0.0
    v[_NWTFAC] = 0.0
    if not rlambd < 1.0:
        # the Newton step is inside the trust region
        v[_STPPAR] = 0.0
        v[_DSTNRM] = nwtnrm
        v[_GTSTEP] = -ghinvg
        v[_PREDUC] = v[_NREDUC]
        v[_NWTFAC] = -1.0
        for i in range(1, n + 1):
            step[sto + i] = -nwtstp[nwo + i]
        return
    v[_DSTNRM] = v[_RADIUS]
    t = gnorm / v[_GTHG]
    cfact = t * t
    cnorm = gnorm * cfact
    relax = 1.0 - v[_BIAS] * (1.0 - gnorm * cnorm / ghinvg)
    if not rlambd < relax:
        # a step in the Newton direction
        v[_STPPAR] = 1.0 - (rlambd - relax) / (1.0 - relax)
        t = -rlambd
        v[_GTSTEP] = t * ghinvg
        v[_PREDUC] = rlambd * (1.0 - 0.5 * rlambd) * ghinvg
        v[_NWTFAC] = t
        for i in range(1, n + 1):
            step[sto + i] = t * nwtstp[nwo + i]
        return
    if not cnorm < v[_RADIUS]:
        # the Cauchy step is outside the trust region: a scaled Cauchy step
        t = -v[_RADIUS] / gnorm
        v[_GRDFAC] = t
        v[_STPPAR] = 1.0 + cnorm / v[_RADIUS]
        v[_GTSTEP] = -v[_RADIUS] * gnorm
        u = v[_GTHG] / gnorm
        v[_PREDUC] = v[_RADIUS] * (gnorm - 0.5 * v[_RADIUS] * (u * u))
        for i in range(1, n + 1):
            step[sto + i] = t * dig[dgo + i]
        return
    # between the Cauchy point and the relaxed Newton step
    ctrnwt = cfact * relax * ghinvg / gnorm
    t1 = ctrnwt - gnorm * (cfact * cfact)
    t2 = v[_RADIUS] * (v[_RADIUS] / gnorm) - gnorm * (cfact * cfact)
    t = relax * nwtnrm
    femnsq = (t / gnorm) * t - ctrnwt - t1
    t = t2 / (t1 + _sqrt(t1 * t1 + femnsq * t2))
    t1 = (t - 1.0) * cfact
    v[_GRDFAC] = t1
    t2 = -t * relax
    v[_NWTFAC] = t2
    v[_STPPAR] = 2.0 - t
    v[_GTSTEP] = t1 * (gnorm * gnorm) + t2 * ghinvg
    u = v[_GTHG] * t1
    v[_PREDUC] = -t1 * gnorm * ((t2 + 1.0) * gnorm) - t2 * (1.0 + 0.5 * t2) * ghinvg - 0.5 * (u * u)
    for i in range(1, n + 1):
        step[sto + i] = t1 * dig[dgo + i] + t2 * nwtstp[nwo + i]


_MEPS2 = 2.0 * dr7mdc(3)


def dd7dgb(b: list, d: list, dig: list, dgo: int, dst: list, dso: int, g: list, go: int, ipiv: list, ipo: int,
           ka: int, l: list, lo: int, lv: int, p: int, pc: int, nwtst: list, nwo: int, step: list, sto: int,
           td: list, tdo: int, tg: list, tgo: int, v: list, w: list, wo: int, x0: list, x0o: int) -> int:
    """Simply bounded double-dogleg step (``DD7DGB``); returns the new ``KA``."""
    meps2 = _MEPS2
    gnorm0 = v[_DGNORM]
    v[_DSTNRM] = 0.0
    dnwtst = 0.0  # set below before any use (the Fortran leaves it undefined when KA < 0)
    nred = 0.0
    gnorm = 0.0
    ghinvg = 0.0
    if ka >= 0:
        dnwtst = v[_DST0]
        nred = v[_NREDUC]
    pred = 0.0
    v[_STPPAR] = 0.0
    rad = v[_RADIUS]
    if pc <= 0:
        dnwtst = 0.0
        dv7scp(p, step, sto, 0.0)
        label = 140
    else:
        p1 = pc
        dv7cpy(p, td, tdo, d, 0)
        dv7ipr(p, ipiv, ipo, td, tdo)
        dv7scp(pc, dst, dso, 0.0)
        dv7cpy(p, tg, tgo, g, go)
        dv7ipr(p, ipiv, ipo, tg, tgo)
        label = 30
    while label == 30:
        dl7ivm(p1, nwtst, nwo, l, lo, tg, tgo)
        ghinvg = dd7tpr(p1, nwtst, nwo, nwtst, nwo)
        v[_NREDUC] = 0.5 * ghinvg
        dl7itv(p1, nwtst, nwo, l, lo, nwtst, nwo)
        dv7vmp(p1, step, sto, nwtst, nwo, td, tdo, 1)
        v[_DST0] = dv2nrm(pc, step, sto)
        if ka < 0:
            ka = 0
            dnwtst = v[_DST0]
            nred = v[_NREDUC]
        v[_RADIUS] = rad - v[_DSTNRM]
        if v[_RADIUS] <= 0.0:
            label = 100
            break
        dv7vmp(p1, dig, dgo, tg, tgo, td, tdo, -1)
        gnorm = dv2nrm(p1, dig, dgo)
        if gnorm <= 0.0:
            label = 100
            break
        v[_DGNORM] = gnorm
        dv7vmp(p1, dig, dgo, dig, dgo, td, tdo, -1)
        dl7tvm(p1, w, wo, l, lo, dig, dgo)
        v[_GTHG] = dv2nrm(p1, w, wo)
        ka = ka + 1
        dd7dog(dig, dgo, lv, p1, nwtst, nwo, step, sto, v)
        # find T such that x - t*step is still feasible
        t = 1.0
        k = 0
        for i in range(1, p1 + 1):
            j = ipiv[ipo + i]
            x0i = x0[x0o + j] + dst[dso + i] / td[tdo + i]
            xi = x0i + step[sto + i]
            if xi < b[2 * j - 1]:
                ti = (b[2 * j - 1] - x0i) / step[sto + i]
                j = -i
            elif xi <= b[2 * j]:
                continue
            else:
                ti = (b[2 * j] - x0i) / step[sto + i]
                j = i
            if t <= ti:
                continue
            k = j
            t = ti
        # update DST, TG and PRED
        dv7vmp(p1, step, sto, step, sto, td, tdo, 1)
        dv2axy(p1, dst, dso, t, step, sto, dst, dso)
        v[_DSTNRM] = dv2nrm(pc, dst, dso)
        t1 = t * v[_GRDFAC]
        t2 = t * v[_NWTFAC]
        u = v[_GTHG] * t1
        pred = pred - t1 * gnorm * ((t2 + 1.0) * gnorm) - t2 * (1.0 + 0.5 * t2) * ghinvg - 0.5 * (u * u)
        if k == 0:
            label = 100
            break
        dl7vml(p1, w, wo, l, lo, w, wo)
        t2 = 1.0 - t2
        for i in range(1, p1 + 1):
            tg[tgo + i] = t2 * tg[tgo + i] - t1 * w[wo + i]
        # permute L, etc. if necessary
        p1m1 = p1 - 1
        j = abs(k)
        if j != p1:
            dq7rsh(j, p1, False, tg, tgo, l, lo, w, wo)
            i7shft(p1, j, ipiv, ipo)
            dv7shf(p1, j, tg, tgo)
            dv7shf(p1, j, td, tdo)
            dv7shf(p1, j, dst, dso)
        if k < 0:
            ipiv[ipo + p1] = -ipiv[ipo + p1]
        p1 = p1m1
        if p1 <= 0:
            label = 100
            break
    if label == 100:
        # unscale step, update x and DIHDI
        dv7scp(p, step, sto, 0.0)
        for i in range(1, pc + 1):
            j = abs(ipiv[ipo + i])
            step[sto + j] = dst[dso + i] / td[tdo + i]
        # fudge step to ensure that it forces appropriate components to their bounds
        if p1 < pc:
            dv2axy(p, td, tdo, 1.0, step, sto, x0, x0o)
            k = p1 + 1
            for i in range(k, pc + 1):
                j = ipiv[ipo + i]
                t = meps2
                if j <= 0:
                    t = -t
                    j = -j
                    ipiv[ipo + i] = j
                t = t * _dmax1(abs(td[tdo + j]), abs(x0[x0o + j]))
                step[sto + j] = step[sto + j] + t
    v[_DGNORM] = gnorm0
    v[_NREDUC] = nred
    v[_PREDUC] = pred
    v[_RADIUS] = rad
    v[_DST0] = dnwtst
    v[_GTSTEP] = dd7tpr(p, step, sto, g, go)
    return ka


def da7sst(iv: list, liv: int, lv: int, v: list) -> None:
    """Assess a candidate step, decide on convergence and the next trust radius (``DA7SST``)."""
    IRC, MLSTGD, MODEL, NFCALL, NFGCAL, RADINC, RESTOR, STAGE, STGLIM, SWITCH, TOOBIG, XIRC = (
        29, 32, 5, 6, 7, 8, 9, 10, 11, 12, 2, 13)
    AFCTOL, DECFAC, DSTNRM, DSTSAV, DST0, F, FDIF, FLSTGD, F0, GTSLST, GTSTEP, INCFAC = (
        31, 22, 2, 18, 3, 10, 11, 12, 13, 14, 4, 23)
    LMAXS, NREDUC, PLSTGD, PREDUC, RADFAC, RDFCMN, RDFCMX, RELDX, RFCTOL, SCTOL, STPPAR = (
        36, 6, 15, 7, 16, 24, 25, 17, 32, 37, 5)
    TUNER1, TUNER2, TUNER3, XCTOL, XFTOL = 26, 27, 28, 33, 34
    HALF, ONE, ONEP2, TWO, ZERO = 0.5, 1.0, 1.2, 2.0, 0.0

    nfc = iv[NFCALL]
    iv[SWITCH] = 0
    iv[RESTOR] = 0
    rfac1 = ONE
    goodx = True
    emaxs = 0.0
    i = iv[IRC]
    if 1 <= i <= 12:
        label = {1: 20, 2: 30, 3: 10, 4: 10, 5: 40, 6: 280, 7: 220, 8: 220, 9: 220, 10: 220, 11: 220,
                 12: 170}[i]
    else:
        iv[IRC] = 13
        return
    while True:
        if label == 10:
            # initialise for new iteration
            iv[STAGE] = 1
            iv[RADINC] = 0
            v[FLSTGD] = v[F0]
            if iv[TOOBIG] == 0:
                label = 110
                continue
            iv[STAGE] = -1
            iv[XIRC] = i
            label = 60
            continue
        if label == 20:
            # step was recomputed with new model or smaller radius; first decide which
            if iv[MODEL] != iv[MLSTGD]:
                label = 30
                continue
            # old model retained, smaller radius tried; do not consider any more new models
            iv[STAGE] = iv[STGLIM]
            iv[RADINC] = -1
            label = 110
            continue
        if label == 30:
            # a new model is being tried; decide whether to keep it
            iv[STAGE] = iv[STAGE] + 1
            label = 40
        if label == 40:
            # now we add the possibility that step was recomputed with the same model,
            # perhaps because of an oversized step
            if iv[STAGE] > 0:
                label = 50
                continue
            # step was recomputed because it was too big
            if iv[TOOBIG] != 0:
                label = 60
                continue
            # restore iv[STAGE] and pick up where we left off
            iv[STAGE] = -iv[STAGE]
            i = iv[XIRC]
            nxt = {1: 20, 2: 30, 3: 110, 4: 110, 5: 70}.get(i)
            label = nxt if nxt is not None else 50
            continue
        if label == 50:
            if iv[TOOBIG] == 0:
                label = 70
                continue
            # handle oversize step
            iv[TOOBIG] = 0
            if iv[RADINC] > 0:
                label = 80
                continue
            iv[STAGE] = -iv[STAGE]
            iv[XIRC] = iv[IRC]
            label = 60
        if label == 60:
            iv[TOOBIG] = 0
            v[RADFAC] = v[DECFAC]
            iv[RADINC] = iv[RADINC] - 1
            iv[IRC] = 5
            iv[RESTOR] = 1
            v[F] = v[FLSTGD]
            return
        if label == 70:
            if v[F] < v[FLSTGD]:
                label = 110
                continue
            # the new step is a loser; restore the old model
            if iv[MODEL] != iv[MLSTGD]:
                iv[MODEL] = iv[MLSTGD]
                iv[SWITCH] = 1
            label = 80
        if label == 80:
            # restore step, etc. only if a previous step decreased the objective function
            if v[FLSTGD] >= v[F0]:
                label = 110
                continue
            if iv[STAGE] < iv[STGLIM]:
                goodx = False
            elif nfc < iv[NFGCAL] + iv[STGLIM] + 2:
                goodx = False
            elif iv[SWITCH] != 0:
                goodx = False
            iv[RESTOR] = 3
            v[F] = v[FLSTGD]
            v[PREDUC] = v[PLSTGD]
            v[GTSTEP] = v[GTSLST]
            if iv[SWITCH] == 0:
                rfac1 = v[DSTNRM] / v[DSTSAV]
            v[DSTNRM] = v[DSTSAV]
            if goodx:
                # accept previous slightly reducing step
                v[FDIF] = v[F0] - v[F]
                iv[IRC] = 4
                v[RADFAC] = rfac1
                return
            nfc = iv[NFGCAL]
            label = 110
        if label == 110:
            # compute relative change in x by current step
            v[FDIF] = v[F0] - v[F]
            if v[FDIF] > v[TUNER2] * v[PREDUC]:
                label = 140
                continue
            if iv[RADINC] > 0:
                label = 140
                continue
            # no (or only a trivial) function decrease, so try new model or smaller radius
            if v[F] < v[F0]:
                iv[NFGCAL] = nfc
            else:
                iv[MLSTGD] = iv[MODEL]
                v[FLSTGD] = v[F]
                v[F] = v[F0]
                iv[RESTOR] = 1
            iv[IRC] = 1
            if iv[STAGE] >= iv[STGLIM]:
                iv[IRC] = 5
                iv[RADINC] = iv[RADINC] - 1
            label = 160
            continue
        if label == 140:
            # nontrivial function decrease achieved
            iv[NFGCAL] = nfc
            rfac1 = ONE
            v[DSTSAV] = v[DSTNRM]
            if v[FDIF] > v[PREDUC] * v[TUNER1]:
                label = 190
                continue
            # decrease was much less than predicted: either change models or accept step
            # with decreased radius
            if iv[STAGE] < iv[STGLIM]:
                iv[IRC] = 2
            else:
                iv[IRC] = 4
            label = 160
        if label == 160:
            # set v[RADFAC] to Fletcher's decrease factor
            iv[XIRC] = iv[IRC]
            emax = v[GTSTEP] + v[FDIF]
            v[RADFAC] = HALF * rfac1
            if emax < v[GTSTEP]:
                v[RADFAC] = rfac1 * _dmax1(v[RDFCMN], HALF * v[GTSTEP] / emax)
            label = 170
        if label == 170:
            # do false convergence test
            if v[RELDX] <= v[XFTOL]:
                iv[IRC] = 12
                label = 240
                continue
            iv[IRC] = iv[XIRC]
            if v[F] < v[F0]:
                label = 200
                continue
            label = 230
            continue
        if label == 190:
            # handle good function decrease
            if v[FDIF] < (-v[TUNER3] * v[GTSTEP]):
                label = 210
                continue
            # increasing radius looks worthwhile; see if we just recomputed step with a
            # decreased radius or restored step after recomputing it with a larger radius
            if iv[RADINC] < 0 or iv[RESTOR] == 1 or iv[RESTOR] == 3:
                label = 210
                continue
            # we did not; try a longer step unless this was a Newton step
            v[RADFAC] = v[RDFCMX]
            gts = v[GTSTEP]
            if v[FDIF] < (HALF / v[RADFAC] - ONE) * gts:
                v[RADFAC] = _dmax1(v[INCFAC], HALF * gts / (gts + v[FDIF]))
            iv[IRC] = 4
            if v[STPPAR] == ZERO:
                label = 230
                continue
            if v[DST0] >= ZERO and (v[DST0] < TWO * v[DSTNRM] or v[NREDUC] < ONEP2 * v[FDIF]):
                label = 230
                continue
            # step was not a Newton step; recompute it with a larger radius
            iv[IRC] = 5
            iv[RADINC] = iv[RADINC] + 1
            label = 200
        if label == 200:
            # save values corresponding to good step
            v[FLSTGD] = v[F]
            iv[MLSTGD] = iv[MODEL]
            if iv[RESTOR] == 0:
                iv[RESTOR] = 2
            v[DSTSAV] = v[DSTNRM]
            iv[NFGCAL] = nfc
            v[PLSTGD] = v[PREDUC]
            v[GTSLST] = v[GTSTEP]
            label = 230
            continue
        if label == 210:
            # accept step with radius unchanged
            v[RADFAC] = ONE
            iv[IRC] = 3
            label = 230
            continue
        if label == 220:
            # come here for a restart after convergence
            iv[IRC] = iv[XIRC]
            if v[DSTSAV] >= ZERO:
                label = 240
                continue
            iv[IRC] = 12
            label = 240
            continue
        if label == 230:
            # perform convergence tests
            iv[XIRC] = iv[IRC]
            label = 240
        if label == 240:
            if iv[RESTOR] == 1 and v[FLSTGD] < v[F0]:
                iv[RESTOR] = 3
            if abs(v[F]) < v[AFCTOL]:
                iv[IRC] = 10
            if HALF * v[FDIF] > v[PREDUC]:
                return
            emax = v[RFCTOL] * abs(v[F0])
            emaxs = v[SCTOL] * abs(v[F0])
            if v[PREDUC] <= emaxs and (v[DSTNRM] > v[LMAXS] or v[STPPAR] == ZERO):
                iv[IRC] = 11
            if not v[DST0] < ZERO:
                i = 0
                if (v[NREDUC] > ZERO and v[NREDUC] <= emax) or (v[NREDUC] == ZERO and v[PREDUC] == ZERO):
                    i = 2
                if v[STPPAR] == ZERO and v[RELDX] <= v[XCTOL] and goodx:
                    i = i + 1
                if i > 0:
                    iv[IRC] = i + 6
            # consider recomputing step of length v[LMAXS] for singular convergence test
            if iv[IRC] > 5 and iv[IRC] != 12:
                return
            if v[STPPAR] == ZERO:
                return
            if v[DSTNRM] > v[LMAXS]:
                if HALF * v[DSTNRM] <= v[LMAXS]:
                    return
                xmax = v[LMAXS] / v[DSTNRM]
                if xmax * (TWO - xmax) * v[PREDUC] >= emaxs:
                    return
            else:
                if v[PREDUC] >= emaxs:
                    return
                if v[DST0] > ZERO and HALF * v[DST0] <= v[LMAXS]:
                    return
            label = 270
        if label == 270:
            if v[NREDUC] < ZERO:
                label = 290
                continue
            # recompute v[PREDUC] for use in singular convergence test
            v[GTSLST] = v[GTSTEP]
            v[DSTSAV] = v[DSTNRM]
            if iv[IRC] == 12:
                v[DSTSAV] = -v[DSTSAV]
            v[PLSTGD] = v[PREDUC]
            i = iv[RESTOR]
            iv[RESTOR] = 2
            if i == 3:
                iv[RESTOR] = 0
            iv[IRC] = 6
            return
        if label == 280:
            # perform singular convergence test with recomputed v[PREDUC]
            v[GTSTEP] = v[GTSLST]
            v[DSTNRM] = abs(v[DSTSAV])
            iv[IRC] = iv[XIRC]
            if v[DSTSAV] <= ZERO:
                iv[IRC] = 12
            v[NREDUC] = -v[PREDUC]
            v[PREDUC] = v[PLSTGD]
            iv[RESTOR] = 3
            label = 290
        if label == 290:
            if -v[NREDUC] <= v[SCTOL] * abs(v[F0]):
                iv[IRC] = 11
            return


_THIRD = 1.0 / 3.0
_TWO_THIRDS = 2.0 / 3.0


def _step_size(afx: float, machep: float, h0: float, axi: float, axibar: float, gi: float, eta0: float,
               alphai: float, fx: float) -> tuple[float, int]:
    """Shared part of ``DS3GRD``/``DS7GRD`` (their labels 30-50 and 120-140, identical code).

    Returns ``(h, route)``: route 0 = forward difference with this ``h`` (label 120 done, sign
    included), 1 = central difference with this ``h`` (the code after label 50), 2 = ``h`` from
    ``alpha == 0`` (label 130), 3 = ``h`` from ``g == 0`` or ``fx == 0`` (label 140).
    """
    hmin = 50.0 * machep
    agi = abs(gi)
    eta = abs(eta0)
    if afx > 0.0:
        eta = _dmax1(eta, agi * axi * machep / afx)
    if alphai == 0.0:
        return axibar, 2
    if gi == 0.0 or fx == 0.0:
        return h0 * axibar, 3
    afxeta = afx * eta
    aai = abs(alphai)
    # compute forward difference first, then decide whether to use central differences
    if not gi * gi <= afxeta * aai:
        h = 2.0 * _sqrt(afxeta / aai)
        h = h * (1.0 - aai * h / (3.0 * aai * h + 4.0 * agi))
    else:
        h = 2.0 * _pow(afxeta * agi, _THIRD) * _pow(aai, -_TWO_THIRDS)
        h = h * (1.0 - 2.0 * agi / (3.0 * aai * h + 4.0 * agi))
    h = _dmax1(h, hmin * axibar)
    if aai * h <= 0.002 * agi:
        # use forward difference
        if h >= 0.02 * axibar:
            h = h0 * axibar
        if alphai * gi < 0.0:
            h = -h
        return h, 0
    # compute central difference
    discon = 2000.0 * afxeta
    h = discon / (agi + _sqrt(gi * gi + aai * discon))
    h = _dmax1(h, hmin * axibar)
    if h >= 0.02 * axibar:
        h = axibar * _pow(h0, _TWO_THIRDS)
    return h, 1


def ds3grd(alpha: list, ao: int, b: list, d: list, eta0: float, fx: float, g: list, go: int, irc: int, p: int,
           w: list, wo: int, x: list) -> tuple[int, float]:
    """Finite-difference gradient with bounds, Stewart's scheme (``DS3GRD``); returns (IRC, FX)."""
    FH, FX0, HSAVE, XISAVE = 3, 4, 5, 6
    if irc < 0:
        label = 80
    elif irc > 0:
        label = 210
    else:
        w[wo + 1] = dr7mdc(3)
        w[wo + 2] = _sqrt(w[wo + 1])
        w[wo + FX0] = fx
        label = 20
    h = xih = xi = 0.0
    i = 0
    while True:
        if label == 20:
            i = abs(irc) + 1
            if i > p:
                irc = 0
                return irc, w[wo + FX0]
            irc = i
            if not b[2 * i - 1] < b[2 * i]:
                g[go + i] = 0.0
                continue
            afx = abs(w[wo + FX0])
            machep = w[wo + 1]
            h0 = w[wo + 2]
            xi = x[i]
            w[wo + XISAVE] = xi
            axi = abs(xi)
            axibar = _dmax1(axi, 1.0 / d[i])
            h, route = _step_size(afx, machep, h0, axi, axibar, g[go + i], eta0, alpha[ao + i], fx)
            if route == 1:
                xih = xi + h
                if xi - h < b[2 * i - 1]:
                    if xi + 2.0 * h > b[2 * i]:
                        label = 190
                        continue
                    irc = -(i + p)
                    label = 200
                    continue
                irc = -i
                if xih <= b[2 * i]:
                    label = 200
                    continue
                h = -h
                xih = xi + h
                if xi + 2.0 * h < b[2 * i - 1]:
                    label = 190
                    continue
                irc = -(i + p)
                label = 200
                continue
            # labels 150-180: a one-sided step inside the bounds, trying the other side once
            hit = False
            while True:
                xih = xi + h
                if h > 0.0:
                    inside = xih <= b[2 * i]
                else:
                    inside = xih >= b[2 * i - 1]
                if inside:
                    label = 200
                    break
                if hit:
                    label = 190
                    break
                hit = True
                h = -h
            continue
        if label == 80:
            i = -irc
            if i <= p:
                # label 100
                h = -w[wo + HSAVE]
                if h > 0.0:
                    g[go + i] = (w[wo + FH] - fx) / (2.0 * h)
                    x[i] = w[wo + XISAVE]
                    label = 20
                    continue
                w[wo + FH] = fx
                xih = w[wo + XISAVE] + h
                label = 200
                continue
            i = i - p
            if i <= p:
                w[wo + FH] = fx
                h = 2.0 * w[wo + HSAVE]
                xih = w[wo + XISAVE] + h
                irc = irc - p
                label = 200
                continue
            i = i - p
            g[go + i] = (4.0 * w[wo + FH] - fx - 3.0 * w[wo + FX0]) / w[wo + HSAVE]
            irc = i
            x[i] = w[wo + XISAVE]
            label = 20
            continue
        if label == 190:
            irc = i + p
            return irc, w[wo + FX0]
        if label == 200:
            x[i] = xih
            w[wo + HSAVE] = h
            return irc, fx
        if label == 210:
            g[go + irc] = (fx - w[wo + FX0]) / w[wo + HSAVE]
            x[irc] = w[wo + XISAVE]
            label = 20
            continue


def ds7grd(alpha: list, ao: int, d: list, eta0: float, fx: float, g: list, go: int, irc: int, n: int,
           w: list, wo: int, x: list) -> tuple[int, float]:
    """Finite-difference gradient without bounds, Stewart's scheme (``DS7GRD``); returns (IRC, FX)."""
    FH, FX0, HSAVE, XISAVE = 3, 4, 5, 6
    if irc < 0:
        label = 140
    elif irc > 0:
        label = 210
    else:
        w[wo + 1] = dr7mdc(3)
        w[wo + 2] = _sqrt(w[wo + 1])
        w[wo + FX0] = fx
        label = 110
    h = 0.0
    i = 0
    while True:
        if label == 110:
            i = abs(irc) + 1
            if i > n:
                return 0, w[wo + FX0]
            irc = i
            afx = abs(w[wo + FX0])
            machep = w[wo + 1]
            h0 = w[wo + 2]
            w[wo + XISAVE] = x[i]
            axi = abs(x[i])
            axibar = _dmax1(axi, 1.0 / d[i])
            h, route = _step_size(afx, machep, h0, axi, axibar, g[go + i], eta0, alpha[ao + i], fx)
            if route == 1:
                irc = -i
        elif label == 140:
            h = -w[wo + HSAVE]
            i = abs(irc)
            if h > 0.0:
                g[go + i] = (w[wo + FH] - fx) / (2.0 * h)
                x[i] = w[wo + XISAVE]
                label = 110
                continue
            w[wo + FH] = fx
        else:  # label 210
            g[go + irc] = (fx - w[wo + FX0]) / w[wo + HSAVE]
            x[irc] = w[wo + XISAVE]
            label = 110
            continue
        # label 200
        x[i] = w[wo + XISAVE] + h
        w[wo + HSAVE] = h
        return irc, fx


# ---------------------------------------------------------------------------------------
# Defaults and checks: DV7DFL, R's Rf_divset (port.c) and DPARCK

def dv7dfl(alg: int, lv: int, v: list, vo: int) -> None:
    """Default values of ``v`` (``DV7DFL``)."""
    machep = dr7mdc(3)
    v[vo + 31] = machep * machep if machep > 1e-10 else 1e-20
    v[vo + 22] = 0.5
    sqteps = dr7mdc(4)
    v[vo + 41] = 0.6
    v[vo + 39] = 1e-6
    mepcrt = _pow(machep, _THIRD)
    v[vo + 40] = 1.0
    v[vo + 19] = 0.1
    v[vo + 23] = 2.0
    v[vo + 35] = 1.0
    v[vo + 36] = 1.0
    v[vo + 20] = -0.1
    v[vo + 21] = 0.1
    v[vo + 24] = 0.1
    v[vo + 25] = 4.0
    v[vo + 32] = _dmax1(1e-10, mepcrt * mepcrt)
    v[vo + 37] = v[vo + 32]
    v[vo + 26] = 0.1
    v[vo + 27] = 1e-4
    v[vo + 28] = 0.75
    v[vo + 29] = 0.5
    v[vo + 30] = 0.75
    v[vo + 33] = sqteps
    v[vo + 34] = 100.0 * machep
    if alg == 1:
        v[vo + 47] = _dmax1(1e-6, 100.0 * machep)
        v[vo + 38] = 0.0
        v[vo + 44] = sqteps
        v[vo + 42] = mepcrt
        v[vo + 43] = sqteps
        v[vo + 45] = 1.5
        v[vo + 46] = dr7mdc(5)
        v[vo + 49] = 1e-3
        v[vo + 50] = 1e-4
    else:
        v[vo + 43] = 0.8
        v[vo + 38] = -1.0
        v[vo + 42] = 1000.0 * machep


def divset(alg: int, iv: list, liv: int, lv: int, v: list) -> None:
    """R's ``Rf_divset`` (``port.c``) for ``alg = 2`` (general optimisation, as ``nlminb`` calls it)."""
    miniv = (0, 82, 59, 103, 103)
    minv = (0, 98, 71, 101, 85)
    if 21 <= liv:
        iv[21] = 0
    if 51 <= liv:
        iv[51] = alg
    miv = miniv[alg]
    if liv < miv:
        iv[1] = 15
        return
    mv = minv[alg]
    if lv < mv:
        iv[1] = 16
        return
    alg1 = (alg - 1) % 2 + 1
    dv7dfl(alg1, lv, v, 0)
    iv[1] = 12
    iv[3] = 0        # IVNEED
    iv[44] = miv     # LASTIV
    iv[45] = mv      # LASTV
    iv[42] = mv + 1  # LMAT
    iv[17] = 200     # MXFCAL
    iv[18] = 150     # MXITER
    iv[19] = 0       # OUTLEV
    iv[20] = 1       # PARPRT
    iv[58] = miv + 1  # PERM
    iv[22] = 0       # SOLPRT
    iv[23] = 0       # STATPR
    iv[4] = 0        # VNEED
    iv[24] = 1       # X0PRT
    if alg1 >= 2:
        iv[16] = 0   # DTYPE
        iv[25] = 1   # INITS
        iv[52] = 0   # NFCOV
        iv[53] = 0   # NGCOV
        iv[50] = 25  # NVDFLT
        iv[49] = 61 if alg > 2 else 47  # PARSAV
        v[31] = 0.0  # AFCTOL: since R 2.12.0, skip the |f(x)| test
    else:  # pragma: no cover - regression constants (nls), not used by nlminb
        raise NotImplementedError("Rf_divset: only alg = 2 (nlminb) is ported")


def _range_limits() -> tuple[list, list]:
    machep, tiny, big = dr7mdc(3), dr7mdc(1), dr7mdc(6)
    vm = [None, 1e-3, -0.99, 1e-3, 1e-2, 1.2, 1e-2, 1.2, 0.0, 0.0, 1e-3, -1.0, machep, 0.0, machep, 0.0, 0.0,
          tiny, tiny, 0.0, -10.0, 0.0, 0.0, 0.0, machep, machep, machep, 1.01, 1e10, machep, 0.0, 0.0, 0.0,
          machep, 0.0]
    vx = [None, 0.9, -1e-3, 10.0, 0.8, 100.0, 0.8, 100.0, 0.5, 0.5, 1.0, 1.0, big, big, 0.1, 1.0, 1.0, big, big,
          1.0, big, big, big, 1.0, 1.0, 1.0, 1.0, 1e10, dr7mdc(5), 1.0, big, 1.0, 1.0, 1.0, 1.0]
    return vm, vx


_VM, _VX = _range_limits()


def dparck(alg: int, d: list, iv: list, liv: int, lv: int, n: int, v: list) -> None:
    """Check ``iv`` and ``v`` (``DPARCK``, with R's printing suppressed: ``iv[PRUNIT] = 0``)."""
    ALGSAV, DINIT, DTYPE, DTYPE0, EPSLON, IVNEED, LASTIV, LASTV, LMAT = 51, 38, 16, 54, 19, 3, 44, 45, 42
    NEXTIV, NEXTV, NVDFLT, OLDN, PARSAV, PERM, PRUNIT, VNEED = 46, 47, 50, 38, 49, 58, 21, 4
    jlim = (None, 0, 24, 0, 24)
    ndflt = (None, 32, 25, 32, 25)
    miniv = (None, 82, 59, 103, 103)
    ijmp = 33
    pu = iv[PRUNIT] if PRUNIT <= liv else 0
    if ALGSAV <= liv and alg != iv[ALGSAV]:
        iv[1] = 67
        return
    if alg < 1 or alg > 4:
        iv[1] = 67
        return
    miv1 = miniv[alg]
    if iv[1] == 15:
        if LASTIV <= liv:
            iv[LASTIV] = miv1
        if LASTV <= liv:
            iv[LASTV] = 0
        return
    alg1 = (alg - 1) % 2 + 1
    if iv[1] == 0:
        divset(alg, iv, liv, lv, v)
    iv1 = iv[1]
    if iv1 in (12, 13):
        miv2 = 0
        if PERM <= liv:
            miv1 = max(miv1, iv[PERM] - 1)
        if IVNEED <= liv:
            miv2 = miv1 + max(iv[IVNEED], 0)
        if LASTIV <= liv:
            iv[LASTIV] = miv2
        if liv < miv1:
            iv[1] = 15
            return
        iv[IVNEED] = 0
        iv[LASTV] = max(iv[VNEED], 0) + iv[LMAT] - 1
        iv[VNEED] = 0
        if liv < miv2:
            iv[1] = 15
            return
        if lv < iv[LASTV]:
            iv[1] = 16
            return
    if 12 <= iv1 <= 14:
        if n < 1:
            iv[1] = 81
            return
        if iv1 != 14:
            iv[NEXTIV] = iv[PERM]
            iv[NEXTV] = iv[LMAT]
        if iv1 == 13:
            return
        k = iv[PARSAV] - EPSLON
        dv7dfl(alg1, lv - k, v, k)
        iv[DTYPE0] = 2 - alg1
        iv[OLDN] = n
    else:
        if n != iv[OLDN]:
            iv[1] = 17
            return
        if not (1 <= iv1 <= 11):
            iv[1] = 80
            return
    if iv1 == 14:
        iv1 = 12
    m = 0
    i = 1
    j = jlim[alg1]
    k = EPSLON
    for _ in range(ndflt[alg1]):
        vk = v[k]
        if not (vk >= _VM[i] and vk <= _VX[i]):
            m = k
        k = k + 1
        i = i + 1
        if i == j:
            i = ijmp
    if iv[NVDFLT] != ndflt[alg1]:
        iv[1] = 51
        return
    if not ((iv[DTYPE] > 0 or v[DINIT] > 0.0) and iv1 == 12):
        for i in range(1, n + 1):
            if not d[i] > 0.0:
                m = 18
    if m != 0:
        iv[1] = m
        return
    if pu == 0 or iv[20] == 0:
        return
    # printing of changed defaults is suppressed in R (PRUNIT = 0); the copy that follows it
    iv[DTYPE0] = iv[DTYPE]
    dv7cpy(iv[NVDFLT], v, iv[PARSAV] - 1, v, EPSLON - 1)


def _ditsum(iv: list, v: list, x: list, n: int, out: Callable[[str], None] | None) -> None:
    """R's ``ditsum`` (``port.c``): one trace line every ``iv[OUTLEV]`` iterations."""
    if not iv[19] or out is None:
        return
    if iv[31] % iv[19] == 0:
        out(f"{iv[31]:3d}:" + ("%#14.8g" % v[10]) + ":" + "".join(" %#8g" % x[i] for i in range(1, n + 1)))


# ---------------------------------------------------------------------------------------
# The reverse-communication drivers

def drmngb(b: list, d: list, fx: float, g: list, go: int, iv: list, liv: int, lv: int, n: int, v: list,
           x: list, out: Callable[[str], None] | None = None) -> None:
    """Bounded minimisation with gradients supplied by the caller (``DRMNGB``)."""
    CNVCOD, DG, INITH, IRC, IVNEED, KAGQT, MODE, MODEL, MXFCAL, MXITER, NC = (
        55, 37, 25, 29, 3, 33, 35, 5, 17, 18, 48)
    NEXTIV, NEXTV, NFCALL, NFGCAL, NGCALL, NITER, NWTSTP, PERM, RADINC, RESTOR = (
        46, 47, 6, 7, 30, 31, 34, 58, 8, 9)
    STEP, STGLIM, STLSTG, TOOBIG, XIRC, X0 = 40, 11, 41, 2, 13, 43
    DGNORM, DINIT, DSTNRM, F, F0, FDIF, GTSTEP, INCFAC, LMAT, LMAX0, LMAXS = (
        1, 38, 2, 10, 13, 11, 4, 23, 42, 35, 36)
    PREDUC, RADFAC, RADIUS, RAD0, RELDX, TUNER4, TUNER5, VNEED = 7, 16, 8, 9, 17, 29, 30, 4
    NEGONE, ONE, ONEP2, ZERO = -1.0, 1.0, 1.2, 0.0

    rstrst = 0
    i = iv[1]
    if i == 1:
        label = 70
    elif i == 2:
        label = 80
    else:
        if iv[1] == 0:
            divset(2, iv, liv, lv, v)
        if 12 <= iv[1] <= 13:
            iv[VNEED] = iv[VNEED] + n * (n + 19) // 2
            iv[IVNEED] = iv[IVNEED] + n
        dparck(2, d, iv, liv, lv, n, v)
        i = iv[1] - 2
        if i > 12:
            return
        if 1 <= i <= 6:
            label = 250
        elif i in (7, 9):
            label = 190
        elif i == 8:
            label = 150
        elif i == 12:
            label = 30
        else:
            label = 20
    while True:
        if label == 20:
            # storage allocation
            l = iv[LMAT]
            iv[X0] = l + n * (n + 1) // 2
            iv[STEP] = iv[X0] + 2 * n
            iv[STLSTG] = iv[STEP] + 2 * n
            iv[NWTSTP] = iv[STLSTG] + n
            iv[DG] = iv[NWTSTP] + 2 * n
            iv[NEXTV] = iv[DG] + 2 * n
            iv[NEXTIV] = iv[PERM] + n
            if iv[1] == 13:
                iv[1] = 14
                return
            label = 30
        if label == 30:
            # initialisation
            iv[NITER] = 0
            iv[NFCALL] = 1
            iv[NGCALL] = 1
            iv[NFGCAL] = 1
            iv[MODE] = -1
            iv[MODEL] = 1
            iv[STGLIM] = 1
            iv[TOOBIG] = 0
            iv[CNVCOD] = 0
            iv[RADINC] = 0
            iv[NC] = n
            v[RAD0] = ZERO
            ipi = iv[PERM]
            bad = False
            for i in range(1, n + 1):
                iv[ipi] = i
                ipi = ipi + 1
                if b[2 * i - 1] > b[2 * i]:
                    bad = True
                    break
            if bad:
                label = 410
                continue
            if v[DINIT] >= ZERO:
                dv7scp(n, d, 0, v[DINIT])
            if iv[INITH] == 1:
                # set the initial Hessian approximation to diag(d)**-2
                l = iv[LMAT]
                dv7scp(n * (n + 1) // 2, v, l - 1, ZERO)
                k = l - 1
                for i in range(1, n + 1):
                    k = k + i
                    t = d[i]
                    if t <= ZERO:
                        t = ONE
                    v[k] = t
            iv[1] = 1
            label = 440
            continue
        if label == 70:
            # new function value
            v[F] = fx
            if iv[MODE] >= 0:
                label = 250
                continue
            v[F0] = fx
            iv[1] = 2
            if iv[TOOBIG] == 0:
                return
            iv[1] = 63
            label = 430
            continue
        if label == 80:
            # new gradient
            if iv[TOOBIG] != 0:
                iv[1] = 65
                label = 430
                continue
            # choose initial permutation
            ipi = iv[PERM]
            ipn = ipi + n
            n1 = n
            np1 = n + 1
            l = iv[LMAT]
            w1 = iv[NWTSTP] + n
            k = n - iv[NC]
            for i in range(1, n + 1):
                ipn = ipn - 1
                j = iv[ipn]
                if not b[2 * j - 1] >= b[2 * j]:
                    xi = x[j]
                    gi = g[go + j]
                    if not (xi <= b[2 * j - 1] and gi > ZERO) and not (xi >= b[2 * j] and gi < ZERO):
                        # x(j) is free to move
                        if i <= k:
                            iv[CNVCOD] = 0
                        continue
                # x(j) is to be held at its bound
                i1 = np1 - i
                if i1 < n1:
                    i7shft(n1, i1, iv, ipi - 1)
                    dq7rsh(i1, n1, False, g, go, v, l - 1, v, w1 - 1)
                n1 = n1 - 1
            iv[NC] = n1
            v[DGNORM] = ZERO
            if n1 > 0:
                dg1 = iv[DG]
                dv7vmp(n, v, dg1 - 1, g, go, d, 0, -1)
                dv7ipr(n, iv, ipi - 1, v, dg1 - 1)
                v[DGNORM] = dv2nrm(n1, v, dg1 - 1)
            if iv[CNVCOD] != 0:
                label = 420
                continue
            if iv[MODE] == 0:
                label = 370
                continue
            # allow first step to have scaled 2-norm at most v[LMAX0]
            v[RADIUS] = v[LMAX0]
            iv[MODE] = 0
            label = 140
        if label == 140:
            # main loop: print iteration summary, check iteration limit
            _ditsum(iv, v, x, n, out)
            label = 150
        if label == 150:
            k = iv[NITER]
            if k >= iv[MXITER]:
                iv[1] = 10
                label = 430
                continue
            label = 160
        if label == 160:
            iv[NITER] = k + 1
            # update radius
            if k != 0:
                t = v[RADFAC] * v[DSTNRM]
                if v[RADFAC] < ONE or t > v[RADIUS]:
                    v[RADIUS] = t
            # initialise for start of next iteration
            x01 = iv[X0]
            v[F0] = v[F]
            iv[IRC] = 4
            iv[KAGQT] = -1
            # copy x to x0
            dv7cpy(n, v, x01 - 1, x, 0)
            label = 180
        if label == 180:
            # check STOPX (R's STOPX is always .FALSE.) and function evaluation limit
            label = 200
        if label == 190:
            if v[F] >= v[F0]:
                label = 200
            else:
                v[RADFAC] = ONE
                k = iv[NITER]
                label = 160
                continue
        if label == 200:
            if iv[NFCALL] < iv[MXFCAL]:
                label = 220
            else:
                iv[1] = 9
                label = 210
        if label == 210:
            # in case of STOPX or function evaluation limit with improved v[F], evaluate the
            # gradient at x
            if v[F] >= v[F0]:
                label = 430
                continue
            iv[CNVCOD] = iv[1]
            label = 360
            continue
        if label == 220:
            # compute candidate step
            step1 = iv[STEP]
            dg1 = iv[DG]
            nwtst1 = iv[NWTSTP]
            w1 = nwtst1 + n
            dstep1 = step1 + n
            ipi = iv[PERM]
            l = iv[LMAT]
            tg1 = dg1 + n
            x01 = iv[X0]
            td1 = x01 + n
            iv[KAGQT] = dd7dgb(b, d, v, dg1 - 1, v, dstep1 - 1, g, go, iv, ipi - 1, iv[KAGQT], v, l - 1, lv, n,
                               iv[NC], v, nwtst1 - 1, v, step1 - 1, v, td1 - 1, v, tg1 - 1, v, v, w1 - 1,
                               v, x01 - 1)
            if iv[IRC] == 6:
                if iv[RESTOR] != 2:
                    label = 250
                    continue
                rstrst = 2
                label = 260
                continue
            # check whether evaluating f(x0 + step) looks worthwhile
            iv[TOOBIG] = 0
            if v[DSTNRM] <= ZERO:
                label = 250
                continue
            if iv[IRC] == 5 and not v[RADFAC] <= ONE and not v[PREDUC] > ONEP2 * v[FDIF]:
                if iv[RESTOR] != 2:
                    label = 250
                    continue
                rstrst = 0
                label = 260
                continue
            # compute f(x0 + step)
            dv2axy(n, x, 0, ONE, v, step1 - 1, v, x01 - 1)
            iv[NFCALL] = iv[NFCALL] + 1
            iv[1] = 1
            label = 440
            continue
        if label == 250:
            # assess candidate step
            rstrst = 3
            label = 260
        if label == 260:
            x01 = iv[X0]
            v[RELDX] = drldst(n, d, 0, x, 0, v, x01 - 1)
            da7sst(iv, liv, lv, v)
            step1 = iv[STEP]
            lstgst = iv[STLSTG]
            i = iv[RESTOR] + 1
            if i == 2:
                dv7cpy(n, x, 0, v, x01 - 1)
            elif i == 3:
                dv7cpy(n, v, lstgst - 1, x, 0)
            elif i == 4:
                dv7cpy(n, x, 0, v, lstgst - 1)
                dv2axy(n, v, step1 - 1, NEGONE, v, x01 - 1, x, 0)
                v[RELDX] = drldst(n, d, 0, x, 0, v, x01 - 1)
                iv[RESTOR] = rstrst
            label = 300
        if label == 300:
            k = iv[IRC]
            if k in (1, 5):
                label = 310
            elif 2 <= k <= 4:
                label = 340
                continue
            elif k == 6:
                label = 320
                continue
            elif 7 <= k <= 12:
                label = 330
                continue
            elif k == 13:
                label = 400
                continue
            elif k == 14:
                label = 370
                continue
            else:
                label = 310
        if label == 310:
            # recompute step with new radius
            v[RADIUS] = v[RADFAC] * v[DSTNRM]
            label = 180
            continue
        if label == 320:
            # compute step of length v[LMAXS] for singular convergence test
            v[RADIUS] = v[LMAXS]
            label = 220
            continue
        if label == 330:
            # convergence or false convergence
            iv[CNVCOD] = k - 4
            if v[F] >= v[F0]:
                label = 420
                continue
            if iv[XIRC] == 14:
                label = 420
                continue
            iv[XIRC] = 14
            label = 340
        if label == 340:
            # process acceptable step
            x01 = iv[X0]
            step1 = iv[STEP]
            dv2axy(n, v, step1 - 1, NEGONE, v, x01 - 1, x, 0)
            if iv[IRC] == 3:
                # set temp1 = Hessian * step for use in gradient tests
                ipi = iv[PERM]
                dv7cpy(n, v, x01 - 1, v, step1 - 1)
                dv7ipr(n, iv, ipi - 1, v, x01 - 1)
                l = iv[LMAT]
                dl7tvm(n, v, x01 - 1, v, l - 1, v, x01 - 1)
                dl7vml(n, v, x01 - 1, v, l - 1, v, x01 - 1)
                # unpermute x0 into temp1
                temp1 = iv[STLSTG]
                temp0 = temp1 - 1
                for i in range(1, n + 1):
                    j = iv[ipi]
                    ipi = ipi + 1
                    k = temp0 + j
                    v[k] = v[x01]
                    x01 = x01 + 1
            label = 360
        if label == 360:
            # save old gradient, compute new one
            g01 = iv[NWTSTP] + n
            dv7cpy(n, v, g01 - 1, g, go)
            iv[NGCALL] = iv[NGCALL] + 1
            iv[TOOBIG] = 0
            iv[1] = 2
            return
        if label == 370:
            # gradient tests: initialise for update of the Hessian approximation
            g01 = iv[NWTSTP] + n
            dv2axy(n, v, g01 - 1, NEGONE, v, g01 - 1, g, go)
            step1 = iv[STEP]
            temp1 = iv[STLSTG]
            if iv[IRC] == 3:
                # set v[RADFAC] by gradient tests: set temp1 = diag(d)**-1 * (Hessian*step + (g(x0) - g(x)))
                dv2axy(n, v, temp1 - 1, NEGONE, v, g01 - 1, v, temp1 - 1)
                dv7vmp(n, v, temp1 - 1, v, temp1 - 1, d, 0, -1)
                # do gradient tests
                if (dv2nrm(n, v, temp1 - 1) <= v[DGNORM] * v[TUNER4]
                        or not dd7tpr(n, g, go, v, step1 - 1) >= v[GTSTEP] * v[TUNER5]):
                    v[RADFAC] = v[INCFAC]
            # update H, loop
            w1 = iv[NWTSTP]
            z = iv[X0]
            l = iv[LMAT]
            ipi = iv[PERM]
            dv7ipr(n, iv, ipi - 1, v, step1 - 1)
            dv7ipr(n, iv, ipi - 1, v, g01 - 1)
            dw7zbf(v, l - 1, n, v, step1 - 1, v, w1 - 1, v, g01 - 1, v, z - 1)
            dl7upd(v, temp1 - 1, v, step1 - 1, v, l - 1, v, g01 - 1, v, l - 1, n, v, w1 - 1, v, z - 1)
            iv[1] = 2
            label = 140
            continue
        if label == 400:
            # misc. details: bad parameters to assess
            iv[1] = 64
            label = 430
            continue
        if label == 410:
            # inconsistent B
            iv[1] = 82
            label = 430
            continue
        if label == 420:
            # print summary of final iteration and other requested items
            iv[1] = iv[CNVCOD]
            iv[CNVCOD] = 0
            label = 430
        if label == 430:
            _ditsum(iv, v, x, n, out)
            return
        if label == 440:
            # project x into the feasible region (prior to computing f or g)
            for i in range(1, n + 1):
                if x[i] < b[2 * i - 1]:
                    x[i] = b[2 * i - 1]
                if x[i] > b[2 * i]:
                    x[i] = b[2 * i]
            return


def drmnfb(b: list, d: list, fx: float, iv: list, liv: int, lv: int, p: int, v: list, x: list,
           out: Callable[[str], None] | None = None) -> None:
    """Bounded minimisation with finite-difference gradients (``DRMNFB``)."""
    ETA0, F, G, LMAT, NEXTV, NGCALL, NITER, PERM, SGIRC, TOOBIG, VNEED = 42, 10, 28, 42, 47, 30, 31, 58, 57, 2, 4
    iv1 = iv[1]
    if iv1 == 1:
        label = 10
    elif iv1 == 2:
        label = 50
    else:
        if iv[1] == 0:
            divset(2, iv, liv, lv, v)
        iv1 = iv[1]
        if iv1 == 12 or iv1 == 13:
            iv[VNEED] = iv[VNEED] + 2 * p + 6
        if iv1 == 14 or 2 < iv1 < 12:
            label = 10
        else:
            g1 = 1
            if iv1 == 12:
                iv[1] = 13
            label = 20
    while True:
        if label == 10:
            g1 = iv[G]
            label = 20
        if label == 20:
            drmngb(b, d, fx, v, g1 - 1, iv, liv, lv, p, v, x, out)
            if iv[1] < 2:
                return
            if iv[1] > 2:
                # label 80: storage allocation
                if iv[1] != 14:
                    return
                iv[G] = iv[NEXTV] + p + 6
                iv[NEXTV] = iv[G] + p
                if iv1 != 13:
                    label = 10
                    continue
                return
            # compute gradient
            if iv[NITER] == 0:
                dv7scp(p, v, g1 - 1, 0.0)
            j = iv[LMAT]
            alpha0 = g1 - p - 1
            ipi = iv[PERM]
            for i in range(1, p + 1):
                k = alpha0 + iv[ipi]
                v[k] = dd7tpr(i, v, j - 1, v, j - 1)
                ipi = ipi + 1
                j = j + i
            # undo increment of iv[NGCALL] done by drmngb
            iv[NGCALL] = iv[NGCALL] - 1
            # store return code from ds3grd in iv[SGIRC]
            iv[SGIRC] = 0
            # x may have been restored, so copy back fx
            fx = v[F]
            label = 60
        if label == 50:
            # gradient loop
            if iv[TOOBIG] != 0:
                label = 10
                continue
            label = 60
        if label == 60:
            g1 = iv[G]
            alpha = g1 - p
            w = alpha - 6
            irc, fx = ds3grd(v, alpha - 1, b, d, v[ETA0], fx, v, g1 - 1, iv[SGIRC], p, v, w - 1, x)
            iv[SGIRC] = irc
            i = irc
            if i == 0:
                label = 10
                continue
            if i <= p:
                iv[NGCALL] = iv[NGCALL] + 1
                return
            iv[TOOBIG] = 1
            label = 10
            continue


def drmng(d: list, fx: float, g: list, go: int, iv: list, liv: int, lv: int, n: int, v: list, x: list,
          out: Callable[[str], None] | None = None) -> None:
    """Unconstrained minimisation with gradients supplied by the caller (``DRMNG``)."""
    CNVCOD, DG, G0, INITH, IRC, KAGQT, MODE, MODEL, MXFCAL, MXITER, NFCALL = (
        55, 37, 48, 25, 29, 33, 35, 5, 17, 18, 6)
    NFGCAL, NGCALL, NITER, NWTSTP, RADINC, RESTOR, STEP, STGLIM, STLSTG, TOOBIG = (
        7, 30, 31, 34, 8, 9, 40, 11, 41, 2)
    VNEED, XIRC, X0 = 4, 13, 43
    DGNORM, DINIT, DSTNRM, DST0, F, F0, FDIF, GTHG, GTSTEP, INCFAC, LMAT, LMAX0 = (
        1, 38, 2, 3, 10, 13, 11, 44, 4, 23, 42, 35)
    LMAXS, NEXTV, NREDUC, PREDUC, RADFAC, RADIUS, RAD0, RELDX, TUNER4, TUNER5 = (
        36, 47, 6, 7, 16, 8, 9, 17, 29, 30)
    HALF, NEGONE, ONE, ONEP2, ZERO = 0.5, -1.0, 1.0, 1.2, 0.0

    rstrst = 0
    k = 0
    i = iv[1]
    if i == 1:
        label = 50
    elif i == 2:
        label = 60
    else:
        if iv[1] == 0:
            divset(2, iv, liv, lv, v)
        if iv[1] == 12 or iv[1] == 13:
            iv[VNEED] = iv[VNEED] + n * (n + 13) // 2
        dparck(2, d, iv, liv, lv, n, v)
        i = iv[1] - 2
        if i > 12:
            return
        if 1 <= i <= 6:
            label = 190
        elif i in (7, 9):
            label = 120
        elif i == 8:
            label = 90
        elif i == 12:
            label = 20
        else:
            label = 10
    while True:
        if label == 10:
            # storage allocation
            l = iv[LMAT]
            iv[X0] = l + n * (n + 1) // 2
            iv[STEP] = iv[X0] + n
            iv[STLSTG] = iv[STEP] + n
            iv[G0] = iv[STLSTG] + n
            iv[NWTSTP] = iv[G0] + n
            iv[DG] = iv[NWTSTP] + n
            iv[NEXTV] = iv[DG] + n
            if iv[1] == 13:
                iv[1] = 14
                return
            label = 20
        if label == 20:
            # initialisation
            iv[NITER] = 0
            iv[NFCALL] = 1
            iv[NGCALL] = 1
            iv[NFGCAL] = 1
            iv[MODE] = -1
            iv[MODEL] = 1
            iv[STGLIM] = 1
            iv[TOOBIG] = 0
            iv[CNVCOD] = 0
            iv[RADINC] = 0
            v[RAD0] = ZERO
            if v[DINIT] >= ZERO:
                dv7scp(n, d, 0, v[DINIT])
            if iv[INITH] == 1:
                l = iv[LMAT]
                dv7scp(n * (n + 1) // 2, v, l - 1, ZERO)
                k = l - 1
                for i in range(1, n + 1):
                    k = k + i
                    t = d[i]
                    if t <= ZERO:
                        t = ONE
                    v[k] = t
            iv[1] = 1
            return
        if label == 50:
            # new function value
            v[F] = fx
            if iv[MODE] >= 0:
                label = 190
                continue
            v[F0] = fx
            iv[1] = 2
            if iv[TOOBIG] == 0:
                return
            iv[1] = 63
            label = 350
            continue
        if label == 60:
            # make sure gradient could be computed
            if iv[TOOBIG] != 0:
                iv[1] = 65
                label = 350
                continue
            dg1 = iv[DG]
            dv7vmp(n, v, dg1 - 1, g, go, d, 0, -1)
            v[DGNORM] = dv2nrm(n, v, dg1 - 1)
            if iv[CNVCOD] != 0:
                label = 340
                continue
            if iv[MODE] == 0:
                label = 300
                continue
            # allow first step to have scaled 2-norm at most v[LMAX0]
            v[RADIUS] = v[LMAX0]
            iv[MODE] = 0
            label = 80
        if label == 80:
            _ditsum(iv, v, x, n, out)
            label = 90
        if label == 90:
            k = iv[NITER]
            if k >= iv[MXITER]:
                iv[1] = 10
                label = 350
                continue
            label = 100
        if label == 100:
            iv[NITER] = k + 1
            if k > 0:
                v[RADIUS] = v[RADFAC] * v[DSTNRM]
            g01 = iv[G0]
            x01 = iv[X0]
            v[F0] = v[F]
            iv[IRC] = 4
            iv[KAGQT] = -1
            dv7cpy(n, v, x01 - 1, x, 0)
            dv7cpy(n, v, g01 - 1, g, go)
            label = 110
        if label == 110:
            # STOPX is always .FALSE. in R
            label = 130
        if label == 120:
            if v[F] >= v[F0]:
                label = 130
            else:
                v[RADFAC] = ONE
                k = iv[NITER]
                label = 100
                continue
        if label == 130:
            if iv[NFCALL] < iv[MXFCAL]:
                label = 150
            else:
                iv[1] = 9
                label = 140
        if label == 140:
            if v[F] >= v[F0]:
                label = 350
                continue
            iv[CNVCOD] = iv[1]
            label = 290
            continue
        if label == 150:
            # compute candidate step
            step1 = iv[STEP]
            dg1 = iv[DG]
            nwtst1 = iv[NWTSTP]
            if iv[KAGQT] < 0:
                l = iv[LMAT]
                dl7ivm(n, v, nwtst1 - 1, v, l - 1, g, go)
                v[NREDUC] = HALF * dd7tpr(n, v, nwtst1 - 1, v, nwtst1 - 1)
                dl7itv(n, v, nwtst1 - 1, v, l - 1, v, nwtst1 - 1)
                dv7vmp(n, v, step1 - 1, v, nwtst1 - 1, d, 0, 1)
                v[DST0] = dv2nrm(n, v, step1 - 1)
                dv7vmp(n, v, dg1 - 1, v, dg1 - 1, d, 0, -1)
                dl7tvm(n, v, step1 - 1, v, l - 1, v, dg1 - 1)
                v[GTHG] = dv2nrm(n, v, step1 - 1)
                iv[KAGQT] = 0
            dd7dog(v, dg1 - 1, lv, n, v, nwtst1 - 1, v, step1 - 1, v)
            if iv[IRC] == 6:
                if iv[RESTOR] != 2:
                    label = 190
                    continue
                rstrst = 2
                label = 200
                continue
            iv[TOOBIG] = 0
            if v[DSTNRM] <= ZERO:
                label = 190
                continue
            if iv[IRC] == 5 and not v[RADFAC] <= ONE and not v[PREDUC] > ONEP2 * v[FDIF]:
                if iv[RESTOR] != 2:
                    label = 190
                    continue
                rstrst = 0
                label = 200
                continue
            x01 = iv[X0]
            step1 = iv[STEP]
            dv2axy(n, x, 0, ONE, v, step1 - 1, v, x01 - 1)
            iv[NFCALL] = iv[NFCALL] + 1
            iv[1] = 1
            return
        if label == 190:
            rstrst = 3
            label = 200
        if label == 200:
            x01 = iv[X0]
            v[RELDX] = drldst(n, d, 0, x, 0, v, x01 - 1)
            da7sst(iv, liv, lv, v)
            step1 = iv[STEP]
            lstgst = iv[STLSTG]
            i = iv[RESTOR] + 1
            if i == 2:
                dv7cpy(n, x, 0, v, x01 - 1)
            elif i == 3:
                dv7cpy(n, v, lstgst - 1, v, step1 - 1)
            elif i == 4:
                dv7cpy(n, v, step1 - 1, v, lstgst - 1)
                dv2axy(n, x, 0, ONE, v, step1 - 1, v, x01 - 1)
                v[RELDX] = drldst(n, d, 0, x, 0, v, x01 - 1)
                iv[RESTOR] = rstrst
            k = iv[IRC]
            if k in (1, 5):
                label = 250
            elif 2 <= k <= 4:
                label = 280
                continue
            elif k == 6:
                label = 260
                continue
            elif 7 <= k <= 12:
                label = 270
                continue
            elif k == 13:
                label = 330
                continue
            elif k == 14:
                label = 300
                continue
            else:
                label = 250
        if label == 250:
            v[RADIUS] = v[RADFAC] * v[DSTNRM]
            label = 110
            continue
        if label == 260:
            v[RADIUS] = v[LMAXS]
            label = 150
            continue
        if label == 270:
            iv[CNVCOD] = k - 4
            if v[F] >= v[F0]:
                label = 340
                continue
            if iv[XIRC] == 14:
                label = 340
                continue
            iv[XIRC] = 14
            label = 280
        if label == 280:
            if iv[IRC] == 3:
                step1 = iv[STEP]
                temp1 = iv[STLSTG]
                l = iv[LMAT]
                dl7tvm(n, v, temp1 - 1, v, l - 1, v, step1 - 1)
                dl7vml(n, v, temp1 - 1, v, l - 1, v, temp1 - 1)
            label = 290
        if label == 290:
            iv[NGCALL] = iv[NGCALL] + 1
            iv[1] = 2
            return
        if label == 300:
            g01 = iv[G0]
            dv2axy(n, v, g01 - 1, NEGONE, v, g01 - 1, g, go)
            step1 = iv[STEP]
            temp1 = iv[STLSTG]
            if iv[IRC] == 3:
                dv2axy(n, v, temp1 - 1, NEGONE, v, g01 - 1, v, temp1 - 1)
                dv7vmp(n, v, temp1 - 1, v, temp1 - 1, d, 0, -1)
                if (dv2nrm(n, v, temp1 - 1) <= v[DGNORM] * v[TUNER4]
                        or not dd7tpr(n, g, go, v, step1 - 1) >= v[GTSTEP] * v[TUNER5]):
                    v[RADFAC] = v[INCFAC]
            w = iv[NWTSTP]
            z = iv[X0]
            l = iv[LMAT]
            dw7zbf(v, l - 1, n, v, step1 - 1, v, w - 1, v, g01 - 1, v, z - 1)
            dl7upd(v, temp1 - 1, v, step1 - 1, v, l - 1, v, g01 - 1, v, l - 1, n, v, w - 1, v, z - 1)
            iv[1] = 2
            label = 80
            continue
        if label == 330:
            iv[1] = 64
            label = 350
            continue
        if label == 340:
            iv[1] = iv[CNVCOD]
            iv[CNVCOD] = 0
            label = 350
        if label == 350:
            _ditsum(iv, v, x, n, out)
            return


def drmnf(d: list, fx: float, iv: list, liv: int, lv: int, n: int, v: list, x: list,
          out: Callable[[str], None] | None = None) -> None:
    """Unconstrained minimisation with finite-difference gradients (``DRMNF``)."""
    ETA0, F, G, LMAT, NEXTV, NGCALL, NITER, SGIRC, TOOBIG, VNEED = 42, 10, 28, 42, 47, 30, 31, 57, 2, 4
    iv1 = iv[1]
    if iv1 == 1:
        label = 10
    elif iv1 == 2:
        label = 50
    else:
        if iv[1] == 0:
            divset(2, iv, liv, lv, v)
        iv1 = iv[1]
        if iv1 == 12 or iv1 == 13:
            iv[VNEED] = iv[VNEED] + 2 * n + 6
        if iv1 == 14 or 2 < iv1 < 12:
            label = 10
        else:
            g1 = 1
            if iv1 == 12:
                iv[1] = 13
            label = 20
    while True:
        if label == 10:
            g1 = iv[G]
            label = 20
        if label == 20:
            drmng(d, fx, v, g1 - 1, iv, liv, lv, n, v, x, out)
            if iv[1] < 2:
                return
            if iv[1] > 2:
                if iv[1] != 14:
                    return
                iv[G] = iv[NEXTV] + n + 6
                iv[NEXTV] = iv[G] + n
                if iv1 != 13:
                    label = 10
                    continue
                return
            # compute gradient
            if iv[NITER] == 0:
                dv7scp(n, v, g1 - 1, 0.0)
            j = iv[LMAT]
            k = g1 - n
            for i in range(1, n + 1):
                v[k] = dd7tpr(i, v, j - 1, v, j - 1)
                k = k + 1
                j = j + i
            iv[NGCALL] = iv[NGCALL] - 1
            iv[SGIRC] = 0
            fx = v[F]
            label = 60
        if label == 50:
            if iv[TOOBIG] != 0:
                label = 10
                continue
            label = 60
        if label == 60:
            g1 = iv[G]
            alpha = g1 - n
            w = alpha - 6
            irc, fx = ds7grd(v, alpha - 1, d, v[ETA0], fx, v, g1 - 1, iv[SGIRC], n, v, w - 1, x)
            iv[SGIRC] = irc
            if irc == 0:
                label = 10
                continue
            iv[NGCALL] = iv[NGCALL] + 1
            return


# ---------------------------------------------------------------------------------------
# R's nlminb()

#: nlminb's control names and their 1-based positions in iv (the first four) and v
_CONTROL_POSITIONS = {"eval.max": 17, "iter.max": 18, "trace": 19, "maxiter": 18, "abs.tol": 31,
                      "rel.tol": 32, "x.tol": 33, "xf.tol": 34, "step.min": 35, "step.max": 36,
                      "sing.tol": 37, "scale.init": 38, "diff.g": 42}
_IV_CONTROLS = ("eval.max", "iter.max", "trace", "maxiter")
_PORT_MESSAGES = {3: "X-convergence (3)", 4: "relative convergence (4)",
                  5: "both X-convergence and relative convergence (5)", 6: "absolute function convergence (6)",
                  7: "singular convergence (7)", 8: "false convergence (8)",
                  9: "function evaluation limit reached without convergence (9)",
                  10: "iteration limit reached without convergence (10)",
                  14: "storage only has been allocated (14)", 15: "LIV too small (15)", 16: "LV too small (16)",
                  63: "fn cannot be computed at initial par (63)", 65: "gr cannot be computed at initial par (65)",
                  300: "initial par violates constraints"}


def _pmatch(name: str) -> str | None:
    """R's ``pmatch`` of one control name: exact, else the only name it begins."""
    if name in _CONTROL_POSITIONS:
        return name
    partial = [known for known in _CONTROL_POSITIONS if known.startswith(name)] if name else []
    return partial[0] if len(partial) == 1 else None


def port_message(code: int) -> str:
    """R's ``port_msg(iv[1])`` (``nlminb.R``): the message for a PORT return code."""
    return _PORT_MESSAGES.get(code, "See PORT documentation.  Code (%d)" % code)


def _r_g(value: float) -> str:
    """C's ``%g`` as R's ``sprintf`` writes it (``Inf``, ``NaN`` spelled R's way)."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Inf" if value > 0 else "-Inf"
    return "%g" % value


@dataclass(frozen=True, eq=False)
class NlminbResult:
    """What R's ``nlminb`` returns.

    Attributes
    ----------
    par : numpy.ndarray
        The stopping point (R's ``par``).
    objective : float
        ``v[10]``, the objective at ``par`` as PORT recorded it (R's ``objective``).
    convergence : int
        0 for PORT codes 3-6 (X-, relative, both, absolute function convergence), else 1.
    iterations : int
        ``iv[31]``.
    evaluations : dict
        ``{"function": iv[6], "gradient": iv[30]}``; without a gradient function the
        "gradient" count is the number of objective calls made for finite differences.
    message : str
        R's message for the return code.
    code : int
        PORT's return code ``iv[1]``.
    """

    par: np.ndarray
    objective: float
    convergence: int
    iterations: int
    evaluations: dict = field(default_factory=dict)
    message: str = ""
    code: int = 0

    def __repr__(self) -> str:
        return (f"NlminbResult(par={self.par!r}, objective={self.objective!r}, convergence={self.convergence}, "
                f"iterations={self.iterations}, evaluations={self.evaluations}, message={self.message!r})")


def _iterate(iv: list, v: list, x: list, d: list, b: list | None, n: int, liv: int, lv: int,
             evaluate: Callable[[list], float], out, *, ieee: bool) -> tuple[list, list, list]:
    """``port_nlminb``'s loop (``port.c``): call PORT, evaluate where it asks, until ``iv[1] >= 3``."""
    iv, v, x, d = list(iv), list(v), list(x), list(d)
    if ieee:
        v, x, d = ([np.float64(z) for z in arr] for arr in (v, x, d))
        b = None if b is None else [np.float64(z) for z in b]
    with np.errstate(all="ignore"):
        fx = _INF
        while True:
            if b is not None:
                drmnfb(b, d, fx, iv, liv, lv, n, v, x, out)
            else:
                drmnf(d, fx, iv, liv, lv, n, v, x, out)
            if iv[1] >= 3:
                return iv, v, x
            fx = evaluate(x)
            if ieee:
                fx = np.float64(fx)


def _as_real(value) -> float:
    """R's ``asReal``: the first element as a double, NaN for an empty value."""
    if isinstance(value, float):
        return value
    arr = np.asarray(value, dtype=float).ravel()
    return float(arr[0]) if arr.shape[0] else math.nan


def _as_vector(value, n: int, name: str) -> list:
    arr = np.asarray(value, dtype=float).ravel()
    if arr.shape[0] == 0:
        raise ValueError(f"The {name!r} parameter of nlminb must have at least one value. Got {value!r} instead.")
    reps = -(-n // arr.shape[0])
    return [float(z) for z in np.tile(arr, reps)[:n]]  # R's rep_len


def nlminb(start, objective: Callable[[np.ndarray], float], *, lower=-_INF, upper=_INF, scale=1.0,
           control: Mapping[str, float] | None = None,
           trace_out: Callable[[str], None] | None = print) -> NlminbResult:
    """R's ``nlminb(start, objective, lower = , upper = , scale = , control = )`` without gradient or Hessian.

    Parameters
    ----------
    start : array_like
        Starting parameters (R's ``start``), at least one.
    objective : callable
        ``objective(par) -> float``, called with a fresh float array each time.  A NaN
        value counts as ``+Inf`` with a warning, as in R (``port.c``).
    lower, upper : float or array_like
        Bounds, recycled to the length of ``start`` as R's ``rep_len`` does.  When every
        lower bound is ``-Inf`` and every upper bound ``Inf`` the unbounded routines run
        (``drmnf``), else the bounded ones (``drmnfb``); starts outside the bounds are
        moved onto them before the first evaluation.
    scale : float or array_like
        R's ``scale`` (PORT's ``d``), recycled.
    control : mapping, optional
        R's control names: ``eval.max``, ``iter.max``, ``trace``, ``abs.tol``, ``rel.tol``,
        ``x.tol``, ``xf.tol``, ``step.min``, ``step.max``, ``sing.tol``, ``scale.init``,
        ``diff.g``, or an abbreviation that names one of them only (R's ``pmatch``).
    trace_out : callable, optional
        Where the lines of ``control={"trace": k}`` go (default ``print``); they have R's
        format (``port.c``'s ``ditsum``).

    Returns
    -------
    NlminbResult
        ``par``, ``objective``, ``convergence``, ``iterations``, ``evaluations``, ``message``
        as R returns them.

    Notes
    -----
    R evaluates the objective once more after PORT has stopped (its ``do ... while``
    loop); the result does not depend on that call, so it is not made here.  The
    arithmetic is R 4.2.2's with the reference BLAS (``ddot``, ``dnrm2``); see the module
    docstring for the two places where R's compiled code, not its source, decides.
    Where Python would raise (a division by zero, an overflow in ``**``) and IEEE
    arithmetic gives Inf or NaN, the fit is repeated with NumPy scalars, which follow
    IEEE; objective values are then reused, not recomputed.  Unknown ``control`` names
    raise ``ValueError`` (R warns and ignores them).

    References
    ----------
    R Core Team, ``stats::nlminb`` (R 4.2.2); D. M. Gay (1990), Usage summary for
    selected optimization routines, Computing Science Technical Report 153, AT&T Bell
    Laboratories.

    Examples
    --------
    >>> from pyale._rbase.port import nlminb
    >>> fit = nlminb([1.0, 1.0], lambda p: (p[0] - 3.0) ** 2 + (p[1] + 1.0) ** 2, lower=[0.0, 0.0])
    >>> [round(z, 5) for z in fit.par.tolist()], fit.message, fit.evaluations
    ([3.0, 0.0], 'relative convergence (4)', {'function': 6, 'gradient': 8})
    """
    par = np.asarray(start, dtype=float).ravel()
    n = par.shape[0]
    if n < 1:
        raise ValueError(f"The 'start' parameter of nlminb must have at least one value. Got {start!r} instead.")
    liv = 78 + 3 * n
    lv = 130 + (n * (n + 27)) // 2
    iv = [0] * (liv + 1)
    v = [0.0] * (lv + 1)
    divset(2, iv, liv, lv, v)
    if control:
        for given, value in control.items():
            name = _pmatch(str(given))
            if name is None:
                raise ValueError(f"The 'control' parameter of nlminb has an unknown element {given!r}; "
                                 f"known: {sorted(_CONTROL_POSITIONS)}.")
            pos = _CONTROL_POSITIONS[name]
            if name in _IV_CONTROLS:
                iv[pos] = int(value)
            else:
                v[pos] = float(value)
    lower_v = _as_vector(lower, n, "lower")
    upper_v = _as_vector(upper, n, "upper")
    for name, values in (("lower", lower_v), ("upper", upper_v)):
        if any(z != z for z in values):  # R: "missing value where TRUE/FALSE needed"
            raise ValueError(f"The {name!r} parameter of nlminb must not contain NaN. Got {values!r} instead.")
    iv0, v0, x0 = list(iv), list(v), [0.0] + [float(z) for z in par]
    bounded = any(z != -_INF for z in lower_v) or any(z != _INF for z in upper_v)
    b = None
    if bounded:
        b = [0.0] * (2 * n + 1)
        for i in range(n):
            b[2 * i + 1] = lower_v[i]
            b[2 * i + 2] = upper_v[i]
    d = [0.0] + _as_vector(scale, n, "scale")
    x = [0.0] + [float(z) for z in par]
    trace_lines: list[str] = []
    out = trace_lines.append if iv[19] and trace_out is not None else None
    cache: dict = {}  # objective values by point, reused only when the run is repeated
    replay = [False]

    def evaluate(point: list) -> float:
        key = tuple(point[1:])
        if replay[0] and key in cache:
            return cache[key]
        value = _as_real(objective(np.array(point[1:], dtype=float)))
        if math.isnan(value):
            warnings.warn("NA/NaN function evaluation", RuntimeWarning, stacklevel=3)
            value = _INF
        cache[key] = value
        return value

    try:
        iv, v, x = _iterate(iv, v, x, d, b, n, liv, lv, evaluate, out, ieee=False)
    except (ZeroDivisionError, OverflowError):
        # Python raises where IEEE arithmetic (and so the Fortran) gives Inf or NaN: start
        # again with NumPy scalars, which follow IEEE; the objective values are cached.
        trace_lines.clear()
        replay[0] = True
        iv, v, x = _iterate(iv0, v0, x0, d, b, n, liv, lv, evaluate, out, ieee=True)
    for line in trace_lines:
        trace_out(line)
    code = iv[1]
    if 19 <= code <= 43:
        names = [name for name, pos in _CONTROL_POSITIONS.items() if pos == code]
        if names:
            message = "'control' component '%s' = %s, is out of range" % (names[0], _r_g(v[code]))
        else:
            message = "V[IV[1]] = V[%d] = %s is out of range (see PORT docu.)" % (code, _r_g(v[code]))
    else:
        message = port_message(code)
    return NlminbResult(par=np.array(x[1:], dtype=float), objective=float(v[10]),
                        convergence=0 if 3 <= code <= 6 else 1, iterations=iv[31],
                        evaluations={"function": iv[6], "gradient": iv[30]}, message=message, code=code)
