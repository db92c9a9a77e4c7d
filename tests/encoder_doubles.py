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


class WordTokenizer:
    """One word piece per word, [CLS] and [SEP] around a text (what a sentence encoder's
    tokenizer is asked for when counting truncated poems)."""

    def __call__(self, texts, add_special_tokens=True, verbose=True):
        single = isinstance(texts, str)
        ids = [
            [0] * (2 * add_special_tokens) + list(range(len(text.split())))
            for text in ([texts] if single else texts)
        ]
        return {"input_ids": ids[0] if single else ids}

    def num_special_tokens_to_add(self, pair=False):
        return 2
