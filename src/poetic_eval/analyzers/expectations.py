"""What an analyzer's value is expected to be, and how far a value is from it.

An expectation is one of (JSON-friendly dicts; the Python shorthands in brackets):

- ``{"equals": v}`` [a bare value, including a list]: exactly ``v``;
- ``{"range": [low, high]}`` [a 2-tuple]: a number in the closed range (either end may be None);
- ``{"one_of": [v1, v2, ...]}`` [a set]: any of the values;
- ``{"each": E}``: every element of a list value meets ``E``;
- ``{"items": [E1, E2, ...]}``: element ``i`` of a list value meets ``Ei`` (same length);
- ``{"keys": {"k": E, ...}}``: entry ``k`` of a dict value meets ``E``.

Each may carry ``"tolerance": t`` (default 0). The *distance* of a value from an expectation
is 0 when it is met, else the analyzer's distance to the nearest accepted value (a range
counts the distance to its nearer end); ``each`` and ``items`` average the element distances
(so for syllables it is the mean absolute error), ``keys`` adds the entry distances, and a
list of the wrong length for ``items`` is infinitely far. The value **passes** when its
distance is at most the tolerance.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..checks import is_number
from ..errors import InvalidValueError

KINDS = ("equals", "range", "one_of", "each", "items", "keys")

#: distance(value, target) of two values of one analyzer (>= 0, 0 when equal)
Distance = Callable[[Any, Any], float]


@dataclass(frozen=True)
class Expectation:
    """A parsed expectation (see the module docstring); build it with :func:`expectation`."""

    kind: str
    target: Any
    tolerance: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """The JSON form that :func:`expectation` parses back."""
        if self.kind in ("each",):
            body: Any = self.target.to_json()
        elif self.kind == "items":
            body = [item.to_json() for item in self.target]
        elif self.kind == "keys":
            body = {key: value.to_json() for key, value in self.target.items()}
        elif self.kind in ("range", "one_of"):
            body = list(self.target)
        else:
            body = self.target
        result = {self.kind: body}
        if self.tolerance:
            result["tolerance"] = self.tolerance
        return result


def expectation(spec: Any) -> Expectation:
    """Parse an expectation from its JSON form or a Python shorthand (module docstring)."""
    if isinstance(spec, Expectation):
        return spec
    if isinstance(spec, (set, frozenset)):
        # a set has no order: sorted by repr for a stable to_json, as mixed types may not compare
        return Expectation("one_of", tuple(sorted(spec, key=repr)))
    if isinstance(spec, tuple):
        return Expectation("range", _range(spec))
    if isinstance(spec, Mapping) and any(kind in spec for kind in KINDS):
        return _from_mapping(spec)
    return Expectation("equals", spec)


def _from_mapping(spec: Mapping[str, Any]) -> Expectation:
    kinds = [kind for kind in KINDS if kind in spec]
    unknown = set(spec) - set(KINDS) - {"tolerance"}
    if len(kinds) != 1 or unknown:
        raise InvalidValueError(
            f"an expectation needs exactly one of {', '.join(KINDS)} (and optionally "
            f"'tolerance'); got keys {sorted(spec)}"
        )
    kind = kinds[0]
    body = spec[kind]
    tolerance = spec.get("tolerance", 0.0)
    if isinstance(tolerance, bool) or not isinstance(tolerance, numbers.Real) or tolerance < 0:
        raise InvalidValueError(f"tolerance must be a number >= 0, got {tolerance!r}")
    if kind == "range":
        target: Any = _range(tuple(body) if isinstance(body, Sequence) else body)
    elif kind == "one_of":
        if isinstance(body, (str, bytes)) or not isinstance(body, Sequence) or not body:
            raise InvalidValueError(f"'one_of' needs a non-empty list of values, got {body!r}")
        target = tuple(body)
    elif kind == "each":
        target = expectation(body)
    elif kind == "items":
        if isinstance(body, (str, bytes)) or not isinstance(body, Sequence):
            raise InvalidValueError(f"'items' needs a list of expectations, got {body!r}")
        target = tuple(expectation(item) for item in body)
    elif kind == "keys":
        if not isinstance(body, Mapping) or not body:
            raise InvalidValueError(
                f"'keys' needs a non-empty mapping of expectations, got {body!r}"
            )
        target = {str(key): expectation(value) for key, value in body.items()}
    else:
        target = body
    return Expectation(kind, target, float(tolerance))


def _range(bounds: Any) -> tuple[float | None, float | None]:
    if not isinstance(bounds, tuple) or len(bounds) != 2:
        raise InvalidValueError(f"a range is (low, high), got {bounds!r}")
    for bound in bounds:
        if bound is not None and (isinstance(bound, bool) or not isinstance(bound, numbers.Real)):
            raise InvalidValueError(f"range bounds must be numbers or None, got {bounds!r}")
    low, high = bounds
    if low is not None and high is not None and low > high:
        raise InvalidValueError(f"range low end {low} is above its high end {high}")
    return low, high


def absolute_difference(value: Any, target: Any) -> float:
    """|value - target| for numbers; infinite when either is missing or not a number."""
    if not is_number(value, allow_nan=False) or not is_number(target, allow_nan=False):
        return math.inf if value != target else 0.0
    return abs(float(value) - float(target))


def distance(value: Any, spec: Expectation, measure: Distance, element: Distance) -> float:
    """Distance of ``value`` from ``spec``: ``measure`` compares whole values, ``element``
    compares list elements (for ``each`` and ``items``)."""
    if spec.kind == "equals":
        return measure(value, spec.target)
    if spec.kind == "one_of":
        return min(measure(value, target) for target in spec.target)
    if spec.kind == "range":
        return _range_distance(value, spec.target)
    if spec.kind == "keys":
        if not isinstance(value, Mapping):
            return math.inf
        return sum(
            distance(value.get(key), inner, measure, element) if key in value else math.inf
            for key, inner in spec.target.items()
        )
    # each/items need a list: a str or a dict would otherwise be walked element by element
    if value is None or isinstance(value, (str, Mapping)) or not isinstance(value, Sequence):
        return math.inf
    if spec.kind == "each":
        parts = [distance(item, spec.target, element, element) for item in value]
    else:
        if len(value) != len(spec.target):
            return math.inf
        parts = [distance(item, inner, element, element) for item, inner in zip(value, spec.target)]
    return sum(parts) / len(parts) if parts else 0.0


def _range_distance(value: Any, bounds: tuple[float | None, float | None]) -> float:
    if not is_number(value, allow_nan=False):
        return math.inf
    low, high = bounds
    below = low - value if low is not None else 0.0
    above = value - high if high is not None else 0.0
    return float(max(below, above, 0.0))


def passes(measured: float, spec: Expectation) -> bool:
    """Whether a distance is within the expectation's tolerance."""
    # slack for float rounding: a mean of element distances or a range end minus a value can
    # land a few ulps above a tolerance it meets exactly
    return measured <= spec.tolerance + 1e-12
