"""Pronunciations: CMUdict, the spelling and inflection fallbacks, pronunciation by analogy
(leave-one-out on common words), syllable counts and stress patterns."""

from __future__ import annotations

import random

import pronouncing
import pytest

from poetic_eval.rhyme import rhyme_part, rhymes
from poetic_eval.rhyme.pronunciation import (
    estimate_syllables,
    in_dictionary,
    pronunciations,
    stress_pattern,
    syllable_count,
)

# Leave-one-out rhyme part of the analogy fallback on 1000 common CMUdict words (seed 0).
ANALOGY_FLOOR = 0.60
# Spelling-only syllable estimate on 2000 common CMUdict words (seed 0): 1876/2000 = 93.8 %.
SYLLABLE_ESTIMATE_FLOOR = 0.92


# --- pronunciations -------------------------------------------------------------------------


def test_cmudict_words_use_cmudict():
    assert pronunciations("Love") == tuple(pronouncing.phones_for_word("love"))
    assert in_dictionary("night") and not in_dictionary("glimmerine")


@pytest.mark.parametrize(
    "word, rhymes_with",
    [
        ("lov'd", "shoved"),  # elided past tense
        ("o\u2019er", "more"),  # poetic elision, curly apostrophe
        ("heav'n", "seven"),
        ("pow'r", "hour"),
        ("sea-green", "seen"),  # hyphenated: last part
        ("singeth", "bringeth"),  # archaic -eth on a known stem
        ("Lenore's", "doors"),  # possessive of an out-of-dictionary name
        ("glimmerine", "tangerine"),  # coinage: pronunciation by analogy
        ("thro'", "true"),
    ],
)
def test_fallback_pronunciations_rhyme(word, rhymes_with):
    assert not in_dictionary(word)
    assert pronunciations(word), word
    assert rhymes(word, rhymes_with)


def test_no_pronunciation_for_non_words():
    assert pronunciations("") == ()
    assert pronunciations("--") == ()
    assert rhyme_part("1999") is None


def test_syllables_and_stress():
    assert syllable_count("liberty") == 3
    assert stress_pattern("liberty") == "102"
    assert syllable_count("lov'd") == 1 and stress_pattern("lov'd") == "1"
    assert syllable_count("glimmerine") == 3  # not in CMUdict: estimated from spelling
    assert stress_pattern("glimmerine") is None
    assert syllable_count("1999") == 0 and syllable_count("") == 0


@pytest.mark.parametrize(
    "word, expected",
    [("candle", 2), ("hope", 1), ("hoped", 1), ("wanted", 2), ("quiet", 2), ("nation", 2),
     ("lovely", 2), ("fibre", 2), ("going", 2), ("crwth", 1), ("", 0)],
)  # fmt: skip
def test_estimate_syllables_examples(word, expected):
    assert estimate_syllables(word) == expected


def test_estimate_syllables_against_cmudict():
    """Spelling-only estimate vs CMUdict on 2000 common words it was not tuned on (seeded)."""
    from wordfreq import zipf_frequency

    from poetic_eval.rhyme.pronunciation import _cmudict

    cmu = _cmudict()
    candidates = sorted(w for w in cmu if w.isalpha())
    random.Random(0).shuffle(candidates)
    sample = [w for w in candidates[20_000:40_000] if zipf_frequency(w, "en") >= 3][:2000]
    right = sum(
        estimate_syllables(w) in {sum(ph[-1].isdigit() for ph in p.split()) for p in cmu[w]}
        for w in sample
    )
    print(f"syllable estimate: {right}/{len(sample)} agree with a CMUdict pronunciation")
    assert len(sample) == 2000 and right / len(sample) >= SYLLABLE_ESTIMATE_FLOOR


def test_analogy_leave_one_out_on_common_words():
    """How often the analogy fallback finds the rhyme part of a word it has never seen."""
    from wordfreq import zipf_frequency

    from poetic_eval.rhyme import rhyme_part_of_phones
    from poetic_eval.rhyme.pronunciation import _cmudict, pronounce_by_analogy

    cmu = _cmudict()
    candidates = sorted(w for w in cmu if w.isalpha() and len(w) > 3)
    random.Random(0).shuffle(candidates)
    sample = [w for w in candidates[:20_000] if zipf_frequency(w, "en") >= 3][:1000]
    assert len(sample) == 1000
    answered = correct = 0
    for word in sample:
        predicted = pronounce_by_analogy(word, exclude_self=True)
        if predicted:
            answered += 1
            gold = {rhyme_part_of_phones(p) for p in cmu[word]}
            correct += rhyme_part_of_phones(predicted[0]) in gold
    print(f"analogy leave-one-out: answered {answered}/1000, right rhyme part {correct}/{answered}")
    assert answered >= 900
    assert correct / answered >= ANALOGY_FLOOR


def test_inflected_forms_pick_the_right_stem_when_two_exist():
    """Leave-one-out over CMUdict's "-ed"/"-es" words whose bare and silent-"e" stems are both
    entries ("hoped": "hop" and "hope"): the rhyme part predicted from the stem must match."""
    from poetic_eval.rhyme import rhyme_part_of_phones
    from poetic_eval.rhyme.pronunciation import (
        _cmudict,
        _stem_pronunciations,
        _with_past_suffix,
        _with_sibilant_suffix,
    )

    cmu = _cmudict()
    right = total = 0
    for word, phones in cmu.items():
        for ending, add in (("ed", _with_past_suffix), ("es", _with_sibilant_suffix)):
            base = word[: -len(ending)]
            if (
                word.isalpha()
                and word.endswith(ending)
                and len(word) > 4
                and base in cmu
                and base + "e" in cmu
            ):
                predicted = {rhyme_part_of_phones(add(p)) for p in _stem_pronunciations(base)}
                right += bool(predicted & {rhyme_part_of_phones(p) for p in phones})
                total += 1
    print(f"ambiguous inflected forms: {right}/{total}")
    assert total > 800 and right / total >= 0.78
    assert pronunciations("gazeth") == ("G EY1 Z AH0 TH",)
