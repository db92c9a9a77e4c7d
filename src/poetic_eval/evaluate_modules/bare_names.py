"""Write and remove the pointers that make ``evaluate.load("<name>")`` find this package's
metrics by their bare names (how, and why pointers: :mod:`poetic_eval.evaluate_modules`)."""

from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import dataclass
from pathlib import Path

from .locations import available_metrics, metric_path

#: The namespace evaluate tries first for a bare name; its cache folders are ``<ns>--<name>``.
CANONICAL_NAMESPACE = "evaluate-metric"
#: In every pointer this package writes (and only there): what :func:`remove_metrics` deletes.
POINTER_MARKER = "poetic-eval pointer module"

_POINTER_TEMPLATE = '''"""{marker} for `evaluate.load("{name}")`.

Written by `poetic-eval install-metrics` into evaluate's module cache. It points at the `{name}`
module the installed poetic-eval ships, so it follows upgrades. Delete this folder to undo.
"""

try:
    from poetic_eval.evaluate_modules.locations import metric_class
except ImportError as error:
    raise ImportError(
        "evaluate.load({name!r}) found poetic-eval's pointer in " + __file__
        + ", but poetic-eval is not installed in this Python: pip install poetic-eval, "
        "or delete that folder"
    ) from error

PoeticEvalMetric = metric_class({name!r})
'''


#: In every guard this package writes: the ``__init__.py`` of a pointer's version folder.
GUARD_MARKER = "poetic-eval pointer guard"
#: Version folders being deleted are first renamed to ``.<digest>.removing-<pid>``.
_REMOVING = "removing"

# evaluate imports the version folder's package before the pointer in it: this guard checks
# that the pointer is the one written here (its folder is named by its sha256), so a damaged
# pointer is an error naming the cache and what to do, not a SyntaxError or a TypeError.
_GUARD_TEMPLATE = '''"""{marker}: checks the pointer beside it before evaluate imports it."""

import hashlib as _hashlib
import os as _os

_folder = _os.path.dirname(_os.path.abspath(__file__))
_pointer = _os.path.join(_folder, "{name}.py")
try:
    with open(_pointer, "rb") as _stream:
        _digest = _hashlib.sha256(_stream.read()).hexdigest()
except OSError:
    _digest = None
if _digest != _os.path.basename(_folder):
    raise ImportError(
        "poetic-eval's pointer for evaluate.load({name!r}), " + _pointer + ", in evaluate's "
        "module cache is damaged or missing: run `poetic-eval install-metrics` to rewrite it, "
        "or delete " + _os.path.dirname(_folder)
    )
'''


@dataclass(frozen=True)
class InstalledMetric:
    """One bare name made loadable: the pointer file and the module it points at."""

    name: str
    pointer: Path
    module_folder: str


def pointer_source(name: str) -> str:
    """The text of the pointer module for metric ``name``."""
    return _POINTER_TEMPLATE.format(marker=POINTER_MARKER, name=name)


def metrics_cache_dir(modules_cache: str | Path | None = None) -> Path:
    """evaluate's cache folder of metric modules, ``<modules cache>/evaluate_modules/metrics``.

    ``modules_cache`` None means evaluate's own (``$HF_MODULES_CACHE``, by default
    ``~/.cache/huggingface/modules``). The folders are created as evaluate creates them (each
    a package), but unlike evaluate this does not add the cache to ``sys.path``: a process
    must import ``evaluate_modules`` from one cache only.
    """
    from evaluate import config

    root = Path(modules_cache if modules_cache is not None else config.HF_MODULES_CACHE)
    metrics = root / config.MODULE_NAME_FOR_DYNAMIC_MODULES / "metrics"
    metrics.mkdir(parents=True, exist_ok=True)
    for package in (root, metrics.parent, metrics):
        (package / "__init__.py").touch(exist_ok=True)
    return metrics


