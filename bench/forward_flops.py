"""The linear-layer FLOPs a scorer's forward passes run, counted by hooks on the model itself.

The LM benchmarks print it beside each speed ratio: for two exact scorers of the same model, the
FLOP ratio is about the speed ratio that less work alone can give (docs/benchmarks.md, "FLOP
ratios"). Hooks on the model's body (``base_model``) count every position fed, padding
included, and hooks on its head count every row the head maps to logits; both scorers call the
same modules (poetic_eval runs the body and the head apart, minicons the whole model). A
position costs the body's linear layers (two FLOPs per weight), a head row the head's weights.
Attention over the keys is left out: it is 5-8% of either scorer's time on the bench data.
"""

from __future__ import annotations

import torch


class ForwardFlops:
    """A context manager that counts, while it is open, the positions fed to ``model``'s body
    and the rows its head maps, and turns them into linear-layer GFLOP.

    ``model`` is a causal LM with a ``base_model`` and one other child, its head (a Llama, a
    GPT-2: what poetic_eval's ``split_head`` accepts).
    """

    def __init__(self, model: torch.nn.Module) -> None:
        body = getattr(model, "base_model", None)
        heads = [child for child in model.children() if child is not body]
        if body is None or body is model or len(heads) != 1:
            raise ValueError(f"{type(model).__name__} has no base model and single head")
        self.body, self.head = body, heads[0]
        self.body_weights = _linear_weights(body)
        self.head_weights = _linear_weights(self.head)
        self.positions = 0
        self.head_rows = 0
        self._hooks: list = []

    def __enter__(self):
        self._hooks = [
            self.body.register_forward_pre_hook(self._count_positions, with_kwargs=True),
            self.head.register_forward_pre_hook(self._count_rows),
        ]
        return self

    def __exit__(self, *exc) -> None:
        for hook in self._hooks:
            hook.remove()
        self._hooks = []

    def _count_positions(self, module, args, kwargs) -> None:
        ids = kwargs.get("input_ids", args[0] if args else None)
        if ids is None:
            ids = kwargs["inputs_embeds"][..., 0]
        self.positions += int(ids.numel())

    def _count_rows(self, module, args) -> None:
        hidden = args[0]
        self.head_rows += int(hidden.numel() // hidden.shape[-1])

    @property
    def gflop(self) -> float:
        """Linear-layer GFLOP counted so far: 2 x (positions x body weights + head rows x head
        weights) / 1e9."""
        work = self.positions * self.body_weights + self.head_rows * self.head_weights
        return 2 * work / 1e9


def _linear_weights(module: torch.nn.Module) -> int:
    """Weights of the linear layers in ``module`` (GPT-2's are transformers' ``Conv1D``)."""
    return sum(
        layer.weight.numel()
        for layer in module.modules()
        if isinstance(layer, torch.nn.Linear) or type(layer).__name__ == "Conv1D"
    )
