"""The label of each BLM answer, as the evaluation reports it, and records made into items.

A record's ``Answer_set_annotation`` labels each answer: ``Correct``, or the rule the distractor
breaks (AgrI: ``Coord``, ``WNA``, ``WN1``, ``WN2``, ``AEV``, ``AEN1``, ``AEN2``; CausI/OdI:
``IR-trans``, ``E-WrBy`` ...). The correct answer is always reported as ``Correct`` (the
annotation marks it ``value: true``, whatever its label says); an answer of a record without
annotation is ``unlabelled``. A wrong answer labelled ``Correct`` is refused when the record is
validated (:func:`~.records.validate_blm_record`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..errors import InvalidTypeError
from .records import CORRECT_LABEL, LETTERS, BlmItem, validate_blm_record

UNLABELLED = "unlabelled"


def answer_labels(item: BlmItem) -> tuple[str, ...]:
    """The reported label of each answer, A to H."""
    return tuple(
        CORRECT_LABEL if letter == item.correct_option else (label or UNLABELLED)
        for letter, label in zip(LETTERS, item.labels)
    )


def as_items(items: Iterable[BlmItem | Mapping[str, Any]], name: str = "items") -> list[BlmItem]:
    """Records (release format: dicts, or the rows of a ``datasets.Dataset``) validated into
    :class:`BlmItem` objects; items pass through."""
    if isinstance(items, (str, Mapping)) or not isinstance(items, Iterable):
        raise InvalidTypeError(
            f"{name} must be a list of BLM records or items, got {type(items).__name__}"
        )
    return [
        item if isinstance(item, BlmItem) else validate_blm_record(item, position=index)
        for index, item in enumerate(items)
    ]
