"""The languages poems can be in: each reads sound and words by its own rules (rhyme, syllables,
tokens, the semantic encoder), and every cache of something derived from poems keys on it."""

from __future__ import annotations

from ..checks.names import require_choice
from ..errors import InvalidTypeError

#: ISO 639-1 codes of the languages the package reads, the default first.
LANGUAGES: tuple[str, ...] = ("en", "de")
DEFAULT_LANGUAGE = "en"
LANGUAGE_NAMES = {"en": "English", "de": "German"}


def resolve_language(language: str | None) -> str:
    """``language`` checked against :data:`LANGUAGES` (``None`` is the default, English).

    An unknown code raises ValueError with the choices and a "did you mean".
    """
    if language is None:
        return DEFAULT_LANGUAGE
    if not isinstance(language, str):
        raise InvalidTypeError(f"language must be a string such as 'en' or 'de', not {language!r}")
    return require_choice(language.strip().lower(), LANGUAGES, "language")
