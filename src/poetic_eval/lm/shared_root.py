"""Prefixes shared by runs of packs, computed once and reused through the KV cache.

Packs (:mod:`poetic_eval.lm.prefix_tree`) share a prefix only within a pack, so a prefix that
the sequences of several neighbouring packs begin with is computed again in each: a preamble
every text of a call begins with (the instruction before each BLM item), or the opening
sentences that neighbouring items repeat when one item fills most of a pack (BLM contexts of
type II, 130-180 tokens of a 256-node pack). The engine finds the runs of consecutive packs, in
the packer's lexicographic order, whose sequences share at least :data:`MIN_ROOT_TOKENS` tokens
(:func:`candidate_runs`); each run's common prefix, its root, is computed once
(:func:`compute_roots`, the roots of many runs batched in one forward): its keys and values at
every layer (the model's own cache), the log-probabilities of its tokens where a caller sums
them, and those of the tokens that follow it. The run's sequences are packed again without the
root and fed after its cache, with position ids continuing from it and an attention mask that
lets every node see the whole root. Rows after different roots share a forward: each row's root
is padded to the batch's longest and the mask hides the padding (:func:`root_cache`,
:func:`root_attention`). A one-off probe per model
(:func:`poetic_eval.lm.causal.root_cache_works`) checks that this gives the numbers of scoring
without the cache; a model whose attention or cache does not allow it is scored without roots.
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch

from ..text import common_prefix_length
from .loaded_model import LoadedModel
from .model_checks import split_head
from .next_token import chosen_log_probs
from .prefix_tree import Pack, token_budget_batches

#: the shortest common prefix worth a root of its own
MIN_ROOT_TOKENS = 16
#: the fewest positions a root must save (its length times the packs after the first) to be
#: computed apart: a root costs a forward of its own when no other root shares it
MIN_ROOT_SAVING = 2 * MIN_ROOT_TOKENS


@dataclass(frozen=True)
class RootRun:
    """Packs ``start .. stop - 1`` (of a :func:`~.prefix_tree.pack_prefix_trees` list) whose
    sequences all begin with the same ``length`` tokens, each longer than that."""

    start: int
    stop: int
    length: int


@dataclass
class SharedRoot:
    """The states of a prefix shared by a run of packs.

    Attributes:
        length: its number of tokens.
        layers: its keys and values at each layer, each of shape (kv heads, length, head dim).
        log_probs: log p(token k | tokens before k) for k = 0..length-1, float64; NaN at 0 and
            before the first position a caller asked for.
        next_tokens: the token ids (ascending) whose log-probability after the root is known.
        next_values: those log-probabilities, float64.
    """

    length: int
    layers: list[tuple[torch.Tensor, torch.Tensor]]
    log_probs: np.ndarray
    next_tokens: np.ndarray
    next_values: np.ndarray

    def next_log_probs(self, tokens: np.ndarray) -> np.ndarray:
        """log p(token | the whole root) for each of ``tokens`` (each must be known)."""
        tokens = np.asarray(tokens, dtype=np.int64)
        found = np.searchsorted(self.next_tokens, tokens)
        found = np.minimum(found, max(self.next_tokens.size - 1, 0))
        if tokens.size and not np.array_equal(self.next_tokens[found], tokens):
            raise KeyError("a token after the root was not computed")
        return self.next_values[found]


def candidate_runs(packs: Sequence[Pack], sequences: Sequence[Sequence[int]]) -> list[RootRun]:
    """Runs of consecutive packs (lexicographic order, as the packer leaves them) whose shared
    prefix of at least :data:`MIN_ROOT_TOKENS` tokens saves :data:`MIN_ROOT_SAVING` positions:
    from each start, the run's end is the one that saves most (the root's length times the
    packs after the first), among the ends whose sequences still share that many tokens."""
    if not packs:
        return []
    firsts = [sequences[pack.sequence_ids[0]] for pack in packs]
    lasts = [sequences[pack.sequence_ids[-1]] for pack in packs]
    # in lexicographic order the prefix shared from one sequence to a later one is the least
    # shared by the neighbours between: within each pack, and across each boundary
    within = [common_prefix_length(first, last) for first, last in zip(firsts, lasts)]
    across = [0] + [common_prefix_length(lasts[k - 1], firsts[k]) for k in range(1, len(packs))]
    # every sequence keeps a token to score after the root
    room = [min(len(sequences[index]) for index in pack.sequence_ids) - 1 for pack in packs]
    runs, start = [], 0
    while start < len(packs):
        best, stop, length = None, start + 1, min(within[start], room[start])
        while stop < len(packs):
            length = min(length, across[stop], within[stop], room[stop])
            if length < MIN_ROOT_TOKENS:
                break
            stop += 1
            if best is None or (stop - start - 1) * length > (best.stop - start - 1) * best.length:
                best = RootRun(start, stop, length)
        if best is not None and (best.stop - best.start - 1) * best.length >= MIN_ROOT_SAVING:
            runs.append(best)
            start = best.stop
        else:
            start += 1
    return runs


def compute_roots(
    lm: LoadedModel,
    roots: Sequence[Sequence[int]],
    own_from: Sequence[int | None],
    next_tokens: Sequence[np.ndarray],
) -> list[SharedRoot]:
    """The :class:`SharedRoot` of each token list of ``roots``, in forwards of the model's
    token budget (right-padded, so every root sits at positions 0..length-1).

    ``own_from[i]``: the first position whose token's log-probability root ``i`` must give
    (None: none); ``next_tokens[i]``: the tokens whose log-probability after it is needed.
    """
    split = split_head(lm.model)
    lengths = [len(tokens) for tokens in roots]
    found: list[SharedRoot | None] = [None] * len(roots)
    # not cut where padding meets: roots are short, and a forward of few short rows runs the
    # matrix products far below their rate on many rows
    batches = token_budget_batches(lengths, lm.tokens_per_forward)
    for batch in batches:
        outputs = _root_batch(lm, split, [roots[index] for index in batch])
        made = _roots_of_batch(
            outputs,
            [roots[index] for index in batch],
            [own_from[index] for index in batch],
            [next_tokens[index] for index in batch],
        )
        for index, root in zip(batch, made):
            found[index] = root
    return found  # type: ignore[return-value]


def _root_batch(lm: LoadedModel, split, batch: list[Sequence[int]]):
    """One forward over right-padded roots: (states or logits, their head, the cache layers)."""
    width = max(len(tokens) for tokens in batch)
    input_ids = torch.zeros((len(batch), width), dtype=torch.long)
    attention_mask = torch.zeros((len(batch), width), dtype=torch.long)
    for row, tokens in enumerate(batch):
        input_ids[row, : len(tokens)] = torch.as_tensor(list(tokens))
        attention_mask[row, : len(tokens)] = 1
    positions = torch.arange(width)[None].expand(len(batch), -1)
    inputs = {
        "input_ids": input_ids.to(lm.device),
        "attention_mask": attention_mask.to(lm.device),
        "position_ids": positions.to(lm.device),
        "use_cache": True,
    }
    module = split[0] if split is not None else lm.model
    with torch.inference_mode():
        output = module(**inputs)
    if split is not None:
        states, head = output.last_hidden_state, split[1]
    else:
        states, head = output.logits, (lambda selected: selected)
    cache = getattr(output, "cache", None)
    if cache is None:
        cache = output.past_key_values
    return states, head, [(layer.keys, layer.values) for layer in cache.layers]


def _roots_of_batch(outputs, roots, own_from, next_tokens) -> list[SharedRoot]:
    """The :class:`SharedRoot` of each row of one root forward; the head runs once for the
    whole batch (its weight read once), on the states whose log-probabilities are needed."""
    states, head, layers = outputs
    width = states.shape[1]
    wanted, nexts, state_of, chosen = [], [], [], []
    for row, (tokens, first, after) in enumerate(zip(roots, own_from, next_tokens)):
        length = len(tokens)
        positions = np.arange(length if first is None else max(int(first), 1), length)
        after = np.unique(np.asarray(after, dtype=np.int64))
        wanted.append(positions)
        nexts.append(after)
        state_of += [row * width + positions - 1, np.full(after.size, row * width + length - 1)]
        chosen += [np.asarray(tokens, dtype=np.int64)[positions], after]
    flat_states = states.reshape(-1, states.shape[-1])
    needed, state_of = np.unique(np.concatenate(state_of), return_inverse=True)
    index = torch.as_tensor(needed, device=flat_states.device)
    values = chosen_log_probs(flat_states[index], head, state_of, np.concatenate(chosen))
    made, offset = [], 0
    for row, (tokens, positions, after) in enumerate(zip(roots, wanted, nexts)):
        length = len(tokens)
        log_probs = np.full(length, np.nan)
        log_probs[positions] = values[offset : offset + positions.size]
        offset += positions.size
        next_values = values[offset : offset + after.size]
        offset += after.size
        kept = [(keys[row, :, :length].clone(), values_[row, :, :length].clone())
                for keys, values_ in layers]  # fmt: skip
        made.append(SharedRoot(length, kept, log_probs, after, next_values))
    return made


def cache_keyword(lm: LoadedModel) -> str:
    """The forward argument that takes a cache (``cache`` in recent transformers,
    ``past_key_values`` before) of the module the engine calls."""
    split = split_head(lm.model)
    module = split[0] if split is not None else lm.model
    return "cache" if "cache" in inspect.signature(module.forward).parameters else "past_key_values"


def root_cache(roots: Sequence[SharedRoot | None]):
    """A fresh cache holding each row's root (none: padding only), padded to the longest; the
    attention mask (:func:`root_attention`) hides what a row's root does not fill."""
    from transformers import DynamicCache

    present = [root for root in roots if root is not None]
    rows = len(roots)
    if len(present) == rows and all(root is present[0] for root in present):
        data = [
            (keys[None].expand(rows, -1, -1, -1), values[None].expand(rows, -1, -1, -1))
            for keys, values in present[0].layers
        ]
        return DynamicCache(ddp_cache_data=data)
    longest = max(root.length for root in present)
    data = []
    for layer, (keys, values) in enumerate(present[0].layers):
        shape = (rows, keys.shape[0], longest, keys.shape[-1])
        padded_keys = keys.new_zeros(shape)
        padded_values = values.new_zeros(shape[:3] + (values.shape[-1],))
        for row, root in enumerate(roots):
            if root is not None:
                padded_keys[row, :, : root.length] = root.layers[layer][0]
                padded_values[row, :, : root.length] = root.layers[layer][1]
        data.append((padded_keys, padded_values))
    return DynamicCache(ddp_cache_data=data)


def root_attention(allowed: np.ndarray, root_lengths: Sequence[int]) -> np.ndarray:
    """The (rows, width, longest root + width) attention of packed nodes after cached roots:
    every node of a row (padding included) sees its row's whole root, none of the padding
    after it, then its own ancestors (``allowed``)."""
    count, width, _ = allowed.shape
    longest = max(root_lengths)
    full = np.zeros((count, width, longest + width), dtype=bool)
    for row, length in enumerate(root_lengths):
        full[row, :, :length] = True
    full[:, :, longest:] = allowed
    return full
