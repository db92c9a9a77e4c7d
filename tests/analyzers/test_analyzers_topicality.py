"""Topicality: retrieval scores against scikit-learn, the encoder plumbing, the real model."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from encoder_doubles import CountingEncoder, WordTokenizer
from sklearn.metrics import f1_score, precision_recall_fscore_support

from poetic_eval.analyzers import analyze_collection, poem_analysis, read_poem_collection
from poetic_eval.analyzers.poem import Poem
from poetic_eval.analyzers.topicality import retrieval_scores, topicality
from poetic_eval.diversity import TruncationWarning

FILLERS = ["the", "a", "of", "and", "old", "song", "light", "hand", "road", "bell", "dust"]


def test_retrieval_scores_equal_scikit_learn():
    rng = random.Random(0)
    for _ in range(200):
        labels = rng.sample(["sea", "fire", "love", "war", "snow"], rng.randint(1, 5))
        n = rng.randint(1, 25)
        true = [rng.choice(labels) for _ in range(n)]
        predicted = [rng.choice(labels + ["extra"]) for _ in range(n)]
        ours = retrieval_scores(true, predicted)
        assert ours["macro_f1"] == pytest.approx(
            f1_score(true, predicted, average="macro", zero_division=0), abs=1e-12
        )
        assert ours["accuracy"] == pytest.approx(np.mean(np.array(true) == np.array(predicted)))
        order = sorted(ours["per_topic"])
        precision, recall, f1, support = precision_recall_fscore_support(
            true, predicted, labels=order, zero_division=0
        )
        for i, label in enumerate(order):
            scores = ours["per_topic"][label]
            assert (scores["precision"], scores["recall"]) == pytest.approx(
                (precision[i], recall[i])
            )
            assert scores["f1"] == pytest.approx(f1[i]) and scores["support"] == support[i]


def _topical_poems(rng: random.Random, topics: list[str], per_topic: int) -> list[str]:
    poems = []
    for topic in topics:
        for _ in range(per_topic):
            lines = [" ".join(rng.choices(FILLERS, k=4)) + f" {topic} {topic}" for _ in range(3)]
            poems.append("\n".join(lines))
    return poems


def test_topicality_retrieves_topics_with_an_encoder_double():
    rng = random.Random(1)
    topics = ["lighthouse", "volcano", "orchard"]
    poems = _topical_poems(rng, topics, 4)
    labels = [t for t in topics for _ in range(4)]
    encoder = CountingEncoder(dim=256)
    result = topicality([Poem(p) for p in poems], labels, model=encoder, return_predictions=True)
    assert result["macro_f1"] == 1.0 and result["predictions"] == labels
    assert encoder.calls[0] == [" ".join(p.split("\n")) for p in poems]  # lines joined by spaces
    assert encoder.calls[1] == sorted(topics)
    with_distractor = topicality(
        [Poem(p) for p in poems], labels, model=encoder, candidate_topics=["glacier"]
    )
    assert "glacier" not in with_distractor["per_topic"]  # never true, never predicted
    assert analyze_collection(poems, ["topicality"])["topicality"] is None  # no topics
    with pytest.raises(ValueError, match="topics has 2 entries for 12 poems"):
        topicality([Poem(p) for p in poems], ["a", "b"], model=encoder)


def test_topicality_with_the_bundled_model_offline():
    rng = random.Random(2)
    topics = ["the ocean and its waves", "a burning fire", "snow in winter"]
    cues = {
        topics[0]: "sea waves tide salt",
        topics[1]: "flame smoke ember blaze",
        topics[2]: "snow frost ice cold",
    }
    poems, labels = [], []
    for topic in topics:
        for _ in range(3):
            cue = cues[topic].split()
            poems.append("\n".join(" ".join(rng.sample(cue, 3)) for _ in range(2)))
            labels.append(topic)
    result = analyze_collection(poems, ["topicality"], topics=labels)["topicality"]
    assert result["macro_f1"] >= 0.99, result


@pytest.mark.needs_shared_data
@pytest.mark.slow
def test_topicality_on_the_erato_gpt3_poems(shared_data):
    """The paper reports macro-F1 0.7-0.8 for GPT-3 with a multilingual encoder; measured with
    the bundled all-MiniLM-L6-v2: 0.743 (accuracy 0.777), "blue" retrieved at F1 1.0."""
    folder = shared_data / "erato_eval_poems/dataset_evaluation/dataset/openaienglish"
    collection = read_poem_collection(folder)
    result = analyze_collection(collection.poems, ["topicality"], topics=collection.topics)
    assert 0.7 <= result["topicality"]["macro_f1"] <= 0.8
    assert result["topicality"]["per_topic"]["blue"]["f1"] >= 0.9


class TruncatingEncoder(CountingEncoder):
    """The counting encoder reading only the first 6 words of a text, as a sentence encoder
    with max_seq_length 8 does."""

    max_seq_length = 8
    tokenizer = WordTokenizer()

    def encode(self, sentences, batch_size=32, show_progress_bar=None):
        cut = [" ".join(sentence.split()[:6]) for sentence in sentences]
        vectors = super().encode(cut, batch_size, show_progress_bar)
        self.calls[-1] = list(sentences)
        return vectors


def _long_poems_with_the_topic_at_the_end(topics: list[str], per_topic: int) -> list[Poem]:
    """Every poem opens with the same 3 lines of 6 words; its topic comes in its last lines."""
    opening = ["the old road and the bell"] * 3
    poems = []
    for topic in topics:
        for k in range(per_topic):
            ending = [f"{topic} {topic} {topic}", f"{FILLERS[k]} {topic} {topic}"]
            poems.append(Poem("\n".join(opening + ending)))
    return poems


@pytest.mark.parametrize("encoding", ["lines", "chunks"])
def test_lines_and_chunks_read_the_end_of_a_poem_the_encoder_would_cut(encoding):
    topics = ["lighthouse", "volcano", "orchard"]
    poems = _long_poems_with_the_topic_at_the_end(topics, 3)
    labels = [t for t in topics for _ in range(3)]
    with pytest.warns(TruncationWarning, match=r"^9 of 9 poems .*encoding='chunks'"):
        cut = topicality(poems, labels, model=TruncatingEncoder())
    assert cut["macro_f1"] < 0.5  # every poem looks the same: its opening
    encoder = TruncatingEncoder()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        whole = topicality(poems, labels, model=encoder, encoding=encoding)
    assert whole["macro_f1"] == 1.0
    expected = {
        "lines": list(poems[0].lines),
        "chunks": ["the old road and the bell"] * 3
        + ["lighthouse lighthouse lighthouse the lighthouse lighthouse"],
    }[encoding]
    assert encoder.calls[0][: len(expected)] == expected
    assert encoder.calls[1] == sorted(topics)  # topics are embedded whole


def test_encoding_reaches_topicality_through_the_runners_and_is_checked():
    topics = ["lighthouse", "volcano"]
    poems = _long_poems_with_the_topic_at_the_end(topics, 2)
    texts = [poem.text for poem in poems]
    labels = [t for t in topics for _ in range(2)]
    options = {"topics": labels, "model": TruncatingEncoder(), "encoding": "chunks"}
    assert analyze_collection(texts, ["topicality"], **options)["topicality"]["macro_f1"] == 1.0
    summary = poem_analysis(texts, analyzers=["topicality"], **options)
    assert summary["topicality_macro_f1"] == 1.0
    with pytest.raises(ValueError, match="unknown encoding .*choices: poem, lines, chunks"):
        topicality(poems, labels, model=CountingEncoder(), encoding="stanzas")
    with pytest.raises(ValueError, match="encoding='chunks' needs an encoder with a tokenizer"):
        topicality(poems, labels, model=CountingEncoder(), encoding="chunks")


def test_chunks_read_all_of_a_long_poem_with_the_bundled_model():
    """A poem past all-MiniLM-L6-v2's 256 word pieces: cut with the default encoding (the
    warning names encoding='chunks'), read whole with it."""
    opening = "\n".join(["the old road and the quiet bell beside the grey stone wall"] * 30)
    poems = [
        Poem(f"{opening}\nsea waves tide salt\nthe sea the waves the tide"),
        Poem(f"{opening}\nflame smoke ember blaze\nthe fire the flame the smoke"),
        Poem("sea waves and tide\nsalt on the shore"),
        Poem("flame and ember\nsmoke and blaze"),
    ]
    labels = ["the ocean and its waves", "a burning fire"] * 2
    with pytest.warns(TruncationWarning, match=r"^2 of 4 poems .*256 word pieces.*'chunks'"):
        topicality(poems, labels)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        chunks = topicality(poems, labels, encoding="chunks", return_predictions=True)
    assert chunks["predictions"] == labels
