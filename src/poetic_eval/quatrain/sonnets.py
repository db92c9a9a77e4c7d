"""Pseudo-sonnets (the paper's SonNet): 3 quatrains and 1 couplet from 4 different quatrains.

The paper draws, "for each sonnet, three quatrains and one couplet from the QuaTrain datasets,
ensuring that each comes from a different original quatrain", within each split, and reports
EN 51,905 train / 5,767 dev sonnets from 181,670 / 20,186 quatrains, DE 72,526 / 8,058 from
253,843 / 28,205. All four are ``floor(2 n / 7)``: the quatrains of a split are used once
each, a sonnet taking 3 whole quatrains and half of a fourth, whose other couplet closes
another sonnet (3.5 quatrains per sonnet). That is the default rule here (``couplets="split"``):

- shuffle the split's quatrains with ``numpy.random.default_rng([seed, stream])``;
- ``s = floor(fraction * floor(2 n / 7))`` sonnets (``fraction`` 1 by default);
- sonnet ``j`` takes the shuffled quatrains ``3j, 3j+1, 3j+2`` whole, in that order, then a
  couplet of quatrain ``3s + j // 2``: lines 1-2 for even ``j``, lines 3-4 for odd ``j``.

So no quatrain is in two sonnets except a couplet source, whose two couplets close two
different sonnets, and the 4 parts of a sonnet come from 4 different quatrains.
``couplets="first"`` or ``"last"`` instead take lines 1-2 or 3-4 of a quatrain used by that
sonnet alone (4 quatrains per sonnet, ``floor(n / 4)`` sonnets at most).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..checks import require_choice
from ..errors import InvalidValueError

COUPLET_RULES = ("split", "first", "last")
#: Sonnet lines: 3 quatrains and a couplet.
SONNET_LINES = 14


@dataclass(frozen=True)
class PseudoSonnets:
    """Sonnets as positions into the split's quatrains.

    ``quatrains``: ``(s, 3)``; ``couplet_sources``: ``(s,)``; ``couplet_halves``: ``(s,)``,
    0 for lines 1-2 and 1 for lines 3-4 of the couplet source.
    """

    quatrains: np.ndarray
    couplet_sources: np.ndarray
    couplet_halves: np.ndarray

    def __len__(self) -> int:
        return int(self.couplet_sources.size)


def max_sonnets(n_quatrains: int, couplets: str = "split") -> int:
    """Sonnets that ``n_quatrains`` give when each quatrain is used once (see module doc)."""
    check_couplet_rule(couplets)
    return 2 * n_quatrains // 7 if couplets == "split" else n_quatrains // 4


def check_couplet_rule(couplets: str) -> str:
    return require_choice(couplets, COUPLET_RULES, "couplet rule")


def draw_pseudo_sonnets(
    n_quatrains: int,
    seed: int,
    *,
    stream: int = 0,
    couplets: str = "split",
    fraction: float = 1.0,
) -> PseudoSonnets:
    """Draw pseudo-sonnets from ``n_quatrains`` quatrains (see the module docstring).

    ``stream`` separates the draws of different splits made with the same seed.
    """
    if not 0 < fraction <= 1:
        raise InvalidValueError(f"the sonnet fraction must be in (0, 1], got {fraction}")
    count = math.floor(fraction * max_sonnets(n_quatrains, couplets))
    order = np.random.default_rng([seed, 1, stream]).permutation(n_quatrains)
    quatrains = order[: 3 * count].reshape(count, 3)
    numbers = np.arange(count)
    if couplets == "split":
        couplet_sources = order[3 * count + numbers // 2]
        halves = numbers % 2
    else:
        couplet_sources = order[3 * count : 4 * count]
        halves = np.full(count, 0 if couplets == "first" else 1)
    return PseudoSonnets(quatrains, couplet_sources, halves.astype(np.int64))
