"""Check a model name or path and a torch device before loading anything, with clear errors.

Left to themselves, ``transformers`` and ``sentence-transformers`` answer a mistyped local
path with a hub repo-id error, an unknown name (offline) with a connection error, and a CUDA
device on a CPU-only torch with an ``AssertionError``; none names the argument. These checks
run first and say what is wrong and what to do.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..errors import InvalidValueError, ModelFileError
from ..files.user_errors import DeviceError, ModelNotFoundError

_PATH_STARTS = ("/", "./", "../", "~", ".\\", "..\\")
_CONFIG_FILES = ("config.json", "modules.json")


def check_model_source(
    model: str | os.PathLike, argument: str = "model", *, hub_prefixes: Sequence[str] = ()
) -> str:
    """Check that ``model`` is a local model folder or a hub name that can be loaded here;
    return it as a string (a local folder with ``~`` expanded).

    Offline (``HF_HUB_OFFLINE=1``), a hub name must be in the local Hugging Face cache.
    ``hub_prefixes`` are organisations a library tries before a bare name (sentence-transformers
    looks up ``all-MiniLM-L6-v2`` as ``sentence-transformers/all-MiniLM-L6-v2``).

    Raises:
        ModelNotFoundError: a missing folder, a file, a malformed name, or (offline) a name
            that is not cached.
    """
    name = os.fspath(model)
    if not isinstance(name, str) or not name.strip():
        raise InvalidValueError(f"{argument} must be a model name or a folder, got {model!r}")
    path = Path(name).expanduser()
    if path.is_dir():
        return str(path)
    if path.exists():
        raise ModelNotFoundError(
            f"{argument} {name} is a file; give the model's folder (with its config.json) "
            "or a Hugging Face model name"
        )
    if name.startswith(_PATH_STARTS) or name.endswith(("/", "\\")) or name.count("/") > 1:
        raise ModelNotFoundError(f"{argument} {name}: no such folder")
    from huggingface_hub.errors import HFValidationError
    from huggingface_hub.utils import validate_repo_id

    try:
        validate_repo_id(name)
    except HFValidationError:
        raise ModelNotFoundError(
            f"{argument} {name!r} is neither a local folder nor a valid Hugging Face model "
            "name (organisation/name)"
        ) from None
    candidates = [name] + ([f"{org}/{name}" for org in hub_prefixes] if "/" not in name else [])
    if _offline() and not any(_cached(candidate) for candidate in candidates):
        raise ModelNotFoundError(
            f"{argument} {name!r} is neither a local folder nor in the local Hugging Face "
            "cache, and the hub is off (HF_HUB_OFFLINE=1): give the path of a model folder, "
            "or download the model once where the network is allowed"
        )
    return name


def _offline() -> bool:
    from huggingface_hub import constants

    return bool(constants.HF_HUB_OFFLINE)


def _cached(repo_id: str) -> bool:
    from huggingface_hub import try_to_load_from_cache

    return any(isinstance(try_to_load_from_cache(repo_id, file), str) for file in _CONFIG_FILES)


# What the weight readers raise on a damaged file, by where it was read: safetensors'
# SafetensorError (not an OSError), torch.load's UnpicklingError under weights_only (the file
# holds objects other than tensors: refused, not run), and the zip and EOF errors of a
# truncated pytorch_model.bin.
_WEIGHT_FILES = {"safetensors": ("*.safetensors",), "pickle": ("*.bin", "*.pt", "*.pth")}


def _weights_problem(error: BaseException) -> tuple[str, str] | None:
    """(kind of file, reason) when ``error`` is a weight reader's, else None."""
    import pickle
    import zipfile

    from safetensors import SafetensorError

    if isinstance(error, SafetensorError):
        return "safetensors", " ".join(str(error).split())
    if isinstance(error, pickle.UnpicklingError):
        return "pickle", "it holds objects other than plain tensors, which are not loaded"
    if isinstance(error, (zipfile.BadZipFile, EOFError)) or (
        (isinstance(error, OSError) or "PytorchStreamReader" in str(error))
        and _raised_in_torch_load(error)
    ):  # torch's zip reader: EINVAL or "PytorchStreamReader failed" for a cut checkpoint
        return "pickle", "it is truncated or not a torch checkpoint"
    return None


