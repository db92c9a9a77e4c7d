"""Safety of what poetic-eval writes and reads: atomic files and folders, checked output
locations, the user errors every command reports in one line, the cache root, and the card of a
built dataset folder parsed once (:class:`BuiltCard`, from :func:`read_built_card` or
:func:`find_built_card`) with its data files read as they are on disk
(:func:`load_built_config`).

The card and parquet readers need ``datasets``, ``huggingface_hub`` and ``pyarrow``: they are
imported when first used (``poetic_eval.files.BuiltCard``), not with this package, so that
the command line starts without them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .atomic_files import atomic_folder, atomic_path, recover_folder, write_text_atomically
from .cache_paths import cache_root
from .digests import file_sha256, texts_sha256
from .output_locations import (
    check_not_current,
    check_output_file,
    check_output_folder,
    files_not_listed,
    refuse_links,
    shown_names,
)
from .user_errors import (
    USER_ERRORS,
    DeviceError,
    LinkRefusedError,
    ModelNotFoundError,
    OutputLocationError,
    OutputWriteError,
    UserError,
    describe_error,
)

if TYPE_CHECKING:
    from .dataset_cards import BuiltCard, CardConfig, find_built_card, load_card, read_built_card
    from .parquet_files import load_built_config

# name -> its module, imported on first use (PEP 562)
_LAZY = {
    "BuiltCard": "dataset_cards",
    "CardConfig": "dataset_cards",
    "find_built_card": "dataset_cards",
    "load_card": "dataset_cards",
    "read_built_card": "dataset_cards",
    "load_built_config": "parquet_files",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "USER_ERRORS",
    "BuiltCard",
    "CardConfig",
    "DeviceError",
    "LinkRefusedError",
    "ModelNotFoundError",
    "OutputLocationError",
    "OutputWriteError",
    "UserError",
    "atomic_folder",
    "atomic_path",
    "cache_root",
    "check_not_current",
    "check_output_file",
    "check_output_folder",
    "describe_error",
    "file_sha256",
    "files_not_listed",
    "find_built_card",
    "load_built_config",
    "load_card",
    "read_built_card",
    "recover_folder",
    "refuse_links",
    "shown_names",
    "texts_sha256",
    "write_text_atomically",
]
