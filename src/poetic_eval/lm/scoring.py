"""Score texts and minimal pairs in one call: load the model, then the engine's verb.

:func:`score_texts` and :func:`score_pairs` are conveniences over
:meth:`LanguageModel.score_texts <poetic_eval.lm.LanguageModel.score_texts>` and
:meth:`LanguageModel.score_pairs <poetic_eval.lm.LanguageModel.score_pairs>`, with the same
numbers: the model (None for the default, a name or path, a ``(model, tokenizer)`` pair or a
loaded :class:`~poetic_eval.lm.LanguageModel`) is loaded with the options of
:func:`~poetic_eval.lm.load_language_model` and the rest go to the verb. Hold a loaded model to
score many times. How texts are scored (the document-start token of causal LMs, prefix trees,
PLL for masked LMs, ``reduction``): :mod:`poetic_eval.lm.text_scores`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..checks import typed_options
from .loading import LOADING_OPTIONS, load_language_model
from .text_scores import REDUCTIONS

__all__ = ["REDUCTIONS", "score_pairs", "score_texts"]


@typed_options
def score_texts(
    texts: Sequence[str], model: Any = None, reduction: str = "sum", **options: Any
) -> np.ndarray:
    """Log-probability (nats) of each text under ``model``.

    ``options``: those of :func:`~poetic_eval.lm.load_language_model` (``device``, ``dtype``,
    ``device_map``, ``quantization``, ...) and of the verb (``batch_size``, ``show_progress``,
    default True here, ``share_prefixes``, ``pack_tokens``).

    Raises:
        ValueError: an empty text, a text longer than the model's context (the row is named),
            an unknown reduction, or a model that is neither causal nor masked.
    """
    loading = {key: options.pop(key) for key in LOADING_OPTIONS if key in options}
    options.setdefault("show_progress", True)
    return load_language_model(model, **loading).score_texts(texts, reduction, **options)


@typed_options
def score_pairs(
    good: Sequence[str],
    bad: Sequence[str],
    model: Any = None,
    reduction: str = "sum",
    **options: Any,
) -> tuple[np.ndarray, np.ndarray]:
    """Scores of the good and the bad text of each minimal pair, as two arrays. Both texts of
    every pair are scored in one call, so prefixes shared within a pair and across pairs are
    computed once. ``options`` as :func:`score_texts`."""
    loading = {key: options.pop(key) for key in LOADING_OPTIONS if key in options}
    options.setdefault("show_progress", True)
    return load_language_model(model, **loading).score_pairs(good, bad, reduction, **options)
