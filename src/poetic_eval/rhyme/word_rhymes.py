"""Rhyme between two words, offline: perfect rhyme by default, wider rhymes as options.

- **Rhyme part** of a pronunciation: its phones from the last stressed vowel (stress 1 or 2) to
  the end; a pronunciation without a stressed vowel (CMUdict's unstressed function words such as
  "the", "a") uses its last vowel. Stress digits are dropped from the rhyme part: by construction
  its first vowel is the stressed one, and primary vs secondary stress does not break a rhyme
  ("night" / "eremite").
- **Rhyme**: two *different* words rhyme when ANY pronunciation of one and ANY pronunciation of
  the other have the same rhyme part ("wind" rhymes with both "kind" and "sinned"). Identical
  words (case-insensitive) are repetitions, not rhymes. Pronunciations come from
  :mod:`poetic_eval.rhyme.pronunciation` (CMUdict, then its documented fallbacks). A word with no
  pronunciation at all (digits, stray letters) is compared by spelling: its last vowel letters
  and everything after them must equal the other word's.
- **Wider rhymes**, off by default and chosen per call: ``weak`` (unstressed) rhymes, ``near``
  rhymes (voicing-neutral and eye rhymes) and ``historical`` -y rhymes; see
  :func:`perfect_rhymes`. With ``weak`` and ``near`` the schemes agree best with human
  annotators (the rhyme_kl card gives the measured figures).

Rhyme schemes of whole poems are in :mod:`poetic_eval.rhyme.schemes`.
"""

from __future__ import annotations

from functools import lru_cache

from ..checks import typed_options
from .phonetics import BEFORE_SYLLABIC_R, DEVOICED, is_vowel, joins_syllabic_r
from .pronunciation import normalize_word, pronunciations

_VOWEL_LETTERS = "aeiouy"
_REDUCED = {"AH", "IH", "EH"}
_SHORT = {"@", "AH", "IH", "EH"}
_BEFORE_R = {"IH": "IY", "UH": "UW", "EY": "EH", "OW": "AO"}


# the caches of this module are bounded so that a long run over an open vocabulary cannot
# grow them without end; 200,000 entries hold every word of CMUdict (126,052 as loaded)
@lru_cache(maxsize=200_000)
def rhyme_part_of_phones(phones: str) -> tuple[str, ...]:
    """Rhyme part of one ARPAbet pronunciation, stress digits removed (see module docstring).

    Vowels before a non-prevocalic R are merged where English has no contrast and CMUdict is
    inconsistent ("hear" HH IY1 R, "fear" F IH1 R): IH R -> IY R, UH R -> UW R, EY R -> EH R,
    OW R -> AO R. A final "AY ER", "AW ER" or "UW ER" is read as one syllable, as CMUdict itself
    lists for "fire" (F AY1 ER0 and F AY1 R): "lyre" rhymes with "higher", "hour" with "power".
    """
    sequence = phones.split()
    start = last_vowel = -1
    for i in range(len(sequence) - 1, -1, -1):
        mark = sequence[i][-1]
        if mark in "12":
            start = i
            break
        if mark == "0" and last_vowel < 0:
            last_vowel = i
    if start < 0:
        start = last_vowel
    if start < 0:
        return tuple(sequence)
    part = [phone.rstrip("012") for phone in sequence[start:]]
    if len(part) == 2 and part[0] in BEFORE_SYLLABIC_R and part[1] == "ER":
        part[1] = "R"
    for i, phone in enumerate(part[:-1]):
        if part[i + 1] == "R" and phone in _BEFORE_R and not _prevocalic(part, i + 1):
            part[i] = _BEFORE_R[phone]
    return tuple(part)


def _prevocalic(part: list[str], index: int) -> bool:
    return index + 1 < len(part) and is_vowel(part[index + 1])


