"""Where the command's results go: ``--out``, filled in one move and never mixed with an earlier run.

Every subcommand that writes a folder (``demo``, ``run``, ``validate``)
writes through :func:`staged_output`: into a new hidden folder beside
``--out`` (``.<name>.pyale-new-<random>``: the same parent, so the same file
system), renamed to ``--out`` only once every file is written.  A folder
named ``--out`` therefore holds exactly one complete run:

* ``--out`` missing, or an empty folder: the new folder takes its place;
* ``--out`` a folder with anything in it: refused, unless ``--overwrite``;
  then the old folder is renamed aside, the new one renamed into place, and
  only then the old one deleted (when the second rename fails, the old one
  is put back): replaced whole, never merged;
* an error or Ctrl-C before that leaves ``--out`` as it was and removes the
  new folder.

``--out`` may not be empty text (an unset shell variable), the current
folder or one that holds it, or a folder that holds the ``--data`` or
``--model`` file.
"""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import warnings
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Mapping

from .inputs import EXIT_USAGE, CommandError

__all__ = ["folder_argument", "check_output", "staged_output"]


def folder_argument(text: str) -> Path:
    """The argparse type of ``--out``: a path, never empty text (``Path("")`` would be the current folder)."""
    if not text.strip():
        raise argparse.ArgumentTypeError(f"must name a folder, got {text!r} (an unset shell variable?)")
    return Path(text)


def _entries(folder: Path) -> list[str]:
    return sorted(entry.name for entry in os.scandir(folder))


def check_output(out: Path, overwrite: bool, inputs: Mapping[str, Path] | None = None) -> Path:
    """Refuse an ``--out`` the results may not replace; returns the folder to replace (links resolved).

    Parameters
    ----------
    out : Path
        ``--out`` as given.
    overwrite : bool
        ``--overwrite``: a non-empty ``out`` may be replaced whole.
    inputs : mapping of str to Path, optional
        The command's input files by option (``{"--data": ...}``): ``out``
        may not hold them, as replacing it would delete them.

    Returns
    -------
    Path
        ``out`` resolved: the folder a finished run replaces.
    """
    shown = str(out)
    if not out.exists():
        return out.resolve()
    if not out.is_dir():
        raise CommandError(f"--out {shown!r} exists and is not a directory.", EXIT_USAGE)
    target = out.resolve()
    cwd = Path.cwd().resolve()
    if target == cwd or target in cwd.parents:
        raise CommandError(f"--out {shown!r} is the current directory or holds it; the results replace --out "
                           "whole, so give them a folder of their own, e.g. --out results.", EXIT_USAGE)
    for option, path in (inputs or {}).items():
        if target in Path(path).resolve().parents:
            raise CommandError(f"--out {shown!r} holds the {option} file {str(path)!r}; the results replace "
                               "--out whole, so give them a folder of their own.", EXIT_USAGE)
    entries = _entries(target)
    if entries and not overwrite:
        more = f" and {len(entries) - 1} more" if len(entries) > 1 else ""
        raise CommandError(f"--out {shown!r} is not empty (it holds {entries[0]!r}{more}); "
                           "results are written to a new or empty folder only, so that two runs never mix. "
                           "Add --overwrite to replace that folder whole, or choose another --out.", EXIT_USAGE)
    return target


def _sibling(target: Path, tag: str) -> Path:
    return target.parent / f".{target.name[:100]}.pyale-{tag}-{secrets.token_hex(4)}"


def _new_folder(target: Path) -> Path:
    """An empty hidden folder beside ``target`` (made with the usual permissions, unlike ``mkdtemp``)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    while True:
        staging = _sibling(target, "new")
        try:
            staging.mkdir()
            return staging
        except FileExistsError:
            continue


def _move_into_place(staging: Path, target: Path) -> None:
    """Rename ``staging`` to ``target``; an existing ``target`` is renamed aside first, deleted last."""
    if not os.path.lexists(target):
        os.rename(staging, target)
        return
    aside = _sibling(target, "old")
    os.rename(target, aside)
    try:
        os.rename(staging, target)
    except BaseException:
        os.rename(aside, target)
        raise
    try:
        shutil.rmtree(aside)
    except OSError as exc:
        warnings.warn(f"the new results are in place, but the earlier ones, moved aside to {str(aside)!r}, "
                      f"could not all be deleted: {exc}", stacklevel=2)


@contextmanager
def staged_output(out: Path, overwrite: bool, inputs: Mapping[str, Path] | None = None) -> Iterator[Path]:
    """Write a run's files into the folder this yields; on success it becomes ``out`` (see the module doc).

    Parameters
    ----------
    out : Path
        ``--out`` as given; checked by :func:`check_output` before and after
        the files are written.
    overwrite : bool
        ``--overwrite``: replace a non-empty ``out`` whole.
    inputs : mapping of str to Path, optional
        The command's input files by option, which ``out`` may not hold.

    Yields
    ------
    Path
        A new empty folder beside ``out``.  When the ``with`` block raises
        (an error, ``KeyboardInterrupt``), it is removed and ``out`` is left
        as it was; an ``OSError`` becomes a :class:`CommandError` that says so.
    """
    target = check_output(out, overwrite, inputs)
    try:
        staging = _new_folder(target)
    except OSError as exc:
        raise CommandError(f"cannot create the --out directory {str(out)!r}: {exc}") from exc
    try:
        yield staging
        check_output(out, overwrite, inputs)  # something may have written there while the job ran
        _move_into_place(staging, target)
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise CommandError(f"the results could not be written, and --out {str(out)!r} was left as it was: "
                           f"{exc}") from exc
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
