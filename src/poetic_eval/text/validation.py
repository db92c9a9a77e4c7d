"""Input checks with errors that name the argument, the row and what was expected."""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from typing import Any


def require_texts(values: Any, name: str, *, allow_empty_list: bool = False) -> list[str]:
    """Check ``values`` is a list of non-blank strings and return it as a list.

    Raises TypeError for a non-list or a non-string item, ValueError for an empty list or a
    blank string; messages name ``name`` and the offending index.
    """
    if values is None:
        raise ValueError(f"{name} is required (got None)")
    if isinstance(values, str):
        raise TypeError(f"{name} must be a list of strings, not a single string")
    if not isinstance(values, Sequence):
        try:
            values = list(values)
        except TypeError:
            raise TypeError(
                f"{name} must be a list of strings, got {type(values).__name__}"
            ) from None
    values = list(values)
    if not values and not allow_empty_list:
        raise ValueError(f"{name} is empty: at least one text is needed")
    for index, value in enumerate(values):
        if not isinstance(value, str):
            raise TypeError(
                f"{name}[{index}] must be a string, got {type(value).__name__}: {value!r:.60}"
            )
        if not value.strip():
            raise ValueError(f"{name}[{index}] is empty or only whitespace")
    return values


def require_fraction(value: float, name: str) -> float:
    """Check ``0 < value <= 1`` (thresholds, cutoffs); numpy numbers are accepted."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number in (0, 1], got {type(value).__name__}")
    if math.isnan(value) or not 0 < value <= 1:
        raise ValueError(f"{name} must be in (0, 1], got {value}")
    return float(value)


def require_positive_int(value: int, name: str, *, minimum: int = 1) -> int:
    """Check ``value`` is an integer >= ``minimum`` (numpy integers too); return it as an int."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    return int(value)
