"""Sentence embeddings of a reference corpus kept on disk, so a corpus is encoded once."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np

from ..files import OutputWriteError, atomic_path, cache_root


class EmbeddingCache:
    """Arrays on disk under ``directory/embeddings``, written atomically (temp file + rename)."""

    def __init__(self, directory: str | Path | None = None) -> None:
        self.directory = Path(directory) if directory is not None else cache_root()

    def path(self, key: str, kind: str) -> Path:
        return self.directory / "embeddings" / f"{key}.{kind}.npy"

    def load(self, key: str, kind: str, rows: int) -> np.ndarray | None:
        """The stored array, or None when absent, unreadable or of the wrong length."""
        path = self.path(key, kind)
        try:
            array = np.load(path, allow_pickle=False)
        except (OSError, ValueError):
            return None
        return array if array.shape[0] == rows else None

    def save(self, key: str, kind: str, array: np.ndarray) -> None:
        """Store ``array``; a cache that cannot be written (read-only, full) only warns: the
        result does not depend on it."""
        path = self.path(key, kind)
        try:
            with atomic_path(path) as staging, open(staging, "wb") as stream:
                np.save(stream, array, allow_pickle=False)
        except OutputWriteError as error:
            warnings.warn(
                f"embedding cache not written ({error}); set POETIC_EVAL_CACHE or cache_dir "
                "to a writable folder, or cache=False",
                stacklevel=3,
            )
