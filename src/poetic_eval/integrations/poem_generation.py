"""Seeded poem sampling from a causal LM, the same poems on one process or split over many.

Poem ``i`` is generated from ``prompts[i % len(prompts)]``. Poems are sampled in fixed chunks of
``batch_size``; chunk ``c`` is sampled under ``torch.manual_seed(seed + c)`` inside a forked RNG
(the caller's random state, e.g. a training run's dropout and data order, is left as it was).
A chunk's poems depend only on the model, the seed and the chunk, so splitting the chunks over
processes (chunk ``c`` on process ``c % num_processes``) and gathering them gives exactly the
poems one process samples.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import torch

from ..checks import typed_options
from ..checks.validation import options_from_keywords
from ..errors import InvalidValueError

#: Sampling settings unless the caller overrides them (nucleus sampling at temperature 1).
DEFAULT_GENERATION_KWARGS = {
    "do_sample": True,
    "top_p": 0.95,
    "temperature": 1.0,
    "max_new_tokens": 128,
}


def chunk_bounds(num_poems: int, batch_size: int) -> list[tuple[int, int]]:
    """[start, end) of each chunk of poems."""
    starts = range(0, num_poems, batch_size)
    return [(start, min(start + batch_size, num_poems)) for start in starts]


@dataclass(frozen=True)
class ProcessShare:
    """Which chunks this process samples, and how the processes share their poems: the
    keyword options ``process_index``, ``num_processes`` and ``gather`` of
    :func:`generate_poems`. ``gather``: with several processes, the all-gather of a list (e.g.
    ``accelerate.utils.gather_object``): each process passes its ``(chunk, poems)`` pairs and
    gets every process's."""

    process_index: int = 0
    num_processes: int = 1
    gather: Callable[[list], list] | None = None


@typed_options
def generate_poems(
    model: Any,
    tokenizer: Any,
    prompts: Sequence[str],
    num_poems: int,
    *,
    generation_kwargs: dict[str, Any] | None = None,
    seed: int = 0,
    batch_size: int = 8,
    include_prompt: bool = False,
    **processes: Any,
) -> list[str]:
    """``num_poems`` sampled poems (every process gets all of them when ``gather`` is given).

    Args:
        model, tokenizer: a causal LM (put it in eval mode first) and its tokenizer.
        prompts: the prompts, used in turn.
        generation_kwargs: ``model.generate`` options over :data:`DEFAULT_GENERATION_KWARGS`.
        seed: seed of chunk 0 (chunk ``c`` uses ``seed + c``).
        batch_size: poems per ``generate`` call (a chunk).
        include_prompt: a poem is its prompt followed by the generated text (default: the
            generated text only).
        processes: this process's share of the chunks, the fields of :class:`ProcessShare` by
            keyword (``process_index``, ``num_processes``, ``gather``).
    """
    share = options_from_keywords(ProcessShare, processes, "generate_poems")
    options = {**DEFAULT_GENERATION_KWARGS, **(generation_kwargs or {})}
    if options.get("num_return_sequences", 1) != 1:
        raise InvalidValueError(
            "generation_kwargs: num_return_sequences must be 1; ask for num_poems"
        )
    chunks = chunk_bounds(num_poems, batch_size)
    mine = []
    for index in range(share.process_index, len(chunks), share.num_processes):
        start, end = chunks[index]
        batch = [prompts[i % len(prompts)] for i in range(start, end)]
        poems = _sample_chunk(model, tokenizer, batch, options, seed + index, include_prompt)
        mine.append((index, poems))
    if share.num_processes > 1:
        if share.gather is None:
            raise InvalidValueError("generate_poems over several processes needs gather=")
        mine = share.gather(mine)
    # gathered chunks arrive process by process: sorted back by chunk index, the poems come in
    # the order one process would sample them
    return [poem for _, poems in sorted(mine) for poem in poems]


def _sample_chunk(model, tokenizer, prompts, options, seed, include_prompt) -> list[str]:
    input_ids, attention_mask, pad = _left_padded(tokenizer, prompts, model.device)
    # only the model's own GPU: by default fork_rng forks the state of every visible device
    devices = [model.device.index or 0] if model.device.type == "cuda" else []
    with torch.random.fork_rng(devices=devices), torch.no_grad():
        torch.manual_seed(seed)
        output = model.generate(
            input_ids=input_ids, attention_mask=attention_mask, pad_token_id=pad, **options
        )
    # left padding ends every prompt at the same column, so the new tokens start there
    texts = tokenizer.batch_decode(output[:, input_ids.shape[1] :], skip_special_tokens=True)
    if include_prompt:
        return [prompt + text for prompt, text in zip(prompts, texts)]
    return [text.strip() for text in texts]


def _left_padded(tokenizer, prompts, device) -> tuple[torch.Tensor, torch.Tensor, int]:
    """Prompts tokenized one by one and left-padded by hand (the tokenizer needs no pad token
    and keeps its padding side)."""
    # many causal LMs have no pad token; the attention mask hides the padding whatever its id
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id
    if pad is None:
        raise InvalidValueError(
            "the tokenizer has neither a pad nor an EOS token to pad prompts with"
        )
    encoded = [tokenizer(prompt)["input_ids"] for prompt in prompts]
    for row, ids in enumerate(encoded):
        if not ids:
            raise InvalidValueError(f"prompt {prompts[row]!r} has no tokens")
    width = max(map(len, encoded))
    input_ids = torch.full((len(encoded), width), pad, dtype=torch.long)
    attention_mask = torch.zeros((len(encoded), width), dtype=torch.long)
    for row, ids in enumerate(encoded):
        input_ids[row, width - len(ids) :] = torch.tensor(ids)
        attention_mask[row, width - len(ids) :] = 1
    return input_ids.to(device), attention_mask.to(device), int(pad)
