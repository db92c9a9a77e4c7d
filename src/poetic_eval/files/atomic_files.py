"""Write files and folders so that an interrupted run never leaves a half-written one behind."""

from __future__ import annotations

import ctypes
import errno
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .output_locations import check_not_current, refuse_links, written_path
from .user_errors import OutputWriteError


def default_mode(kind: int = 0o666) -> int:
    """``kind`` (0o666 for files, 0o777 for folders) less the process's umask: the mode
    ``open`` would give, which ``mkstemp``'s private 0600 does not."""
    return kind & ~_umask()


def _umask() -> int:
    """The process's umask, read from ``/proc/self/status`` where the system has it (Linux),
    so that no other thread creates a file while the mask is briefly changed to read it."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    # no /proc: umask can only be read by setting it, so it is set and put back at once
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _landing(target: str | Path, links_refused_under: str | Path | None) -> Path:
    """Where ``target`` is written: through a link the user named (an output), or, for a cache
    (``links_refused_under`` its root), ``target`` itself once no link is on its way there."""
    if links_refused_under is None:
        return written_path(target)
    refuse_links(target, links_refused_under)
    return Path(target)


@contextmanager
def atomic_path(
    target: str | Path, *, links_refused_under: str | Path | None = None
) -> Iterator[Path]:
    """Yield a temporary path beside ``target``; on success it replaces ``target`` atomically.

    The caller writes the whole file to the yielded path (any library that takes a path works).
    On any exception the temporary file is removed and ``target`` is left as it was; an
    ``OSError`` (disk full, permission denied) becomes an :class:`OutputWriteError` naming
    ``target``. A ``target`` that is a symbolic link is written through to the file it points
    at; the file gets the mode the umask gives (as ``open`` would), not ``mkstemp``'s 0600.

    Caches pass ``links_refused_under`` (their root): there a link at ``target`` or at a folder
    between the root and it is refused (:func:`~.output_locations.refuse_links`, a
    :class:`~.user_errors.LinkRefusedError`) before anything is created.
    """
    target = _landing(target, links_refused_under)
    with _naming(target):
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, staging = tempfile.mkstemp(
            dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"
        )
        # only the name is kept: the caller (or the library it hands the path to) opens it again
        os.close(handle)
    try:
        with _naming(target):
            yield Path(staging)
            Path(staging).chmod(default_mode())
            os.replace(staging, target)
    finally:
        Path(staging).unlink(missing_ok=True)


@contextmanager
def _naming(target: Path) -> Iterator[None]:
    """Turn an ``OSError`` of writing ``target`` into an :class:`OutputWriteError` naming it."""
    try:
        yield
    except OutputWriteError:
        raise
    except OSError as error:
        raise OutputWriteError.of(error, target) from error


def write_text_atomically(
    target: str | Path, text: str, *, links_refused_under: str | Path | None = None
) -> Path:
    """Write UTF-8 ``text`` to ``target`` through :func:`atomic_path`."""
    with atomic_path(target, links_refused_under=links_refused_under) as staging:
        staging.write_text(text, encoding="utf-8")
    return Path(target)


_STAGING = "building"
_RETIRED = "old"
_RENAME_EXCHANGE = 2  # renameat2 flag (Linux >= 3.15)


@contextmanager
def atomic_folder(
    target: str | Path, *, links_refused_under: str | Path | None = None
) -> Iterator[Path]:
    """Yield an empty staging folder beside ``target``; on success it replaces ``target``.

    The caller writes the whole folder into the staging path. On success the staging folder
    and ``target`` are exchanged in one step where the system allows it (Linux
    ``renameat2(RENAME_EXCHANGE)``), so ``target`` is never missing, then the old copy is
    deleted. Elsewhere the old folder is first renamed aside, and a run killed between the
    two renames is repaired by the next call for the same ``target``. On any exception the
    staging folder is removed and ``target`` is left as it was; an ``OSError`` (disk full,
    permission denied) becomes an :class:`OutputWriteError` naming ``target``. Staging
    folders of runs that were killed (their process is gone) are removed by the next call.
    A ``target`` that is a symbolic link is written through to the folder it points at (the
    link stays); the current folder or one holding it is refused
    (:func:`~poetic_eval.files.output_locations.check_not_current`). Caches pass
    ``links_refused_under`` (their root), as for :func:`atomic_path`: a link is refused, not
    followed, so a planted link never gets a folder's contents deleted.
    """
    target = _landing(target, links_refused_under)
    check_not_current(target, str(target))
    with _naming(target):
        target.parent.mkdir(parents=True, exist_ok=True)
        recover_folder(target)
        # hidden, beside the target (one file system, so the final rename is atomic), named
        # with this process's id so recover_folder can tell a live run's folder from a leftover
        staging = Path(
            tempfile.mkdtemp(prefix=f".{target.name}.{_STAGING}-{os.getpid()}-", dir=target.parent)
        )
        staging.chmod(default_mode(0o777))  # mkdtemp creates it private
    try:
        with _naming(target):
            yield staging
            _swap_in(staging, target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def recover_folder(target: str | Path) -> None:
    """Repair what a killed :func:`atomic_folder` left beside ``target``.

    Restores a retired copy when ``target`` itself is missing, and deletes the staging and
    retired folders whose process no longer runs.
    """
    target = written_path(target)
    if not target.parent.is_dir():
        return
    for kind in (_RETIRED, _STAGING):
        for leftover in sorted(target.parent.glob(f".{target.name}.{kind}-*")):
            if _owner_alive(leftover.name):
                continue
            if leftover.is_symlink():  # a folder link that older versions swapped aside
                leftover.unlink()
                continue
            retired_copy = leftover / target.name
            if kind == _RETIRED and retired_copy.is_dir() and not target.exists():
                os.replace(retired_copy, target)
            shutil.rmtree(leftover, ignore_errors=True)


def _owner_alive(name: str) -> bool:
    """Whether the process whose id is in a staging/retired folder name still runs."""
    try:
        pid = int(name.rsplit(".", 1)[1].split("-")[1])
    except (IndexError, ValueError):
        return False
    # our own id: a leftover of an earlier call in this process, or of a dead process whose id
    # has been reused
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # the process exists but belongs to another user
    except PermissionError:
        return True
    return True


def _swap_in(staging: Path, target: Path) -> None:
    """Move ``staging`` to ``target``; an existing ``target`` ends up at ``staging``."""
    if not target.exists():
        os.replace(staging, target)
        return
    if _exchange(staging, target):
        return
    retired = Path(
        tempfile.mkdtemp(prefix=f".{target.name}.{_RETIRED}-{os.getpid()}-", dir=target.parent)
    )
    os.replace(target, retired / target.name)
    try:
        os.replace(staging, target)
    except BaseException:
        os.replace(retired / target.name, target)
        raise
    os.replace(retired / target.name, staging)  # deleted with the staging folder
    shutil.rmtree(retired, ignore_errors=True)


def _exchange(first: Path, second: Path) -> bool:
    """Atomically exchange two paths with Linux ``renameat2``; False where unsupported."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    # AT_FDCWD on Linux: relative paths resolve against the current folder, as os.replace does
    at_cwd = -100
    result = renameat2(at_cwd, os.fsencode(first), at_cwd, os.fsencode(second), _RENAME_EXCHANGE)
    if result == 0:
        return True
    error = ctypes.get_errno()
    # the kernel or the file system has no exchange: fall back to the two renames
    if error in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.EXDEV):
        return False
    raise OSError(error, os.strerror(error), str(second))
