"""Token log-probabilities of a causal LM, with prefixes shared through prefix trees.

Each forward pass reads a batch of :class:`~poetic_eval.prefix_tree.Pack` objects. In a pack
every distinct prefix of its sequences is one node, computed once; the pack is fed as one
sequence with a tree attention mask (a node attends to itself and its ancestors) and position
ids equal to node depths, which gives each node the hidden state it has in every sequence through
it. The LM head then runs only on the nodes whose successors need a log-probability (never on
padding, never on a sequence's last token).

Models whose attention does not honour a custom 4D mask with position ids (e.g. ALiBi models that
derive positions from a 2D mask) fail a one-off self-check and are scored without sharing.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence

import numpy as np
import torch

from .language_models import LanguageModel
from .prefix_tree import Pack, ancestor_mask, pack_prefix_trees, single_sequence_packs

# verdicts of the one-off checks, by (id(model), dtype, device)
_HEAD_SPLIT_WORKS: dict[tuple, bool] = {}
_TREE_MASK_WORKS: dict[tuple, bool] = {}


def sequence_log_probs(
    lm: LanguageModel,
    sequences: Sequence[Sequence[int]],
    *,
    share_prefixes: bool = True,
    batch_size: int = 16,
    pack_tokens: int = 256,
    progress: Callable | None = None,
) -> np.ndarray:
    """Sum over positions 1.. of log p(token | previous tokens), for each token sequence.

    Position 0 (the document-start token) is context only. Returns float64 sums.
    """
    if share_prefixes and not _tree_mask_works(lm):
        share_prefixes = False
    if share_prefixes:
        packs = pack_prefix_trees(sequences, max_nodes=pack_tokens)
    else:
        packs = single_sequence_packs(sequences)
    totals = np.zeros(len(sequences), dtype=np.float64)
    batches = _length_bucketed_batches(packs, batch_size, pack_tokens)
    iterator = progress(batches) if progress is not None else batches
    for batch in iterator:
        node_log_probs = _pack_batch_log_probs(lm, batch, tree=share_prefixes)
        for pack, log_probs in zip(batch, node_log_probs):
            for sequence_id, path in zip(pack.sequence_ids, pack.paths):
                totals[sequence_id] = log_probs[path[1:]].sum(dtype=np.float64)
    return totals


def _length_bucketed_batches(
    packs: list[Pack], batch_size: int, pack_tokens: int
) -> list[list[Pack]]:
    """Batches of packs of similar length: at most ``batch_size`` packs and a token budget."""
    ordered = sorted(packs, key=len)
    token_budget = batch_size * max(pack_tokens, 1)
    batches: list[list[Pack]] = []
    current: list[Pack] = []
    for pack in ordered:
        padded = (len(current) + 1) * len(pack)  # packs are sorted: this one is the longest
        if current and (len(current) >= batch_size or padded > token_budget):
            batches.append(current)
            current = []
        current.append(pack)
    if current:
        batches.append(current)
    return batches


def _pack_batch_log_probs(lm: LanguageModel, batch: list[Pack], *, tree: bool) -> list[np.ndarray]:
    """log p(node token | ancestors) for every node of every pack (NaN for roots)."""
    width = max(len(pack) for pack in batch)
    count = len(batch)
    input_ids = torch.zeros((count, width), dtype=torch.long)
    lengths = torch.tensor([len(pack) for pack in batch])
    for row, pack in enumerate(batch):
        input_ids[row, : len(pack)] = torch.tensor(pack.tokens)
    device = lm.device
    if tree:
        attention_mask, position_ids = _tree_inputs(batch, width, lm.dtype)
        inputs = {"attention_mask": attention_mask.to(device), "position_ids": position_ids.to(device)}
    else:
        padding = torch.arange(width)[None, :] < lengths[:, None]
        inputs = {"attention_mask": padding.long().to(device)}
    # rows whose next-token distribution is needed: every node that is some node's parent
    parent_rows, child_rows, child_tokens = _parent_child_indices(batch, width)
    with torch.inference_mode():
        hidden_or_logits = _forward(lm, input_ids.to(device), inputs, parent_rows)
        logits = hidden_or_logits.float()
        lse = torch.logsumexp(logits, dim=-1)
        parent_of = torch.as_tensor(child_rows[1], device=logits.device)
        tokens = torch.as_tensor(child_tokens, device=logits.device)
        values = logits[parent_of, tokens] - lse[parent_of]
    values = values.double().cpu().numpy()
    flat = np.full(count * width, np.nan)
    flat[child_rows[0]] = values
    return [flat[row * width : row * width + len(pack)] for row, pack in enumerate(batch)]


def _parent_child_indices(batch: list[Pack], width: int):
    """Flat indices of needed parent rows; per child: its flat index and its parent's row."""
    children, parents, tokens = [], [], []
    for row, pack in enumerate(batch):
        parent_array = np.asarray(pack.parents)
        has_parent = np.nonzero(parent_array >= 0)[0]
        children.append(row * width + has_parent)
        parents.append(row * width + parent_array[has_parent])
        tokens.append(np.asarray(pack.tokens)[has_parent])
    children_flat = np.concatenate(children)
    parents_flat = np.concatenate(parents)
    needed, parent_row = np.unique(parents_flat, return_inverse=True)
    return needed, (children_flat, parent_row), np.concatenate(tokens)