@lru_cache(maxsize=200_000)
def stressed_pronunciations(word: str) -> tuple[str, ...]:
    """Pronunciations of ``word`` that carry a stress, or all of them when none does.

    CMUdict also lists the reduced forms of function words ("are" ER0, "for" F ER0); a word
    at the end of a line is stressed, so those forms would only make false rhymes ("are" / "her").
    """
    found = pronunciations(word)
    stressed = tuple(p for p in found if any(phone[-1] in "12" for phone in p.split()))
    return stressed or found


@lru_cache(maxsize=200_000)
def rhyme_parts(word: str) -> frozenset[tuple[str, ...]]:
    """Rhyme parts of every (stressed) pronunciation of ``word``; empty when it has none."""
    return frozenset(rhyme_part_of_phones(phones) for phones in stressed_pronunciations(word))


def rhyme_part(word: str) -> tuple[str, ...] | None:
    """Rhyme part of ``word``'s first (stressed) pronunciation, e.g. ``("AY", "T")`` for "night".

    None when no pronunciation is known or predicted (see :mod:`poetic_eval.rhyme.pronunciation`).
    """
    found = stressed_pronunciations(word)
    return rhyme_part_of_phones(found[0]) if found else None


def spelling_rhyme(word: str) -> str | None:
    """The written ending used when a word has no pronunciation: last vowel letters onward.

    A silent final "e" after a consonant is kept but not taken as the vowel ("-ine" -> "ine").
    """
    letters = "".join(ch for ch in normalize_word(word) if ch.isalpha())
    index = len(letters) - 1
    # in a two-letter word ("be", "me") the final e is the vowel itself
    if len(letters) > 2 and letters.endswith("e") and letters[-2] not in _VOWEL_LETTERS:
        index -= 1
    while index >= 0 and letters[index] not in _VOWEL_LETTERS:
        index -= 1
    if index < 0:
        return None
    while index > 0 and letters[index - 1] in _VOWEL_LETTERS:
        index -= 1
    return letters[index:]


