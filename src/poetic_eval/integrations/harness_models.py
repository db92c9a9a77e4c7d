"""Run the harness on a model the way poetic-eval scores it: same start token, same precision.

lm-evaluation-harness scores an empty-context continuation after its ``prefix_token_id`` (the
tokenizer's BOS, else EOS) and loads models in their saved dtype (``dtype=auto``); poetic-eval
conditions the first token on :func:`~poetic_eval.lm.document_start_token_id` and
scores in float32. Passing both explicitly makes the two agree for every model, including the
default SmolLM2 model, whose start token (``<|endoftext|>``) is not its tokenizer's BOS.
"""

from __future__ import annotations

from typing import Any

from ..checks import typed_options
from ..errors import InvalidTypeError, InvalidValueError
from ..lm import (
    LanguageModel,
    default_model_cache_dir,
    document_start_token_id,
    load_language_model,
)


def harness_model_args(model: Any = None) -> str:
    """``--model_args`` for ``lm_eval --model hf`` that reproduce :func:`score_pairs` numbers.

    Args:
        model: None for the default model (converted to its cache folder if it is not yet),
            or a model name or local path.
    """
    if model is not None and not isinstance(model, str):
        raise InvalidTypeError(
            f"model must be None or a model name or path, got {type(model).__name__}"
        )
    lm = _causal(load_language_model(model))
    pretrained = str(default_model_cache_dir()) if model is None else model
    return f"pretrained={pretrained},prefix_token_id={document_start_token_id(lm)},dtype=float32"


@typed_options
def harness_lm(
    model: Any = None, *, batch_size: int = 16, device: str | None = None, **loading: Any
) -> Any:
    """An ``lm_eval`` HFLM around a loaded model, for ``lm_eval.simple_evaluate(model=...)``.

    ``model`` is anything :func:`poetic_eval.lm.load_language_model` takes, loaded with
    ``loading`` (its ``dtype``, ``device_map``, ``max_memory``, ``offload_folder``,
    ``quantization``: a sharded, offloaded or quantized model is handed to the HFLM as it is);
    the HFLM uses the same start token as poetic-eval's scoring.
    """
    from lm_eval.models.huggingface import HFLM

    lm = _causal(load_language_model(model, device=device, **loading))
    return HFLM(
        pretrained=lm.model,
        tokenizer=lm.tokenizer,
        prefix_token_id=document_start_token_id(lm),
        batch_size=batch_size,
        device=str(lm.device),
    )


def _causal(lm: LanguageModel) -> LanguageModel:
    """``lm``, or ValueError when it is not a causal LM (the harness's hf model scores those)."""
    if lm.kind != "causal":
        raise InvalidValueError(
            f"{lm.name} is a {lm.kind} LM; the harness's hf model scores causal LMs"
        )
    return lm
