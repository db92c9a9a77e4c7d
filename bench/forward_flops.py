"""The linear-layer FLOPs a scorer's forward passes run, counted by hooks on the model itself.

The LM benchmarks print it beside each speed ratio: for two exact scorers of the same model, the
FLOP ratio is about the speed ratio that less work alone can give (docs/benchmarks.md, "FLOP
ratios"). A hook on every linear layer of the model (the attention projections, the MLP, the
LM head; GPT-2's ``Conv1D`` too) adds, at each call, two FLOPs per weight for every row it maps,
padding included. So it counts what each scorer actually ran, however it runs the model: a whole
forward (minicons), the body and the head apart at chosen rows (poetic_eval's causal engine), or
a masked LM's last layer at the mask only. The causal engine's head on vocabulary slices
(:mod:`poetic_eval.lm.next_token`) multiplies by the head's weight without calling the module,
so the counter wraps that function too, and counts the head's two FLOPs per weight for each
state it maps.

Attention over the keys (``QK^T`` and the weighted sum of the values) is counted apart
(:attr:`ForwardFlops.attention_flop`): the counter wraps
``torch.nn.functional.scaled_dot_product_attention``, through which transformers' SDPA attention
and the masked engine's last layer run, and adds ``4 * head_size`` FLOPs for each (query, key)
pair a query head actually attends: the pairs its mask allows (a causal flag: the keys up to
the query; padding keys are not attended). The engine attends over long shared prefixes that
it computed once (a BLM prompt's preamble and context): the linear ratio counts that prefix's
projections once for the engine and once per candidate for the peer, but not the attention of
every continuation token over it, so the benches print the floor both ways (linear only, the
issue's stated floor, and with attention). A hook costs about 2.4 us per layer call on
this CPU, but the attention counter also reduces each call's mask, and a counted call was
seldom the fastest of its turns (docs/benchmarks.md, "Turns and counting"): so no bench
times a call with the counter open. The CPU benches count each condition in one untimed
call before their timed turns (bench/interleaved.py); bench_gpu.py counts its first call and
times later repeats.
"""

from __future__ import annotations

import threading
from unittest import mock

import torch

from poetic_eval.lm import next_token

#: the share of the FLOP ratio (the floor an exact scorer's speed ratio is held to on this CPU,
#: docs/benchmarks.md "The floor") that a measured speed ratio must reach
FLOOR_SHARE = 0.9


def floor_verdict(measured: float, flop_ratio: float) -> str:
    """``measured`` (a speed ratio) as a share of ``flop_ratio``, against :data:`FLOOR_SHARE`."""
    share = measured / flop_ratio
    verdict = "met" if share >= FLOOR_SHARE else "NOT met"
    return f"{share:.2f} of the FLOP floor (>= {FLOOR_SHARE}: {verdict})"


def floors(measured: float, theirs: ForwardFlops, ours: ForwardFlops) -> str:
    """The FLOP ratio of ``theirs`` over ``ours`` and ``measured``'s verdict against it, linear
    layers only and with attention."""
    linear = theirs.gflop / ours.gflop
    full = theirs.full_gflop / ours.full_gflop
    return (
        f"FLOP ratio {linear:5.2f}x, {floor_verdict(measured, linear)}; with attention "
        f"{full:5.2f}x, {floor_verdict(measured, full)}"
    )


class ForwardFlops:
    """A context manager that counts, while it is open, the linear-layer FLOPs run by
    ``model`` (safe under the masked engine's worker threads)."""

    def __init__(self, model: torch.nn.Module) -> None:
        self.layers = [layer for layer in model.modules() if _is_linear(layer)]
        if not self.layers:
            raise ValueError(f"{type(model).__name__} has no linear layers to count")
        self.flop = 0
        self.attention_flop = 0
        self._lock = threading.Lock()
        self._hooks: list = []

    def __enter__(self):
        self._hooks = [layer.register_forward_pre_hook(self._count) for layer in self.layers]
        sliced = next_token._sliced
        ours = set(map(id, self.layers))

        def counted_sliced(states, head, *args):
            if id(head) in ours:
                self._count(head, (states,))
            return sliced(states, head, *args)

        attention = torch.nn.functional.scaled_dot_product_attention

        def counted_attention(query, key, value, attn_mask=None, *args, is_causal=False, **kw):
            pairs = attended_pairs(query, key, attn_mask, is_causal)
            with self._lock:
                self.attention_flop += 4 * query.shape[-1] * pairs
            return attention(query, key, value, attn_mask, *args, is_causal=is_causal, **kw)

        self._patches = [
            mock.patch.object(next_token, "_sliced", counted_sliced),
            mock.patch.object(
                torch.nn.functional, "scaled_dot_product_attention", counted_attention
            ),
        ]
        for patch in self._patches:
            patch.start()
        return self

    def __exit__(self, *exc) -> None:
        for hook in self._hooks:
            hook.remove()
        self._hooks = []
        for patch in self._patches:
            patch.stop()

    def _count(self, layer: torch.nn.Module, args) -> None:
        inputs = args[0]
        rows = inputs.numel() // inputs.shape[-1]
        with self._lock:
            self.flop += 2 * rows * layer.weight.numel()

    @property
    def gflop(self) -> float:
        """Linear-layer GFLOP counted so far."""
        return self.flop / 1e9

    @property
    def full_gflop(self) -> float:
        """Linear-layer and attention GFLOP counted so far."""
        return (self.flop + self.attention_flop) / 1e9


def attended_pairs(query, key, mask, is_causal: bool) -> int:
    """The (query head, query, key) triples an attention call attends: those its mask allows
    (a boolean mask's True, a float mask's entries above half the dtype's minimum), with
    ``is_causal`` each query's keys up to its own position, else all."""
    batch, heads, queries = query.shape[:-1]
    keys = key.shape[-2]
    if mask is not None:
        allowed = mask if mask.dtype == torch.bool else mask > torch.finfo(mask.dtype).min / 2
        return int(torch.broadcast_to(allowed, (batch, heads, queries, keys)).sum())
    if is_causal:
        return batch * heads * sum(min(row + 1, keys) for row in range(queries))
    return batch * heads * queries * keys


def _is_linear(layer: torch.nn.Module) -> bool:
    return isinstance(layer, torch.nn.Linear) or type(layer).__name__ == "Conv1D"
