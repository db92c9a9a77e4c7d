"""A list of English verbs with their present-tense agreement forms and frequencies.

Built at run time from two installed packages, so nothing is copied from any other list:

* candidates and frequencies: wordfreq's English "large" word list;
* inflections: lemminflect's dictionary (no rule-based guessing for unknown words).

Selection rule (:func:`load_verb_list`). A word ``w`` of the frequency list is a verb lemma when

1. ``w`` is alphabetic ASCII, lemminflect lists ``w`` among the VERB lemmas of ``w``, and its
   dictionary gives ``w`` a 3rd-person-singular present form (VBZ) and a non-3rd-person present
   form (VBP); modal auxiliaries (can, must, will, ...) have no VBP form and so drop out;
2. the base form, the two present forms, the past form (VBD) and the -ing form (VBG) each have a
   wordfreq Zipf frequency of at least ``min_zipf``. Requiring the past and -ing forms filters
   out the many nouns and adjectives that lemminflect also lists as (rare) verbs: "people",
   "ulcer", "even";
3. the singular and plural forms differ, and no form string belongs to a more frequent lemma
   already in the list ("axes" goes to "ax" or "axe", whichever is more frequent), so a token is
   never both the correct and the incorrect form of two lemmas.

The plural form is the VBP form equal to the lemma, except for "be" (is / are, never "am").
Entries are ordered by decreasing base-form frequency, ties broken alphabetically.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from ..checks import typed_options
from ..errors import InvalidTypeError, InvalidValueError

DEFAULT_MIN_ZIPF = 2.5
"""Zipf 2.5 = about 0.3 occurrences per million words; gives about 2,000 lemmas (the paper's
public list has 1,951 rows)."""


@dataclass(frozen=True)
class VerbEntry:
    """One verb lemma with its two present-tense agreement forms.

    ``frequency`` is the wordfreq Zipf frequency (log10 of occurrences per billion words,
    rounded to 0.01 like ``wordfreq.zipf_frequency``) of the lemma, which is also the plural
    form except for "be"; ``singular_frequency`` is that of the -s form. wordfreq counts
    word strings, not parts of speech: "works" counts the noun and the verb.
    """

    lemma: str
    singular: str
    plural: str
    frequency: float
    singular_frequency: float


@typed_options
def load_verb_list(min_zipf: float = DEFAULT_MIN_ZIPF, limit: int | None = None) -> list[VerbEntry]:
    """The verb lemmas selected by the module's rule, most frequent first.

    Args:
        min_zipf: minimum wordfreq Zipf frequency of each of the base, present (both), past and
            -ing forms.
        limit: keep only the first ``limit`` entries (the most frequent), or all when None.

    Returns:
        A new list of :class:`VerbEntry`; "be" (is/are) and "have" (has/have) are always in it
        for any ``min_zipf`` up to 6.
    """
    if isinstance(min_zipf, bool) or not isinstance(min_zipf, (int, float)) or math.isnan(min_zipf):
        raise InvalidTypeError(f"min_zipf must be a number, got {min_zipf!r}")
    if limit is not None:
        if isinstance(limit, bool) or not isinstance(limit, int):
            raise InvalidTypeError(f"limit must be an integer or None, got {type(limit).__name__}")
        if limit < 1:
            raise InvalidValueError(f"limit must be >= 1 or None, got {limit}")
    # float(): the cache is keyed on the value, so 3 and 3.0 share one entry
    entries = _verb_entries(float(min_zipf))
    return list(entries if limit is None else entries[:limit])


@functools.lru_cache(maxsize=8)
def _verb_entries(min_zipf: float) -> tuple[VerbEntry, ...]:
    frequencies = _frequency_dict()
    candidates = []
    for word, frequency in frequencies.items():
        base_zipf = _zipf(frequency)
        if base_zipf < min_zipf:
            continue
        entry = _entry_for(word, base_zipf, frequencies, min_zipf)
        if entry is not None:
            candidates.append(entry)
    candidates.sort(key=lambda entry: (-entry.frequency, entry.lemma))
    # rule 3: candidates are sorted most frequent first, so a form two lemmas share stays with
    # the more frequent one and the later lemma is dropped whole
    seen_forms: set[str] = set()
    entries = []
    for entry in candidates:
        forms = {entry.singular, entry.plural}
        if forms & seen_forms:
            continue
        seen_forms |= forms
        entries.append(entry)
    return tuple(entries)


def _entry_for(
    word: str, base_zipf: float, frequencies: dict[str, float], min_zipf: float
) -> VerbEntry | None:
    import lemminflect

    if not (word.isascii() and word.isalpha()):
        return None
    if word not in lemminflect.getAllLemmas(word).get("VERB", ()):
        return None
    inflections = lemminflect.getAllInflections(word, "VERB")
    if not {"VBZ", "VBP", "VBD", "VBG"} <= inflections.keys():
        return None
    singular = inflections["VBZ"][0]
    # the VBP form equal to the lemma is the plural; only "be" lacks one (am / are), and "am"
    # is first person, never a plural subject's form
    plural = word if word in inflections["VBP"] else _non_first_person(inflections["VBP"])
    if plural is None or singular == plural:
        return None

    def best_zipf(forms: tuple[str, ...]) -> float:
        return max(_zipf(frequencies.get(form, 0.0)) for form in forms)

    singular_zipf = _zipf(frequencies.get(singular, 0.0))
    evidence = (
        singular_zipf,
        _zipf(frequencies.get(plural, 0.0)),
        best_zipf(inflections["VBD"]),
        best_zipf(inflections["VBG"]),
    )
    if min(evidence) < min_zipf:
        return None
    return VerbEntry(word, singular, plural, base_zipf, singular_zipf)


def _non_first_person(forms: tuple[str, ...]) -> str | None:
    others = [form for form in forms if form != "am"]
    return others[0] if others else None


def _zipf(frequency: float) -> float:
    # rounded like wordfreq.zipf_frequency, so thresholds agree with the values it reports
    return round(math.log10(frequency) + 9, 2) if frequency > 0 else 0.0


@functools.lru_cache(maxsize=1)
def _frequency_dict() -> dict[str, float]:
    import wordfreq

    return wordfreq.get_frequency_dict("en", "large")
