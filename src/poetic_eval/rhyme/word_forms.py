"""The forms a line-final word may take in a rhyme: every pronunciation, older spellings read in
their modern form, and historical pronunciations, each cut into the parts a rhyme compares.

Pronunciations of a word, in order (:func:`word_pronunciations`):

1. CMUdict with the rules of :mod:`poetic_eval.rhyme.pronunciation` (spelling variants,
   elisions, "-'d", "-ed", "-eth", "-est" and other inflections of a known stem): every listed
   variant ("wind" as in "mind" and as in "sinned", "again" as in "pain" and as in "pen");
2. **older spellings** read as modern ones when the word is not known as written: "y" for "i"
   ("mynde", "agayn"), "u" for "v" and "v" for "u" ("loue", "vnto"), a silent final "e" with a
   doubled consonant ("plaine", "starre"), "-ie" for "-y" ("pitie"), "-ck" for "-c", "ou" for
   "ow" ("doun"); accents marking a sounded syllable are dropped ("belovèd");
3. the letter-to-sound fallback of :mod:`poetic_eval.rhyme.pronunciation` (pronunciation by
   analogy with the dictionary words of the longest shared ending).

**Historical forms** (flagged, so that the learned model can weigh them apart): a final
unstressed "-y" / "-ie" / "-ies" / "-ied" also rhymes on a stressed AY, as it did for poets up to
the 19th century ("eye" / "symmetry", "wise" / "melodies").
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from ..text.languages import resolve_language
from .german_sounds import german_pronunciation, german_spelling_ending, normalize_german
from .phonetics import is_vowel, joins_syllabic_r, reduced
from .pronunciation import known_pronunciations, normalize_word, pronunciations
from .word_rhymes import rhyme_part_of_phones, spelling_rhyme

_Y_ENDING = re.compile(r"(?:y|ie|ye)(?:s|d|'d)?$")
_DOUBLED_FINAL = re.compile(r"([b-df-hj-np-tv-z])\1$")


class StressedEnding(NamedTuple):
    """A word's ending from its last stressed vowel: the vowel, the consonants after it up to
    the next vowel, everything after those (unstressed vowels reduced, see
    :func:`poetic_eval.rhyme.phonetics.reduced`), and how many syllables that is."""

    vowel: str
    coda: tuple[str, ...]
    rest: tuple[str, ...]
    syllables_after: int


class FinalSyllable(NamedTuple):
    """A word's last vowel (reduced when unstressed), the consonants after it, whether it is
    stressed, and the consonant before it ("" when none)."""

    vowel: str
    coda: tuple[str, ...]
    stressed: bool
    onset: str


class Form(NamedTuple):
    """One way a word's ending can sound, as the two parts a rhyme compares."""

    ending: StressedEnding
    final: FinalSyllable
    historical: bool = False


class Interned:
    """Small integer ids for hashable values (endings, final syllables, words), so that caches
    of pairs key on two ints; ``values[id]`` is the value of an id.

    With a ``limit`` (for open-ended values such as words), the table is emptied when it holds
    ``limit`` values and ids keep counting: an id never names two values, a forgotten value
    gets a new id when it comes back, and ``values`` is not kept."""

    def __init__(self, limit: int | None = None) -> None:
        self.ids: dict = {}
        self.values: list = []
        self.limit = limit
        self._next = 0

    def __call__(self, value) -> int:
        found = self.ids.get(value)
        if found is None:
            if self.limit is None:
                self.values.append(value)
            elif len(self.ids) >= self.limit:
                self.ids.clear()
            found = self.ids[value] = self._next
            self._next += 1
        return found


#: Endings and final syllables come from pronunciations (a bounded set); words are open-ended.
ENDINGS, FINALS, WORDS = Interned(), Interned(), Interned(limit=200_000)


