"""Read QuaTrain's release formats, or a plain-text corpus of stanzas, into a corpus.

- **JSON lines** (the release files ``QuaTrain-en.json`` / ``QuaTrain-de.json``): one record
  per line, ``{"text": [4 lines], "language": "en", "rhyme": "ABAB", "meter": ...,
  "alliteration": ...}``; blank lines are skipped.
- **One JSON list** of such records.
- **Plain text**: stanzas separated by blank lines. It is turned into the records QuaTrain
  would hold: every 4-line window (stride 1) of each stanza, in order; a stanza of fewer than
  4 lines gives none. Their ``language`` is the one given, ``meter`` and ``alliteration`` are
  null, and ``rhyme`` is computed from the lines with :func:`poetic_eval.rhyme.rhyme_scheme`
  (for the records that are kept, when rows are made).

The format is read from the first non-blank character: ``[`` is a JSON list, ``{`` JSON lines,
anything else plain text; an empty or whitespace-only ``.json``/``.jsonl``/``.ndjson`` file is
read as JSON lines, hence an error saying that the JSON file holds no records. A UTF-8
byte-order mark is skipped. ``text`` may also be one string whose 4 lines are separated by
``"\\n"``. ``rhyme``, ``meter`` and ``alliteration`` may be absent (null); each must be a
string or a number, the same type in every record. Other fields are ignored. Lines are kept
exactly as written (no stripping), since the de-duplication compares them as exact strings;
plain-text lines are stripped.

Every error names the file and line (``path:line``) and, for JSON, the record number, and
nothing is built from a file with any bad record.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

from tqdm.auto import tqdm

from ..checks import typed_options
from ..errors import InvalidValueError
from ..text import LANGUAGES, refuse_special_file
from .corpus import LABEL_FIELDS, QUATRAIN_LINES, CorpusBuilder, QuatrainCorpus

_BOM = b"\xef\xbb\xbf"
# JSON's own whitespace (RFC 8259), not str.isspace's larger set
_WHITESPACE = re.compile(r"[ \t\n\r]*")
_LANGUAGE = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")
# the bar moves every 16,384 lines, not per line, to keep its cost out of the parse loop
_PROGRESS_EVERY = 1 << 14
#: File name endings that say "JSON": such a file is never read as plain text.
JSON_SUFFIXES = (".json", ".jsonl", ".ndjson")


@typed_options
def read_quatrain_source(
    path: str | Path, *, text_language: str = "en", show_progress: bool = False
) -> QuatrainCorpus:
    """All records of a QuaTrain JSON-lines file, a JSON list, or a plain-text corpus.

    ``text_language`` is the language given to the windows of a plain-text corpus (JSON
    records carry their own). ``show_progress`` shows a bar over the bytes read.
    """
    path = Path(path)
    if not path.is_file():
        refuse_special_file(path, "quatrain source")
        raise FileNotFoundError(f"quatrain source {path} does not exist")
    first = _first_character(path)
    if first == b"[":
        return read_json_list(path, show_progress=show_progress)
    if first == b"{" or (not first and path.suffix.lower() in JSON_SUFFIXES):
        # a blank JSON file is JSON lines without a record: the builder says it holds none
        return read_json_lines(path, show_progress=show_progress)
    return read_stanza_text(path, language=text_language, show_progress=show_progress)


def _first_character(path: Path) -> bytes:
    """The first byte of ``path`` that is not whitespace (a BOM skipped); b"" if none."""
    with open(path, "rb") as stream:
        chunk = stream.read(1 << 16).removeprefix(_BOM)
        while chunk:
            stripped = chunk.lstrip()
            if stripped:
                return stripped[:1]
            chunk = stream.read(1 << 16)
    return b""


def _bar(path: Path, total: int, show_progress: bool) -> tqdm:
    return tqdm(
        total=total,
        desc=f"reading {path.name}",
        unit="B",
        unit_scale=True,
        disable=not show_progress,
    )


def _binary_lines(path: Path, show_progress: bool) -> Iterator[tuple[int, bytes]]:
    """(1-based line number, bytes) of a file, BOM removed, with a progress bar over bytes."""
    with open(path, "rb") as stream, _bar(path, path.stat().st_size, show_progress) as bar:
        done = 0
        for number, raw in enumerate(stream, 1):
            done += len(raw)
            if number == 1:
                raw = raw.removeprefix(_BOM)
            if number % _PROGRESS_EVERY == 0:
                bar.update(done)
                done = 0
            yield number, raw
        bar.update(done)


def read_json_lines(path: str | Path, *, show_progress: bool = False) -> QuatrainCorpus:
    """Records of a JSON-lines file, one object per non-blank line."""
    path = Path(path)
    builder = CorpusBuilder(path, "jsonl")
    for number, raw in _binary_lines(path, show_progress):
        if not raw.strip():
            continue
        where = f"{path}:{number} (record {len(builder)})"
        try:
            record = json.loads(raw)
        except json.JSONDecodeError as error:
            raise InvalidValueError(
                f"{where}: invalid JSON at column {error.colno}: {error.msg}"
            ) from None
        except UnicodeDecodeError as error:
            raise InvalidValueError(f"{where}: not UTF-8 text ({error.reason})") from None
        add_record(builder, record, where, number)
    return builder.corpus()


def read_json_list(path: str | Path, *, show_progress: bool = False) -> QuatrainCorpus:
    """Records of a file holding one JSON list of record objects."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as error:
        raise InvalidValueError(f"{path}: not UTF-8 text ({error})") from None
    builder = CorpusBuilder(path, "json")
    # records are decoded one at a time (raw_decode) so that each keeps its source line and
    # a bad one is named by its record number
    decoder = json.JSONDecoder()
    position = _WHITESPACE.match(text).end()
    if text[position : position + 1] != "[":
        raise InvalidValueError(f"{path}: expected a JSON list of records")
    line, counted = 1, 0
    position = _WHITESPACE.match(text, position + 1).end()
    closed = text[position : position + 1] == "]"
    if closed:
        position = _WHITESPACE.match(text, position + 1).end()
    with _bar(path, len(text), show_progress) as bar:
        while not closed:
            line += text.count("\n", counted, position)
            bar.update(position - counted)
            counted = position
            where = f"{path}:{line} (record {len(builder)})"
            try:
                record, end = decoder.raw_decode(text, position)
            except json.JSONDecodeError as error:
                raise InvalidValueError(
                    f"{path}:{error.lineno} (record {len(builder)}): invalid JSON at column "
                    f"{error.colno}: {error.msg}"
                ) from None
            add_record(builder, record, where, line)
            position = _WHITESPACE.match(text, end).end()
            separator = text[position : position + 1]
            if separator not in (",", "]"):
                line += text.count("\n", counted, position)
                raise InvalidValueError(
                    f"{path}:{line} (after record {len(builder) - 1}): invalid JSON: "
                    f"expected ',' or ']', found {separator or 'the end of the file'!r}"
                )
            closed = separator == "]"
            position = _WHITESPACE.match(text, position + 1).end()
        bar.update(len(text) - counted)
    if position < len(text):
        line += text.count("\n", counted, position)
        raise InvalidValueError(f"{path}:{line}: invalid JSON: extra data after the list")
    return builder.corpus()


