"""Log-probabilities of several continuations of one shared prefix, the prefix computed once.

A multiple-choice item (a BLM prompt and its 8 letters, or a BLM context and its 8 candidate
sentences) is the prefix plus each continuation. The prefix and the continuations are tokenized
separately and their token ids concatenated (the usual multiple-choice convention: no token
straddles the boundary, so every continuation is scored after exactly the same prefix tokens).
The item's sequences, ``[start] + prefix + continuation`` for each continuation, go to the
prefix-tree scorer (:func:`~poetic_eval.lm.causal.sequence_log_probs`) in one pack, with the
start token and prefix as their context: the prefix runs through the model once, only the
continuations are added on top, and the LM head runs only where a continuation token needs it.
All items of a call go into one lexicographic order, so items whose prompts or contexts begin
alike (the task text, a one-shot example, the context sentences type II items repeat) are
neighbours: they share those tokens within a pack, and across packs (one item fills most of a
pack) through a root computed once (:mod:`poetic_eval.lm.shared_root`). Score all items in one
call to share the most. The result equals scoring each
full text and summing over the continuation's tokens only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..checks import require_choice
from ..errors import InvalidValueError
from .budget import PACK_TOKENS
from .causal import sequence_log_probs
from .input_checks import check_choice_vocabulary, require_finite_choice_scores
from .loaded_model import LoadedModel, document_start_token_id
from .text_scores import REDUCTIONS


@dataclass(frozen=True)
class EncodedChoices:
    """One item tokenized: the start token and prefix, and each continuation's token ids."""

    item_id: Any
    prefix: tuple[int, ...]
    continuations: tuple[tuple[int, ...], ...]

    @property
    def longest(self) -> int:
        """Positions of the item's longest sequence (start + prefix + longest continuation)."""
        return len(self.prefix) + max(len(ids) for ids in self.continuations)

    @property
    def nodes(self) -> int:
        """Nodes of the item's prefix tree (at most: continuations sharing tokens need fewer)."""
        return len(self.prefix) + sum(len(ids) for ids in self.continuations)


def encode_choices(
    lm: LoadedModel,
    prefixes: Sequence[str],
    continuations: Sequence[Sequence[str]],
    item_ids: Sequence[Any],
    *,
    what: str = "text",
) -> list[EncodedChoices]:
    """Tokenize every item and check that each fits the model's context.

    ``what`` names the prefix in errors (e.g. ``"one-shot prompt"``).

    Raises:
        ValueError: a masked LM, a continuation without tokens, or an item whose prefix and
            longest continuation exceed ``lm.context_length`` (the item ID is named).
    """
    if lm.kind != "causal":
        raise InvalidValueError(
            f"{lm.name} is a {lm.kind} LM; choosing by log-likelihood needs a causal LM"
        )
    start = document_start_token_id(lm)
    prefix_ids = lm.tokenizer(list(prefixes), add_special_tokens=False)["input_ids"]
    flat = [text for texts in continuations for text in texts]
    distinct = list(dict.fromkeys(flat))  # the prompt method repeats the same 8 letters
    ids_of = dict(zip(distinct, lm.tokenizer(distinct, add_special_tokens=False)["input_ids"]))
    flat_ids = [ids_of[text] for text in flat]
    limit = lm.context_length
    encoded, offset = [], 0
    for item_id, prefix, texts in zip(item_ids, prefix_ids, continuations):
        ids = flat_ids[offset : offset + len(texts)]
        offset += len(texts)
        for text, tokens in zip(texts, ids):
            if not tokens:
                raise InvalidValueError(f"item {item_id!r}: continuation {text!r} has no tokens")
        item = EncodedChoices(item_id, (start, *prefix), tuple(tuple(t) for t in ids))
        if limit is not None and item.longest > limit:
            raise InvalidValueError(
                f"item {item_id!r}: the {what} and its longest continuation take {item.longest} "
                f"tokens (with the start token); {lm.name} accepts at most {limit} positions"
            )
        encoded.append(item)
    return encoded


def score_choices(
    lm: LoadedModel,
    items: Sequence[EncodedChoices],
    *,
    reduction: str = "sum",
    batch_size: int | None = None,
    share_prefixes: bool = True,
    progress: Any = None,
) -> list[np.ndarray]:
    """log p(continuation | prefix) in nats for every continuation of every item.

    ``reduction="mean"`` divides each by its number of tokens. ``share_prefixes=False`` scores
    every sequence on its own (same numbers, for checks). ``batch_size`` caps the packs per
    forward pass (the token budget sets it otherwise); ``progress`` wraps the forward passes
    (e.g. ``tqdm``). Returns one float64 array per item.
    """
    require_choice(reduction, REDUCTIONS, "reduction")
    check_choice_vocabulary(lm, items)
    sequences = [item.prefix + ids for item in items for ids in item.continuations]
    contexts = [len(item.prefix) for item in items for _ in item.continuations]
    largest = max((item.nodes for item in items), default=0)
    totals = sequence_log_probs(
        lm,
        sequences,
        share_prefixes=share_prefixes,
        batch_size=batch_size,
        # a pack holds at most pack_tokens nodes: raised to the largest item's tree so no item is
        # split across packs and each prefix still runs through the model once
        pack_tokens=max(PACK_TOKENS, largest),
        context_lengths=contexts,
        progress=progress,
    )
    scores, offset = [], 0
    for item in items:
        values = totals[offset : offset + len(item.continuations)]
        if reduction == "mean":
            values = values / np.array([len(ids) for ids in item.continuations], dtype=np.float64)
        scores.append(values)
        offset += len(item.continuations)
    return require_finite_choice_scores(lm, scores, [item.item_id for item in items])
