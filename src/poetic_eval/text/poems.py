"""Poem text shared by every metric: lines, stanzas, tokens, lengths and line-final words.

Convention: a poem is a ``str`` whose lines are separated by ``"\\n"``; blank lines separate
stanzas. Tokens are whitespace-separated; "punctuation" is every Unicode character whose
category starts with ``P`` (so curly quotes and dashes count), plus ASCII symbols.
"""

from __future__ import annotations

import functools
import re
import string
import sys
import unicodedata
from collections.abc import Sequence

from ..checks.validation import typed_options


@functools.cache
def _punctuation_table() -> dict[int, None]:
    """Deletes every punctuation character; built on first use (a pass over all of Unicode,
    which would cost every import of the package a few tenths of a second)."""
    punctuation = "".join(
        chr(i) for i in range(sys.maxunicode + 1) if unicodedata.category(chr(i)).startswith("P")
    )
    return str.maketrans("", "", punctuation + string.punctuation)


#: The ASCII characters deleted (every ASCII one of category P* is in string.punctuation).
_ASCII_PUNCTUATION = string.punctuation.encode("ascii")

#: One or more blank lines: what separates stanzas (and poems in a text file).
BLANK_LINE = re.compile(r"\n[ \t]*\n+")


def lines(poem: str) -> list[str]:
    """Non-empty lines of a poem, stripped of surrounding whitespace."""
    return [line for line in map(str.strip, poem.split("\n")) if line]


def stanzas(poem: str) -> list[list[str]]:
    """Stanzas of a poem: blocks of non-empty lines separated by blank lines."""
    blocks = BLANK_LINE.split(poem.replace("\r\n", "\n").strip())
    return [lines(block) for block in blocks if lines(block)]


def without_punctuation(text: str) -> str:
    """Delete every punctuation character (Unicode category P*, plus ASCII symbols)."""
    if text.isascii():  # the same deletion on bytes: several times faster than str.translate
        return text.encode("ascii").translate(None, _ASCII_PUNCTUATION).decode("ascii")
    return text.translate(_punctuation_table())


@typed_options
def tokens(text: str, *, lowercase: bool = False, remove_punctuation: bool = False) -> list[str]:
    """Whitespace tokens of ``text``, optionally lowercased and with punctuation deleted.

    Punctuation is deleted before splitting, so "don't" -> "dont" and a lone "—" vanishes.
    """
    if lowercase:
        text = text.lower()
    if remove_punctuation:
        text = without_punctuation(text)
    return text.split()


@typed_options
def length(poem: str, *, remove_punctuation: bool = True) -> int:
    """Number of whitespace tokens of a poem (the paper removes punctuation first)."""
    return len(tokens(poem, remove_punctuation=remove_punctuation))


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
