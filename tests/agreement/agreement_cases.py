"""What the agreement tests share: the pairs per family they generate, the families whose
noun (not verb) carries the number, and a JSON-lines writer for published formats."""

from __future__ import annotations

import json
from pathlib import Path

N_PAIRS = 400
NOUN_VARIES = {
    "regular_plural_subject_verb_agreement_2",
    "irregular_plural_subject_verb_agreement_2",
}


def write_jsonl(path: Path, records) -> Path:
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return path
