"""Pseudo-log-likelihood of texts under a masked LM (Salazar et al. 2020).

Each token of a text (special tokens excepted) is masked in turn and the log-probability of the
true token at the mask is summed. All masked copies of all texts are scored together, sorted by
length and batched by the model's token budget (rows x width, padding included), with attention
masks. Only the masked position's log-probabilities are
needed, so when the model's LM head is a separate position-wise module (BERT's ``cls``,
RoBERTa's ``lm_head``, ...) it runs on that position alone instead of on every token; a probe
checks once per model that this gives the model's own logits, else the full forward is used.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import torch

from ..checks import typed_options
from .language_model import LanguageModel
from .model_checks import split_head
from .prefix_tree import token_budget_batches


def masked_copies(
    encodings: Sequence[Sequence[int]],
    special: Sequence[Sequence[int]],
    mask_token_id: int,
) -> list[tuple[int, int, int, list[int]]]:
    """(text index, masked position, true token, masked token ids) for every maskable token."""
    copies = []
    for text_index, (ids, flags) in enumerate(zip(encodings, special)):
        for position, (token, is_special) in enumerate(zip(ids, flags)):
            if is_special:
                continue
            masked = list(ids)
            masked[position] = mask_token_id
            copies.append((text_index, position, int(token), masked))
    return copies


@typed_options
def pseudo_log_likelihoods(
    lm: LanguageModel,
    encodings: Sequence[Sequence[int]],
    special: Sequence[Sequence[int]],
    *,
    batch_size: int | None = None,
    progress: Callable | None = None,
) -> np.ndarray:
    """PLL of each encoded text (token ids with special tokens; ``special`` flags them).
    ``batch_size`` caps the masked copies per forward pass (the token budget sets it otherwise).
    """
    mask_token_id = lm.tokenizer.mask_token_id
    if mask_token_id is None:
        raise ValueError(f"{lm.name}: masked LM tokenizer has no mask token")
    pad_token_id = lm.tokenizer.pad_token_id if lm.tokenizer.pad_token_id is not None else 0
    copies = masked_copies(encodings, special, mask_token_id)
    batches = token_budget_batches(
        [len(copy[3]) for copy in copies], lm.tokens_per_forward, batch_size
    )
    totals = np.zeros(len(encodings), dtype=np.float64)
    split = split_head(lm.model)
    iterator = progress(batches) if progress is not None else batches
    for indices in iterator:
        batch = [copies[index] for index in indices]
        width = max(len(copy[3]) for copy in batch)
        input_ids = torch.full((len(batch), width), pad_token_id, dtype=torch.long)
        attention = torch.zeros((len(batch), width), dtype=torch.long)
        for row, (_, _, _, ids) in enumerate(batch):
            input_ids[row, : len(ids)] = torch.tensor(ids)
            attention[row, : len(ids)] = 1
        rows = torch.arange(len(batch), device=lm.device)
        positions = torch.tensor([copy[1] for copy in batch], device=lm.device)
        targets = torch.tensor([copy[2] for copy in batch], device=lm.device)
        inputs = {"input_ids": input_ids.to(lm.device), "attention_mask": attention.to(lm.device)}
        with torch.inference_mode():
            if split is not None:
                encoder, head = split
                at_mask = head(encoder(**inputs).last_hidden_state[rows, positions]).float()
            else:
                at_mask = lm.model(**inputs).logits[rows, positions].float()
            values = at_mask[rows, targets] - torch.logsumexp(at_mask, dim=-1)
        np.add.at(totals, [copy[0] for copy in batch], values.double().cpu().numpy())
    return totals
