"""The one user cache folder of poetic-eval (converted models, embeddings, WordNet copy)."""

from __future__ import annotations

import os
from pathlib import Path


def cache_root() -> Path:
    """The cache folder: ``$POETIC_EVAL_CACHE``, else ``$XDG_CACHE_HOME/poetic_eval``, else
    ``~/.cache/poetic_eval``."""
    explicit = os.environ.get("POETIC_EVAL_CACHE")
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base).expanduser() / "poetic_eval"
