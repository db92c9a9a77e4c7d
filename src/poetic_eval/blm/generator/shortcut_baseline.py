"""A context-blind baseline: can the correct answer be told from the answers alone?

A bag-of-words logistic regression scores each answer sentence without its context; it is
trained on the first half of a config's items (answer sentences labelled correct or not) and
picks, in each item of the second half, the answer it scores highest. An accuracy near chance
(1/8) means the answers' form does not give the correct one away, so a model must read the
context. The dataset card reports it for every config.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..records import strip_answer_prefix

_WORD = re.compile(r"\w+|[^\w\s]")
STEPS = 400
LEARNING_RATE = 0.5
L2 = 1e-3


def answer_words(sentence: str) -> set[str]:
    """The lower-cased words of one answer (its letter prefix dropped)."""
    return set(_WORD.findall(strip_answer_prefix(sentence).lower()))


def _matrix(rows: Sequence[Mapping[str, Any]], vocabulary: dict[str, int]) -> np.ndarray:
    features = np.zeros((len(rows) * 8, len(vocabulary) + 1), dtype=np.float32)
    features[:, -1] = 1.0  # intercept
    for r, row in enumerate(rows):
        for a, sentence in enumerate(row["Answer_set"]):
            for word in answer_words(sentence):
                if word in vocabulary:
                    features[r * 8 + a, vocabulary[word]] = 1.0
    return features


def _targets(rows: Sequence[Mapping[str, Any]]) -> np.ndarray:
    return np.array(
        [
            float(entry["value"])
            for row in rows
            for entry in sorted(row["Answer_set_annotation"], key=lambda e: e["option"])
        ],
        dtype=np.float32,
    )


def fit_logistic_regression(features: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """Weights of an L2-regularised logistic regression, by full-batch gradient descent."""
    weights = np.zeros(features.shape[1], dtype=np.float32)
    for _ in range(STEPS):
        predicted = 1.0 / (1.0 + np.exp(-(features @ weights)))
        gradient = features.T @ (predicted - targets) / len(targets) + L2 * weights
        weights -= LEARNING_RATE * gradient
    return weights


def context_blind_accuracy(rows: Sequence[Mapping[str, Any]]) -> float:
    """Accuracy on the second half of ``rows`` of the baseline trained on the first half."""
    if len(rows) < 4:
        raise ValueError(f"the baseline needs at least 4 items, got {len(rows)}")
    half = len(rows) // 2
    train, held_out = rows[:half], rows[half:]
    words = sorted({w for row in train for s in row["Answer_set"] for w in answer_words(s)})
    vocabulary = {word: index for index, word in enumerate(words)}
    weights = fit_logistic_regression(_matrix(train, vocabulary), _targets(train))
    scores = (_matrix(held_out, vocabulary) @ weights).reshape(len(held_out), 8)
    correct = np.array(["ABCDEFGH".index(row["Correct_option"]) for row in held_out])
    return float(np.mean(scores.argmax(axis=1) == correct))
