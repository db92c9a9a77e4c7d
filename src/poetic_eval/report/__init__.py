"""Reports people read: report.json + report.md with sections, tables and PNG figures."""

from .document import (
    Section,
    Table,
    add_section,
    append_section,
    load_report,
    new_report,
    write_report_files,
)
from .folders import FIGURES_DIR, attach, check_report_folder, report_folder

__all__ = [
    "FIGURES_DIR",
    "Section",
    "Table",
    "add_section",
    "append_section",
    "attach",
    "check_report_folder",
    "load_report",
    "new_report",
    "report_folder",
    "write_report_files",
]
