"""Run a metric module's own documented example with any loader, and compare results.

Shared by the tests and by the fresh processes they start (``python metric_examples.py
OUT.json NAME...``): the example of ``_KWARGS_DESCRIPTION`` is executed with
``poetic_eval.load_metric(...)`` replaced by the loader under test, and its ``result`` is
returned as JSON-ready data.
"""

from __future__ import annotations

import doctest
import json
import math
import sys
from collections.abc import Callable


def example_result(name: str, load: Callable) -> object:
    """``result`` of the documented example of the metric that ``load(name)`` loads (``name``
    may be a bare name, a hub id or a path), the example's own load call replaced by it: its
    first value, the first ``compute`` call's, which the metric's Space fills its form with (a
    later call of the example, e.g. rhyme_kl's German one, is run but not returned)."""
    text = sys.modules[type(load(name)).__module__]._KWARGS_DESCRIPTION
    if "poetic_eval.load_metric(" not in text:
        raise AssertionError(f"{name}: the example does not load it with poetic_eval.load_metric")
    namespace: dict = {"_load": lambda _name, **options: load(name, **options)}
    first = None
    for example in doctest.DocTestParser().get_examples(text):
        source = example.source.replace("poetic_eval.load_metric(", "_load(")
        exec(compile(source, f"<{name} example>", "exec"), namespace)  # noqa: S102
        if first is None and "result" in namespace:
            first = to_json(namespace["result"])
    if first is None:
        raise AssertionError(f"{name}: the example does not store compute()'s value in `result`")
    return first


def to_json(value: object) -> object:
    """Plain JSON data (numpy scalars and arrays become numbers and lists)."""
    return json.loads(json.dumps(value, default=_plain))


def _plain(value):
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(f"cannot compare a {type(value).__name__}")


def assert_same(actual, expected, path="result"):
    """Equal data; floats equal to 1e-9 relative (the same code in another process)."""
    if isinstance(expected, float) and isinstance(actual, (int, float)):
        assert math.isclose(actual, expected, rel_tol=1e-9, abs_tol=1e-12) or (
            math.isnan(actual) and math.isnan(expected)
        ), f"{path}: {actual} != {expected}"
    elif isinstance(expected, dict):
        assert isinstance(actual, dict) and actual.keys() == expected.keys(), path
        for key in expected:
            assert_same(actual[key], expected[key], f"{path}[{key!r}]")
    elif isinstance(expected, list):
        assert isinstance(actual, list) and len(actual) == len(expected), path
        for index, (a, e) in enumerate(zip(actual, expected)):
            assert_same(a, e, f"{path}[{index}]")
    else:
        assert actual == expected, f"{path}: {actual!r} != {expected!r}"


if __name__ == "__main__":
    # python metric_examples.py OUT.json NAME...: each example with evaluate.load(NAME)
    import evaluate

    results = {name: example_result(name, evaluate.load) for name in sys.argv[2:]}
    with open(sys.argv[1], "w", encoding="utf-8") as out:
        json.dump(results, out)
