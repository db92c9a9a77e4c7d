"""One poem as the analyzers see it (the Erato input convention).

The text is split on "\\n" and every line is stripped; blank lines separate stanzas. The
analyzers work on the non-empty lines (:func:`poetic_eval.text.lines`) and the stanzas
(:func:`poetic_eval.text.stanzas`); :attr:`Poem.raw_lines` keeps the blank lines as ``""``
for the options that reproduce the reference code, which passes them on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

from ..errors import InvalidTypeError, InvalidValueError
from ..text import lines as non_empty_lines
from ..text import stanzas as text_stanzas

# Anything but a letter or an apostrophe separates words: hyphens and dashes too, so
# "real-time" is two known words rather than one unknown "realtime" (the reference deletes
# the hyphen); digits are not spelled out and have no syllables.
_NOT_WORD = re.compile(r"[^\w'\u2019\u02bc]|[\d_]")


def line_words(line: str) -> list[str]:
    """Lower-cased words of a line: letters and inner apostrophes; other characters split."""
    return [
        word for word in _NOT_WORD.sub(" ", line.lower()).split() if any(map(str.isalpha, word))
    ]


@dataclass(frozen=True)
class Poem:
    """A poem's text, with a name (file path or index) used in error messages."""

    text: str
    name: str = field(default="poem")

    def __post_init__(self) -> None:
        if not isinstance(self.text, str):
            raise InvalidTypeError(
                f"{self.name}: a poem must be a string, got {type(self.text).__name__}"
            )

    @cached_property
    def raw_lines(self) -> tuple[str, ...]:
        """Stripped lines with blank lines kept as "" (leading and trailing blanks dropped)."""
        return tuple(line.strip() for line in self.text.replace("\r\n", "\n").strip().split("\n"))

    @cached_property
    def lines(self) -> tuple[str, ...]:
        """The non-empty lines, stripped."""
        return tuple(non_empty_lines(self.text))

    @cached_property
    def stanzas(self) -> tuple[tuple[str, ...], ...]:
        """Blocks of non-empty lines separated by blank lines."""
        return tuple(tuple(stanza) for stanza in text_stanzas(self.text))

    def require_lines(self) -> Poem:
        """Self, or a ValueError naming the poem when it has no non-empty line."""
        if not self.lines:
            raise InvalidValueError(f"{self.name}: the poem is empty or only blank lines")
        return self


def as_poem(poem: str | Poem, name: str = "poem") -> Poem:
    """``poem`` as a checked :class:`Poem` (a string is wrapped and named ``name``)."""
    parsed = poem if isinstance(poem, Poem) else Poem(poem, name)
    return parsed.require_lines()
