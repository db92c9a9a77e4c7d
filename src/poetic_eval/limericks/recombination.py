"""Larger limerick corpora recombined from a few: for scale tests and benchmarks.

A new limerick takes the A lines (1, 2, 5) of one limerick, in any of their 6 orders, and the
B lines (3, 4) of another (or the same), in either order, placed as A A B B A. From ``k``
limericks this gives up to ``12 k^2`` distinct texts (45 seed limericks: 24,300). A
recombination is not checked here: when one limerick's A rhyme happens to rhyme with the
other's B rhyme, the result is not AABBA, and limerick verification drops it as it would any
source poem.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import permutations

from ..checks import require_positive_int, typed_options
from ..errors import InvalidValueError
from .corruptions import Limerick

_A_ORDERS = tuple(permutations((0, 1, 4)))
_B_ORDERS = ((2, 3), (3, 2))


def recombination_count(n_limericks: int) -> int:
    """How many distinct recombinations ``n_limericks`` limericks give at most."""
    return len(_A_ORDERS) * len(_B_ORDERS) * n_limericks * n_limericks


@typed_options
def recombine_limericks(limericks: Sequence[Limerick], n: int, seed: int) -> list[str]:
    """``n`` distinct recombined limerick texts, drawn without replacement by ``seed``."""
    require_positive_int(n, "n")
    available = recombination_count(len(limericks))
    if n > available:
        raise InvalidValueError(
            f"n={n} exceeds the {available} recombinations of {len(limericks)} limericks"
        )
    rng = random.Random(f"recombine/{seed}")
    texts: list[str] = []
    seen: set[str] = set()
    per_a = len(_B_ORDERS) * len(limericks) * len(_A_ORDERS)
    for code in rng.sample(range(available), n):
        a_source, rest = divmod(code, per_a)
        a_order, rest = divmod(rest, len(_B_ORDERS) * len(limericks))
        b_source, b_order = divmod(rest, len(_B_ORDERS))
        a_lines = [limericks[a_source].lines[i] for i in _A_ORDERS[a_order]]
        b_lines = [limericks[b_source].lines[i] for i in _B_ORDERS[b_order]]
        text = "\n".join([a_lines[0], a_lines[1], b_lines[0], b_lines[1], a_lines[2]])
        if text not in seen:  # identical lines in the sources can repeat a text
            seen.add(text)
            texts.append(text)
    return texts
