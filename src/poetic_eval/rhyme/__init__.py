"""Pronunciation, rhyme between words, and rhyme schemes of poems, offline, in English
(CMUdict-based) and German (spelling rules); every entry point takes ``language="en"|"de"``.

By default rhyme is judged by a model learned from poems without labels (graded pair scores and
joint scheme inference, :mod:`poetic_eval.rhyme.methods`); ``method="perfect"`` gives perfect
rhyme and its widened options.
"""

from .german_rhymes import german_perfect_rhymes
from .german_sounds import german_pronunciation
from .methods import DEFAULT_METHOD, METHODS, resolve_method, rhymes
from .pair_model import RhymeModel, default_model, load_model, may_rhyme, rhyme_score
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
    perfect_scheme_of_words,
    rhyme_scheme,
    rhyme_schemes,
    scheme_letter,
    scheme_of_words,
    schemes_of_words,
)
from .word_rhymes import (
    final_syllables,
    perfect_rhymes,
    rhyme_part,
    rhyme_part_of_phones,
    rhyme_parts,
    same_word,
    spelling_rhyme,
    stressed_pronunciations,
)

__all__ = [
    "DEFAULT_METHOD",
    "METHODS",
    "QUATRAIN_SCHEMES",
    "SCHEME_LETTERS",
    "RhymeModel",
    "default_model",
    "end_words",
    "final_syllables",
    "german_perfect_rhymes",
    "german_pronunciation",
    "in_dictionary",
    "is_repetition",
    "known_pronunciations",
    "load_model",
    "may_rhyme",
    "normalize_word",
    "perfect_rhymes",
    "perfect_scheme_of_words",
    "pronounce_by_analogy",
    "pronunciations",
    "resolve_method",
    "rhyme_part",
    "rhyme_part_of_phones",
    "rhyme_parts",
    "rhyme_scheme",
    "rhyme_schemes",
    "rhyme_score",
    "rhymes",
    "same_word",
    "scheme_letter",
    "scheme_of_words",
    "schemes_of_words",
    "spelling_rhyme",
    "stress_pattern",
    "stressed_pronunciations",
    "syllable_count",
]
