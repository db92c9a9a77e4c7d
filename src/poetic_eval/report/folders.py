"""Write a report folder whole: staged beside it and swapped in when complete.

A report is several files (report.json, report.md, figures/*.png, attachments such as the
demo's per-pair scores). They are written into a staging folder next to the report folder and
exchanged with it in one step (:func:`poetic_eval.files.atomic_folder`), so a run that is killed
or fails before the end leaves the previous report as it was: never new figures beside an old
report.json. Leftovers of killed runs are cleaned by the next run.

Only a report folder can be replaced: a new or empty folder, or one holding a poetic-eval
``report.json`` (its ``format``) and nothing but the report's own entries (:data:`REPORT_ENTRIES`,
the ``attachments`` the report lists, and in ``figures/`` only the figures its sections show).
Anything else is refused before any work is done.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..checks import typed_options
from ..errors import InvalidValueError
from ..files import (
    OutputLocationError,
    atomic_folder,
    check_not_current,
    check_output_folder,
    files_not_listed,
    recover_folder,
    shown_names,
)
from ..text import read_text_file

REPORT_FORMAT = "poetic-eval-report/1"
FIGURES_DIR = "figures"
#: The entries of every report folder; a report may list more as its ``attachments``.
REPORT_ENTRIES = frozenset({"report.json", "report.md", FIGURES_DIR})


def check_report_folder(out_dir: str | Path, argument: str = "out_dir") -> Path:
    """Check, before any work, that ``out_dir`` can be written as a report folder (new, empty,
    or a report folder written here); return it as an absolute Path.

    Raises:
        OutputLocationError: it cannot be written, or holds something other than a report.
    """
    out_dir = check_output_folder(Path(os.path.abspath(out_dir)), argument)
    check_not_current(out_dir, argument)
    recover_folder(out_dir)  # a report swap killed half-way leaves the old copy aside
    if not out_dir.is_dir():
        return out_dir
    entries = {entry.name for entry in out_dir.iterdir()}
    if not entries:
        return out_dir
    report = _own_report(out_dir)
    foreign = sorted(entries - REPORT_ENTRIES - set(_attachments(report or {})))
    if report is not None:
        foreign += _figures_not_in(report, out_dir)
    if foreign:
        reason = f"it holds {shown_names(foreign)}"
    elif "report.json" in entries:
        reason = "its report.json was not written by poetic-eval"
    else:
        reason = "it has no report.json"
    if report is None or foreign:
        raise OutputLocationError(
            f"{argument} {out_dir}: refusing to replace a folder that is not a poetic-eval "
            f"report, or holds files it did not write ({reason}); nothing was changed. Give a "
            "new or empty folder"
        )
    return out_dir


def _own_report(out_dir: Path) -> dict[str, Any] | None:
    """The report.json of ``out_dir`` when poetic-eval wrote it (its format), else None."""
    try:
        report = json.loads(read_text_file(out_dir / "report.json"))
    except (OSError, ValueError):
        return None
    if not isinstance(report, dict) or report.get("format") != REPORT_FORMAT:
        return None
    return report


def _attachments(report: dict[str, Any]) -> list[str]:
    """The ``attachments`` a report lists."""
    listed = report.get("attachments", [])
    return [name for name in listed if isinstance(name, str)] if isinstance(listed, list) else []


def _figures_not_in(report: dict[str, Any], out_dir: Path) -> list[str]:
    """Entries of ``figures/`` that none of the report's sections shows (someone else's)."""
    shown = {
        figure.get("path")
        for section in (report.get("sections") or {}).values()
        if isinstance(section, dict)
        for figure in section.get("figures", [])
        if isinstance(figure, dict)
    }
    return files_not_listed(out_dir, FIGURES_DIR, shown)


@typed_options
@contextmanager
def report_folder(
    out_dir: str | Path, *, keep: bool = False, argument: str = "out_dir"
) -> Iterator[Path]:
    """Yield a staging folder that replaces the report folder ``out_dir`` whole on success.

    With ``keep=True`` the staging folder starts as a copy of the existing report (to add a
    section or a file to it); otherwise it starts empty and the new report replaces the old
    one entirely. On any exception ``out_dir`` is left as it was.
    """
    out_dir = check_report_folder(out_dir, argument)
    with atomic_folder(out_dir) as staging:
        if keep and out_dir.is_dir():
            shutil.copytree(out_dir, staging, dirs_exist_ok=True)
        yield staging


def attach(report: dict[str, Any], name: str) -> dict[str, Any]:
    """Record that the report folder holds the file ``name`` (so a later run may replace it)."""
    # a bare file name only: a path with a folder or ".." could name a file outside the report
    if not isinstance(name, str) or not name or Path(name).name != name:
        raise InvalidValueError(
            f"an attachment is a file name inside the report folder, got {name!r}"
        )
    listed = report.setdefault("attachments", [])
    if name not in listed:
        listed.append(name)
    return report


def load_report_file(out_dir: str | Path) -> dict[str, Any]:
    """The report.json of a report folder, checked to be a poetic-eval report."""
    path = Path(out_dir) / "report.json"
    if not path.is_file():
        raise FileNotFoundError(f"no report.json in {out_dir}")
    try:
        report = json.loads(read_text_file(path))
    except json.JSONDecodeError as error:
        raise InvalidValueError(
            f"{path}: not valid JSON ({error.msg} at line {error.lineno})"
        ) from None
    if not isinstance(report, dict) or report.get("format") != REPORT_FORMAT:
        found = report.get("format") if isinstance(report, dict) else type(report).__name__
        raise InvalidValueError(f"{path} is not a {REPORT_FORMAT} report (format: {found})")
    return report
