"""Shared test fixtures.

The one place that decides whether live-R tests can run.  Tests marked
``@pytest.mark.r`` take the ``R`` fixture; it skips them with a reason when
rpy2, R or a named R package is missing, without ever breaking collection.
"""

from __future__ import annotations

import contextlib
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


# --- Dask and Spark engines ------------------------------------------------------------
# One session fixture each decides whether the engine tests can run; they skip
# with the reason (package, Java, start-up failure) and never break collection.


@contextlib.contextmanager
def _child_environment():
    """Start worker processes without the library path rpy2 added (see subprocess_env)."""
    import os

    from subprocess_env import child_env

    saved, child = dict(os.environ), child_env()
    os.environ.clear()
    os.environ.update(child)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


@functools.lru_cache(maxsize=1)
def _probe_dask():
    try:
        import dask.dataframe  # noqa: F401
        import distributed  # noqa: F401
    except ImportError as exc:
        return f"Dask is not installed ({exc}); install the 'dask' extra"
    return None


@pytest.fixture(scope="session")
def dask_dataframe():
    """``dask.dataframe``, or a skip with the reason Dask is unavailable."""
    reason = _probe_dask()
    if reason is not None:
        pytest.skip(reason)
    import dask.dataframe

    return dask.dataframe


@pytest.fixture(scope="session")
def dask_cluster(dask_dataframe):
    """A ``distributed`` client on a local cluster of two worker processes (one thread each)."""
    import distributed

    with _child_environment():
        cluster = distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, memory_limit="1GiB"
        )
    client = distributed.Client(cluster, set_as_default=False)
    yield client
    client.close()
    cluster.close()


def _java_reason():
    import os
    import shutil
    import subprocess

    java = shutil.which("java")
    home = os.environ.get("JAVA_HOME")
    if java is None and home:
        java = os.path.join(home, "bin", "java")
    if java is None or not os.path.exists(java):
        return "Java is not installed (pyspark needs Java 17; Debian: openjdk-17-jre-headless)"
    try:
        subprocess.run([java, "-version"], capture_output=True, check=True, timeout=60)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"Java did not run ({exc})"
    return None


@pytest.fixture(scope="session")
def spark():
    """A local Spark session (two cores, small memory, quiet), or a skip with the reason."""
    try:
        import pyarrow  # noqa: F401
        import pyspark  # noqa: F401
    except ImportError as exc:
        pytest.skip(f"pyspark or pyarrow is not installed ({exc}); install the 'spark' extra")
    reason = _java_reason()
    if reason is not None:
        pytest.skip(reason)
    import os
    import sys
    import warnings

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    with warnings.catch_warnings(), _child_environment():
        warnings.simplefilter("ignore", FutureWarning)  # pyspark about pandas >= 3
        try:
            session = (
                SparkSession.builder.master("local[2]")
                .appName("pyale-tests")
                .config("spark.ui.enabled", "false")
                .config("spark.ui.showConsoleProgress", "false")
                .config("spark.driver.memory", "1g")
                .config("spark.sql.shuffle.partitions", "4")
                .config("spark.sql.session.timeZone", "UTC")
                .getOrCreate()
            )
        except Exception as exc:  # noqa: BLE001 - any start-up failure means skip
            pytest.skip(f"Spark did not start ({exc})")
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture
def child_environment():
    """Run the test with the environment child Pythons need (without rpy2's library path)."""
    with _child_environment():
        yield
