"""Every metric card names the core function its module calls, and that function exists."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

import poetic_eval

CORE_LINE = re.compile(r"^Core function: `(poetic_eval(?:\.\w+)+)`", re.MULTILINE)


@pytest.mark.parametrize("name", poetic_eval.available_metrics())
def test_card_names_the_core_function_the_module_calls(name):
    folder = Path(poetic_eval.metric_path(name))
    found = CORE_LINE.search((folder / "README.md").read_text(encoding="utf-8"))
    assert found, f"metrics/{name}/README.md has no 'Core function: `poetic_eval...`' line"
    module_name, function_name = found.group(1).rsplit(".", 1)
    function = getattr(importlib.import_module(module_name), function_name)
    assert callable(function)
    source = (folder / f"{name}.py").read_text(encoding="utf-8")
    assert re.search(rf"\b{function_name}\(", source), f"{name}.py does not call {function_name}"
