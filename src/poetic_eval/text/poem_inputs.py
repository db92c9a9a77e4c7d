"""The poems a caller passes: a checked list of non-blank texts, or a :class:`PoemCorpus`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import InvalidTypeError, InvalidValueError
from .checked_texts import CheckedTexts


def require_texts(values: Any, name: str, *, allow_empty_list: bool = False) -> list[str]:
    """Check ``values`` is a list of non-blank strings and return it as a list.

    Raises TypeError for a non-list or a non-string item, ValueError for an empty list, a
    blank string or one that is not encodable text (a lone surrogate); messages name ``name``
    and the offending index. A
    :class:`~poetic_eval.text.corpus.PoemCorpus` (checked when it was made) is returned as it
    is, so that what is derived from it is kept.
    """
    if isinstance(values, CheckedTexts):  # a PoemCorpus, checked when it was made
        return values
    if values is None:
        raise InvalidValueError(f"{name} is required (got None)")
    if isinstance(values, str):
        raise InvalidTypeError(f"{name} must be a list of strings, not a single string")
    if isinstance(values, Mapping):
        raise InvalidTypeError(
            f"{name} must be a list of strings, got {type(values).__name__}; pass "
            f"list({name}.values()) for the texts"
        )
    if not isinstance(values, Sequence):
        try:
            values = list(values)
        except TypeError:
            raise InvalidTypeError(
                f"{name} must be a list of strings, got {type(values).__name__}"
            ) from None
    values = list(values)
    if not values and not allow_empty_list:
        raise InvalidValueError(f"{name} is empty: at least one text is needed")
    if set(map(type, values)) <= {str} and all(map(str.strip, values)) and _encodable(values):
        return values  # the common case, checked in C; the loop below names what fails
    for index, value in enumerate(values):
        if not isinstance(value, str):
            raise InvalidTypeError(
                f"{name}[{index}] must be a string, got {type(value).__name__}: {value!r:.60}"
            )
        if not value.strip():
            raise InvalidValueError(f"{name}[{index}] is empty or only whitespace")
        require_encodable(value, f"{name}[{index}]")
    return values


def _encodable(texts: list[str]) -> bool:
    """Whether every text is valid Unicode (one pass in C over all of them)."""
    try:
        "".join(texts).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def require_encodable(text: str, where: str) -> None:
    """Refuse a string holding a lone surrogate (U+D800-U+DFFF alone): not text, but bytes
    decoded with ``errors="surrogateescape"`` or a broken UTF-16 pair. Tokenizers and Arrow
    would fail on it with an error that names no row; this names ``where``."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        code = ord(text[error.start])
        raise InvalidValueError(
            f"{where} holds a lone surrogate (U+{code:04X} at character {error.start}), which "
            "is not text (half a UTF-16 pair, a JSON \\udcxx escape, or bytes decoded with "
            "errors='surrogateescape'); fix or drop that row"
        ) from None
