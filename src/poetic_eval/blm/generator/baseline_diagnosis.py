"""What the context-blind baseline (:mod:`.shortcut_baseline`) reads in the answers, on one split.

The card's baseline figures say how far the answers' form gives the correct one away; this
says how: the words the fitted model weighs most toward and against an answer being correct,
which answers it picks, how often the correct answer scores above each wrong one (CausI/OdI:
against I-Int, the other answer with one argument), and its accuracy per verb. It is a tool for
whoever changes the generator (``scripts/diagnose_blm_baseline.py`` prints it for a config).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass

import numpy as np

from .shortcut_baseline import Rows, annotations_in_order, fit_baseline, split_rows


@dataclass(frozen=True)
class BaselineDiagnosis:
    """The baseline on one split (:func:`diagnose_baseline`)."""

    protocol: str
    seed: int
    #: held-out items, and the share whose correct answer the baseline picks
    items: int
    accuracy: float
    #: label of the answer picked -> held-out items
    picked: dict[str, int]
    #: wrong answer's label -> share of held-out items whose correct answer scores above it
    beats: dict[str, float]
    #: verb -> (accuracy, held-out items)
    per_verb: dict[str, tuple[float, int]]
    #: the words with the largest and the smallest weights, (word, weight), heaviest first
    toward_correct: list[tuple[str, float]]
    against_correct: list[tuple[str, float]]


def diagnose_baseline(
    rows: Rows, protocol: str = "random_half", seed: int = 0, top: int = 15
) -> BaselineDiagnosis:
    """Fit the baseline on the training side of split ``seed`` of ``rows`` by ``protocol``
    (as :func:`~.shortcut_baseline.context_blind_accuracy` does for each of its splits) and
    describe what it does on the held-out side; ``top`` words each way."""
    train, held_out = split_rows(rows, protocol, seed)
    fitted = fit_baseline(train)
    scores = fitted.scores(held_out)
    picked: Counter[str] = Counter()
    above: defaultdict[str, list[bool]] = defaultdict(list)
    per_verb: defaultdict[str, list[bool]] = defaultdict(list)
    for row, row_scores in zip(held_out, scores):
        labels = [entry["label"] for entry in annotations_in_order(row)]
        correct, chosen = labels.index("Correct"), int(np.argmax(row_scores))
        picked[labels[chosen]] += 1
        per_verb[row["Verb"]].append(chosen == correct)
        for index, label in enumerate(labels):
            if index != correct:
                above[label].append(bool(row_scores[correct] > row_scores[index]))
    order = np.argsort(fitted.weights[:-1])  # the last weight is the intercept
    weighted = [(fitted.words[i], float(fitted.weights[i])) for i in order]
    return BaselineDiagnosis(
        protocol=protocol,
        seed=seed,
        items=len(held_out),
        accuracy=picked["Correct"] / len(held_out),
        picked=dict(picked.most_common()),
        beats={label: float(np.mean(flags)) for label, flags in sorted(above.items())},
        per_verb={v: (float(np.mean(f)), len(f)) for v, f in sorted(per_verb.items())},
        toward_correct=weighted[::-1][:top],
        against_correct=weighted[:top],
    )


def diagnosis_text(diagnosis: BaselineDiagnosis) -> str:
    """The diagnosis as a few lines of plain text."""
    d = diagnosis
    verbs = sorted(d.per_verb.items(), key=lambda item: (-item[1][0], item[0]))
    words = ", ".join(f"{w} {x:+.2f}" for w, x in d.toward_correct)
    against = ", ".join(f"{w} {x:+.2f}" for w, x in d.against_correct)
    return "\n".join(
        [
            f"{d.protocol}, split seed {d.seed}: {d.items} held-out items, accuracy "
            + f"{d.accuracy:.3f}",
            "picked: " + ", ".join(f"{label} {n}" for label, n in d.picked.items()),
            "correct scores above: "
            + ", ".join(f"{label} {share:.3f}" for label, share in d.beats.items()),
            f"toward the correct answer: {words}",
            f"against it: {against}",
            "per verb (accuracy, items): "
            + ", ".join(f"{verb} {acc:.2f} ({n})" for verb, (acc, n) in verbs),
        ]
    )
