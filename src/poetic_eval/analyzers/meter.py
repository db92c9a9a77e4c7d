"""Syllables and stresses per line (poetic aspect), in English or German (``language``).

Words are the lower-cased letter runs of a line (inner apostrophes kept; hyphens, dashes,
digits and other punctuation separate words: see :func:`~poetic_eval.analyzers.poem.line_words`).

- **Syllables** of a word are the vowels (stress digits) of its first pronunciation in CMUdict,
  or of the pronunciation the project's spelling and inflection rules build from a CMUdict
  stem ("lov'd", "heav'n", "singeth"; :func:`poetic_eval.rhyme.syllable_count`). Any
  other word is syllabified from its spelling by
  :func:`poetic_eval.rhyme.pronunciation.estimate_syllables`: vowel-letter groups, less a silent
  final "e" / "-es" / "-ed", keeping "-le", "-re", "-ted"/"-ded" and "-ces"/"-ges"-type
  endings, counting hiatus pairs ("quiet", "radio", "going") twice and a silent "e" before
  "-ly"/"-ful"/"-ment"/"-ness"/"-less"/"-some" not at all. The reference code counts the
  letters a, e, i, o, u instead. Held-out accuracy of both against CMUdict is measured in
  tests/analyzers/test_analyzers_meter.py and quoted in docs/adding_an_analyzer.md and the
  poem_analysis card.
- **Stress** of a known word maps CMUdict's stress digits to marks: 0 -> "-", 1 or 2 -> "+".
  An unknown word gets one ``unknown_stress`` mark (default "?") per estimated syllable, so a
  line's stress pattern always has as many marks as it has syllables (the reference writes a
  single "-" for an unknown word whatever its length).
- **German** (``language="de"``): every word's syllables and stresses come from its spelling
  (:func:`poetic_eval.rhyme.syllable_count` and :func:`poetic_eval.rhyme.stress_pattern` with
  ``language="de"``: one syllable per vowel or diphthong, the stem's first syllable stressed
  and the unstressed prefixes and schwa endings not); no word is unknown, since the rules read
  any spelling (a word without a vowel letter has no syllable).
"""

from __future__ import annotations

import math
from typing import Any

from ..errors import InvalidValueError
from ..rhyme import stress_pattern, syllable_count
from ..rhyme.pronunciation import estimate_syllables
from ..text import resolve_language
from .analyzer import Analyzer
from .poem import Poem, line_words

_MARKS = str.maketrans({"0": "-", "1": "+", "2": "+"})


def line_syllables(line: str, language: str = "en") -> int:
    """Syllables of one line (module docstring)."""
    return sum(syllable_count(word, language=language) for word in line_words(line))


def syllables_per_line(poem: Poem, language: str = "en") -> list[int]:
    """Syllables of each non-empty line, in order, by the rules of ``language``."""
    language = resolve_language(language)
    return [line_syllables(line, language) for line in poem.lines]


def word_stress(word: str, unknown_stress: str = "?", language: str = "en") -> str:
    """Stress marks of one word: "+" stressed, "-" unstressed; ``unknown_stress`` per
    estimated syllable of an English word without a known pronunciation."""
    digits = stress_pattern(word, language=language)
    if digits is None:
        # German: a word without a vowel letter (no syllable); English: unknown to CMUdict
        return "" if language == "de" else unknown_stress * estimate_syllables(word)
    return digits.translate(_MARKS)


def line_stress(line: str, unknown_stress: str = "?", language: str = "en") -> str:
    """Stress pattern of one line, e.g. "-+-+-+-+-+" for a regular iambic pentameter."""
    return "".join(word_stress(word, unknown_stress, language) for word in line_words(line))


def stress_per_line(poem: Poem, unknown_stress: str = "?", language: str = "en") -> list[str]:
    """Stress pattern of each non-empty line, in order, by the rules of ``language``."""
    if not isinstance(unknown_stress, str) or len(unknown_stress) != 1:
        raise InvalidValueError(f"unknown_stress must be one character, got {unknown_stress!r}")
    language = resolve_language(language)
    return [line_stress(line, unknown_stress, language) for line in poem.lines]


def stress_distance(value: Any, target: Any, wildcard: str = "?") -> float:
    """Edit distance (insertions, deletions, substitutions) of two stress patterns, where
    ``wildcard`` in either matches any mark."""
    if not isinstance(value, str) or not isinstance(target, str):
        return math.inf
    previous = list(range(len(target) + 1))
    for i, mark in enumerate(value, start=1):
        current = [i]
        for j, expected in enumerate(target, start=1):
            same = mark == expected or wildcard in (mark, expected)
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (not same)))
        previous = current
    return float(previous[-1])


def mean_stress_distance(value: Any, target: Any) -> float:
    """Mean per-line :func:`stress_distance` of two equally long lists of patterns."""
    if not isinstance(value, list) or not isinstance(target, (list, tuple)):
        return math.inf
    if len(value) != len(target):
        return math.inf
    return sum(map(stress_distance, value, target)) / len(value) if value else 0.0


def mean_absolute_error(value: Any, target: Any) -> float:
    """Mean absolute difference of two equally long lists of numbers."""
    if not isinstance(value, list) or not isinstance(target, (list, tuple)):
        return math.inf
    if len(value) != len(target):
        return math.inf
    return sum(abs(a - b) for a, b in zip(value, target)) / len(value) if value else 0.0


SYLLABLES_PER_LINE = Analyzer(
    name="syllables_per_line",
    kind="single",
    aspect="poetic",
    analyze=syllables_per_line,
    description="syllables of each line (CMUdict, else a spelling syllabifier; German: spelling)",
    options=("language",),
    measure=mean_absolute_error,
    score_name="mae",
)

STRESS_PER_LINE = Analyzer(
    name="stress_per_line",
    kind="single",
    aspect="poetic",
    analyze=stress_per_line,
    description='stress pattern of each line ("+" stressed, "-" unstressed, "?" unknown)',
    options=("unknown_stress", "language"),
    measure=mean_stress_distance,
    element=stress_distance,
    score_name="mean_edit_distance",
)
