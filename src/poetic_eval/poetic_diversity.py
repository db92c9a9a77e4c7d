"""Every diversity dimension of the paper in one call: generated poems against a human corpus.

Dimensions (``DIMENSIONS``), each delegated to its own module:

============  =================================================  ==============================
dimension     scores                                             computed by
============  =================================================  ==============================
memorization  memorization_{quatrain,couplet,verse}              memorization.memorization
length        length_histogram_intersection, length_wasserstein  length_distribution
              length_{mean,median,std,min,max}, reference_...    .length_comparison
rhyme         rhyme_entropy, rhyme_kl, rhyme_cross_entropy,      rhyme_distribution
              real_rhymes, repetitions, reference_..., counts,   .rhyme_divergence
              scheme_distribution_<LABEL>, reference_...
lexical       attr, mattr, mtld, reference_{attr,mattr,mtld}     lexical_diversity
semantic      within_max_sim, across_max_sim,                    semantic_similarity
              reference_within_max_sim (+ _std, _min, _max)      .max_similarity
============  =================================================  ==============================

Options of a dimension are passed as ``<dimension>_<option>``: ``memorization_thresholds``,
``length_bins``, ``rhyme_base``, ``lexical_window``, ``semantic_model``, ... (the option is a
keyword argument of the function in the last column; :func:`dimension_options` lists them).
An unknown option, or an option of a dimension that is not run, raises an error.

The paper's human protocol (``human_samples=k``): draw ``k`` random samples of
``len(predictions)`` human poems (without replacement, seeded) and report each
*reference-side* statistic (``reference_length_*``, ``reference_rhyme_entropy``,
``reference_real_rhymes``, ``reference_repetitions``, ``reference_attr/mattr/mtld``,
``reference_within_max_sim*``) as its average over the samples, so that it is measured on a
sample of the same size as the generated one. Comparisons (memorization, histogram
intersection, Wasserstein, KL, cross-entropy, across similarity) always use the whole corpus.
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .length_distribution import length_comparison, length_statistics, poem_lengths
from .lexical_diversity import lexical_diversity
from .memorization import memorization
from .rhyme_distribution import NoQuatrainError, rhyme_divergence
from .semantic_similarity import max_similarity
from .validation import require_positive_int, require_texts

DIMENSIONS = ("memorization", "length", "rhyme", "lexical", "semantic")
NEEDS_REFERENCES = ("memorization", "length", "rhyme")

_PART_FUNCTIONS: dict[str, Callable[..., dict]] = {
    "memorization": memorization,
    "length": length_comparison,
    "rhyme": rhyme_divergence,
    "lexical": lexical_diversity,
    "semantic": max_similarity,
}
# Options this module sets itself.
_CONTROLLED = {"show_progress", "return_values", "reference_samples"}
_RENAMED = {
    "histogram_intersection": "length_histogram_intersection",
    "wasserstein": "length_wasserstein",
}


@dataclass
class DiversityProfile:
    """Flat ``scores`` plus ``details`` for figures (per-poem lengths, scheme distributions,
    per-poem maximum similarities, memorized units when asked)."""

    scores: dict[str, float]
    details: dict[str, Any] = field(default_factory=dict)
    dimensions: tuple[str, ...] = DIMENSIONS
    human_samples: int | None = None
    skipped: dict[str, str] = field(default_factory=dict)


def dimension_options(dimension: str) -> tuple[str, ...]:
    """Names of the options of ``dimension`` (pass them as ``<dimension>_<option>``)."""
    parameters = inspect.signature(_PART_FUNCTIONS[dimension]).parameters.values()
    return tuple(
        p.name for p in parameters if p.kind is p.KEYWORD_ONLY and p.name not in _CONTROLLED
    )


def resolve_dimensions(dimensions: str | Iterable[str] | None) -> tuple[str, ...]:
    """The dimensions to run, in canonical order; ValueError naming the valid ones."""
    if dimensions is None:
        return DIMENSIONS
    requested = [dimensions] if isinstance(dimensions, str) else list(dimensions)
    unknown = [d for d in requested if d not in DIMENSIONS]
    if unknown:
        raise ValueError(
            f"unknown dimension(s) {', '.join(map(repr, unknown))}; "
            f"valid dimensions: {', '.join(DIMENSIONS)}"
        )
    if not requested:
        raise ValueError(f"dimensions is empty; choose among {', '.join(DIMENSIONS)}")
    return tuple(d for d in DIMENSIONS if d in requested)


def split_part_options(
    options: dict[str, Any], dimensions: Sequence[str]
) -> dict[str, dict[str, Any]]:
    """``{"length_bins": 20}`` -> ``{"length": {"bins": 20}, ...}`` for the chosen dimensions."""
    by_dimension: dict[str, dict[str, Any]] = {d: {} for d in dimensions}
    for name, value in options.items():
        dimension = next((d for d in DIMENSIONS if name.startswith(d + "_")), None)
        if dimension is None:
            raise TypeError(
                f"unexpected keyword argument {name!r}; options of a dimension are passed as "
                f"'<dimension>_<option>' with <dimension> one of {', '.join(DIMENSIONS)}"
            )
        option = name[len(dimension) + 1 :]
        valid = dimension_options(dimension)
        if option not in valid:
            raise TypeError(
                f"unexpected keyword argument {name!r}: {dimension} has no option {option!r}; "
                f"its options: {', '.join(f'{dimension}_{o}' for o in valid)}"
            )
        if dimension not in dimensions:
            raise ValueError(
                f"{name} was given but the {dimension!r} dimension is not run "
                f"(dimensions: {', '.join(dimensions)})"
            )
        by_dimension[dimension][option] = value
    return by_dimension


def human_sample_indices(
    reference_count: int, sample_size: int, samples: int, seed: int = 0
) -> list[np.ndarray]:
    """``samples`` sorted index arrays of ``sample_size`` distinct references each (seeded)."""
    require_positive_int(samples, "human_samples")
    if sample_size > reference_count:
        raise ValueError(
            f"human_samples draws samples of len(predictions) = {sample_size} poems from the "
            f"references, but there are only {reference_count} references"
        )
    rng = np.random.default_rng(seed)
    return [
        np.sort(rng.choice(reference_count, size=sample_size, replace=False))
        for _ in range(samples)
    ]


def _sample_average(
    statistic: Callable[[list[str]], dict[str, float]],
    references: Sequence[str],
    samples: list[np.ndarray],
) -> dict[str, float]:
    """Average, over the human samples, of each value of ``statistic(sample)``."""
    results = [statistic([references[i] for i in sample]) for sample in samples]
    return {key: float(np.mean([r[key] for r in results])) for key in results[0]}


def _memorization(predictions, references, options, samples, show_progress):
    scores = memorization(predictions, references, show_progress=show_progress, **options)
    matches = scores.pop("matches", None)
    return scores, ({} if matches is None else {"memorization_matches": matches})


def _length(predictions, references, options, samples, show_progress):
    scores = {
        _RENAMED.get(k, k): v
        for k, v in length_comparison(predictions, references, **options).items()
    }
    remove = options.get("remove_punctuation", True)
    if samples:
        averaged = _sample_average(
            lambda sample: length_statistics(sample, remove_punctuation=remove), references, samples
        )
        scores.update({f"reference_length_{k}": v for k, v in averaged.items()})
    details = {
        "lengths": poem_lengths(predictions, remove_punctuation=remove).tolist(),
        "reference_lengths": poem_lengths(references, remove_punctuation=remove).tolist(),
    }
    return scores, details


_RHYME_SAMPLE_KEYS = {
    "rhyme_entropy": "reference_rhyme_entropy",
    "real_rhymes": "reference_real_rhymes",
    "repetitions": "reference_repetitions",
}


def _rhyme(predictions, references, options, samples, show_progress):
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
            own = rhyme_divergence(sample, sample, **options)
            return {_RHYME_SAMPLE_KEYS[k]: own[k] for k in _RHYME_SAMPLE_KEYS}

        scores.update(_sample_average(sample_statistics, references, samples))
    return scores, details


def _lexical(predictions, references, options, samples, show_progress):
    scores = lexical_diversity(predictions, **options)
    if references is not None:
        if samples:
            side = _sample_average(lambda s: lexical_diversity(s, **options), references, samples)
        else:
            side = lexical_diversity(references, **options)
        scores.update({f"reference_{k}": v for k, v in side.items()})
    return scores, {}


def _semantic(predictions, references, options, samples, show_progress):
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


_RUNNERS = {
    "memorization": _memorization,
    "length": _length,
    "rhyme": _rhyme,
    "lexical": _lexical,
    "semantic": _semantic,
}


def diversity_profile(
    predictions: Sequence[str],
    references: Sequence[str] | None = None,
    *,
    dimensions: str | Iterable[str] | None = None,
    human_samples: int | None = None,
    seed: int = 0,
    show_progress: bool = False,
    **part_options: Any,
) -> DiversityProfile:
    """:func:`poetic_diversity` with the per-poem details the report's figures need."""
    chosen = resolve_dimensions(dimensions)
    options = split_part_options(part_options, chosen)
    predictions = require_texts(predictions, "predictions")
    if references is None:
        missing = [d for d in chosen if d in NEEDS_REFERENCES]
        if missing or human_samples is not None:
            raise ValueError(
                f"references (the human corpus) are required for {', '.join(missing) or 'human_samples'}; "
                "without them only dimensions=['lexical', 'semantic'] can run"
            )
    else:
        references = require_texts(references, "references")
    samples: list[np.ndarray] = []
    if human_samples is not None:
        samples = human_sample_indices(len(references), len(predictions), human_samples, seed)
    profile = DiversityProfile(scores={}, dimensions=chosen, human_samples=human_samples)
    for dimension in chosen:
        try:
            scores, details = _RUNNERS[dimension](
                predictions, references, options[dimension], samples, show_progress
            )
        except NoQuatrainError as error:
            if dimensions is not None:  # asked for by name: an error, not a silent gap
                raise
            profile.skipped[dimension] = str(error)
            warnings.warn(f"{dimension} dimension skipped: {error}", stacklevel=2)
            continue
        profile.scores.update(scores)
        profile.details.update(details)
    profile.dimensions = tuple(d for d in chosen if d not in profile.skipped)
    return profile


