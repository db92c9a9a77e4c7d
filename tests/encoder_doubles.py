"""A test double shared by the semantic, diversity and report tests: a cheap deterministic
sentence encoder (the real MiniLM is tested separately)."""

from __future__ import annotations

import hashlib

import numpy as np


class CountingEncoder:
    """Bag of hashed words -> vector; records every batch it was asked to encode."""

    def __init__(self, dim: int = 24, cache_key: str | None = "counting-encoder/v1") -> None:
        self.dim = dim
        self.cache_key = cache_key
        self.calls: list[list[str]] = []

    def encode(self, sentences, batch_size=32, show_progress_bar=None):
        self.calls.append(list(sentences))
        out = np.zeros((len(sentences), self.dim), dtype=np.float32)
        for row, sentence in enumerate(sentences):
            for word in sentence.lower().split():
                seed = int.from_bytes(hashlib.md5(word.encode()).digest()[:4], "little")
                out[row] += np.random.default_rng(seed).standard_normal(self.dim)
        return out

    @property
    def encoded_texts(self) -> int:
        return sum(len(call) for call in self.calls)
