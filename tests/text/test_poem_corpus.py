"""PoemCorpus: reference-side work of the diversity metrics done once, with unchanged numbers."""

from __future__ import annotations

import importlib
import pickle
import random
import shutil

import numpy as np
import pytest
from encoder_doubles import CountingEncoder

from bench.synthetic_poems import SyntheticPoems
from poetic_eval.diversity import poetic_diversity
from poetic_eval.diversity.length import poem_lengths
from poetic_eval.text import PoemCorpus, derived, require_texts

# the modules, not the functions of the same name that poetic_eval.diversity re-exports
lexical_module = importlib.import_module("poetic_eval.diversity.lexical")
memorization_module = importlib.import_module("poetic_eval.diversity.memorization")
rhyme_module = importlib.import_module("poetic_eval.diversity.rhyme_distribution")


def test_corpus_is_validated_and_passes_through_require_texts():
    with pytest.raises(ValueError, match=r"references\[1\] is empty"):
        PoemCorpus(["a poem", "  "])
    with pytest.raises(TypeError, match="not a single string"):
        PoemCorpus("a poem")
    corpus = PoemCorpus(["one\ntwo", "three"])
    assert require_texts(corpus, "references") is corpus
    assert PoemCorpus(corpus) is corpus
    assert list(corpus) == ["one\ntwo", "three"] and len(corpus) == 2
    calls = []
    assert derived(corpus, "k", lambda: calls.append(1) or 5) == 5
    assert derived(corpus, "k", lambda: calls.append(1) or 6) == 5
    assert derived(["plain", "list"], "k", lambda: calls.append(1) or 7) == 7
    assert calls == [1, 1]
    copy = pickle.loads(pickle.dumps(corpus))
    assert isinstance(copy, PoemCorpus) and copy == corpus
    assert derived(copy, "k", lambda: 8) == 8  # derived results stay in their process


def _counting(monkeypatch, module, name, corpus):
    """Count the calls of module.name that receive ``corpus`` as their first argument."""
    original = getattr(module, name)
    counts = {"corpus": 0}

    def wrapper(first, *args, **kwargs):
        if first is corpus:
            counts["corpus"] += 1
        return original(first, *args, **kwargs)

    monkeypatch.setattr(module, name, wrapper)
    return counts


def test_every_dimension_gives_the_same_numbers_and_derives_the_reference_side_once(
    monkeypatch, tmp_path
):
    rng = random.Random(4)
    poems = SyntheticPoems(rng)
    references = poems.rhyming_quatrains(60) + poems.poems(20)
    corpus = PoemCorpus(references)
    units = _counting(monkeypatch, memorization_module, "_units_by_text", corpus)
    schemes = _counting(monkeypatch, rhyme_module, "_schemes_of_quatrains", corpus)
    tokens = _counting(monkeypatch, lexical_module, "poem_type_ids", corpus)
    encoder = CountingEncoder()
    options = {"semantic_model": encoder, "semantic_cache_dir": str(tmp_path)}
    for round_ in range(3):
        predictions = poems.rhyming_quatrains(8) + [references[round_], references[70]]
        plain = poetic_diversity(predictions, references, **options)
        kept = poetic_diversity(predictions, corpus, **options)
        assert kept.keys() == plain.keys()
        for key, value in plain.items():
            assert kept[key] == pytest.approx(value, nan_ok=True, rel=1e-6), key
    assert units["corpus"] == 3  # one per level, on the first call only
    assert schemes["corpus"] == 1 and tokens["corpus"] == 1
    reference_sentences = len(references)
    # plain lists: the references are read from the disk cache, never encoded again
    assert encoder.encoded_texts == reference_sentences + 3 * 2 * len(predictions)
    shutil.rmtree(tmp_path / "embeddings")  # the corpus keeps its embeddings in memory
    poetic_diversity(predictions, corpus, dimensions="semantic", **options)
    assert encoder.encoded_texts == reference_sentences + 7 * len(predictions)
    assert not (tmp_path / "embeddings").exists()
    lengths = poem_lengths(corpus)
    assert lengths is poem_lengths(corpus) and not lengths.flags.writeable
    np.testing.assert_array_equal(lengths, poem_lengths(references))


def test_options_are_part_of_the_key():
    corpus = PoemCorpus(SyntheticPoems(1).poems(30))
    predictions = SyntheticPoems(2).poems(5)
    narrow = poetic_diversity(predictions, corpus, dimensions="lexical", lexical_window=5)
    wide = poetic_diversity(predictions, corpus, dimensions="lexical", lexical_window=50)
    assert narrow["reference_mattr"] != wide["reference_mattr"]
    assert narrow == poetic_diversity(
        predictions, list(corpus), dimensions="lexical", lexical_window=5
    )