def _raised_in_torch_load(error: BaseException) -> bool:
    import traceback

    frames = traceback.extract_tb(error.__traceback__)
    return any(
        Path(frame.filename).name == "serialization.py" and "torch" in frame.filename
        for frame in frames
    )


def _named_files(name: str, kind: str) -> str:
    """The weight files of ``kind`` in a local model folder, or the model's name."""
    folder = Path(name).expanduser()
    found = (
        sorted(str(p) for pattern in _WEIGHT_FILES[kind] for p in folder.glob(pattern))
        if folder.is_dir()
        else []
    )
    return ", ".join(found[:3]) + (", ..." if len(found) > 3 else "") if found else name


@contextmanager
def loading_model(name: str, argument: str = "model") -> Iterator[None]:
    """Turn the hub's and the loaders' ``OSError`` (not found, no connection, gated, broken
    files) into a :class:`ModelNotFoundError` that names the model and the argument, and a
    weights file the readers refuse (truncated safetensors, a pickle of other objects) into
    a :class:`ModelFileError` naming the file."""
    try:
        yield
    except ModelNotFoundError:
        raise
    except Exception as error:
        problem = _weights_problem(error)
        if problem is None and not isinstance(error, OSError):
            raise  # a bug, with its traceback
        if problem is not None:
            kind, reason = problem
            raise ModelFileError(
                f"{argument} {name!r}: the weights file {_named_files(name, kind)} cannot be "
                f"read ({reason}); nothing in it was run. Save or download the model again "
                "(safetensors format)"
            ) from error
        raise _not_found(name, argument, error) from error


def _not_found(name: str, argument: str, error: BaseException) -> ModelNotFoundError:
    reason = " ".join(str(error).split())
    reason = reason if len(reason) <= 300 else reason[:297] + "..."
    return ModelNotFoundError(
        f"{argument} {name!r} could not be loaded: {reason} (give the path of a model "
        "folder, or check the name and the network)"
    )


def check_device(device: Any, argument: str = "device") -> None:
    """Check that the torch ``device`` exists here (None: the library chooses).

    Raises:
        DeviceError: not a device name, or a device this machine or torch build lacks.
    """
    if device is None:
        return
    import torch

    try:
        parsed = torch.device(device)
    except (RuntimeError, TypeError, ValueError):
        raise DeviceError(
            f"{argument} {device!r} is not a torch device (cpu, cuda, cuda:1, mps, ...)"
        ) from None
    if parsed.type in ("cpu", "meta"):
        return
    if parsed.type == "cuda":
        _check_cuda(parsed, device, argument)
        return
    backend = getattr(torch.backends, parsed.type, None) or getattr(torch, parsed.type, None)
    available = getattr(backend, "is_available", None)
    if callable(available) and not available():
        raise DeviceError(
            f"{argument} {device!r} is not available on this machine; use {argument} cpu"
        )


def _check_cuda(parsed: Any, device: Any, argument: str) -> None:
    import torch

    if not torch.cuda.is_available():
        reason = (
            "this torch is a CPU-only build"
            if torch.version.cuda is None
            else "no CUDA GPU is visible"
        )
        raise DeviceError(f"{argument} {device!r} is not available: {reason}; use {argument} cpu")
    count = torch.cuda.device_count()
    if parsed.index is not None and parsed.index >= count:
        raise DeviceError(
            f"{argument} {device!r}: this machine has {count} CUDA device(s), "
            f"cuda:0 to cuda:{count - 1}"
        )
