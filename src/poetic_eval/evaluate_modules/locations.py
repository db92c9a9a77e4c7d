"""Locate and load this package's `evaluate` modules: one folder per metric, ``<repo>/metrics``
in a source checkout, ``poetic_eval/metric_modules`` in an installed wheel."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..checks.names import unknown_name_message
from ..errors import InvalidValueError
from ..resources import CHECKOUT_ROOT, PACKAGE_DIR, first_existing


def metrics_root() -> Path:
    """The folder holding one sub-folder per metric module."""
    return first_existing(
        CHECKOUT_ROOT and CHECKOUT_ROOT / "metrics", PACKAGE_DIR / "metric_modules"
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
        raise InvalidValueError(unknown_name_message(name, available_metrics(), "metric"))
    return str(folder)


def load_metric(name: str, **kwargs: Any):
    """``evaluate.load`` the named metric from its local folder (no hub access).

    Keyword arguments go to ``evaluate.load`` (e.g. ``num_process``, ``process_id``,
    ``experiment_id``, ``config_name``).
    """
    _import_evaluate_quietly()
    import evaluate

    return evaluate.load(metric_path(name), **kwargs)


def metric_class(name: str) -> type:
    """The ``evaluate`` module class of metric ``name``, imported as ``evaluate.load`` imports
    it (through evaluate's module cache). The pointers that make ``evaluate.load(name)`` work by
    bare name (:mod:`poetic_eval.evaluate_modules.bare_names`) call this."""
    _import_evaluate_quietly()
    from evaluate.loading import evaluation_module_factory, import_main_class

    return import_main_class(evaluation_module_factory(metric_path(name)).module_path)


def _import_evaluate_quietly() -> None:
    # evaluate imports transformers' model base, which imports torchao where it is installed
    # (the quantization extra) and logs its CPU build's "Failed to load" lines; importing that
    # base first with those lines dropped costs nothing, as evaluate imports it anyway
    from ..lm.quiet_imports import import_transformers_quietly

    import_transformers_quietly()
