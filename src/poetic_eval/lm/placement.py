"""Where a loaded model computes: one device, or the devices of an accelerate device map.

A model loaded with ``device_map`` (or handed to :func:`accelerate.dispatch_model`) carries
``hf_device_map``: each top-level block's device (a GPU index, ``"cpu"`` or ``"disk"``), with
hooks that bring a block's weights and inputs to its *execution device* when it runs. Blocks
mapped to ``"cpu"`` or ``"disk"`` while some block is on a GPU are offloaded: their weights wait
in CPU memory or on disk and run on the map's main device (its first GPU); in a map of only
``"cpu"`` and ``"disk"`` everything runs on the CPU. A quantized model (bitsandbytes, torchao,
...) has weights that ``.to()`` cannot cast and must not move. The engine adopts both as they
are: it never moves or casts them, feeds its inputs to the device of the input embeddings and
lets the hooks carry the activations from block to block.
"""

from __future__ import annotations

from typing import Any

import torch

_OFFLOADED = ("cpu", "disk")


def device_map(network: Any) -> dict[str, Any] | None:
    """The model's accelerate device map (``hf_device_map``), or None when it has none."""
    mapping = getattr(network, "hf_device_map", None)
    return dict(mapping) if isinstance(mapping, dict) and mapping else None


def has_offload_hooks(network: Any) -> bool:
    """Whether accelerate's hooks run any block of ``network`` (a map over several devices, or
    offloaded weights): a block's weights are brought in when the block itself is called, so
    its parts must not be called apart, nor one block by two threads at once. A map of one
    device (``{"": "cpu"}``) has none."""
    return any(hasattr(module, "_hf_hook") for module in network.modules())


def is_quantized(network: Any) -> bool:
    """Whether ``network`` was quantized by a transformers quantizer (its weights cannot be
    cast or moved like plain tensors)."""
    return bool(getattr(network, "is_quantized", False)) or (
        getattr(network, "hf_quantizer", None) is not None
    )


def is_placed(network: Any) -> bool:
    """Whether the engine must adopt ``network`` where it is: dispatched or quantized."""
    return device_map(network) is not None or is_quantized(network)


def _as_device(value: Any) -> torch.device:
    if isinstance(value, int):
        return torch.device("cuda", value)
    return torch.device(value)


def main_device(mapping: dict[str, Any]) -> torch.device:
    """Where the offloaded (``"cpu"``/``"disk"``) blocks of a map run: its first accelerator
    block's device, or the CPU when every block is offloaded (accelerate's own rule)."""
    for value in mapping.values():
        if value not in _OFFLOADED:
            return _as_device(value)
    return torch.device("cpu")


def execution_device(network: Any, module_name: str) -> torch.device:
    """The device on which the block holding ``module_name`` (a dotted name inside
    ``network``) runs: its map entry (the longest prefix of the name in the map), offloaded
    entries on the map's main device; without a map, where the module's first weight is."""
    mapping = device_map(network)
    if mapping is None:
        module = network.get_submodule(module_name) if module_name else network
        return _first_weight_device(module)
    parts = module_name.split(".") if module_name else []
    for cut in range(len(parts), -1, -1):
        key = ".".join(parts[:cut])
        if key in mapping:
            value = mapping[key]
            return main_device(mapping) if value in _OFFLOADED else _as_device(value)
    return main_device(mapping)


def input_device(network: Any) -> torch.device:
    """Where a model's input ids must be: the execution device of its input embeddings."""
    embeddings = network.get_input_embeddings()
    if device_map(network) is None:
        return _first_weight_device(embeddings)
    for name, module in network.named_modules():
        if module is embeddings:
            return execution_device(network, name)
    return main_device(device_map(network))  # type: ignore[arg-type]


def compute_devices(network: Any) -> list[torch.device]:
    """The distinct devices the model computes on (a map's execution devices, in map order)."""
    mapping = device_map(network)
    if mapping is None:
        return [input_device(network)]
    found: list[torch.device] = []
    for value in mapping.values():
        device = main_device(mapping) if value in _OFFLOADED else _as_device(value)
        if device not in found:
            found.append(device)
    return found


def weight_dtype(network: Any) -> torch.dtype:
    """The dtype activations run in: that of the input embeddings (a quantized model's linear
    layers hold packed integers, its embeddings stay in the compute dtype)."""
    try:
        return network.get_input_embeddings().weight.dtype
    except AttributeError:
        return next(network.parameters()).dtype


def _first_weight_device(module: Any) -> torch.device:
    try:
        return next(module.parameters()).device
    except StopIteration:
        return torch.device("cpu")
