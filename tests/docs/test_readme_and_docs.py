"""The README stays a newcomer's page, and every page it hands over to is there and true.

README.md: under 200 lines, opening with the two commands (`make demo`, `make test`) before any
other; every page under docs/ reachable from it by links. README.md, DEVELOPERS.md and every
docs/*.md page (found by glob, so a new page is checked without editing this test): every
relative link resolves, to a heading too where it names one, and every repository path they
name (tests/, bench/, scripts/, src/, metrics/, docs/, cards/, builders/) exists.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
PAGES = [README, ROOT / "DEVELOPERS.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
REPO_PATH = re.compile(
    r"(?<![\w./<-])((?:tests|bench|scripts|src|metrics|docs|cards|builders)/[\w/*.-]*)"
)
# files a guide shows how to write: named on purpose before they exist
GUIDE_EXAMPLES = {"adding_an_analyzer.md": {"src/poetic_eval/analyzers/alliteration.py"}}


def relative_links(page: Path) -> list[tuple[Path, str]]:
    """(target file, fragment) of every link in ``page`` that is not a URL."""
    links = []
    for target in LINK.findall(FENCE.sub("", page.read_text(encoding="utf-8"))):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, fragment = target.partition("#")
        links.append(((page.parent / path).resolve() if path else page, fragment))
    return links


def heading_anchors(page: Path) -> set[str]:
    """GitHub's anchors for the headings of ``page``: lower case, punctuation dropped, spaces
    as hyphens."""
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    headings = re.findall(r"^#+ (.+)$", text, re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


def named_paths(page: Path) -> list[str]:
    """Repository paths named in ``page``, without a trailing full stop; a path that goes on
    with a ``<placeholder>`` is a pattern, not a path, and is left out."""
    text = page.read_text(encoding="utf-8")
    paths = []
    for match in REPO_PATH.finditer(text):
        if text[match.end() : match.end() + 1] == "<":
            continue
        paths.append(match.group(1).rstrip("."))
    return paths


def test_the_readme_is_short():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) < 200, f"README.md has {len(lines)} lines; move detail to a docs/ page"


def test_the_readme_opens_with_make_demo_and_make_test():
    text = README.read_text(encoding="utf-8")
    first_block = FENCE.search(text)
    assert first_block, "README.md has no code block"
    before = text[: first_block.start()]
    assert "make " not in before and "pip " not in before, "a command comes before the first block"
    commands = [
        line.split("#")[0].strip()
        for line in first_block.group(0).splitlines()[1:-1]
        if line.split("#")[0].strip()
    ]
    assert commands == ["make demo", "make test"], commands


def test_every_docs_page_is_reachable_from_the_readme():
    seen, todo = {README}, [README]
    while todo:
        for target, _ in relative_links(todo.pop()):
            if target.suffix == ".md" and target.is_file() and target not in seen:
                seen.add(target)
                todo.append(target)
    unreachable = [p.name for p in sorted((ROOT / "docs").glob("*.md")) if p not in seen]
    assert not unreachable, f"docs pages no link from README.md leads to: {unreachable}"


# the pages that took over the README's former sections, each linked from the README itself
MOVED_SECTIONS = [
    "bare_names", "diversity", "analyzers", "language_models", "blm", "integrations",
    "command_line", "writing_outputs", "datasets", "publishing", "benchmarks", "architecture",
]  # fmt: skip


def test_the_readme_links_every_moved_section():
    linked = {target for target, _ in relative_links(README)}
    unlinked = [name for name in MOVED_SECTIONS if ROOT / "docs" / f"{name}.md" not in linked]
    assert not unlinked, f"README.md does not link docs pages: {unlinked}"


@pytest.mark.parametrize("page", PAGES, ids=lambda path: path.name)
def test_every_relative_link_resolves(page):
    broken = []
    for target, fragment in relative_links(page):
        if not target.exists():
            broken.append(str(target.relative_to(ROOT)))
        elif fragment and target.suffix == ".md" and fragment not in heading_anchors(target):
            broken.append(f"{target.relative_to(ROOT)}#{fragment}")
    assert not broken, f"{page.relative_to(ROOT)} links to what is not there: {broken}"


@pytest.mark.parametrize("page", PAGES, ids=lambda path: path.name)
def test_every_repository_path_named_exists(page):
    examples = GUIDE_EXAMPLES.get(page.name, set())
    missing = [p for p in named_paths(page) if p not in examples and not list(ROOT.glob(p))]
    assert not missing, f"{page.relative_to(ROOT)} names paths that do not exist: {missing}"
