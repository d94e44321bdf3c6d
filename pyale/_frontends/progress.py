"""Progress bars for long runs: when to show one, and how much work there is.

The bars are tqdm's (imported only when a bar is shown).  ``progress=``
on :func:`pyale.ale`, :func:`pyale.model_bootstrap`,
:class:`pyale.FeatureEffects` and :meth:`pyale.ALEDisplay.from_estimator`
takes

* ``None`` (the default): automatic.  A bar is shown only in an
  interactive terminal (the bar's stream, stderr, is a terminal) or in a
  Jupyter notebook, never while pytest runs a test, and only once the job
  has run :data:`AUTO_DELAY` seconds: short jobs print nothing, and
  nothing is ever written into a pipe or a log file;
* ``True``: always, at once, wherever stderr goes;
* ``False``: never.

What a bar counts: for ALE, the rows the model is asked about (each model
call reports its rows through :class:`~pyale._core.map.calls.ModelCaller`'s
``on_rows`` hook), with the total known before the first call: per row in
the grid, 2 for a numeric feature (lower and upper interval edge), 3 for a
categorical one (as observed, one level up, one level down; rows of the
top and bottom level move one way only) and 4 per direction for a pair (the
cell's corners).  The description names the effect being computed, so the
bar shows progress per effect and, for large data, within an effect per
model call, with tqdm's rate and ETA.  Frames that are not in memory (Dask,
Spark) get no row count here: their model calls run on workers.
"""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from typing import Sequence

import numpy as np

__all__ = ["AUTO_DELAY", "check_progress", "shown", "open_bar", "expected_rows", "EffectRows",
           "effect_progress", "feature_progress"]

AUTO_DELAY = 2.0
"""Seconds an automatic bar waits before it appears (jobs that finish sooner show nothing)."""

_LABEL_CHARS = 40


def check_progress(progress: object, *, caller: str) -> bool | None:
    """``progress`` checked: None, True or False (NumPy booleans too)."""
    if progress is None or isinstance(progress, bool):
        return progress
    if isinstance(progress, np.bool_):
        return bool(progress)
    raise TypeError(
        f"The 'progress' parameter of {caller} must be None (automatic), True or False. "
        f"Got {progress!r} instead."
    )


def in_notebook() -> bool:
    """Whether this runs in a Jupyter kernel (IPython already imported, with a kernel app)."""
    ipython = sys.modules.get("IPython")
    if ipython is None:
        return False
    try:
        shell = ipython.get_ipython()
        return shell is not None and "IPKernelApp" in shell.config
    except Exception:  # noqa: BLE001 - an unusual IPython: not a notebook
        return False


def _is_terminal(stream) -> bool:
    try:
        return bool(stream.isatty())
    except Exception:  # noqa: BLE001 - closed or unusual streams are not terminals
        return False


def shown(progress: bool | None, stream=None) -> bool:
    """Whether a bar is drawn for ``progress`` (see the module doc); ``stream`` defaults to stderr."""
    if progress is not None:
        return progress
    if "PYTEST_CURRENT_TEST" in os.environ:
        return False
    return in_notebook() or _is_terminal(sys.stderr if stream is None else stream)


class _NoBar:
    """What :func:`open_bar` returns when no bar is shown: every method does nothing."""

    total = 0
    n = 0

    def update(self, n=1):
        pass

    def set_description(self, desc=None, refresh=True):
        pass

    def close(self):
        pass


def open_bar(progress: bool | None, *, total: float, unit: str, desc: str, stream=None):
    """A tqdm bar, or an object that draws nothing when ``progress`` says no bar.

    ``stream`` is where a text bar goes (stderr by default); in a notebook
    with ipywidgets the bar is a widget.  An automatic bar appears after
    :data:`AUTO_DELAY` seconds; a requested one at once.  Without tqdm an
    automatic bar is silently skipped and a requested one is an ImportError.
    """
    if not shown(progress, stream):
        return _NoBar()
    try:
        from tqdm.std import tqdm
    except ImportError as exc:
        if progress is None:
            return _NoBar()
        raise ImportError('progress=True needs tqdm: pip install "pyale-r[progress]" (or pip install tqdm).') from exc
    options = {"total": total, "unit": unit, "unit_scale": total >= 10_000, "desc": desc, "dynamic_ncols": True,
               "delay": AUTO_DELAY if progress is None else 0.0}
    if stream is None and in_notebook():
        try:
            import ipywidgets  # noqa: F401 - tqdm's notebook bar needs it
            from tqdm.notebook import tqdm as notebook_tqdm
        except ImportError:
            pass
        else:
            return notebook_tqdm(**options)
    return tqdm(file=sys.stderr if stream is None else stream, **options)


def expected_rows(plan, frame) -> int:
    """Rows the model is asked about for one effect's plan on an in-memory frame.

    Its convention's count (:meth:`~pyale._core.conventions.base.Convention.model_rows`):
    under ALEPlot's and iml's rules, numeric 2 per row inside the grid;
    categorical the rows as observed plus those that can move one level up
    plus those that can move one level down; numeric x numeric 4 per row
    inside both grids; categorical x numeric 4 per row and direction.  Under
    the ``ale`` package's rules it is estimated at 2 per row and axis.
    """
    return plan.convention.model_rows(plan, frame)


