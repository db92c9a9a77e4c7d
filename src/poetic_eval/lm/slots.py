"""The distribution over the vocabulary at one slot of each encoded row (the verb slot).

* Causal LM: the row is the document-start token and the left context; the slot is the next
  token after it. Rows are left-padded with explicit position ids and the LM head runs on the
  last position only.
* Masked LM: the row holds one mask token (with the tokenizer's special tokens); the slot is the
  mask.

Rows are taken in input order, as many per forward pass as the model's token budget allows
(rows x the longest row); each pass yields its (rows, vocabulary) log-probabilities, so a caller
can reduce and drop them before the next (runs of any size keep no vocabulary-sized vectors).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

import torch
from tqdm.auto import tqdm

from .model_checks import split_head

if TYPE_CHECKING:
    from .loaded_model import LoadedModel


def slot_batches(lengths: Sequence[int], budget: int) -> list[range]:
    """Consecutive rows grouped in input order: a batch grows while its rows x its longest row
    stay within ``budget`` (a row longer than the budget is a batch alone)."""
    batches, start, longest = [], 0, 0
    for index, length in enumerate(lengths):
        longest_with = max(longest, length)
        if index > start and (index - start + 1) * longest_with > budget:
            batches.append(range(start, index))
            start, longest_with = index, length
        longest = longest_with
    if start < len(lengths):
        batches.append(range(start, len(lengths)))
    return batches


def slot_log_prob_batches(
    lm: LoadedModel,
    rows: Sequence[Sequence[int]],
    *,
    max_rows: int | None = None,
    show_progress: bool = False,
) -> Iterator[tuple[int, torch.Tensor]]:
    """(first row, (rows, vocab) float32 log-probs on the model's device) per forward pass, in
    input order. ``max_rows`` caps the rows of one pass. ``rows`` as the engine checked them
    (:meth:`poetic_eval.lm.LanguageModel.slot_log_probs`: integer ids in the vocabulary)."""
    batches = slot_batches([len(row) for row in rows], lm.tokens_per_forward)
    if max_rows is not None:
        batches = [part for batch in batches for part in _split(batch, max_rows)]
    for batch in tqdm(batches, desc="slots", unit="batch", disable=not show_progress):
        chunk = [list(rows[index]) for index in batch]
        with torch.inference_mode():
            if lm.kind == "causal":
                logits = _causal_last_logits(lm, chunk)
            else:
                logits = _masked_logits(lm, chunk)
            yield batch.start, torch.log_softmax(logits.float(), dim=-1)


def _split(batch: range, size: int) -> list[range]:
    return [batch[offset : offset + size] for offset in range(0, len(batch), size)]


def _causal_last_logits(lm: LoadedModel, rows: list[list[int]]) -> torch.Tensor:
    """Next-token logits after each row: left padding, explicit positions, LM head on the last
    position only."""
    width = max(len(ids) for ids in rows)
    pad = lm.tokenizer.pad_token_id if lm.tokenizer.pad_token_id is not None else 0
    input_ids = torch.tensor([[pad] * (width - len(ids)) + ids for ids in rows], device=lm.device)
    attention = torch.tensor(
        [[0] * (width - len(ids)) + [1] * len(ids) for ids in rows], device=lm.device
    )
    positions = (attention.cumsum(-1) - 1).clamp(min=0)
    inputs = {"input_ids": input_ids, "attention_mask": attention, "position_ids": positions}
    split = split_head(lm.model)  # probed once per model: the head on the last position only
    if split is not None:
        body, head = split
        return head(body(**inputs).last_hidden_state[:, -1])
    return lm.model(**inputs).logits[:, -1, :]


def _masked_logits(lm: LoadedModel, rows: list[list[int]]) -> torch.Tensor:
    width = max(len(ids) for ids in rows)
    pad = lm.tokenizer.pad_token_id if lm.tokenizer.pad_token_id is not None else 0
    input_ids = torch.tensor([ids + [pad] * (width - len(ids)) for ids in rows], device=lm.device)
    attention = torch.tensor(
        [[1] * len(ids) + [0] * (width - len(ids)) for ids in rows], device=lm.device
    )
    mask_positions = (input_ids == lm.tokenizer.mask_token_id).int().argmax(-1)
    rows_index = torch.arange(len(rows), device=lm.device)
    split = split_head(lm.model)
    if split is not None:  # the head on the mask position only
        body, head = split
        states = body(input_ids=input_ids, attention_mask=attention).last_hidden_state
    else:
        states = lm.model(input_ids=input_ids, attention_mask=attention).logits
    # a dispatched model leaves its states on its last block's device
    at_mask = states[rows_index.to(states.device), mask_positions.to(states.device)]
    return head(at_mask) if split is not None else at_mask
