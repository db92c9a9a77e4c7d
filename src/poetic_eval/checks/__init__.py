"""Checks of what callers pass: option types (a runtime type checker for keyword options),
numbers in range, names among the choices (:func:`require_choice`)."""

from .names import require_choice, require_choices, suggestion, unknown_name_message
from .validation import (
    check_option_types,
    is_number,
    require_fraction,
    require_positive_int,
    require_values_on_device,
    typed_options,
)

__all__ = [
    "check_option_types",
    "is_number",
    "require_choice",
    "require_choices",
    "require_fraction",
    "require_positive_int",
    "require_values_on_device",
    "suggestion",
    "typed_options",
    "unknown_name_message",
]
