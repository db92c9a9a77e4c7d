"""The one public constructor of the engine: the offline default, a name or path, or loaded objects.

Loading follows transformers and accelerate: ``dtype`` (a torch dtype or ``"auto"``),
``device_map`` / ``max_memory`` / ``offload_folder`` (accelerate's big-model inference: a model
split over GPUs, or bigger than memory with the rest in CPU memory or on disk) and
``quantization`` (a transformers quantization config or a short name,
:mod:`poetic_eval.lm.quantization`) are passed to ``from_pretrained``. There is no module-level
cache: the caller holds the returned :class:`~poetic_eval.lm.LanguageModel` and passes it on
(every function that takes ``model=`` returns a given ``LanguageModel`` unchanged).
"""

from __future__ import annotations

import os
from typing import Any

import torch

from ..checks import require_choice, require_positive_int, typed_options
from ..errors import InvalidTypeError, InvalidValueError
from .default_model import load_default_model
from .engine import LanguageModel
from .language_model import Placement, adopt, load_pretrained
from .model_sources import check_device
from .quantization import QUANTIZATIONS

#: the keywords of :func:`load_language_model` besides ``model`` (conveniences pass them on)
LOADING_OPTIONS = (
    "device", "dtype", "device_map", "max_memory", "offload_folder", "quantization",
    "token_budget",
)  # fmt: skip


@typed_options
def load_language_model(
    model: Any = None,
    *,
    device: str | torch.device | None = None,
    dtype: torch.dtype | str | None = None,
    device_map: str | dict | None = None,
    max_memory: dict | None = None,
    offload_folder: str | os.PathLike | None = None,
    quantization: Any = None,
    token_budget: int | None = None,
) -> LanguageModel:
    """Load a causal or masked LM for scoring, once; every scoring verb is a method of the result.

    Args:
        model: None for the offline default model (SmolLM2-135M-Instruct,
            :mod:`.default_model`); a Hugging Face model name or a local folder; a
            ``(model, tokenizer)`` pair of loaded objects; or a :class:`LanguageModel` (returned
            as is, moved when ``device``/``dtype`` are given and it can move).
        device: where to run (default: CUDA when available, else CPU). A model loaded with a
            ``device_map`` runs where the map puts it.
        dtype: weight dtype, e.g. ``torch.bfloat16``, or ``"auto"`` for the checkpoint's own.
            Default float32 for names and paths; a given model object keeps its dtype unless
            this is set.
        device_map: accelerate's device map for names and paths: ``"auto"`` (fill the GPUs,
            then CPU memory, then disk), ``"balanced"``, ``"sequential"`` or a dict of module
            name to device (a GPU index, ``"cpu"``, ``"disk"``).
        max_memory: the most memory per device for the map, e.g. ``{0: "20GiB", "cpu":
            "30GiB"}``; weights beyond it are offloaded to ``offload_folder``.
        offload_folder: the folder for weights offloaded to disk.
        quantization: a transformers quantization config (``BitsAndBytesConfig``,
            ``TorchAoConfig``, ...) or a short name: ``"int8"`` (torchao, CPU and CUDA),
            ``"bnb-8bit"``, ``"bnb-4bit"`` (bitsandbytes, CUDA).
        token_budget: most token positions per forward pass (None: sized from the devices,
            :func:`poetic_eval.lm.budget.token_budget`).

    A given plain model object is moved and converted in place (as ``torch.nn.Module.to``
    does). A dispatched (``hf_device_map``) or quantized one, loaded here or given, is used as
    it is: never moved or cast.

    Raises:
        ValueError: the model is neither a causal nor a masked LM; placement options with a
            loaded model object (place it before handing it in).
        TypeError: ``model`` is of an unsupported type.
        ModelNotFoundError: a name or path that names no model that can be loaded here.
        DeviceError: a device this machine or torch build does not have, or a device or dtype
            that a dispatched or quantized model does not have.
    """
    placement = Placement(device_map, max_memory, offload_folder, quantization)
    _check_options(device, dtype, placement, token_budget)
    if isinstance(model, LanguageModel):
        _refuse_placement(placement, "a loaded LanguageModel")
        if device is None and dtype is None and token_budget in (None, model.token_budget):
            return model
        loaded = adopt(model.model, model.tokenizer, model.name, device, _torch_dtype(dtype))
        loaded.start_token_id = model.start_token_id
        loaded.token_budget = token_budget if token_budget is not None else model.token_budget
        return loaded
    loaded = _load(model, device, dtype, placement)
    loaded.token_budget = token_budget
    return loaded


def _check_options(device: Any, dtype: Any, placement: Placement, token_budget: Any) -> None:
    """Every option checked before anything is loaded."""
    check_device(device)
    if token_budget is not None:
        require_positive_int(token_budget, "token_budget", minimum=2)
    if isinstance(dtype, str) and dtype != "auto":
        raise InvalidValueError(f"dtype must be a torch dtype or 'auto', got {dtype!r}")
    if isinstance(placement.quantization, str):  # a misspelt name fails before any loading
        require_choice(placement.quantization, QUANTIZATIONS, "quantization")
    if placement.device_map is not None and device is not None:
        raise InvalidValueError(
            "give either device or device_map: a device map says where each block runs"
        )


def _load(model: Any, device: Any, dtype: Any, placement: Placement) -> LanguageModel:
    if model is None:
        return load_default_model(device=device, dtype=dtype, placement=placement)
    if isinstance(model, (str, os.PathLike)):
        return load_pretrained(str(model), device=device, dtype=dtype, placement=placement)
    if isinstance(model, tuple) and len(model) == 2:
        _refuse_placement(placement, "a (model, tokenizer) pair")
        network, tokenizer = model
        name = (
            getattr(getattr(network, "config", None), "name_or_path", "") or type(network).__name__
        )
        return adopt(network, tokenizer, name, device, _torch_dtype(dtype))
    raise InvalidTypeError(
        "model must be None, a model name or path, a (model, tokenizer) pair or a LanguageModel; "
        f"got {type(model).__name__}"
    )


def _refuse_placement(placement: Placement, what: str) -> None:
    if placement != Placement():
        raise InvalidValueError(
            f"device_map, max_memory, offload_folder and quantization apply when loading a name "
            f"or path; {what} is already loaded (dispatch or quantize it first: it is then used "
            "as it is)"
        )


def _torch_dtype(dtype: Any) -> torch.dtype | None:
    """A loaded object keeps its own dtype under ``"auto"``."""
    return None if dtype == "auto" else dtype
