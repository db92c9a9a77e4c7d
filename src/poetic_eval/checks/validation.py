"""Input checks with errors that name the argument, the row and what was expected.

A failed check raises :class:`~poetic_eval.errors.InvalidValueError` (a ``ValueError``) or
:class:`~poetic_eval.errors.InvalidTypeError` (a ``TypeError``): user errors, which the
command lines report in one line.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import math
import numbers
import sys
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from ..errors import InvalidTypeError, InvalidValueError
from .names import suggestion

Result = TypeVar("Result")
Settings = TypeVar("Settings")
_UNIONS = (typing.Union, types.UnionType)


def require_fraction(value: float, name: str) -> float:
    """Check ``0 < value <= 1`` (thresholds, cutoffs); numpy numbers are accepted."""
    if not is_number(value):
        raise InvalidTypeError(f"{name} must be a number in (0, 1], got {type(value).__name__}")
    if math.isnan(value) or not 0 < value <= 1:
        raise InvalidValueError(f"{name} must be in (0, 1], got {value}")
    return float(value)


def require_positive_int(value: int, name: str, *, minimum: int = 1) -> int:
    """Check ``value`` is an integer >= ``minimum`` (numpy integers too); return it as an int."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise InvalidTypeError(f"{name} must be an integer, got {type(value).__name__}")
    if value < minimum:
        raise InvalidValueError(f"{name} must be >= {minimum}, got {value}")
    return int(value)


_OPTION_TYPES = {bool: "True or False", int: "an integer", float: "a number"}


def typed_options(function: Callable[..., Result]) -> Callable[..., Result]:
    """Check, at each call, the options annotated ``bool``, ``int`` or ``float`` (optionally
    ``| None``), given by keyword or by position: a string for a boolean ("no", "false") is
    an error, not True.

    numpy booleans and numbers are accepted; ``int`` options refuse booleans and fractions,
    ``float`` options refuse booleans. Other options are left to the function. The wrapper
    carries ``typed_options = True`` (the coverage test of the entry points looks for it).
    """
    checks: list[tuple[str, int | None, type, bool]] | None = None

    @functools.wraps(function)
    def checked(*args: Any, **kwargs: Any) -> Result:
        nonlocal checks
        # read at the first call, not at decoration: the annotations are strings (postponed) and
        # may name what the module defines further down
        if checks is None:
            checks = _option_checks(function)
        for name, position, kind, optional in checks:
            if name in kwargs:
                _check_option(name, kwargs[name], kind, optional)
            elif position is not None and position < len(args):
                _check_option(name, args[position], kind, optional)
        return function(*args, **kwargs)

    checked.typed_options = True  # type: ignore[attr-defined]
    return checked


@typed_options
def is_number(value: Any, *, allow_nan: bool = True) -> bool:
    """Whether ``value`` is a real number (numpy's too) and not a boolean (``True`` is an
    ``int`` to Python); ``allow_nan=False`` also refuses NaN, a value that was not measured."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return False
    return allow_nan or not math.isnan(value)


def _check_option(name: str, value: Any, kind: type, optional: bool) -> None:
    # ``and`` binds tighter: None where allowed, or a value of the right kind
    if optional and value is None or _is_instance(value, kind):
        return
    wanted = _OPTION_TYPES[kind] + (" or None" if optional else "")
    raise InvalidTypeError(f"{name} must be {wanted}, got {type(value).__name__} {value!r:.40}")


def check_option_types(function: Callable, options: Mapping[str, Any], *, prefix: str = "") -> None:
    """Check ``options`` meant for ``function`` as :func:`typed_options` would at the call,
    before it (e.g. every dimension's options before the first dimension runs); errors name
    the option as the user gave it, ``prefix + name``."""
    types = option_types(function)
    for name, value in options.items():
        if name in types:
            _check_option(prefix + name, value, *types[name])


def options_from_keywords(
    settings: type[Settings], keywords: Mapping[str, Any], function: str
) -> Settings:
    """``settings(**keywords)`` for a function that takes a dataclass's fields as keyword
    options, with the errors its own parameters would give: an unknown keyword is named with
    the closest options, and ``bool``/``int``/``float`` fields are checked as
    :func:`typed_options` checks parameters."""
    names = [field.name for field in dataclasses.fields(settings)]  # type: ignore[arg-type]
    for name in keywords:
        if name not in names:
            raise InvalidTypeError(
                f"{function}() got an unexpected keyword argument {name!r}; "
                + suggestion(name, names)
            )
    check_option_types(settings, keywords)
    return settings(**keywords)


def option_types(function: Callable) -> dict[str, tuple[type, bool]]:
    """``{parameter: (bool | int | float, None allowed)}`` for the parameters of ``function``
    that :func:`typed_options` checks."""
    return {name: (kind, optional) for name, _, kind, optional in _option_checks(function)}


def _option_checks(function: Callable) -> list[tuple[str, int | None, type, bool]]:
    """(name, position or None, type, None allowed) of each checked parameter."""
    function = inspect.unwrap(function)
    hints = _annotations(function)
    found = []
    for position, parameter in enumerate(inspect.signature(function).parameters.values()):
        if parameter.name not in hints or parameter.kind in (
            parameter.VAR_POSITIONAL,
            parameter.VAR_KEYWORD,
        ):
            continue
        hint = hints[parameter.name]
        members = set(typing.get_args(hint)) if typing.get_origin(hint) in _UNIONS else {hint}
        optional = type(None) in members
        members.discard(type(None))
        if len(members) == 1 and next(iter(members)) in _OPTION_TYPES:
            # positions count ``self`` like the call's args do (the function is unbound here); a
            # keyword-only parameter has no position
            keyword_only = parameter.kind is parameter.KEYWORD_ONLY
            found.append(
                (parameter.name, None if keyword_only else position, next(iter(members)), optional)
            )
    return found


def _annotations(function: Callable) -> dict[str, Any]:
    """The evaluated annotations of ``function``; one that names a type only imported for type
    checking is left out (it is never bool, int or float)."""
    try:
        return typing.get_type_hints(function)
    except NameError:
        pass
    found = {}
    namespace = getattr(function, "__globals__", {})
    for name, annotation in inspect.get_annotations(function).items():
        try:
            found[name] = eval(annotation, namespace) if isinstance(annotation, str) else annotation
        except NameError:
            continue
    return found


def _is_bool(value: Any) -> bool:
    """A Python or numpy boolean (numpy is not imported for this: the command line starts
    without it, and a numpy boolean exists only once numpy is imported)."""
    numpy = sys.modules.get("numpy")
    return isinstance(value, bool) or (numpy is not None and isinstance(value, numpy.bool_))


def _is_instance(value: Any, kind: type) -> bool:
    if kind is bool:
        return _is_bool(value)
    if _is_bool(value):
        return False
    if kind is int:
        return isinstance(value, numbers.Integral)
    return isinstance(value, numbers.Real)


def require_values_on_device(values: Any, name: str) -> None:
    """Refuse a tensor on torch's ``meta`` device: it has a shape but no values."""
    device = getattr(values, "device", None)
    if getattr(device, "type", None) == "meta":
        raise InvalidValueError(
            f"{name} is a tensor on the 'meta' device, which holds no values (a model "
            "created without its weights, e.g. under init_empty_weights or device_map='meta'); "
            "load the weights, or move the tensor to a real device first"
        )