def same_word(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` are the same word (case, apostrophe style and edge marks aside)."""
    return normalize_word(a).strip("'") == normalize_word(b).strip("'")


@lru_cache(maxsize=200_000)
def rhyme_key(word: str) -> tuple[str, frozenset[tuple[str, ...]], str | None]:
    """(normalized word, rhyme parts, spelling ending) of a raw word, computed once."""
    normalized = normalize_word(word).strip("'")
    parts = rhyme_parts(normalized) if normalized else frozenset()
    return normalized, parts, None if parts else spelling_rhyme(normalized)


def keys_rhyme(key_a: tuple, key_b: tuple) -> bool:
    (word_a, parts_a, ending_a), (word_b, parts_b, ending_b) = key_a, key_b
    if not word_a or not word_b or word_a == word_b:
        return False
    if parts_a and parts_b:
        return not parts_a.isdisjoint(parts_b)
    # one word has a pronunciation and the other none: both are compared by spelling
    ending_a = ending_a if not parts_a else spelling_rhyme(word_a)
    ending_b = ending_b if not parts_b else spelling_rhyme(word_b)
    return ending_a is not None and ending_a == ending_b


@lru_cache(maxsize=200_000)
def final_syllables(word: str) -> frozenset[tuple[str, tuple[str, ...], bool]]:
    """(vowel, consonants after it, stressed?) of the last vowel of each pronunciation.

    Unstressed AH, IH and EH are one reduced vowel "@" (the "-ness", "-es", "-ute" endings).
    """
    found = set()
    for phones in stressed_pronunciations(word):
        sequence = phones.split()
        vowels = [i for i, phone in enumerate(sequence) if is_vowel(phone)]
        if not vowels:
            continue
        last = vowels[-1]
        vowel, stress = sequence[last][:-1], sequence[last][-1]
        stressed = stress in "12"
        if joins_syllabic_r(sequence, last):
            continue  # "fire" F AY1 ER0: one syllable in verse, not a weak "-er" ending
        if not stressed and vowel in _REDUCED:
            vowel = "@"
        found.add((vowel, tuple(sequence[last + 1 :]), stressed))
    return frozenset(found)


def _weak_rhyme(a: str, b: str) -> bool:
    for vowel_a, coda_a, stressed_a in final_syllables(a):
        for vowel_b, coda_b, stressed_b in final_syllables(b):
            if coda_a != coda_b or (stressed_a and stressed_b):
                continue
            # ``and`` binds tighter: the same vowel, or the reduced vowel against a short one
            if vowel_a == vowel_b or "@" in (vowel_a, vowel_b) and {vowel_a, vowel_b} <= _SHORT:
                return True
    return False


#: Shortest written ending (last vowel letters onward) that counts as an eye rhyme ("orm", "ove").
EYE_RHYME_MIN_LETTERS = 3


@lru_cache(maxsize=200_000)
def _devoiced_parts(word: str) -> frozenset[tuple[str, ...]]:
    return frozenset(tuple(DEVOICED.get(p, p) for p in part) for part in rhyme_parts(word))


def _near_rhyme(a: str, b: str) -> bool:
    """Voicing-neutral rhyme or eye rhyme (see :func:`perfect_rhymes`)."""
    if not _devoiced_parts(a).isdisjoint(_devoiced_parts(b)):
        return True
    spelled_a, spelled_b = spelling_rhyme(a), spelling_rhyme(b)
    return (
        spelled_a is not None
        and spelled_a == spelled_b
        and len(spelled_a) >= EYE_RHYME_MIN_LETTERS
        and _ends_stressed(a)
        and _ends_stressed(b)
    )


def _ends_stressed(word: str) -> bool:
    return any(stressed for _, _, stressed in final_syllables(word))


def _historical_rhyme(a: str, b: str) -> bool:
    """Unstressed final "-y" with stressed final "AY" ("symmetry" / "eye")."""
    stressed_ay, unstressed_y = ("AY", (), True), ("IY", (), False)
    syllables_a, syllables_b = final_syllables(a), final_syllables(b)
    y_a = a.endswith("y") and unstressed_y in syllables_a
    y_b = b.endswith("y") and unstressed_y in syllables_b
    return (stressed_ay in syllables_a and y_b) or (stressed_ay in syllables_b and y_a)


@typed_options
def perfect_rhymes(
    a: str, b: str, *, weak: bool = False, near: bool = False, historical: bool = False
) -> bool:
    """Whether two different words rhyme perfectly (any pronunciation pair; case-insensitive).

    Identical words are repetitions, not rhymes: ``perfect_rhymes("day", "Day")`` is False.
    Empty words never rhyme. Three options widen the definition towards what poets and
    annotators accept; all are off by default (the specification's perfect rhyme):

    - ``weak=True``: weak (unstressed) rhymes, common in older verse: the last vowels and what
      follows them match and at least one of the two last vowels is unstressed ("be" / "piety",
      "comedy" / "tragedy", "less" / "loneliness").
    - ``near=True``: *voicing-neutral* rhymes, rhyme parts equal once voiced consonants are
      devoiced ("housemaids" / "gates", "praise" / "grace"), and *eye rhymes*, two words ending
      in a stressed syllable whose written endings from the last vowel letters match over at
      least 3 letters ("worm" / "storm", "love" / "prove", "lord" / "word").
    - ``historical=True``: the older convention that unstressed final "-y" rhymes with stressed
      "AY" ("eye" / "symmetry", "die" / "memory"); wrong for most modern verse.
    """
    key_a, key_b = rhyme_key(a), rhyme_key(b)
    if keys_rhyme(key_a, key_b):
        return True
    return wider_rhyme(key_a[0], key_b[0], weak=weak, near=near, historical=historical)


def wider_rhyme(a: str, b: str, *, weak: bool, near: bool, historical: bool) -> bool:
    """Weak, near or historical rhyme of two normalized words (see :func:`perfect_rhymes`)."""
    if not a or not b or a == b:
        return False
    return (
        (weak and _weak_rhyme(a, b))
        or (near and _near_rhyme(a, b))
        or (historical and _historical_rhyme(a, b))
    )
