"""The one public constructor of the engine: the offline default, a name or path, or loaded objects.

There is no module-level cache: the caller holds the returned
:class:`~poetic_eval.lm.language_model.LanguageModel` and passes it on (every function that takes
``model=`` returns a given ``LanguageModel`` unchanged).
"""

from __future__ import annotations

import os
from typing import Any

import torch

from ..checks import require_positive_int, typed_options
from ..errors import InvalidTypeError
from .default_model import load_default_model
from .language_model import LanguageModel, adopt, load_pretrained
from .model_sources import check_device


@typed_options
def load_language_model(
    model: Any = None,
    *,
    device: str | torch.device | None = None,
    dtype: torch.dtype | None = None,
    token_budget: int | None = None,
) -> LanguageModel:
    """Load a causal or masked LM for scoring, once; every scoring verb is a method of the result.

    Args:
        model: None for the offline default model (SmolLM2-135M-Instruct,
            :mod:`.default_model`); a Hugging Face model name or a local folder; a
            ``(model, tokenizer)`` pair of loaded objects; or a :class:`LanguageModel` (returned
            as is, moved when ``device``/``dtype`` are given).
        device: where to run (default: CUDA when available, else CPU).
        dtype: weight dtype, e.g. ``torch.bfloat16``. Default float32 for names and paths;
            a given model object keeps its dtype unless this is set.
        token_budget: most token positions per forward pass (None: sized from the device,
            :func:`poetic_eval.lm.budget.token_budget`).

    A given model object is moved and converted in place (as ``torch.nn.Module.to`` does).

    Raises:
        ValueError: the model is neither a causal nor a masked LM.
        TypeError: ``model`` is of an unsupported type.
        ModelNotFoundError: a name or path that names no model that can be loaded here.
        DeviceError: a device this machine or torch build does not have.
    """
    check_device(device)
    if token_budget is not None:
        require_positive_int(token_budget, "token_budget", minimum=2)
    if isinstance(model, LanguageModel):
        if device is None and dtype is None and token_budget in (None, model.token_budget):
            return model
        loaded = adopt(model.model, model.tokenizer, model.name, device, dtype)
        loaded.start_token_id = model.start_token_id
        loaded.token_budget = token_budget if token_budget is not None else model.token_budget
        return loaded
    loaded = _load(model, device, dtype)
    loaded.token_budget = token_budget
    return loaded


def _load(model: Any, device: Any, dtype: torch.dtype | None) -> LanguageModel:
    if model is None:
        return load_default_model(device=device, dtype=dtype)
    if isinstance(model, (str, os.PathLike)):
        return load_pretrained(str(model), device=device, dtype=dtype)
    if isinstance(model, tuple) and len(model) == 2:
        network, tokenizer = model
        name = (
            getattr(getattr(network, "config", None), "name_or_path", "") or type(network).__name__
        )
        return adopt(network, tokenizer, name, device, dtype)
    raise InvalidTypeError(
        "model must be None, a model name or path, a (model, tokenizer) pair or a LanguageModel; "
        f"got {type(model).__name__}"
    )
