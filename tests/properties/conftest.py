"""Hypothesis profiles of the property-based tests (``tests/properties``).

``ci`` (the default) is small, reproducible and fast: derandomised (the same
examples on every run), no example database, no deadline; the whole
directory runs in about 40 s.  ``long`` explores: 40 times more examples
from a random seed (an hour or more), with the example database kept
(``.hypothesis/``) so that a failure replays.  Choose one with the
environment variable::

    HYPOTHESIS_PROFILE=long python -m pytest tests/properties -p no:cacheprovider

``HYPOTHESIS_EXAMPLES`` overrides the number of examples of either profile
(a multiplier of each test's own count, see ``examples()`` in
``prop_effects.py``).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

_SLOW_DATA = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]

settings.register_profile(
    "ci", max_examples=25, deadline=None, derandomize=True, database=None, print_blob=True,
    suppress_health_check=_SLOW_DATA,
)
settings.register_profile(
    "long", max_examples=1000, deadline=None, derandomize=False, print_blob=True,
    suppress_health_check=_SLOW_DATA,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
