"""How many token positions one forward pass may take: fixed on the CPU, from free memory on CUDA.

Every scorer builds its batches against this budget: packed prefix trees (causal), masked copies
(PLL) and slot rows are sorted by length and added to a batch while rows x width, padding
included, stays within it. On the CPU the budget is 4,096 positions: on 2 loaded cores (load
4.8-5.5), 40 limerick pairs (1,767 trie nodes) took 17.2 s in one forward of 4,096 against
27.6 s in two of 1,024 (same process, interleaved with minicons; the cause was not isolated
further). On an idle machine ``torch.nn.functional.linear`` ran at this model's shapes at about
the same rate from 300 to 1,200 rows, so a causal LM's batch is then cut where a separate
forward pass costs less than its padding (:func:`forward_positions`). Masked LMs keep 1,024:
their PLL bench (60 texts, BERT-base shape) ran 14.1 s at 1,024 against 20.9 s at 4,096. On CUDA the
budget is the share of the device's free memory (``torch.cuda.mem_get_info``) that the
activations of one forward may take, divided by an estimate of their size per position; for a
model dispatched over several GPUs (``hf_device_map``), the least free memory among them (each
GPU holds the activations of the blocks it runs, the head's logits included where it runs).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import torch

from .placement import compute_devices, device_map

if TYPE_CHECKING:
    from .loaded_model import LoadedModel

CPU_TOKEN_BUDGET = 4096
#: on the CPU, what one more forward pass of a causal LM costs, counted in padded positions:
#: a batch of packed rows is cut where a separate pass saves more padding than this (see
#: :func:`forward_positions`)
CPU_FORWARD_POSITIONS = 32
CPU_MASKED_TOKEN_BUDGET = 1024
#: nodes of one packed prefix tree: its attention mask grows with the square of this
PACK_TOKENS = 256
CUDA_MEMORY_SHARE = 0.5
CUDA_BUDGET_RANGE = (1024, 131072)


def token_budget(lm: LoadedModel) -> int:
    """Token positions per forward pass for ``lm`` on its devices."""
    devices = compute_devices(lm.model) if device_map(lm.model) is not None else [lm.device]
    gpus = [device for device in devices if device.type == "cuda"]
    if not gpus:
        return CPU_MASKED_TOKEN_BUDGET if lm.kind == "masked" else CPU_TOKEN_BUDGET
    free = min(torch.cuda.mem_get_info(device)[0] for device in gpus)
    return cuda_token_budget(free, bytes_per_position(lm))


def forward_positions(lm: LoadedModel) -> int | None:
    """What one more forward pass costs in padded positions, for cutting batches of rows of
    unequal width (:func:`~poetic_eval.lm.prefix_tree.token_budget_batches`); None keeps each
    budget batch whole.

    On the CPU a causal LM gets :data:`CPU_FORWARD_POSITIONS`: the matrix products run about
    as fast on a few hundred rows as on thousands, so padding is the waste. 100 limerick pairs
    (18 rows of 183-238 fed nodes: one forward of 17 rows padded to 235, one of 1) ran 1.15x
    faster cut into forwards of 4, 7, 6 and 1 rows; one row per forward gained only 1.03-1.05x
    there and lost 4-9% on agreement pairs (docs/benchmarks.md, "Batches cut where padding
    costs more than a forward"). On CUDA, where a forward's fixed cost is kernel launches, it
    is not measured, so batches stay whole there. (Only causal scoring asks: masked LMs batch
    copies of one length.)
    """
    if lm.device.type == "cuda":
        return None
    return CPU_FORWARD_POSITIONS


def cuda_token_budget(free_bytes: int, per_position: int) -> int:
    """``CUDA_MEMORY_SHARE`` of ``free_bytes`` over ``per_position``, clipped to
    ``CUDA_BUDGET_RANGE``."""
    low, high = CUDA_BUDGET_RANGE
    return int(min(max(CUDA_MEMORY_SHARE * free_bytes // max(per_position, 1), low), high))


def bytes_per_position(lm: LoadedModel) -> int:
    """Activation bytes one position costs in a forward pass (an upper estimate): a few
    hidden-size tensors alive at once, the widest MLP intermediate, a row of a packed tree's
    attention mask and of its attention weights, and the float32 logits of the LM head."""
    config = lm.model.config
    hidden = int(getattr(config, "hidden_size", 0) or getattr(config, "n_embd", 1024))
    intermediate = int(getattr(config, "intermediate_size", 0) or 4 * hidden)
    heads = int(getattr(config, "num_attention_heads", 0) or getattr(config, "n_head", 16))
    vocabulary = int(getattr(config, "vocab_size", 50000))
    element = torch.finfo(lm.dtype).bits // 8
    activations = (8 * hidden + 3 * intermediate) * element
    attention = (heads + 1) * PACK_TOKENS * 4
    return activations + attention + 2 * vocabulary * 4
