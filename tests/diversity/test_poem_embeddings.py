"""How a poem becomes a vector: the whole poem (warned when cut at the encoder's length), its
lines or its chunks; cosines stay within [-1, 1]."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from encoder_doubles import CountingEncoder, WordTokenizer

from bench.synthetic_poems import SyntheticPoems
from poetic_eval.diversity import (
    TruncationWarning,
    encode_poems,
    load_sentence_encoder,
    max_similarity,
    poetic_diversity,
)
from poetic_eval.diversity.semantic import max_similarity_from_embeddings


class ShortEncoder(CountingEncoder):
    """The counting encoder, reading at most 4 words (6 word pieces with the special two)."""

    max_seq_length = 6
    tokenizer = WordTokenizer()


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("POETIC_EVAL_CACHE", str(tmp_path / "cache"))


def unit(rows):
    rows = np.asarray(rows, dtype=np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_cosines_are_clipped_to_one():
    rng = np.random.default_rng(0)
    for _ in range(1000):  # a unit vector whose float32 dot product with itself exceeds 1
        vector = unit(rng.standard_normal((1, 384)))[0]
        if vector @ vector > 1.0:
            break
    assert vector @ vector > 1.0
    same = np.stack([vector, vector, -vector])
    result = max_similarity_from_embeddings(
        same, same, reference_within_values=np.array([1.0000005]), return_values=True
    )
    assert result["within_max_sim_max"] == 1.0 and result["across_max_sim_max"] == 1.0
    assert max(result["within_max_sim_values"]) == 1.0
    assert result["reference_within_max_sim"] == 1.0


def test_identical_poems_score_exactly_one_with_minilm():
    poem = "the sea is grey\nthe gulls are loud"
    result = max_similarity([poem, poem], model=load_sentence_encoder(device="cpu"), cache=False)
    assert result["within_max_sim"] == 1.0


def test_long_poems_are_counted_once_in_a_warning():
    poems = ["one two\nthree", "one two three\nfour five six", "a b c d e\nf", "x y"]
    with pytest.warns(TruncationWarning, match=r"^2 of 4 poems are longer than the encoder's 6 "):
        encode_poems(poems, ShortEncoder())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        encode_poems(poems[:1] + poems[3:], ShortEncoder())
        encode_poems(poems[:2], ShortEncoder(), encoding="lines")  # each line fits
        encode_poems(poems, ShortEncoder(), encoding="chunks")
        encode_poems(poems, CountingEncoder())  # no tokenizer: nothing to tell


def test_minilm_warns_about_a_poem_over_256_word_pieces():
    poems = SyntheticPoems(random.Random(3)).rhyming_quatrains(5)
    long_poem = "\n".join(SyntheticPoems(random.Random(4)).rhyming_quatrains(30))
    with pytest.warns(TruncationWarning, match=r"^1 of 6 poems .* 256 word pieces.*'chunks'"):
        encode_poems([*poems, long_poem], load_sentence_encoder(device="cpu"))


def test_lines_are_the_normalised_mean_of_normalised_line_vectors():
    poems = ["the moon is high\nthe night is long", "a single line", "rain\n\nand snow\nfall"]
    encoder = CountingEncoder()
    found = encode_poems(poems, encoder, encoding="lines")
    assert encoder.calls == [["the moon is high", "the night is long", "a single line",
                              "rain", "and snow", "fall"]]  # fmt: skip
    for poem, row in zip(poems, found):
        lines = [line for line in poem.split("\n") if line]
        mean = unit(encoder.encode(lines)).mean(axis=0)
        np.testing.assert_allclose(row, mean / np.linalg.norm(mean), atol=1e-6)


def test_chunks_fill_the_encoder_length_and_split_long_lines():
    encoder = ShortEncoder()
    encode_poems(["a b c\nd e\nf g h i j k\nl"], encoder, encoding="chunks")
    assert encoder.calls == [["a b c", "d e", "f g h i", "j k l"]]


def test_encoding_is_checked_and_chunks_need_a_tokenizer():
    with pytest.raises(ValueError, match="unknown encoding .*choices: poem, lines, chunks"):
        max_similarity(["a b", "c d"], model=CountingEncoder(), encoding="stanzas")
    with pytest.raises(ValueError, match="encoding='chunks' needs an encoder with a tokenizer"):
        encode_poems(["a b"], CountingEncoder(), encoding="chunks")


def test_each_encoding_caches_its_own_reference_embeddings():
    generated = ["the moon is high\nthe night is long", "a b c\nd e f"]
    human = ["grey sea\nloud gulls", "a ledger\nunder the stair", "one\ntwo"]
    encoder = CountingEncoder()
    by_poem = max_similarity(generated, human, model=encoder)
    by_lines = max_similarity(generated, human, model=encoder, encoding="lines")
    assert by_poem != by_lines
    before = encoder.encoded_texts
    assert max_similarity(generated, human, model=encoder, encoding="lines") == by_lines
    assert encoder.encoded_texts - before == 4  # only the generated poems' lines again
    profile = poetic_diversity(
        generated, human, dimensions=["semantic"], semantic_model=encoder,
        semantic_encoding="lines",
    )  # fmt: skip
    assert profile["within_max_sim"] == by_lines["within_max_sim"]
