"""Which errors the command lines report in one line, and that line.

The classes live in :mod:`poetic_eval.errors` (re-imported here, where callers have always
found them). :data:`USER_ERRORS` is what a command reports without a traceback: the package's
:class:`~poetic_eval.errors.UserError` (whose message already names the argument or file and
what to do) and ``OSError``, the file system's answer about the user's files (missing,
unreadable, a full disk). Any other exception, a plain ``ValueError`` or ``TypeError`` raised
inside the code included, is a bug and keeps its traceback.
"""

from __future__ import annotations

from ..errors import (
    DeviceError,
    InvalidTypeError,
    InvalidValueError,
    LinkRefusedError,
    ModelNotFoundError,
    OutputLocationError,
    OutputWriteError,
    PoeticEvalError,
    UserError,
)

__all__ = [
    "USER_ERRORS",
    "DeviceError",
    "InvalidTypeError",
    "InvalidValueError",
    "LinkRefusedError",
    "ModelNotFoundError",
    "OutputLocationError",
    "OutputWriteError",
    "PoeticEvalError",
    "UserError",
    "describe_error",
]

#: What the command lines report in one line, without a traceback (see the module docstring).
USER_ERRORS: tuple[type[BaseException], ...] = (UserError, OSError)


def describe_error(error: BaseException) -> str:
    """One line for a user error: the message, or for a bare ``OSError`` its reason and file."""
    if isinstance(error, OSError) and not isinstance(error, UserError) and error.strerror:
        where = error.filename
        text = f"{error.strerror}: {where}" if where else error.strerror
    else:
        text = str(error) or type(error).__name__
    return " ".join(text.split()) if "\n" in text else text