@dataclass(frozen=True)
class WordForms:
    """A normalized word, its forms, and its written ending (last vowel letters onward).

    ``key`` and ``parts`` are the interned ids of the word and of each form's (ending, final
    syllable, historical flag), for fast caching of pair scores (one word may get a new
    ``key`` after :data:`WORDS` is emptied; compare ``word`` to test for the same word).
    """

    word: str
    forms: tuple[Form, ...]
    ending: str | None
    letters: str
    key: int = -1
    parts: tuple[tuple[int, int, bool], ...] = ()


def _deaccented(word: str) -> str:
    return "".join(
        ch for ch in unicodedata.normalize("NFKD", word) if not unicodedata.combining(ch)
    )


def _older_spellings(word: str) -> list[str]:
    """Modern readings of an older spelling, most specific first (see the module docstring)."""
    steps = [
        lambda w: w[0] + w[1:].replace("y", "i") if len(w) > 1 else w,
        lambda w: re.sub(r"(?<=[aeiou])u(?=[aeiou])", "v", w),
        lambda w: "u" + w[1:] if w.startswith("v") and len(w) > 1 and w[1] not in "aeiouy" else w,
        lambda w: re.sub(r"ie$", "y", w),
        lambda w: _DOUBLED_FINAL.sub(r"\1", w[:-1]) if w.endswith("e") and len(w) > 3 else w,
        lambda w: re.sub(r"ck$", "c", w),
        lambda w: re.sub(r"ou(?=n|l)", "ow", w),
        lambda w: re.sub(r"yng$", "ing", w),
    ]
    found, frontier = [], [word]
    for _ in range(3):
        following = []
        for spelling in frontier:
            for step in steps:
                changed = step(spelling)
                if changed != spelling and changed not in found and changed != word:
                    found.append(changed)
                    following.append(changed)
        frontier = following
    return found


@lru_cache(maxsize=200_000)
def dictionary_pronunciations(word: str) -> tuple[str, ...]:
    """Pronunciations of a normalized word from the dictionary (module docstring, steps 1-2:
    CMUdict with its rules, and older spellings read as modern ones); () when the word is not
    there, and only the letter-to-sound fallback can guess it."""
    if not word:
        return ()
    found = known_pronunciations(word)
    if found:
        return found
    for spelling in _older_spellings(word.replace("'", "")):
        found = known_pronunciations(spelling)
        if found:
            return found
    return ()


@lru_cache(maxsize=200_000)
def word_pronunciations(word: str) -> tuple[str, ...]:
    """Pronunciations of a normalized word (module docstring, steps 1-3); () when none."""
    if not word:
        return ()
    return dictionary_pronunciations(word) or pronunciations(word)


def _stressed(found: tuple[str, ...]) -> tuple[str, ...]:
    """Pronunciations with a stress (a line-final word is stressed); all when none has one."""
    stressed = tuple(p for p in found if any(phone[-1] in "12" for phone in p.split()))
    return stressed or found


def _reduced_rest(phones: list[str]) -> tuple[str, ...]:
    rest: list[str] = []
    for phone in phones:
        if phone == "ER":
            rest += ["@", "R"]
        elif is_vowel(phone):
            rest.append(reduced(phone, False))
        else:
            rest.append(phone)
    return tuple(rest)


def form_of_phones(phones: str, *, historical: bool = False) -> Form | None:
    """Cut one ARPAbet pronunciation into a :class:`Form`; None when it has no vowel."""
    sequence = phones.split()
    stressed = [i for i, phone in enumerate(sequence) if phone[-1:] in ("1", "2")]
    start = (
        stressed[-1]
        if stressed
        else max((i for i, phone in enumerate(sequence) if phone[-1:] == "0"), default=-1)
    )
    if start < 0:
        return None
    return _form_of_tail(tuple(sequence[max(start - 1, 0) :]), start > 0, historical)


