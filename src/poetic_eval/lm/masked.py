"""Pseudo-log-likelihood of texts under a masked LM (Salazar et al. 2020).

Each token of a text (special tokens excepted) is masked in turn and the log-probability of the
true token at the mask is summed. Attention is bidirectional, so no state is shared between
masked copies; the work saved is everything around them:

- identical masked copies are run once (the two sides of a minimal pair that differ in one
  token give the same copy when that token is masked; templated data repeats whole texts), and
  each copy's log-probabilities are read for every text that needs them;
- all copies of an n-token text have n tokens, so copies sorted by length fill the model's
  token budget with padding only where one length's copies end and the next begin; a batch of
  one length runs with no attention mask;
- when the model's LM head is a separate position-wise module (BERT's ``cls``, RoBERTa's
  ``lm_head``, ...) it runs on the masked position alone instead of on every token (a probe
  checks once per model that this gives the model's own logits, else the full forward is used),
  and only the true token's logit and the row's log-sum-exp are kept;
- in a BERT-style encoder (embeddings, then a list of post-norm layers with ``attention.self``
  query/key/value) only the masked position of the last layer's output is read, so that layer
  computes keys and values at every position but its query, attention output and feed-forward
  at the mask alone (:func:`last_layer_at_mask`, probed once per model against the encoder's own
  output; other encoders, and batches that mix lengths, run whole);
- on the CPU the batches run on one worker thread per torch thread, each worker's matrix
  products on one thread: independent batches need no synchronisation between the cores, where
  one batch split over both cores waits at every operation for the slower one (1.4-1.6x faster
  for the same batches on 2 shared cores, docs/benchmarks.md). torch's thread count is set to
  one for the duration of the call and restored after it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import torch

from ..errors import InvalidValueError
from .loaded_model import LoadedModel
from .model_checks import checked, probe_ids, split_head
from .placement import has_offload_hooks


class _Copies:
    """The distinct masked copies of the encoded texts and, for every (text, maskable token),
    which copy holds it: ``source``/``position`` build copy ``u`` (text ``source[u]`` with
    ``position[u]`` masked); request ``r`` reads the log-probability of ``targets[r]`` from copy
    ``copy_of[r]`` for text ``text_of[r]``."""

    def __init__(self, encodings, special, mask_token_id: int) -> None:
        index: dict[tuple, int] = {}
        self.source: list[int] = []
        self.position: list[int] = []
        self.length: list[int] = []
        copy_of, targets, text_of = [], [], []
        for text_index, (ids, flags) in enumerate(zip(encodings, special)):
            ids = tuple(int(token) for token in ids)
            for position, is_special in enumerate(flags):
                if is_special:
                    continue
                # the copy is the text with ``position`` masked, so the key leaves out the
                # masked token itself: texts differing only there (a minimal pair) share a copy
                key = (position, ids[:position], ids[position + 1 :])
                unique = index.get(key)
                if unique is None:
                    unique = index[key] = len(self.source)
                    self.source.append(text_index)
                    self.position.append(position)
                    self.length.append(len(ids))
                copy_of.append(unique)
                targets.append(ids[position])
                text_of.append(text_index)
        self.copy_of = np.array(copy_of, dtype=np.int64)
        self.targets = np.array(targets, dtype=np.int64)
        self.text_of = np.array(text_of, dtype=np.int64)


def _batches(lengths: Sequence[int], budget: int, max_rows: int | None, workers: int):
    """Copies sorted by length and cut into batches that grow while (rows + 1) x their longest
    row stays within ``budget`` (and within ``max_rows`` rows); then the largest batches are
    halved until there are at least ``workers`` of them (when rows allow). Sorted, a batch
    mixes lengths only where one length's copies end and the next begin."""
    order = sorted(range(len(lengths)), key=lambda unique: lengths[unique])
    batches: list[list[int]] = []
    current: list[int] = []
    for unique in order:
        full = max_rows is not None and len(current) >= max_rows
        # sorted by length, the copy being added is the batch's longest: the batch then costs
        # (rows + 1) x its length in padded tokens
        if current and (full or (len(current) + 1) * lengths[unique] > budget):
            batches.append(current)
            current = []
        current.append(unique)
    if current:
        batches.append(current)
    # fewer batches than workers would leave threads idle; halve the costliest (rows x its
    # last, longest, row) until each worker has one or no batch can be split
    while batches and len(batches) < workers:
        largest = max(range(len(batches)), key=lambda b: len(batches[b]) * lengths[batches[b][-1]])
        members = batches[largest]
        if len(members) < 2:
            break
        half = len(members) // 2
        batches[largest : largest + 1] = [members[:half], members[half:]]
    return batches


def _layers(encoder: torch.nn.Module):
    """(embeddings, layers) of a BERT-style encoder, or None."""
    embeddings = getattr(encoder, "embeddings", None)
    layers = getattr(getattr(encoder, "encoder", None), "layer", None)
    if embeddings is None or not isinstance(layers, torch.nn.ModuleList) or len(layers) < 2:
        return None
    attention = getattr(getattr(layers[-1], "attention", None), "self", None)
    parts = ("query", "key", "value", "num_attention_heads", "attention_head_size", "scaling")
    if attention is None or not all(hasattr(attention, part) for part in parts):
        return None
    return embeddings, layers


