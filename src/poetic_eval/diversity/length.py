"""Poem-length distributions: summary statistics, histogram intersection, Wasserstein distance.

Length of a poem (the paper): delete punctuation, split on whitespace, count the tokens
(:func:`poetic_eval.text.length`; German poems by the German token rules of
:mod:`poetic_eval.diversity.word_tokens`, where a dash between words separates them).
Histogram intersection (Swain & Ballard 1991): both length sets are binned over their common
range ``[min, max]`` into ``bins`` equal-width bins, each histogram is normalised to sum 1,
and HI is the sum over bins of the smaller of the two (in [0, 1]; 1 = the same binned
distribution).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy.stats import wasserstein_distance

from ..checks import require_positive_int, typed_options
from ..errors import InvalidValueError
from ..text import derived, length, require_texts, resolve_language
from .stored_forms import lengths_form
from .word_tokens import word_count


def poem_lengths(
    poems: Sequence[str], *, remove_punctuation: bool = True, language: str = "en"
) -> np.ndarray:
    """Token count of each poem (punctuation deleted first by default) by the token rules of
    ``language``; kept by a PoemCorpus."""
    language = resolve_language(language)

    def count() -> np.ndarray:
        if language == "en":
            found = [length(poem, remove_punctuation=remove_punctuation) for poem in poems]
        else:
            options = {"language": language, "remove_punctuation": remove_punctuation}
            found = [word_count(poem, **options) for poem in poems]
        counts = np.array(found, dtype=np.int64)
        counts.flags.writeable = False  # may be shared by later calls
        return counts

    # the language picks the tokenizer, so it is part of the key
    return derived(poems, ("poem_lengths", language, remove_punctuation), count, lengths_form())


def length_statistics(
    poems: Sequence[str], *, remove_punctuation: bool = True, language: str = "en"
) -> dict[str, float]:
    """Mean, median, population std (ddof 0), min and max of the poems' lengths."""
    poems = require_texts(poems, "poems")
    return _statistics(
        poem_lengths(poems, remove_punctuation=remove_punctuation, language=language)
    )


def _statistics(lengths: np.ndarray) -> dict[str, float]:
    return {
        "mean": float(np.mean(lengths)),
        "median": float(np.median(lengths)),
        "std": float(np.std(lengths, ddof=0)),
        "min": float(np.min(lengths)),
        "max": float(np.max(lengths)),
    }


def histogram_intersection(a: Sequence[float], b: Sequence[float], bins: int = 30) -> float:
    """Intersection of the normalised histograms of ``a`` and ``b`` over their common range."""
    require_positive_int(bins, "bins")
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    for name, values in (("a", a), ("b", b)):
        if values.ndim != 1 or values.size == 0:
            raise InvalidValueError(
                f"histogram_intersection: {name} must be a non-empty 1-D sequence"
            )
        if not np.all(np.isfinite(values)):
            raise InvalidValueError(f"histogram_intersection: {name} holds NaN or infinite values")
    low = min(a.min(), b.min())
    high = max(a.max(), b.max())
    edges = np.linspace(low, high, bins + 1) if high > low else np.array([low - 0.5, low + 0.5])
    p = np.histogram(a, bins=edges)[0] / a.size
    q = np.histogram(b, bins=edges)[0] / b.size
    return float(np.minimum(p, q).sum())


@typed_options
def length_comparison(
    predictions: Sequence[str],
    references: Sequence[str],
    *,
    bins: int = 30,
    remove_punctuation: bool = True,
    language: str = "en",
) -> dict[str, float]:
    """Compare the length distribution of generated poems with a human corpus.

    ``language`` (``"en"``, ``"de"``) picks the token rules that count a poem's length.

    Returns ``histogram_intersection``, ``wasserstein`` (1-D earth mover's distance, in tokens)
    and ``length_{mean,median,std,min,max}`` for the predictions and
    ``reference_length_{...}`` for the references.
    """
    predictions = require_texts(predictions, "predictions")
    references = require_texts(references, "references")
    require_positive_int(bins, "bins")
    options = {"remove_punctuation": remove_punctuation, "language": language}
    generated = poem_lengths(predictions, **options)
    human = poem_lengths(references, **options)
    result = {
        "histogram_intersection": histogram_intersection(generated, human, bins),
        "wasserstein": float(wasserstein_distance(generated, human)),
    }
    result.update({f"length_{k}": v for k, v in _statistics(generated).items()})
    result.update({f"reference_length_{k}": v for k, v in _statistics(human).items()})
    return result
