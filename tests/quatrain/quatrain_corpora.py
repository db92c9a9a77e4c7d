"""Synthetic QuaTrain-like corpora, shared by the QuaTrain tests: every 4-line window (stride 1)
of stanzas that share lines with other stanzas; with the spec's de-duplication transcribed
directly (bench/quatrain_reference.py, which the benchmark uses too).
"""

from __future__ import annotations

import json
from itertools import islice
from pathlib import Path

from bench.quatrain_reference import transcribed_deduplication, windows_of
from bench.synthetic_poems import SyntheticPoems

__all__ = [
    "lines_of",
    "synthetic_stanzas",
    "transcribed_deduplication",
    "windows_of",
    "write_jsonl",
]

# -- synthetic corpora like QuaTrain -------------------------------------------------------


def synthetic_stanzas(seed: int, n_stanzas: int, *, pool: int = 12) -> list[list[str]]:
    """Stanzas of 1-13 lines; some lines come from a small shared pool (refrains, common
    lines), and some stanzas are copies of earlier ones, cut at either end (a poem held by
    two sources)."""
    stream = SyntheticPoems(seed).stanzas_with_copies(
        lengths=(1, 13), copy_rate=0.25, refrains=pool, refrain_rate=0.15
    )
    return list(islice(stream, n_stanzas))


def write_jsonl(path: Path, windows: list[list[str]], language: str = "en", **labels) -> Path:
    records = ({"text": window, "language": language, **labels} for window in windows)
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return path


def lines_of(corpus, rows) -> list[list[str]]:
    return [corpus.lines(row) for row in rows]
