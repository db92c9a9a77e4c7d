"""Arrays kept on disk between processes, each file checked when it is read back.

A cache file is one ``.npz`` (no pickles) holding the arrays and a manifest: the shape, dtype
and SHA-256 of every array. A file is written to a temporary name and renamed into place, so
two processes that write the same entry at once each leave a complete file, and a reader
never sees half of one. A file that is unreadable, whose arrays do not match their manifest,
or that fails the caller's own check (NaN vectors, a wrong width) is reported in one line that
names it and how to clear the cache, and the caller computes the entry again. A cache entry
(or a folder on its way) that is a symbolic link was not made here: it is neither read nor
written through (what it points at stays as it was), and one warning names it.
"""

from __future__ import annotations

import hashlib
import json
import warnings
import zipfile
from collections.abc import Callable, Mapping
from pathlib import Path

import numpy as np

from ..errors import CacheFileWarning
from .atomic_files import atomic_path
from .cache_paths import cache_root
from .output_locations import refuse_links
from .user_errors import LinkRefusedError, OutputWriteError

# Written into every manifest and compared on reading: bump it when the file layout changes,
# so old files are recomputed rather than misread.
_FORMAT = "poetic-eval-array-cache/v1"
_MANIFEST = "manifest"

#: A caller's check of what it reads: None if the arrays are usable, else why not.
ArrayCheck = Callable[[Mapping[str, np.ndarray]], "str | None"]


def array_checksum(array: np.ndarray) -> str:
    """SHA-256 of the array's bytes in C order."""
    return hashlib.sha256(np.ascontiguousarray(array).data).hexdigest()


class ArrayCache:
    """Named arrays per key under ``directory/folder`` (default folder of
    :func:`~poetic_eval.text.cache_root`)."""

    def __init__(self, folder: str, directory: str | Path | None = None) -> None:
        self.root = Path(directory) if directory is not None else cache_root()
        self.directory = self.root / folder

    def path(self, key: str, kind: str) -> Path:
        return self.directory / f"{key}.{kind}.npz"

    def load(
        self, key: str, kind: str, check: ArrayCheck | None = None
    ) -> dict[str, np.ndarray] | None:
        """The stored arrays; None when absent, or (with a :class:`CacheFileWarning`) when
        corrupted or refused by ``check``."""
        path = self.path(key, kind)
        try:
            refuse_links(path, self.root)  # a planted link is not read (save names it)
        except LinkRefusedError:
            return None
        if not path.exists():
            return None
        try:
            arrays = _read(path)
            problem = _manifest_problem(arrays) or (check(arrays) if check else None)
        except (
            OSError,
            ValueError,
            KeyError,
            zipfile.BadZipFile,
            EOFError,
            # json.loads of a deeply nested manifest raises RecursionError
            RecursionError,
        ) as error:
            arrays, problem = {}, f"unreadable ({type(error).__name__}: {error})"
        if problem is None:
            arrays.pop(_MANIFEST)
            return arrays
        warnings.warn(
            f"cache file {path} is {problem}; it is rebuilt now (to clear the cache, delete "
            f"{self.root} or set POETIC_EVAL_CACHE to another folder)",
            CacheFileWarning,
            stacklevel=3,
        )
        return None

    def save(self, key: str, kind: str, arrays: Mapping[str, np.ndarray]) -> None:
        """Store ``arrays`` atomically; a cache that cannot be written (read-only, full) only
        warns: results do not depend on it."""
        manifest = {
            "format": _FORMAT,
            "arrays": {
                name: {
                    "shape": list(array.shape),
                    "dtype": array.dtype.str,
                    "sha256": array_checksum(array),
                }
                for name, array in arrays.items()
            },
        }
        path = self.path(key, kind)
        try:
            with (
                atomic_path(path, links_refused_under=self.root) as staging,
                open(staging, "wb") as stream,
            ):
                # an open stream, not the path: np.savez appends ".npz" to a name without it, and
                # would write beside the staging file instead of into it
                np.savez(stream, **arrays, **{_MANIFEST: np.array(json.dumps(manifest))})
        except (OutputWriteError, LinkRefusedError) as error:
            warnings.warn(
                f"{self.directory.name} cache not written ({error}); set POETIC_EVAL_CACHE "
                "(or cache_dir) to a writable folder",
                stacklevel=3,
            )


def _read(path: Path) -> dict[str, np.ndarray]:
    with open(path, "rb") as stream, np.load(stream, allow_pickle=False) as stored:
        return {name: stored[name] for name in stored.files}


def _well_formed(entries: object) -> bool:
    """Whether a manifest's ``arrays`` is ``{name: {"shape": [int], "dtype": str, "sha256":
    str}}`` (valid JSON of another shape must be rebuilt, not crash the reader)."""
    if not isinstance(entries, dict):
        return False
    for entry in entries.values():
        if not isinstance(entry, dict):
            return False
        shape = entry.get("shape")
        # type() is int, not isinstance: true and false are ints to Python
        if not isinstance(shape, list) or not all(type(size) is int for size in shape):
            return False
        if not (isinstance(entry.get("dtype"), str) and isinstance(entry.get("sha256"), str)):
            return False
    return True


def _manifest_problem(arrays: dict[str, np.ndarray]) -> str | None:
    """Why the arrays do not match their manifest, or None."""
    if _MANIFEST not in arrays:
        return "missing its manifest"
    manifest = json.loads(str(arrays[_MANIFEST]))
    if not isinstance(manifest, dict) or manifest.get("format") != _FORMAT:
        found = manifest.get("format") if isinstance(manifest, dict) else type(manifest).__name__
        return f"of an unknown format {found!r}"
    expected = manifest.get("arrays")
    if not _well_formed(expected):
        return "holding a manifest of another shape (not shape, dtype and sha256 per array)"
    found = set(arrays) - {_MANIFEST}
    if found != set(expected):
        return f"holding arrays {sorted(found)} instead of {sorted(expected)}"
    for name, entry in expected.items():
        array = arrays[name]
        # dtype.str carries the byte order ("<f4"), so a file of the other order is caught too
        if list(array.shape) != entry["shape"] or array.dtype.str != entry["dtype"]:
            return (
                f"corrupted: {name} is {array.dtype.str} {list(array.shape)}, its manifest "
                f"says {entry['dtype']} {entry['shape']}"
            )
        if array_checksum(array) != entry["sha256"]:
            return f"corrupted: the checksum of {name} does not match its manifest"
    return None
