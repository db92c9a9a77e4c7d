"""Perfect and widened rhyme of two German words, from their spelling-based pronunciations.

The German side of ``method="perfect"`` (:func:`poetic_eval.rhyme.rhymes`): two different words
rhyme when their rhyme parts, from the last stressed vowel to the end
(:func:`poetic_eval.rhyme.word_rhymes.rhyme_part_of_phones` of
:func:`poetic_eval.rhyme.german_sounds.german_pronunciation`), are equal. Umlauts already rhyme
with their unrounded vowels there ("Glück" / "Blick"), and final devoicing makes "Rad" / "Rat"
perfect. ``weak`` also accepts the last syllables' match with one of them unstressed
("säuberlich" / "dich"); ``near`` accepts a vowel of the other length, or "eu" for "ei",
before the same consonants ("Wahn" / "an", "Leiden" / "Freuden"). ``historical`` has no German
rule.
"""

from __future__ import annotations

from functools import lru_cache

from ..checks import typed_options
from .german_sounds import german_pronunciation, normalize_german
from .word_rhymes import rhyme_part_of_phones

#: Vowels German poets rhyme across length or diphthong: short/long pairs and eu ~ ei.
_NEAR_VOWELS = {"AE": "AA", "EH": "EY", "IH": "IY", "AO": "OW", "UH": "UW", "OY": "AY"}


@lru_cache(maxsize=200_000)
def german_rhyme_part(word: str) -> tuple[str, ...] | None:
    """Rhyme part of a German word ("Stunde" -> ("UH", "N", "D", "AH")); None without a vowel."""
    phones = german_pronunciation(word)
    return rhyme_part_of_phones(phones) if phones else None


@lru_cache(maxsize=200_000)
def german_final_syllable(word: str) -> tuple[str, tuple[str, ...], bool] | None:
    """(last vowel, consonants after it, stressed?) of a German word; None without a vowel."""
    sequence = german_pronunciation(word).split()
    vowels = [i for i, phone in enumerate(sequence) if phone[-1] in "012"]
    if not vowels:
        return None
    last = sequence[vowels[-1]]
    return last[:-1], tuple(sequence[vowels[-1] + 1 :]), last[-1] in "12"


@typed_options
def german_perfect_rhymes(a: str, b: str, *, weak: bool = False, near: bool = False) -> bool:
    """Whether two different German words rhyme (module docstring)."""
    word_a, word_b = normalize_german(a), normalize_german(b)
    if not word_a or not word_b or word_a == word_b:
        return False
    part_a, part_b = german_rhyme_part(word_a), german_rhyme_part(word_b)
    if part_a is None or part_b is None:
        return False
    if part_a == part_b:
        return True
    if near and part_a[1:] == part_b[1:]:
        first_a, first_b = (_NEAR_VOWELS.get(p, p) for p in (part_a[0], part_b[0]))
        if first_a == first_b:
            return True
    if weak:
        final_a, final_b = german_final_syllable(word_a), german_final_syllable(word_b)
        if final_a and final_b and not (final_a[2] and final_b[2]):
            return final_a[:2] == final_b[:2]
    return False
