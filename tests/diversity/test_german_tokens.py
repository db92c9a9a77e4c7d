"""German token rules (language="de"): against a character-by-character reference written
here, on generated German text; and ATTR / MATTR / MTLD of German poems against
lexicalrichness on the same tokens."""

from __future__ import annotations

import random
import unicodedata

import numpy as np
import pytest
from lexicalrichness import LexicalRichness

from poetic_eval.diversity import attr, lexical_diversity
from poetic_eval.diversity.length import poem_lengths
from poetic_eval.diversity.word_tokens import word_count, word_tokens

HYPHENS = {"-", "\u2010", "\u2011"}  # a hyphen joins (or truncates) words; it is deleted
APOSTROPHES_NOT_PUNCTUATION = {"\u00b4", "\u02bc", "\u02b9"}  # letters/symbols in Unicode


def reference_tokens(text: str) -> list[str]:
    """The German rule, one character at a time (no regex, no translate tables)."""
    text = unicodedata.normalize("NFC", text).lower()
    out: list[str] = []
    index = 0
    while index < len(text):
        char = text[index]
        run = 1
        while char == "-" and index + run < len(text) and text[index + run] == "-":
            run += 1
        category = unicodedata.category(char)
        if run > 1:  # two or more hyphens are a dash
            out.append(" ")
        elif category == "Pd" and char not in HYPHENS or char == "\u2212":
            out.append(" ")  # a dash (or a minus sign) separates
        elif category.startswith("P") or char in APOSTROPHES_NOT_PUNCTUATION:
            pass
        elif char.isascii() and not char.isalnum() and not char.isspace():
            pass  # ASCII symbols ($, +, <, ...) go with punctuation, as in English
        else:
            out.append(char)
        index += run
    return "".join(out).split()


WORDS = [
    "Straße", "STRAẞE", "Maße", "Masse", "für", "fu\u0308r", "Ärger", "A\u0308rger", "Öl",
    "über", "geht's", "geht´s", "gehtʼs", "geht’s", "hab'", "ew'ge", "Rosen-Duft", "Ein-",
    "und", "Ausgang", "Nacht", "Tag", "„Wer", "reitet“", "»so", "spät«", "‚durch‘", "›Nacht‹",
    "Wind?", "Kind!", "Vater;", "(leise)", "Mond:", "1848", "Lied", "Lieder", "Weh…",
]  # fmt: skip
GLUE = [" ", " ", " ", "\n", " – ", "–", "—", " -- ", "--", " - ", "\u2212"]


def german_text(rng: random.Random, words: int) -> str:
    parts = [rng.choice(WORDS)]
    for _ in range(words - 1):
        parts += [rng.choice(GLUE), rng.choice(WORDS)]
    return "".join(parts)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_german_tokens_equal_the_character_reference(seed):
    rng = random.Random(seed)
    for _ in range(300):
        text = german_text(rng, rng.randint(1, 30))
        assert word_tokens(
            text, language="de", lowercase=True, remove_punctuation=True
        ) == reference_tokens(text)


def test_what_the_german_rules_change():
    line = "Die STRAẞE – Rosen-Duft, geht´s „gut“? Ein- und Ausgang; Nacht--und Tag, fu\u0308r Maße"
    german = word_tokens(line, language="de", lowercase=True, remove_punctuation=True)
    assert german == [
        "die", "straße", "rosenduft", "gehts", "gut", "ein", "und", "ausgang",
        "nacht", "und", "tag", "für", "maße",
    ]  # fmt: skip
    english = word_tokens(line, language="en", lowercase=True, remove_punctuation=True)
    assert "geht´s" in english and "nachtund" in english  # what the English rule leaves
    assert "fu\u0308r" in english  # a combining umlaut stays a different spelling
    # the three apostrophes are one type; "ß" is not "ss"
    spellings = ["geht's", "geht´s", "gehtʼs", "geht’s"]
    assert {tuple(word_tokens(w, language="de", remove_punctuation=True)) for w in spellings} == {
        ("geht" + "s",)
    }
    assert word_tokens("Maße Masse", language="de", lowercase=True) == ["maße", "masse"]
    assert word_tokens("Das Leben", language="de") == ["Das", "Leben"]  # case kept when asked


def test_unknown_language_names_the_choices():
    with pytest.raises(ValueError, match="did you mean 'de'"):
        word_tokens("Haus", language="deu")
    with pytest.raises(ValueError, match="did you mean"):
        lexical_diversity(["ein Haus"], language="dee")


def german_poems(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    return ["\n".join(german_text(rng, rng.randint(3, 7)) for _ in range(4)) for _ in range(count)]


@pytest.mark.parametrize("seed", [0, 1])
def test_lexical_scores_equal_lexicalrichness_on_the_german_tokens(seed):
    poems = german_poems(seed, 60)
    token_lists = [reference_tokens(poem) for poem in poems]
    stream = [token for tokens in token_lists for token in tokens]
    scores = lexical_diversity(
        poems, language="de", window=20, min_segment=0, strict=False,
        final_token_closes_factor=True,
    )  # fmt: skip
    richness = LexicalRichness(stream, preprocessor=None, tokenizer=None)
    assert scores["mattr"] == pytest.approx(richness.mattr(20), rel=1e-12)
    assert scores["mtld"] == pytest.approx(richness.mtld(0.72), rel=1e-12)
    assert scores["attr"] == pytest.approx(attr(token_lists), rel=1e-12)
    assert scores["attr"] == pytest.approx(
        np.mean([len(set(t)) / len(t) for t in token_lists]), rel=1e-12
    )
    # the same poems read with the English rule are other tokens, so other scores
    assert lexical_diversity(poems, language="en", window=20)["mattr"] != pytest.approx(
        lexical_diversity(poems, language="de", window=20)["mattr"], rel=1e-9
    )


def test_lengths_count_german_tokens():
    poems = german_poems(3, 40)
    expected = [len(reference_tokens(poem)) for poem in poems]
    assert poem_lengths(poems, language="de").tolist() == expected
    assert [word_count(poem, language="de") for poem in poems] == expected
    dashed = ["Nacht–und Tag\nWind—und Meer\nSonne--Mond\nStern"]
    assert poem_lengths(dashed, language="de").tolist() == [9]
    assert poem_lengths(dashed, language="en").tolist() == [6]
