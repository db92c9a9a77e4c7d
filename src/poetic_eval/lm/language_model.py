"""Building the engine: a model name or folder loaded as transformers and accelerate load it,
or loaded objects adopted.

:func:`load_pretrained` reads a name or folder with ``from_pretrained``, passing on the
placement options (``dtype``, ``device_map``, ``max_memory``, ``offload_folder``, a quantization
config); :func:`adopt` makes loaded objects a :class:`~poetic_eval.lm.LanguageModel`. A model
that is dispatched (``hf_device_map``) or quantized is adopted as it is, never moved or cast
(:mod:`poetic_eval.lm.placement`); any other model is moved to the device asked for.
:func:`poetic_eval.lm.load_language_model` is the public constructor over both.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch

from ..errors import InvalidValueError
from ..files import DeviceError
from .engine import LanguageModel
from .loaded_model import ModelKind, default_device
from .model_sources import check_model_source, loading_model
from .placement import compute_devices, input_device, is_placed, weight_dtype
from .quantization import quantization_config
from .quiet_imports import import_transformers_quietly

__all__ = ["LanguageModel", "Placement", "adopt", "load_pretrained", "model_kind"]


@dataclass(frozen=True)
class Placement:
    """Where and how ``from_pretrained`` puts the weights (transformers' own options).

    Attributes:
        device_map: ``"auto"``, ``"balanced"``, ``"sequential"`` or a dict of module name to
            device (a GPU index, ``"cpu"``, ``"disk"``); None loads the model whole.
        max_memory: the most memory per device for ``device_map="auto"``, e.g.
            ``{0: "20GiB", "cpu": "60GiB"}``; what does not fit goes to disk.
        offload_folder: where weights offloaded to disk are kept.
        quantization: a short name (:data:`~poetic_eval.lm.quantization.QUANTIZATIONS`) or a
            transformers quantization config.
    """

    device_map: Any = None
    max_memory: dict | None = None
    offload_folder: str | None = None
    quantization: Any = None

    def from_pretrained_options(self, device: Any) -> dict[str, Any]:
        """The ``from_pretrained`` keywords: a quantized model without a map is put whole on
        ``device`` by the loader itself (``device_map={"": device}``), as it cannot move after."""
        options: dict[str, Any] = {}
        config = quantization_config(self.quantization)
        mapping = self.device_map
        if mapping is None and config is not None:
            mapping = {"": str(device if device is not None else default_device())}
        if config is not None:
            options["quantization_config"] = config
        if mapping is not None:
            options["device_map"] = mapping
        if self.max_memory is not None:
            options["max_memory"] = self.max_memory
        if self.offload_folder is not None:
            options["offload_folder"] = str(self.offload_folder)
        return options


def load_pretrained(
    name: str,
    *,
    device: str | torch.device | None,
    dtype: Any,
    local_only: bool = False,
    placement: Placement | None = None,
) -> LanguageModel:
    """Internal: a model name or folder loaded for :func:`poetic_eval.lm.load_language_model`
    (callers use that). ``dtype``: a torch dtype, ``"auto"`` (the checkpoint's) or None
    (float32)."""
    import_transformers_quietly()  # transformers imports torchao with its model base
    from transformers import AutoConfig, AutoModelForCausalLM, AutoModelForMaskedLM, AutoTokenizer

    name = check_model_source(name)
    options: dict[str, Any] = {"local_files_only": True} if local_only else {}
    placement = placement or Placement()
    loading = placement.from_pretrained_options(device)
    with loading_model(name):
        config = AutoConfig.from_pretrained(name, **options)
        # the config alone says causal or masked, so the weights are loaded once, by the right class
        kind = _kind_from_config(config, name)
        auto_class = AutoModelForCausalLM if kind == "causal" else AutoModelForMaskedLM
        network = auto_class.from_pretrained(
            name, dtype=dtype or torch.float32, **loading, **options
        )
        tokenizer = AutoTokenizer.from_pretrained(name, **options)
    # a model loaded through a device map is already placed: adopt must not be asked to move it
    return adopt(network, tokenizer, name, None if "device_map" in loading else device, None)


def adopt(
    network: Any,
    tokenizer: Any,
    name: str,
    device: str | torch.device | None,
    dtype: torch.dtype | None,
) -> LanguageModel:
    """Internal: loaded objects made a :class:`LanguageModel` in eval mode. A plain model is
    moved to ``device`` and converted to ``dtype``; a dispatched or quantized one stays as it
    is (``device`` must be one it runs on, ``dtype`` its own), its inputs going to its input
    embeddings' device."""
    kind = model_kind(network)
    if is_placed(network):
        _check_placed(network, name, device, dtype)
        network.eval()
        target = input_device(network)
        return LanguageModel(
            model=network, tokenizer=tokenizer, kind=kind, device=target, name=name
        )
    target = torch.device(device) if device is not None else _current_device(network)
    if dtype is not None:
        network = network.to(dtype=dtype)
    network = network.to(target)
    network.eval()
    return LanguageModel(model=network, tokenizer=tokenizer, kind=kind, device=target, name=name)


def _check_placed(network: Any, name: str, device: Any, dtype: torch.dtype | None) -> None:
    """A device or dtype asked of a dispatched or quantized model must be what it has."""
    what = (
        "dispatched over devices (hf_device_map)"
        if hasattr(network, "hf_device_map")
        else ("quantized")
    )
    if device is not None:
        wanted = torch.device(device)
        devices = compute_devices(network)
        # where its weights sit counts too (``model.device`` of an offloaded model is "meta")
        held = {parameter.device for parameter in network.parameters()}
        same = [
            d
            for d in [*devices, *held]
            if d.type == wanted.type and wanted.index in (None, d.index)
        ]
        if not same:
            raise DeviceError(
                f"{name} is {what} and runs on {', '.join(map(str, devices))}; it is used where "
                f"it is and cannot be moved to {wanted} (leave device unset, or load it with "
                "another device_map)"
            )
    if dtype is not None and dtype != weight_dtype(network):
        raise DeviceError(
            f"{name} is {what} with {weight_dtype(network)} activations; it is used as it is "
            f"and cannot be cast to {dtype} (leave dtype unset, or load it with that dtype)"
        )


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
