"""Locate the project's `evaluate` metric modules and card templates.

In a source checkout they live in ``<repo>/metrics`` and ``<repo>/cards``; in an installed
wheel they are shipped inside the package as ``poetic_eval/metric_modules`` and
``poetic_eval/card_templates`` (see ``pyproject.toml``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

_PACKAGE_DIR = Path(__file__).resolve().parent
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
    return _first_existing(_CHECKOUT_ROOT and _CHECKOUT_ROOT / "metrics", _PACKAGE_DIR / "metric_modules")


def cards_root() -> Path:
    """The folder holding the dataset-card templates."""
    return _first_existing(_CHECKOUT_ROOT and _CHECKOUT_ROOT / "cards", _PACKAGE_DIR / "card_templates")


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
