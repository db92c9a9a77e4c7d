"""Every metric module loads offline through `evaluate` and its documented example runs."""

from __future__ import annotations

import doctest
import sys

import pytest

import poetic_eval

METRICS = poetic_eval.available_metrics()


@pytest.mark.floors
@pytest.mark.parametrize("name", METRICS)
def test_kwargs_description_example_runs(name):
    metric = poetic_eval.load_metric(name)
    module = sys.modules[type(metric).__module__]
    examples = module._KWARGS_DESCRIPTION
    assert ">>>" in examples, f"{name}: _KWARGS_DESCRIPTION has no runnable example"
    parser = doctest.DocTestParser()
    test = parser.get_doctest(examples, {"poetic_eval": poetic_eval}, name, None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted > 0
    assert result.failed == 0, f"{name}: {result.failed} example(s) failed"


@pytest.mark.parametrize("name", METRICS)
def test_module_has_header_constants(name):
    metric = poetic_eval.load_metric(name)
    module = sys.modules[type(metric).__module__]
    for constant in ("_DESCRIPTION", "_KWARGS_DESCRIPTION", "_CITATION"):
        assert getattr(module, constant, "").strip(), f"{name}: {constant} is empty"
