"""Stanza and line counts (poetic aspect, any language).

A stanza is a block of non-empty lines; blank lines (any number) separate stanzas.
"""

from __future__ import annotations

import math
from typing import Any

from .analyzer import Analyzer
from .poem import Poem


def stanza_count(poem: Poem) -> int:
    """Number of stanzas."""
    return len(poem.stanzas)


def line_count(poem: Poem) -> int:
    """Number of non-empty lines."""
    return len(poem.lines)


def lines_per_stanza(poem: Poem) -> list[int]:
    """Non-empty lines in each stanza, in order (poem103 of the Erato data: [4, 4, 4, 2])."""
    return [len(stanza) for stanza in poem.stanzas]


def stanza_shape_distance(value: Any, target: Any) -> float:
    """Lines to add or remove, stanza by stanza, to turn one shape into the other: the L1
    distance of the two lists padded with zeros ([14] vs [4, 4, 4, 2]: 10 + 4 + 4 + 2 = 20)."""
    if not isinstance(value, list) or not isinstance(target, (list, tuple)):
        return math.inf
    width = max(len(value), len(target))
    padded_value = list(value) + [0] * (width - len(value))
    padded_target = list(target) + [0] * (width - len(target))
    return float(sum(abs(a - b) for a, b in zip(padded_value, padded_target)))


STANZA_COUNT = Analyzer(
    name="stanza_count",
    kind="single",
    aspect="poetic",
    analyze=stanza_count,
    description="number of stanzas (blocks of lines between blank lines)",
)

LINE_COUNT = Analyzer(
    name="line_count",
    kind="single",
    aspect="poetic",
    analyze=line_count,
    description="number of non-empty lines",
)

LINES_PER_STANZA = Analyzer(
    name="lines_per_stanza",
    kind="single",
    aspect="poetic",
    analyze=lines_per_stanza,
    description="non-empty lines in each stanza",
    measure=stanza_shape_distance,
    score_name="lines_off",
)