def install_metrics(
    names: list[str] | None = None, *, modules_cache: str | Path | None = None
) -> list[InstalledMetric]:
    """Write evaluate's cache entry for each metric (all by default); return what was written.

    Idempotent; the pointer is rewritten each time, so that it is the newest entry of its
    name, which is the one evaluate picks.
    """
    names = available_metrics() if names is None else list(names)
    modules = {name: metric_path(name) for name in names}  # ValueError naming the valid ones
    root = metrics_cache_dir(modules_cache)
    return [_install_one(root, name, module) for name, module in modules.items()]


def _install_one(root: Path, name: str, module: str) -> InstalledMetric:
    from ..files import write_text_atomically

    source = pointer_source(name)
    folder = root / f"{CANONICAL_NAMESPACE}--{name}"
    digest = hashlib.sha256(source.encode("utf-8")).hexdigest()  # 64 hex digits, as evaluate's
    version_dir = folder / digest
    version_dir.mkdir(parents=True, exist_ok=True)
    (folder / "__init__.py").touch(exist_ok=True)
    pointer = version_dir / f"{name}.py"
    cache = {"links_refused_under": root}  # a link in evaluate's cache was planted: refused
    write_text_atomically(pointer, source, **cache)
    write_text_atomically(
        version_dir / "__init__.py", _GUARD_TEMPLATE.format(marker=GUARD_MARKER, name=name), **cache
    )
    meta = {"original file path": module, "local file path": str(pointer)}
    write_text_atomically(version_dir / f"{name}.json", json.dumps(meta), **cache)
    return InstalledMetric(name, pointer, module)


def installed_pointer(name: str, *, modules_cache: str | Path | None = None) -> Path | None:
    """The pointer evaluate would pick for bare ``name`` when offline, if it is ours."""
    folder = metrics_cache_dir(modules_cache) / f"{CANONICAL_NAMESPACE}--{name}"
    candidates = [p / f"{name}.py" for p in folder.glob("*") if len(p.name) == 64]
    candidates = [p for p in candidates if p.is_file()]
    if not candidates:
        return None
    newest = max(candidates, key=lambda path: path.stat().st_mtime)
    return newest if _is_ours(newest) else None


def remove_metrics(*, modules_cache: str | Path | None = None) -> list[Path]:
    """Delete every cache entry this package wrote (only those); return the folders deleted.

    Each version folder is renamed aside (``.<digest>.removing-<pid>``, which evaluate does
    not read) before it is deleted, so a removal that is killed leaves nothing evaluate would
    load, and the next removal finishes it: a folder half deleted is still recognised.
    """
    import os

    removed = []
    for folder in sorted(metrics_cache_dir(modules_cache).glob(f"{CANONICAL_NAMESPACE}--*")):
        name = folder.name.split("--", 1)[1]
        for leftover in folder.glob(f".*.{_REMOVING}-*"):  # of a removal that was killed
            shutil.rmtree(leftover, ignore_errors=True)
        for version_dir in sorted(p for p in folder.iterdir() if p.is_dir()):
            if _is_our_version(version_dir, name):
                aside = folder / f".{version_dir.name}.{_REMOVING}-{os.getpid()}"
                os.replace(version_dir, aside)
                shutil.rmtree(aside)
                removed.append(version_dir)
        if not any(p.is_dir() for p in folder.iterdir()):
            shutil.rmtree(folder)
    return removed


def _is_our_version(version_dir: Path, name: str) -> bool:
    """Whether a version folder is one this package wrote: its pointer or its guard holds
    the marker, or its name is the digest of this version's pointer (a folder whose files were
    partly deleted or damaged)."""
    digest = hashlib.sha256(pointer_source(name).encode("utf-8")).hexdigest()
    guard = version_dir / "__init__.py"
    return (
        _is_ours(version_dir / f"{name}.py")
        or version_dir.name == digest
        or (guard.is_file() and GUARD_MARKER in guard.read_text(encoding="utf-8", errors="replace"))
    )


def _is_ours(pointer: Path) -> bool:
    """Whether ``pointer`` is a module this package wrote (it holds :data:`POINTER_MARKER`)."""
    return pointer.is_file() and POINTER_MARKER in pointer.read_text(
        encoding="utf-8", errors="replace"
    )
