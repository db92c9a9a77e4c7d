"""A prefix shared by every sequence of a call, computed once and reused through the KV cache.

Packs (:mod:`poetic_eval.lm.prefix_tree`) share a prefix only within a pack, so a preamble that
every text of a call begins with (an instruction prompt before each BLM item's context) is
computed again in every pack. When the common prefix of all the sequences is long and the call
makes several packs, :func:`shared_root` runs it once: its keys and values at every layer (the
model's own cache), the log-probabilities of its tokens and the next-token distribution after
it. The packs then hold only the suffixes, fed after the cached root with position ids
continuing from it and an attention mask that lets every node see the whole root
(:func:`root_attention`). A one-off probe per model checks that this gives the numbers of
scoring without the cache; a model whose attention or cache does not allow it is scored
without a shared root.
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch

from ..text import common_prefix_length
from .language_model import LanguageModel
from .model_checks import checked_or_warn, probe_ids, split_head

#: the shortest common prefix worth a forward of its own
MIN_ROOT_TOKENS = 16


@dataclass
class SharedRoot:
    """The states of a prefix shared by every sequence of a call.

    Attributes:
        length: its number of tokens.
        layers: its keys and values at each layer, each of shape (1, kv heads, length, head dim).
        log_probs: log p(token k | tokens before k) for k = 0..length-1 (NaN at 0), float64.
        next_log_probs: log p(token | the whole root) for every vocabulary token, float64.
        keyword: the forward argument that takes a cache (``cache`` in recent transformers,
            ``past_key_values`` before).
    """

    length: int
    layers: list[tuple[torch.Tensor, torch.Tensor]]
    log_probs: np.ndarray
    next_log_probs: np.ndarray
    keyword: str

    def inputs(self, rows: int) -> dict:
        """Forward arguments that put this root's cache before ``rows`` rows."""
        return {self.keyword: self.cache(rows), "use_cache": True}

    def cache(self, rows: int):
        """A fresh cache holding the root for ``rows`` rows (each forward extends its own)."""
        from transformers import DynamicCache

        data = [
            (keys.expand(rows, -1, -1, -1), values.expand(rows, -1, -1, -1))
            for keys, values in self.layers
        ]
        return DynamicCache(ddp_cache_data=data)


def shared_root(lm: LanguageModel, sequences: Sequence[Sequence[int]], packs: int):
    """The :class:`SharedRoot` of ``sequences`` when it saves work (a common prefix of at least
    :data:`MIN_ROOT_TOKENS` tokens that ``packs`` packs, three or more, would each compute)
    and the model passes the cache probe; None otherwise."""
    if packs < 3 or not sequences:
        return None
    ordered = [tuple(sequence) for sequence in sequences]
    length = common_prefix_length(min(ordered), max(ordered))  # lexicographic: that of all
    # a sequence that is the root itself must keep a token to be scored in a pack
    length = min(length, min(len(sequence) for sequence in sequences) - 1)
    if length < MIN_ROOT_TOKENS or not root_cache_works(lm):
        return None
    return compute_root(lm, list(sequences[0][:length]))


def compute_root(lm: LanguageModel, tokens: list[int]) -> SharedRoot:
    """One forward over ``tokens`` keeping its cache, its log-probs and the distribution after."""
    input_ids = torch.tensor([tokens], device=lm.device)
    split = split_head(lm.model)
    module = split[0] if split is not None else lm.model
    with torch.inference_mode():
        output = module(input_ids=input_ids, use_cache=True)
        if split is not None:
            logits = split[1](output.last_hidden_state[0])
        else:
            logits = output.logits[0]
        log_probs = torch.log_softmax(logits.double(), dim=-1)
        picked = log_probs[torch.arange(len(tokens) - 1), input_ids[0, 1:]]
        own = np.concatenate(([np.nan], picked.cpu().numpy()))
        cache = getattr(output, "cache", None)
        if cache is None:
            cache = output.past_key_values
        layers = [(layer.keys, layer.values) for layer in cache.layers]
    keyword = "cache" if "cache" in inspect.signature(module.forward).parameters else None
    keyword = keyword or "past_key_values"
    return SharedRoot(len(tokens), layers, own, log_probs[-1].cpu().numpy(), keyword)


def root_attention(allowed: np.ndarray, root_length: int) -> np.ndarray:
    """The (rows, width, root + width) attention of packed nodes after a cached root: every
    node (padding included) sees the whole root, then its own ancestors (``allowed``)."""
    count, width, _ = allowed.shape
    full = np.ones((count, width, root_length + width), dtype=bool)
    full[:, :, root_length:] = allowed
    return full


def root_cache_works(lm: LanguageModel) -> bool:
    """Whether packs after a cached root give the log-probs of separate scoring (checked once).

    In float32 the two must agree to 1e-3 nats. In lower precision both carry rounding noise,
    so the cached path must be far closer to separate scoring than a root cache from other
    tokens would leave it.
    """
    return checked_or_warn(
        lm.model,
        lm.name,
        "shared_root",
        lambda: _probe_root(lm),
        "a cached shared prefix does not reproduce this model's scores; "
        "computing it in every pack (same numbers, slower)",
    )


def _probe_root(lm: LanguageModel) -> bool:
    from .causal import sequence_log_probs_after_root

    tokens = probe_ids(lm.model, 12)[0].tolist()
    root = tokens[:5]
    sequences = [root + tokens[5:9], root + tokens[5:7] + tokens[10:12], root + [tokens[9]]]
    try:
        state = compute_root(lm, root)
        cached = sequence_log_probs_after_root(lm, sequences, state)
        wrong = compute_root(lm, tokens[6:11])
        misled = sequence_log_probs_after_root(lm, sequences, wrong)
        separate = lm.score_sequences(sequences, share_prefixes=False)
    except (RuntimeError, ValueError, TypeError, AttributeError, IndexError):
        return False
    error = float(np.abs(cached - separate).max())
    if lm.dtype == torch.float32:
        return error < 1e-3
    return error < 0.25 * float(np.abs(misled - separate).max())
