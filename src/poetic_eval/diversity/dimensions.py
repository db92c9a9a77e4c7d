"""The diversity dimensions: one record each, the single place that lists them.

A :class:`Dimension` names its core function (whose keyword-only parameters are the
dimension's options, passed to :func:`~poetic_eval.diversity.poetic_diversity` as
``<dimension>_<option>``), whether it needs the human corpus, how it runs inside a profile
(scores and figure details, the human-sample protocol). Its report section and figure are in
:mod:`poetic_eval.report.sections.diversity`. Adding a dimension is one record in
:data:`DIMENSIONS` plus the functions it names, and one entry there.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from ..checks import check_option_types
from .length import length_comparison, length_statistics, poem_lengths
from .lexical import lexical_diversity
from .memorization import memorization
from .rhyme_distribution import SchemeReading, rhyme_divergence
from .semantic import SimilarityOptions, max_similarity

#: (predictions, references, options, human samples, show_progress) -> (scores, details)
Runner = Callable[
    [list[str], "list[str] | None", dict, "list[np.ndarray]", bool], "tuple[dict, dict]"
]

_RENAMED = {
    "histogram_intersection": "length_histogram_intersection",
    "wasserstein": "length_wasserstein",
}
# Options the profile sets itself (language: once for every dimension that reads words or sound).
_CONTROLLED = {"show_progress", "return_values", "reference_samples", "language"}


@dataclass(frozen=True)
class Dimension:
    """One diversity dimension of the paper. ``settings``: the dataclass whose fields
    ``compute`` also takes as keyword options (through ``**options``), when it has one."""

    name: str
    compute: Callable[..., dict]
    run: Runner
    needs_references: bool
    settings: type | None = None

    def options(self) -> tuple[str, ...]:
        """Names of the dimension's options (pass them as ``<name>_<option>``)."""
        parameters = inspect.signature(self.compute).parameters.values()
        own = [p.name for p in parameters if p.kind is p.KEYWORD_ONLY]
        held = [f.name for f in fields(self.settings)] if self.settings is not None else []
        return tuple(name for name in own + held if name not in _CONTROLLED)

    def check_option_types(self, chosen: dict[str, Any], prefix: str) -> None:
        """Check the types of the ``chosen`` options before any dimension runs."""
        check_option_types(self.compute, chosen, prefix=prefix)
        if self.settings is not None:
            check_option_types(self.settings, chosen, prefix=prefix)

    def reads_language(self) -> bool:
        """Whether the dimension reads words or sound, so takes the poems' ``language``
        (memorization compares characters, and does not)."""
        return "language" in inspect.signature(self.compute).parameters


def _sample_average(
    statistic: Callable[[list[str]], dict[str, float]],
    references: Sequence[str],
    samples: list[np.ndarray],
) -> dict[str, float]:
    """Average, over the human samples, of each value of ``statistic(sample)``."""
    results = [statistic([references[i] for i in sample]) for sample in samples]
    return {key: float(np.mean([r[key] for r in results])) for key in results[0]}


def _run_memorization(predictions, references, options, samples, show_progress):
    scores = memorization(predictions, references, show_progress=show_progress, **options)
    matches = scores.pop("matches", None)
    return scores, ({} if matches is None else {"memorization_matches": matches})


def _run_length(predictions, references, options, samples, show_progress):
    scores = {
        _RENAMED.get(k, k): v
        for k, v in length_comparison(predictions, references, **options).items()
    }
    # length_comparison's own defaults: the figure and the samples count tokens as the scores do
    counting = {
        "remove_punctuation": options.get("remove_punctuation", True),
        "language": options.get("language", "en"),
    }
    if samples:
        averaged = _sample_average(
            lambda sample: length_statistics(sample, **counting), references, samples
        )
        scores.update({f"reference_length_{k}": v for k, v in averaged.items()})
    details = {
        "lengths": poem_lengths(predictions, **counting).tolist(),
        "reference_lengths": poem_lengths(references, **counting).tolist(),
    }
    return scores, details


_RHYME_SAMPLE_KEYS = {
    "rhyme_entropy": "reference_rhyme_entropy",
    "real_rhymes": "reference_real_rhymes",
    "repetitions": "reference_repetitions",
}


def _run_rhyme(predictions, references, options, samples, show_progress):
    result = rhyme_divergence(predictions, references, show_progress=show_progress, **options)
    details = {
        "scheme_distribution": result.pop("scheme_distribution"),
        "reference_scheme_distribution": result.pop("reference_scheme_distribution"),
    }
    scores = dict(result)
    for side in ("scheme_distribution", "reference_scheme_distribution"):
        scores.update({f"{side}_{label}": share for label, share in details[side].items()})
    if samples:

        def sample_statistics(sample: list[str]) -> dict[str, float]:
            # the sample on both sides: only its own entropy and shares are read (its KL to itself
            # is 0)
            own = rhyme_divergence(sample, sample, **options)
            return {_RHYME_SAMPLE_KEYS[k]: own[k] for k in _RHYME_SAMPLE_KEYS}

        scores.update(_sample_average(sample_statistics, references, samples))
    return scores, details


def _run_lexical(predictions, references, options, samples, show_progress):
    scores = lexical_diversity(predictions, **options)
    if references is not None:
        if samples:
            side = _sample_average(lambda s: lexical_diversity(s, **options), references, samples)
        else:
            side = lexical_diversity(references, **options)
        scores.update({f"reference_{k}": v for k, v in side.items()})
    return scores, {}


def _run_semantic(predictions, references, options, samples, show_progress):
    result = max_similarity(
        predictions,
        references,
        reference_samples=samples or None,
        return_values=True,
        show_progress=show_progress,
        **options,
    )
    detail_keys = [
        k for k in result if k.endswith(("_values", "_nearest_prediction", "_nearest_reference"))
    ]
    details = {k: result.pop(k) for k in detail_keys}
    return result, details


DIMENSIONS: dict[str, Dimension] = {
    dimension.name: dimension
    for dimension in (
        Dimension("memorization", memorization, _run_memorization, True),
        Dimension("length", length_comparison, _run_length, True),
        Dimension("rhyme", rhyme_divergence, _run_rhyme, True, SchemeReading),
        Dimension("lexical", lexical_diversity, _run_lexical, False),
        Dimension("semantic", max_similarity, _run_semantic, False, SimilarityOptions),
    )
}  # fmt: skip
