"""BLM scores from chosen letters: accuracy, macro-F1 over letters, which labels were chosen.

The BLM-It challenge scores a model by the F1 over the answer letters A-H, macro-averaged
(micro-F1 equals accuracy, since every item gets exactly one letter). The letters averaged over
are those that occur among the references or the predictions (scikit-learn's default; the
scores are :mod:`poetic_eval.label_scores`, shared with the topicality analyzer). The label table
counts, over items, the label of the answer chosen: ``Correct`` or the distractor, i.e. the rule
the chosen sentence breaks. An item without an answer (None: its best score was tied between
answers) counts as wrong, as a tie of :func:`poetic_eval.pairs.pair_preference` does: it lowers
its gold letter's recall, adds to no letter's predictions and is counted in ``ties``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from ...checks import typed_options
from ...errors import InvalidTypeError, InvalidValueError
from ...label_scores import macro_f1, per_label_scores
from ..answer_labels import CORRECT_LABEL, LETTERS


def _letters(values: Any, name: str, *, allow_none: bool = False) -> list[str | None]:
    if values is None or isinstance(values, str):
        raise InvalidTypeError(f"{name} must be a list of letters A-H, got {type(values).__name__}")
    values = list(values)
    for row, value in enumerate(values):
        if value not in LETTERS and not (allow_none and value is None):
            what = "one of the letters A-H" + (" or None (a tie)" if allow_none else "")
            raise InvalidValueError(f"{name}[{row}] must be {what}, got {value!r}")
    return values


def letter_f1(
    predictions: Sequence[str | None], references: Sequence[str]
) -> dict[str, dict[str, float]]:
    """Precision, recall, F1, support and times predicted of each letter present in either list
    (:func:`poetic_eval.label_scores.per_label_scores`); a None prediction (no answer) is a miss
    of its reference letter and no letter of its own."""
    no_answer = "-"  # sorts with the letters (None would not); dropped from the table
    table = per_label_scores(references, [no_answer if p is None else p for p in predictions])
    table.pop(no_answer, None)
    return table


def label_table(
    chosen_labels: Sequence[str], label_inventory: Iterable[str] = ()
) -> dict[str, dict[str, float]]:
    """``{label: {"count", "share"}}`` of the chosen answers' labels: ``Correct`` first, then by
    count (ties by name); labels of ``label_inventory`` never chosen are listed with count 0."""
    counts = Counter(chosen_labels)
    for label in label_inventory:
        counts.setdefault(label, 0)
    total = len(chosen_labels)
    order = sorted(counts, key=lambda label: (label != CORRECT_LABEL, -counts[label], label))
    return {
        label: {"count": counts[label], "share": counts[label] / total if total else 0.0}
        for label in order
    }


@typed_options
def blm_results(
    predictions: Sequence[str],
    references: Sequence[str],
    labels: Sequence[str | None] | None = None,
    *,
    label_inventory: Iterable[str] = (),
) -> dict[str, Any]:
    """Accuracy, macro-F1 over letters and the chosen-label table of BLM answers.

    Args:
        predictions: the letter (A-H) the model chose for each item; None where it chose none
            (its best score was tied between answers), counted wrong.
        references: the correct letter of each item.
        labels: optional, the label of each chosen answer (``Correct``, ``AEV``, ``IR-trans`` ...);
            None entries are left out of the label table.
        label_inventory: labels to list with count 0 when never chosen.

    Returns:
        ``accuracy``, ``macro_f1`` (both in [0, 1]), ``n``, ``ties`` (the None
        predictions), ``f1_by_letter`` ({letter:
        {precision, recall, f1, support, predicted}}) and ``by_label`` ({label: {count,
        share}}; empty without labels).

    Raises:
        ValueError: no items, lengths that differ, a letter outside A-H, a label for a wrong
            answer that says ``Correct`` (or a non-``Correct`` label for a right one).
    """
    predictions = _letters(predictions, "predictions", allow_none=True)
    references = _letters(references, "references")
    if len(predictions) != len(references):
        raise InvalidValueError(
            f"predictions and references must have the same length, got {len(predictions)} "
            f"and {len(references)}"
        )
    if not predictions:
        raise InvalidValueError("predictions is empty: at least one item is needed")
    per_letter = letter_f1(predictions, references)
    hits = sum(p == r for p, r in zip(predictions, references))
    return {
        "accuracy": hits / len(predictions),
        "macro_f1": macro_f1(per_letter),
        "n": len(predictions),
        "ties": sum(prediction is None for prediction in predictions),
        "f1_by_letter": per_letter,
        "by_label": _by_label(predictions, references, labels, label_inventory),
    }


def _by_label(predictions, references, labels, label_inventory) -> dict[str, dict[str, float]]:
    if labels is None:
        return {}
    labels = list(labels)
    if len(labels) != len(predictions):
        raise InvalidValueError(
            f"labels has {len(labels)} entries for {len(predictions)} predictions"
        )
    for row, (label, predicted, reference) in enumerate(zip(labels, predictions, references)):
        if label is not None and (label == CORRECT_LABEL) != (predicted == reference):
            raise InvalidValueError(
                f"labels[{row}] is {label!r} but the prediction {predicted} is "
                f"{'right' if predicted == reference else 'wrong'} (reference {reference})"
            )
    return label_table([label for label in labels if label is not None], label_inventory)
