"""Read limerick corpora: the OEDILF JSON of the BPoMP paper and plain text files.

- **OEDILF JSON** (Zenodo record 5722527, ``limerick_dataset_oedilf_v3.json``): a JSON list of
  records, each an object with ``limerick`` (the lines joined by ``"\\n"``) and ``is_limerick``
  (bool), optionally ``id`` and ``author``. A record without ``id`` gets its list index.
- **Plain text**: one limerick per blank-line-separated block (UTF-8); a block's id is its
  1-based block number; ``is_limerick`` is unknown (None), so the builder checks every block.

The format: a ``.json`` file, or one whose first non-blank character is ``[`` or ``{``, is JSON;
anything else is plain text.
Errors name the file and, for a bad record, its index and what was expected.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InvalidValueError
from ..text import read_poem_blocks, read_text_file, refuse_special_file


@dataclass(frozen=True)
class LimerickRecord:
    """One poem of a source: its id, its text (lines joined by "\\n"), the source's label."""

    source_id: str
    text: str
    is_limerick: bool | None = None
    author: str | None = None


def read_limerick_source(path: str | Path) -> list[LimerickRecord]:
    """Records of an OEDILF JSON file or a plain text file (see the module docstring)."""
    path = Path(path)
    if not path.is_file():
        refuse_special_file(path, "limerick source")
        raise FileNotFoundError(f"limerick source {path} does not exist")
    with open(path, "rb") as stream:
        head = stream.read(4096).removeprefix(b"\xef\xbb\xbf").lstrip()
    if path.suffix.lower() == ".json" or head[:1] in (b"[", b"{"):
        return read_oedilf_json(path)
    return read_plain_limericks(path)


def read_plain_limericks(path: str | Path) -> list[LimerickRecord]:
    """One record per blank-line-separated block of a UTF-8 text file."""
    path = Path(path)
    poems = read_poem_blocks(path)
    if not poems:
        raise InvalidValueError(
            f"{path}: no limericks found (expected blank-line-separated blocks)"
        )
    return [LimerickRecord(source_id=str(i), text=poem) for i, poem in enumerate(poems, 1)]


def read_oedilf_json(path: str | Path) -> list[LimerickRecord]:
    """Records of an OEDILF-style JSON list (``limerick``, ``is_limerick``, ``id``, ``author``)."""
    path = Path(path)
    try:
        data = json.loads(read_text_file(path))
    except json.JSONDecodeError as error:
        raise InvalidValueError(
            f"{path}: invalid JSON at line {error.lineno}, column {error.colno}: {error.msg}"
        ) from None
    if not isinstance(data, list):
        raise InvalidValueError(
            f"{path}: expected a JSON list of limerick records, got {type(data).__name__}"
        )
    return list(_records(path, data))


#: The fields a limerick record may have; others are kept out of the way but allowed.
RECORD_FIELDS = ("limerick", "is_limerick", "id", "author")


def _check_field_names(where: str, record: dict) -> None:
    """Reject a field that looks like a misspelled known one ("islimerick", "Author")."""
    for key in map(str, record):
        if key in RECORD_FIELDS:
            continue
        # 0.8: one letter off or a case change in these short names; an unrelated extra field
        # ("source", "year") passes
        close = difflib.get_close_matches(key.lower(), RECORD_FIELDS, n=1, cutoff=0.8)
        # when the known field is present too, the look-alike is another field, not a misspelling
        if close and close[0] not in record:
            raise InvalidValueError(f"{where}: unknown field {key!r}; did you mean {close[0]!r}?")


def _records(path: Path, data: list[Any]) -> Iterator[LimerickRecord]:
    for index, record in enumerate(data):
        where = f"{path}: record {index}"
        if not isinstance(record, dict):
            raise InvalidValueError(f"{where}: expected an object, got {type(record).__name__}")
        if "limerick" not in record:
            raise InvalidValueError(
                f"{where}: missing field 'limerick' (fields present: "
                f"{', '.join(sorted(map(str, record))) or 'none'}; expected 'limerick' and "
                "'is_limerick', optionally 'id' and 'author')"
            )
        _check_field_names(where, record)
        text = record["limerick"]
        if not isinstance(text, str):
            raise InvalidValueError(
                f"{where}: 'limerick' must be a string, got {type(text).__name__}"
            )
        label = record.get("is_limerick")
        if label is not None and not isinstance(label, bool):
            raise InvalidValueError(
                f"{where}: 'is_limerick' must be true or false, got {label!r:.40}"
            )
        author = record.get("author")
        yield LimerickRecord(
            source_id=str(record.get("id", index)),
            text=text.replace("\r\n", "\n"),
            is_limerick=label,
            author=None if author is None else str(author),
        )