def _tree_inputs(batch: list[Pack], width: int, dtype: torch.dtype):
    count = len(batch)
    allowed = np.zeros((count, width, width), dtype=bool)
    allowed[:, np.arange(width), np.arange(width)] = True  # padding rows see themselves
    positions = np.zeros((count, width), dtype=np.int64)
    for row, pack in enumerate(batch):
        size = len(pack)
        allowed[row, :size, :size] = ancestor_mask(pack.parents)
        positions[row, :size] = pack.depths
    blocked = torch.from_numpy(~allowed)[:, None, :, :]
    mask = torch.zeros(blocked.shape, dtype=dtype).masked_fill_(blocked, torch.finfo(dtype).min)
    return mask, torch.from_numpy(positions)


def _forward(lm: LanguageModel, input_ids: torch.Tensor, inputs: dict, rows: np.ndarray):
    """Logits at the flat positions ``rows`` of the batch."""
    index = torch.as_tensor(rows, device=input_ids.device)
    if _head_split_works(lm):
        body = lm.model.base_model
        hidden = body(input_ids=input_ids, use_cache=False, **inputs).last_hidden_state
        selected = hidden.reshape(-1, hidden.shape[-1])[index]
        return lm.model.get_output_embeddings()(selected)
    logits = lm.model(input_ids=input_ids, use_cache=False, **inputs).logits
    return logits.reshape(-1, logits.shape[-1])[index]


def _head_split_works(lm: LanguageModel) -> bool:
    """Whether output_embeddings(base_model(x)) reproduces the model's logits (checked once)."""
    key = (id(lm.model), lm.dtype, str(lm.device))
    if key not in _HEAD_SPLIT_WORKS:
        ids = torch.tensor([[_probe_token(lm, k) for k in range(4)]], device=lm.device)
        with torch.inference_mode():
            full = lm.model(input_ids=ids, use_cache=False).logits.float()
            try:
                hidden = lm.model.base_model(input_ids=ids, use_cache=False).last_hidden_state
                split = lm.model.get_output_embeddings()(hidden).float()
                works = split.shape == full.shape and torch.allclose(split, full, atol=1e-3, rtol=1e-3)
            except (AttributeError, TypeError):
                works = False
        _HEAD_SPLIT_WORKS[key] = bool(works)
    return _HEAD_SPLIT_WORKS[key]


def _tree_mask_works(lm: LanguageModel) -> bool:
    """Whether a two-branch prefix tree gives the same log-probs as separate sequences."""
    key = (id(lm.model), lm.dtype, str(lm.device))
    if key not in _TREE_MASK_WORKS:
        sequences = [
            [_probe_token(lm, k) for k in (0, 1, 2, 3, 4)],
            [_probe_token(lm, k) for k in (0, 1, 5, 6)],
            [_probe_token(lm, k) for k in (0, 7)],
        ]
        try:
            tree = _pack_batch_log_probs(lm, pack_prefix_trees(sequences, max_nodes=64), tree=True)[0]
            pack = pack_prefix_trees(sequences, max_nodes=64)[0]
            tree_sums = sorted(float(np.nansum(tree[path])) for path in pack.paths)
            separate = _pack_batch_log_probs(lm, single_sequence_packs(sequences), tree=False)
            separate_sums = sorted(float(np.nansum(values)) for values in separate)
            tolerance = 1e-3 if lm.dtype == torch.float32 else 0.25
            works = np.allclose(tree_sums, separate_sums, atol=tolerance, rtol=0)
        except (RuntimeError, ValueError, TypeError):
            works = False
        if not works:
            warnings.warn(
                f"{lm.name}: custom tree attention masks are not honoured by this model; "
                "scoring without prefix sharing (same numbers, slower)",
                stacklevel=3,
            )
        _TREE_MASK_WORKS[key] = bool(works)
    return _TREE_MASK_WORKS[key]


def _probe_token(lm: LanguageModel, k: int) -> int:
    vocabulary = lm.model.get_input_embeddings().num_embeddings
    return (1000 + 37 * k) % vocabulary
