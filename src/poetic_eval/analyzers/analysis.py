"""Run the analyzers: one poem, a collection, and the flat summary the metric reports."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from tqdm.auto import tqdm

from ..checks import is_number, typed_options
from ..text import require_texts
from .analyzer import as_poems
from .forms import FormEvaluation, judge_expectations, resolve_expectations
from .poem import Poem, as_poem
from .registry import check_options, select_analyzers


def analyze_poem(
    poem: str | Poem, analyzers: Sequence[str] | None = None, **options: Any
) -> dict[str, Any]:
    """``{analyzer name: value}`` for the single-poem analyzers (all, or those named).

    ``options`` go to the analyzers that declare them (``rhyme_window``, ``rhyme_options``,
    ``include_blank_lines``, ``unknown_stress``, ...); an option no analyzer knows is an error.
    """
    check_options(options)
    poem = as_poem(poem)
    return {
        analyzer.name: analyzer.run(poem, options)
        for analyzer in select_analyzers(analyzers, "single")
    }


def analyze_collection(
    poems: Sequence[str | Poem], analyzers: Sequence[str] | None = None, **options: Any
) -> dict[str, Any]:
    """``{analyzer name: value}`` for the collection analyzers (all, or those named).

    Topicality needs ``topics=`` (one per poem) and is None without them.
    """
    check_options(options)
    parsed = as_poems(poems)
    return {
        analyzer.name: analyzer.run(parsed, options)
        for analyzer in select_analyzers(analyzers, "collection")
    }


def _with_form_analyzers(
    analyzers: Sequence[str] | None, form: str | Mapping[str, Any] | None
) -> list[str] | None:
    if analyzers is None or form is None:
        return None if analyzers is None else list(analyzers)
    _, expectations = resolve_expectations(form)
    return list(dict.fromkeys([*analyzers, *expectations]))


def _mean(values: list[float]) -> float | None:
    # fsum is exactly rounded: the mean does not depend on the order of the poems
    return math.fsum(values) / len(values) if values else None


def summarize_values(name: str, values: Sequence[Any]) -> dict[str, float | None]:
    """Flat means of one analyzer's values over poems: numbers -> their mean; lists of
    numbers -> the mean of all elements; dicts -> one mean per (numeric) key, as
    ``name_key``; anything else (schemes, stress patterns) is left out. None values are
    skipped; a mean of nothing is None."""
    present = [value for value in values if value is not None]
    if not present:
        return {}
    first = present[0]
    if is_number(first):
        return {name: _mean([float(v) for v in present])}
    if isinstance(first, list) and all(is_number(v) for value in present for v in value):
        return {name: _mean([float(v) for value in present for v in value])}
    if isinstance(first, Mapping):
        keys = dict.fromkeys(key for value in present for key in value)
        flat: dict[str, float | None] = {}
        for key in keys:
            numbers_of_key = [v[key] for v in present if is_number(v.get(key))]
            # a key that is None in every poem stays (as None), so the summary keeps its
            # keys; a key with only non-numeric values has no mean and is left out
            if numbers_of_key or all(v.get(key) is None for v in present):
                flat[f"{name}_{key}"] = _mean([float(x) for x in numbers_of_key])
        return flat
    return {}


def summarize_forms(evaluations: Sequence[FormEvaluation]) -> dict[str, float | None]:
    """Pass rate of the form, and per check its pass rate and mean graded score."""
    result: dict[str, float | None] = {
        "form_pass_rate": _mean([float(e.passed) for e in evaluations])
    }
    for name in evaluations[0].checks:
        checks = [e.checks[name] for e in evaluations]
        result[f"form_{name}_pass_rate"] = _mean([float(c.passed) for c in checks])
        scores = [c.score for c in checks if c.score is not None]
        result[f"form_{name}_{checks[0].score_name}"] = _mean(scores)
    return result


def _collection_summary(values: Mapping[str, Any]) -> dict[str, Any]:
    flat: dict[str, Any] = {}
    novelty = values.get("inter_novelty")
    if novelty is not None:
        for way, scores in novelty.items():
            if isinstance(scores, Mapping):
                flat.update({f"inter_novelty_{way}_{key}": v for key, v in scores.items()})
        flat["inter_novelty_pairs"] = novelty["pairs"]
    topics = values.get("topicality")
    if topics is not None:
        flat["topicality_macro_f1"] = topics["macro_f1"]
        flat["topicality_accuracy"] = topics["accuracy"]
        flat["topicality_per_topic"] = topics["per_topic"]
    if values.get("collection_type_token_ratio") is not None:
        flat["collection_type_token_ratio"] = values["collection_type_token_ratio"]
    return flat


def _collection_values(
    parsed: list[Poem], names: Sequence[str], options: dict[str, Any], show_progress: bool
) -> dict[str, Any]:
    """The chosen collection analyzers' values, flattened; none for fewer than 2 poems (there
    is no pair to compare)."""
    wanted = [analyzer.name for analyzer in select_analyzers(names, "collection")]
    if not wanted or len(parsed) < 2:
        return {}
    values = analyze_collection(parsed, wanted, **{**options, "show_progress": show_progress})
    return _collection_summary(values)


@typed_options
def poem_analysis(
    poems: Sequence[str],
    *,
    form: str | Mapping[str, Any] | None = None,
    analyzers: Sequence[str] | None = None,
    collection: bool = True,
    return_per_poem: bool = False,
    show_progress: bool = False,
    **options: Any,
) -> dict[str, Any]:
    """Analyze a list of poems and return one flat dict (the ``poem_analysis`` metric).

    Args:
        poems: poems, lines separated by "\\n", blank lines between stanzas.
        form: a shipped form ("sonnet", "limerick", "quatrain", "haiku") or
            ``{analyzer: expectation}``; adds ``form_pass_rate`` and, per check,
            ``form_<analyzer>_pass_rate`` and the mean graded score
            ``form_<analyzer>_<score name>``.
        analyzers: names of the analyzers to run (default all; a form's are always run).
        collection: also run the collection analyzers (needs at least 2 poems).
        return_per_poem: add ``per_poem``: each poem's values (and form evaluation).
        show_progress: a progress bar over the poems.
        options: analyzer options (``rhyme_window``, ``rhyme_options``, ``topics``, ...).

    Returns:
        ``poems`` (how many), the mean of each single-poem analyzer over the poems (see
        :func:`summarize_values`), the form summary, and the collection values flattened
        (``inter_novelty_<way>_<rouge type>``, ``inter_novelty_pairs``,
        ``topicality_macro_f1``, ``topicality_accuracy``, ``topicality_per_topic``,
        ``collection_type_token_ratio``).
    """
    poems = require_texts(poems, "poems")
    check_options(options)
    names = _with_form_analyzers(analyzers, form)
    parsed = [Poem(text, f"poems[{index}]") for index, text in enumerate(poems)]
    per_poem = [
        analyze_poem(poem, names, **options)
        for poem in tqdm(parsed, desc="analyzing poems", disable=not show_progress)
    ]
    result: dict[str, Any] = {"poems": len(poems)}
    for analyzer in select_analyzers(names, "single"):
        result.update(summarize_values(analyzer.name, [v[analyzer.name] for v in per_poem]))
    evaluations = []
    if form:
        form_name, expectations = resolve_expectations(form)
        evaluations = [judge_expectations(values, form_name, expectations) for values in per_poem]
    if evaluations:
        result.update(summarize_forms(evaluations))
    if collection:
        result.update(_collection_values(parsed, names, options, show_progress))
    if return_per_poem:
        result["per_poem"] = [
            {**values, **({"form": evaluation.to_json()} if form else {})}
            # no form: no evaluations, and the Nones keep zip from stopping at the first poem
            for values, evaluation in zip(per_poem, evaluations or [None] * len(per_poem))
        ]
    return result
