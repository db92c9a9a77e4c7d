"""The small text samples the project writes and ships (for `make demo` and the seed builds)."""

from __future__ import annotations

from pathlib import Path

from .text import read_poems

SEED_DIR = Path(__file__).resolve().parent / "seed_data"


def seed_path(name: str) -> Path:
    """Path of a bundled seed file, e.g. ``seed_path("human_quatrains.txt")``."""
    path = SEED_DIR / name
    if not path.is_file():
        available = sorted(p.name for p in SEED_DIR.iterdir() if p.is_file())
        raise FileNotFoundError(f"no seed file {name!r}; available: {', '.join(available)}")
    return path


def seed_poems(name: str) -> list[str]:
    """Poems of a bundled blank-line-separated seed file."""
    return read_poems(seed_path(name))
