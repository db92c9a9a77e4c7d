"""A context-blind baseline: can the correct answer be told from the answers alone?

A bag-of-words logistic regression scores each answer sentence without its context; it is
trained on some of a config's items (answer sentences labelled correct or not) and picks, in
each held-out item, the answer it scores highest. Two protocols (:data:`PROTOCOLS`) choose the
training items:

* ``random_half``: a seeded random half of the items, scored on the other half;
* ``verb_split``: the items of a seeded random half of the verbs (the ``Verb`` field: CausI/OdI
  the item's verb, AgrI the correct answer's predicate), scored on the items of the other verbs,
  so the two share no verb: a model cannot learn which nouns go with which verb.

Each protocol is run :data:`REPEATS` times with seeds 0, 1, ... and the accuracies averaged, so
one lucky split does not decide the figure. An accuracy near chance (1/8) means the answers'
form does not give the correct one away, so a model must read the context. The dataset card
reports both for every config.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ...checks import require_choice
from ...errors import InvalidValueError
from ..records import strip_answer_prefix

_WORD = re.compile(r"\w+|[^\w\s]")
STEPS = 400
LEARNING_RATE = 0.5
L2 = 1e-3
PROTOCOLS = ("random_half", "verb_split")
#: splits averaged per protocol (seeds 0 .. REPEATS-1)
REPEATS = 3

Rows = Sequence[Mapping[str, Any]]


def answer_words(sentence: str) -> set[str]:
    """The lower-cased words of one answer (its letter prefix dropped)."""
    return set(_WORD.findall(strip_answer_prefix(sentence).lower()))


def _matrix(rows: Rows, vocabulary: dict[str, int]) -> np.ndarray:
    features = np.zeros((len(rows) * 8, len(vocabulary) + 1), dtype=np.float32)
    features[:, -1] = 1.0  # intercept
    for r, row in enumerate(rows):
        for a, sentence in enumerate(row["Answer_set"]):
            for word in answer_words(sentence):
                if word in vocabulary:
                    features[r * 8 + a, vocabulary[word]] = 1.0
    return features


def _targets(rows: Rows) -> np.ndarray:
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


def held_out_accuracy(train: Rows, held_out: Rows) -> float:
    """Accuracy on ``held_out`` of the baseline trained on ``train``."""
    words = sorted({w for row in train for s in row["Answer_set"] for w in answer_words(s)})
    vocabulary = {word: index for index, word in enumerate(words)}
    weights = fit_logistic_regression(_matrix(train, vocabulary), _targets(train))
    scores = (_matrix(held_out, vocabulary) @ weights).reshape(len(held_out), 8)
    correct = np.array(["ABCDEFGH".index(row["Correct_option"]) for row in held_out])
    return float(np.mean(scores.argmax(axis=1) == correct))


def split_rows(rows: Rows, protocol: str, seed: int) -> tuple[list, list]:
    """``rows`` cut into (train, held out) by ``protocol`` (:data:`PROTOCOLS`) with ``seed``.

    ``verb_split`` shuffles the verbs and gives them to the training side until it holds half
    the items, so the two sides share no verb and are of about the same size."""
    require_choice(protocol, PROTOCOLS, "baseline protocol")
    rng = random.Random(f"context-blind:{protocol}:{seed}")
    if protocol == "random_half":
        order = rng.sample(range(len(rows)), len(rows))
        half = set(order[: len(rows) // 2])
        return [r for i, r in enumerate(rows) if i in half], [
            r for i, r in enumerate(rows) if i not in half
        ]
    verbs = sorted({row["Verb"] for row in rows})
    if len(verbs) < 2:
        raise InvalidValueError("a verb split needs items of at least 2 verbs")
    rng.shuffle(verbs)
    counts = {verb: sum(row["Verb"] == verb for row in rows) for verb in verbs}
    train_verbs: set[str] = set()
    for verb in verbs[:-1]:  # the last verb stays held out whatever the counts
        if sum(counts[v] for v in train_verbs) >= len(rows) / 2:
            break
        train_verbs.add(verb)
    return [r for r in rows if r["Verb"] in train_verbs], [
        r for r in rows if r["Verb"] not in train_verbs
    ]


def context_blind_accuracy(
    rows: Rows, protocol: str = "random_half", repeats: int = REPEATS
) -> float:
    """The baseline's mean held-out accuracy over ``repeats`` splits of ``rows`` by
    ``protocol`` (``random_half`` or ``verb_split``)."""
    if len(rows) < 4:
        raise InvalidValueError(f"the baseline needs at least 4 items, got {len(rows)}")
    accuracies = [held_out_accuracy(*split_rows(rows, protocol, seed)) for seed in range(repeats)]
    return float(np.mean(accuracies))
