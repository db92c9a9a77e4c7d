"""BLM records (our configs or the original BLM-It release) as items ready for evaluation.

A record has ``ID``, ``Context`` (7 sentences, each ``"<n>\\t<sentence>"`` in the release or bare),
``Answer_set`` (8 sentences, ``"<letter>\\t<sentence>"`` or bare, in the order A..H) and
``Correct_option`` (a letter A-H); optionally ``Answer_set_annotation`` (per option: ``label``,
``value``, ``option``) and ``Correct_answer``. The letter of an answer is its position in
``Answer_set``, never its prefix: the release's ``Answer_concatenated`` has typos such as two
"E" prefixes, so the concatenated fields are not read.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

LETTERS = ("A", "B", "C", "D", "E", "F", "G", "H")
CORRECT_LABEL = "Correct"
# an answer without an annotation, other than the correct one: its broken rule is unknown
UNLABELLED = "unlabelled"

_CONTEXT_PREFIX = re.compile(r"^\s*\d+\t")
_ANSWER_PREFIX = re.compile(r"^\s*[A-H]\t")


@dataclass(frozen=True)
class EvaluationItem:
    """One BLM problem: context sentences, the 8 answers (A..H), the gold letter, labels.

    Attributes:
        id: the record's ``ID`` (as given: int or str).
        context: the context sentences without their number prefixes.
        answers: the 8 answer sentences without their letter prefixes, in order A..H.
        correct: the letter of the correct answer.
        labels: the label of each answer (``Correct``, ``AEV``, ``IR-trans`` ...), from
            ``Answer_set_annotation``; without annotation, ``Correct`` for the correct answer and
            ``unlabelled`` for the others.
    """

    id: Any
    context: tuple[str, ...]
    answers: tuple[str, ...]
    correct: str
    labels: tuple[str, ...]

    def label_of(self, letter: str) -> str:
        return self.labels[LETTERS.index(letter)]


def evaluation_item(record: Mapping[str, Any], index: int = 0) -> EvaluationItem:
    """Check one release-format record and return it as an :class:`EvaluationItem`.

    ``index`` is the record's position, named in errors when it has no ``ID``.

    Raises:
        TypeError: a record that is not a mapping, sentences that are not a list of strings.
        ValueError: a missing field, no context sentence, not exactly 8 answers, an empty
            sentence, a ``Correct_option`` outside A-H, a ``Correct_answer`` that is not the
            answer at ``Correct_option``, or an annotation that does not cover the 8 options.
    """
    if not isinstance(record, Mapping):
        raise TypeError(f"BLM record {index} must be a mapping, got {type(record).__name__}")
    where = f"BLM item {record['ID']!r}" if "ID" in record else f"BLM record {index} (no ID)"
    for field in ("ID", "Context", "Answer_set", "Correct_option"):
        if field not in record or record[field] is None:
            raise ValueError(f"{where}: missing field {field!r}")
    context = _sentences(record["Context"], _CONTEXT_PREFIX, f"{where}: Context")
    answers = _sentences(record["Answer_set"], _ANSWER_PREFIX, f"{where}: Answer_set")
    if not context:
        raise ValueError(f"{where}: Context has no sentence")
    if len(answers) != len(LETTERS):
        raise ValueError(f"{where}: Answer_set has {len(answers)} answers; a BLM item needs 8 (A-H)")
    correct = record["Correct_option"]
    if not isinstance(correct, str) or correct.strip() not in LETTERS:
        raise ValueError(f"{where}: Correct_option must be one of the letters A-H, got {correct!r}")
    correct = correct.strip()
    gold = record.get("Correct_answer")
    if gold is not None and " ".join(str(gold).split()) != answers[LETTERS.index(correct)]:
        raise ValueError(
            f"{where}: Correct_answer {gold!r} is not answer {correct} "
            f"({answers[LETTERS.index(correct)]!r})"
        )
    labels = _labels(record.get("Answer_set_annotation"), correct, where)
    return EvaluationItem(record["ID"], tuple(context), tuple(answers), correct, labels)


def evaluation_items(records: Iterable[Mapping[str, Any]]) -> list[EvaluationItem]:
    """:func:`evaluation_item` for every record, in order."""
    return [evaluation_item(record, index) for index, record in enumerate(records)]


def read_record_file(path: str | Path) -> list[dict[str, Any]]:
    """Records of a release-format file: a JSON list of records, or JSON Lines (one per line)."""
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    try:
        records = json.loads(text)
    except json.JSONDecodeError:
        try:
            records = [json.loads(line) for line in text.splitlines() if line.strip()]
        except json.JSONDecodeError as error:
            raise ValueError(f"{path}: neither a JSON list of BLM records nor JSON Lines: {error}")
    if isinstance(records, Mapping):
        records = [records]
    if not isinstance(records, list) or not records:
        raise ValueError(f"{path}: expected a non-empty JSON list of BLM records")
    return records


def _sentences(values: Any, prefix: re.Pattern, where: str) -> list[str]:
    if isinstance(values, str) or not isinstance(values, Sequence):
        raise TypeError(f"{where} must be a list of sentences, got {type(values).__name__}")
    sentences = []
    for position, value in enumerate(values):
        if not isinstance(value, str):
            raise TypeError(f"{where}[{position}] must be a string, got {type(value).__name__}")
        sentence = " ".join(prefix.sub("", value, count=1).split())
        if not sentence:
            raise ValueError(f"{where}[{position}] is empty")
        sentences.append(sentence)
    return sentences


def _labels(annotation: Any, correct: str, where: str) -> tuple[str, ...]:
    """Label of each option, from the annotation (by its ``option`` letter, else by position)."""
    if annotation is None:
        return tuple(CORRECT_LABEL if letter == correct else UNLABELLED for letter in LETTERS)
    if isinstance(annotation, Mapping):  # a parquet struct of lists: {"label": [...], ...}
        keys = list(annotation)
        annotation = [dict(zip(keys, values)) for values in zip(*annotation.values())]
    if len(annotation) != len(LETTERS):
        raise ValueError(
            f"{where}: Answer_set_annotation has {len(annotation)} entries; expected one per "
            "answer (8)"
        )
    labels: dict[str, str] = {}
    for position, entry in enumerate(annotation):
        letter = entry.get("option") or LETTERS[position]
        if letter not in LETTERS or not entry.get("label"):
            raise ValueError(f"{where}: Answer_set_annotation[{position}] needs a label and an option A-H")
        labels[letter] = str(entry["label"])
        if entry.get("value") is True and letter != correct:
            raise ValueError(
                f"{where}: Answer_set_annotation marks option {letter} true, but Correct_option "
                f"is {correct}"
            )
    if sorted(labels) != list(LETTERS):
        raise ValueError(f"{where}: Answer_set_annotation does not cover the options A-H once each")
    marked = [letter for letter in LETTERS if labels[letter].lower() == CORRECT_LABEL.lower()]
    if marked != [correct]:
        raise ValueError(
            f"{where}: Answer_set_annotation labels options {marked} {CORRECT_LABEL!r}; "
            f"expected exactly the Correct_option {correct}"
        )
    labels[correct] = CORRECT_LABEL
    return tuple(labels[letter] for letter in LETTERS)
