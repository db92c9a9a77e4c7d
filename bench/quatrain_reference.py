"""The QuaTrain de-duplication of the spec, transcribed directly and slowly: the reference that
the QuaTrain tests and bench/bench_quatrain_dedup.py compare the fast implementation with."""

from __future__ import annotations

import math
from collections import Counter


def windows_of(stanzas: list[list[str]]) -> list[list[str]]:
    """Every 4-line window (stride 1) of each stanza, as QuaTrain's records are."""
    return [s[i : i + 4] for s in stanzas for i in range(len(s) - 3)]


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
