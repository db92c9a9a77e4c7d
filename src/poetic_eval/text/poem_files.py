"""Poem files: read the files people have (plain text, JSON Lines, JSON), write plain text.

- ``.txt`` (or any other extension): one poem per block of lines; blocks are separated by a
  blank line (:func:`read_poems`; :func:`write_poems` writes that format).
- ``.jsonl``: one poem per line: a JSON string, a list of line strings, or an object whose
  ``"text"`` field is either.
- ``.json``: a list of the same items, or an object with a ``"poems"`` list of them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .atomic_files import write_text_atomically
from .poems import BLANK_LINE, lines
from .text_files import read_text_file


def poem_from_item(item: Any, where: str) -> str:
    """A poem from a JSON item (string, list of lines, or {"text": ...}); ``where`` names the
    row in errors."""
    if isinstance(item, dict):
        if "text" not in item:
            raise ValueError(f"{where}: an object needs a 'text' field, got keys {sorted(item)}")
        item = item["text"]
    if isinstance(item, list):
        if not all(isinstance(line, str) for line in item):
            raise TypeError(f"{where}: a list of lines must hold only strings")
        item = "\n".join(item)
    if not isinstance(item, str):
        raise TypeError(
            f"{where}: expected a poem (string, list of lines or {{'text': ...}}), "
            f"got {type(item).__name__}"
        )
    poem = "\n".join(lines(item))
    if not poem:
        raise ValueError(f"{where}: the poem is empty")
    return poem


def load_poems(path: str | Path) -> list[str]:
    """Poems of a .txt, .jsonl or .json file; errors name the file and the row."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no such poem file: {path}")
    suffix = path.suffix.lower()
    if suffix == ".jsonl":
        poems = []
        for number, row in enumerate(read_text_file(path).splitlines(), start=1):
            if row.strip():
                poems.append(poem_from_item(_parse(row, f"{path}:{number}"), f"{path}:{number}"))
    elif suffix == ".json":
        data = _parse(read_text_file(path), str(path))
        if isinstance(data, dict) and "poems" in data:
            data = data["poems"]
        if not isinstance(data, list):
            raise ValueError(f"{path}: expected a JSON list of poems or {{'poems': [...]}}")
        poems = [poem_from_item(item, f"{path}[{index}]") for index, item in enumerate(data)]
    else:
        poems = read_poems(path)
    if not poems:
        raise ValueError(f"{path}: no poems found")
    return poems


def _parse(text: str, where: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"{where}: invalid JSON ({error.msg} at column {error.colno})") from None


def read_poems(path: str | Path) -> list[str]:
    """Read poems from a UTF-8 text file, one poem per blank-line-separated block (a
    byte-order mark is dropped; see :func:`poetic_eval.text.read_text_file`)."""
    text = read_text_file(path)
    return ["\n".join(lines(block)) for block in BLANK_LINE.split(text.strip()) if lines(block)]


def write_poems(poems: Iterable[str], path: str | Path) -> None:
    """Write poems to a text file, one per block, blocks separated by one blank line (through
    a temporary file: an interrupted write leaves the previous file)."""
    write_text_atomically(path, "\n\n".join(p.strip() for p in poems) + "\n")
