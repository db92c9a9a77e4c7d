"""Readers of the verse corpora used to learn and to measure rhyme schemes (read in place).

The project never ships these texts: the model is learned from them by
``scripts/learn_rhyme_model.py`` and measured on them by ``scripts/evaluate_rhyme_schemes.py``,
both of which read a folder laid out like the project's ``../shared/data``:

- ``epg64_english_poetry/*.xml``: EPG64 (Haider 2021), TEI with a gold ``rhyme`` attribute per
  stanza;
- ``sonnet_or_not_public_domain_poems/poetry-evaluation_public-domain-poems.csv``: public-domain
  poems with expert form labels (Walsh, Preus & Antoniak 2024);
- ``erato_eval_poems/dataset_evaluation/dataset/humanenglish``: the Erato human English poems.

**Held-out authors.** Every poem is assigned to the development or the held-out part by its
author's surname (:func:`is_held_out`: a SHA-256 bucket, 3 of 10), fixed before any
measurement. Learning and tuning see only development authors; the held-out figures in the
rhyme_kl card are measured once on the rest.
"""

from __future__ import annotations

import csv
import hashlib
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..text import stanzas as split_stanzas
from .letters import letters_by_first_occurrence

EPG64 = "epg64_english_poetry"
#: German poems with gold stanza schemes (Haider's SmallGold, TEI like EPG64; 79 poems).
GERMAN_GOLD = "german_rhyme_gold"
PUBLIC_DOMAIN_CSV = "sonnet_or_not_public_domain_poems/poetry-evaluation_public-domain-poems.csv"
ERATO_HUMAN = "erato_eval_poems/dataset_evaluation/dataset/humanenglish"
#: Share of surname buckets (out of 10) held out.
HELD_OUT_BUCKETS = 3

_TEI = "{http://www.tei-c.org/ns/1.0}"
# The TEI text splits clitics off ("blunder 'd"); rejoin them before taking final words.
_SPLIT_CLITIC = re.compile(r"\s+(['\u2019](?:d|s|st|ll|n|t)\b)")
_NAME_PART = re.compile(r"[A-Za-z]+")


@dataclass(frozen=True)
class Poem:
    """One poem: its stanzas (tuples of lines) and, where annotated, each stanza's gold scheme."""

    source: str
    author: str
    title: str
    stanzas: tuple[tuple[str, ...], ...]
    golds: tuple[str | None, ...] = field(default=())
    form: str = ""

    @property
    def held_out(self) -> bool:
        return is_held_out(self.author)

    @property
    def lines(self) -> tuple[str, ...]:
        return tuple(line for stanza in self.stanzas for line in stanza)


def author_key(author: str) -> str:
    """The surname that identifies an author across corpora ("Alfred, Lord Tennyson" ->
    "tennyson", "JohnKeats" -> "keats"); "" when the name has no letters."""
    parts = _NAME_PART.findall(re.sub(r"(?<=[a-z])(?=[A-Z])", " ", author))
    return parts[-1].lower() if parts else ""


def is_held_out(author: str) -> bool:
    """Whether ``author``'s poems belong to the held-out part (never used to learn or tune)."""
    digest = hashlib.sha256(author_key(author).encode()).hexdigest()
    return int(digest, 16) % 10 < HELD_OUT_BUCKETS


def restricted_growth(labels: str | tuple) -> str:
    """Scheme letters by first occurrence of any sequence of labels ("abab" -> "ABAB")."""
    return letters_by_first_occurrence(labels)


