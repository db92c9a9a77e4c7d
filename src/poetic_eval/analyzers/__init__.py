"""Erato-style poem analyzers: analyze single poems and collections, evaluate them against
expectations (exact values, ranges, sets) and common forms (sonnet, limerick, quatrain, haiku).

- :func:`analyze_poem` / :func:`analyze_collection`: ``{analyzer: value}``.
- :func:`evaluate_poem`: pass/fail and graded scores against a form or expectations.
- :func:`poem_analysis`: the flat summary of a list of poems (the ``poem_analysis`` metric).
- :data:`ANALYZERS`: the registry (name -> :class:`Analyzer`); docs/adding_an_analyzer.md
  says how to add one.
"""

from .analysis import analyze_collection, analyze_poem, poem_analysis, summarize_values
from .analyzer import ASPECTS, KINDS, Analyzer, Evaluation
from .expectations import Expectation, expectation
from .forms import (
    FormEvaluation,
    evaluate_poem,
    form_description,
    form_expectations,
    form_names,
    judge_values,
)
from .novelty import inter_novelty, intra_novelty
from .poem import Poem, line_words
from .poem_sources import PoemCollection, read_poem_collection, read_poem_file
from .registry import ANALYZERS, get_analyzer, select_analyzers
from .rouge import RougeTexts, rouge_tokens
from .topicality import retrieval_scores, topicality

__all__ = [
    "ANALYZERS",
    "ASPECTS",
    "KINDS",
    "Analyzer",
    "Evaluation",
    "Expectation",
    "FormEvaluation",
    "Poem",
    "PoemCollection",
    "RougeTexts",
    "analyze_collection",
    "analyze_poem",
    "evaluate_poem",
    "expectation",
    "form_description",
    "form_expectations",
    "form_names",
    "get_analyzer",
    "inter_novelty",
    "intra_novelty",
    "judge_values",
    "line_words",
    "poem_analysis",
    "read_poem_collection",
    "read_poem_file",
    "retrieval_scores",
    "rouge_tokens",
    "select_analyzers",
    "summarize_values",
    "topicality",
]
