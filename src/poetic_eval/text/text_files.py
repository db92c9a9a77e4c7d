"""Read the text sources people give (poems, limericks, agreement and BLM files): one way.

Every text source is read through :func:`read_text_file`: UTF-8, a byte-order mark dropped
(editors on Windows write one, and it would otherwise stick to the first record), line ends
made ``"\\n"``, and a file that is not UTF-8 refused with its name, the offending byte and
how to convert it.
"""

from __future__ import annotations

from pathlib import Path

from ..files.user_errors import UserError

BYTE_ORDER_MARK = "\ufeff"


class TextFileError(UserError, ValueError):
    """A text source that cannot be read as UTF-8 text."""


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
        what = "a folder, not a file" if path.is_dir() else "no such file"
        raise FileNotFoundError(f"{path}: {what}")
    return decode_text(path.read_bytes(), path)
