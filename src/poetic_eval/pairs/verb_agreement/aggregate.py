"""The aggregate over verb slots: TSE, EW and MW means at every cutoff, and the whole metric
from logits (:func:`verb_weighted_agreement`: per-slot scores, then their aggregate)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch

from ...checks import typed_options
from ...errors import InvalidValueError
from .model_outputs import as_cpu_matrix, tse_labels
from .scores import (
    DEFAULT_BOTTOM_CUTOFFS,
    DEFAULT_TOP_CUTOFFS,
    HEADLINE_CUTOFF,
    SlotScores,
    score_verb_slots,
)


@typed_options
def aggregate_verb_agreement(
    scores: SlotScores,
    *,
    top_cutoffs: Sequence[float] = DEFAULT_TOP_CUTOFFS,
    bottom_cutoffs: Sequence[float] = DEFAULT_BOTTOM_CUTOFFS,
    lemmas: Sequence[str] | None = None,
    return_details: bool = False,
) -> dict[str, Any]:
    """Means over valid examples: headline ``tse``, ``ew``, ``mw`` (top cutoff 1.0), every cutoff.

    EW and MW use the distinct examples (first of each model view and label); TSE every example.
    Keys: ``tse``, ``ew``, ``mw``, ``n`` (examples), ``n_unique`` (after deduplication),
    ``n_lemmas``, ``tse_invalid``, ``ew_invalid``, ``mw_invalid``, then for each top cutoff
    ``c`` ``ew_top_{c}``, ``mw_top_{c}``, ``invalid_top_{c}``, ``mass_top_{c}`` and the same with
    ``bottom``; ``{c}`` is written with Python's ``format(c, "g")``. ``return_details`` adds
    ``per_example`` (lists; EW / MW are NaN for duplicates) and, with ``lemmas``, ``per_lemma``.
    """
    top = [float(c) for c in top_cutoffs]
    bottom = [float(c) for c in bottom_cutoffs]
    if HEADLINE_CUTOFF not in top:
        raise InvalidValueError("top_cutoffs must include 1.0, the headline cutoff")
    if scores.ew_top.shape[1] != len(top) or scores.ew_bottom.shape[1] != len(bottom):
        raise InvalidValueError("the cutoffs differ from those the scores were computed with")
    headline = top.index(HEADLINE_CUTOFF)
    result: dict[str, Any] = {
        "tse": _nanmean(scores.tse),
        "ew": _nanmean(scores.ew_top[:, headline]),
        "mw": _nanmean(scores.mw_top[:, headline]),
        "n": int(scores.tse.shape[0]),
        "n_unique": int(scores.distinct_examples.shape[0]),
        "n_lemmas": int(scores.lemma_agreements.shape[0]),
        "tse_invalid": int(np.isnan(scores.tse).sum()),
        "ew_invalid": int(np.isnan(scores.ew_top[:, headline]).sum()),
        "mw_invalid": int(np.isnan(scores.mw_top[:, headline]).sum()),
    }
    for side, cutoffs, ew, mw, mass in (
        ("top", top, scores.ew_top, scores.mw_top, scores.mass_top),
        ("bottom", bottom, scores.ew_bottom, scores.mw_bottom, scores.mass_bottom),
    ):
        for column, cutoff in enumerate(cutoffs):
            name = f"{side}_{cutoff:g}"
            result[f"ew_{name}"] = _nanmean(ew[:, column])
            result[f"mw_{name}"] = _nanmean(mw[:, column])
            result[f"invalid_{name}"] = int(np.isnan(ew[:, column]).sum())
            result[f"mass_{name}"] = (
                float(mass[:, column].mean()) if mass.shape[0] else float("nan")
            )
    if return_details:
        result["per_example"] = _per_example(scores, headline)
        if lemmas is not None:
            result["per_lemma"] = _per_lemma(scores, lemmas)
    return result


def _per_example(scores: SlotScores, headline: int) -> dict[str, list]:
    position = {int(example): i for i, example in enumerate(scores.examples)}
    ew = np.full(scores.tse.shape[0], np.nan)
    mw = np.full(scores.tse.shape[0], np.nan)
    rows = [position[int(example)] for example in scores.distinct_examples]
    ew[rows] = scores.ew_top[:, headline]
    mw[rows] = scores.mw_top[:, headline]
    duplicate = np.ones(scores.tse.shape[0], dtype=bool)
    duplicate[rows] = False
    return {
        "tse": scores.tse.tolist(),
        "ew": ew.tolist(),
        "mw": mw.tolist(),
        "duplicate": duplicate.tolist(),
    }


def _per_lemma(scores: SlotScores, lemmas: Sequence[str]) -> dict[str, list]:
    if len(lemmas) != scores.lemma_agreements.shape[0]:
        raise InvalidValueError(
            f"lemmas has {len(lemmas)} names for {scores.lemma_agreements.shape[0]} lemmas"
        )
    # no distinct example: the sums are all 0, and 1 avoids 0 / 0
    count = max(1, scores.distinct_examples.shape[0])
    return {
        "lemma": list(lemmas),
        "agreement": (scores.lemma_agreements / count).tolist(),
        "mean_correct_prob": (scores.lemma_correct_probs / count).tolist(),
        "mean_incorrect_prob": (scores.lemma_incorrect_probs / count).tolist(),
    }


def first_occurrences(keys: Sequence[Any]) -> np.ndarray:
    """True for the first item of each distinct key."""
    seen: set = set()
    flags = np.zeros(len(keys), dtype=bool)
    for index, key in enumerate(keys):
        if key not in seen:
            seen.add(key)
            flags[index] = True
    return flags


@typed_options
def verb_weighted_agreement(
    logits: Any,
    labels: Any,
    correct_ids: Any,
    incorrect_ids: Any,
    verb_token_ids: Any,
    *,
    contexts: Sequence[str] | None = None,
    top_cutoffs: Sequence[float] = DEFAULT_TOP_CUTOFFS,
    bottom_cutoffs: Sequence[float] = DEFAULT_BOTTOM_CUTOFFS,
    lemmas: Sequence[str] | None = None,
    return_details: bool = False,
) -> dict[str, Any]:
    """TSE, EW and MW from one row of verb-slot logits per example.

    ``contexts`` (the model-visible strings) identify duplicates for EW/MW together with the
    label; for examples without one (``contexts`` None, or an item None or ""), examples with
    bit-identical logits and the same label are duplicates. See :func:`score_verb_slots` for
    the other arguments and :func:`aggregate_verb_agreement` for the result.
    """
    matrix = as_cpu_matrix(logits, "logits")
    labels_array = tse_labels(labels)
    if labels_array.shape[0] != matrix.shape[0]:
        raise InvalidValueError(
            f"labels has {labels_array.shape[0]} items for {matrix.shape[0]} rows of logits"
        )
    if contexts is not None and len(contexts) != labels_array.shape[0]:
        raise InvalidValueError(
            f"contexts has {len(contexts)} items for {labels_array.shape[0]} labels"
        )
    contexts = [None] * labels_array.shape[0] if contexts is None else list(contexts)
    keys = [
        # the key of a duplicate: the string the model saw, or without one the exact bytes of its
        # row (a digest, so the keys stay small whatever the vocabulary)
        (context, int(label)) if context else (_row_digest(matrix[row]), int(label))
        for row, (context, label) in enumerate(zip(contexts, labels_array))
    ]
    scores = score_verb_slots(
        matrix,
        labels_array,
        correct_ids,
        incorrect_ids,
        verb_token_ids,
        top_cutoffs=top_cutoffs,
        bottom_cutoffs=bottom_cutoffs,
        distinct=first_occurrences(keys),
    )
    return aggregate_verb_agreement(
        scores,
        top_cutoffs=top_cutoffs,
        bottom_cutoffs=bottom_cutoffs,
        lemmas=lemmas,
        return_details=return_details,
    )


def _row_digest(row: torch.Tensor) -> bytes:
    if row.dtype in (torch.float16, torch.bfloat16):  # numpy has no bfloat16; float32 is exact
        row = row.to(torch.float32)
    return hashlib.blake2b(row.contiguous().numpy().tobytes(), digest_size=16).digest()


def _nanmean(values: np.ndarray) -> float:
    valid = values[~np.isnan(values)]
    return float(valid.mean()) if valid.size else float("nan")
