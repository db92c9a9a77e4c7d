"""Reports people read: report.json + report.md with sections, tables and PNG figures."""

from .document import (
    FIGURES_DIR,
    REPORT_FORMAT,
    Section,
    Table,
    add_section,
    append_section,
    load_report,
    new_report,
    render_markdown,
    save_report,
)

__all__ = [
    "FIGURES_DIR",
    "REPORT_FORMAT",
    "Section",
    "Table",
    "add_section",
    "append_section",
    "load_report",
    "new_report",
    "render_markdown",
    "save_report",
]