def add_record(builder: CorpusBuilder, record: object, where: str, source_line: int) -> None:
    """Check one JSON record and add it to ``builder`` (errors start with ``where``)."""
    if not isinstance(record, dict):
        raise InvalidValueError(f"{where}: expected a record object, got {type(record).__name__}")
    if "text" not in record:
        fields = ", ".join(sorted(map(str, record))) or "none"
        raise InvalidValueError(
            f"{where}: missing field 'text' (fields present: {fields}; expected 'text' with "
            "4 lines and 'language', optionally 'rhyme', 'meter', 'alliteration')"
        )
    lines = record_lines(record["text"], where)
    language = record.get("language")
    # each language code is checked once, on its first record
    if language not in builder.language_index:
        check_language(language, f"{where}: 'language'")
    labels = [record.get(name) for name in LABEL_FIELDS]
    builder.add(lines, language, labels, source_line=source_line, where=where)


def record_lines(text: object, where: str) -> list[str]:
    """The 4 lines of a record's ``text`` (a list of 4 strings, or one "\\n"-joined string)."""
    if isinstance(text, str):
        lines = text.replace("\r\n", "\n").removesuffix("\n").split("\n")
    elif isinstance(text, list):
        lines = text
    else:
        raise InvalidValueError(
            f"{where}: 'text' must be a list of {QUATRAIN_LINES} lines, got {type(text).__name__}"
        )
    if len(lines) != QUATRAIN_LINES:
        raise InvalidValueError(
            f"{where}: 'text' has {len(lines)} lines; a QuaTrain record has {QUATRAIN_LINES}"
        )
    for number, line in enumerate(lines, 1):
        if not isinstance(line, str):
            raise InvalidValueError(
                f"{where}: line {number} of 'text' must be a string, got "
                f"{type(line).__name__}: {line!r:.40}"
            )
        if not line.strip():
            raise InvalidValueError(f"{where}: line {number} of 'text' is empty")
    return lines


def check_language(language: object, what: str) -> str:
    """A language code such as ``en`` or ``de`` (letters, digits, ``-``, ``_``)."""
    if not isinstance(language, str) or not _LANGUAGE.match(language):
        raise InvalidValueError(
            f"{what} must be a language code such as 'en' or 'de', got {language!r:.40}"
        )
    return language


def read_stanza_text(
    path: str | Path, *, language: str = "en", show_progress: bool = False
) -> QuatrainCorpus:
    """Every 4-line window (stride 1) of each blank-line-separated stanza of a text file."""
    path = Path(path)
    check_language(language, "the language of a plain-text corpus")
    if language not in LANGUAGES:  # its rhyme labels are computed from the lines' sound
        raise InvalidValueError(
            f"a plain-text corpus's rhyme schemes are computed for {' or '.join(LANGUAGES)} "
            f"only, got language {language!r}; give a JSON source with a 'rhyme' label per record"
        )
    builder = CorpusBuilder(path, "text", rhyme_from_lines=True)
    empty_labels = [None] * len(LABEL_FIELDS)
    stanza: list[tuple[int, str]] = []

    def add_windows() -> None:
        for start in range(len(stanza) - QUATRAIN_LINES + 1):
            window = stanza[start : start + QUATRAIN_LINES]
            first = window[0][0]
            builder.add(
                [line for _, line in window],
                language,
                empty_labels,
                source_line=first,
                where=f"{path}:{first}",
            )
        stanza.clear()

    for number, raw in _binary_lines(path, show_progress):
        try:
            line = raw.decode("utf-8").strip()
        except UnicodeDecodeError as error:
            raise InvalidValueError(f"{path}:{number}: not UTF-8 text ({error.reason})") from None
        if line:
            stanza.append((number, line))
        else:
            add_windows()
    add_windows()
    if not len(builder):
        raise InvalidValueError(
            f"{path}: no stanza of {QUATRAIN_LINES} or more lines (stanzas are separated by "
            "blank lines; each gives its 4-line windows)"
        )
    return builder.corpus()
