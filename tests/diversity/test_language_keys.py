"""The language is part of every corpus cache key that reads words or sound (in memory and on
disk), and the semantic dimension's one-line warning for German with the English default."""

from __future__ import annotations

import random
import warnings

import pytest
from encoder_doubles import CountingEncoder

from poetic_eval.diversity import max_similarity, poetic_diversity, semantic
from poetic_eval.diversity.encoders import (
    MULTILINGUAL_MODEL_NAME,
    EnglishOnlyEncoderWarning,
)
from poetic_eval.text import PoemCorpus
from poetic_eval.text.corpus import DISK_CACHE_MIN_POEMS

DIMENSIONS = ["length", "rhyme", "lexical"]
# German rhymes English rules do not hear (devoicing, ei, feminine), and dashes and a
# combining umlaut that German tokens split and join differently
RHYMES = [["Wald", "kalt", "bald", "alt"], ["Zeit", "Leid", "weit", "bereit"],
          ["Bäume", "Träume", "Räume", "Säume"]]  # fmt: skip
OPENINGS = ["Der Weg–durch den", "Und fu\u0308r den", "Wir sahen--den", "Im Traum, der"]


def german_quatrains(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    poems = []
    for index in range(count):
        a, b = rng.sample(RHYMES, 2)
        ends = [a[0], b[0], a[1], b[1]] if index % 2 else [a[0], a[1], b[0], b[1]]
        poems.append("\n".join(f"{rng.choice(OPENINGS)} {index} {end}" for end in ends))
    return poems


def kept_keys(corpus: PoemCorpus) -> dict[str, set[str]]:
    """For each kind of result kept on the corpus, the languages in its keys."""
    found: dict[str, set[str]] = {}
    for key in corpus._derived:
        languages = {part for part in key if part in ("en", "de")}
        found.setdefault(key[0], set()).update(languages)
    return found


def test_one_corpus_keeps_each_language_apart_in_memory():
    human, generated = german_quatrains(40, 0), german_quatrains(10, 1)
    corpus = PoemCorpus(human)
    english = poetic_diversity(generated, corpus, dimensions=DIMENSIONS, language="en")
    german = poetic_diversity(generated, corpus, dimensions=DIMENSIONS, language="de")
    assert kept_keys(corpus) == {
        "quatrain_schemes": {"en", "de"},
        "poem_lengths": {"en", "de"},
        "lexical_diversity": {"en", "de"},
    }
    # each equals the plain-list computation of its own language, not the other's kept one
    assert german == poetic_diversity(generated, human, dimensions=DIMENSIONS, language="de")
    assert english == poetic_diversity(generated, human, dimensions=DIMENSIONS, language="en")
    for key in ("reference_scheme_distribution_ABAB", "reference_length_mean", "reference_mattr"):
        assert german[key] != english[key], key


def test_the_disk_cache_keeps_each_language_apart(tmp_path):
    human, generated = german_quatrains(DISK_CACHE_MIN_POEMS, 2), german_quatrains(12, 3)
    english = poetic_diversity(
        generated, PoemCorpus(human, cache_dir=tmp_path), dimensions=DIMENSIONS, language="en"
    )
    assert len(list((tmp_path / "corpus").iterdir())) == 3  # schemes, lengths, lexical scores
    german = poetic_diversity(
        generated, PoemCorpus(human, cache_dir=tmp_path), dimensions=DIMENSIONS, language="de"
    )
    assert len(list((tmp_path / "corpus").iterdir())) == 6  # none of the English files reused
    assert german["reference_scheme_distribution_ABAB"] == 0.5  # every other one is ABAB
    assert english["reference_scheme_distribution_ABAB"] != 0.5
    again = poetic_diversity(
        generated, PoemCorpus(human, cache_dir=tmp_path), dimensions=DIMENSIONS, language="de"
    )
    assert again == german  # read back from the German files
    assert len(list((tmp_path / "corpus").iterdir())) == 6


@pytest.fixture
def encoder(monkeypatch):
    """The default encoder replaced by a cheap double: what is tested is the warning."""
    double = CountingEncoder()
    monkeypatch.setattr(semantic, "load_sentence_encoder", lambda model, device: double)
    return double


POEMS = ["Der Abend kommt\nmit kühlem Wind", "Die Nacht ist still\nund sternenklar"]


def test_german_with_the_english_default_encoder_warns_once(encoder):
    with pytest.warns(EnglishOnlyEncoderWarning) as caught:
        max_similarity(POEMS, language="de")
    [warning] = caught
    message = str(warning.message)
    assert "\n" not in message and "English-only" in message
    assert MULTILINGUAL_MODEL_NAME in message
    with pytest.warns(EnglishOnlyEncoderWarning):
        max_similarity(POEMS, model="sentence-transformers/all-MiniLM-L6-v2", language="de")
    with pytest.warns(EnglishOnlyEncoderWarning):
        poetic_diversity(POEMS, dimensions=["semantic"], language="de")


def test_no_warning_for_english_or_a_named_model(encoder):
    with warnings.catch_warnings():
        warnings.simplefilter("error", EnglishOnlyEncoderWarning)
        max_similarity(POEMS, language="en")
        max_similarity(POEMS, model=MULTILINGUAL_MODEL_NAME, language="de")
        max_similarity(POEMS, model=CountingEncoder(), language="de")
    with pytest.raises(ValueError, match="did you mean 'de'"):
        max_similarity(POEMS, language="dee")