def short_label(names: Sequence) -> str:
    """``'x'`` or ``'a' x 'b'``, cut to a bar description's width."""
    text = " x ".join(repr(n) if isinstance(n, str) else str(n) for n in names)
    return text if len(text) <= _LABEL_CHARS else text[: _LABEL_CHARS - 3] + "..."


class EffectRows:
    """``on_rows(n, purpose)`` for :class:`~pyale._core.map.calls.ModelCaller`: rows per effect on one bar.

    Parameters
    ----------
    bar : tqdm or _NoBar
    labels : list of str
        One per effect, for the bar's description.
    expected : list of int
        Rows each effect asks the model about.
    purposes : list of str, optional
        Each effect's purpose (``Plan.purpose``): a model call whose purpose
        starts with it counts for that effect.  Without them, effects are
        chosen with :meth:`start`.

    Notes
    -----
    An effect never counts beyond its expected rows (when an estimate was
    low), and :meth:`finish` tops it up (when it was high), so the bar ends
    at its total whatever the estimates.
    """

    def __init__(self, bar, labels: list, expected: list, purposes: list | None = None):
        self.bar = bar
        self.labels = labels
        self.expected = [int(e) for e in expected]
        self.purposes = purposes
        self.done = [0] * len(expected)
        self.current = None

    def _shown(self, j: int) -> int:
        return min(self.done[j], self.expected[j])

    def _effect_of(self, purpose: str):
        if self.purposes is None:
            return self.current
        matches = [j for j, p in enumerate(self.purposes) if purpose == p or purpose.startswith(p + " (")]
        if not matches:
            return None
        open_ = [j for j in matches if self.done[j] < self.expected[j]]
        return (open_ or matches)[0]

    def start(self, j: int) -> None:
        """Effect ``j`` is computed next (for effects without purposes)."""
        self.current = j
        self.bar.set_description(f"[{j + 1}/{len(self.labels)}] {self.labels[j]}", refresh=False)

    def __call__(self, n_rows: int, purpose: str) -> None:
        j = self._effect_of(purpose)
        if j is None:
            return
        if j != self.current:
            self.start(j)
        before = self._shown(j)
        self.done[j] += int(n_rows)
        step = self._shown(j) - before
        if step:
            self.bar.update(step)

    def finish(self, j: int) -> None:
        """Effect ``j`` is done: count all its expected rows."""
        step = self.expected[j] - self._shown(j)
        self.done[j] = max(self.done[j], self.expected[j])
        if step:
            self.bar.update(step)


@contextmanager
def effect_progress(progress: bool | None, caller, frame, plans: list, *, names: list, desc: str = "ALE"):
    """Show model rows per effect while the ``with`` block estimates ``plans`` through ``caller``.

    ``caller`` is the :class:`~pyale._core.map.calls.ModelCaller` the estimate
    uses; its ``on_rows`` hook is set inside the block and cleared after.
    Nothing is shown for frames that are not pandas DataFrames (Dask,
    Spark: the model runs on workers).
    """
    import pandas as pd

    if not isinstance(frame, pd.DataFrame) or not shown(progress):
        yield None
        return
    expected = [expected_rows(plan, frame) for plan in plans]
    bar = open_bar(progress, total=sum(expected), unit="row", desc=desc)
    tracker = EffectRows(bar, [short_label(n) for n in names], expected, [plan.purpose for plan in plans])
    previous = caller.on_rows
    caller.on_rows = tracker
    try:
        yield tracker
        for j in range(len(plans)):
            tracker.finish(j)
    finally:
        caller.on_rows = previous
        bar.close()


class _NoTracker:
    """What :func:`feature_progress` yields when no bar is shown."""

    def start(self, j: int) -> None:
        pass

    def finish(self, j: int) -> None:
        pass


def _iml_rows(column, n: int, method: str, grid_size: int, center_at, categorical: bool) -> int:
    """Rows one iml effect asks the model about, estimated (ALE categorical: 3 per row)."""
    if method == "ale":
        return (3 if categorical else 2) * n
    points = column.nunique() if categorical else grid_size + (center_at is not None)
    return n * int(points)


@contextmanager
def feature_progress(progress: bool | None, predictor, features: list, method: str, grid_size: int, center_at):
    """One bar over iml's effects, computed one after another (``start``/``finish`` per feature).

    The rows each effect asks for are estimated (see :func:`_iml_rows`);
    within an effect the bar moves with the predictor's model calls, and
    :meth:`EffectRows.finish` puts it at the effect's end.
    """
    if not shown(progress):
        yield _NoTracker()
        return
    data = predictor.data
    types = getattr(predictor, "feature_types", {})
    expected = [_iml_rows(data[name], data.shape[0], method, grid_size, center_at,
                          types.get(name) == "categorical") for name in features]
    bar = open_bar(progress, total=sum(expected), unit="row", desc=f"FeatureEffects ({method})")
    tracker = EffectRows(bar, [short_label([name]) for name in features], expected)
    caller = getattr(predictor, "_caller", None)
    previous = getattr(caller, "on_rows", None)
    if caller is not None:
        caller.on_rows = tracker
    try:
        yield tracker
    finally:
        if caller is not None:
            caller.on_rows = previous
        bar.close()
