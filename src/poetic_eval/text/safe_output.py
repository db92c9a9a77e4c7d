"""Text from data or servers made safe where it is shown: a terminal, a spreadsheet.

A dataset's ``category``, a file name, or the body of a server's error reply can hold terminal
control sequences (``ESC [ 2 J`` clears the screen, ``ESC ] 8`` plants a link, a carriage return
overwrites the line before it, U+202E reverses what follows); :func:`printable` escapes them
before a line is printed. A text cell that begins with ``=``, ``+``, ``-`` or ``@`` (or a tab
or carriage return) is run as a formula by spreadsheet programs (CSV injection);
:func:`spreadsheet_cell` quotes it as the OWASP recommends.
"""

from __future__ import annotations

import re
from typing import Any

# C0 and C1 control characters and DEL, and the bidirectional overrides and isolates
# ("Trojan Source", CVE-2021-42574), which reorder what a terminal shows
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _escaped(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: Any) -> str:
    """``str(text)`` with every control character written as an escape (``\\x1b``,
    ``\\u202e``): what a terminal shows is what the data holds. Newlines are escaped too: one
    value stays on one line."""
    text = str(text)
    return _CONTROL.sub(_escaped, text) if _CONTROL.search(text) else text


#: What makes a spreadsheet cell a formula (OWASP, "CSV Injection"): = + - @, tab, CR.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_cell(value: Any) -> Any:
    """``value``, with a string that begins like a formula (:data:`FORMULA_STARTS`) prefixed by
    a single quote, so that spreadsheets show it as text; the CSV writer then quotes the cell
    if it needs to (OWASP: prepend ``'`` and quote the field). Numbers and other values are
    returned as they are (a negative score stays a number)."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value
