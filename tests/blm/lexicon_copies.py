"""Copies of the BLM lexicon with one change, for the tests of the lexicon checks."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

from poetic_eval.blm.generator.lexicon_loading import DATA_DIR


def edited_lexicon(tmp_path: Path, name: str, edit: Callable[[dict], None]) -> Path:
    """A copy of the lexicon's data folder whose file ``name`` (``verbs.json``, ...) is read,
    changed in place by ``edit`` and written back."""
    folder = tmp_path / "lexicon"
    shutil.copytree(DATA_DIR, folder)
    path = folder / name
    raw = json.loads(path.read_text(encoding="utf-8"))
    edit(raw)
    path.write_text(json.dumps(raw), encoding="utf-8")
    return folder


def edited_verb(tmp_path: Path, lemma: str, **fields) -> Path:
    """A copy of the lexicon whose verb ``lemma`` takes ``fields`` (a field given None is
    taken out)."""

    def edit(raw: dict) -> None:
        entry = next(entry for entry in raw["verbs"] if entry["lemma"] == lemma)
        for key, value in fields.items():
            if value is None:
                entry.pop(key, None)
            else:
                entry[key] = value

    return edited_lexicon(tmp_path, "verbs.json", edit)
