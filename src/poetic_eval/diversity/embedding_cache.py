"""Sentence embeddings of a reference corpus kept on disk, so a corpus is encoded once.

Each entry is an :class:`~poetic_eval.files.array_cache.ArrayCache` file: its shape, dtype and
checksum are checked when it is read, and so are what the caller expects of it (the corpus's
row count, the encoder's width, finite values); a file that fails is named in one line and
rebuilt.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import numpy as np

from ..files.array_cache import ArrayCache


class EmbeddingCache:
    """Arrays (embeddings, within-corpus maxima) under ``directory/embeddings``."""

    def __init__(self, directory: str | Path | None = None) -> None:
        self.store = ArrayCache("embeddings", directory)

    def load(self, key: str, kind: str, rows: int, width: int | None = None) -> np.ndarray | None:
        """The stored array, or None when absent or unusable (corrupted, not ``rows`` long,
        not ``width`` wide, NaN or infinite values; those are named in a warning)."""

        def check(arrays: Mapping[str, np.ndarray]) -> str | None:
            values = arrays["values"]
            if values.shape[0] != rows:
                return f"of {values.shape[0]} rows where the corpus has {rows}"
            if width is not None and (values.ndim != 2 or values.shape[1] != width):
                return f"of shape {values.shape} where the encoder gives vectors of {width}"
            if not np.isfinite(values).all():
                return "holding NaN or infinite values"
            return None

        stored = self.store.load(key, kind, check)
        return None if stored is None else stored["values"]

    def save(self, key: str, kind: str, array: np.ndarray) -> None:
        """Store ``array`` (atomically; an unwritable cache only warns)."""
        self.store.save(key, kind, {"values": array})
