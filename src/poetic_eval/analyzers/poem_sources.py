"""Read poems to analyze from a file or a folder, keeping their stanza breaks.

- A ``.txt`` file (or any other suffix) is ONE poem: lines, with blank lines between stanzas.
- A ``.jsonl`` file holds one poem per row, a ``.json`` file a list of them (or
  ``{"poems": [...]}``): each a string, a list of lines (``""`` for a stanza break) or an
  object ``{"text": ..., "topic": ...}`` (``topic`` optional).
- A folder: every ``.txt``/``.json``/``.jsonl`` file in it or below (hidden ones skipped), in
  natural order (poem2 before poem10). The Erato layout is understood: a ``topic<k>.txt``
  beside a folder ``poems<k>`` is not a poem but the topic (its first line) of the poems in
  that folder.

Files must be UTF-8; other bytes give an error naming the file and the offset.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InvalidValueError
from ..text import (
    JSON_POEM_SUFFIXES,
    json_poem_items,
    parse_poem_item,
    read_text_file,
    refuse_special_file,
)

POEM_SUFFIXES = (".txt", ".json", ".jsonl")
_TOPIC_FILE = re.compile(r"^topic(\d+)\.txt$")
_DIGITS = re.compile(r"(\d+)")


@dataclass(frozen=True)
class PoemCollection:
    """Poems with a name each (file path, or path:row) and their topics when all have one."""

    names: list[str]
    poems: list[str]
    topics: list[str] | None


def read_poem_file(path: str | Path) -> PoemCollection:
    """The poem(s) of one file (module docstring)."""
    path = Path(path)
    if not path.is_file():
        refuse_special_file(path, "poem file")
        raise FileNotFoundError(f"no such poem file: {path}")
    text = read_text_file(path)
    if path.suffix.lower() in JSON_POEM_SUFFIXES:
        items = json_poem_items(path, text)
    else:
        items = [(str(path), text)]
    if not items:
        raise InvalidValueError(f"{path}: no poems found")
    parsed = [parse_poem_item(item, where, keep_stanzas=True) for where, item in items]
    topics = [found.topic for found in parsed]
    return PoemCollection(
        [where for where, _ in items],
        [found.text for found in parsed],
        # all or nothing: topicality needs one topic per poem, so a list with gaps is dropped
        topics if all(topics) else None,
    )


def _natural_key(path: Path) -> list[Any]:
    # split on a captured group alternates text and digit runs, so two keys compare str with str
    # and int with int at every position
    return [int(part) if part.isdigit() else part for part in _DIGITS.split(str(path))]


def _folder_topics(root: Path) -> dict[Path, tuple[Path, str]]:
    """Erato layout: folder poems<k> -> (its topic<k>.txt, the topic)."""
    topics = {}
    for topic_file in root.rglob("topic*.txt"):
        match = _TOPIC_FILE.match(topic_file.name)
        folder = topic_file.parent / f"poems{match.group(1)}" if match else None
        if folder is not None and folder.is_dir():
            first_line = read_text_file(topic_file).strip().split("\n")[0].strip()
            if not first_line:
                raise InvalidValueError(f"{topic_file}: the topic file is empty")
            topics[folder] = (topic_file, first_line)
    return topics


def poem_files(root: Path, folder_topics: dict[Path, tuple[Path, str]] | None = None) -> list[Path]:
    """Poem files under a folder, in natural order, without hidden files and topic files
    (``folder_topics``: :func:`_folder_topics` of ``root`` when already read)."""
    if folder_topics is None:
        folder_topics = _folder_topics(root)
    topic_files = {topic_file for topic_file, _ in folder_topics.values()}
    found = [
        path
        for path in root.rglob("*")
        if path.is_file()
        and path.suffix.lower() in POEM_SUFFIXES
        and path not in topic_files
        # relative to root: a root that itself lies under a hidden folder is still read
        and not any(part.startswith(".") for part in path.relative_to(root).parts)
    ]
    return sorted(found, key=_natural_key)


def read_poem_collection(path: str | Path) -> PoemCollection:
    """Poems of a file or a folder (module docstring); topics where every poem has one."""
    path = Path(path)
    if path.is_file():
        return read_poem_file(path)
    if not path.is_dir():
        refuse_special_file(path, "poem source")
        raise FileNotFoundError(f"no such poem file or folder: {path}")
    folder_topics = _folder_topics(path)
    files = poem_files(path, folder_topics)
    if not files:
        raise InvalidValueError(
            f"{path}: no poem files ({', '.join(POEM_SUFFIXES)}) in this folder or below"
        )
    names, poems, topics = [], [], []
    for file in files:
        found = read_poem_file(file)
        names += found.names
        poems += found.poems
        folder_topic = folder_topics.get(file.parent, (None, None))[1]
        topics += found.topics if found.topics else [folder_topic] * len(found.poems)
    return PoemCollection(names, poems, topics if all(topics) else None)
