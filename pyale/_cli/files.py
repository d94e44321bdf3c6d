"""Which files the command writes for each effect, and how its reports name the features.

Every effect gets files of its own, whatever its features are called:

* the stem is the prefix and the feature names with every character outside
  ``A-Z a-z 0-9 . _ -`` replaced by ``_`` (``ale_value``, ``ale_value_capital``,
  ``aleplot_value_x_capital``), cut at :data:`MAX_STEM` characters;
* when that lost something (a character replaced, leading or trailing
  ``_`` removed, the name cut) a short hash of the exact names is appended
  (``"x 1"`` -> ``ale_x_1_<hash>``), so a stem never stands for two different
  features, in one run or across runs;
* stems that would still coincide in one run, compared case-insensitively
  (``x_1`` and ``X_1`` are one file on Windows and macOS), all get the hash;
  a counter is the last resort.

Stems are ASCII, start with the prefix (so never a name Windows reserves,
such as ``con``) and fit any file system's name limit.  ``manifest.json``
records feature names -> kind -> files exactly (JSON strings, nothing lost).
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import numpy as np

__all__ = ["MAX_STEM", "effect_stems", "feature_label", "markdown_label", "write_manifest"]

MAX_STEM = 80
"""Longest stem before the hash (file names stay far below 255 bytes)."""

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def _safe(name: str) -> str:
    return _UNSAFE.sub("_", name).strip("_")


def _digest(prefix: str, names: tuple) -> str:
    text = json.dumps([prefix, [str(n) for n in names]], ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]


def _plain_stem(prefix: str, names: tuple, joiner: str) -> tuple[str, bool]:
    """The readable stem and whether it lost something of the names."""
    parts = [_safe(str(n)) for n in names]
    lossy = any(part != str(n) for part, n in zip(parts, names))
    text = joiner.join(part for part in parts if part)
    stem = f"{prefix}_{text}" if text else prefix
    if len(stem) > MAX_STEM:
        stem, lossy = stem[:MAX_STEM].rstrip("_.-"), True
    return stem, lossy


def effect_stems(effects: list[tuple[str, tuple]], joiner: str = "_") -> list[str]:
    """One distinct file stem per ``(prefix, feature names)``, in order (see the module doc).

    Parameters
    ----------
    effects : list of (str, tuple of str)
        The prefix (``"ale"``, ``"aleplot"``, ``"iml"``) and the feature
        name(s) of each effect.
    joiner : str, default "_"
        What joins the two names of a pair.

    Returns
    -------
    list of str
        Stems that differ from each other even case-insensitively.

    Examples
    --------
    >>> effect_stems([("ale", ("value",)), ("ale", ("x_1",)), ("ale", ("X_1",))])[0]
    'ale_value'
    """
    plain = [_plain_stem(prefix, tuple(names), joiner) for prefix, names in effects]
    stems = [f"{stem}_{_digest(prefix, tuple(names))}" if lossy else stem
             for (stem, lossy), (prefix, names) in zip(plain, effects)]
    folded: dict[str, list[int]] = {}
    for i, stem in enumerate(stems):
        folded.setdefault(stem.casefold(), []).append(i)
    for members in folded.values():
        if len({(effects[i][0], tuple(effects[i][1])) for i in members}) > 1:
            for i in members:
                prefix, names = effects[i]
                if not plain[i][1]:
                    stems[i] = f"{stems[i]}_{_digest(prefix, tuple(names))}"
    seen: set[str] = set()
    for i, stem in enumerate(stems):  # the same effect twice, or a name that spells another's hash
        candidate, counter = stem, 1
        while candidate.casefold() in seen:
            counter += 1
            candidate = f"{stem}_{counter}"
        stems[i] = candidate
        seen.add(candidate.casefold())
    return stems


def feature_label(names) -> str:
    """A one-line label that tells the features apart: ``'x 1'``, ``'a' x 'b'``."""
    return " x ".join(repr(str(n)) for n in names)


def markdown_label(names) -> str:
    """The feature names as Markdown code spans, safe inside a table cell: `` `a` x `b` ``."""
    spans = []
    for name in map(str, names):
        text = name if name and name.isprintable() and name == name.strip() else repr(name)
        longest = max((len(run) for run in re.findall("`+", text)), default=0)
        fence = "`" * (longest + 1)
        pad = " " if text.startswith("`") or text.endswith("`") else ""
        spans.append(f"{fence}{pad}{text}{pad}{fence}".replace("|", "\\|"))
    return " x ".join(spans)


def _json_value(value):
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    return str(value)


def write_manifest(out: Path, header: dict, effects: list[dict], files: list[Path]) -> Path:
    """``manifest.json``: ``header``, ``files`` (every file of the folder but itself) and one entry per effect."""
    document = {**{str(k): _clean(v) for k, v in header.items()}, "files": [path.name for path in files],
                "effects": [_clean(entry) for entry in effects]}
    path = out / "manifest.json"
    path.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def _clean(value):
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    return _json_value(value)
