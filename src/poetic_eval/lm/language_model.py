"""The language-model engine: one loaded model and every scoring verb the project uses.

:class:`LanguageModel` bundles a ``transformers`` model with its tokenizer, its kind (causal or
masked, read from its architecture), its device and its token budget, and offers the verbs of
every caller: :meth:`~LanguageModel.score_texts`, :meth:`~LanguageModel.score_pairs`,
:meth:`~LanguageModel.score_choices` (continuations after shared prefixes) and
:meth:`~LanguageModel.slot_log_probs` (the distribution at a slot). Causal and masked models
answer the same verbs (masked ones by pseudo-log-likelihood). It is built by
:func:`poetic_eval.lm.load_language_model`, the one public constructor; :func:`load_pretrained`
and :func:`adopt` are the two ways it builds one.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import torch

from ..checks import typed_options
from ..errors import InvalidValueError
from .input_checks import (
    check_choice_inputs,
    checked_slot_rows,
    checked_token_sequences,
    require_finite_scores,
)
from .model_sources import check_model_source, loading_model

#: The two kinds of language model the scoring code handles.
ModelKind = Literal["causal", "masked"]


@dataclass
class LanguageModel:
    """A loaded model with its tokenizer, ready for scoring.

    Attributes:
        model: the ``transformers`` model, in eval mode.
        tokenizer: its tokenizer.
        kind: ``"causal"`` (next-token LM) or ``"masked"`` (masked LM, scored by PLL).
        device: where the model's weights are.
        name: a human-readable name (the model name or path).
        start_token_id: for causal LMs, the token every text is conditioned on so that its first
            token is scored too; None means :func:`document_start_token_id` decides.
        token_budget: most token positions (rows x width, padding included) in one forward
            pass; None sizes it from the device (:func:`poetic_eval.lm.budget.token_budget`:
            a fixed size on the CPU, the free memory on CUDA).
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
        """The token budget of one forward pass (``token_budget``, or sized from the device)."""
        from .budget import token_budget

        return self.token_budget if self.token_budget is not None else token_budget(self)

    def score_texts(
        self, texts: Sequence[str], reduction: str = "sum", **options: Any
    ) -> np.ndarray:
        """Log-probability (nats) of each text; options of :func:`poetic_eval.lm.score_texts`
        (``show_progress`` defaults to False here)."""
        from .scoring import text_log_probs

        return text_log_probs(self, texts, reduction=reduction, **options)

    def score_pairs(
        self, good: Sequence[str], bad: Sequence[str], reduction: str = "sum", **options: Any
    ) -> tuple[np.ndarray, np.ndarray]:
        """Scores of the good and the bad text of each pair, both in one call (shared prefixes
        within and across pairs computed once)."""
        from .scoring import pair_log_probs

        return pair_log_probs(self, good, bad, reduction=reduction, **options)

    def score_sequences(self, sequences: Sequence[Sequence[int]], **options: Any) -> np.ndarray:
        """Causal LMs: sum of log p(token | previous) over positions 1.. of token sequences
        (:func:`poetic_eval.lm.sequence_log_probs`)."""
        from .causal import sequence_log_probs

        sequences = checked_token_sequences(self, sequences)
        return require_finite_scores(
            self, sequence_log_probs(self, sequences, **options), "sequences"
        )

    def score_choices(
        self,
        prefixes: Sequence[str],
        continuations: Sequence[Sequence[str]],
        reduction: str = "sum",
        *,
        item_ids: Sequence[Any] | None = None,
        what: str = "text",
        **options: Any,
    ) -> list[np.ndarray]:
        """log p(continuation | prefix) of every continuation of every item (multiple choice),
        one array per item; every prefix shared within and across items is computed once.
        ``item_ids`` and ``what`` name items and prefixes in errors; ``options`` are those of
        :func:`poetic_eval.lm.score_choices`."""
        from .choices import encode_choices, score_choices

        check_choice_inputs(prefixes, continuations, item_ids)  # before len() of a wrong type
        ids = list(range(len(prefixes))) if item_ids is None else list(item_ids)
        encoded = encode_choices(self, prefixes, continuations, ids, what=what)
        return score_choices(self, encoded, reduction=reduction, **options)

    def slot_log_probs(
        self,
        rows: Sequence[Sequence[int]],
        *,
        max_rows: int | None = None,
        show_progress: bool = False,
    ) -> Iterator[tuple[int, torch.Tensor]]:
        """The distribution over the vocabulary at a slot of each encoded row: after the row's
        last token (causal) or at its one mask token (masked). Yields (first row, (rows, vocab)
        log-probs on the model's device) per forward pass, in input order
        (:func:`poetic_eval.lm.slots.slot_log_prob_batches`)."""
        from .slots import slot_log_prob_batches

        rows = checked_slot_rows(self, rows)  # now, not at the generator's first step
        return slot_log_prob_batches(self, rows, max_rows=max_rows, show_progress=show_progress)

    @property
    def dtype(self) -> torch.dtype:
        return next(self.model.parameters()).dtype

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


