"""Reports people read: report.json + report.md with sections, tables and PNG figures."""

from .document import (
    Section,
    Table,
    add_scores,
    add_section,
    append_section,
    load_report,
    new_report,
    render_markdown,
    save_report,
    write_report_files,
)
from .folders import (
    FIGURES_DIR,
    REPORT_ENTRIES,
    REPORT_FORMAT,
    attach,
    check_report_folder,
    report_folder,
)

__all__ = [
    "FIGURES_DIR",
    "REPORT_ENTRIES",
    "REPORT_FORMAT",
    "Section",
    "Table",
    "add_scores",
    "add_section",
    "append_section",
    "attach",
    "check_report_folder",
    "load_report",
    "new_report",
    "render_markdown",
    "report_folder",
    "save_report",
    "write_report_files",
]
