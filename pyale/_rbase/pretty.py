"""Round break points, as R's ``pretty``."""

from __future__ import annotations

import numpy as np

from .quantile import r_seq

__all__ = ["r_pretty"]


def r_pretty(low: float, high: float, n: int = 5) -> np.ndarray:
    """Round break points covering ``[low, high]``, as R's ``pretty(c(low, high), n)``.

    Ports base R's ``pretty.default`` with its defaults (``min.n = n %/% 3``,
    ``shrink.sml = 0.75``, ``high.u.bias = 1.5``, ``u5.bias = 2.75``,
    ``eps.correct = 0``, ``f.min = 2^-20``) and the C routine ``R_pretty``
    behind it (R 4.2).  ``contour`` draws its lines at
    ``pretty(range(z), 10)``, so pyale's pair pictures use the same levels.

    Examples
    --------
    >>> [f"{v:.15g}" for v in r_pretty(-0.93, 1.27, 10)]
    ['-1', '-0.8', '-0.6', '-0.4', '-0.2', '0', '0.2', '0.4', '0.6', '0.8', '1', '1.2', '1.4']
    """
    eps = np.finfo(float).eps
    rounding_eps = 1e-10
    high_u, u5 = 1.5, 0.5 + 1.5 * 1.5
    f_min = 2.0**-20
    min_n = n // 3
    lo, up = float(low), float(high)
    dx = up - lo
    if dx == 0 and up == 0:
        cell, small = 1.0, True
    else:
        cell = max(abs(lo), abs(up))
        bound = 1 + (1 / (1 + high_u) if u5 >= 1.5 * high_u + 0.5 else 1.5 / (1 + u5))
        bound *= max(1, n) * eps
        small = dx < cell * bound * 3
    if small:
        if cell > 10:
            cell = 9 + cell / 10
        cell *= 0.75
        if min_n > 1:
            cell /= min_n
    else:
        cell = dx
        if n > 1:
            cell /= n
    tiny = f_min * np.finfo(float).tiny or np.finfo(float).tiny
    cell = min(max(cell, tiny), np.finfo(float).max / 1.25)
    base = 10.0 ** np.floor(np.log10(cell))
    unit = base
    if 2 * base - cell < high_u * (cell - unit):
        unit = 2 * base
        if 5 * base - cell < u5 * (cell - unit):
            unit = 5 * base
            if 10 * base - cell < high_u * (cell - unit):
                unit = 10 * base
    ns = np.floor(lo / unit + rounding_eps)
    nu = np.ceil(up / unit - rounding_eps)
    while ns * unit > lo + rounding_eps * unit:
        ns -= 1
    while nu * unit < up - rounding_eps * unit:
        nu += 1
    k = int(0.5 + nu - ns)
    if k < min_n:
        k = min_n - k
        if ns >= 0:
            nu += k // 2
            ns -= k // 2 + k % 2
        else:
            ns -= k // 2
            nu += k // 2 + k % 2
        divisions = min_n
    else:
        divisions = k
    lo = min(lo, ns * unit)
    up = max(up, nu * unit)
    points = r_seq(lo, up, divisions + 1)
    if divisions:
        delta = (up - lo) / divisions
        points[np.abs(points) < 1e-14 * delta] = 0.0
    return points