def _hidden_at(encoder, layers, input_ids, rows, positions) -> torch.Tensor:
    """The encoder's last hidden state at (rows, positions), its last layer run at them only."""
    embeddings, blocks = layers
    hidden = embeddings(input_ids=input_ids)
    for block in blocks[:-1]:
        # no attention mask: this path runs only for batches of one length (no padding)
        hidden = block(hidden, None)
        hidden = hidden[0] if isinstance(hidden, tuple) else hidden
    last = blocks[-1]
    attention = last.attention.self
    count, length, _ = hidden.shape
    heads, size = attention.num_attention_heads, attention.attention_head_size
    at_mask = hidden[rows, positions]
    query = attention.query(at_mask).view(count, heads, 1, size)
    key = attention.key(hidden).view(count, length, heads, size).transpose(1, 2)
    value = attention.value(hidden).view(count, length, heads, size).transpose(1, 2)
    mixed = torch.nn.functional.scaled_dot_product_attention(
        query, key, value, scale=attention.scaling
    ).reshape(count, heads * size)
    mixed = last.attention.output(mixed, at_mask)
    return last.output(last.intermediate(mixed), mixed)


def last_layer_at_mask(encoder: torch.nn.Module):
    """(embeddings, layers) when :func:`_hidden_at` gives ``encoder``'s own last hidden state
    at chosen positions (checked once per model on a probe, within 1e-4), else None."""
    return checked(encoder, "last_layer_at_mask", lambda: _probe_last_layer(encoder))


def _probe_last_layer(encoder: torch.nn.Module):
    layers = _layers(encoder)
    if layers is None:
        return None
    try:
        # two rows read at different positions: a gather that mixed rows and positions up would
        # not match the encoder's own output
        probe = probe_ids(encoder).repeat(2, 1)
        rows, positions = torch.arange(2, device=probe.device), torch.tensor([1, 5]).to(probe)
        with torch.inference_mode():
            expected = encoder(input_ids=probe).last_hidden_state[rows, positions]
            found = _hidden_at(encoder, layers, probe, rows, positions)
    except (AttributeError, TypeError, RuntimeError, ValueError, IndexError):
        return None
    if found.shape != expected.shape:
        return None
    if not torch.allclose(found.float(), expected.float(), atol=1e-4, rtol=1e-4):
        return None
    return layers


def cpu_workers(lm: LoadedModel) -> int:
    """Worker threads for PLL batches: one per torch thread on the CPU, one elsewhere and for a
    model run by accelerate's hooks (they swap a block's weights in and out around each call,
    so two batches must not run through a block at once)."""
    if lm.device.type != "cpu" or has_offload_hooks(lm.model):
        return 1
    return torch.get_num_threads()


@dataclass
class _Plan:
    """The batches of one PLL call and what each reads: batch ``b`` holds the copies
    ``batches[b]`` and answers requests ``bounds[b]:bounds[b + 1]`` (in ``order``), each the
    log-probability of ``request_targets`` at the mask of row ``request_rows`` of the batch."""

    encodings: Sequence[Sequence[int]]
    copies: _Copies
    batches: list[list[int]]
    order: np.ndarray
    bounds: np.ndarray
    request_rows: torch.Tensor
    request_targets: torch.Tensor
    mask_token_id: int
    pad_token_id: int


def _plan(lm: LoadedModel, encodings, copies: _Copies, batches: list[list[int]]) -> _Plan:
    """Each copy's place (batch and row), and the requests sorted by batch so that each batch
    reads one slice of them."""
    batch_of = np.empty(len(copies.source), dtype=np.int64)
    row_of = np.empty(len(copies.source), dtype=np.int64)
    for number, members in enumerate(batches):
        batch_of[members] = number
        row_of[members] = np.arange(len(members))
    order = np.argsort(batch_of[copies.copy_of], kind="stable")
    request_batch = batch_of[copies.copy_of][order]
    pad = lm.tokenizer.pad_token_id
    return _Plan(
        encodings=encodings,
        copies=copies,
        batches=batches,
        order=order,
        bounds=np.searchsorted(request_batch, np.arange(len(batches) + 1)),
        request_rows=torch.from_numpy(row_of[copies.copy_of][order]),
        request_targets=torch.from_numpy(copies.targets[order]),
        mask_token_id=lm.tokenizer.mask_token_id,
        # any id will do for padding: the attention mask hides padded positions and none is read
        pad_token_id=pad if pad is not None else 0,
    )


