"""The label of each BLM answer, as the evaluation reports it, and records made into items.

A record's ``Answer_set_annotation`` labels each answer: ``Correct``, or the rule the distractor
breaks (AgrI: ``Coord``, ``WNA``, ``WN1``, ``WN2``, ``AEV``, ``AEN1``, ``AEN2``; CausI/OdI:
``IR-trans``, ``E-WrBy`` ...). The correct answer is always reported as ``Correct`` (the
annotation marks it ``value: true``, whatever its label says); an answer of a record without
annotation is ``unlabelled``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .records import ANSWER_LETTERS, BlmItem, BlmRecordError, validate_blm_record

LETTERS = tuple(ANSWER_LETTERS)
CORRECT_LABEL = "Correct"
UNLABELLED = "unlabelled"


def answer_labels(item: BlmItem) -> tuple[str, ...]:
    """The reported label of each answer, A to H.

    Raises:
        BlmRecordError: a wrong answer annotated ``Correct`` (the item is named).
    """
    labels = []
    for letter, label in zip(LETTERS, item.labels):
        if letter == item.correct_option:
            labels.append(CORRECT_LABEL)
        elif label and label.lower() == CORRECT_LABEL.lower():
            raise BlmRecordError(
                f"item ID {item.id!r}: answer {letter} is labelled {label!r} but the correct "
                f"option is {item.correct_option}"
            )
        else:
            labels.append(label or UNLABELLED)
    return tuple(labels)


def label_of(item: BlmItem, letter: str) -> str:
    """The reported label of the answer at ``letter``."""
    return answer_labels(item)[LETTERS.index(letter)]


def reported_labels(items: Iterable[BlmItem]) -> list[str]:
    """Every reported label of the items' answers, sorted."""
    return sorted({label for item in items for label in answer_labels(item)})


def as_items(items: Iterable[BlmItem | Mapping[str, Any]], name: str = "items") -> list[BlmItem]:
    """Records (release format: dicts, or the rows of a ``datasets.Dataset``) validated into
    :class:`BlmItem` objects; items pass through."""
    if isinstance(items, (str, Mapping)) or not isinstance(items, Iterable):
        raise TypeError(
            f"{name} must be a list of BLM records or items, got {type(items).__name__}"
        )
    converted = [
        item if isinstance(item, BlmItem) else validate_blm_record(item, position=index)
        for index, item in enumerate(items)
    ]
    for item in converted:
        answer_labels(item)
    return converted
