"""Load the model that scores texts: the offline default, a name or path, or loaded objects."""

from __future__ import annotations

import os
from typing import Any

import torch

from .default_model import load_default_lm
from .language_model import LanguageModel, load_pretrained, wrap
from .model_sources import check_device


def load_language_model(
    model: Any = None,
    *,
    device: str | torch.device | None = None,
    dtype: torch.dtype | None = None,
) -> LanguageModel:
    """Load a causal or masked LM for scoring.

    Args:
        model: None for the default model (:func:`load_default_lm`); a Hugging Face model name
            or a local folder; a ``(model, tokenizer)`` pair of loaded objects; or a
            :class:`LanguageModel` (returned as is, moved when ``device``/``dtype`` are given).
        device: where to run (default: CUDA when available, else CPU).
        dtype: weight dtype, e.g. ``torch.bfloat16``. Default float32 for names and paths;
            a given model object keeps its dtype unless this is set.

    A given model object is moved and converted in place (as ``torch.nn.Module.to`` does).

    Raises:
        ValueError: the model is neither a causal nor a masked LM.
        TypeError: ``model`` is of an unsupported type.
        ModelNotFoundError: a name or path that names no model that can be loaded here.
        DeviceError: a device this machine or torch build does not have.
    """
    check_device(device)
    if model is None:
        return load_default_lm(device=device, dtype=dtype)
    if isinstance(model, LanguageModel):
        if device is None and dtype is None:
            return model
        moved = wrap(model.model, model.tokenizer, model.name, device, dtype)
        moved.start_token_id = model.start_token_id
        return moved
    if isinstance(model, (str, os.PathLike)):
        return load_pretrained(str(model), device=device, dtype=dtype)
    if isinstance(model, tuple) and len(model) == 2:
        network, tokenizer = model
        name = (
            getattr(getattr(network, "config", None), "name_or_path", "") or type(network).__name__
        )
        return wrap(network, tokenizer, name, device, dtype)
    raise TypeError(
        "model must be None, a model name or path, a (model, tokenizer) pair or a LanguageModel; "
        f"got {type(model).__name__}"
    )


_DEFAULT_MODELS: dict[tuple[str, str], LanguageModel] = {}


def resolve_model(
    model: Any = None,
    *,
    device: str | torch.device | None = None,
    dtype: torch.dtype | None = None,
) -> LanguageModel:
    """:func:`load_language_model`, keeping the default model loaded for later calls."""
    if model is not None:
        return load_language_model(model, device=device, dtype=dtype)
    key = (str(device), str(dtype))
    if key not in _DEFAULT_MODELS:
        _DEFAULT_MODELS[key] = load_language_model(None, device=device, dtype=dtype)
    return _DEFAULT_MODELS[key]
