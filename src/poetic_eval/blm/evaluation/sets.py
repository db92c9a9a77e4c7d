"""Evaluate a model on whole evaluation sets (every config of a built folder or a release file)
under several settings: the rows a BLM table reports."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ...checks import typed_options
from ...lm import load_language_model
from ..item_sources import EvaluationSet, load_evaluation_sets
from .methods import evaluate_blm

#: what a report shows per config: zero-shot English prompting, and the candidates' likelihood
REPORT_SETTINGS = ({"method": "prompt", "language": "en"}, {"method": "candidates"})


@typed_options
def evaluate_configs(
    source: str | Path,
    model: Any = None,
    *,
    configs: list[str] | None = None,
    limit: int | None = None,
    settings: Sequence[Mapping[str, Any]] = REPORT_SETTINGS,
    show_progress: bool = True,
) -> list[dict[str, Any]]:
    """:func:`~poetic_eval.blm.evaluate_blm` of every config of ``source`` (a built BLM folder,
    or a release file) under each of ``settings`` (keyword arguments of ``evaluate_blm``), each
    result with its ``config``: the rows of :func:`blm_section`. ``limit``: first N test items."""
    sets = load_evaluation_sets(source, configs, limit=limit)
    return evaluate_sets(sets, model, settings=settings, show_progress=show_progress)


@typed_options
def evaluate_sets(
    sets: Sequence[EvaluationSet],
    model: Any = None,
    *,
    settings: Sequence[Mapping[str, Any]] = REPORT_SETTINGS,
    batch_size: int | None = None,
    show_progress: bool = True,
) -> list[dict[str, Any]]:
    """:func:`~poetic_eval.blm.evaluate_blm` of every set (with its one-shot example, if any)
    under each of ``settings``, each result with its ``config`` (the set's name)."""
    lm = load_language_model(model)
    results = []
    for evaluation_set in sets:
        for options in settings:
            result = evaluate_blm(
                evaluation_set.items,
                lm,
                example=evaluation_set.example,
                batch_size=batch_size,
                show_progress=show_progress,
                **options,
            )
            results.append({"config": evaluation_set.name, **result})
    return results
