"""``pyale.ALE`` terms as :class:`pyale.ALEResult` objects (for plots and tidy tables)."""

from __future__ import annotations

import numpy as np

from .._ale_result import ALEResult
from .._core.stats import Normaliser
from .._result_list import ALEResults
from .plans import result_kind
from .tables import band_summary

__all__ = ["to_results"]


def to_results(ale, terms) -> ALEResults:
    """One :class:`~pyale.ALEResult` per term: ``effects`` is ``get()``'s ``.y`` centred at 0.

    With a bootstrap, ``ci_low``/``ci_high`` are R's band ``.y_lo``/``.y_hi``
    (which counts the full-data curve among the replicates) and
    ``replicates`` the replicates' curves.
    """
    built = []

    def normalisers():
        if not built:
            built.extend(Normaliser.from_response(ale._values[:, c]) for c in range(len(ale.y_cats)))
        return built

    out = []
    for term in terms:
        summaries = [band_summary(term.curves[..., c], boot_alpha=ale.boot_alpha, boot_centre=ale.boot_centre)
                     for c in range(len(ale.y_cats))]

        def stacked(key):
            return np.stack([s[key] for s in summaries], axis=-1)

        grid = tuple(np.asarray(info.bins, dtype=float) if info.ale_type == "numeric" else tuple(info.bins)
                     for info in term.infos)
        est = term.estimate
        result = ALEResult(
            features=tuple(term.features),
            kind=" x ".join(result_kind(t) for t in term.types),
            grid=grid,
            effects=stacked(".y"),
            outputs=tuple(ale.y_cats),
            counts=est.counts,
            level_order=grid[0] if term.types[0] != "numeric" else None,
            empty_cells=est.empty_cells,
            conventions="ale",
            normaliser=normalisers,
            deviation=ale._deviation,
            ordered_by_similarity=tuple(t == "categorical" for t in term.types),  # R's ALE order of a factor
        )
        if ale.boot_it:
            import dataclasses

            result = dataclasses.replace(result, ci_low=stacked(".y_lo"), ci_high=stacked(".y_hi"),
                                         replicates=est.replicates, replicate_counts=est.replicate_counts,
                                         ci_level=1.0 - ale.boot_alpha, bootstrap="data", _cache={})
        out.append(result)
    return ALEResults(out)
