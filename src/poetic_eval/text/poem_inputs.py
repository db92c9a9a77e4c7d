"""The poems a caller passes: a checked list of non-blank texts, or a :class:`PoemCorpus`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .checked_texts import CheckedTexts


def require_texts(values: Any, name: str, *, allow_empty_list: bool = False) -> list[str]:
    """Check ``values`` is a list of non-blank strings and return it as a list.

    Raises TypeError for a non-list or a non-string item, ValueError for an empty list or a
    blank string; messages name ``name`` and the offending index. A
    :class:`~poetic_eval.text.corpus.PoemCorpus` (checked when it was made) is returned as it
    is, so that what is derived from it is kept.
    """
    if isinstance(values, CheckedTexts):  # a PoemCorpus, checked when it was made
        return values
    if values is None:
        raise ValueError(f"{name} is required (got None)")
    if isinstance(values, str):
        raise TypeError(f"{name} must be a list of strings, not a single string")
    if isinstance(values, Mapping):
        raise TypeError(
            f"{name} must be a list of strings, got {type(values).__name__}; pass "
            f"list({name}.values()) for the texts"
        )
    if not isinstance(values, Sequence):
        try:
            values = list(values)
        except TypeError:
            raise TypeError(
                f"{name} must be a list of strings, got {type(values).__name__}"
            ) from None
    values = list(values)
    if not values and not allow_empty_list:
        raise ValueError(f"{name} is empty: at least one text is needed")
    if set(map(type, values)) <= {str} and all(map(str.strip, values)):
        return values  # the common case, checked in C; the loop below names what fails
    for index, value in enumerate(values):
        if not isinstance(value, str):
            raise TypeError(
                f"{name}[{index}] must be a string, got {type(value).__name__}: {value!r:.60}"
            )
        if not value.strip():
            raise ValueError(f"{name}[{index}] is empty or only whitespace")
    return values
