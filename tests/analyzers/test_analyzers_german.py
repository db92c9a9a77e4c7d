"""The analyzers that read sound and words, with language="de": German rhyme, syllables and
stresses from the spelling, German tokens; the language is part of the rhyme cache key."""

from __future__ import annotations

import pytest

from poetic_eval.analyzers import analyze_poem, poem_analysis
from poetic_eval.analyzers.lexical import type_token_ratio
from poetic_eval.analyzers.meter import stress_per_line, syllables_per_line
from poetic_eval.analyzers.poem import Poem, line_words
from poetic_eval.analyzers.rhyme_chains import poem_rhyme_scheme
from poetic_eval.diversity import word_tokens
from poetic_eval.rhyme import stress_pattern, syllable_count

# final devoicing (Wald / kalt, Feld / Welt): rhymes English rules do not hear
DEVOICED = (
    "Der Abend legt sich auf das Feld,\ndie Krähen ziehen heim zum Wald;\n"
    "so still ist nun die weite Welt,\nder Wind wird müd, die Luft wird kalt."
)
SONNET_OPENING = (
    DEVOICED + "\n\nIch sende dir den letzten Gruß,\nbevor der Zug die Stadt verlässt;\n"
    "ich ging den langen Weg zu Fuß\nund halte dein Versprechen fest."
)


def test_rhyme_scheme_by_language_and_kept_apart_in_the_cache():
    poem = Poem(DEVOICED)
    english = poem_rhyme_scheme(poem, language="en")
    assert poem_rhyme_scheme(poem, language="de") == "ABAB"
    assert english != "ABAB"
    assert poem_rhyme_scheme(poem, language="en") == english  # the cached English one
    long_poem = Poem(SONNET_OPENING)
    assert poem_rhyme_scheme(long_poem, language="de") == "ABABCDCD"  # over windows of 6 lines
    values = analyze_poem(SONNET_OPENING, ["rhyme_chains", "rhyme_richness"], language="de")
    assert values == {"rhyme_chains": 4, "rhyme_richness": 1.0}


def test_syllables_and_stresses_come_from_the_german_rules():
    poem = Poem(DEVOICED)
    counts = syllables_per_line(poem, language="de")
    assert counts == [
        sum(syllable_count(word, language="de") for word in line_words(line)) for line in poem.lines
    ]
    assert counts == [8, 8, 8, 8]  # the quatrain's iambic tetrameter
    marks = stress_per_line(poem, language="de")
    assert [len(m) for m in marks] == counts and "?" not in "".join(marks)
    assert marks[0][1:3] == "+-"  # A-bend: the stem's first syllable
    assert stress_pattern("gewesen", language="de") == "010"
    with pytest.raises(ValueError, match="did you mean 'de'"):
        syllables_per_line(poem, language="dee")


def test_type_token_ratio_reads_german_tokens():
    poem = Poem("Die Nacht–die Nacht\nfu\u0308r für")
    tokens = word_tokens(poem.text, language="de", lowercase=True, remove_punctuation=True)
    assert tokens == ["die", "nacht", "die", "nacht", "für", "für"]
    assert type_token_ratio(poem, language="de") == 3 / 6
    # English: "nachtdie" is one token, and the two spellings of "für" are two types
    assert type_token_ratio(poem, language="en") == 5 / 5


def test_poem_analysis_passes_the_language_to_every_analyzer():
    german = poem_analysis([DEVOICED, SONNET_OPENING], language="de", collection=False)
    english = poem_analysis([DEVOICED, SONNET_OPENING], language="en", collection=False)
    assert german["rhyme_richness"] == 1.0 and english["rhyme_richness"] < 1.0
