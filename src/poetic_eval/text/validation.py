"""Input checks with errors that name the argument, the row and what was expected."""

from __future__ import annotations

import functools
import inspect
import math
import numbers
import types
import typing
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import numpy as np

Result = TypeVar("Result")
_UNIONS = (typing.Union, types.UnionType)

from .corpus import PoemCorpus


def require_texts(values: Any, name: str, *, allow_empty_list: bool = False) -> list[str]:
    """Check ``values`` is a list of non-blank strings and return it as a list.

    Raises TypeError for a non-list or a non-string item, ValueError for an empty list or a
    blank string; messages name ``name`` and the offending index. A
    :class:`~poetic_eval.text.corpus.PoemCorpus` (checked when it was made) is returned as it
    is, so that what is derived from it is kept.
    """
    if isinstance(values, PoemCorpus):
        return values
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


_OPTION_TYPES = {bool: "True or False", int: "an integer", float: "a number"}


def typed_options(function: Callable[..., Result]) -> Callable[..., Result]:
    """Check, at each call, the keyword-only options annotated ``bool``, ``int`` or ``float``
    (optionally ``| None``): a string for a boolean ("no", "false") is an error, not True.

    numpy booleans and numbers are accepted; ``int`` options refuse booleans and fractions,
    ``float`` options refuse booleans. Other options are left to the function.
    """
    expected: dict[str, tuple[type, bool]] | None = None

    @functools.wraps(function)
    def checked(*args: Any, **kwargs: Any) -> Result:
        nonlocal expected
        if expected is None:
            expected = _option_types(function)
        for name, value in kwargs.items():
            if name in expected:
                _check_option(name, value, *expected[name])
        return function(*args, **kwargs)

    return checked


def _check_option(name: str, value: Any, kind: type, optional: bool) -> None:
    if optional and value is None or _is_instance(value, kind):
        return
    wanted = _OPTION_TYPES[kind] + (" or None" if optional else "")
    raise TypeError(f"{name} must be {wanted}, got {type(value).__name__} {value!r:.40}")


def _option_types(function: Callable) -> dict[str, tuple[type, bool]]:
    hints = typing.get_type_hints(function)
    found = {}
    for parameter in inspect.signature(function).parameters.values():
        if parameter.kind is not parameter.KEYWORD_ONLY or parameter.name not in hints:
            continue
        hint = hints[parameter.name]
        members = set(typing.get_args(hint)) if typing.get_origin(hint) in _UNIONS else {hint}
        optional = type(None) in members
        members.discard(type(None))
        if len(members) == 1 and next(iter(members)) in _OPTION_TYPES:
            found[parameter.name] = (next(iter(members)), optional)
    return found


def _is_instance(value: Any, kind: type) -> bool:
    if kind is bool:
        return isinstance(value, (bool, np.bool_))
    if isinstance(value, (bool, np.bool_)):
        return False
    if kind is int:
        return isinstance(value, numbers.Integral)
    return isinstance(value, numbers.Real)
