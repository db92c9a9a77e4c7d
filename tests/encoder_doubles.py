"""Test doubles shared by the semantic, diversity and report tests: a cheap deterministic
sentence encoder and generators of random poems (the real MiniLM is tested separately)."""

from __future__ import annotations

import hashlib
import random

import numpy as np

WORDS = [
    "sea",
    "moon",
    "night",
    "heart",
    "rose",
    "grave",
    "wind",
    "stone",
    "light",
    "river",
    "dream",
    "bird",
    "fire",
    "winter",
    "gold",
    "shadow",
    "song",
    "tree",
    "rain",
    "star",
    "sleep",
    "dust",
    "bell",
    "field",
    "hand",
    "road",
    "glass",
    "thorn",
    "salt",
]

RHYME_GROUPS = [
    ["night", "light", "bright", "sight", "flight"],
    ["day", "way", "play", "stay", "grey"],
    ["sea", "free", "tree", "knee", "plea"],
    ["moon", "soon", "tune", "june", "noon"],
    ["rain", "pain", "lane", "plain", "chain"],
    ["cold", "gold", "old", "told", "fold"],
]
SCHEMES = ["AABB", "ABAB", "ABBA", "ABCB", "ABCD", "AAAA", "AABA"]


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


def random_poems(rng: random.Random, count: int, lines: int = 4) -> list[str]:
    """Poems of random words (no rhyme to speak of)."""
    return [
        "\n".join(" ".join(rng.choices(WORDS, k=rng.randint(3, 7))) for _ in range(lines))
        for _ in range(count)
    ]


def rhyming_quatrains(rng: random.Random, count: int) -> list[str]:
    """Quatrains with a random scheme whose line-final words come from rhyme groups."""
    poems = []
    for _ in range(count):
        scheme = rng.choice(SCHEMES)
        groups = rng.sample(RHYME_GROUPS, len(set(scheme)))
        chosen = {letter: list(groups[i]) for i, letter in enumerate(sorted(set(scheme)))}
        for words in chosen.values():
            rng.shuffle(words)
        lines = []
        for letter in scheme:
            body = " ".join(rng.choices(WORDS, k=rng.randint(2, 6)))
            lines.append(f"{body} {chosen[letter].pop()}")
        poems.append("\n".join(lines))
    return poems
