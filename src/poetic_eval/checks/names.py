"""One message for a name that is not one of the choices: what was asked, the closest names and
every choice (``unknown metric 'mtdl'; did you mean 'mtld'? choices: ...``)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import TypeVar

from ..errors import UnknownNameError

Name = TypeVar("Name")


def unknown_name_message(value: object, choices: Iterable[object], what: str) -> str:
    """``unknown WHAT 'VALUE'; did you mean 'X'? choices: A, B, C`` (no guess when none is close).

    The choices are listed in the order given (a registry's order means something).
    """
    return f"unknown {what} {value!r}; " + suggestion(value, choices)


def suggestion(value: object, choices: Iterable[object]) -> str:
    """``did you mean 'X'? choices: A, B, C`` (only the choices when none is close)."""
    shown = [str(choice) for choice in choices]
    guesses = difflib.get_close_matches(str(value), shown, n=3, cutoff=0.6)
    guess = "did you mean " + " or ".join(map(repr, guesses)) + "? " if guesses else ""
    return guess + "choices: " + (", ".join(shown) if shown else "(none)")


def require_choice(value: Name, choices: Iterable[Name], what: str) -> Name:
    """``value`` if it is one of ``choices``, else :class:`~poetic_eval.errors.UnknownNameError`
    (a ``ValueError``) naming the closest choices.

    ``what`` names the kind of thing ("metric", "builder", "form", "option of mtld" ...).
    """
    choices = list(choices)
    if value in choices:
        return value
    raise UnknownNameError(unknown_name_message(value, choices, what))


def require_choices(values: Iterable[Name], choices: Iterable[Name], what: str) -> list[Name]:
    """Every one of ``values`` checked by :func:`require_choice`; the first unknown one fails."""
    choices = list(choices)
    return [require_choice(value, choices, what) for value in values]
