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


# byte-order marks of the encodings a "save as Unicode" writes (UTF-32 first: its LE mark
# begins with UTF-16's)
_WIDE_MARKS = (
    (b"\xff\xfe\x00\x00", "utf-32"),
    (b"\x00\x00\xfe\xff", "utf-32"),
    (b"\xff\xfe", "utf-16"),
    (b"\xfe\xff", "utf-16"),
)


def wide_encoding(data: bytes) -> str | None:
    """``"utf-16"`` or ``"utf-32"`` when ``data`` starts with their byte-order mark, or is
    UTF-16 without one (NUL in every other byte of its first 200, as ASCII text in UTF-16
    is); None otherwise."""
    for mark, name in _WIDE_MARKS:
        if data.startswith(mark):
            return name
    head = data[:200]
    if len(head) >= 4 and (
        head[1::2].count(0) > 0.8 * len(head[1::2]) or head[0::2].count(0) > 0.8 * len(head[0::2])
    ):
        return "utf-16"
    return None


def conversion_hint(data: bytes) -> str:
    """How to convert a file that is not UTF-8: from UTF-16/32 when it is one of those (by
    :func:`wide_encoding`), else from Latin-1, the usual other encoding of older text files."""
    wide = wide_encoding(data)
    if wide is not None:
        return f"it is {wide.upper()} text: convert it, e.g. iconv -f {wide} -t utf-8 OLD > NEW"
    return "convert the file to UTF-8, e.g. iconv -f latin1 -t utf-8 OLD > NEW"


def decode_text(data: bytes, where: str | Path) -> str:
    """``data`` as UTF-8 text without a byte-order mark, line ends made ``"\\n"``."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise TextFileError(
            f"{where}: not UTF-8 text (byte 0x{data[error.start]:02x} at offset {error.start}); "
            + conversion_hint(data)
        ) from None
    if "\x00" in text and wide_encoding(data) is not None:  # ASCII-only UTF-16 decodes
        raise TextFileError(f"{where}: not UTF-8 text; " + conversion_hint(data))
    return text.replace("\r\n", "\n").replace("\r", "\n")


def read_text_file(path: str | Path) -> str:
    """The text of a UTF-8 file (see the module docstring); errors name the file."""
    path = Path(path)
    if not path.is_file():
        refuse_special_file(path, "file")
        raise FileNotFoundError(f"{path}: no such file")
    return decode_text(path.read_bytes(), path)
