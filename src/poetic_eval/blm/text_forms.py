"""The two text forms of BLM sentences: natural Italian and the BLM-It release's tokenised form.

The release writes its sentences tokenised: a space before punctuation and an elided word
written apart from the next (``"L' avvocato del paese è partito ."``). A language model scores
the two forms differently, so numbers measured on one are not comparable with the other:
:func:`to_text_form` writes a natural sentence in either form.
"""

from __future__ import annotations

import re

from ..errors import InvalidValueError

TEXT_FORMATS = ("natural", "release")
_ELISION = re.compile(r"(\w')(?=\w)")
_PUNCTUATION = re.compile(r"(?<=\S)([.,;:!?…])")


def release_form(text: str) -> str:
    """``"L'amica dell'avvocato è partita."`` -> ``"L' amica dell' avvocato è partita ."``"""
    return _PUNCTUATION.sub(r" \1", _ELISION.sub(r"\1 ", text))


def to_text_form(text: str, text_format: str) -> str:
    """``text`` (natural Italian) in ``text_format`` (one of :data:`TEXT_FORMATS`)."""
    if text_format == "natural":
        return text
    if text_format == "release":
        return release_form(text)
    raise InvalidValueError(f"text_format must be one of {TEXT_FORMATS}, got {text_format!r}")
