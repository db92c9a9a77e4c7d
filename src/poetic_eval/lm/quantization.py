"""Quantization configs by short name, for loading a model in fewer bits.

``load_language_model(..., quantization=...)`` takes any transformers quantization config
(``BitsAndBytesConfig``, ``TorchAoConfig``, ``GPTQConfig``, ...) as it is, or one of the short
names of :data:`QUANTIZATIONS` for the common ones:

- ``"int8"``: int8 weight-only through torchao (``TorchAoConfig(Int8WeightOnlyConfig())``): the
  linear layers' weights in 8 bits with a scale per output row, computed in the model's dtype;
  runs on the CPU and on CUDA (``pip install torchao``).
- ``"bnb-8bit"``: bitsandbytes LLM.int8() (``BitsAndBytesConfig(load_in_8bit=True)``), CUDA.
- ``"bnb-4bit"``: bitsandbytes NF4 with bfloat16 compute and nested quantization of the scales
  (``BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4", ...)``), CUDA: a 70B
  model in about 40 GB.

transformers leaves the LM head (and embeddings) unquantized by default, so the engine's head
runs in the model's dtype.
"""

from __future__ import annotations

import importlib.util
from typing import Any

from ..checks import require_choice
from ..errors import InvalidTypeError, QuantizationUnavailableError

#: short name -> (the package it needs, what it is)
QUANTIZATIONS = {
    "int8": ("torchao", "int8 weight-only (torchao; CPU and CUDA)"),
    "bnb-8bit": ("bitsandbytes", "LLM.int8() (bitsandbytes; CUDA)"),
    "bnb-4bit": ("bitsandbytes", "NF4, bfloat16 compute (bitsandbytes; CUDA)"),
}


def quantization_config(quantization: Any) -> Any:
    """The transformers quantization config for ``quantization``: None, a short name of
    :data:`QUANTIZATIONS`, or a config object (returned as is).

    Raises:
        ValueError: an unknown short name (with the choices).
        TypeError: anything else that is not a quantization config.
        QuantizationUnavailableError: the package the short name needs is not installed.
    """
    if quantization is None:
        return None
    if not isinstance(quantization, str):
        if hasattr(quantization, "quant_method"):
            return quantization
        raise InvalidTypeError(
            "quantization must be a short name "
            f"({', '.join(QUANTIZATIONS)}) or a transformers quantization config; got "
            f"{type(quantization).__name__}"
        )
    require_choice(quantization, QUANTIZATIONS, "quantization")
    package = QUANTIZATIONS[quantization][0]
    if importlib.util.find_spec(package) is None:
        raise QuantizationUnavailableError(
            f"quantization {quantization!r} needs the {package} package: pip install {package}"
        )
    if quantization == "int8":
        from torchao.quantization import Int8WeightOnlyConfig
        from transformers import TorchAoConfig

        return TorchAoConfig(Int8WeightOnlyConfig())
    import torch
    from transformers import BitsAndBytesConfig

    if quantization == "bnb-8bit":
        return BitsAndBytesConfig(load_in_8bit=True)
    return BitsAndBytesConfig(
        load_in_4bit=True,
        bnb_4bit_quant_type="nf4",
        bnb_4bit_compute_dtype=torch.bfloat16,
        bnb_4bit_use_double_quant=True,
    )
