"""log p(token | state): the LM head and its normalisation over the vocabulary, for chosen tokens.

A causal scorer needs, at each parent state, the log-probability of one or a few next tokens:
the token's logit minus the log-sum-exp of all the logits. The whole logit matrix of a block of
states is large (256 states x SmolLM2's 49,152 tokens: 48 MiB in float32), far beyond the CPU's
caches, so computing it and then normalising it streams it through memory several times. When
the head is a plain linear map (``torch.nn.Linear``: Llama, Mistral, Qwen, GPT-NeoX, tied or
not), :func:`chosen_log_probs` instead runs it on slices of the vocabulary of
:data:`VOCABULARY_SLICE` rows of its weight: each slice's logits (8 MiB for 1,024 states) are
normalised while they are in cache and combined by a running log-sum-exp, and each chosen
token's logit is read from its slice. The products are those of the whole head; the normaliser
sums in another order (a float32 log-sum-exp of the slices' log-sum-exps: 1.3e-6 nats at most
from float64 on SmolLM2's head shape, against 2.1e-6 whole), without the 48 MiB round trips.
On 2 CPU cores the head of the 3,853 states of 100 limerick pairs took 1.44-1.47 s this way
against 2.07-2.10 s whole, the call 1.08x faster (docs/benchmarks.md, "The LM head on
vocabulary slices"). Any other head (a soft-capped, scaled or MLP head, or the model's own
logits) is run whole on blocks of :data:`WHOLE_BLOCK_ROWS` states.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import torch

#: states per block when the head runs whole (its logits: rows x vocabulary)
WHOLE_BLOCK_ROWS = 256
#: states per block when the head runs on vocabulary slices
SLICED_BLOCK_ROWS = 1024
#: vocabulary rows of the head's weight per slice (1,024 states x 2,048: 8 MiB of logits)
VOCABULARY_SLICE = 2048


@torch.inference_mode()
def chosen_log_probs(
    states: torch.Tensor,
    head: torch.nn.Module | Callable[[torch.Tensor], torch.Tensor],
    state_of: np.ndarray,
    tokens: np.ndarray,
    *,
    vocabulary_slice: int | None = VOCABULARY_SLICE,
) -> np.ndarray:
    """``log p(tokens[i] | states[state_of[i]])`` under ``head`` for every i, float64 (computed
    in float32 from the head's logits).

    ``head`` maps states (rows, hidden) to logits (rows, vocabulary). Where it is a plain
    ``torch.nn.Linear`` on the CPU and ``vocabulary_slice`` is set, it runs on slices of the
    vocabulary (see the module docstring); otherwise on blocks of whole logits. ``state_of``
    and ``tokens`` are integer arrays of equal length.
    """
    state_of = np.asarray(state_of, dtype=np.int64)
    tokens = np.asarray(tokens, dtype=np.int64)
    sliced = vocabulary_slice is not None and _plain_linear_on_cpu(head, states)
    block_rows = SLICED_BLOCK_ROWS if sliced else WHOLE_BLOCK_ROWS
    values = np.empty(state_of.size, dtype=np.float64)
    order = np.argsort(state_of, kind="stable")
    block_starts = np.arange(0, states.shape[0] + block_rows, block_rows)
    bounds = np.searchsorted(state_of[order], block_starts)
    for block, start in enumerate(block_starts[:-1]):
        wanted = order[bounds[block] : bounds[block + 1]]
        if wanted.size == 0:
            continue
        block_states = states[start : start + block_rows]
        local = state_of[wanted] - start
        if sliced:
            found = _sliced(block_states, head, local, tokens[wanted], vocabulary_slice)
        else:
            found = _whole(block_states, head, local, tokens[wanted])
        values[wanted] = found.double().cpu().numpy()
    return values


def _plain_linear_on_cpu(head, states: torch.Tensor) -> bool:
    """Whether ``head`` is exactly ``torch.nn.Linear`` (not a quantised or patched subclass),
    with its weight beside ``states`` on the CPU in their dtype and no accelerate hook that
    would move or load the weight when the module is called. (Forward hooks a caller put on
    the head do not run on the sliced path; the engine already runs the body and the head apart,
    so hooks on the whole model do not run either.)"""
    if type(head) is not torch.nn.Linear or hasattr(head, "_hf_hook"):
        return False
    weight = head.weight
    on_cpu = states.device.type == "cpu" and weight.device == states.device
    return on_cpu and weight.dtype == states.dtype


def _whole(states: torch.Tensor, head, local: np.ndarray, tokens: np.ndarray) -> torch.Tensor:
    logits = head(states).float()
    rows = torch.as_tensor(local, device=logits.device)
    targets = torch.as_tensor(tokens, device=logits.device)
    # not log_softmax: faster on the CPU, but 3-4e-4 nats off float64 on limericks
    return logits[rows, targets] - torch.logsumexp(logits, dim=-1)[rows]


def _sliced(
    states: torch.Tensor, head: torch.nn.Linear, local: np.ndarray, tokens: np.ndarray, size: int
) -> torch.Tensor:
    """:func:`_whole` for a linear head, its vocabulary taken ``size`` rows of weight at a time."""
    weight, bias = head.weight, head.bias
    vocabulary = weight.shape[0]
    slices = range(0, vocabulary, size)
    buffer = torch.empty((states.shape[0], min(size, vocabulary)), dtype=states.dtype)
    partial = torch.empty((states.shape[0], len(slices)), dtype=torch.float32)
    chosen = torch.empty(local.size, dtype=torch.float32)
    slice_of = tokens // size
    order = np.argsort(slice_of, kind="stable")
    bounds = np.searchsorted(slice_of[order], np.arange(len(slices) + 1))
    for number, first in enumerate(slices):
        width = min(size, vocabulary - first)
        # out= wants a contiguous tensor: a narrower last slice gets its own
        logits = buffer if width == buffer.shape[1] else buffer.new_empty((states.shape[0], width))
        slice_weight = weight[first : first + size].T
        if bias is None:
            torch.mm(states, slice_weight, out=logits)
        else:
            torch.addmm(bias[first : first + size], states, slice_weight, out=logits)
        logits = logits.float()
        partial[:, number] = torch.logsumexp(logits, dim=-1)
        here = order[bounds[number] : bounds[number + 1]]
        if here.size:
            at = torch.as_tensor(here)
            chosen[at] = logits[torch.as_tensor(local[here]), torch.as_tensor(tokens[here] - first)]
    normaliser = torch.logsumexp(partial, dim=-1)
    return chosen - normaliser[torch.as_tensor(local)]
