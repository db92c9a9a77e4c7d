"""Kill a run at its k-th write step, as a SIGKILL would, and look at what it left.

:func:`run_killed_at` forks: the child counts every file-system write step it makes (creating,
writing, renaming, exchanging and removing files and folders, parquet and PNG writes) and kills
itself with SIGKILL just before step ``k``; no ``finally`` block or clean-up runs, exactly as
with ``kill -9``. The parent waits and reports whether the run was killed or finished. Steps
1, 2, ... until the run finishes cover every point between two writes.
"""

from __future__ import annotations

import hashlib
import os
import pathlib
import shutil
import signal
import tempfile
from collections.abc import Callable
from pathlib import Path

import matplotlib.figure
import pyarrow.parquet

from poetic_eval.files import atomic_files

# (owner, attribute) of every write step counted
WRITE_STEPS = (
    (os, "replace"),
    (os, "rename"),
    (shutil, "rmtree"),
    (shutil, "copytree"),
    (tempfile, "mkdtemp"),
    (tempfile, "mkstemp"),
    (pathlib.Path, "mkdir"),
    (pathlib.Path, "write_text"),
    (pathlib.Path, "write_bytes"),
    (pathlib.Path, "chmod"),
    (pyarrow.parquet, "write_table"),
    (matplotlib.figure.Figure, "savefig"),
    (atomic_files, "_exchange"),
)


def _counting(original: Callable, counter: list[int], step: int) -> Callable:
    def step_taken(*args, **kwargs):
        counter[0] += 1
        if counter[0] == step:
            os.kill(os.getpid(), signal.SIGKILL)
        return original(*args, **kwargs)

    return step_taken


def run_killed_at(step: int, action: Callable[[], object], *, exchange: bool = True) -> bool:
    """Run ``action`` in a child killed just before its ``step``-th write step.

    Returns True when the child was killed, False when it finished first. With
    ``exchange=False`` the child behaves as on a system without ``renameat2`` (two renames).
    Raises AssertionError when ``action`` failed in the child.
    """
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        try:
            if not exchange:
                atomic_files._exchange = lambda first, second: False
            counter = [0]
            for owner, name in WRITE_STEPS:
                setattr(owner, name, _counting(getattr(owner, name), counter, step))
            action()
        except BaseException:  # noqa: BLE001 - the child must never return into pytest
            os._exit(3)
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        assert os.WTERMSIG(status) == signal.SIGKILL
        return True
    assert os.WEXITSTATUS(status) == 0, f"the run failed in the child (step {step})"
    return False


def folder_fingerprint(folder: Path) -> dict[str, str] | None:
    """{relative path: sha256} of every file under ``folder`` (None when it is absent)."""
    if not folder.exists():
        return None
    return {
        str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def leftovers(target: Path) -> list[str]:
    """Staging, retired and temporary entries of ``target`` left beside or inside it."""
    beside = [p.name for p in target.parent.glob(f".{target.name}.*")]
    inside = [p.name for p in target.rglob(".*")] if target.is_dir() else []
    return sorted(beside + inside)