def document_start_token_id(lm: LanguageModel) -> int:
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


@typed_options
def load_pretrained(
    name: str,
    *,
    device: str | torch.device | None,
    dtype: torch.dtype | None,
    local_only: bool = False,
) -> LanguageModel:
    """Internal: a model name or folder loaded for :func:`poetic_eval.lm.load_language_model`
    (callers use that)."""
    from transformers import AutoConfig, AutoModelForCausalLM, AutoModelForMaskedLM, AutoTokenizer

    name = check_model_source(name)
    options = {"local_files_only": True} if local_only else {}
    with loading_model(name):
        config = AutoConfig.from_pretrained(name, **options)
        kind = _kind_from_config(config, name)
        auto_class = AutoModelForCausalLM if kind == "causal" else AutoModelForMaskedLM
        network = auto_class.from_pretrained(name, dtype=dtype or torch.float32, **options)
        tokenizer = AutoTokenizer.from_pretrained(name, **options)
    return adopt(network, tokenizer, name, device, None)


def adopt(
    network: Any,
    tokenizer: Any,
    name: str,
    device: str | torch.device | None,
    dtype: torch.dtype | None,
) -> LanguageModel:
    """Internal: loaded objects made a :class:`LanguageModel` (moved, converted, eval mode)."""
    kind = model_kind(network)
    target = torch.device(device) if device is not None else _current_device(network)
    if dtype is not None:
        network = network.to(dtype=dtype)
    network = network.to(target)
    network.eval()
    return LanguageModel(model=network, tokenizer=tokenizer, kind=kind, device=target, name=name)


def _current_device(network: Any) -> torch.device:
    try:
        current = next(network.parameters()).device
    except (StopIteration, AttributeError):
        return default_device()
    # a freshly loaded model sits on the CPU; move it to the accelerator when there is one
    return default_device() if current.type == "cpu" else current


def _class_names(mapping_names: dict) -> set[str]:
    names: set[str] = set()
    for value in mapping_names.values():
        names.update(value if isinstance(value, (list, tuple)) else [value])
    return names


def _kind_from_architecture_name(class_name: str) -> ModelKind | None:
    from transformers.models.auto.modeling_auto import (
        MODEL_FOR_CAUSAL_LM_MAPPING_NAMES,
        MODEL_FOR_MASKED_LM_MAPPING_NAMES,
    )

    causal_suffix = class_name.endswith(("ForCausalLM", "LMHeadModel"))
    if not causal_suffix and (
        class_name.endswith("ForMaskedLM")
        or class_name in _class_names(MODEL_FOR_MASKED_LM_MAPPING_NAMES)
    ):
        return "masked"
    if causal_suffix or class_name in _class_names(MODEL_FOR_CAUSAL_LM_MAPPING_NAMES):
        return "causal"
    return None


def _kind_from_config(config: Any, name: str) -> ModelKind:
    architectures = getattr(config, "architectures", None) or []
    for architecture in architectures:
        kind = _kind_from_architecture_name(architecture)
        if kind is not None:
            return kind
    if architectures:  # e.g. a bare encoder: loading it with an LM head would invent weights
        raise InvalidValueError(
            f"model {name!r} (architectures {architectures}) is neither a causal nor a masked "
            "language model: its checkpoint has no language-model head"
        )
    from transformers.models.auto.modeling_auto import (
        MODEL_FOR_CAUSAL_LM_MAPPING_NAMES,
        MODEL_FOR_MASKED_LM_MAPPING_NAMES,
    )

    model_type = getattr(config, "model_type", None)
    decoder_only = not getattr(config, "is_encoder_decoder", False)
    not_masked = model_type not in MODEL_FOR_MASKED_LM_MAPPING_NAMES or getattr(
        config, "is_decoder", False
    )
    if model_type in MODEL_FOR_CAUSAL_LM_MAPPING_NAMES and decoder_only and not_masked:
        return "causal"
    if model_type in MODEL_FOR_MASKED_LM_MAPPING_NAMES:
        return "masked"
    raise InvalidValueError(
        f"model {name!r} (architectures {getattr(config, 'architectures', None)}, "
        f"model_type {model_type!r}) is neither a causal nor a masked language model"
    )


def model_kind(network: Any) -> ModelKind:
    """``"causal"`` or ``"masked"`` for a loaded model; ValueError for anything else."""
    kind = _kind_from_architecture_name(type(network).__name__)
    if kind is None:
        raise InvalidValueError(
            f"model of class {type(network).__name__} is neither a causal LM (*ForCausalLM, "
            "*LMHeadModel) nor a masked LM (*ForMaskedLM); scoring needs a language-model head"
        )
    return kind
