"""Every entry point type-checks its bool/int/float options: "no" for a boolean is an error.

The entry points are found, not listed: every public function and class of every subpackage
(``__all__``), every analyzer's function, and the core function of every metric module. A new
function with such an option fails this test until it is decorated with ``@typed_options``.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect

import numpy as np
import pytest

from poetic_eval.checks import typed_options
from poetic_eval.checks.validation import option_types

SUBPACKAGES = (
    "text",
    "rhyme",
    "diversity",
    "lm",
    "pairs",
    "limericks",
    "blm",
    "quatrain",
    "analyzers",
    "hub",
    "report",
    "integrations",
)
# The validators check the value they are given; their own arguments are the checked value.
EXEMPT = {"require_fraction", "require_positive_int", "require_texts"}
VALID = {bool: False, int: 1, float: 0.5}


def _is_entry_point(value, name: str) -> bool:
    if inspect.isfunction(value):
        return name not in EXEMPT
    return (  # a class with its own __init__ (dataclasses are records, not entry points)
        inspect.isclass(value)
        and not dataclasses.is_dataclass(value)
        and "__init__" in vars(value)
        and not issubclass(value, BaseException)
    )


def entry_points():
    found = {}
    for name in SUBPACKAGES:
        package = importlib.import_module(f"poetic_eval.{name}")
        for public in getattr(package, "__all__", ()):
            value = getattr(package, public)
            if _is_entry_point(value, public):
                found[f"{name}.{public}"] = value
    from poetic_eval.analyzers import ANALYZERS

    for analyzer in ANALYZERS.values():
        found[f"analyzer {analyzer.name}"] = analyzer.analyze
    return found


def typed_parameters(entry):
    function = entry.__init__ if inspect.isclass(entry) else entry
    return option_types(function)


ENTRY_POINTS = {name: entry for name, entry in entry_points().items() if typed_parameters(entry)}


def test_the_entry_points_are_found():
    for expected in (
        "diversity.poetic_diversity",
        "diversity.max_similarity",
        "pairs.pair_preference",
        "analyzers.poem_analysis",
        "quatrain.prepare_language",
        "analyzer type_token_ratio",
        "limericks.SynonymFinder",
    ):
        assert expected in ENTRY_POINTS, expected


@pytest.mark.parametrize("name", sorted(ENTRY_POINTS))
def test_entry_point_refuses_a_string_for_a_typed_option(name):
    entry = ENTRY_POINTS[name]
    function = entry.__init__ if inspect.isclass(entry) else entry
    assert getattr(function, "typed_options", False), f"{name} is not @typed_options"
    types = typed_parameters(entry)
    signature = inspect.signature(inspect.unwrap(function))
    for option in types:
        arguments = {}
        for parameter in signature.parameters.values():
            if parameter.name == "self" or parameter.kind in (
                parameter.VAR_POSITIONAL,
                parameter.VAR_KEYWORD,
            ):
                continue
            if parameter.name == option:
                arguments[option] = "no"
            elif parameter.name in types:
                arguments[parameter.name] = VALID[types[parameter.name][0]]
            elif parameter.default is parameter.empty:
                arguments[parameter.name] = None
        with pytest.raises(TypeError, match=rf"^{option} must be "):
            entry(**arguments)


def test_numpy_numbers_and_booleans_pass_and_positions_are_checked():
    @typed_options
    def scored(texts, bins: int = 10, *, share: float = 0.5, strict: bool = False):
        return bins, share, strict

    assert scored([], np.int64(3), share=np.float32(0.25), strict=np.bool_(True)) == (3, 0.25, True)
    with pytest.raises(TypeError, match="bins must be an integer, got str"):
        scored([], "3")
    with pytest.raises(TypeError, match="bins must be an integer, got bool"):
        scored([], bins=True)
    with pytest.raises(TypeError, match="share must be a number, got str"):
        scored([], share="0.5")
    with pytest.raises(TypeError, match="strict must be True or False, got str 'false'"):
        scored([], strict="false")
