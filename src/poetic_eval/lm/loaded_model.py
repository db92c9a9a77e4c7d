"""The loaded-model record every computation of the engine reads: model, tokenizer, kind, device.

:class:`LoadedModel` is plain data with no verbs: the computations (:mod:`.causal`,
:mod:`.masked`, :mod:`.choices`, :mod:`.slots`, ...) take it, and the engine users hold,
:class:`poetic_eval.lm.LanguageModel`, is a :class:`LoadedModel` with the verbs on top.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import torch

from ..errors import InvalidValueError
from .budget import token_budget
from .placement import is_placed, weight_dtype

#: The two kinds of language model the scoring code handles.
ModelKind = Literal["causal", "masked"]


@dataclass
class LoadedModel:
    """A loaded model with its tokenizer, ready for scoring.

    Attributes:
        model: the ``transformers`` model, in eval mode.
        tokenizer: its tokenizer.
        kind: ``"causal"`` (next-token LM) or ``"masked"`` (masked LM, scored by PLL).
        device: where its inputs go: the device of its weights, or for a model dispatched
            over several devices (``hf_device_map``) the execution device of its input
            embeddings (:mod:`poetic_eval.lm.placement`).
        name: a human-readable name (the model name or path).
        start_token_id: for causal LMs, the token every text is conditioned on so that its first
            token is scored too; None means :func:`document_start_token_id` decides.
        token_budget: most token positions (rows x width, padding included) in one forward
            pass; None sizes it from the devices (:func:`poetic_eval.lm.budget.token_budget`:
            a fixed size on the CPU, the free memory of the model's GPUs on CUDA).
    """

    model: Any
    tokenizer: Any
    kind: ModelKind
    device: torch.device
    name: str
    start_token_id: int | None = None
    token_budget: int | None = None

    @property
    def tokens_per_forward(self) -> int:
        """The token budget of one forward pass (``token_budget``, or sized from the devices)."""
        return self.token_budget if self.token_budget is not None else token_budget(self)

    @property
    def dtype(self) -> torch.dtype:
        """The dtype activations run in (that of the input embeddings)."""
        return weight_dtype(self.model)

    @property
    def placed(self) -> bool:
        """Dispatched over devices (``hf_device_map``) or quantized: never moved or cast, and
        run one batch at a time (accelerate's offload hooks swap weights in and out)."""
        return is_placed(self.model)

    @property
    def context_length(self) -> int | None:
        """The most positions the model accepts (None when the config does not say)."""
        limits = []
        config = self.model.config
        for attribute in ("max_position_embeddings", "n_positions", "max_sequence_length"):
            value = getattr(config, attribute, None)
            if isinstance(value, int) and value > 0:
                limits.append(value)
                break
        # tokenizers without a limit report a huge sentinel; RoBERTa's config counts 2 extra
        tokenizer_limit = getattr(self.tokenizer, "model_max_length", None)
        if isinstance(tokenizer_limit, int) and 0 < tokenizer_limit < 10**7:
            limits.append(tokenizer_limit)
        return min(limits) if limits else None


def default_device() -> torch.device:
    """CUDA when available, else CPU."""
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


def document_start_token_id(lm: LoadedModel) -> int:
    """The token a causal LM's texts are conditioned on: ``lm.start_token_id`` when set, else
    the tokenizer's BOS token, else its EOS token (GPT-2 style models separate documents with it).
    """
    if lm.start_token_id is not None:
        return int(lm.start_token_id)
    tokenizer = lm.tokenizer
    for candidate in (tokenizer.bos_token_id, tokenizer.eos_token_id):
        if candidate is not None:
            return int(candidate)
    raise InvalidValueError(
        f"{lm.name}: the tokenizer has neither a BOS nor an EOS token; set "
        "LanguageModel.start_token_id to the token that starts a document"
    )
