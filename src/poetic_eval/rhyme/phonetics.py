"""Phonetic classes of ARPAbet phones and the relations between two rhyme parts.

A graded rhyme compares three things, each reduced to a small class so that what poets accept can
be learned over classes (which generalise to unseen words) rather than over words:

- **vowels**: the pair itself (one of 136 unordered pairs of the 15 vowels and the reduced "@")
  and its *relation*: the same, near (neighbours in the vowel space, tense/lax partners, the
  pairs English dialects and older verse merge) or far;
- **codas** (the consonants after the stressed vowel): :func:`coda_relation`, from identical,
  through a voicing difference and one added coronal ("guest" / "less"), to consonance and
  different;
- **what follows** a feminine rhyme's stressed syllable: :func:`rest_relation`.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations_with_replacement

VOWELS = ("AA", "AE", "AH", "AO", "AW", "AY", "EH", "ER", "EY", "IH", "IY", "OW", "OY", "UH", "UW")
#: The reduced vowel of unstressed syllables (unstressed AH, IH, EH, UH).
REDUCED = "@"
_VOWEL_SET = frozenset(VOWELS)
_REDUCIBLE = frozenset({"AH", "IH", "EH", "UH"})
#: Unordered vowel pairs, each with its index: (v, w) with v <= w over VOWELS + ("@",).
VOWEL_PAIRS: tuple[tuple[str, str], ...] = tuple(
    combinations_with_replacement(sorted((*VOWELS, REDUCED)), 2)
)
VOWEL_PAIR_INDEX = {pair: i for i, pair in enumerate(VOWEL_PAIRS)}

# Near vowels: height neighbours, tense/lax partners, the low-back and pre-R mergers, the
# diphthongs' nuclei, and the reduced vowel with the short ones.
_NEAR = {
    ("IY", "IH"), ("IH", "EH"), ("EH", "AE"), ("EY", "EH"), ("EY", "IY"), ("UW", "UH"),
    ("UH", "AH"), ("AH", "AA"), ("AA", "AO"), ("AO", "OW"), ("OW", "UW"), ("AE", "AA"),
    ("AH", "AO"), ("AY", "OY"), ("AW", "OW"), ("ER", "EH"), ("ER", "AH"), ("ER", "UH"),
    ("AY", "AA"), ("AW", "AA"),
    (REDUCED, "AH"), (REDUCED, "IH"), (REDUCED, "EH"), (REDUCED, "UH"), (REDUCED, "ER"),
}  # fmt: skip
NEAR_VOWELS = frozenset(frozenset(pair) for pair in _NEAR)

SAME, NEAR, FAR = 0, 1, 2

#: Vowels that a following unstressed ER joins into one syllable in verse ("fire", "hour", "ewer").
BEFORE_SYLLABIC_R = frozenset({"AY", "AW", "UW"})

DEVOICED = {"B": "P", "D": "T", "G": "K", "V": "F", "DH": "TH", "Z": "S", "ZH": "SH", "JH": "CH"}
_CORONAL_OBSTRUENTS = frozenset({"S", "T", "TH", "SH", "CH"})  # after devoicing
_MANNER = {
    **dict.fromkeys(("P", "B", "T", "D", "K", "G"), "stop"),
    **dict.fromkeys(("F", "V", "TH", "DH", "S", "Z", "SH", "ZH", "HH"), "fricative"),
    **dict.fromkeys(("CH", "JH"), "affricate"),
    **dict.fromkeys(("M", "N", "NG"), "nasal"),
    **dict.fromkeys(("L", "R"), "liquid"),
    **dict.fromkeys(("W", "Y"), "glide"),
}

#: Coda relations, best first.
CODA_RELATIONS = ("same", "voicing", "plus_coronal", "similar", "different")
REST_RELATIONS = ("same", "close", "different")


def is_vowel(phone: str) -> bool:
    """Whether an ARPAbet phone (stress digit removed or not) is a vowel."""
    return phone.rstrip("012") in _VOWEL_SET


def joins_syllabic_r(sequence: list[str] | tuple[str, ...], index: int) -> bool:
    """Whether phone ``index`` of an ARPAbet pronunciation is an unstressed ER right after AY,
    AW or UW ("fire" F AY1 ER0): one syllable with that vowel in verse, not a weak "-er"."""
    return index > 0 and sequence[index] == "ER0" and sequence[index - 1][:-1] in BEFORE_SYLLABIC_R


def reduced(vowel: str, stressed: bool) -> str:
    """The vowel as compared in an unstressed syllable: AH, IH, EH and UH become "@"."""
    return REDUCED if not stressed and vowel in _REDUCIBLE else vowel


_ALL_VOWELS = (*VOWELS, REDUCED)
_PAIR_INDEX = {(a, b): VOWEL_PAIR_INDEX[(a, b) if a <= b else (b, a)]
               for a in _ALL_VOWELS for b in _ALL_VOWELS}  # fmt: skip
_RELATION = {
    (a, b): SAME if a == b else NEAR if frozenset((a, b)) in NEAR_VOWELS else FAR
    for a in _ALL_VOWELS
    for b in _ALL_VOWELS
}


def vowel_pair_index(a: str, b: str) -> int:
    return _PAIR_INDEX[(a, b)]


def vowel_relation(a: str, b: str) -> int:
    """SAME, NEAR or FAR (see the module docstring)."""
    return _RELATION[(a, b)]


def _devoice(phones: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(DEVOICED.get(p, p) for p in phones)


def _one_insertion(short: tuple[str, ...], long: tuple[str, ...]) -> str | None:
    """The phone ``long`` has in addition to ``short``, if it has exactly one more."""
    if len(long) != len(short) + 1:
        return None
    for i in range(len(long)):
        if long[:i] + long[i + 1 :] == short:
            return long[i]
    return None


@lru_cache(maxsize=100_000)
def coda_relation(a: tuple[str, ...], b: tuple[str, ...]) -> int:
    """Index into CODA_RELATIONS of two consonant sequences.

    same; voicing (equal once B D G V DH Z ZH JH are devoiced: "praise" / "grace"); plus_coronal
    (one side has one more S, Z, T, D, TH, SH or CH: "guest" / "less", "sea" / "seat");
    similar (same length and manner of articulation everywhere, "time" / "mine", or one more
    consonant of another kind, or the same last consonant); different.
    """
    if a == b:
        return 0
    da, db = _devoice(a), _devoice(b)
    if da == db:
        return 1
    short, long = (da, db) if len(da) < len(db) else (db, da)
    extra = _one_insertion(short, long)
    if extra in _CORONAL_OBSTRUENTS:
        return 2
    if extra is not None:
        return 3
    if len(da) == len(db) and all(_MANNER.get(x) == _MANNER.get(y) for x, y in zip(da, db)):
        return 3
    if da and db and da[-1] == db[-1]:
        return 3
    return 4


@lru_cache(maxsize=100_000)
def rest_relation(a: tuple[str, ...], b: tuple[str, ...]) -> int:
    """Index into REST_RELATIONS of the unstressed syllables after two stressed syllables.

    Both are already reduced (unstressed AH/IH/EH/UH as "@"). same; close (one phone differs,
    voicing aside, or one more coronal); different.
    """
    if a == b:
        return 0
    da, db = _devoice(a), _devoice(b)
    if da == db:
        return 1
    short, long = (da, db) if len(da) < len(db) else (db, da)
    if _one_insertion(short, long) is not None:
        return 1
    if len(da) == len(db) and sum(x != y for x, y in zip(da, db)) == 1:
        return 1
    return 2