def read_epg64(folder: Path, source: str = "epg64") -> list[Poem]:
    """EPG64 poems (or any folder of its TEI files, such as :data:`GERMAN_GOLD`, named by
    ``source``); ``golds`` holds each stanza's scheme where its ``rhyme`` attribute has one
    letter per line, else None."""
    poems = []
    for path in sorted(Path(folder).glob("*.xml")):
        root = ET.parse(path).getroot()
        found = root.find(f".//{_TEI}titleStmt/{_TEI}author")
        author = (found.text or "").strip() if found is not None else ""
        if found is not None and not author:  # the German files: <persName><surname>...
            author = " ".join("".join(found.itertext()).split())
        author = author or path.stem.split("_")[0]
        seen: set[int] = set()
        for poem in root.iter(f"{_TEI}lg"):
            if poem.get("type") not in {"poem", "part"}:
                continue
            title = (poem.findtext(f"{_TEI}head") or "").strip()
            found, golds = [], []
            for group in poem.iter(f"{_TEI}lg"):
                if id(group) in seen:
                    continue
                seen.add(id(group))
                verses = tuple(
                    _SPLIT_CLITIC.sub(r"\1", "".join(verse.itertext()).strip())
                    for verse in group.findall(f"{_TEI}l")
                )
                if not verses:
                    continue
                gold = group.get("rhyme")
                found.append(verses)
                golds.append(restricted_growth(gold) if gold and len(gold) == len(verses) else None)
            if found:
                poems.append(Poem(source, author.strip(), title or path.stem, tuple(found),
                                  tuple(golds)))  # fmt: skip
    return poems


def read_public_domain(path: Path) -> list[Poem]:
    """The public-domain poems CSV: stanzas are blank-line separated blocks; ``form`` is the
    expert label ("sonnet", "couplet", "limerick", ...)."""
    poems = []
    with open(path, newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            blocks = tuple(tuple(block) for block in split_stanzas(row["poem_text"] or ""))
            if blocks:
                poems.append(
                    Poem("public_domain", row["author"], row["poem_title"], blocks,
                         form=(row["form"] or "").strip())
                )  # fmt: skip
    return poems


def read_erato_human(folder: Path) -> list[Poem]:
    """Erato's human English poems; the author of folder ``poems<k>`` is in ``topic<k>.txt``."""
    poems = []
    folder = Path(folder)
    for topic in sorted(folder.glob("topic*.txt")):
        author = topic.read_text(encoding="utf-8").strip()
        for path in sorted((folder / f"poems{topic.stem[5:]}").glob("*.txt")):
            blocks = split_stanzas(path.read_text(encoding="utf-8"))
            if blocks:
                poems.append(Poem("erato", author, path.stem, tuple(tuple(b) for b in blocks)))
    return poems


def read_corpora(root: Path) -> list[Poem]:
    """Every poem of the three corpora under ``root`` (a ``shared/data`` folder); a corpus whose
    files are absent is left out. Erato poems whose first line is already in the CSV are
    duplicates and left out."""
    root = Path(root)
    poems: list[Poem] = []
    if (root / EPG64).is_dir():
        poems += read_epg64(root / EPG64)
    if (root / PUBLIC_DOMAIN_CSV).is_file():
        poems += read_public_domain(root / PUBLIC_DOMAIN_CSV)
    if (root / ERATO_HUMAN).is_dir():
        seen = {_first_line_key(p) for p in poems}
        poems += [p for p in read_erato_human(root / ERATO_HUMAN) if _first_line_key(p) not in seen]
    return poems


def _first_line_key(poem: Poem) -> str:
    return re.sub(r"[^a-z]", "", poem.lines[0].lower()) if poem.lines else ""


def poems_of_part(poems: list[Poem], *, held_out: bool) -> Iterator[Poem]:
    """The poems of the development (``held_out=False``) or held-out part."""
    return (poem for poem in poems if poem.held_out == held_out)


def read_german_gold(root: Path) -> list[Poem]:
    """The German gold poems under ``root`` (a ``shared/data`` folder), one :class:`Poem` per
    poem of each file, source "de_gold"; [] when the folder is absent."""
    folder = Path(root) / GERMAN_GOLD
    return read_epg64(folder, source="de_gold") if folder.is_dir() else []
