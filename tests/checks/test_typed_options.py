"""Every entry point type-checks its bool/int/float options: "no" for a boolean is an error.

The entry points are found, not listed: every public function and class of every subpackage
(``__all__``), and every analyzer's options through the public functions that run them. A new
public function with such an option fails this test until it is decorated with
``@typed_options``; an internal function is not decorated (its callers are checked), so the
decorated functions are the public boundary, listed in an ``__all__``.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
from pathlib import Path

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


def analyzer_options():
    from poetic_eval.analyzers import ANALYZERS

    return sorted(
        (analyzer.name, option, kind)
        for analyzer in ANALYZERS.values()
        for option, (kind, _) in option_types(analyzer.analyze).items()
        if option in analyzer.options
    )


@pytest.mark.parametrize(("analyzer", "option", "kind"), analyzer_options())
def test_analyzer_options_are_checked_at_the_public_functions(analyzer, option, kind):
    """The analyzers are internal: poem_analysis and analyze_poem check their options."""
    from poetic_eval.analyzers import analyze_poem, poem_analysis

    poems = ["the sea is grey\nthe gulls are loud", "I counted coins\nbeneath the stairs"]
    with pytest.raises(TypeError, match=rf"^{option} must be "):
        poem_analysis(poems, analyzers=[analyzer], **{option: "no"})
    with pytest.raises(TypeError, match=rf"^{option} must be "):
        analyze_poem(poems[0], [analyzer], **{option: "no"})


def test_there_are_analyzer_options_to_check():
    assert {"rhyme_window", "include_blank_lines"} <= {o for _, o, _ in analyzer_options()}


PACKAGE = Path(__file__).resolve().parents[2] / "src" / "poetic_eval"


def _listed_names() -> set[str]:
    """Every name in an ``__all__`` of the package (a subpackage's or a module's)."""
    names = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            targets = getattr(node, "targets", None) or [getattr(node, "target", None)]
            if any(getattr(target, "id", None) == "__all__" for target in targets):
                names |= {element.value for element in node.value.elts}
    return names


def decorated_functions() -> list[tuple[str, str]]:
    """(module path, [Class.]function) of every function decorated with ``@typed_options``."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        owners = {
            id(f): c.name for c in ast.walk(tree) if isinstance(c, ast.ClassDef) for f in c.body
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and any(
                getattr(d, "id", None) == "typed_options" for d in node.decorator_list
            ):
                owner = owners.get(id(node))
                name = f"{owner}.{node.name}" if owner else node.name
                found.append((path.relative_to(PACKAGE).as_posix(), name))
    return found


def test_only_public_functions_are_decorated():
    """The runtime type checks sit at the public boundary only: every decorated function (or
    the class of a decorated method) is listed in an ``__all__``."""
    listed = _listed_names()
    decorated = decorated_functions()
    assert len(decorated) > 40  # the walk finds them
    internal = [f"{path} {name}" for path, name in decorated if name.split(".")[0] not in listed]
    assert not internal, "decorated but not public: " + ", ".join(internal)
