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

Attention over the keys is left out: in the torch profiler it took 6-8% of the causal engine's
time and about 3% of minicons' on the pair data. A hook costs about 2.4 us per layer call on
this CPU: 200 agreement pairs make 427 calls (about 1 ms) in a 1.9 s call, so the CPU benches
time with the counter open; bench_gpu.py, whose forwards are short, times later repeats
without it.
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


class ForwardFlops:
    """A context manager that counts, while it is open, the linear-layer FLOPs run by
    ``model`` (safe under the masked engine's worker threads)."""

    def __init__(self, model: torch.nn.Module) -> None:
        self.layers = [layer for layer in model.modules() if _is_linear(layer)]
        if not self.layers:
            raise ValueError(f"{type(model).__name__} has no linear layers to count")
        self.flop = 0
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

        self._patch = mock.patch.object(next_token, "_sliced", counted_sliced)
        self._patch.start()
        return self

    def __exit__(self, *exc) -> None:
        for hook in self._hooks:
            hook.remove()
        self._hooks = []
        self._patch.stop()

    def _count(self, layer: torch.nn.Module, args) -> None:
        inputs = args[0]
        rows = inputs.numel() // inputs.shape[-1]
        with self._lock:
            self.flop += 2 * rows * layer.weight.numel()

    @property
    def gflop(self) -> float:
        """Linear-layer GFLOP counted so far."""
        return self.flop / 1e9


def _is_linear(layer: torch.nn.Module) -> bool:
    return isinstance(layer, torch.nn.Linear) or type(layer).__name__ == "Conv1D"
