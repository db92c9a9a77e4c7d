"""Read the text sources people give (poems, limericks, agreement and BLM files): one way.

Every text source is read through :func:`read_text_file`: UTF-8, a byte-order mark dropped
(editors on Windows write one, and it would otherwise stick to the first record), line ends
made ``"\\n"``, and a file that is not UTF-8 refused with its name, the offending byte and
how to convert it.
"""

from __future__ import annotations

import stat
from pathlib import Path

from ..errors import NotARegularFileError, TextFileError

BYTE_ORDER_MARK = "\ufeff"


_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def refuse_special_file(path: str | Path, what: str = "source") -> None:
    """Raise :class:`NotARegularFileError` when ``path`` exists but is not a regular file
    (reading a FIFO would wait for a writer, ``/dev/zero`` would never end); nothing when it
    is a regular file or does not exist (the caller says "no such file")."""
    try:
        mode = Path(path).stat().st_mode
    except OSError:
        return
    if stat.S_ISREG(mode):
        return
    kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
    raise NotARegularFileError(f"{what} {path} is {kind}, not a regular file; give a file")


def decode_text(data: bytes, where: str | Path) -> str:
    """``data`` as UTF-8 text without a byte-order mark, line ends made ``"\\n"``."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise TextFileError(
            f"{where}: not UTF-8 text (byte 0x{data[error.start]:02x} at offset {error.start}); "
            "convert the file to UTF-8, e.g. iconv -f latin1 -t utf-8 OLD > NEW"
        ) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def read_text_file(path: str | Path) -> str:
    """The text of a UTF-8 file (see the module docstring); errors name the file."""
    path = Path(path)
    if not path.is_file():
        refuse_special_file(path, "file")
        raise FileNotFoundError(f"{path}: no such file")
    return decode_text(path.read_bytes(), path)
