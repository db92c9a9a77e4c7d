"""Poem files: read the files people have (plain text, JSON Lines, JSON), write plain text.

- ``.txt`` (or any other extension): one poem per block of lines; blocks are separated by a
  blank line (:func:`read_poem_blocks`; :func:`write_poems` writes that format).
- ``.jsonl``: one poem per line: a JSON string, a list of line strings, or an object whose
  ``"text"`` field is either (and whose optional ``"topic"`` is a non-empty string).
- ``.json``: a list of the same items, or an object with a ``"poems"`` list of them.

:func:`read_poems_by_suffix` reads any of the three; :func:`json_poem_items` and
:func:`parse_poem_item` are its JSON steps, shared with readers that keep more of each item
(:mod:`poetic_eval.analyzers.poem_sources` keeps stanza breaks and topics).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any, NamedTuple

from ..checks.validation import typed_options
from ..errors import InvalidTypeError, InvalidValueError
from ..files.atomic_files import write_text_atomically
from .poem_inputs import require_encodable
from .poems import BLANK_LINE, lines
from .text_files import read_text_file, refuse_special_file

#: Suffixes read as JSON poem files (any other suffix is plain text).
JSON_POEM_SUFFIXES = (".jsonl", ".json")


class PoemItem(NamedTuple):
    """One poem of a JSON poem file, and its topic when the item names one."""

    text: str
    topic: str | None


@typed_options
def parse_poem_item(item: Any, where: str, *, keep_stanzas: bool = False) -> PoemItem:
    """The poem of a JSON item: a string, a list of lines or ``{"text": ..., "topic": ...}``
    (``topic`` optional). ``where`` names the row in errors.

    By default the poem is its non-blank lines, stripped; ``keep_stanzas=True`` keeps the text
    as given, blank lines (``""`` in a list of lines) separating stanzas.
    """
    topic = None
    if isinstance(item, dict):
        if "text" not in item:
            raise InvalidValueError(
                f"{where}: an object needs a 'text' field, got keys {sorted(item)}"
            )
        topic = item.get("topic")
        if topic is not None and (not isinstance(topic, str) or not topic.strip()):
            raise InvalidValueError(f"{where}: 'topic' must be a non-empty string, got {topic!r}")
        item = item["text"]
    if isinstance(item, list):
        if not all(isinstance(line, str) for line in item):
            raise InvalidTypeError(f"{where}: a list of lines must hold only strings")
        item = "\n".join(item)
    if not isinstance(item, str):
        raise InvalidTypeError(
            f"{where}: expected a poem (string, list of lines or {{'text': ...}}), "
            f"got {type(item).__name__}"
        )
    require_encodable(item, where)  # JSON's "\\udc80" escapes make lone surrogates
    poem = item if keep_stanzas else "\n".join(lines(item))
    if not poem.strip():
        raise InvalidValueError(f"{where}: the poem is empty or only blank lines")
    return PoemItem(poem, topic)


def json_poem_items(path: Path, text: str) -> list[tuple[str, Any]]:
    """``(where, item)`` for each item of a ``.jsonl`` or ``.json`` poem file whose contents
    are ``text``; ``where`` is ``path:row`` (JSON Lines, blank rows skipped) or
    ``path[index]``. Invalid JSON is an error naming the file and the row."""
    if path.suffix.lower() == ".jsonl":
        rows = [
            (f"{path}:{number}", row)
            for number, row in enumerate(text.splitlines(), start=1)
            if row.strip()
        ]
        return [(where, _parse_json(row, where)) for where, row in rows]
    data = _parse_json(text, str(path))
    if isinstance(data, dict) and "poems" in data:
        data = data["poems"]
    if isinstance(data, list):
        return [(f"{path}[{index}]", item) for index, item in enumerate(data)]
    raise InvalidValueError(f"{path}: expected a JSON list of poems or {{'poems': [...]}}")


def _parse_json(text: str, where: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise InvalidValueError(
            f"{where}: invalid JSON ({error.msg} at column {error.colno})"
        ) from None


def read_poems_by_suffix(path: str | Path) -> list[str]:
    """Poems of a ``.jsonl`` or ``.json`` file, or of a plain text file (any other suffix,
    :func:`read_poem_blocks`); errors name the file and the row."""
    path = Path(path)
    if not path.is_file():
        refuse_special_file(path, "poem file")
        raise FileNotFoundError(f"no such poem file: {path}")
    if path.suffix.lower() in JSON_POEM_SUFFIXES:
        items = json_poem_items(path, read_text_file(path))
        poems = [parse_poem_item(item, where).text for where, item in items]
    else:
        poems = read_poem_blocks(path)
    if not poems:
        raise InvalidValueError(f"{path}: no poems found")
    return poems


def read_poem_blocks(path: str | Path) -> list[str]:
    """Poems of a UTF-8 text file, one poem per blank-line-separated block (a byte-order mark
    is dropped; see :func:`poetic_eval.text.read_text_file`)."""
    text = read_text_file(path)
    return ["\n".join(lines(block)) for block in BLANK_LINE.split(text.strip()) if lines(block)]


def write_poems(poems: Iterable[str], path: str | Path) -> None:
    """Write poems to a text file, one per block, blocks separated by one blank line (through
    a temporary file: an interrupted write leaves the previous file)."""
    write_text_atomically(path, "\n\n".join(p.strip() for p in poems) + "\n")