def poetic_diversity(
    predictions: Sequence[str],
    references: Sequence[str] | None = None,
    *,
    dimensions: str | Iterable[str] | None = None,
    human_samples: int | None = None,
    seed: int = 0,
    show_progress: bool = False,
    **part_options: Any,
) -> dict[str, Any]:
    """All diversity scores of generated ``predictions`` against human ``references``, flat.

    Args:
        predictions: generated poems, lines separated by "\\n".
        references: the human corpus (any size); required for memorization, length and rhyme.
        dimensions: subset of ``DIMENSIONS`` to run (default all; semantic loads a model).
            By default the rhyme dimension is left out, with a warning, when either side has
            no 4-line poem (limericks, sonnets); asked for by name, that is an error.
        human_samples: the paper's protocol: average reference-side statistics over this many
            seeded samples of ``len(predictions)`` references (default: the whole corpus).
        seed: seed of the human samples.
        show_progress: progress bars of the parts.
        **part_options: ``<dimension>_<option>`` keyword arguments for the parts, e.g.
            ``memorization_thresholds={"verse": 0.95}``, ``length_bins=20``,
            ``rhyme_base=math.e``, ``lexical_window=50``, ``semantic_model="path/to/model"``.

    Returns:
        One flat dict of scores (see the module docstring for the keys per dimension).
    """
    return diversity_profile(
        predictions,
        references,
        dimensions=dimensions,
        human_samples=human_samples,
        seed=seed,
        show_progress=show_progress,
        **part_options,
    ).scores
