"""A language model's distribution over its vocabulary at the verb slot of agreement pairs.

* Masked LM: the tokenizer's encoding of ``left [MASK] right.`` (with its [CLS] / [SEP]); the
  distribution at the mask.
* Causal LM: the document-start token (the one :mod:`poetic_eval.lm.scoring` uses, see
  :func:`~poetic_eval.lm.document_start_token_id`) then ``left``; the next-token
  distribution after it (the right context is not seen).

A verb form counts only when it is one token of the model's vocabulary in the position it takes
in a sentence, i.e. with its leading space for BPE / SentencePiece tokenizers: it is the one
token ``tokenizer("a " + form)`` adds to ``tokenizer("a")``. Lemmas with a form of several
tokens are left out of EW / MW and listed in :attr:`VerbVocabulary.excluded`.

:func:`verb_slot_log_probs` returns the vocabulary-sized vectors (the inputs of the
``verb_weighted_agreement`` metric);
:func:`~poetic_eval.pairs.verb_agreement.evaluation.evaluate_verb_agreement` streams the batches
of :func:`log_prob_batches` through the scorer without keeping them, for runs of any size.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from ...agreement.verb_lexicon import VerbEntry, load_verb_list
from ...checks import require_positive_int, typed_options
from ...errors import InvalidTypeError, InvalidValueError
from ...lm import LanguageModel, document_start_token_id, load_language_model
from .slots import VerbSlot, verb_slots

_PROBE = "a"


@dataclass(frozen=True)
class VerbVocabulary:
    """The verb list as the model sees it.

    ``token_ids`` has one ``[singular id, plural id]`` row per lemma of ``lemmas``;
    ``excluded`` names the lemmas left out because a form is not a single token.
    """

    lemmas: tuple[str, ...]
    token_ids: np.ndarray
    excluded: tuple[str, ...]


def form_token_id(tokenizer: Any, form: str) -> int:
    """The token id of ``form`` as a word inside a sentence, or -1 when it is not one token."""
    return form_token_ids(tokenizer, [form])[0]


def form_token_ids(tokenizer: Any, forms: Sequence[str]) -> list[int]:
    """:func:`form_token_id` of each form, tokenized in one batch call."""
    if not forms:
        return []
    base = tokenizer(_PROBE, add_special_tokens=False)["input_ids"]
    encoded = tokenizer([f"{_PROBE} {form}" for form in forms], add_special_tokens=False)[
        "input_ids"
    ]
    return [
        # the probe must come out unchanged with exactly one token after it: a form that merges
        # with the probe or splits into several tokens is not one token in a sentence
        int(ids[-1]) if len(ids) == len(base) + 1 and ids[: len(base)] == base else -1
        for ids in encoded
    ]


def verb_vocabulary(tokenizer: Any, verbs: Sequence[VerbEntry] | None = None) -> VerbVocabulary:
    """Map a verb list (default :func:`~poetic_eval.agreement.load_verb_list`) to token ids."""
    verbs = load_verb_list() if verbs is None else list(verbs)
    singular = form_token_ids(tokenizer, [entry.singular for entry in verbs])
    plural = form_token_ids(tokenizer, [entry.plural for entry in verbs])
    lemmas, ids, excluded = [], [], []
    for entry, pair in zip(verbs, zip(singular, plural)):
        # two forms on one token could not be told apart at the slot
        if min(pair) < 0 or pair[0] == pair[1]:
            excluded.append(entry.lemma)
        else:
            lemmas.append(entry.lemma)
            ids.append(pair)
    if not ids:
        raise InvalidValueError(
            "no lemma of the verb list has both forms as single tokens of this tokenizer"
        )
    return VerbVocabulary(tuple(lemmas), np.asarray(ids, dtype=np.int64), tuple(excluded))


@dataclass
class VerbSlotLogProbs:
    """Verb-slot log-probabilities and everything the metric needs alongside them.

    ``log_probs`` is (examples, vocab) float32 on the CPU; ``correct_ids`` / ``incorrect_ids``
    are -1 where the example's own form is not a single token; ``contexts`` are the
    model-visible strings (for deduplication).
    """

    log_probs: torch.Tensor
    labels: np.ndarray
    correct_ids: np.ndarray
    incorrect_ids: np.ndarray
    contexts: list[str]
    vocabulary: VerbVocabulary


def as_verb_slots(pairs: Any) -> list[VerbSlot]:
    """Accept VerbSlots, dicts with sentence_good / sentence_bad / label, or a column mapping
    (dict of lists, ``datasets.Dataset``) with those columns."""
    if isinstance(pairs, Mapping) or hasattr(pairs, "column_names"):
        return verb_slots(list(pairs["sentence_good"]), list(pairs["sentence_bad"]), _labels(pairs))
    pairs = list(pairs)
    if pairs and all(isinstance(pair, VerbSlot) for pair in pairs):
        return pairs
    for row, pair in enumerate(pairs):
        if not isinstance(pair, Mapping):
            raise InvalidTypeError(
                f"pairs[{row}] must be a VerbSlot or a dict with sentence_good, sentence_bad and "
                f"label, got {type(pair).__name__}"
            )
    return verb_slots(
        [p["sentence_good"] for p in pairs],
        [p["sentence_bad"] for p in pairs],
        [p["label"] for p in pairs],
    )


def _labels(table: Any) -> list:
    """The label column; a ``datasets.ClassLabel`` (the agreement dataset's 0 = singular,
    1 = plural) is read as its names, so its indices are never mistaken for -1 / -2."""
    labels = list(table["label"])
    feature = getattr(table, "features", {}).get("label") if hasattr(table, "features") else None
    if feature is not None and hasattr(feature, "int2str"):
        return [feature.int2str(int(label)) for label in labels]
    return labels


@typed_options
def verb_slot_log_probs(
    pairs: Any,
    model: Any = None,
    *,
    verbs: Sequence[VerbEntry] | None = None,
    batch_size: int | None = None,
    device: Any = None,
    dtype: torch.dtype | None = None,
    show_progress: bool = True,
) -> VerbSlotLogProbs:
    """Verb-slot log-probabilities of every pair, with labels, the pairs' own form ids and the
    verb list's token ids. The model runs once per distinct visible string. Memory: 4 bytes x
    vocabulary size per pair (196 kB for SmolLM2); use
    :func:`~poetic_eval.pairs.evaluate_verb_agreement` for large runs."""
    lm = load_language_model(model, device=device, dtype=dtype)
    slots = as_verb_slots(pairs)
    vocabulary = verb_vocabulary(lm.tokenizer, verbs)
    views = DistinctViews(slots, lm)
    batches = [
        batch.float().cpu()
        for _, batch in log_prob_batches(views.representatives, lm, batch_size, show_progress)
    ]
    log_probs = torch.cat(batches) if batches else torch.zeros((0, _vocab_size(lm)))
    correct, incorrect = own_form_ids(lm.tokenizer, slots)
    return VerbSlotLogProbs(
        log_probs=log_probs[torch.as_tensor(views.of_example)] if slots else log_probs,
        labels=views.labels,
        correct_ids=correct,
        incorrect_ids=incorrect,
        contexts=views.texts,
        vocabulary=vocabulary,
    )


class DistinctViews:
    """The distinct strings the model sees, and which one each pair reads.

    ``texts``: each pair's model-visible string; ``representatives``: the first pair of each
    distinct string, in order (what the model runs on); ``of_example``: each pair's index into
    ``representatives``; ``labels``: each pair's label (-1 / -2).
    """

    def __init__(self, slots: Sequence[VerbSlot], lm: LanguageModel):
        self.texts = [slot.visible_text(lm.kind, _mask_token(lm)) for slot in slots]
        first: dict[str, int] = {}
        for index, text in enumerate(self.texts):
            first.setdefault(text, index)
        view_index = {text: position for position, text in enumerate(first)}
        self.representatives = [slots[index] for index in first.values()]
        self.of_example = np.asarray([view_index[text] for text in self.texts], dtype=np.int64)
        self.labels = np.asarray([slot.label for slot in slots], dtype=np.int64)


# ---------------------------------------------------------------- model views


def log_prob_batches(
    slots: Sequence[VerbSlot], lm: LanguageModel, batch_size: int | None, show_progress: bool
) -> Iterator[tuple[int, torch.Tensor]]:
    """(first row, (rows, vocab) log-probs on the model's device) per batch, in input order:
    the engine's slot verb (:meth:`poetic_eval.lm.LanguageModel.slot_log_probs`) on the rows
    the model sees, batched by its token budget (and at most ``batch_size`` rows per pass)."""
    if batch_size is not None:
        require_positive_int(batch_size, "batch_size")
    return lm.slot_log_probs(_encode(slots, lm), max_rows=batch_size, show_progress=show_progress)


def _encode(slots: Sequence[VerbSlot], lm: LanguageModel) -> list[list[int]]:
    tokenizer = lm.tokenizer
    limit = lm.context_length
    start = document_start_token_id(lm) if lm.kind == "causal" else None
    encoded = []
    for row, slot in enumerate(slots):
        if lm.kind == "causal":
            if not slot.left:
                raise InvalidValueError(
                    f"row {row}: the verb is the first word, so a causal LM sees no context"
                )
            ids = [start] + tokenizer(slot.left_text, add_special_tokens=False)["input_ids"]
        else:
            ids = tokenizer(slot.masked_text(_mask_token(lm)))["input_ids"]
            if ids.count(tokenizer.mask_token_id) != 1:
                raise InvalidValueError(
                    f"row {row}: the masked text does not encode to exactly one mask token"
                )
        if limit is not None and len(ids) > limit:
            raise InvalidValueError(
                f"row {row}: {len(ids)} tokens exceed the model's context of {limit}"
            )
        encoded.append(ids)
    return encoded


def _mask_token(lm: LanguageModel) -> str:
    return lm.tokenizer.mask_token if lm.kind == "masked" else "[MASK]"


def _vocab_size(lm: LanguageModel) -> int:
    embeddings = lm.model.get_output_embeddings()
    # the head's rows, not len(tokenizer): many models pad their vocabulary past the tokenizer's,
    # and the log-prob rows are as wide as the head
    return int(embeddings.weight.shape[0]) if embeddings is not None else len(lm.tokenizer)


def own_form_ids(tokenizer: Any, slots: Sequence[VerbSlot]) -> tuple[np.ndarray, np.ndarray]:
    """Token ids of each pair's correct and incorrect verb form (-1 where not one token)."""
    # each distinct form tokenized once, in one batch call; sorted for a stable order
    forms = sorted({slot.correct for slot in slots} | {slot.incorrect for slot in slots})
    ids = dict(zip(forms, form_token_ids(tokenizer, forms)))
    correct = np.asarray([ids[slot.correct] for slot in slots], dtype=np.int64)
    incorrect = np.asarray([ids[slot.incorrect] for slot in slots], dtype=np.int64)
    return correct, incorrect
