"""Type/token ratio of a poem and of a whole collection (lexico-semantic aspect).

Tokens are the project's (:func:`poetic_eval.text.tokens`): whitespace tokens, lower-cased
and with punctuation deleted by default, so "Night," and "night" are one type. The
reference tokenizes with nltk, keeps case, and leaves punctuation tokens out of the types but
not out of the token count. The collection ratio pools every poem's tokens (the paper's
per-source figures: 0.130 GPT-3, 0.257 PoeTryMe, 0.237 human poems). German poems
(``language="de"``) are tokenized by the German rules of
:mod:`poetic_eval.diversity.word_tokens` (umlauts normalized, "ß" kept, dashes split words).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..diversity import ttr, word_tokens
from .analyzer import Analyzer
from .poem import Poem


def type_token_ratio(
    poem: Poem, lowercase: bool = True, remove_punctuation: bool = True, language: str = "en"
) -> float | None:
    """Distinct tokens / tokens of one poem (None when it has no token)."""
    options = {"lowercase": lowercase, "remove_punctuation": remove_punctuation}
    found = word_tokens(poem.text, language=language, **options)
    return ttr(found) if found else None


def collection_type_token_ratio(
    poems: Sequence[Poem],
    lowercase: bool = True,
    remove_punctuation: bool = True,
    language: str = "en",
) -> float | None:
    """Distinct tokens / tokens of all poems together (None when there is no token)."""
    options = {"lowercase": lowercase, "remove_punctuation": remove_punctuation}
    found = [t for poem in poems for t in word_tokens(poem.text, language=language, **options)]
    return ttr(found) if found else None


TYPE_TOKEN_RATIO = Analyzer(
    name="type_token_ratio",
    kind="single",
    aspect="lexico-semantic",
    analyze=type_token_ratio,
    description="distinct words / words",
    options=("lowercase", "remove_punctuation", "language"),
)

COLLECTION_TYPE_TOKEN_RATIO = Analyzer(
    name="collection_type_token_ratio",
    kind="collection",
    aspect="lexico-semantic",
    analyze=collection_type_token_ratio,
    description="distinct words / words over all poems together",
    options=("lowercase", "remove_punctuation", "language"),
)
