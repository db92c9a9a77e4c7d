"""The seeded 9:1 train / dev split of the de-duplicated quatrains.

``n_dev = floor(n * dev_share + 1/2)`` quatrains (rounded half up; with the default 0.1 this
reproduces the paper's sizes: 201,856 -> 181,670 / 20,186 for English and 282,048 -> 253,843 /
28,205 for German), chosen by a permutation from ``numpy.random.default_rng([seed, 0])``; the
rest is train. Both parts are returned in source order.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..errors import InvalidValueError

DEV_SHARE = 0.1
_SPLIT_STREAM = 0


@dataclass(frozen=True)
class TrainDevSplit:
    """Positions (ascending, into the de-duplicated quatrains) of each split."""

    train: np.ndarray
    dev: np.ndarray


def dev_size(n: int, dev_share: float = DEV_SHARE) -> int:
    """``round(n * dev_share)``, halves rounded up, computed exactly."""
    if not 0 < dev_share < 1:
        raise InvalidValueError(f"dev_share must be in (0, 1), got {dev_share}")
    return int(Fraction(n) * Fraction(str(dev_share)) + Fraction(1, 2))


def split_train_dev(n: int, seed: int, dev_share: float = DEV_SHARE) -> TrainDevSplit:
    """Split ``n`` quatrains 9:1 (by default) with ``seed``; both parts in source order."""
    order = np.random.default_rng([seed, _SPLIT_STREAM]).permutation(n)
    n_dev = dev_size(n, dev_share)
    return TrainDevSplit(train=np.sort(order[n_dev:]), dev=np.sort(order[:n_dev]))
