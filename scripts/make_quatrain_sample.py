"""Regenerate ``seed_data/quatrain_sample.jsonl`` from ``seed_data/quatrain_stanzas.txt``.

The stanzas are the project's own verse. Like QuaTrain, the sample holds every 4-line window
(stride 1) of each stanza, in order, as ``{"text", "language", "rhyme", "meter",
"alliteration"}`` records: ``rhyme`` from poetic-eval's ``rhyme_scheme``, ``meter`` as the
author labelled each stanza below, ``alliteration`` null. Some stanzas repeat others (a whole
copy, one without its first line, a longer version, a shared refrain line), as poems that
several sources hold do in QuaTrain, so that both de-duplication stages have work to do.

    .venv/bin/python scripts/make_quatrain_sample.py
"""

from __future__ import annotations

import json

from poetic_eval.resources import SEED_DIR, seed_poems
from poetic_eval.rhyme import rhyme_scheme

#: The meter of each stanza of quatrain_stanzas.txt, in order.
METERS = (
    "iambus", "iambus", "iambus", "trochee", "iambus", "anapaest", "iambus", "iambus",
    "iambus", "iambus", "iambus", "dactyl", "iambus", "iambus", "iambus", "iambus",
    "trochee", "iambus", "iambus", "iambus", "anapaest", "iambus", "iambus", "dactyl",
    "iambus", "iambus", "iambus",
)  # fmt: skip


def sample_records() -> list[dict]:
    stanzas = seed_poems("quatrain_stanzas.txt")
    if len(stanzas) != len(METERS):
        raise SystemExit(f"{len(stanzas)} stanzas but {len(METERS)} meter labels")
    records = []
    for stanza, meter in zip(stanzas, METERS):
        lines = stanza.split("\n")
        for start in range(len(lines) - 3):
            window = lines[start : start + 4]
            records.append(
                {
                    "text": window,
                    "language": "en",
                    "rhyme": rhyme_scheme("\n".join(window)),
                    "meter": meter,
                    "alliteration": None,
                }
            )
    return records


def main() -> None:
    path = SEED_DIR / "quatrain_sample.jsonl"
    with open(path, "w", encoding="utf-8") as stream:
        stream.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in sample_records())
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
