"""Check where a command will write before it does any work, creating nothing.

A run that scores every pair and only then finds that ``--out`` cannot be written loses its
work; every command therefore checks its output locations first with
:func:`check_output_file` (a file, of the right extension) or :func:`check_output_folder`.
Writing itself stays atomic (:mod:`poetic_eval.files.atomic_files`), which needs only the
parent folder to be writable: the new file or folder is staged beside the target.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from ..checks.validation import typed_options
from .user_errors import LinkRefusedError, OutputLocationError


def check_output_file(
    path: str | Path, argument: str, *, suffixes: Iterable[str] | None = None
) -> Path:
    """Check that ``path`` can be written as a file; return it as a Path.

    Args:
        path: the output file (it may exist: it is then replaced).
        argument: how the user named it (``"--out"``, ``"out_file"``), for the messages.
        suffixes: the accepted extensions (``(".jsonl", ".csv")``, case-insensitive).

    Raises:
        OutputLocationError: a wrong extension, a folder at ``path``, or a parent that is
            not a folder or not writable.
    """
    path = Path(path)
    if suffixes is not None:
        allowed = tuple(suffix.lower() for suffix in suffixes)
        if path.suffix.lower() not in allowed:
            raise OutputLocationError(
                f"{argument} {path}: the file name must end in {_listed(allowed)}"
            )
    if path.is_dir():
        raise OutputLocationError(f"{argument} {path} is a folder; give a file name")
    _check_parent(path, argument)
    return path


def check_output_folder(path: str | Path, argument: str) -> Path:
    """Check that ``path`` can be written (or replaced) as a folder; return it as a Path.

    Raises:
        OutputLocationError: a file at ``path``, or a parent that is not a folder or not
            writable.
    """
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise OutputLocationError(f"{argument} {path} is a file, not a folder")
    _check_parent(path, argument)
    return path


def written_path(target: str | Path) -> Path:
    """Where writing ``target`` lands: a symbolic link is written through to the path it
    points at (the link itself stays), anything else is ``target`` itself."""
    target = Path(target)
    return Path(os.path.realpath(target)) if target.is_symlink() else target


def refuse_links(target: str | Path, root: str | Path) -> None:
    """Refuse a cache path that is, or lies under, a symbolic link below ``root``.

    A cache writes only names it chose itself (a hash of the content, a model's fingerprint),
    and none of them is a link; a link there was planted (by a user, a script, another account
    sharing the cache) and following it would overwrite, or change the mode of, whatever it
    points at. ``root`` itself (the cache folder the user chose) may be a link. Checked with
    ``lstat``, so a dangling link is refused too.

    Raises:
        LinkRefusedError: naming the link and what to do; nothing is touched.
    """
    target, root = Path(target), Path(root)
    try:
        parts = target.relative_to(root).parts
    except ValueError:
        # a target outside root: only its own name is checked
        parts = (target.name,)
        root = target.parent
    current = root
    for part in parts:
        current = current / part
        if current.is_symlink():
            raise LinkRefusedError(
                f"{current} is a symbolic link that poetic-eval did not make; it is neither "
                "followed nor replaced (what it points at is untouched): delete the link to let "
                "the cache be rebuilt there"
            )


def check_not_current(path: str | Path, argument: str) -> None:
    """Refuse a folder to be replaced whole that is the current folder or holds it: it cannot
    be swapped away from under the running process ("Device or resource busy")."""
    resolved = Path(os.path.realpath(path))
    here = Path(os.path.realpath(os.getcwd()))
    if resolved == here or resolved in here.parents:
        where = (
            "the current folder"
            if resolved == here
            else f"a folder holding the current one ({here})"
        )
        raise OutputLocationError(
            f"{argument} {path} is {where}, which cannot be replaced whole while in use; give "
            "a subfolder (e.g. --out datasets/bpomp) or run from another folder"
        )


def _check_parent(path: Path, argument: str) -> None:
    """The nearest existing ancestor of ``path``'s parent (of the path a link points at:
    writes go through links) must be a writable folder."""
    ancestor = Path(os.path.abspath(written_path(path))).parent
    # missing folders are created on writing (mkdir parents=True), so the nearest one that
    # exists must accept new entries
    while not ancestor.exists() and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise OutputLocationError(
            f"{argument} {path}: {ancestor} is a file, so nothing can be written under it"
        )
    # creating an entry in a folder needs both write and search (x) permission
    if not os.access(ancestor, os.W_OK | os.X_OK):
        raise OutputLocationError(
            f"{argument} {path}: cannot write in {ancestor} (permission denied); choose a "
            "location you can write to"
        )


def _listed(suffixes: tuple[str, ...]) -> str:
    return ", ".join(suffixes[:-1]) + f" or {suffixes[-1]}" if len(suffixes) > 1 else suffixes[0]


def files_not_listed(root: Path, folder: str, listed: set[str]) -> list[str]:
    """Files and links under ``root/folder`` whose path relative to ``root`` is not in
    ``listed``: what a rebuild would delete that this project did not write. A ``folder`` that
    is itself a link or a file is reported whole."""
    top = root / folder
    if not top.exists() and not top.is_symlink():
        return []
    if top.is_symlink() or not top.is_dir():
        return [folder]
    found = []
    for current, folders, files in os.walk(top, followlinks=False):
        # os.walk lists a link to a folder among the folders without entering it; a rebuild would
        # delete the link itself, so it is reported like a file
        links = [name for name in folders if (Path(current) / name).is_symlink()]
        for name in files + links:
            relative = (Path(current) / name).relative_to(root).as_posix()
            if relative not in listed:
                found.append(relative)
    return sorted(found)


@typed_options
def shown_names(names: list[str], most: int = 5) -> str:
    """The first ``most`` names, comma-separated, with "..." when there are more."""
    return ", ".join(names[:most]) + (", ..." if len(names) > most else "")
