"""Names read from data that become parts of paths: config, split, task and file names.

A config name comes from a source record (a BLiMP ``UID``), a split or config name from a
dataset card, a task name from a card a user downloaded: each ends up as a folder or file name
(``data/<config>/<split>-....parquet``, ``<config>.yaml``). :func:`checked_name` lets through
only names that stay one path component (letters, digits, ``_ - . +``, not starting with a
dot, so neither ``..`` nor a hidden file), so a name from data can never reach outside the
folder it is written in; :func:`inside` checks a joined path against its root besides.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import UnsafeNameError

#: What a name from data may hold: one path component, no separator, no leading dot.
SAFE_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+\-]{0,199}")


def checked_name(name: object, what: str, source: str | Path) -> str:
    """``name`` when it is safe as one path component, else an :class:`UnsafeNameError`.

    Args:
        name: the name as read (a config, split, task or file name).
        what: what it names, for the message ("config name", "split name").
        source: where it was read (the file and line, or the card), for the message.
    """
    if isinstance(name, str) and SAFE_NAME.fullmatch(name) and ".." not in name:
        return name
    raise UnsafeNameError(
        f"{source}: {what} {name!r} cannot be used as a file or folder name (only letters, "
        "digits and _ - . + are allowed, not starting with a dot, no '..', at most 200); "
        "rename it in the source"
    )


def inside(root: str | Path, relative: str | Path) -> Path:
    """``root / relative``, checked to resolve inside ``root`` (links followed).

    Raises:
        UnsafeNameError: the joined path leaves ``root``.
    """
    root_path = Path(root).resolve()
    joined = (root_path / relative).resolve()
    if joined != root_path and root_path not in joined.parents:
        raise UnsafeNameError(
            f"refusing to write {relative}: it resolves to {joined}, outside {root_path}"
        )
    return root_path / relative
