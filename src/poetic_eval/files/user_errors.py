"""Errors in what the user gave or asked for, as the command lines report them: one line.

:class:`UserError` marks an error whose message already says what is wrong and what to do
(naming the argument or file). The command lines treat :data:`USER_ERRORS` as the user's:
besides :class:`UserError`, the library's own checks raise ``ValueError`` (a bad value) and
``TypeError`` (a bad type), and ``OSError`` is the file system's answer about the user's
files (missing, unreadable, a full disk). Anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

from pathlib import Path


class UserError(Exception):
    """Something the user gave or asked for is wrong; the message names it and what to do."""


class OutputLocationError(UserError, ValueError):
    """An output path that cannot be written (checked before the work starts)."""


class OutputWriteError(UserError, OSError):
    """Writing an output file failed (disk full, permission denied, ...); names the file."""

    @classmethod
    def of(cls, error: OSError, target: str | Path) -> OutputWriteError:
        """The error for ``error`` raised while writing ``target``."""
        reason = error.strerror or str(error)
        what = "disk full: free some space or choose another location" if _is_full(error) else ""
        wrapped = cls(f"could not write {target}: {reason}" + (f" ({what})" if what else ""))
        wrapped.errno = error.errno
        return wrapped


class LinkRefusedError(UserError, OSError):
    """A cache path is a symbolic link poetic-eval did not make: it is neither followed nor
    replaced, so whatever it points at stays untouched."""


class ModelNotFoundError(UserError, FileNotFoundError):
    """A model name or path that names no model that can be loaded here."""


class DeviceError(UserError, ValueError):
    """A torch device that this machine (or this torch build) does not have."""


#: What the command lines report in one line, without a traceback (see the module docstring).
USER_ERRORS: tuple[type[BaseException], ...] = (UserError, ValueError, TypeError, OSError)


def describe_error(error: BaseException) -> str:
    """One line for a user error: the message, or for a bare ``OSError`` its reason and file."""
    if isinstance(error, OSError) and not isinstance(error, UserError) and error.strerror:
        where = error.filename
        text = f"{error.strerror}: {where}" if where else error.strerror
    else:
        text = str(error) or type(error).__name__
    return " ".join(text.split()) if "\n" in text else text


def _is_full(error: OSError) -> bool:
    import errno

    return error.errno in (errno.ENOSPC, errno.EDQUOT)
