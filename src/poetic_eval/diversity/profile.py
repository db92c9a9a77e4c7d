"""Every diversity dimension of the paper in one call: generated poems against a human corpus.

Dimensions (records in :data:`poetic_eval.diversity.dimensions.DIMENSIONS`), each delegated to
its own core function:

============  =================================================  ============================
dimension     scores                                             computed by
============  =================================================  ============================
memorization  memorization_{quatrain,couplet,verse}              memorization.memorization
length        length_histogram_intersection, length_wasserstein  length.length_comparison
              length_{mean,median,std,min,max}, reference_...
rhyme         rhyme_entropy, rhyme_kl, rhyme_cross_entropy,      rhyme_distribution
              real_rhymes, repetitions, reference_..., counts,   .rhyme_divergence
              scheme_distribution_<LABEL>, reference_...
lexical       attr, mattr, mtld, reference_{attr,mattr,mtld}     lexical.lexical_diversity
semantic      within_max_sim, across_max_sim,                    semantic.max_similarity
              reference_within_max_sim (+ _std, _min, _max)
============  =================================================  ============================

``language`` (``"en"`` default, ``"de"``) is one option for the whole profile: it goes to
every dimension that reads words or sound (rhyme: the rhyme rules; lexical and length: the
token rules; semantic: a warning when the default encoder is English-only) and is part of
every corpus cache key they use. Memorization compares characters and does not take it.

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

import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..checks import (
    require_choices,
    require_positive_int,
    suggestion,
    typed_options,
)
from ..errors import InvalidTypeError, InvalidValueError
from ..text import require_texts, resolve_language
from .dimensions import DIMENSIONS
from .rhyme_distribution import NoQuatrainError

#: The dimensions' names, in the order they run and are reported.
DIMENSION_NAMES: tuple[str, ...] = tuple(DIMENSIONS)


@dataclass
class DiversityProfile:
    """Flat ``scores`` plus ``details`` for figures (per-poem lengths, scheme distributions,
    per-poem maximum similarities, memorized units when asked)."""

    scores: dict[str, float]
    details: dict[str, Any] = field(default_factory=dict)
    dimensions: tuple[str, ...] = DIMENSION_NAMES
    human_samples: int | None = None
    skipped: dict[str, str] = field(default_factory=dict)
    language: str = "en"


def dimension_options(dimension: str) -> tuple[str, ...]:
    """Names of the options of ``dimension`` (pass them as ``<dimension>_<option>``)."""
    return DIMENSIONS[dimension].options()


def resolve_dimensions(dimensions: str | Iterable[str] | None) -> tuple[str, ...]:
    """The dimensions to run, in canonical order; ValueError naming the valid ones."""
    if dimensions is None:
        return DIMENSION_NAMES
    requested = [dimensions] if isinstance(dimensions, str) else list(dimensions)
    require_choices(requested, DIMENSION_NAMES, "dimension")
    if not requested:
        raise InvalidValueError(f"dimensions is empty; choose among {', '.join(DIMENSION_NAMES)}")
    return tuple(d for d in DIMENSION_NAMES if d in requested)


def split_part_options(
    options: dict[str, Any], dimensions: Sequence[str]
) -> dict[str, dict[str, Any]]:
    """``{"length_bins": 20}`` -> ``{"length": {"bins": 20}, ...}`` for the chosen dimensions."""
    by_dimension: dict[str, dict[str, Any]] = {d: {} for d in dimensions}
    for name, value in options.items():
        # no dimension's name begins another's, so the first match is the only one
        dimension = next((d for d in DIMENSION_NAMES if name.startswith(d + "_")), None)
        if dimension is None:
            every = [f"{d}_{o}" for d in DIMENSION_NAMES for o in dimension_options(d)]
            raise InvalidTypeError(
                f"unexpected keyword argument {name!r}; options of a dimension are passed as "
                f"'<dimension>_<option>': {suggestion(name, every)}"
            )
        option = name[len(dimension) + 1 :]
        if option == "language":  # one language for the whole profile, not per dimension
            raise InvalidTypeError(
                f"unexpected keyword argument {name!r}: the language is one option of the "
                f"whole profile; pass language={value!r}"
            )
        valid = [f"{dimension}_{o}" for o in dimension_options(dimension)]
        if name not in valid:
            raise InvalidTypeError(
                f"unexpected keyword argument {name!r}: {dimension} has no option {option!r}; "
                + suggestion(name, valid)
            )
        if dimension not in dimensions:
            raise InvalidValueError(
                f"{name} was given but the {dimension!r} dimension is not run "
                f"(dimensions: {', '.join(dimensions)})"
            )
        by_dimension[dimension][option] = value
    for dimension, chosen in by_dimension.items():  # every type, before any dimension runs
        DIMENSIONS[dimension].check_option_types(chosen, prefix=f"{dimension}_")
    return by_dimension


def human_sample_indices(
    reference_count: int, sample_size: int, samples: int, seed: int = 0
) -> list[np.ndarray]:
    """``samples`` sorted index arrays of ``sample_size`` distinct references each (seeded)."""
    require_positive_int(samples, "human_samples")
    if sample_size > reference_count:
        raise InvalidValueError(
            f"human_samples draws samples of len(predictions) = {sample_size} poems from the "
            f"references, but there are only {reference_count} references"
        )
    rng = np.random.default_rng(seed)
    return [
        # sorted: a sample reads its references in corpus order, whatever the draw order
        np.sort(rng.choice(reference_count, size=sample_size, replace=False))
        for _ in range(samples)
    ]


@typed_options
def diversity_profile(
    predictions: Sequence[str],
    references: Sequence[str] | None = None,
    *,
    dimensions: str | Iterable[str] | None = None,
    human_samples: int | None = None,
    seed: int = 0,
    show_progress: bool = False,
    skip_unscorable: bool = False,
    language: str = "en",
    **part_options: Any,
) -> DiversityProfile:
    """:func:`poetic_diversity` with the per-poem details the report's figures need.

    ``skip_unscorable=True`` also skips a dimension named in ``dimensions`` that the data
    cannot score (rhyme without a 4-line poem), with the warning and ``skipped`` entry an
    unnamed one gets, instead of raising: for callers that evaluate again later (a training
    callback), where the next samples may allow it. The other dimensions run once either way.
    """
    language = resolve_language(language)
    chosen = resolve_dimensions(dimensions)
    options = split_part_options(part_options, chosen)
    for dimension in chosen:
        if DIMENSIONS[dimension].reads_language():
            options[dimension]["language"] = language
    predictions = require_texts(predictions, "predictions")
    if references is None:
        missing = [d for d in chosen if DIMENSIONS[d].needs_references]
        if missing or human_samples is not None:
            raise InvalidValueError(
                "references (the human corpus) are required for "
                f"{', '.join(missing) or 'human_samples'}; "
                "without them only dimensions=['lexical', 'semantic'] can run"
            )
    else:
        references = require_texts(references, "references")
    samples: list[np.ndarray] = []
    if human_samples is not None:
        # samples as large as the generated set: statistics that grow with the number of poems
        # (the nearest neighbour's similarity, distinct schemes) then compare like with like
        samples = human_sample_indices(len(references), len(predictions), human_samples, seed)
    profile = DiversityProfile(
        scores={}, dimensions=chosen, human_samples=human_samples, language=language
    )
    for dimension in chosen:
        try:
            scores, details = DIMENSIONS[dimension].run(
                predictions, references, options[dimension], samples, show_progress
            )
        except NoQuatrainError as error:
            if dimensions is not None and not skip_unscorable:  # named: an error, not a gap
                raise
            profile.skipped[dimension] = str(error)
            warnings.warn(f"{dimension} dimension skipped: {error}", stacklevel=2)
            continue
        profile.scores.update(scores)
        profile.details.update(details)
    profile.dimensions = tuple(d for d in chosen if d not in profile.skipped)
    return profile


@typed_options
def poetic_diversity(
    predictions: Sequence[str],
    references: Sequence[str] | None = None,
    *,
    dimensions: str | Iterable[str] | None = None,
    human_samples: int | None = None,
    seed: int = 0,
    show_progress: bool = False,
    language: str = "en",
    **part_options: Any,
) -> dict[str, Any]:
    """All diversity scores of generated ``predictions`` against human ``references``, flat.

    Args:
        predictions: generated poems, lines separated by "\\n".
        references: the human corpus (any size); required for memorization, length and rhyme.
        dimensions: subset of ``DIMENSION_NAMES`` to run (default all; semantic loads a model).
            By default the rhyme dimension is left out, with a warning, when either side has
            no 4-line poem (limericks, sonnets); asked for by name, that is an error.
        human_samples: the paper's protocol: average reference-side statistics over this many
            seeded samples of ``len(predictions)`` references (default: the whole corpus).
        seed: seed of the human samples.
        show_progress: progress bars of the parts.
        language: the poems' language, ``"en"`` (default) or ``"de"``: the rhyme rules of
            the rhyme dimension, the token rules of lexical and length, and, for ``"de"`` with
            the English-only default encoder, a warning naming a multilingual model.
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
        language=language,
        **part_options,
    ).scores
