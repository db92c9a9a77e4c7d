"""Per-label precision, recall and F1 of predicted labels against true ones, and their macro-F1.

Used wherever a metric reports a classification: the BLM answer letters A-H and the topics of
the topicality analyzer. The labels scored are those that are true or predicted for some item,
as scikit-learn's default (``f1_score(average="macro", zero_division=0)``); a label's F1 is
``2 tp / (2 tp + fp + fn)``, 0 when it is never predicted correctly.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence

from .errors import InvalidValueError


def per_label_scores(
    true: Sequence[Hashable], predicted: Sequence[Hashable]
) -> dict[Hashable, dict[str, float]]:
    """``{label: {precision, recall, f1, support, predicted}}``, labels sorted; ``support`` is
    how often the label is true, ``predicted`` how often it was predicted."""
    if len(true) != len(predicted):
        raise InvalidValueError(f"{len(true)} true labels but {len(predicted)} predicted ones")
    hits = Counter(label for label, guess in zip(true, predicted) if label == guess)
    support, chosen = Counter(true), Counter(predicted)
    table: dict[Hashable, dict[str, float]] = {}
    for label in sorted(support.keys() | chosen.keys()):
        tp, fp, fn = hits[label], chosen[label] - hits[label], support[label] - hits[label]
        table[label] = {
            "precision": tp / (tp + fp) if tp + fp else 0.0,
            "recall": tp / (tp + fn) if tp + fn else 0.0,
            "f1": 2 * tp / (2 * tp + fp + fn),
            "support": support[label],
            "predicted": chosen[label],
        }
    return table


def macro_f1(table: dict[Hashable, dict[str, float]]) -> float:
    """The mean F1 over the labels of a :func:`per_label_scores` table (0.0 for no labels)."""
    return sum(scores["f1"] for scores in table.values()) / len(table) if table else 0.0
