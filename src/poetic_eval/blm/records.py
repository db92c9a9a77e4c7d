"""BLM records in the format of the BLM-It release: read, validate, and make them.

A record (one element of the release's JSON list, or one row of our hub configs)::

    {
      "ID": 215,
      "Context": ["1\\tle pittrici possono disegnare ...", ...],      # 7 sentences
      "Context_concatenated": "1\\tle pittrici ...\\n2\\t...",
      "Answer_set": ["A\\tdelle rappresentazioni ...", ...],         # 8 sentences
      "Answer_concatenated": "A\\t...\\nB\\t...",
      "Correct_option": "E",
      "Correct_answer": "le pittrici possono disegnare da un anno circa",
      "Verb": "disegnare",
      "Answer_set_annotation": [{"label": "IR-trans", "value": false, "option": "A"}, ...],
      "Context_annotation": [...]                                       # ours, optional
    }

The release writes ``Context`` and ``Answer_set`` sometimes with their ``"<n>\\t"`` /
``"<letter>\\t"`` prefixes and sometimes without; both are accepted. The concatenated fields
are derived text and are not trusted (the release has records whose ``Answer_concatenated``
repeats a letter): :class:`BlmItem` is built from ``Context`` and ``Answer_set`` alone.

:func:`read_blm_items` reads a JSON file (a list of records, a ``{"data": [...]}`` object, or
JSON lines) and :func:`validate_blm_record` checks one record; both raise
:class:`BlmRecordError` naming the item (its ``ID``, else its position) and what was expected.
:func:`make_blm_record` writes the format (the generator's records go through it, so ours and
the release's read alike).

Real release files can be slightly inconsistent, so the reader judges what it can and says so
with a :class:`BlmRecordWarning` naming the item, instead of stopping the whole file:

* ``Correct_option`` is the gold answer. A ``Correct_answer`` that differs from that answer's
  sentence only in whitespace, case or final punctuation is accepted silently; one that differs
  more is reported (with the answer it does match, if any) and ``Correct_option`` is trusted.
* ``Correct_option`` may be a lower-case letter (``"c"``). A number is an error: 0-7 and 1-8
  counting cannot be told apart, so a letter A-H is required.
* an ``Answer_set_annotation`` entry without ``value`` carries no claim about correctness: its
  label is used, nothing is checked. A ``value`` that contradicts ``Correct_option`` is an error,
  and so is a wrong answer labelled ``Correct``.
* in one file, records repeating an ``ID`` are an error, unless they are identical: then the
  first is kept and the repeats are reported. Sets of items pooled from several configs (whose
  IDs overlap) are read per config or passed as a list (:func:`~.answer_labels.as_items`), where
  IDs need not be unique.
"""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..checks import typed_options
from ..errors import BlmRecordError, BlmRecordWarning, InvalidValueError
from ..text import read_text_file, refuse_special_file

#: the answer letters, A to H (a tuple: ``in`` accepts single letters only)
LETTERS = tuple("ABCDEFGH")
N_ANSWERS = len(LETTERS)
#: the label the correct answer is reported under (a wrong answer may not carry it)
CORRECT_LABEL = "Correct"
N_CONTEXT = 7

_NUMBER_PREFIX = re.compile(r"^\s*(\d+)\t")
_LETTER_PREFIX = re.compile(r"^\s*([A-Za-z])\t")
_FINAL_PUNCTUATION = ".!?;:…"
#: the key under which a JSON object holds the records (``{"data": [...]}``)
RECORDS_KEY = "data"


@dataclass(frozen=True)
class BlmItem:
    """One validated BLM item, sentences without their number/letter prefixes.

    ``labels`` holds each answer's label from ``Answer_set_annotation`` (in answer order, A to
    H), or ``None`` where the record has no annotation. ``record`` is the record as read.
    """

    id: int | str
    context: tuple[str, ...]
    answers: tuple[str, ...]
    correct_option: str
    verb: str
    labels: tuple[str | None, ...]
    record: Mapping[str, Any]

    @property
    def correct_index(self) -> int:
        """Position (0-7) of the correct answer in ``answers``."""
        return LETTERS.index(self.correct_option)

    @property
    def correct_answer(self) -> str:
        return self.answers[self.correct_index]


def read_blm_items(path: str | Path) -> list[BlmItem]:
    """Every record of a BLM JSON file, validated.

    The file holds a JSON list of records, an object ``{"data": [records]}``, one record, or
    one record per line (JSON Lines). Identical repeated records are read once (with a
    :class:`BlmRecordWarning`); records that repeat an ``ID`` but differ are an error.
    """
    path = Path(path)
    if not path.is_file():
        refuse_special_file(path, "BLM items file")
        raise FileNotFoundError(f"BLM items file {path} not found")
    text = read_text_file(path)
    try:
        records = json.loads(text)
    except json.JSONDecodeError:
        records = _json_lines(text, path)
    if isinstance(records, Mapping):
        wrapped = records.get(RECORDS_KEY) if "ID" not in records else None
        records = wrapped if isinstance(wrapped, list) else [records]
    if not isinstance(records, list):
        kind = type(records).__name__
        raise BlmRecordError(
            f"{path}: expected a JSON list of BLM records (or {{{RECORDS_KEY!r}: [...]}}), "
            f"got {kind}"
        )
    items = [
        validate_blm_record(record, position=i, source=path) for i, record in enumerate(records)
    ]
    return _unique_ids(items, path)


