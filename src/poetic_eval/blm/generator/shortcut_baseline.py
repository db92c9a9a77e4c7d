"""A context-blind baseline: can the correct answer be told from the answers alone?

A bag-of-words logistic regression scores each answer sentence without its context; it is
trained on some of a config's items (answer sentences labelled correct or not) and picks, in
each held-out item, the answer it scores highest. The features are binary (whether a word is in
the answer) and the fit is converged: the summed log loss plus ``0.5 * ||w||^2 / C``
(:data:`C`; the intercept is not penalised) minimised by L-BFGS to a tight tolerance, the model
scikit-learn's default ``LogisticRegression(C=1.0)`` fits, so the figures are the ones a reader
who ran that would compute. (Until issue 40's round 4 it was 400 steps of gradient descent,
which stopped far short of that minimum and under-read the answers' form.) Two protocols
(:data:`PROTOCOLS`) choose the training items:

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
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import sparse
from scipy.optimize import minimize

from ...checks import require_choice
from ...errors import InvalidValueError
from ..records import strip_answer_prefix

_WORD = re.compile(r"\w+|[^\w\s]")
#: inverse strength of the L2 penalty, as scikit-learn's ``LogisticRegression(C=1.0)`` default
C = 1.0
#: L-BFGS stops when no gradient component exceeds this (scikit-learn's default tol is 1e-4)
TOLERANCE = 1e-6
#: L-BFGS iterations at most; a fit that has not converged by then raises
MAX_ITERATIONS = 5000
PROTOCOLS = ("random_half", "verb_split")
#: splits averaged per protocol (seeds 0 .. REPEATS-1)
REPEATS = 3

Rows = Sequence[Mapping[str, Any]]


def answer_words(sentence: str) -> set[str]:
    """The lower-cased words of one answer (its letter prefix dropped)."""
    return set(_WORD.findall(strip_answer_prefix(sentence).lower()))


def _matrix(rows: Rows, vocabulary: dict[str, int]) -> sparse.csr_matrix:
    """Binary bag-of-words rows, one per answer, with a last column of ones (the intercept);
    sparse, as a dense product is slow where BLAS threads compete for the cores."""
    columns: list[int] = []
    pointers = [0]
    for row in rows:
        for sentence in row["Answer_set"]:
            columns.extend(sorted(vocabulary[w] for w in answer_words(sentence) if w in vocabulary))
            columns.append(len(vocabulary))  # intercept
            pointers.append(len(columns))
    return sparse.csr_matrix(
        (np.ones(len(columns)), columns, pointers), shape=(len(pointers) - 1, len(vocabulary) + 1)
    )


def annotations_in_order(row: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The row's answer annotations in the order of ``Answer_set`` (options A-H)."""
    return sorted(row["Answer_set_annotation"], key=lambda entry: entry["option"])


def _targets(rows: Rows) -> np.ndarray:
    return np.array(
        [float(entry["value"]) for row in rows for entry in annotations_in_order(row)],
        dtype=np.float64,
    )


def _loss_and_gradient(
    weights: np.ndarray, features: sparse.csr_matrix, targets: np.ndarray, inverse_strength: float
) -> tuple[float, np.ndarray]:
    margins = features @ weights
    # log(1 + exp(m)) - y * m, summed; logaddexp keeps large margins finite
    loss = float(np.sum(np.logaddexp(0.0, margins) - targets * margins))
    gradient = features.T @ (_sigmoid(margins) - targets)
    penalised = weights.copy()
    penalised[-1] = 0.0  # the last column is the intercept, not penalised
    loss += 0.5 * float(penalised @ penalised) / inverse_strength
    return loss, gradient + penalised / inverse_strength


def _sigmoid(margins: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * margins))


def fit_logistic_regression(
    features: sparse.csr_matrix, targets: np.ndarray, inverse_strength: float = C
) -> np.ndarray:
    """Weights (the last one the intercept, the last column of ``features`` being ones) of the
    L2-regularised logistic regression that minimises the summed log loss plus
    ``0.5 * ||w||^2 / inverse_strength`` over all weights but the intercept: scikit-learn's
    ``LogisticRegression(C=inverse_strength)``. Fitted by L-BFGS until no gradient component
    exceeds :data:`TOLERANCE`; raises if that takes more than :data:`MAX_ITERATIONS`."""
    result = minimize(
        _loss_and_gradient,
        np.zeros(features.shape[1]),
        args=(features, targets.astype(np.float64), inverse_strength),
        method="L-BFGS-B",
        jac=True,
        options={
            "gtol": TOLERANCE,
            "ftol": 0.0,
            "maxiter": MAX_ITERATIONS,
            "maxfun": 2 * MAX_ITERATIONS,
        },
    )
    gradient = _loss_and_gradient(result.x, features, targets, inverse_strength)[1]
    if np.max(np.abs(gradient)) > 100 * TOLERANCE:
        raise RuntimeError(f"the baseline's fit did not converge: {result.message}")
    return result.x


@dataclass(frozen=True)
class FittedBaseline:
    """The baseline fitted on some items: its vocabulary (the training answers' words, in
    order) and one weight per word (the last weight the intercept)."""

    words: tuple[str, ...]
    weights: np.ndarray

    def scores(self, rows: Rows) -> np.ndarray:
        """An (items, 8) array: each answer's score, in the order of ``Answer_set``."""
        vocabulary = {word: index for index, word in enumerate(self.words)}
        return (_matrix(rows, vocabulary) @ self.weights).reshape(len(rows), 8)


def fit_baseline(train: Rows) -> FittedBaseline:
    """The baseline fitted on the answers of ``train``."""
    words = sorted({w for row in train for s in row["Answer_set"] for w in answer_words(s)})
    vocabulary = {word: index for index, word in enumerate(words)}
    weights = fit_logistic_regression(_matrix(train, vocabulary), _targets(train))
    return FittedBaseline(tuple(words), weights)


def held_out_accuracy(train: Rows, held_out: Rows) -> float:
    """Accuracy on ``held_out`` of the baseline trained on ``train``."""
    scores = fit_baseline(train).scores(held_out)
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
