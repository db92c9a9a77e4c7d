"""TSE, EW and MW of a language model on agreement pairs, from the pairs to the scores.

The user entry point of the verb-slot metrics: :func:`evaluate_verb_agreement` runs the model
over the distinct strings of the pairs (:mod:`.distributions`, through the engine's slot verb)
and scores each batch of verb-slot distributions with the arithmetic of :mod:`.scores` as soon
as the model returns it, so runs of any size keep no vocabulary-sized vectors.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import torch

from ...agreement.verb_lexicon import VerbEntry
from ...checks import typed_options
from ...errors import InvalidValueError
from ...lm import load_language_model
from ...lm.distributed import in_shards
from .aggregate import aggregate_verb_agreement, first_occurrences
from .distributions import (
    DistinctViews,
    as_verb_slots,
    log_prob_batches,
    own_form_ids,
    verb_vocabulary,
)
from .scores import DEFAULT_BOTTOM_CUTOFFS, DEFAULT_TOP_CUTOFFS, SlotScores, score_verb_slots


@typed_options
def evaluate_verb_agreement(
    pairs: Any,
    model: Any = None,
    *,
    verbs: Sequence[VerbEntry] | None = None,
    top_cutoffs: Sequence[float] = DEFAULT_TOP_CUTOFFS,
    bottom_cutoffs: Sequence[float] = DEFAULT_BOTTOM_CUTOFFS,
    batch_size: int | None = None,
    device: Any = None,
    dtype: torch.dtype | None = None,
    return_details: bool = False,
    show_progress: bool = True,
) -> dict[str, Any]:
    """TSE, EW and MW of a model on agreement pairs, streaming: the model runs once per
    distinct visible string, and each batch of distributions is scored as soon as the model
    returns it and then dropped.

    Returns the dict of :func:`~poetic_eval.pairs.aggregate_verb_agreement`, plus
    ``model`` and ``n_lemmas_excluded`` (lemmas with a multi-token form).
    """
    lm = load_language_model(model, device=device, dtype=dtype)
    slots = as_verb_slots(pairs)
    if not slots:
        raise InvalidValueError("pairs is empty: at least one pair is needed")
    vocabulary = verb_vocabulary(lm.tokenizer, verbs)
    views = DistinctViews(slots, lm)
    shard = _shard_scorer(
        views,
        lm,
        (vocabulary.token_ids, *own_form_ids(lm.tokenizer, slots)),
        {"top_cutoffs": top_cutoffs, "bottom_cutoffs": bottom_cutoffs},
        (batch_size, show_progress),
    )
    # under torchrun each process runs a contiguous shard of the views (all get all parts)
    parts = in_shards(len(views.representatives), shard, lm.device)
    result = aggregate_verb_agreement(
        SlotScores.concatenate(parts),
        top_cutoffs=top_cutoffs,
        bottom_cutoffs=bottom_cutoffs,
        lemmas=vocabulary.lemmas,
        return_details=return_details,
    )
    result["model"] = lm.name
    result["n_lemmas_excluded"] = len(vocabulary.excluded)
    return result


def _shard_scorer(
    views: DistinctViews,
    lm: Any,
    token_ids: tuple[np.ndarray, np.ndarray, np.ndarray],
    cutoffs: dict[str, Sequence[float]],
    batching: tuple[int | None, bool],
) -> Callable[[int, int], list[SlotScores]]:
    """The scorer of a contiguous shard of the distinct views: the model runs on them batch
    by batch, and each batch's examples are scored at once (its distributions then dropped).
    ``token_ids``: the verbs' (lemma, form) ids and each example's correct / incorrect id."""
    verb_ids, correct, incorrect = token_ids
    distinct = first_occurrences(list(zip(views.of_example.tolist(), views.labels.tolist())))
    # examples sorted by view: the examples of a batch of views are one searchsorted range
    by_view = np.argsort(views.of_example, kind="stable")
    sorted_views = views.of_example[by_view]

    def shard(first: int, end: int) -> list[SlotScores]:
        """The slot scores of the distinct views ``first .. end - 1`` (one part per batch)."""
        parts = []
        batches = log_prob_batches(views.representatives[first:end], lm, *batching)
        for offset, batch in batches:
            start = first + offset
            low, high = np.searchsorted(sorted_views, [start, start + batch.shape[0]])
            members = by_view[low:high]
            parts.append(
                score_verb_slots(
                    batch,
                    views.labels[members],
                    correct[members],
                    incorrect[members],
                    verb_ids,
                    **cutoffs,
                    views=views.of_example[members] - start,
                    distinct=distinct[members],
                    examples=members,
                )
            )
        return [SlotScores.concatenate(parts)] if parts else []

    return shard