def _json_lines(text: str, path: Path) -> list[Any]:
    records = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as error:
            raise BlmRecordError(
                f"{path}: neither a JSON list nor JSON lines (line {number}: {error.msg})"
            ) from None
    return records


def _unique_ids(items: Sequence[BlmItem], source: Path | str) -> list[BlmItem]:
    """The items, each ID once: identical repeats dropped (reported), differing ones an error."""
    first: dict[int | str, tuple[int, BlmItem]] = {}
    kept, repeats = [], {}
    for position, item in enumerate(items):
        if item.id not in first:
            first[item.id] = (position, item)
            kept.append(item)
            continue
        seen_at, seen = first[item.id]
        if item.record != seen.record:
            raise BlmRecordError(
                f"{source}: ID {item.id!r} occurs more than once with different records "
                f"(positions {seen_at} and {position}); IDs must be unique within a file (a "
                "file pooling several configs: read each config's records separately)"
            )
        repeats[item.id] = repeats.get(item.id, 0) + 1
    for item_id, count in repeats.items():
        warnings.warn(
            f"{source}, item ID {item_id!r}: {count} identical repeat(s) of the record "
            "dropped; it is evaluated once",
            BlmRecordWarning,
            stacklevel=3,
        )
    return kept


@typed_options
def validate_blm_record(
    record: Mapping[str, Any], *, position: int | None = None, source: str | Path | None = None
) -> BlmItem:
    """Check one record and return it as a :class:`BlmItem`; :class:`BlmRecordError` otherwise.

    Checked: ``ID`` present; ``Context`` a list of 7 non-empty strings and ``Answer_set`` a
    list of 8 (prefixes ``"<n>\\t"`` / ``"<letter>\\t"`` optional, but when present they must
    be the sentence's own number or letter); ``Correct_option`` one of the letters A-H (either
    case); ``Answer_set_annotation``, when present, 8 entries, those with a ``value`` agreeing
    with the correct option and no wrong answer labelled ``Correct``. ``Correct_answer``
    should be the answer at that letter: when it is not (beyond whitespace, case and final
    punctuation), a :class:`BlmRecordWarning` says so and ``Correct_option`` is trusted.
    """
    where = _item_name(record, position, source)
    if not isinstance(record, Mapping):
        raise BlmRecordError(f"{where}: expected a JSON object, got {type(record).__name__}")
    if "ID" not in record:
        raise BlmRecordError(f"{where}: missing field 'ID'")
    context = _sentences(record, "Context", N_CONTEXT, where, _NUMBER_PREFIX, _context_tag)
    answers = _sentences(record, "Answer_set", N_ANSWERS, where, _LETTER_PREFIX, _answer_tag)
    option = _correct_option(record.get("Correct_option"), where)
    _check_correct_answer(record.get("Correct_answer"), option, answers, where)
    labels = _labels(record.get("Answer_set_annotation"), option, where)
    verb = record.get("Verb")
    return BlmItem(
        id=record["ID"],
        context=context,
        answers=answers,
        correct_option=option,
        verb="" if verb is None else str(verb),
        labels=labels,
        record=record,
    )


def _correct_option(option: Any, where: str) -> str:
    letters = ", ".join(LETTERS)
    if isinstance(option, str) and len(option.strip()) == 1 and option.strip().isalpha():
        letter = option.strip().upper()
        if letter in LETTERS:
            return letter
    if isinstance(option, (int, float)) or (isinstance(option, str) and option.strip().isdigit()):
        raise BlmRecordError(
            f"{where}: Correct_option must be one of {letters}, got the number {option!r}; "
            "a number is not read, as 0-7 and 1-8 counting cannot be told apart: give the letter"
        )
    raise BlmRecordError(f"{where}: Correct_option must be one of {letters}, got {option!r}")


def _comparable(sentence: str) -> str:
    """A sentence up to whitespace, case and final punctuation."""
    return " ".join(sentence.split()).rstrip(_FINAL_PUNCTUATION + " ").casefold()


def _check_correct_answer(stated: Any, option: str, answers: tuple[str, ...], where: str) -> None:
    if stated is None:
        return
    stated_text = _comparable(strip_answer_prefix(str(stated)))
    if stated_text == _comparable(answers[LETTERS.index(option)]):
        return
    matching = [
        letter for letter, answer in zip(LETTERS, answers) if _comparable(answer) == stated_text
    ]
    which = f"it is answer {matching[0]}" if matching else "it is none of the 8 answers"
    warnings.warn(
        f"{where}: Correct_answer {stated!r} is not answer {option} "
        f"({answers[LETTERS.index(option)]!r}), {which}; trusting Correct_option {option}",
        BlmRecordWarning,
        stacklevel=4,
    )


