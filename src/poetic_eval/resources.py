"""Locate what the package ships besides code: metric modules, card templates, seed data.

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
from typing import Any

_PACKAGE_DIR = Path(__file__).resolve().parent
SEED_DIR = _PACKAGE_DIR / "seed_data"
# src layout: <checkout>/src/poetic_eval; an installed package has no "src" parent
_CHECKOUT_ROOT = _PACKAGE_DIR.parent.parent if _PACKAGE_DIR.parent.name == "src" else None


def _first_existing(*candidates: Path | None) -> Path:
    candidates = tuple(c for c in candidates if c is not None)
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(
        "poetic-eval resources not found; looked in: " + ", ".join(str(c) for c in candidates)
    )


def metrics_root() -> Path:
    """The folder holding one sub-folder per metric module."""
    return _first_existing(
        _CHECKOUT_ROOT and _CHECKOUT_ROOT / "metrics", _PACKAGE_DIR / "metric_modules"
    )


def cards_root() -> Path:
    """The folder holding the dataset-card templates."""
    return _first_existing(
        _CHECKOUT_ROOT and _CHECKOUT_ROOT / "cards", _PACKAGE_DIR / "card_templates"
    )


def available_metrics() -> list[str]:
    """Names of the metric modules shipped with this version, sorted."""
    root = metrics_root()
    return sorted(p.name for p in root.iterdir() if (p / f"{p.name}.py").is_file())


def metric_path(name: str) -> str:
    """Folder of the `evaluate` module called ``name``, for ``evaluate.load(metric_path(name))``.

    Raises ValueError listing the valid names when ``name`` is unknown.
    """
    folder = metrics_root() / name
    if not (folder / f"{name}.py").is_file():
        raise ValueError(
            f"unknown metric {name!r}; available metrics: {', '.join(available_metrics())}"
        )
    return str(folder)


def load_metric(name: str, **kwargs: Any):
    """``evaluate.load`` the named metric from its local folder (no hub access).

    Keyword arguments go to ``evaluate.load`` (e.g. ``num_process``, ``process_id``,
    ``experiment_id``, ``config_name``).
    """
    import evaluate

    return evaluate.load(metric_path(name), **kwargs)


def metric_class(name: str) -> type:
    """The ``evaluate`` module class of metric ``name``, imported as ``evaluate.load`` imports
    it (through evaluate's module cache). The pointers that make ``evaluate.load(name)`` work by
    bare name (:mod:`poetic_eval.bare_names`) call this."""
    from evaluate.loading import evaluation_module_factory, import_main_class

    return import_main_class(evaluation_module_factory(metric_path(name)).module_path)


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
    folder = _CHECKOUT_ROOT / "builders" if _CHECKOUT_ROOT is not None else None
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
