"""Locate what the package ships besides code: card templates and seed data (the metric
modules: :mod:`poetic_eval.evaluate_modules.locations`).

In a source checkout the metric modules and card templates live in ``<repo>/metrics`` and
``<repo>/cards``; in an installed wheel they are shipped inside the package as
``poetic_eval/metric_modules`` and ``poetic_eval/card_templates`` (see ``pyproject.toml``).
The dataset builders are the package :mod:`poetic_eval.builders` in both: the checkout's
``builders/`` folder, reached through the link ``src/poetic_eval/builders``, and copied into
the wheel (so no top-level ``builders`` package is installed).
The seed data (the small texts, lexicons and grammars the project writes itself) is package
data in both: ``poetic_eval/seed_data``.
"""

from __future__ import annotations

from pathlib import Path

from .checks.names import unknown_name_message

PACKAGE_DIR = Path(__file__).resolve().parent
SEED_DIR = PACKAGE_DIR / "seed_data"
# src layout: <checkout>/src/poetic_eval; an installed package has no "src" parent
CHECKOUT_ROOT = PACKAGE_DIR.parent.parent if PACKAGE_DIR.parent.name == "src" else None


def first_existing(*candidates: Path | None) -> Path:
    candidates = tuple(c for c in candidates if c is not None)
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(
        "poetic-eval resources not found; looked in: " + ", ".join(str(c) for c in candidates)
    )


def cards_root() -> Path:
    """The folder holding the dataset-card templates."""
    return first_existing(CHECKOUT_ROOT and CHECKOUT_ROOT / "cards", PACKAGE_DIR / "card_templates")


def seed_path(name: str) -> Path:
    """Path of a bundled seed file, e.g. ``seed_path("human_quatrains.txt")``."""
    path = SEED_DIR / name
    if not path.is_file():
        available = sorted(p.name for p in SEED_DIR.iterdir() if p.is_file())
        raise FileNotFoundError(unknown_name_message(name, available, "seed file"))
    return path


def seed_poems(name: str) -> list[str]:
    """Poems of a bundled blank-line-separated seed file."""
    from .text import read_poem_blocks

    return read_poem_blocks(seed_path(name))