@lru_cache(maxsize=100_000)
def _form_of_tail(tail: tuple[str, ...], has_onset: bool, historical: bool) -> Form:
    """The form of a pronunciation's tail: from the phone before its last stressed vowel (when
    ``has_onset``) to the end. Words sharing a tail share the work."""
    sequence = list(tail)
    vowels = [i for i, phone in enumerate(sequence) if phone[-1:].isdigit()]
    part = list(rhyme_part_of_phones(" ".join(sequence[1:] if has_onset else sequence)))
    vowel, after = part[0], part[1:]
    if vowel == "ER":
        after = ["R", *after]
    cut = next((i for i, phone in enumerate(after) if is_vowel(phone)), len(after))
    rest = _reduced_rest(after[cut:])
    last = vowels[-1]
    if joins_syllabic_r(sequence, last):
        last -= 1  # "fire" F AY1 ER0: one syllable in verse, rhyming on AY R
    final_stressed = sequence[last][-1] in "12"
    final = sequence[last][:-1]
    onset = sequence[last - 1] if last > 0 and not is_vowel(sequence[last - 1]) else ""
    return Form(
        StressedEnding(vowel, tuple(after[:cut]), rest,
                       sum(p == "@" or is_vowel(p) for p in rest)),
        FinalSyllable(
            reduced(final, final_stressed) if final != "ER" else "ER",
            tuple("R" if p == "ER0" else p for p in sequence[last + 1 :]),
            final_stressed,
            onset,
        ),
        historical,
    )  # fmt: skip


def _historical_phones(word: str, phones: str) -> str | None:
    """The "-y" as AY reading of a pronunciation ending in unstressed IY (module docstring)."""
    sequence = phones.split()
    if not _Y_ENDING.search(word):
        return None
    last = max((i for i, phone in enumerate(sequence) if phone[-1:].isdigit()), default=-1)
    if last < 1 or sequence[last] != "IY0" or len(sequence) - last > 2:
        return None
    return " ".join([*sequence[:last], "AY1", *sequence[last + 1 :]])


def word_forms(word: str, language: str = "en") -> WordForms:
    """Every :class:`Form` of a raw line-final word (case, accents and apostrophe style aside)
    in ``language`` ("en": CMUdict and its fallbacks; "de": German spelling rules,
    :mod:`poetic_eval.rhyme.german_sounds`)."""
    if language == "en":
        return _english_forms(word)
    if language == "de":
        return _german_forms(word)
    return word_forms(word, resolve_language(language))


@lru_cache(maxsize=200_000)
def _english_forms(word: str) -> WordForms:
    normalized = normalize_word(_deaccented(word)).strip("'")
    forms: dict[Form, None] = {}
    for phones in _stressed(word_pronunciations(normalized)):
        form = form_of_phones(phones)
        if form is not None:
            forms[form] = None
        older = _historical_phones(normalized, phones)
        if older is not None:
            form = form_of_phones(older, historical=True)
            if form is not None:
                forms.setdefault(form, None)
    letters = "".join(ch for ch in normalized if ch.isalpha())
    return _interned(normalized, tuple(forms), spelling_rhyme(normalized), letters)


@lru_cache(maxsize=200_000)
def _german_forms(word: str) -> WordForms:
    normalized = normalize_german(word)
    phones = german_pronunciation(normalized) if normalized else ""
    form = form_of_phones(phones) if phones else None
    forms = (form,) if form is not None else ()
    letters = "".join(ch for ch in normalized if ch.isalpha())
    ending = german_spelling_ending(normalized) if normalized else None
    return _interned(normalized, forms, ending, letters)


def _clear_word_forms() -> None:
    _english_forms.cache_clear()
    _german_forms.cache_clear()


#: Empties the caches of both languages (as lru_cache's ``cache_clear``).
word_forms.cache_clear = _clear_word_forms  # type: ignore[attr-defined]


def _interned(word: str, forms: tuple[Form, ...], ending: str | None, letters: str) -> WordForms:
    parts = tuple((ENDINGS(f.ending), FINALS(f.final), f.historical) for f in forms)
    return WordForms(word, forms, ending, letters, WORDS(word), parts)
