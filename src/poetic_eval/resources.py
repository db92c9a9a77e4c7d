"""Locate what the package ships besides code: card templates, seed data, dataset builders
(the metric modules: :mod:`poetic_eval.evaluate_modules.locations`).

In a source checkout the metric modules, card templates and dataset builders live in
``<repo>/metrics``, ``<repo>/cards`` and ``<repo>/builders``; in an installed wheel they are
shipped inside the package as ``poetic_eval/metric_modules``, ``poetic_eval/card_templates``
and ``poetic_eval/builders`` (see ``pyproject.toml``), so no top-level ``builders`` package is
installed.
The seed data (the small texts, lexicons and grammars the project writes itself) is package
data in both: ``poetic_eval/seed_data``.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

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
        raise FileNotFoundError(f"no seed file {name!r}; available: {', '.join(available)}")
    return path


def seed_poems(name: str) -> list[str]:
    """Poems of a bundled blank-line-separated seed file."""
    from .text import read_poem_blocks

    return read_poem_blocks(seed_path(name))


def builders_package() -> ModuleType:
    """The dataset builders' package (registry ``BUILDERS``, ``command_line``).

    Installed: ``poetic_eval.builders``. In a source checkout: the checkout's ``builders/``
    folder, imported as ``builders`` (the name ``python -m builders`` gives it), once.
    """
    if importlib.util.find_spec(f"{__package__}.builders") is not None:
        return importlib.import_module(f"{__package__}.builders")
    folder = CHECKOUT_ROOT / "builders" if CHECKOUT_ROOT is not None else None
    if folder is None or not (folder / "__init__.py").is_file():
        raise FileNotFoundError("poetic-eval's dataset builders are missing from this install")
    loaded = sys.modules.get("builders")
    if loaded is not None and Path(loaded.__file__).resolve().parent == folder:
        return loaded
    spec = importlib.util.spec_from_file_location(
        "builders", folder / "__init__.py", submodule_search_locations=[str(folder)]
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules["builders"] = module
    spec.loader.exec_module(module)
    return module


def builders_command_line() -> ModuleType:
    """The builders' command line module (``python -m builders`` / ``poetic-eval build``)."""
    package = builders_package()
    return importlib.import_module(f"{package.__name__}.command_line")