def _batch_inputs(lm: LoadedModel, plan: _Plan, members: list[int]):
    """The masked copies ``members`` as model inputs (an attention mask only where lengths
    meet in the batch), with each row's mask position."""
    copies = plan.copies
    widths = [copies.length[u] for u in members]
    width = max(widths)
    input_ids = torch.full((len(members), width), plan.pad_token_id, dtype=torch.long)
    for row, unique in enumerate(members):
        input_ids[row, : widths[row]] = torch.as_tensor(plan.encodings[copies.source[unique]])
    positions = torch.tensor([copies.position[u] for u in members], dtype=torch.long)
    rows = torch.arange(len(members))
    input_ids[rows, positions] = plan.mask_token_id
    inputs = {"input_ids": input_ids.to(lm.device)}
    if min(widths) < width:  # lengths meet in this batch: pad and mask the padding
        lengths = torch.tensor(widths)
        inputs["attention_mask"] = (torch.arange(width) < lengths[:, None]).long().to(lm.device)
    return inputs, rows, positions


def _mask_logits(lm: LoadedModel, inputs: dict, rows, positions, split, layers) -> torch.Tensor:
    """float32 logits at each row's mask: the head on the mask alone when it runs apart, the
    last layer at the mask alone when that was probed to agree (and no padding is masked)."""
    if split is None:
        logits = lm.model(**inputs).logits
        return logits[rows.to(logits.device), positions.to(logits.device)].float()
    encoder, head = split
    if layers is not None and "attention_mask" not in inputs:
        rows, positions = rows.to(lm.device), positions.to(lm.device)
        hidden = _hidden_at(encoder, layers, inputs["input_ids"], rows, positions)
    else:
        states = encoder(**inputs).last_hidden_state
        hidden = states[rows.to(states.device), positions.to(states.device)]
    return head(hidden).float()


def _batch_log_probs(lm: LoadedModel, plan: _Plan, number: int, split, layers) -> torch.Tensor:
    """The requests of batch ``number``: log p(true token | its masked copy), float64 on the CPU."""
    inputs, rows, positions = _batch_inputs(lm, plan, plan.batches[number])
    start, stop = plan.bounds[number], plan.bounds[number + 1]
    with torch.inference_mode():  # per thread: workers do not inherit it
        at_mask = _mask_logits(lm, inputs, rows, positions, split, layers)
        wanted_rows = plan.request_rows[start:stop].to(at_mask.device)
        wanted = plan.request_targets[start:stop].to(at_mask.device)
        normaliser = torch.logsumexp(at_mask, dim=-1)
        values = at_mask[wanted_rows, wanted] - normaliser[wanted_rows]
    return values.double().cpu()


def _run_batches(run: Callable[[int], torch.Tensor], plan: _Plan, workers: int, progress):
    """Every batch's values, in request order: in turn, or on ``workers`` threads of one torch
    thread each (torch's thread count restored after)."""
    values = torch.empty(len(plan.order), dtype=torch.float64)
    bounds, numbers = plan.bounds, range(len(plan.batches))
    if workers == 1:
        for number in progress(numbers) if progress is not None else numbers:
            values[bounds[number] : bounds[number + 1]] = run(number)
        return values
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(run, number) for number in numbers]
            done = progress(futures) if progress is not None else futures
            try:
                for number, future in enumerate(done):
                    values[bounds[number] : bounds[number + 1]] = future.result()
            except BaseException:  # an error or an interrupt: drop the batches not started
                for future in futures:
                    future.cancel()
                raise
    finally:
        torch.set_num_threads(threads)
    return values


def pseudo_log_likelihoods(
    lm: LoadedModel,
    encodings: Sequence[Sequence[int]],
    special: Sequence[Sequence[int]],
    *,
    batch_size: int | None = None,
    progress: Callable | None = None,
    workers: int | None = None,
) -> np.ndarray:
    """PLL of each encoded text (token ids with special tokens; ``special`` flags them).
    ``batch_size`` caps the masked copies per forward pass (the token budget sets it otherwise);
    ``workers`` is the number of batches run at once (:func:`cpu_workers` by default).
    """
    mask_token_id = lm.tokenizer.mask_token_id
    if mask_token_id is None:
        raise InvalidValueError(f"{lm.name}: masked LM tokenizer has no mask token")
    workers = cpu_workers(lm) if workers is None else max(1, int(workers))
    copies = _Copies(encodings, special, mask_token_id)
    batches = _batches(copies.length, lm.tokens_per_forward, batch_size, workers)
    plan = _plan(lm, encodings, copies, batches)
    split = split_head(lm.model)
    # the last layer's blocks are called apart from their parents: not through a dispatched
    # model's hooks, which bring a block's weights in when the block itself runs
    apart = split is not None and not has_offload_hooks(lm.model)
    layers = last_layer_at_mask(split[0]) if apart else None
    run = functools.partial(_batch_log_probs, lm, plan, split=split, layers=layers)
    values = _run_batches(run, plan, workers, progress)
    totals = np.zeros(len(encodings), dtype=np.float64)
    # unbuffered: a text appears once per maskable token, and ``totals[idx] += v`` would keep
    # only one value per repeated index
    np.add.at(totals, copies.text_of[plan.order], values.numpy())
    return totals
