"""Pronunciation, rhyme between words, and rhyme schemes of poems (offline, CMUdict-based)."""

from .pronunciation import (
    in_dictionary,
    known_pronunciations,
    normalize_word,
    pronounce_by_analogy,
    pronunciations,
    stress_pattern,
    syllable_count,
)
from .schemes import (
    QUATRAIN_SCHEMES,
    SCHEME_LETTERS,
    end_words,
    is_repetition,
    rhyme_scheme,
    scheme_letter,
    scheme_of_words,
)
from .word_rhymes import (
    final_syllables,
    rhyme_part,
    rhyme_part_of_phones,
    rhyme_parts,
    rhymes,
    same_word,
    spelling_rhyme,
    stressed_pronunciations,
)

__all__ = [
    "QUATRAIN_SCHEMES",
    "SCHEME_LETTERS",
    "end_words",
    "final_syllables",
    "in_dictionary",
    "is_repetition",
    "known_pronunciations",
    "normalize_word",
    "pronounce_by_analogy",
    "pronunciations",
    "rhyme_part",
    "rhyme_part_of_phones",
    "rhyme_parts",
    "rhyme_scheme",
    "rhymes",
    "same_word",
    "scheme_letter",
    "scheme_of_words",
    "spelling_rhyme",
    "stress_pattern",
    "stressed_pronunciations",
    "syllable_count",
]
