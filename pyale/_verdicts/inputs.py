"""The results the verdicts accept, the output they read, and the replicates they need."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .._ale_result import ALEResult, check_output
from .._alepkg.ale import ALE
from .._checks import check_level

__all__ = ["collect_results", "output_index", "require_replicates", "check_verdict_level", "effect_name", "feature_label",
           "native"]


def collect_results(result, *, caller: str) -> list:
    """A list of :class:`~pyale.ALEResult` from one result, a list of them, or a :class:`pyale.ALE`."""
    if isinstance(result, ALEResult):
        return [result]
    if isinstance(result, ALE):
        return list(result.to_results())
    if isinstance(result, (list, tuple)) and result and all(isinstance(r, ALEResult) for r in result):
        return list(result)
    hint = ""
    if type(result).__name__ == "ModelBoot":
        hint = (" A ModelBoot's refitted curves are R's tables, not replicates of one estimator: for a model "
                "bootstrap verdict use pyale.model_bootstrap(fit, X, y, features, n_bootstrap=200).")
    raise TypeError(
        f"The 'result' parameter of {caller} must be an ALEResult, a list of them (pyale.ale with a list "
        f"of features returns one) or a pyale.ALE object. Got {type(result).__name__} instead.{hint}"
    )


def output_index(result: ALEResult, output, *, caller: str) -> int:
    """Which output of ``result`` to read: ``output`` when given; else the only one, or a binary
    classifier's positive class (its second, as :meth:`ALEResult.plot` draws)."""
    names = list(result.outputs)
    if output is not None:
        chosen = check_output(output, result, caller=caller)
        if len(chosen) != 1:
            raise ValueError(
                f"The 'output' parameter of {caller} must name one output. Got {output!r} instead."
            )
        return names.index(chosen[0])
    if len(names) == 1:
        return 0
    if result.classifier and len(names) == 2:
        return 1
    raise ValueError(
        f"The effect of {effect_name(result)} has {len(names)} outputs {names!r}; pass output= to {caller} "
        "to choose the one to judge."
    )


def check_verdict_level(level, *, caller: str) -> float:
    """The significance level: a number in (0, 1)."""
    return check_level(level, param="level", caller=caller)


def require_replicates(result: ALEResult, level: float, *, caller: str) -> np.ndarray:
    """The result's bootstrap replicates, or an error that says how to get them.

    A bootstrap p-value is at least ``1 / (B + 1)``, so fewer than
    ``1 / level - 1`` replicates can never reach ``level``: refused too.
    """
    if result.replicates is None:
        raise ValueError(
            f"{caller} needs bootstrap replicates, and the effect of {effect_name(result)} carries none. "
            f"Compute it with pyale.ale(model, X, features, n_bootstrap=200) (data bootstrap: the model "
            f"fixed, the rows resampled), pyale.model_bootstrap(fit, X, y, features, n_bootstrap=200) (the "
            f"model refitted on each resample) or pyale.ALE(..., boot_it=200)."
        )
    n_boot = result.replicates.shape[0]
    needed = math.ceil(1.0 / level - 1.0 - 1e-9)
    if n_boot < needed:
        raise ValueError(
            f"The effect of {effect_name(result)} carries {n_boot} bootstrap replicates; {caller} at level "
            f"{level!r} needs at least {needed} (a bootstrap p-value is never below 1 / (replicates + 1)). "
            f"Recompute it with n_bootstrap >= {max(needed, 200)}."
        )
    return result.replicates


def effect_name(result: ALEResult) -> str:
    """``'x'`` for a main effect, ``('a', 'b')`` for a pair: how messages name an effect."""
    return repr(result.features[0]) if len(result.features) == 1 else repr(tuple(result.features))


def feature_label(features: tuple) -> str:
    """``"x"`` for one feature, ``"a x b"`` for a pair (as :attr:`ALEResults.statistics` writes it)."""
    return " x ".join(map(str, features))


def native(value):
    """A JSON-friendly Python value: NumPy scalars as Python ones, NaN and NA as None."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None if math.isnan(value) else value
    if value is pd.NA or value is pd.NaT:
        return None
    return value