def _item_name(record: Any, position: int | None, source: str | Path | None) -> str:
    parts = [str(source)] if source is not None else []
    if isinstance(record, Mapping) and "ID" in record:
        parts.append(f"item ID {record['ID']!r}")
    elif position is not None:
        parts.append(f"item at position {position} (no ID)")
    else:
        parts.append("item (no ID)")
    return ", ".join(parts)


def _context_tag(index: int) -> str:
    return str(index + 1)


def _answer_tag(index: int) -> str:
    return LETTERS[index]


def _sentences(
    record: Mapping[str, Any], field: str, size: int, where: str, prefix: re.Pattern, tag
) -> tuple[str, ...]:
    values = record.get(field)
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise BlmRecordError(
            f"{where}: {field} must be a list of {size} strings, got {values!r:.80}"
        )
    if len(values) != size:
        raise BlmRecordError(f"{where}: {field} has {len(values)} sentences, expected {size}")
    sentences = []
    for index, value in enumerate(values):
        match = prefix.match(value)
        if match and match.group(1).upper() != tag(index):
            raise BlmRecordError(
                f"{where}: {field}[{index}] is prefixed {match.group(1)!r}, expected {tag(index)!r}"
            )
        sentence = value[match.end() :] if match else value
        if not sentence.strip():
            raise BlmRecordError(f"{where}: {field}[{index}] is empty")
        sentences.append(sentence.strip())
    return tuple(sentences)


def _labels(annotation: Any, option: str, where: str) -> tuple[str | None, ...]:
    if annotation is None:
        return (None,) * N_ANSWERS
    if not isinstance(annotation, list) or len(annotation) != N_ANSWERS:
        got = len(annotation) if isinstance(annotation, list) else type(annotation).__name__
        raise BlmRecordError(
            f"{where}: Answer_set_annotation must have {N_ANSWERS} entries, got {got}"
        )
    labels: list[str | None] = [None] * N_ANSWERS
    for index, entry in enumerate(annotation):
        if not isinstance(entry, Mapping):
            raise BlmRecordError(f"{where}: Answer_set_annotation[{index}] is not an object")
        letter = str(entry.get("option", LETTERS[index])).strip().upper()
        if letter not in LETTERS:
            raise BlmRecordError(
                f"{where}: Answer_set_annotation[{index}] has option {entry.get('option')!r}"
            )
        slot = LETTERS.index(letter)
        if labels[slot] is not None:
            raise BlmRecordError(f"{where}: Answer_set_annotation names option {letter} twice")
        labels[slot] = str(entry.get("label", ""))
        if entry.get("value") is None:
            continue  # no claim about correctness
        if bool(entry.get("value")) != (letter == option):
            state = "true" if entry.get("value") else "false"
            raise BlmRecordError(
                f"{where}: Answer_set_annotation marks option {letter} {state}, "
                f"but Correct_option is {option}"
            )
    for letter, label in zip(LETTERS, labels):
        if letter != option and label and label.lower() == CORRECT_LABEL.lower():
            raise BlmRecordError(
                f"{where}: answer {letter} is labelled {label!r} but the correct option is {option}"
            )
    return tuple(labels)


def strip_answer_prefix(sentence: str) -> str:
    """``"E\\tle pittrici ..."`` -> ``"le pittrici ..."``; unprefixed text is returned as is."""
    match = _LETTER_PREFIX.match(sentence)
    return sentence[match.end() :] if match else sentence


def make_blm_record(
    item_id: int,
    context: Sequence[str],
    answers: Sequence[str],
    correct_index: int,
    labels: Sequence[str],
    *,
    verb: str,
    context_annotation: Sequence[Mapping[str, Any]],
    answer_annotation: Sequence[Mapping[str, Any]],
) -> dict[str, Any]:
    """A record in the release format (with prefixes), plus our annotations.

    ``answer_annotation`` gives, per answer, extra annotation fields (``pattern``,
    ``chunks``) merged into the release's ``{"label", "value", "option"}`` entries.
    """
    if len(context) != N_CONTEXT or len(answers) != N_ANSWERS or len(labels) != N_ANSWERS:
        raise InvalidValueError(
            f"item {item_id}: {len(context)} context sentences, {len(answers)} answers and "
            f"{len(labels)} labels; expected {N_CONTEXT}, {N_ANSWERS}, {N_ANSWERS}"
        )
    numbered = [f"{i}\t{sentence}" for i, sentence in enumerate(context, start=1)]
    lettered = [f"{letter}\t{sentence}" for letter, sentence in zip(LETTERS, answers)]
    return {
        "ID": item_id,
        "Context": numbered,
        "Context_concatenated": "\n".join(numbered),
        "Answer_set": lettered,
        "Answer_concatenated": "\n".join(lettered),
        "Correct_option": LETTERS[correct_index],
        "Correct_answer": answers[correct_index],
        "Verb": verb,
        "Context_annotation": [dict(entry) for entry in context_annotation],
        "Answer_set_annotation": [
            {
                "label": label,
                "value": index == correct_index,
                "option": LETTERS[index],
                **dict(extra),
            }
            for index, (label, extra) in enumerate(zip(labels, answer_annotation))
        ],
    }
