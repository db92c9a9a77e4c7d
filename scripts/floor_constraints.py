"""Write pip constraints pinning every dependency of pyproject.toml to its declared floor.

    python scripts/floor_constraints.py [--extra test] [--exclude torch] [--out FILE]

One ``name==floor`` line per requirement of ``[project] dependencies`` (and of each extra
named), the floor being the version of its ``>=`` (or ``==``) clause. A requirement without a
floor is an error: every dependency must say the oldest version it is known to work with, and
``make test-floors`` installs exactly these versions into a fresh virtual environment.
``--exclude`` leaves a package out (``torch``, installed beforehand from a CPU build).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"
# name, optional [extras], then the version clauses up to an environment marker
_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*([^;]*)(;.*)?$")
_FLOOR = re.compile(r"^(>=|==)\s*([0-9][A-Za-z0-9.+!-]*)$")


def floor_of(requirement: str) -> tuple[str, str]:
    """``(name, floor)`` of one PEP 508 requirement string, e.g. ``"numpy>=1.24,<3"``."""
    match = _REQUIREMENT.match(requirement)
    if match is None:
        raise ValueError(f"pyproject.toml: cannot read the requirement {requirement!r}")
    name, clauses = match.group(1), match.group(3)
    floors = [_FLOOR.match(clause.strip()) for clause in clauses.split(",") if clause.strip()]
    floors = [found.group(2) for found in floors if found]
    if len(floors) != 1:
        raise ValueError(
            f"pyproject.toml: {requirement!r} needs exactly one floor (a '>=' or '==' clause) "
            "so that `make test-floors` can install it"
        )
    return name, floors[0]


def floor_constraints(
    pyproject: Path, extras: list[str], exclude: list[str]
) -> list[tuple[str, str]]:
    """``(name, floor)`` for every dependency, then each extra's, each package once."""
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    optional = project.get("optional-dependencies", {})
    unknown = [extra for extra in extras if extra not in optional]
    if unknown:
        raise ValueError(f"pyproject.toml has no extra {unknown[0]!r} (extras: {sorted(optional)})")
    requirements = list(project["dependencies"])
    for extra in extras:
        requirements += optional[extra]
    excluded = {_normalized(name) for name in exclude}
    pins: dict[str, tuple[str, str]] = {}
    for requirement in requirements:
        name, floor = floor_of(requirement)
        key = _normalized(name)
        if key in pins and pins[key][1] != floor:
            raise ValueError(f"pyproject.toml: {name} has two floors, {pins[key][1]} and {floor}")
        if key not in excluded:
            pins[key] = (name, floor)
    return list(pins.values())


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--extra", action="append", default=[], help="also pin this extra")
    parser.add_argument("--exclude", action="append", default=[], help="leave this package out")
    parser.add_argument("--out", type=Path, default=None, help="file to write (default: stdout)")
    args = parser.parse_args(argv)
    try:
        pins = floor_constraints(PYPROJECT, args.extra, args.exclude)
    except ValueError as error:
        print(f"floor_constraints: error: {error}", file=sys.stderr)
        return 1
    text = "".join(f"{name}=={floor}\n" for name, floor in pins)
    if args.out is None:
        sys.stdout.write(text)
    else:
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
