"""The package's layers point down: no core package imports what is built on it."""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "poetic_eval"
CORE = (
    "text", "files", "checks", "rhyme", "lm", "diversity", "pairs", "agreement", "limericks",
    "blm", "quatrain", "analyzers",
)  # fmt: skip
ABOVE = {"report", "hub", "cli", "integrations", "evaluate_modules"}


def imported_packages(path: Path) -> set[str]:
    """The top-level poetic_eval subpackages a module imports, relative or absolute."""
    module_parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = list(module_parts[: len(module_parts) - node.level])
                target = base + (node.module.split(".") if node.module else [])
                names = (
                    [target + [alias.name] for alias in node.names]
                    if len(target) == 1
                    else [target]
                )
            else:
                names = [(node.module or "").split(".")]
        elif isinstance(node, ast.Import):
            names = [alias.name.split(".") for alias in node.names]
        else:
            continue
        for parts in names:
            if len(parts) > 1 and parts[0] == "poetic_eval":
                found.add(parts[1])
    return found


@pytest.mark.parametrize("package", CORE)
def test_core_packages_import_nothing_above_them(package):
    offenders = {
        str(path.relative_to(PACKAGE)): sorted(imported_packages(path) & ABOVE)
        for path in sorted((PACKAGE / package).rglob("*.py"))
    }
    assert {path: above for path, above in offenders.items() if above} == {}


def test_the_checker_sees_imports_at_every_relative_level():
    # report/sections/blm.py: `from ...blm.answer_labels import` (three dots), `from .. import`
    assert {"blm", "report"} <= imported_packages(PACKAGE / "report" / "sections" / "blm.py")
    assert "text" in imported_packages(PACKAGE / "diversity" / "profile.py")
