"""Synthetic QuaTrain-like corpora and the spec's de-duplication transcribed directly, shared by
the QuaTrain tests: every 4-line window (stride 1) of stanzas that share lines with other
stanzas.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from itertools import islice
from pathlib import Path

from poetic_eval.text.synthetic import SyntheticPoems

# -- the spec, transcribed directly -------------------------------------------------------


def transcribed_deduplication(windows: list[list[str]], p: int) -> tuple[list[int], list[int]]:
    """Indices kept after the sequential pass and after the overlap removal."""
    kept = []
    position = 0
    for i, window in enumerate(windows):
        if i > 0 and window[0] == windows[i - 1][1]:
            position += 1  # continues the previous record
        else:
            position = 0
        if position % 4 == 0:  # first of its group of at most 4
            kept.append(i)
    after_sequential = list(kept)
    while kept:
        counts = Counter(line for i in kept for line in windows[i])
        if max(counts.values()) == 1:
            break
        scores = [sum(counts[line] for line in windows[i]) for i in kept]
        k = math.ceil(sum(1 for score in scores if score > 4) / p)
        ranking = sorted(range(len(kept)), key=lambda j: scores[j], reverse=True)  # stable
        deleted = set(ranking[:k])
        kept = [i for j, i in enumerate(kept) if j not in deleted]
    return after_sequential, kept


# -- synthetic corpora like QuaTrain -------------------------------------------------------


def synthetic_stanzas(seed: int, n_stanzas: int, *, pool: int = 12) -> list[list[str]]:
    """Stanzas of 1-13 lines; some lines come from a small shared pool (refrains, common
    lines), and some stanzas are copies of earlier ones, cut at either end (a poem held by
    two sources)."""
    stream = SyntheticPoems(seed).stanzas_with_copies(
        lengths=(1, 13), copy_rate=0.25, refrains=pool, refrain_rate=0.15
    )
    return list(islice(stream, n_stanzas))


def windows_of(stanzas: list[list[str]]) -> list[list[str]]:
    return [s[i : i + 4] for s in stanzas for i in range(len(s) - 3)]


def write_jsonl(path: Path, windows: list[list[str]], language: str = "en", **labels) -> Path:
    records = ({"text": window, "language": language, **labels} for window in windows)
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return path


def lines_of(corpus, rows) -> list[list[str]]:
    return [corpus.lines(row) for row in rows]
