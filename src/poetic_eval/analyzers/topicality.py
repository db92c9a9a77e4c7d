"""Topicality: can a sentence encoder tell each poem's topic from the others? (lexico-semantic)

Each poem and each candidate topic string is embedded with a sentence encoder (default: the
bundled all-MiniLM-L6-v2, offline; the reference uses distiluse-base-multilingual-cased-v1,
which any name or path in ``model`` can select). ``encoding`` says how a poem becomes a vector
(:mod:`poetic_eval.diversity.poem_embeddings`): ``"poem"`` (default: its non-empty lines joined
by spaces, one sentence, of which the encoder reads only its first ``max_seq_length`` word
pieces, 256 for all-MiniLM-L6-v2, with a ``TruncationWarning`` saying how many poems were cut),
``"lines"`` (the mean of its line vectors) or ``"chunks"`` (the mean of the vectors of runs of
lines that fit the encoder, so all of a long poem is read; needs a sentence-transformers
encoder). Topic strings are always embedded whole. A poem's predicted topic is the candidate
with the highest cosine similarity (ties: the first in sorted order). Candidates are the
distinct given topics, plus any ``candidate_topics`` (distractors). Reported: macro-F1 over the
topics that are true or predicted for some poem (as scikit-learn's
``f1_score(average="macro")``), accuracy, and per topic its precision, recall, F1, support
(poems with that topic) and how often it was predicted.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..checks import require_positive_int
from ..diversity import encode_poems, load_sentence_encoder
from ..diversity.encoders import warn_if_english_only
from ..diversity.poem_embeddings import check_encoding
from ..errors import InvalidValueError
from ..label_scores import macro_f1, per_label_scores
from ..text import require_texts, resolve_language
from .analyzer import Analyzer
from .poem import Poem


def retrieval_scores(true: Sequence[str], predicted: Sequence[str]) -> dict[str, Any]:
    """Macro-F1, accuracy and per-topic precision/recall/F1 of predicted against true labels."""
    per_topic = per_label_scores(true, predicted)
    accuracy = sum(label == guess for label, guess in zip(true, predicted)) / len(true)
    return {"macro_f1": macro_f1(per_topic), "accuracy": accuracy, "per_topic": per_topic}


def topicality(
    poems: Sequence[Poem],
    topics: Sequence[str] | None = None,
    candidate_topics: Sequence[str] | None = None,
    model: Any = None,
    device: str | None = None,
    batch_size: int = 64,
    return_predictions: bool = False,
    encoding: str = "poem",
    language: str = "en",
) -> dict[str, Any] | None:
    """Topic retrieval scores of a collection (module docstring); None without ``topics``.

    Args:
        poems: the collection.
        topics: one topic string per poem (e.g. the seed word of the prompt).
        candidate_topics: extra topics the encoder may choose from.
        model: sentence encoder: None (bundled all-MiniLM-L6-v2), a sentence-transformers
            name or path, or an instance with ``encode``.
        device, batch_size: for the encoder.
        return_predictions: add ``predictions``, the predicted topic of each poem.
        encoding: ``"poem"``, ``"lines"`` or ``"chunks"``: how a poem is embedded (module
            docstring); ``"chunks"`` reads all of a poem longer than the encoder's length.
        language: the poems' language; with ``"de"`` and the English-only default encoder,
            one warning names a multilingual model to pass.
    """
    if topics is None:
        return None
    topics = require_texts(topics, "topics")
    if len(topics) != len(poems):
        raise InvalidValueError(
            f"topics has {len(topics)} entries for {len(poems)} poems; give one topic per poem"
        )
    extra = require_texts(candidate_topics, "candidate_topics") if candidate_topics else []
    require_positive_int(batch_size, "batch_size")
    check_encoding(encoding)
    candidates = sorted(set(topics) | set(extra))
    warn_if_english_only(model, resolve_language(language))
    encoder = load_sentence_encoder(model, device)
    poem_vectors = encode_poems(
        [poem.text for poem in poems], encoder, encoding=encoding, batch_size=batch_size
    )
    topic_vectors = encode_poems(candidates, encoder, batch_size=batch_size)
    predicted = [candidates[i] for i in np.argmax(poem_vectors @ topic_vectors.T, axis=1)]
    result = retrieval_scores(topics, predicted)
    if return_predictions:
        result["predictions"] = predicted
    return result


TOPICALITY = Analyzer(
    name="topicality",
    kind="collection",
    aspect="lexico-semantic",
    analyze=topicality,
    description="macro-F1 of retrieving each poem's topic with sentence embeddings",
    options=(
        "topics",
        "candidate_topics",
        "model",
        "device",
        "batch_size",
        "return_predictions",
        "encoding",
        "language",
    ),
)
