"""Shared test fixtures.

The one place that decides whether live-R tests can run.  Tests marked
``@pytest.mark.r`` take the ``R`` fixture; it skips them with a reason when
rpy2, R or a named R package is missing, without ever breaking collection.
"""

from __future__ import annotations

import functools

import pytest


class _RSession:
    """A thin handle on an embedded R, used only by tests."""

    def __init__(self, robjects):
        self.ro = robjects

    def __call__(self, code: str):
        """Evaluate R code and return the rpy2 object."""
        return self.ro.r(code)

    def require(self, *packages: str) -> None:
        """Skip the calling test unless every R package is installed."""
        for name in packages:
            ok = self.ro.r(f'isTRUE(suppressWarnings(requireNamespace("{name}", quietly = TRUE)))')[0]
            if not ok:
                pytest.skip(f"R package {name!r} is not installed in this R")

    def floats(self, code: str):
        """Evaluate R code returning a numeric vector, as a NumPy float array."""
        import numpy as np

        return np.asarray(self.ro.r(f"as.double({code})"), dtype=float)


@functools.lru_cache(maxsize=1)
def _probe_r():
    try:
        import rpy2.robjects as robjects  # ValueError when R cannot be found
    except ImportError as exc:
        return None, f"rpy2 is not installed ({exc}); install the 'r' extra"
    except (ValueError, RuntimeError, OSError) as exc:
        return None, f"rpy2 is installed but R could not be started ({exc})"
    try:
        robjects.r("1 + 1")
    except Exception as exc:  # noqa: BLE001 - any R start-up failure means skip
        return None, f"R did not evaluate a trivial expression ({exc})"
    return robjects, None


@pytest.fixture(scope="session")
def R():
    """An embedded R session, or a skip with the reason it is unavailable."""
    robjects, reason = _probe_r()
    if robjects is None:
        pytest.skip(reason)
    return _RSession(robjects)
