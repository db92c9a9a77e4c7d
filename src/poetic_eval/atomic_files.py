"""Write files so that an interrupted run never leaves a half-written one behind."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def atomic_path(target: str | Path) -> Iterator[Path]:
    """Yield a temporary path beside ``target``; on success it replaces ``target`` atomically.

    The caller writes the whole file to the yielded path (any library that takes a path works).
    On any exception the temporary file is removed and ``target`` is left as it was.
    """
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, staging = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    os.close(handle)
    try:
        yield Path(staging)
        os.replace(staging, target)
    finally:
        Path(staging).unlink(missing_ok=True)


def write_text_atomically(target: str | Path, text: str) -> Path:
    """Write UTF-8 ``text`` to ``target`` through :func:`atomic_path`."""
    with atomic_path(target) as staging:
        staging.write_text(text, encoding="utf-8")
    return Path(target)
