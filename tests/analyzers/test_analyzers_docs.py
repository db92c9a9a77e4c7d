"""The test files the analyzer docs, docstrings and card point readers to exist."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [
    *sorted((ROOT / "src/poetic_eval/analyzers").glob("*.py")),
    ROOT / "docs/analyzers.md",
    ROOT / "metrics/poem_analysis/README.md",
    ROOT / "docs/adding_an_analyzer.md",
    ROOT / "bench/bench_novelty.py",
]
TEST_PATH = re.compile(r"tests/[\w/*.-]+\.py")


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_every_test_path_named_in_the_analyzer_docs_exists(document):
    named = TEST_PATH.findall(document.read_text(encoding="utf-8"))
    missing = [path for path in named if not list(ROOT.glob(path))]
    assert not missing, f"{document.relative_to(ROOT)} names missing test files: {missing}"


def test_the_docs_name_the_held_out_syllabifier_test():
    for document in DOCUMENTS[-3:-1]:
        assert "tests/analyzers/test_analyzers_meter.py" in document.read_text(encoding="utf-8")
