"""Erato-style poem analyzers: analyze single poems and collections, evaluate them against
expectations (exact values, ranges, sets) and common forms (sonnet, limerick, quatrain, haiku).

- :func:`analyze_poem` / :func:`analyze_collection`: ``{analyzer: value}``.
- :func:`evaluate_poem`: pass/fail and graded scores against a form or expectations.
- :func:`poem_analysis`: the flat summary of a list of poems (the ``poem_analysis`` metric).
- :data:`ANALYZERS`: the registry (name -> :class:`Analyzer`); docs/adding_an_analyzer.md
  says how to add one.
"""

from .analysis import analyze_collection, analyze_poem, poem_analysis
from .analyzer import Analyzer
from .forms import evaluate_poem, judge_values
from .poem_sources import read_poem_collection
from .registry import ANALYZERS

__all__ = [
    "ANALYZERS",
    "Analyzer",
    "analyze_collection",
    "analyze_poem",
    "evaluate_poem",
    "judge_values",
    "poem_analysis",
    "read_poem_collection",
]
