"""Safety of what poetic-eval writes and caches: atomic files and folders, checked output
locations, the user errors every command reports in one line, and the cache root."""

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

__all__ = [
    "USER_ERRORS",
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
    "recover_folder",
    "refuse_links",
    "shown_names",
    "texts_sha256",
    "write_text_atomically",
]
