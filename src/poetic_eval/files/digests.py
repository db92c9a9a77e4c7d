"""Content digests: of files (the caches' manifests, the cards' provenance) and of text
sequences (the keys of the corpus caches)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path


def file_sha256(path: str | Path) -> str:
    """Hex SHA-256 of a file, read in 4 MiB blocks."""
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        while block := stream.read(1 << 22):
            digest.update(block)
    return digest.hexdigest()


def texts_sha256(texts: Iterable[str]) -> str:
    """Hex SHA-256 of ``texts`` in order, each length-prefixed UTF-8 (so ``["ab"]`` and
    ``["a", "b"]`` differ); lone surrogates are encoded as they are, not refused."""
    digest = hashlib.sha256()
    for text in texts:
        encoded = text.encode("utf-8", "surrogatepass")
        digest.update(len(encoded).to_bytes(8, "little"))
        digest.update(encoded)
    return digest.hexdigest()
