"""The diversity report: report.json, report.md and PNG figures, generated next to human.

A report is a JSON-serializable dict (format ``REPORT_FORMAT``)::

    {"format", "title", "poetic_eval_version", "inputs", "settings", "scores",
     "sections": {key: {"title", "text", "tables": [{"columns", "rows", "caption"}],
                        "figures": [{"path", "caption"}]}}}

``report.md`` is always rendered from ``report.json`` by :func:`render_markdown`, so other code
can add its own section to an existing report with :func:`append_section` (e.g. the demo adds
minimal-pair accuracy tables) and both files stay consistent. Figure paths are relative to the
report folder. A report folder is always written whole, staged and swapped in
(:mod:`poetic_eval.report.folders`): an interrupted run leaves the previous report.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .. import __version__
from ..errors import InvalidTypeError, InvalidValueError
from .folders import REPORT_FORMAT, load_report_file, report_folder


@dataclass
class Table:
    """A table of a report section; cells are numbers, strings or None."""

    columns: list[str]
    rows: list[list[Any]]
    caption: str = ""


@dataclass
class Section:
    """One section of a report: prose, tables and figures (paths relative to the report)."""

    title: str
    text: str = ""
    tables: list[Table] = field(default_factory=list)
    figures: list[dict[str, str]] = field(default_factory=list)


def new_report(
    title: str,
    *,
    inputs: dict[str, Any] | None = None,
    settings: dict[str, Any] | None = None,
    scores: dict[str, Any] | None = None,
    description: str = "",
) -> dict[str, Any]:
    """An empty report (no sections yet)."""
    return {
        "format": REPORT_FORMAT,
        "title": title,
        "description": description,
        "poetic_eval_version": __version__,
        "inputs": inputs or {},
        "settings": settings or {},
        "scores": _json_safe(scores or {}),
        "sections": {},
    }


def add_section(report: dict[str, Any], key: str, section: Section | dict[str, Any]) -> dict:
    """Add (or replace) section ``key`` of an in-memory report and return the report."""
    if not isinstance(key, str) or not key:
        raise InvalidValueError("a section key must be a non-empty string")
    content = asdict(section) if isinstance(section, Section) else dict(section)
    if not isinstance(content.get("title"), str):
        raise InvalidTypeError(f"section {key!r} needs a string 'title'")
    content.setdefault("text", "")
    content.setdefault("tables", [])
    content.setdefault("figures", [])
    for index, table in enumerate(content["tables"]):
        _check_table(table, f"section {key!r} table {index}")
    report["sections"][key] = _json_safe(content)
    return report


def add_scores(report: dict[str, Any], scores: dict[str, Any], prefix: str = "") -> dict:
    """Add ``scores`` to an in-memory report's scores, each name behind ``prefix``."""
    report["scores"].update({f"{prefix}{k}": v for k, v in _json_safe(scores).items()})
    return report


def _check_table(table: dict[str, Any], where: str) -> None:
    columns = table.get("columns")
    if not isinstance(columns, list) or not columns:
        raise InvalidValueError(f"{where}: 'columns' must be a non-empty list")
    for number, row in enumerate(table.get("rows", [])):
        if len(row) != len(columns):
            raise InvalidValueError(
                f"{where}: row {number} has {len(row)} cells, expected {len(columns)}"
            )


def _json_safe(value: Any) -> Any:
    """Plain JSON types; non-finite floats become the strings "nan", "inf", "-inf"."""
    if isinstance(value, dict):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_safe(v) for v in value]
    # bool before int and float: True is an int (and has __float__) but must stay true, not 1
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return int(value)
    # numpy and torch scalars have __float__; non-finite values become strings, as NaN and
    # Infinity are not JSON
    if isinstance(value, float) or hasattr(value, "__float__"):
        number = float(value)
        return number if math.isfinite(number) else str(number)
    return str(value)


def _cell(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return f"{value:.4g}"
    # a bare "|" would end the cell and a newline the row of a Markdown table
    return str(value).replace("|", "\\|").replace("\n", " ")


def _markdown_table(table: dict[str, Any]) -> list[str]:
    out = []
    if table.get("caption"):
        out += [f"*{table['caption']}*", ""]
    out.append("| " + " | ".join(_cell(c) for c in table["columns"]) + " |")
    out.append("|" + "|".join("---" for _ in table["columns"]) + "|")
    out += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in table["rows"]]
    return out + [""]


def render_markdown(report: dict[str, Any]) -> str:
    """report.md for a report dict: title, inputs, settings, every section, all scores."""
    out = [f"# {report['title']}", ""]
    for side, about in report.get("inputs", {}).items():
        out.append(f"- **{side}**: " + ", ".join(f"{k}: {_cell(v)}" for k, v in about.items()))
    settings = report.get("settings", {})
    if settings:
        out.append("- **settings**: " + ", ".join(f"{k}: {_cell(v)}" for k, v in settings.items()))
    out += [f"- poetic-eval {report.get('poetic_eval_version', '?')}", ""]
    if report.get("description"):
        out += [report["description"], ""]
    for section in report["sections"].values():
        out += [f"## {section['title']}", ""]
        if section.get("text"):
            out += [section["text"], ""]
        for table in section.get("tables", []):
            out += _markdown_table(table)
        for figure in section.get("figures", []):
            out += [f"![{figure.get('caption', '')}]({figure['path']})", ""]
    if report.get("scores"):
        out += ["<details><summary>All scores</summary>", ""]
        rows = [[k, v] for k, v in report["scores"].items()]
        out += _markdown_table({"columns": ["score", "value"], "rows": rows})
        out += ["</details>", ""]
    return "\n".join(out)


def write_report_files(report: dict[str, Any], folder: str | Path) -> dict[str, Any]:
    """Write report.json and report.md (rendered from it) into ``folder`` as they are: for a
    staging folder of :func:`~poetic_eval.report.folders.report_folder`."""
    folder = Path(folder)
    (folder / "report.json").write_text(
        json.dumps(report, indent=2, ensure_ascii=False), encoding="utf-8"
    )
    (folder / "report.md").write_text(render_markdown(report), encoding="utf-8")
    return report


def save_report(report: dict[str, Any], out_dir: str | Path) -> dict[str, Any]:
    """Write report.json and report.md into the report folder ``out_dir``, keeping its figures
    and attachments; the folder is replaced whole, so it is never half-updated."""
    with report_folder(out_dir, keep=True) as staging:
        write_report_files(report, staging)
    return report


def load_report(out_dir: str | Path) -> dict[str, Any]:
    """The report.json of a report folder."""
    return load_report_file(out_dir)


def append_section(
    out_dir: str | Path, key: str, section: Section | dict[str, Any]
) -> dict[str, Any]:
    """Add (or replace) a section of the report in ``out_dir`` and rewrite both files, all in
    one step (the folder is staged and swapped in; see :func:`save_report`).

    Figures of the section should already be in ``out_dir`` (paths relative to it). To add
    figures or files together with the section, write them inside
    ``report_folder(out_dir, keep=True)`` and call :func:`add_section` and
    :func:`write_report_files` on the staging folder, as the demo does.
    """
    report = add_section(load_report(out_dir), key, section)
    return save_report(report, out_dir)
