"""Poem text shared by every metric: lines, stanzas, tokens, lengths and line-final words.

Convention: a poem is a ``str`` whose lines are separated by ``"\\n"``; blank lines separate
stanzas. Tokens are whitespace-separated; "punctuation" is every Unicode character whose
category starts with ``P`` (so curly quotes and dashes count), plus ASCII symbols.
"""

from __future__ import annotations

import re
import string
import sys
import unicodedata
from collections.abc import Sequence

from .validation import typed_options

_PUNCTUATION = (
    "".join(
        chr(i) for i in range(sys.maxunicode + 1) if unicodedata.category(chr(i)).startswith("P")
    )
    + string.punctuation
)
_PUNCTUATION_TABLE = str.maketrans("", "", _PUNCTUATION)
_ASCII_PUNCTUATION = bytes(sorted({ord(c) for c in _PUNCTUATION if ord(c) < 128}))
#: One or more blank lines: what separates stanzas (and poems in a text file).
BLANK_LINE = re.compile(r"\n[ \t]*\n+")


def lines(poem: str) -> list[str]:
    """Non-empty lines of a poem, stripped of surrounding whitespace."""
    return [line.strip() for line in poem.split("\n") if line.strip()]


def stanzas(poem: str) -> list[list[str]]:
    """Stanzas of a poem: blocks of non-empty lines separated by blank lines."""
    blocks = BLANK_LINE.split(poem.replace("\r\n", "\n").strip())
    return [lines(block) for block in blocks if lines(block)]


def remove_punctuation(text: str) -> str:
    """Delete every punctuation character (Unicode category P*, plus ASCII symbols)."""
    if text.isascii():  # the same deletion on bytes: several times faster than str.translate
        return text.encode("ascii").translate(None, _ASCII_PUNCTUATION).decode("ascii")
    return text.translate(_PUNCTUATION_TABLE)


@typed_options
def tokens(text: str, *, lowercase: bool = False, strip_punctuation: bool = False) -> list[str]:
    """Whitespace tokens of ``text``, optionally lowercased and with punctuation deleted.

    Punctuation is deleted before splitting, so "don't" -> "dont" and a lone "—" vanishes.
    """
    if lowercase:
        text = text.lower()
    if strip_punctuation:
        text = remove_punctuation(text)
    return text.split()


@typed_options
def length(poem: str, *, strip_punctuation: bool = True) -> int:
    """Number of whitespace tokens of a poem (the paper removes punctuation first)."""
    return len(tokens(poem, strip_punctuation=strip_punctuation))


# a word keeps its inner apostrophes and hyphens ("pow'r", "lov'd", "marriage-hearse")
_WORD = re.compile(r"\w+(?:['\u2019\u02bc-]\w+)*")


def final_word(line: str) -> str:
    """The last word of a line without surrounding punctuation ("" when none).

    Inner apostrophes and hyphens are kept, since they carry the pronunciation ("pow'r",
    "lov'd", "marriage-hearse"); dashes and other punctuation separate words.
    """
    found = _WORD.findall(line)
    return found[-1] if found else ""


def common_prefix_length(left: Sequence, right: Sequence) -> int:
    """How many leading items two sequences share: characters of two strings (reversed
    spellings share an ending), or token ids of two encoded texts (a shared prefix)."""
    length = 0
    for a, b in zip(left, right):
        if a != b:
            break
        length += 1
    return length
